/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A host's counts after a trial, as the seam carries them (fws_agent.h): per-lcore and
 * per-task counters summed per stream and per port, per-flow state merged over the receive
 * lcores chunk by chunk, and the live totals while it runs. What the counts mean is the
 * controller's (fws_merge.c); the host features add theirs at their collect hook.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fws_compat.h"
#include "fws_host.h"

/* Transmit side of stream s: its tasks' counters and the measured phase's span. */
static void
collect_tx(const struct fws_host *t, unsigned int s, double hz, struct fws_agent_stream *as)
{
	uint64_t t_first = UINT64_MAX, t_stop = 0;
	unsigned int i;

	for (i = 0; i < t->n_tasks; i++) {
		const struct fws_tx_task *task = &t->tasks[i];

		if (task->stream != s)
			continue;
		as->tx_bytes += task->cnt.tx_bytes;
		as->tx_refused += task->cnt.tx_refused;
		as->alloc_fail += task->cnt.alloc_fail;
		as->tx_frames += task->cnt.tx_frames;
		as->unlimited |= task->pps == 0; /* unpaced: as fast as the port takes */
		as->behind = RTE_MAX(as->behind, task->pacer.behind);
		as->active |= task->active;
		t_first = RTE_MIN(t_first, task->t_first);
		t_stop = RTE_MAX(t_stop, task->t_stop);
	}
	as->duration = t_stop > t_first ? (double)(t_stop - t_first) / hz : 0;
}

/* Receive side of stream s: the lcores' histograms and jitter. */
static void
collect_latency(const struct fws_host *t, unsigned int s, struct fws_agent_stream *as)
{
	uint64_t jitter_w = 0;
	double jitter_sum = 0;
	unsigned int k;

	fws_hist_reset(&as->hist);
	for (k = 0; k < t->n_rx; k++) {
		const struct fws_rx_stream *st = &t->rx[k]->streams[s];

		fws_hist_merge(&as->hist, st->hist);
		as->skewed += t->rx[k]->skewed[s];
		as->skew_max_ns = RTE_MAX(as->skew_max_ns,
					  (double)t->rx[k]->skew_max[s] * t->rx[k]->ns_per_unit);
		jitter_sum += (double)st->jitter16 / 16.0 * t->rx[k]->ns_per_unit *
			      (double)st->hist->count;
		jitter_w += st->hist->count;
	}
	as->jitter_ns = jitter_w ? jitter_sum / (double)jitter_w : 0;
}

int64_t
fws_host_kernel_rx(const char *device)
{
	const char *i = device ? strstr(device, ",iface=") : NULL;
	char path[96], name[32];
	unsigned long long v;
	size_t n;
	FILE *f;
	int ok;

	if (i == NULL || (strncmp(device, "net_af_packet", 13) != 0 &&
			  strncmp(device, "eth_af_packet", 13) != 0))
		return -1;
	i += 7;
	n = strcspn(i, ",");
	if (n == 0 || n >= 16 ||
	    strspn(i, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789._-@") < n)
		return -1; /* no interface name the kernel would take: not a path to read */
	snprintf(name, sizeof(name), "%.*s", (int)n, i);
	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/rx_packets", name);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	ok = fscanf(f, "%llu", &v) == 1;
	fclose(f);
	return ok && v <= INT64_MAX ? (int64_t)v : -1;
}

/* An af_packet port's ring misses in the trial: frames its kernel interface received that
 * the PMD did not deliver (0 when its counts cannot say). The kernel's count is read before
 * the PMD's at the end and after it at the start (fws_host_arm): a frame arriving between
 * the two reads can only make it fewer, never charge the tester with one it received. */
static uint64_t
ring_missed(int64_t before, int64_t now, uint64_t ipackets)
{
	return before >= 0 && now >= before && (uint64_t)(now - before) > ipackets
		       ? (uint64_t)(now - before) - ipackets
		       : 0;
}

static void
nic_delta(const struct fws_host *t, unsigned int p, struct fws_port_result *pr)
{
	const struct rte_eth_stats *before = &t->before[p];
	int64_t kernel_rx = fws_host_kernel_rx(t->cfg->ports[p].device);
	struct rte_eth_stats now;

	if (rte_eth_stats_get(t->port[p].port_id, &now) != 0)
		return;
	pr->nic_ipackets = now.ipackets - before->ipackets;
	pr->nic_opackets = now.opackets - before->opackets;
	pr->nic_ibytes = now.ibytes - before->ibytes;
	pr->nic_obytes = now.obytes - before->obytes;
	pr->nic_imissed =
		now.imissed - before->imissed +
		ring_missed(t->before_kernel_rx[p], kernel_rx, now.ipackets - before->ipackets);
	pr->nic_ierrors = now.ierrors - before->ierrors;
	pr->nic_oerrors = now.oerrors - before->oerrors;
	pr->nic_rx_nombuf = now.rx_nombuf - before->rx_nombuf;
}

/* Port p's receive and transmit counters of this trial, summed over lcores and tasks. */
static void
port_counters(const struct fws_host *t, unsigned int p, struct fws_port_result *pr)
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
port_facts(const struct fws_host *t, unsigned int p, struct fws_port_result *out)
{
	const struct fws_ctlio *io = &t->ctl;
	unsigned int w, q;

	strlcpy(out->name, t->cfg->ports[p].name, sizeof(out->name));
	strlcpy(out->device, t->cfg->ports[p].device, sizeof(out->device));
	strlcpy(out->driver, t->port[p].driver, sizeof(out->driver));
	/* The MAC its frames and answers carry: the config's "mac" where it gives one. */
	if (t->cfg->ports[p].mac_set)
		fws_mac_format(out->mac, sizeof(out->mac), &t->cfg->ports[p].mac);
	else
		rte_ether_format_addr(out->mac, sizeof(out->mac), &t->port[p].mac);
	out->link_speed_mbps = t->port[p].link_speed_mbps;
	out->link_up = t->port[p].link_up;
	out->hw_cksum = t->port[p].hw_cksum;
	out->hw_tcp_cksum = t->port[p].hw_tcp_cksum;
	out->physical = t->port[p].physical;
	out->rss = t->port[p].rss;
	out->n_rxq = t->nb_rxq;
	out->ctl = io->port[p].cnt;
	for (w = 0; w < t->n_workers; w++)
		for (q = 0; q < t->workers[w].n_ctl; q++)
			if (t->workers[w].ctl[q].port_idx == p)
				out->ctl.tx_drop += t->workers[w].ctl[q].tx_drop;
	out->rx_control_total = t->rx_control[p] + io->idle_rx[p] - io->port[p].cnt.idle_frames;
	out->rx_total = t->rx_total[p] + io->idle_rx[p];
	out->tx_control_total = out->ctl.sent - out->ctl.tx_drop;
	out->tx_total = t->tx_total[p] + out->tx_control_total;
	fws_host_features_port_facts(t, p, out); /* what the features know of it: NIC stamps */
}

unsigned int
fws_host_ports(const struct fws_host *t, struct fws_port_result *out)
{
	unsigned int p;

	for (p = 0; p < t->cfg->n_ports; p++) {
		struct rte_eth_link link;

		memset(&out[p], 0, sizeof(out[p]));
		port_facts(t, p, &out[p]);
		/* A link that came up after the port's start (a memif peer set up after it, a
		 * DUT's port slow to negotiate) is up now: hosts check says so, as a run finds
		 * it (issue 51, item 15). */
		if (out[p].link_up || fws_port_link_now(&t->port[p]) <= 0)
			continue;
		out[p].link_up = true;
		memset(&link, 0, sizeof(link));
		if (rte_eth_link_get_nowait(t->port[p].port_id, &link) == 0 &&
		    link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN)
			out[p].link_speed_mbps = link.link_speed;
	}
	return t->cfg->n_ports;
}

/* The slowest receiving worker's loop pass over the measured phase, ns. */
static double
rx_poll_ns(const struct fws_host *t, double hz)
{
	double ns = 0;
	unsigned int w;

	for (w = 0; w < t->n_workers; w++)
		if (t->workers[w].rx && t->workers[w].loops)
			ns = RTE_MAX(ns, (double)t->workers[w].loop_ticks * 1e9 /
						 (double)t->workers[w].loops / hz);
	return ns;
}

void
fws_host_collect(struct fws_host *t, struct fws_agent_counts *out)
{
	struct fws_agent_counts *c = t->cur;
	struct fws_clock_pair clk1;
	unsigned int s, p, i;
	double hz;

	fws_host_features_on(t, FWS_FEATURE_FINISH, rte_rdtsc());
	if (t->measuring && fws_clock_read(&clk1) == 0)
		c->tsc_hz = fws_clock_hz(&t->clk0, &clk1);
	hz = c->tsc_hz > 0 ? c->tsc_hz : (double)t->hz;
	c->rx_poll_ns = rx_poll_ns(t, hz);
	for (i = 0; i < t->n_workers; i++)
		c->phase_late_ns =
			RTE_MAX(c->phase_late_ns, (double)t->workers[i].arm_late * 1e9 / hz);
	for (s = 0; s < t->cfg->n_streams; s++) {
		collect_tx(t, s, hz, &c->streams[s]);
		collect_latency(t, s, &c->streams[s]);
	}
	for (p = 0; p < t->cfg->n_ports; p++) {
		struct fws_port_result *pr = &c->ports[p];

		memset(pr, 0, sizeof(*pr));
		port_counters(t, p, pr);
		nic_delta(t, p, pr);
		t->rx_total[p] += pr->rx.rx_frames;
		t->rx_control[p] += pr->rx.control + pr->rx.control_drop;
		t->tx_total[p] += pr->tx.tx_frames + pr->tx.warmup_tx;
		port_facts(t, p, pr);
	}
	fws_host_features_on(t, FWS_FEATURE_COLLECT, rte_rdtsc());
	memcpy(out, c, sizeof(*out));
}

void
fws_host_rx_flows(const struct fws_host *t, unsigned int s, uint32_t lo, uint32_t n,
		  struct fws_agent_rxflow *out)
{
	uint32_t i;
	unsigned int k;

	for (i = 0; i < n; i++) {
		struct fws_agent_rxflow *o = &out[i];

		memset(o, 0, sizeof(*o));
		for (k = 0; k < t->n_rx; k++) {
			const struct fws_rxflow *f = &t->rx[k]->streams[s].flows[lo + i];

			o->lcores += f->rx != 0;
			if (k == 0)
				o->rx = *f;
			else
				fws_rxstat_merge(&o->rx, f);
		}
		o->nat = fws_host_observed(t, s, lo + i);
	}
}

void
fws_host_tx_flows(const struct fws_host *t, unsigned int s, uint32_t lo, uint32_t n,
		  struct fws_agent_txflow *out)
{
	uint32_t i;

	if (t->txflows[s] == NULL) { /* not sent from here */
		memset(out, 0, sizeof(*out) * n);
		return;
	}
	for (i = 0; i < n; i++) {
		const struct fws_pkt_flow *f = &t->txflows[s][lo + i];

		out[i].seq = f->seq;
		out[i].sent =
			(struct fws_nat_tuple){f->src_be, f->dst_be, f->sport_be, f->dport_be};
	}
}

/* Per second since the host's previous reading, when that one was of the same phase. */
static void
live_rates(struct fws_host *t, struct fws_agent_live *out)
{
	const struct fws_agent_live *p = &t->live_last;
	struct timespec ts;
	uint64_t now;
	double dt;
	unsigned int s;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	dt = (double)(now - t->live_ns) / 1e9;
	out->rates = t->live_ns && p->warm == out->warm && dt > 0 && out->tx_frames >= p->tx_frames;
	for (s = 0; out->rates && s < FWS_CFG_MAX_STREAMS; s++) {
		struct fws_live_stream *o = &out->streams[s];
		const struct fws_live_stream *q = &p->streams[s];

		o->tx_pps = (double)(o->tx_frames - RTE_MIN(q->tx_frames, o->tx_frames)) / dt;
		o->rx_pps = (double)(o->rx_frames - RTE_MIN(q->rx_frames, o->rx_frames)) / dt;
		o->tx_Bps = (double)(o->tx_bytes - RTE_MIN(q->tx_bytes, o->tx_bytes)) / dt;
	}
	if (out->rates) {
		out->tx_pps = (double)(out->tx_frames - p->tx_frames) / dt;
		out->rx_pps = (double)(out->rx_frames - RTE_MIN(p->rx_frames, out->rx_frames)) / dt;
		out->tx_Bps = (double)(out->tx_bytes - RTE_MIN(p->tx_bytes, out->tx_bytes)) / dt;
		out->rx_Bps = (double)(out->rx_bytes - RTE_MIN(p->rx_bytes, out->rx_bytes)) / dt;
	}
	t->live_last = *out;
	t->live_ns = now;
}

void
fws_host_live(struct fws_host *t, bool warm, struct fws_agent_live *out)
{
	unsigned int i, s;

	memset(out, 0, sizeof(*out));
	out->warm = warm;
	for (i = 0; i < t->n_tasks; i++) {
		const struct fws_tx_counters *c = &t->tasks[i].cnt;
		struct fws_live_stream *o = &out->streams[t->tasks[i].stream];
		uint64_t frames =
			__atomic_load_n(warm ? &c->warmup_tx : &c->tx_frames, __ATOMIC_RELAXED);
		uint64_t bytes = __atomic_load_n(warm ? &c->warmup_tx_bytes : &c->tx_bytes,
						 __ATOMIC_RELAXED);

		out->tx_frames += frames;
		out->tx_bytes += bytes;
		o->tx_frames += frames;
		o->tx_bytes += bytes;
	}
	for (i = 0; i < t->n_rx; i++) {
		out->rx_frames += __atomic_load_n(&t->rx[i]->live_frames, __ATOMIC_RELAXED);
		out->rx_bytes += __atomic_load_n(&t->rx[i]->live_bytes, __ATOMIC_RELAXED);
	}
	for (i = 0; i < t->n_rx && !warm; i++)
		for (s = 0; s < t->cfg->n_streams; s++) {
			const struct fws_hist *h = t->rx[i]->streams[s].hist;
			struct fws_live_stream *o = &out->streams[s];
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
	live_rates(t, out);
}
