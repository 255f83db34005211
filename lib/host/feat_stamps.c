/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trial feature "stamps": how each stream's transmit tasks stamp their frames (fws_tx.h: the
 * wire model on physical ports, the hand-over elsewhere, or as the port's "stamp" key says)
 * and, after each trial, what that leaves uncertain: the build time added to each stamp and
 * the lag from a burst's stamp to the end of its hand-over, the worst of the stream's tasks.
 */
#include <inttypes.h>
#include <string.h>

#include "fws_engine.h"
#include "fws_host.h"

/* How a stream's frames were stamped (fws_tx) and what that leaves uncertain: a sending
 * host's, and the trial's (the extremes of every sender, the mean over their samples). */
struct stamps {
	uint32_t wire_mbps; /* the wire model's link speed; 0: stamped at the hand-over */
	uint8_t active;     /* it sent in this trial */
	double lead_ns;     /* build time per frame added to each stamp (the fastest seen) */
	double lag_avg_ns;  /* from a burst's stamp to the end of its hand-over (signed) */
	double lag_min_ns;  /* < 0: a burst stamped after its hand-over ended */
	double lag_max_ns;
	uint64_t lag_bursts;  /* sampled measured bursts behind the three */
	uint64_t late_bursts; /* of them, stamped after their hand-over ended */
	uint64_t received;    /* frames with a latency (a receiving host's): 0, no line */
};

static const struct fws_featdata stamps_data;

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
collect_stamp(const struct fws_host *t, unsigned int s, double hz, struct stamps *st)
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
		struct stamps *st = fws_host_block(t, &stamps_data, c, s);

		collect_stamp(t, s, hz, st);
		st->received = c->streams[s].hist.count;
	}
}

/* Two senders' stamps: the extremes of both, the mean over both senders' samples. */
static void
add_lags(struct stamps *into, const struct stamps *o)
{
	uint64_t n = into->lag_bursts + o->lag_bursts;

	into->wire_mbps = RTE_MAX(into->wire_mbps, o->wire_mbps);
	into->lead_ns = RTE_MAX(into->lead_ns, o->lead_ns);
	if (o->lag_bursts == 0)
		return;
	if (into->lag_bursts == 0) {
		into->lag_min_ns = o->lag_min_ns;
		into->lag_max_ns = o->lag_max_ns;
	}
	into->lag_avg_ns = (into->lag_avg_ns * (double)into->lag_bursts +
			    o->lag_avg_ns * (double)o->lag_bursts) /
			   (double)n;
	into->lag_min_ns = RTE_MIN(into->lag_min_ns, o->lag_min_ns);
	into->lag_max_ns = RTE_MAX(into->lag_max_ns, o->lag_max_ns);
	into->lag_bursts = n;
	into->late_bursts += o->late_bursts;
}

static void
stamps_merge(void *result, const void *count, unsigned int roles)
{
	struct stamps *r = result;
	const struct stamps *c = count;

	if (roles & FWS_FD_RX)
		r->received += c->received;
	if (!(roles & FWS_FD_TX) || !c->active)
		return;
	r->active = 1;
	add_lags(r, c);
}

static void
stamps_json(const void *result, json_t *o)
{
	const struct stamps *x = result;

	if (!x->active)
		return;
	json_object_set_new(o, "tx_stamp",
			    json_pack("{s:s, s:I, s:f, s:f, s:f, s:f, s:I, s:I}", "model",
				      x->wire_mbps ? "wire" : "handover", "wire_mbps",
				      (json_int_t)x->wire_mbps, "build_ns_per_frame", x->lead_ns,
				      "handover_lag_avg_ns", x->lag_avg_ns, "handover_lag_min_ns",
				      x->lag_min_ns, "handover_lag_max_ns", x->lag_max_ns,
				      "sampled_bursts", (json_int_t)x->lag_bursts, "late_bursts",
				      (json_int_t)x->late_bursts));
}

/* The latency resolution: how the frames were stamped, and what that leaves. */
static void
stamps_text(FILE *f, const char *stream, const void *result)
{
	const struct stamps *x = result;

	if (x->received == 0)
		return;
	if (x->wire_mbps)
		fprintf(f, "  stamps: %s: at the modelled departure (wire %u Mbit/s", stream,
			x->wire_mbps);
	else
		fprintf(f, "  stamps: %s: at the hand-over to the driver (no wire model", stream);
	fprintf(f,
		", build %.1f ns/frame); hand-over ended %.3f us after a burst's stamp on average "
		"(%.3f to %.3f us)\n",
		x->lead_ns, x->lag_avg_ns / 1e3, x->lag_min_ns / 1e3, x->lag_max_ns / 1e3);
	if (x->late_bursts)
		fprintf(f,
			"  note: %s: %" PRIu64 " of %" PRIu64
			" sampled bursts were stamped after their hand-over ended: their latencies "
			"read up to %.3f us short\n",
			stream, x->late_bursts, x->lag_bursts, -x->lag_min_ns / 1e3);
}

static const struct fws_featdata stamps_data = {
	.name = "stamps",
	.count_size = sizeof(struct stamps),
	.result_size = sizeof(struct stamps),
	.merge = stamps_merge,
	.json = stamps_json,
	.text = stamps_text,
};

const struct fws_host_feature fws_feature_stamps = {
	.name = "stamps",
	.data = &stamps_data,
	.setup = stamps_setup,
	.on = {[FWS_FEATURE_COLLECT] = stamps_collect},
};
