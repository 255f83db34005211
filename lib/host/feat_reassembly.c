/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trial feature "reassembly": every receive lcore reassembles the fragments of test packets
 * in a table of its own (rte_ip_frag is not thread-safe; fws_rx's fragment stage), 4096
 * packets under way, each given up 1 s after its first fragment. After each trial the
 * packets still in pieces are given up, and each stream counts its packets reassembled,
 * given up and refused by the full table.
 */
#include <errno.h>
#include <inttypes.h>

#include <rte_ip_frag.h>
#include <rte_malloc.h>

#include "fd_reassembly.h"
#include "fws_host.h"
#include "fws_port.h"

#define RX_FRAG_FLOWS 4096 /**< packets being reassembled at once, per receive lcore */
#define RX_FRAG_BUCKET 16  /**< entries per bucket of the reassembly table */
#define RX_FRAG_BUF 16384  /**< the largest reassembled packet read whole */

static int
frag_setup(struct fws_host *t, void **state, struct fws_err *e)
{
	unsigned int k;

	(void)state;
	for (k = 0; k < t->n_rx; k++) {
		struct fws_rx_lcore *c = t->rx[k];

		c->frag = rte_ip_frag_table_create(RX_FRAG_FLOWS, RX_FRAG_BUCKET, RX_FRAG_FLOWS,
						   t->hz, (int)rte_socket_id());
		c->frag_dr = rte_zmalloc("fws_frag_dr", sizeof(*c->frag_dr), RTE_CACHE_LINE_SIZE);
		c->frag_buf_len = RX_FRAG_BUF;
		c->frag_buf = rte_malloc("fws_frag_buf", c->frag_buf_len, RTE_CACHE_LINE_SIZE);
		if (!c->frag || !c->frag_dr || !c->frag_buf)
			return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM,
					   "setup: out of memory for the reassembly tables; %s",
					   fws_port_mem_hint());
	}
	return 0;
}

/* Packets still in pieces are lost: their pieces given up. */
static void
frag_finish(struct fws_host *t, void *state, struct fws_agent_counts *c, uint64_t now)
{
	unsigned int k;

	(void)state;
	(void)c;
	(void)now;
	for (k = 0; k < t->n_rx; k++)
		fws_rx_frag_flush(t->rx[k]);
}

static void
frag_collect(struct fws_host *t, void *state, struct fws_agent_counts *c, uint64_t now)
{
	unsigned int s, k;

	(void)state;
	(void)now;
	for (s = 0; s < t->cfg->n_streams; s++) {
		struct fws_fd_frag *n = fws_host_block(t, &fws_fd_reassembly, c, s);

		for (k = 0; k < t->n_rx; k++) {
			n->reassembled += t->rx[k]->streams[s].reassembled;
			n->given_up += t->rx[k]->streams[s].given_up;
			n->refused += t->rx[k]->streams[s].refused;
		}
	}
}

static void
frag_destroy(struct fws_host *t, void *state)
{
	unsigned int k;

	(void)state;
	for (k = 0; k < t->n_rx; k++) {
		struct fws_rx_lcore *c = t->rx[k];

		if (c->frag)
			rte_ip_frag_table_destroy(c->frag);
		rte_free(c->frag_dr);
		rte_free(c->frag_buf);
		c->frag = NULL;
		c->frag_dr = NULL;
		c->frag_buf = NULL;
	}
}

const struct fws_host_feature fws_feature_reassembly = {
	.name = "reassembly",
	.setup = frag_setup,
	.on = {[FWS_FEATURE_FINISH] = frag_finish, [FWS_FEATURE_COLLECT] = frag_collect},
	.destroy = frag_destroy,
};
