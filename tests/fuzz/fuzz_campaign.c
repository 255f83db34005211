/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer: campaign plans. Any input gives a plan or a one-line error; a plan that parsed
 * has 1 to 64 scenarios with distinct names that are safe as file names.
 */
#include <stdlib.h>
#include <string.h>

#include "fws_campaign.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fws_campaign p;
	char err[600];
	unsigned int i, k;

	if (fws_campaign_parse((const char *)data, size, "/plans", &p, err, sizeof(err)) < 0) {
		if (strchr(err, '\n') || err[0] == '\0')
			abort();
		return 0;
	}
	if (p.n == 0 || p.n > FWS_CAMPAIGN_MAX_SCENARIOS)
		abort();
	for (i = 0; i < p.n; i++) {
		if (strchr(p.s[i].name, '/') || p.s[i].name[0] == '.' || !p.s[i].config[0])
			abort();
		for (k = 0; k < i; k++)
			if (strcmp(p.s[i].name, p.s[k].name) == 0)
				abort();
	}
	fws_campaign_free(&p);
	return 0;
}
