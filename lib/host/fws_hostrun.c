/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A trial on the host, as the controller asks for it through the seam (fws_agent.h): load
 * the plan into the transmit tasks and receive lcores, launch the workers, follow the phase
 * word, service the control plane and the host features while the phases run, stop.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <rte_cycles.h>

#include "fws_engine.h"
#include "fws_host.h"

/* Sender j's part of a stream's frame limit, by flow share; the rounding remainder is the
 * first sender's. Every host reckons the same parts. */
static uint64_t
sender_limit(const struct fws_cfg_stream *cs, unsigned int j, uint64_t limit)
{
	uint64_t part[FWS_CFG_MAX_PORTS], sum = 0;
	unsigned int i;
	uint32_t lo, hi;

	for (i = 0; i < cs->n_tx; i++) {
		fws_cfg_sender_flows(cs, i, &lo, &hi);
		part[i] = limit * (hi - lo) / cs->flows.count;
		sum += part[i];
	}
	return part[j] + (j == 0 ? limit - sum : 0);
}

/* A stream's frame limit split over its senders, and each sender's over its tasks, by flow
 * share; a sender's remainder goes to its task that sends its first flow. */
static void
limits(struct fws_host *h, unsigned int s, uint64_t limit)
{
	const struct fws_cfg_stream *cs = &h->cfg->streams[s];
	uint64_t sum[FWS_CFG_MAX_PORTS] = {0};
	struct fws_tx_task *head[FWS_CFG_MAX_PORTS] = {NULL};
	unsigned int i;
	uint32_t lo, hi;
	int j;

	for (i = 0; i < h->n_tasks; i++) {
		struct fws_tx_task *task = &h->tasks[i];

		if (task->stream != s || !task->active ||
		    (j = fws_cfg_sender(cs, task->port_idx)) < 0)
			continue;
		fws_cfg_sender_flows(cs, (unsigned int)j, &lo, &hi);
		task->limit = sender_limit(cs, (unsigned int)j, limit) * task->nb_flows / (hi - lo);
		sum[j] += task->limit;
		if (task->flows == &h->txflows[s][lo])
			head[j] = task;
	}
	for (j = 0; j < (int)cs->n_tx; j++)
		if (head[j])
			head[j]->limit += sender_limit(cs, (unsigned int)j, limit) - sum[j];
}

static int
load_tasks(struct fws_host *h, const struct fws_agent_plan *p, struct fws_err *e)
{
	const struct fws_size_mix *mix = &h->cfg->sizes[p->size_idx];
	unsigned int i, s;

	for (i = 0; i < h->n_tasks; i++) {
		struct fws_tx_task *task = &h->tasks[i];
		const struct fws_cfg_stream *cs = &h->cfg->streams[task->stream];

		if (fws_engine_sizes(task, mix) < 0)
			return fws_err_set(e, FWS_ERR_SETUP, -EINVAL,
					   "setup: frame size mix %s does not fit the buffers",
					   mix->name);
		memset(&task->cnt, 0, sizeof(task->cnt));
		task->active = (p->active >> task->stream) & 1;
		/* Its stamps as this host's (test) clock reads them, then as the receiver's. */
		task->clk = fws_affine_then(&h->skew, &p->clk[task->stream]);
		task->clk_on = task->clk.on;
		task->limit = 0;
		task->pps = p->pps[task->stream] * task->nb_flows / cs->flows.count;
	}
	for (s = 0; s < h->cfg->n_streams; s++)
		if (p->limit[s])
			limits(h, s, p->limit[s]);
	return 0;
}

int
fws_host_arm(struct fws_host *h, const struct fws_agent_plan *plan, struct fws_err *e)
{
	struct fws_agent_plan checked = *plan, *p = &checked;
	uint64_t start;
	unsigned int i;
	int rc = fws_agent_plan_check(h->cfg, p, e);

	if (rc == 0)
		rc = load_tasks(h, p, e);
	if (rc < 0)
		return rc;
	h->sync.cookie = p->cookie;
	h->warm_cookie = p->warm_cookie;
	h->measuring = false;
	h->live_ns = 0; /* the next live reading starts the rates afresh */
	memset(h->cur, 0, sizeof(*h->cur));
	for (i = 0; i < h->n_rx; i++) {
		fws_rx_reset(h->rx[i]);
		h->rx[i]->cookie = p->cookie;
		h->rx[i]->warm_cookie = p->warm_cookie;
	}
	for (i = 0; i < h->cfg->n_ports; i++) {
		if (rte_eth_stats_get(h->port[i].port_id, &h->before[i]) != 0)
			memset(&h->before[i], 0, sizeof(h->before[i]));
		h->before_kernel_rx[i] = fws_host_kernel_rx(h->cfg->ports[i].device);
	}
	start = rte_rdtsc();
	fws_host_features_on(h, FWS_FEATURE_START, start);
	for (i = 0; i < h->n_tasks; i++) {
		fws_tx_task_lead_reset(&h->tasks[i]);
		fws_engine_start(&h->tasks[i], p->warmup ? p->warm_cookie : p->cookie, start,
				 h->hz);
	}
	return 0;
}

int
fws_host_launch(struct fws_host *h, enum fws_phase ph, struct fws_err *e)
{
	int rc;

	fws_ctlio_poll_idle(&h->ctl);
	fws_sync_set(&h->sync, ph);
	h->ctl.running = true;
	rc = fws_workers_launch(&h->sync, h->workers, h->n_workers, e);
	if (rc < 0)
		h->ctl.running = false;
	if (rc == 0 && ph == FWS_PHASE_MEASURE)
		fws_host_phase(h, ph, 0);
	return rc;
}

double
fws_host_phase(struct fws_host *h, enum fws_phase ph, uint64_t at)
{
	uint64_t now = rte_rdtsc(), raw;

	if (at == 0) {
		fws_sync_set(&h->sync, ph);
		raw = now;
	} else {
		raw = h->skew.on ? fws_affine_unapply(&h->skew, at) : at;
		fws_sync_arm(&h->sync, ph, raw);
	}
	if (ph == FWS_PHASE_MEASURE) {
		fws_clock_read(&h->clk0);
		h->measuring = true;
	}
	return raw < now ? (double)(now - raw) * 1e9 / (double)h->hz : 0;
}

/* A back-to-back trial or probe is over when every active task sent its share. */
static bool
bursts_sent(const struct fws_host *h)
{
	unsigned int i;

	for (i = 0; i < h->n_tasks; i++)
		if (h->tasks[i].active && h->tasks[i].limit &&
		    __atomic_load_n(&h->tasks[i].cnt.tx_frames, __ATOMIC_RELAXED) <
			    h->tasks[i].limit)
			return false;
	return true;
}

void
fws_host_poll(struct fws_host *h, struct fws_agent_poll *out)
{
	fws_sync_settle(&h->sync, rte_rdtsc());
	fws_ctlio_service(&h->ctl);
	fws_host_features_on(h, FWS_FEATURE_SERVICE, rte_rdtsc());
	fws_host_sample_hugepages(h);
	out->tx_stopped = fws_workers_tx_stopped(h->workers, h->n_workers);
	out->bursts_sent = bursts_sent(h);
}

void
fws_host_idle(struct fws_host *h)
{
	if (!h->ctl.running)
		fws_ctlio_poll_idle(&h->ctl);
}

void
fws_host_stop(struct fws_host *h, bool measured)
{
	unsigned int s, i;

	fws_sync_set(&h->sync, FWS_PHASE_QUIT);
	fws_workers_wait(h->workers, h->n_workers);
	h->ctl.running = false;
	fws_ctlio_service(&h->ctl);
	fws_sync_set(&h->sync, FWS_PHASE_IDLE);
	if (!measured) /* Stopped in warm-up: the sequence counts are warm-up frames. */
		for (s = 0; s < h->cfg->n_streams; s++)
			for (i = 0; h->txflows[s] && i < h->cfg->streams[s].flows.count; i++)
				h->txflows[s][i].seq = 0;
}
