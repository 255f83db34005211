/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "fws_engine.h"
#include "fws_tx.h"

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

int
fws_engine_setup(const struct fws_engine *eng, struct fws_tx_task *t, const char *pool_name,
		 unsigned int n_mbufs, uint16_t max_frame, int socket,
		 const struct fws_pkt_hdr *hdr)
{
	t->engine = eng;
	return (eng->setup ? eng->setup : fws_tx_task_init)(t, pool_name, n_mbufs, max_frame,
							    socket, hdr);
}

int
fws_engine_sizes(struct fws_tx_task *t, const struct fws_size_mix *mix)
{
	return (t->engine->sizes ? t->engine->sizes : fws_tx_task_sizes)(t, mix);
}

void
fws_engine_start(struct fws_tx_task *t, uint32_t cookie, uint64_t now, uint64_t hz)
{
	(t->engine->start ? t->engine->start : fws_tx_task_start)(t, cookie, now, hz);
}

void
fws_engine_destroy(struct fws_tx_task *t)
{
	(t->engine->destroy ? t->engine->destroy : fws_tx_task_free)(t);
}
