/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer: ptp4l's state as pmc prints it (fws_ptp_parse). Any input gives a state or
 * -EINVAL; a parsed state's strings are terminated within their fields, and its check is a
 * verdict with an error that is a finite, non-negative figure or a one-line reason.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fws_ptp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fws_ptp_state s;
	char *text = malloc(size + 1), msg[256] = "";
	double err = -1;

	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (fws_ptp_parse(text, &s) == 0) {
		if (memchr(s.gm, 0, sizeof(s.gm)) == NULL ||
		    memchr(s.identity, 0, sizeof(s.identity)) == NULL ||
		    memchr(s.port_state, 0, sizeof(s.port_state)) == NULL)
			abort();
		if (fws_ptp_check(&s, &err, msg, sizeof(msg)) == 0) {
			if (!isfinite(err) || err < 0)
				abort();
		} else if (msg[0] == '\0' || strchr(msg, '\n')) {
			abort();
		}
	}
	free(text);
	return 0;
}
