/* SPDX-License-Identifier: BSD-3-Clause */
/* Feature "stamps", its data (fd_stamps.h): the senders' blocks merged, JSON and text. */
#include <inttypes.h>

#include "fd_stamps.h"
#include "fws_util.h"

/* Two senders' stamps: the extremes of both, the mean over both senders' samples. */
static void
add_lags(struct fws_fd_stamps *into, const struct fws_fd_stamps *o)
{
	uint64_t n = into->lag_bursts + o->lag_bursts;

	into->wire_mbps = FWS_MAX(into->wire_mbps, o->wire_mbps);
	into->lead_ns = FWS_MAX(into->lead_ns, o->lead_ns);
	if (o->lag_bursts == 0)
		return;
	if (into->lag_bursts == 0) {
		into->lag_min_ns = o->lag_min_ns;
		into->lag_max_ns = o->lag_max_ns;
	}
	into->lag_avg_ns = (into->lag_avg_ns * (double)into->lag_bursts +
			    o->lag_avg_ns * (double)o->lag_bursts) /
			   (double)n;
	into->lag_min_ns = FWS_MIN(into->lag_min_ns, o->lag_min_ns);
	into->lag_max_ns = FWS_MAX(into->lag_max_ns, o->lag_max_ns);
	into->lag_bursts = n;
	into->late_bursts += o->late_bursts;
}

static void
stamps_merge(void *result, const void *count, unsigned int roles)
{
	struct fws_fd_stamps *r = result;
	const struct fws_fd_stamps *c = count;

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
	const struct fws_fd_stamps *x = result;

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
	const struct fws_fd_stamps *x = result;

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

const struct fws_featdata fws_fd_stamps = {
	.name = "stamps",
	.count_size = sizeof(struct fws_fd_stamps),
	.result_size = sizeof(struct fws_fd_stamps),
	.merge = stamps_merge,
	.json = stamps_json,
	.text = stamps_text,
};
