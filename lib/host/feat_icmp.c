/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ICMP and ICMPv6 errors from the path (fragmentation needed / packet too big, unreachable,
 * time exceeded, parameter problem), matched to the stream whose packet they quote: by the
 * quoted signature when the quote reaches it (Linux quotes up to 576 bytes), else by the
 * quoted addresses and ports against each stream's flows (FreeBSD, pf: 8 bytes by default).
 * Trial feature "icmp": the receive lcores pass them to the main lcore (fws_rx's ICMP
 * stage); counts per stream and the MTUs the path announced go into each trial's result.
 * Errors a trial's warm-up drew count in that trial.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "fd_icmp.h"
#include "fws_host.h"
#include "fws_sig.h"

/* The current trial's errors, per stream and about none. */
struct icmp_state {
	struct fws_host *t;
	struct fws_icmp_tally tally[FWS_CFG_MAX_STREAMS];
	uint64_t unmatched;
};

/* The stream the error is about, or -1. */
static int
match(const struct fws_host *t, const struct fws_icmp_info *e)
{
	struct fws_flow_tuple ft = {
		.src_ip = e->src, .dst_ip = e->dst, .src_port = e->sport, .dst_port = e->dport};
	struct fws_sig sig;
	unsigned int s;
	uint32_t i;

	if (e->quoted_len >= FWS_SIG_LEN &&
	    (fws_sig_parse(e->quoted_payload, e->quoted_len, t->sync.cookie, &sig) == FWS_SIG_OK ||
	     fws_sig_parse(e->quoted_payload, e->quoted_len, t->warm_cookie, &sig) == FWS_SIG_OK) &&
	    sig.stream < t->cfg->n_streams)
		return (int)sig.stream;
	if (!e->has_ports)
		return -1;
	for (s = 0; s < t->cfg->n_streams; s++)
		if (t->cfg->streams[s].flows.ipv6 == e->ipv6 &&
		    fws_flow_index(&t->cfg->streams[s].flows, &ft, &i) == 0)
			return (int)s;
	return -1;
}

/* fws_ctlio's hook: an ICMP error reached port. */
static void
icmp_input(void *arg, unsigned int port, struct rte_mbuf *m)
{
	struct icmp_state *st = arg;
	const struct fws_host *t = st->t;
	struct fws_icmp_info e;
	struct fws_icmp_tally *y;
	int s;

	(void)port;
	if (fws_pkt_icmp_parse(rte_pktmbuf_mtod(m, const uint8_t *), m->data_len, &e) < 0 ||
	    (s = match(t, &e)) < 0) {
		st->unmatched++;
		rte_pktmbuf_free(m);
		return;
	}
	y = &st->tally[s];
	y->n[e.cls]++;
	if (e.cls == FWS_ICMP_TOO_BIG && e.mtu) {
		y->mtu_min = y->mtu_min ? RTE_MIN(y->mtu_min, e.mtu) : e.mtu;
		y->mtu_max = RTE_MAX(y->mtu_max, e.mtu);
	}
	rte_pktmbuf_free(m);
}

static int
icmp_setup(struct fws_host *t, void **state, struct fws_err *e)
{
	struct icmp_state *st = calloc(1, sizeof(*st));
	unsigned int k;

	if (st == NULL)
		return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
	st->t = t;
	*state = st;
	t->ctl.icmp_input = icmp_input;
	t->ctl.icmp_arg = st;
	for (k = 0; k < t->n_rx; k++)
		t->rx[k]->icmp = true;
	return 0;
}

/* A trial starts: its tallies from zero. */
static void
icmp_start(struct fws_host *t, void *state, struct fws_agent_counts *c, uint64_t now)
{
	struct icmp_state *st = state;

	(void)t;
	(void)c;
	(void)now;
	memset(st->tally, 0, sizeof(st->tally));
	st->unmatched = 0;
}

static void
icmp_collect(struct fws_host *t, void *state, struct fws_agent_counts *c, uint64_t now)
{
	const struct icmp_state *st = state;
	unsigned int s;
	struct fws_icmp_trial *tr = fws_host_trial_block(t, &fws_fd_icmp, c);

	(void)now;
	for (s = 0; s < t->cfg->n_streams; s++)
		*(struct fws_icmp_tally *)fws_host_block(t, &fws_fd_icmp, c, s) = st->tally[s];
	tr->unmatched = st->unmatched;
}

static void
icmp_destroy(struct fws_host *t, void *state)
{
	t->ctl.icmp_input = NULL;
	t->ctl.icmp_arg = NULL;
	free(state);
}

const struct fws_host_feature fws_feature_icmp = {
	.name = "icmp",
	.setup = icmp_setup,
	.on = {[FWS_FEATURE_START] = icmp_start, [FWS_FEATURE_COLLECT] = icmp_collect},
	.destroy = icmp_destroy,
};
