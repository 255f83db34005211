/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a trial asks of its agents for whoever needs it (the phases, the merge, the
 * features): the controller's clock, a probe of an agent's TSC, a stream's transmit link,
 * and each stream's flows read back chunk by chunk. It calls no phase, merge or feature (the
 * circle check holds lib/ctrl to it).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fws_compat.h"
#include "fws_trial_int.h"
#include "fws_util.h"

uint64_t
fws_trial_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct fws_tsc_point
fws_trial_tsc_point(struct fws_agent *a, unsigned int n)
{
	struct fws_tsc_point best = {.e = 1e18};
	unsigned int i;

	for (i = 0; i < n; i++) {
		double t1 = (double)fws_trial_now_ns();
		uint64_t x = a->ops->tsc(a);
		double t4 = (double)fws_trial_now_ns();

		if ((t4 - t1) / 2 < best.e)
			best = (struct fws_tsc_point){
				.c = (t1 + t4) / 2, .a = x, .e = (t4 - t1) / 2};
	}
	return best;
}

double
fws_trial_probe_ns(struct fws_trial *t, unsigned int k)
{
	if (k >= t->n_agents || t->agents[k]->ops->tsc == NULL)
		return -1;
	return fws_trial_tsc_point(t->agents[k], 8).e;
}

/* A chunk of flows from every agent: received merged, sent summed (a stream's flows may be
 * split over several senders; each reports 0 for those it does not send). */
struct chunk {
	struct fws_agent_rxflow rx[FWS_AGENT_CHUNK], rx1[FWS_AGENT_CHUNK];
	struct fws_agent_txflow tx[FWS_AGENT_CHUNK], tx1[FWS_AGENT_CHUNK];
};

static void
merge_rx(struct fws_agent_rxflow *into, const struct fws_agent_rxflow *o, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		fws_rxstat_merge(&into[i].rx, &o[i].rx);
		fws_natobs_merge(&into[i].nat, &o[i].nat);
		into[i].lcores += o[i].lcores;
	}
}

static void
merge_tx(struct fws_agent_txflow *into, const struct fws_agent_txflow *o, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		into[i].seq += o[i].seq;
		if (o[i].seq || !into[i].sent.src)
			into[i].sent = o[i].sent;
	}
}

static void
read_chunk(struct fws_trial *t, unsigned int s, uint32_t lo, uint32_t n, struct chunk *c)
{
	bool have_rx = false, have_tx = false;
	struct fws_agent *a;
	unsigned int k;

	memset(c->rx, 0, sizeof(c->rx[0]) * n);
	memset(c->tx, 0, sizeof(c->tx[0]) * n);
	FWS_TRIAL_FOREACH_AGENT(t, k, a)
	{
		if ((a->rx_streams >> s) & 1) {
			a->ops->rx_flows(a, s, lo, n, have_rx ? c->rx1 : c->rx);
			if (have_rx)
				merge_rx(c->rx, c->rx1, n);
			have_rx = true;
		}
		if ((a->tx_streams >> s) & 1) {
			a->ops->tx_flows(a, s, lo, n, have_tx ? c->tx1 : c->tx);
			if (have_tx)
				merge_tx(c->tx, c->tx1, n);
			have_tx = true;
		}
	}
}

uint64_t
fws_trial_tx_link_mbps(const struct fws_trial *t, unsigned int s)
{
	const struct fws_cfg_stream *cs = &t->cfg->streams[s];
	uint64_t sum = 0;
	unsigned int j;

	for (j = 0; j < cs->n_tx; j++) {
		if (t->port[cs->tx_ports[j]].link_speed_mbps == 0)
			return 0;
		sum += t->port[cs->tx_ports[j]].link_speed_mbps;
	}
	return sum;
}

int
fws_trial_flows(struct fws_trial *t, unsigned int s, fws_trial_flow_fn fn, void *arg)
{
	uint32_t lo, n, count = t->cfg->streams[s].flows.count;
	struct chunk *c = aligned_alloc(FWS_CACHE_LINE, sizeof(struct chunk));

	if (c == NULL)
		return -ENOMEM;
	for (lo = 0; lo < count; lo += n) {
		n = FWS_MIN(count - lo, (uint32_t)FWS_AGENT_CHUNK);
		read_chunk(t, s, lo, n, c);
		fn(arg, s, lo, n, c->rx, c->tx);
	}
	free(c);
	return 0;
}
