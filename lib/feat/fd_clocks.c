/* SPDX-License-Identifier: BSD-3-Clause */
/* Feature "clocks", its data (fd_clocks.h): JSON and text. */
#include <inttypes.h>
#include <stdbool.h>

#include "fd_clocks.h"
#include "fws_config.h"
#include "fws_util.h"

/* The figures' names, in the order of the uncertain bits. */
static const char *const figs[FWS_FD_CLOCK_FIGS] = {"min", "avg", "p50", "p99", "max"};

/* How sender and receiver clocks were aligned, and which figures the bound makes uncertain
 * (more than 10 % of the figure, RFC 7679 3.8): in the stream's latency_ns. */
static void
clocks_json(const void *result, json_t *stream)
{
	const struct fws_fd_clocks *x = result;
	json_t *o = json_object_get(stream, "latency_ns"), *u;
	unsigned int i;

	if (!x->cross_host) {
		json_object_set_new(o, "clocks", json_string("one host"));
		return;
	}
	json_object_set_new(o, "clock_sync",
			    json_string(fws_clock_sync_name((enum fws_clock_sync)x->sync)));
	if (!x->aligned) {
		json_object_set_new(o, "clocks",
				    json_string("two hosts, not aligned: one-way figures are "
						"relative to the TSCs' offset"));
		return;
	}
	json_object_set_new(
		o, "clocks",
		json_string(x->sync == FWS_CLOCK_SYNC_PTP
				    ? "two hosts, aligned by PTP: each host's TSC read "
				      "against its CLOCK_REALTIME"
				    : "two hosts, aligned by probes over the control link"));
	if (x->sync == FWS_CLOCK_SYNC_PTP)
		json_object_set_new(o, "clock_ptp_ns", json_real(x->ptp_ns));
	json_object_set_new(o, "clock_offset_ns", json_real(x->offset_ns));
	json_object_set_new(o, "clock_residual_ns", json_real(x->residual_ns));
	json_object_set_new(o, "clock_bound_ns", json_real(x->bound_ns));
	u = json_array();
	for (i = 0; i < FWS_DIM(figs); i++)
		if ((x->uncertain >> i) & 1)
			json_array_append_new(u, json_string(figs[i]));
	json_object_set_new(o, "clock_uncertain", u);
}

/* Frames that read as arriving before their stamp, and whether the clocks' bound explains
 * them: a map's error larger than the path's latency does, an error beyond the bound means
 * the alignment (or a stamp) is wrong. */
static void
text_skew(FILE *f, const char *stream, const struct fws_fd_clocks *x)
{
	const char *why;

	if (x->skewed == 0)
		return;
	if (!x->cross_host)
		why = "stamped after they left: see tx_stamp";
	else if (!x->aligned)
		why = "the clocks are not aligned";
	else if (x->skew_max_ns <= x->bound_ns)
		why = "within the clocks' bound";
	else
		why = "BEYOND the clocks' bound: the alignment is wrong, one-way figures invalid";
	fprintf(f,
		"  clocks: %s: %" PRIu64 " frames read as arriving before their stamp, by up "
		"to %.3f us (taken as 0): %s\n",
		stream, x->skewed, x->skew_max_ns / 1e3, why);
}

/* A stream between two hosts: how its clocks were aligned, the bound it leaves. */
static void
clocks_text(FILE *f, const char *stream, const void *result)
{
	const struct fws_fd_clocks *x = result;
	bool ptp = x->sync == FWS_CLOCK_SYNC_PTP;
	char how[96];

	if (ptp)
		snprintf(how, sizeof(how), "PTP (the hosts' ptp4l offsets from the master %.3f us)",
			 x->ptp_ns / 1e3);
	if (x->cross_host && x->aligned)
		fprintf(f,
			"  clocks: %s: sender's stamps mapped into the receiver's clock by %s "
			"(offset %.3f us, drifted %.3f us over the trial): one-way figures +/- "
			"%.3f us%s\n",
			stream, ptp ? how : "probes over the control link", x->offset_ns / 1e3,
			x->residual_ns / 1e3, x->bound_ns / 1e3,
			(x->uncertain >> FWS_FD_CLOCK_FIG_P50) & 1
				? " (more than 10 % of the median: uncertain)"
				: "");
	else if (x->cross_host)
		fprintf(f,
			"  clocks: %s: between two hosts, not aligned%s: one-way figures are "
			"relative\n",
			stream, x->sync == FWS_CLOCK_SYNC_NONE ? " (\"clocks\": \"none\")" : "");
	text_skew(f, stream, x);
}

const struct fws_featdata fws_fd_clocks = {
	.name = "clocks",
	.result_size = sizeof(struct fws_fd_clocks),
	.json = clocks_json,
	.text = clocks_text,
};
