/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * After a trial, on the controller: every agent's counts (fws_agent.h) into one result. Per
 * stream, what its senders sent and what its receivers received; per flow, the sender's
 * sequence count against the receivers' distinct frames (loss is sent minus distinct,
 * never a difference of totals), flows the DUT should block apart from the rest; per port,
 * the counts of the agent that owns it. The controller features add their verdicts after.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fws_compat.h"
#include "fws_trial_int.h"
#include "fws_util.h"

static void
summarize_latency(struct fws_stream_result *sr, const struct fws_hist *h, double jitter)
{
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

/* The sending side of a stream from one agent. */
static void
add_tx(struct fws_stream_result *sr, const struct fws_agent_stream *as)
{
	sr->tx_bytes += as->tx_bytes;
	sr->tx_refused += as->tx_refused;
	sr->alloc_fail += as->alloc_fail;
	sr->tx_frames += as->tx_frames;
	sr->unlimited |= as->unlimited;
	sr->active |= as->active;
	sr->tx_behind = FWS_MAX(sr->tx_behind, as->behind);
	sr->duration = FWS_MAX(sr->duration, as->duration);
}

/* The histogram's non-empty buckets, rising, for the result to keep: a whole histogram is
 * 200 KiB, and a sweep keeps hundreds of results. 0 or -ENOMEM. */
static int
keep_buckets(struct fws_stream_result *sr, const struct fws_hist *h)
{
	unsigned int i, n = 0;

	for (i = 0; i < FWS_HIST_NB; i++)
		n += h->b[i] != 0;
	sr->n_hist = 0;
	if (n == 0)
		return 0;
	if ((sr->hist = malloc(n * sizeof(*sr->hist))) == NULL)
		return -ENOMEM;
	for (i = 0; i < FWS_HIST_NB; i++)
		if (h->b[i])
			sr->hist[sr->n_hist++] = (struct fws_cell_bucket){
				fws_hist_bucket_lo(i), fws_hist_bucket_width(i), h->b[i]};
	return 0;
}

/* The receiving side of a stream from one agent into h; jitter weighted by frames. */
static void
add_rx(struct fws_stream_result *sr, struct fws_hist *h, const struct fws_agent_stream *as,
       double *jitter_sum)
{
	fws_hist_merge(h, &as->hist);
	*jitter_sum += as->jitter_ns * (double)as->hist.count;
	sr->lat.skewed += as->skewed;
	sr->lat.skew_max_ns = FWS_MAX(sr->lat.skew_max_ns, as->skew_max_ns);
}

/* Per flow, chunk by chunk: received against sent, the flows a feature sets apart (those
 * expected blocked) apart. */
struct account {
	const uint8_t *apart;
	struct fws_stream_result *sr;
};

/* The sender of a split stream that sends flow i. */
static struct fws_sender_result *
sender_of(struct fws_stream_result *sr, uint32_t i)
{
	unsigned int j;

	for (j = 1; j < sr->n_senders && i >= sr->senders[j].flow_lo; j++)
		;
	return &sr->senders[j - 1];
}

static void
account_chunk(void *arg, unsigned int s, uint32_t lo, uint32_t n, const struct fws_agent_rxflow *rx,
	      const struct fws_agent_txflow *tx)
{
	struct account *x = arg;
	uint32_t i;

	(void)s;
	for (i = 0; i < n; i++) {
		x->sr->flows_split += rx[i].lcores > 1;
		if (x->apart && x->apart[lo + i])
			fws_rxstat_add(&x->sr->apart, &rx[i].rx, tx[i].seq);
		else
			fws_rxstat_add(&x->sr->rx, &rx[i].rx, tx[i].seq);
		if (x->sr->n_senders)
			fws_rxstat_add(&sender_of(x->sr, lo + i)->rx, &rx[i].rx, tx[i].seq);
	}
}

/* A split stream's senders: their ports, hosts and flows. */
static void
senders_head(const struct fws_trial *t, const struct fws_cfg_stream *cs,
	     struct fws_stream_result *sr)
{
	unsigned int j;

	sr->n_senders = cs->n_tx > 1 ? cs->n_tx : 0;
	for (j = 0; j < sr->n_senders; j++) {
		struct fws_sender_result *o = &sr->senders[j];
		const struct fws_cfg_port *p = &t->cfg->ports[cs->tx_ports[j]];

		strlcpy(o->port, p->name, sizeof(o->port));
		strlcpy(o->host, p->host ? t->cfg->hosts[p->host - 1].name : "local",
			sizeof(o->host));
		fws_cfg_sender_flows(cs, j, &o->flow_lo, &o->flow_hi);
	}
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
stream_head(const struct fws_trial *t, unsigned int s, double req_pps, struct fws_stream_result *sr)
{
	const struct fws_cfg_stream *cs = &t->cfg->streams[s];

	strlcpy(sr->name, cs->name, sizeof(sr->name));
	sr->dir = cs->dir;
	fws_cfg_senders_name(t->cfg, cs, sr->tx_port, sizeof(sr->tx_port));
	strlcpy(sr->rx_port, t->cfg->ports[cs->rx_port].name, sizeof(sr->rx_port));
	sr->flows = cs->flows.count;
	sr->proof = cs->payload_len > 0 || cs->app != FWS_APP_NONE;
	sr->req_pps = req_pps;
	senders_head(t, cs, sr);
}

static int
merge_stream(struct fws_trial *t, unsigned int s, double req_pps,
	     struct fws_agent_counts *const *counts, struct fws_stream_result *sr)
{
	struct account x = {NULL, sr};
	struct fws_hist *h;
	double jitter_sum = 0;
	unsigned int k;
	uint32_t n_apart;
	int rc;

	x.apart = fws_features_apart(t, s, &n_apart);
	stream_head(t, s, req_pps, sr);
	if ((h = malloc(sizeof(*h))) == NULL)
		return -ENOMEM;
	fws_hist_reset(h);
	for (k = 0; k < t->n_agents; k++) {
		unsigned int roles = fws_trial_roles(t, k, s);

		if (roles & FWS_FD_TX)
			add_tx(sr, &counts[k]->streams[s]);
		if (roles & FWS_FD_RX)
			add_rx(sr, h, &counts[k]->streams[s], &jitter_sum);
		if (roles)
			fws_fd_merge(&t->fd, FWS_FD_AT_COLLECT, sr->fd, counts[k]->streams[s].fd,
				     roles);
	}
	fws_fd_finish(&t->fd, sr->fd);
	rc = fws_trial_flows(t, s, account_chunk, &x);
	if (sr->rx.tx + sr->apart.tx != sr->tx_frames)
		FWS_LOG(ERR,
			"stream %s: per-flow sequence counts (%" PRIu64
			") disagree with the transmit counter (%" PRIu64 ")",
			sr->name, sr->rx.tx + sr->apart.tx, sr->tx_frames);
	summarize_latency(sr, h, h->count ? jitter_sum / (double)h->count : 0);
	if (keep_buckets(sr, h) < 0 && rc == 0)
		rc = -ENOMEM;
	free(h);
	stream_rates(sr);
	return rc;
}

/* The frames stream s's receiving port missed in its NIC or driver during the trial: loss the
 * tester caused (a capture that cannot keep up, an RX core too slow, an empty pool), which
 * no DUT is to be charged with. They are the port's, whichever of its streams they were. */
static void
receiver_missed(const struct fws_trial *t, struct fws_result *res, unsigned int s)
{
	struct fws_stream_result *sr = &res->streams[s];
	const struct fws_port_result *p = &res->ports[t->cfg->streams[s].rx_port];

	sr->rx_missed = p->nic_imissed + p->nic_rx_nombuf + p->nic_ierrors;
	sr->lost_dut_min = sr->rx.lost_min > sr->rx_missed ? sr->rx.lost_min - sr->rx_missed : 0;
}

unsigned int
fws_trial_roles(const struct fws_trial *t, unsigned int k, unsigned int s)
{
	const struct fws_agent *a = t->agents[k];

	return (((a->tx_streams >> s) & 1) ? FWS_FD_TX : 0) |
	       (((a->rx_streams >> s) & 1) ? FWS_FD_RX : 0);
}

/* What belongs to the trial as a whole: the clock, the poll period, the features' trial
 * blocks (link events, ICMP errors about no stream). */
static void
merge_trial(struct fws_trial *t, struct fws_agent_counts *const *counts, struct fws_result *res)
{
	unsigned int k;

	res->tsc_hz = counts[0]->tsc_hz;
	res->rx_poll_ns = 0; /* fd_trial: zeroed with the result at the trial's start */
	for (k = 0; k < t->n_agents; k++) {
		const struct fws_agent_counts *c = counts[k];

		res->rx_poll_ns = FWS_MAX(res->rx_poll_ns, c->rx_poll_ns);
		res->phase_late_ns = FWS_MAX(res->phase_late_ns, c->phase_late_ns);
		fws_fd_merge_trial(&t->fd, res->fd_trial, c->fd_trial);
	}
}

int
fws_trial_merge(struct fws_trial *t, const double *req_pps, struct fws_agent_counts *const *counts,
		struct fws_result *res)
{
	struct fws_agent *a;
	unsigned int s, p, k;
	int rc = 0;

	uint64_t t0 = fws_trial_now_ns();

	merge_trial(t, counts, res);
	res->fd = t->fd;
	res->n_streams = t->cfg->n_streams;
	for (s = 0; s < t->cfg->n_streams && rc == 0; s++)
		rc = merge_stream(t, s, req_pps[s], counts, &res->streams[s]);
	res->merge_s = (double)(fws_trial_now_ns() - t0) / 1e9;
	res->n_ports = t->cfg->n_ports;
	FWS_TRIAL_FOREACH_AGENT(t, k, a)
	{
		for (p = 0; p < t->cfg->n_ports; p++)
			if ((a->ports >> p) & 1)
				res->ports[p] = counts[k]->ports[p];
	}
	for (s = 0; s < res->n_streams; s++)
		receiver_missed(t, res, s);
	return rc;
}
