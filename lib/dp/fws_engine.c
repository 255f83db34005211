/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "fws_engine.h"

/* Every engine, each defined in engine_NAME.c. */
static const struct fws_engine *const engines[] = {&fws_engine_udp, &fws_engine_tcp,
						   &fws_engine_syn};

const struct fws_engine *
fws_engine_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (strcmp(engines[i]->name, name) == 0)
			return engines[i];
	return NULL;
}
