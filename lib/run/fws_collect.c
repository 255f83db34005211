/* SPDX-License-Identifier: BSD-3-Clause */
/* After a trial: per-lcore counters summed into per-stream and per-port results (the
 * features add theirs at their collect hook, fws_feature.h). */
#include <stdlib.h>
#include <string.h>

#include "fws_compat.h"
#include "fws_trial_int.h"

static void
summarize_latency(struct fws_stream_result *sr, double jitter)
{
	const struct fws_hist *h = sr->hist;

	sr->lat.count = h->count;
	sr->lat.min = h->count ? h->min : 0;
	sr->lat.max = h->max;
	sr->lat.avg = fws_hist_mean(h);
	sr->lat.p50 = fws_hist_quantile(h, 0.50);
	sr->lat.p90 = fws_hist_quantile(h, 0.90);
	sr->lat.p99 = fws_hist_quantile(h, 0.99);
	sr->lat.p999 = fws_hist_quantile(h, 0.999);
	sr->lat.jitter = jitter;
}

/* Transmit side of stream s: its tasks' counters and the measured phase's span. */
static void
collect_tx(const struct fws_trial *t, unsigned int s, double hz, struct fws_stream_result *sr)
{
	uint64_t t_first = UINT64_MAX, t_stop = 0;
	unsigned int i;

	for (i = 0; i < t->n_tasks; i++) {
		const struct fws_tx_task *task = &t->tasks[i];

		if (task->stream != s)
			continue;
		sr->tx_bytes += task->cnt.tx_bytes;
		sr->tx_refused += task->cnt.tx_refused;
		sr->alloc_fail += task->cnt.alloc_fail;
		sr->tx_frames += task->cnt.tx_frames;
		sr->unlimited |= task->pps == 0; /* unpaced: as fast as the port takes */
		sr->active |= task->active;
		t_first = RTE_MIN(t_first, task->t_first);
		t_stop = RTE_MAX(t_stop, task->t_stop);
	}
	sr->duration = t_stop > t_first ? (double)(t_stop - t_first) / hz : 0;
}

/* Receive side: every lcore's flow state merged per flow, against what was sent. */
static void
collect_flows(const struct fws_trial *t, unsigned int s, struct fws_stream_result *sr)
{
	uint32_t f;
	unsigned int k;

	for (f = 0; f < t->cfg->streams[s].flows.count; f++) {
		struct fws_rxflow merged = t->rx[0]->streams[s].flows[f];
		unsigned int seen_on = merged.rx != 0;

		for (k = 1; k < t->n_rx; k++) {
			const struct fws_rxflow *o = &t->rx[k]->streams[s].flows[f];

			seen_on += o->rx != 0;
			fws_rxstat_merge(&merged, o);
		}
		sr->flows_split += seen_on > 1;
		if (t->blocked[s] && t->blocked[s][f])
			fws_rxstat_add(&sr->blk, &merged, t->txflows[s][f].seq);
		else
			fws_rxstat_add(&sr->rx, &merged, t->txflows[s][f].seq);
	}
	if (sr->rx.tx + sr->blk.tx != sr->tx_frames)
		FWS_LOG(ERR,
			"stream %s: per-flow sequence counts (%" PRIu64
			") disagree with the transmit counter (%" PRIu64 ")",
			sr->name, sr->rx.tx, sr->tx_frames);
}

static void
collect_latency(const struct fws_trial *t, unsigned int s, struct fws_stream_result *sr)
{
	uint64_t jitter_w = 0;
	double jitter_sum = 0;
	unsigned int k;

	sr->hist = calloc(1, sizeof(*sr->hist));
	if (sr->hist == NULL)
		return;
	fws_hist_reset(sr->hist);
	for (k = 0; k < t->n_rx; k++) {
		const struct fws_rx_stream *st = &t->rx[k]->streams[s];

		fws_hist_merge(sr->hist, st->hist);
		jitter_sum += (double)st->jitter16 / 16.0 * t->rx[k]->ns_per_unit *
			      (double)st->hist->count;
		jitter_w += st->hist->count;
	}
	summarize_latency(sr, jitter_w ? jitter_sum / (double)jitter_w : 0);
}

static void
stream_rates(struct fws_stream_result *sr)
{
	if (sr->duration > 0) {
		sr->tx_pps = (double)sr->tx_frames / sr->duration;
		sr->rx_pps = (double)sr->rx.unique / sr->duration;
		sr->tx_l2_bps = (double)sr->tx_bytes * 8 / sr->duration;
		sr->tx_l1_bps = sr->tx_l2_bps + sr->tx_pps * FWS_RATE_L1_OVERHEAD * 8;
		/* Distinct frames and their bytes: a duplicate is not throughput. */
		sr->rx_l2_bps = (double)sr->rx.bytes * 8 / sr->duration;
		sr->rx_l1_bps = sr->rx_l2_bps + sr->rx_pps * FWS_RATE_L1_OVERHEAD * 8;
	}
	sr->loss_pct = sr->rx.tx ? (double)sr->rx.lost * 100.0 / (double)sr->rx.tx : 0;
	sr->generator_limited =
		(sr->req_pps > 0 && sr->tx_pps < 0.99 * sr->req_pps) || sr->alloc_fail > 0;
}

static void
collect_stream(const struct fws_trial *t, unsigned int s, double req_pps, double hz,
	       struct fws_stream_result *sr)
{
	const struct fws_cfg_stream *cs = &t->cfg->streams[s];

	strlcpy(sr->name, cs->name, sizeof(sr->name));
	sr->dir = cs->dir;
	strlcpy(sr->tx_port, t->cfg->ports[cs->tx_port].name, sizeof(sr->tx_port));
	strlcpy(sr->rx_port, t->cfg->ports[cs->rx_port].name, sizeof(sr->rx_port));
	sr->flows = cs->flows.count;
	sr->proof = cs->payload_len > 0 || cs->app != FWS_APP_NONE;
	sr->syn_flood = cs->l4 == FWS_L4_SYN;
	sr->req_pps = req_pps;
	collect_tx(t, s, hz, sr);
	collect_flows(t, s, sr);
	collect_latency(t, s, sr);
	stream_rates(sr);
}

static void
nic_delta(uint16_t port_id, const struct rte_eth_stats *before, struct fws_port_result *pr)
{
	struct rte_eth_stats now;

	if (rte_eth_stats_get(port_id, &now) != 0)
		return;
	pr->nic_ipackets = now.ipackets - before->ipackets;
	pr->nic_opackets = now.opackets - before->opackets;
	pr->nic_ibytes = now.ibytes - before->ibytes;
	pr->nic_obytes = now.obytes - before->obytes;
	pr->nic_imissed = now.imissed - before->imissed;
	pr->nic_ierrors = now.ierrors - before->ierrors;
	pr->nic_oerrors = now.oerrors - before->oerrors;
	pr->nic_rx_nombuf = now.rx_nombuf - before->rx_nombuf;
}

/* Port p's receive and transmit counters of this trial, summed over lcores and tasks. */
static void
port_counters(const struct fws_trial *t, unsigned int p, struct fws_port_result *pr)
{
	unsigned int i;

	for (i = 0; i < t->n_rx; i++) {
#define ADD(name, desc) pr->rx.name += t->rx[i]->port[p].name;
		FWS_RX_COUNTERS(ADD)
#undef ADD
	}
	for (i = 0; i < t->n_tasks; i++) {
		if (t->tasks[i].port_idx != p)
			continue;
#define ADD(name, desc) pr->tx.name += t->tasks[i].cnt.name;
		FWS_TX_COUNTERS(ADD)
#undef ADD
	}
}

/* Port p's facts and its run totals (all phases, every trial so far and the control
 * plane's frames). */
static void
port_facts(const struct fws_trial *t, unsigned int p, struct fws_port_result *out)
{
	const struct fws_ctlio *io = &t->ctl;
	unsigned int w, q;

	strlcpy(out->name, t->cfg->ports[p].name, sizeof(out->name));
	strlcpy(out->device, t->cfg->ports[p].device, sizeof(out->device));
	strlcpy(out->driver, t->port[p].driver, sizeof(out->driver));
	rte_ether_format_addr(out->mac, sizeof(out->mac), &t->port[p].mac);
	out->link_speed_mbps = t->port[p].link_speed_mbps;
	out->link_up = t->port[p].link_up;
	out->hw_cksum = t->port[p].hw_cksum;
	out->ctl = io->port[p].cnt;
	for (w = 0; w < t->n_workers; w++)
		for (q = 0; q < t->workers[w].n_ctl; q++)
			if (t->workers[w].ctl[q].port_idx == p)
				out->ctl.tx_drop += t->workers[w].ctl[q].tx_drop;
	out->rx_control_total = t->rx_control[p] + io->idle_rx[p] - io->port[p].cnt.idle_frames;
	out->rx_total = t->rx_total[p] + io->idle_rx[p];
	out->tx_control_total = out->ctl.sent - out->ctl.tx_drop;
	out->tx_total = t->tx_total[p] + out->tx_control_total;
}

unsigned int
fws_trial_ports(const struct fws_trial *t, struct fws_port_result *out)
{
	unsigned int p;

	for (p = 0; p < t->cfg->n_ports; p++) {
		memset(&out[p], 0, sizeof(out[p]));
		port_facts(t, p, &out[p]);
	}
	return t->cfg->n_ports;
}

void
fws_trial_collect(struct fws_trial *t, const double *req_pps, const struct rte_eth_stats *before,
		  struct fws_result *res)
{
	unsigned int s, p;

	res->n_streams = t->cfg->n_streams;
	res->rx_poll_ns = 0;
	for (s = 0; s < t->n_workers; s++)
		if (t->workers[s].rx && t->workers[s].loops)
			res->rx_poll_ns =
				RTE_MAX(res->rx_poll_ns,
					(double)t->workers[s].loop_ticks * 1e9 /
						(double)t->workers[s].loops /
						(res->tsc_hz > 0 ? res->tsc_hz : (double)t->hz));
	for (s = 0; s < t->cfg->n_streams; s++) {
		collect_stream(t, s, req_pps[s], res->tsc_hz > 0 ? res->tsc_hz : (double)t->hz,
			       &res->streams[s]);
	}
	res->n_ports = t->cfg->n_ports;
	for (p = 0; p < t->cfg->n_ports; p++) {
		struct fws_port_result *pr = &res->ports[p];

		memset(pr, 0, sizeof(*pr));
		port_counters(t, p, pr);
		nic_delta(t->port[p].port_id, &before[p], pr);
		t->rx_total[p] += pr->rx.rx_frames;
		t->rx_control[p] += pr->rx.control + pr->rx.control_drop;
		t->tx_total[p] += pr->tx.tx_frames + pr->tx.warmup_tx;
		port_facts(t, p, pr);
	}
}

void
fws_trial_live(const struct fws_trial *t, bool warm, struct fws_progress *p)
{
	unsigned int i;

	p->tx_frames = p->tx_bytes = p->rx_frames = p->rx_bytes = 0;
	for (i = 0; i < t->n_tasks; i++) {
		const struct fws_tx_counters *c = &t->tasks[i].cnt;

		p->tx_frames +=
			__atomic_load_n(warm ? &c->warmup_tx : &c->tx_frames, __ATOMIC_RELAXED);
		p->tx_bytes += __atomic_load_n(&c->tx_bytes, __ATOMIC_RELAXED);
	}
	for (i = 0; i < t->n_rx; i++) {
		p->rx_frames += __atomic_load_n(&t->rx[i]->live_frames, __ATOMIC_RELAXED);
		p->rx_bytes += __atomic_load_n(&t->rx[i]->live_bytes, __ATOMIC_RELAXED);
	}
}

void
fws_trial_live_streams(const struct fws_trial *t, bool warm, struct fws_live_stream *out)
{
	unsigned int i, s;

	memset(out, 0, sizeof(*out) * t->cfg->n_streams);
	for (i = 0; i < t->n_tasks; i++) {
		const struct fws_tx_counters *c = &t->tasks[i].cnt;
		struct fws_live_stream *o = &out[t->tasks[i].stream];

		o->tx_frames +=
			__atomic_load_n(warm ? &c->warmup_tx : &c->tx_frames, __ATOMIC_RELAXED);
		o->tx_bytes += warm ? 0 : __atomic_load_n(&c->tx_bytes, __ATOMIC_RELAXED);
	}
	for (i = 0; i < t->n_rx && !warm; i++)
		for (s = 0; s < t->cfg->n_streams; s++) {
			const struct fws_hist *h = t->rx[i]->streams[s].hist;
			struct fws_live_stream *o = &out[s];
			uint64_t n = __atomic_load_n(&h->count, __ATOMIC_RELAXED);
			uint64_t mn = __atomic_load_n(&h->min, __ATOMIC_RELAXED);

			if (n == 0)
				continue;
			o->rx_frames += n;
			o->lat_count += n;
			o->lat_sum += __atomic_load_n(&h->sum, __ATOMIC_RELAXED);
			o->lat_min = o->lat_count == n ? mn : RTE_MIN(o->lat_min, mn);
			o->lat_max =
				RTE_MAX(o->lat_max, __atomic_load_n(&h->max, __ATOMIC_RELAXED));
		}
}
