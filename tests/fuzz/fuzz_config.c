/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer: the config parser. Any input gives a config or a one-line error; a config
 * emitted back to JSON parses again (validate's promise).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fws_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512], err2[512];
	struct fws_cfg *cfg = fws_config_parse((const char *)data, size, err, sizeof(err)), *again;
	json_t *j;
	char *s;

	if (cfg == NULL) {
		if (strchr(err, '\n') || err[0] == '\0')
			abort(); /* an error is one line and says something */
		return 0;
	}
	j = fws_config_to_json(cfg);
	s = json_dumps(j, JSON_COMPACT);
	again = fws_config_parse(s, strlen(s), err2, sizeof(err2));
	if (again == NULL)
		abort(); /* the normalised config must validate again */
	fws_config_free(again);
	free(s);
	json_decref(j);
	fws_config_free(cfg);
	return 0;
}
