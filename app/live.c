/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Live statistics for automation, once per second while trials run: NDJSON lines on a file
 * or stdout (--stats), flushed per line, and the same figures through DPDK's telemetry
 * socket as /fwstress/streams (dpdk-telemetry.py). After each trial a "result" line gives
 * its totals as the report has them.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include <jansson.h>
#include <rte_telemetry.h>

#include "fws_app.h"
#include "fws_dpdk.h"
#include "fws_run.h"

static pthread_mutex_t snap_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	bool valid;
	unsigned int trial, n;
	char phase[16];
	double elapsed;
	char name[FWS_CFG_MAX_STREAMS][FWS_CFG_NAME_LEN];
	struct fws_live_stream s[FWS_CFG_MAX_STREAMS];
	double tx_pps[FWS_CFG_MAX_STREAMS], rx_pps[FWS_CFG_MAX_STREAMS];
	double tx_bps[FWS_CFG_MAX_STREAMS];
} snap;

static double
now_s(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static json_t *
latency(uint64_t count, uint64_t min, uint64_t sum, uint64_t max)
{
	if (count == 0)
		return json_null();
	return json_pack("{s:I, s:f, s:I}", "min", (json_int_t)min, "avg",
			 (double)sum / (double)count, "max", (json_int_t)max);
}

/* One second of the running phase: per stream counters, rates over the last second (each
 * host's over its own last interval, summed), the frames not yet received (lost or still in
 * flight) and latency so far. */
static json_t *
live_line(struct app_live *l, const struct fws_progress *p, double t)
{
	bool measure = strcmp(p->phase, "measure") == 0;
	json_t *a = json_array();
	unsigned int s;

	for (s = 0; s < p->n_streams; s++) {
		const struct fws_live_stream *x = &p->streams[s];

		/* Rates need an interval of the phase before them: null on its first line. Frames
		 * are received and counted in the measured phase only: in warm-up the frames not
		 * yet received are null. */
		json_array_append_new(
			a,
			json_pack("{s:s, s:I, s:I, s:o, s:o, s:o, s:o, s:o}", "name",
				  l->cfg->streams[s].name, "tx_frames", (json_int_t)x->tx_frames,
				  "rx_frames", (json_int_t)x->rx_frames, "tx_pps",
				  p->rates ? json_real(x->tx_pps) : json_null(), "rx_pps",
				  p->rates ? json_real(x->rx_pps) : json_null(), "tx_l2_bps",
				  p->rates ? json_real(x->tx_Bps * 8) : json_null(),
				  "not_yet_received",
				  measure ? json_integer((json_int_t)(x->tx_frames > x->rx_frames
									      ? x->tx_frames -
											x->rx_frames
									      : 0))
					  : json_null(),
				  "latency_ns",
				  latency(x->lat_count, x->lat_min, x->lat_sum, x->lat_max)));
		snap.tx_pps[s] = p->rates ? x->tx_pps : 0;
		snap.rx_pps[s] = p->rates ? x->rx_pps : 0;
		snap.tx_bps[s] = p->rates ? x->tx_Bps * 8 : 0;
	}
	return json_pack("{s:f, s:i, s:s, s:s, s:o, s:f, s:o}", "time", t, "trial", (int)l->trial,
			 "phase", p->phase, "frame_size", p->frame_size ? p->frame_size : "",
			 "direction", p->direction ? json_string(p->direction) : json_null(),
			 "elapsed_s", p->elapsed, "streams", a);
}

/* A trial's end: its totals per stream, as the report gives them. */
static json_t *
result_line(struct app_live *l, const struct fws_result *r, const char *dir, double t)
{
	json_t *a = json_array();
	unsigned int s;
	char kind[16];

	for (s = 0; s < r->n_streams; s++) {
		const struct fws_stream_result *x = &r->streams[s];

		json_array_append_new(
			a, json_pack("{s:s, s:b, s:I, s:I, s:I, s:o}", "name", x->name, "active",
				     x->active, "offered_frames", (json_int_t)x->tx_frames,
				     "distinct_frames", (json_int_t)x->rx.unique, "lost",
				     (json_int_t)x->rx.lost, "latency_ns",
				     latency(x->lat.count, x->lat.min,
					     (uint64_t)(x->lat.avg * (double)x->lat.count),
					     x->lat.max)));
	}
	fws_result_label(r->kind, r->lat_frac, kind, sizeof(kind));
	return json_pack("{s:f, s:i, s:s, s:s, s:s, s:o, s:b, s:o}", "time", t, "trial",
			 (int)l->trial, "phase", "result", "kind", kind, "frame_size", r->size.name,
			 "direction", dir ? json_string(dir) : json_null(), "partial", r->partial,
			 "streams", a);
}

static void
snapshot(struct app_live *l, const struct fws_progress *p)
{
	unsigned int s;

	pthread_mutex_lock(&snap_lock);
	snap.valid = true;
	snap.trial = l->trial;
	snap.n = p->n_streams;
	snap.elapsed = p->elapsed;
	strlcpy(snap.phase, p->phase, sizeof(snap.phase));
	for (s = 0; s < p->n_streams; s++) {
		strlcpy(snap.name[s], l->cfg->streams[s].name, sizeof(snap.name[s]));
		snap.s[s] = p->streams[s];
	}
	pthread_mutex_unlock(&snap_lock);
}

void
app_live_progress(struct app_live *l, const struct fws_progress *p)
{
	double t = now_s();
	json_t *j;

	if (p->result == NULL)
		snapshot(l, p);
	if (l->f == NULL)
		goto done;
	j = p->result ? result_line(l, p->result, p->direction, t) : live_line(l, p, t);
	if (json_dumpf(j, l->f, JSON_COMPACT) == 0)
		fputc('\n', l->f);
	app_out_check(l->f, &l->err);
	json_decref(j);
done:
	if (p->result)
		l->trial++;
}

/* /fwstress/streams: the latest second, one dict per stream. */
static int
tel_streams(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned int s;

	(void)cmd;
	(void)params;
	rte_tel_data_start_dict(d);
	pthread_mutex_lock(&snap_lock);
	rte_tel_data_add_dict_string(d, "phase", snap.valid ? snap.phase : "setup");
	fws_tel_dict_u64(d, "trial", snap.trial);
	for (s = 0; s < snap.n; s++) {
		struct rte_tel_data *x = rte_tel_data_alloc();

		if (x == NULL)
			break;
		rte_tel_data_start_dict(x);
		fws_tel_dict_u64(x, "tx_frames", snap.s[s].tx_frames);
		fws_tel_dict_u64(x, "rx_frames", snap.s[s].rx_frames);
		fws_tel_dict_u64(x, "tx_pps", (uint64_t)snap.tx_pps[s]);
		fws_tel_dict_u64(x, "rx_pps", (uint64_t)snap.rx_pps[s]);
		fws_tel_dict_u64(x, "tx_l2_bps", (uint64_t)snap.tx_bps[s]);
		if (strcmp(snap.phase, "measure") == 0) /* counted in the measured phase only */
			fws_tel_dict_u64(x, "not_yet_received",
					 snap.s[s].tx_frames > snap.s[s].rx_frames
						 ? snap.s[s].tx_frames - snap.s[s].rx_frames
						 : 0);
		fws_tel_dict_u64(x, "latency_max_ns", snap.s[s].lat_max);
		rte_tel_data_add_dict_container(d, snap.name[s], x, 0);
	}
	pthread_mutex_unlock(&snap_lock);
	return 0;
}

void
app_live_register(void)
{
	rte_telemetry_register_cmd("/fwstress/streams", tel_streams,
				   "fwstress: per stream, the running trial's latest second");
}
