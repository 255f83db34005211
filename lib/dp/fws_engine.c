/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "fws_engine.h"
#include "fws_tx.h"

/* Stateless UDP: every frame from the stream's template pool, only varying fields written. */
static const struct fws_engine engine_udp = {
	.name = "udp",
	.setup = fws_tx_task_init,
	.sizes = fws_tx_task_sizes,
	.start = fws_tx_task_start,
	.tx_burst = fws_tx_burst,
	.destroy = fws_tx_task_free,
};

static const struct fws_engine *const engines[] = {&engine_udp};

const struct fws_engine *
fws_engine_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (strcmp(engines[i]->name, name) == 0)
			return engines[i];
	return NULL;
}
