/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trial feature "stamps": how each stream's transmit tasks stamp their frames (fws_tx.h: the
 * wire model on physical ports, the hand-over elsewhere, or as the port's "stamp" key says)
 * and, after each trial, what that leaves uncertain: the build time added to each stamp and
 * the lag from a burst's stamp to the end of its hand-over, the worst of the stream's tasks.
 */
#include <inttypes.h>
#include <string.h>

#include "fd_stamps.h"
#include "fws_engine.h"
#include "fws_host.h"

/* The link speed of a port's wire model, 0 for none (fws_tx: departure stamps). */
static uint32_t
wire_mbps(const struct fws_host *t, unsigned int p)
{
	enum fws_stamp mode = t->cfg->ports[p].stamp;

	if (mode == FWS_STAMP_HANDOVER || (mode == FWS_STAMP_AUTO && !t->port[p].physical))
		return 0;
	return t->port[p].link_speed_mbps;
}

static int
stamps_setup(struct fws_host *t, void **state, struct fws_err *e)
{
	unsigned int i;

	(void)state;
	(void)e;
	for (i = 0; i < t->n_tasks; i++) {
		struct fws_tx_task *task = &t->tasks[i];

		task->wire_mbps = task->engine->handover_stamps ? 0 : wire_mbps(t, task->port_idx);
	}
	return 0;
}

static void
collect_stamp(const struct fws_host *t, unsigned int s, double hz, struct fws_fd_stamps *st)
{
	int64_t lag_sum = 0, lag_min = INT64_MAX, lag_max = INT64_MIN;
	uint64_t bursts = 0;
	unsigned int i;

	for (i = 0; i < t->n_tasks; i++) {
		const struct fws_tx_task *task = &t->tasks[i];

		if (task->stream != s || !task->active)
			continue;
		st->active = 1;
		st->wire_mbps = task->wire_mbps;
		if (task->lead_fp != UINT32_MAX)
			st->lead_ns = RTE_MAX(st->lead_ns, task->lead_fp / 256.0 * 1e9 / hz);
		if (task->lag_bursts == 0)
			continue;
		lag_min = RTE_MIN(lag_min, task->lag_min);
		lag_max = RTE_MAX(lag_max, task->lag_max);
		lag_sum += task->lag_sum;
		bursts += task->lag_bursts;
		st->late_bursts += task->lag_late;
	}
	st->lag_bursts = bursts;
	if (bursts == 0)
		return;
	st->lag_avg_ns = (double)lag_sum / (double)bursts * 1e9 / hz;
	st->lag_min_ns = (double)lag_min * 1e9 / hz;
	st->lag_max_ns = (double)lag_max * 1e9 / hz;
}

static void
stamps_collect(struct fws_host *t, void *state, struct fws_agent_counts *c, uint64_t now)
{
	double hz = c->tsc_hz > 0 ? c->tsc_hz : (double)t->hz;
	unsigned int s;

	(void)state;
	(void)now;
	for (s = 0; s < t->cfg->n_streams; s++) {
		struct fws_fd_stamps *st = fws_host_block(t, &fws_fd_stamps, c, s);

		collect_stamp(t, s, hz, st);
		st->received = c->streams[s].hist.count;
	}
}

const struct fws_host_feature fws_feature_stamps = {
	.name = "stamps",
	.setup = stamps_setup,
	.on = {[FWS_FEATURE_COLLECT] = stamps_collect},
};
