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

#include "fws_host.h"
#include "fws_port.h"

#define RX_FRAG_FLOWS 4096 /**< packets being reassembled at once, per receive lcore */
#define RX_FRAG_BUCKET 16  /**< entries per bucket of the reassembly table */
#define RX_FRAG_BUF 16384  /**< the largest reassembled packet read whole */

/* A stream's packets that arrived fragmented: a receiving host's counts, and the trial's. */
struct frag_counts {
	uint64_t reassembled; /* distinct packets reassembled */
	/* Packets whose first fragment arrived and whose reassembly was given up (never
	 * completed in time, too many fragments, overlapping): lost, unless a copy came. */
	uint64_t given_up;
	/* Of those, packets whose first fragment the full reassembly table refused: lost to
	 * the tester's limit, not the DUT's. */
	uint64_t refused;
};

static const struct fws_featdata frag_data;

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
		struct frag_counts *n = fws_host_block(t, &frag_data, c, s);

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

/* Every receiving host's counts add up. */
static void
frag_merge(void *result, const void *count, unsigned int roles)
{
	struct frag_counts *r = result;
	const struct frag_counts *n = count;

	if (!(roles & FWS_FD_RX))
		return;
	r->reassembled += n->reassembled;
	r->given_up += n->given_up;
	r->refused += n->refused;
}

static void
frag_json(const void *result, json_t *o)
{
	const struct frag_counts *r = result;
	json_t *rx = json_object_get(o, "received");

	json_object_set_new(rx, "reassembled", json_integer((json_int_t)r->reassembled));
	json_object_set_new(rx, "reassembly_given_up", json_integer((json_int_t)r->given_up));
	json_object_set_new(rx, "reassembly_refused", json_integer((json_int_t)r->refused));
}

static void
frag_text(FILE *f, const char *stream, const void *result)
{
	const struct frag_counts *r = result;

	if (r->reassembled)
		fprintf(f,
			"  fragmented: %s: %" PRIu64 " test packets arrived in fragments "
			"(reassembled, counted once)\n",
			stream, r->reassembled);
	if (r->given_up)
		fprintf(f,
			"  fragmented: %s: reassembly gave up %" PRIu64
			" test packets whose first fragment came (the rest not within 1 s, more "
			"than 8, or overlapping): lost unless a copy arrived whole\n",
			stream, r->given_up);
	if (r->refused)
		fprintf(f,
			"  fragmented: %s: TESTER-LIMITED: %" PRIu64 " of those refused by the "
			"full reassembly table (4096 packets a receive lcore): their loss is the "
			"tester's, not the DUT's\n",
			stream, r->refused);
}

static const struct fws_featdata frag_data = {
	.name = "reassembly",
	.count_size = sizeof(struct frag_counts),
	.result_size = sizeof(struct frag_counts),
	.merge = frag_merge,
	.json = frag_json,
	.text = frag_text,
};

const struct fws_host_feature fws_feature_reassembly = {
	.name = "reassembly",
	.data = &frag_data,
	.setup = frag_setup,
	.on = {[FWS_FEATURE_FINISH] = frag_finish, [FWS_FEATURE_COLLECT] = frag_collect},
	.destroy = frag_destroy,
};
