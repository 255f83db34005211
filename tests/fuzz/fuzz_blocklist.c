/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer: the blocklist parser (Spamhaus DROP text and JSON lines). Any input gives a
 * list or a one-line error; a list that parsed answers lookups without reading out of
 * bounds, and every range it holds is ordered and disjoint.
 */
#include <stdlib.h>
#include <string.h>

#include "fws_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fws_blocklist bl = {0};
	char err[512];
	uint8_t probe[16] = {0};
	size_t i;

	if (fws_blocklist_parse(&bl, (const char *)data, size, "fuzz", err, sizeof(err)) < 0) {
		if (strchr(err, '\n') || err[0] == '\0')
			abort();
		fws_blocklist_free(&bl);
		return 0;
	}
	for (i = 0; i + 1 < bl.n; i++)
		if (bl.r[i].lo > bl.r[i].hi || bl.r[i].hi >= bl.r[i + 1].lo)
			abort();
	memcpy(probe, data, size < sizeof(probe) ? size : sizeof(probe));
	(void)fws_blocklist_has(&bl, probe, false);
	(void)fws_blocklist_has(&bl, probe, true);
	fws_blocklist_free(&bl);
	return 0;
}
