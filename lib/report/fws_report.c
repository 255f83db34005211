/* SPDX-License-Identifier: BSD-3-Clause */
#include <arpa/inet.h>
#include <errno.h>
#include <sys/resource.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include "fws_bytes.h"
#include "fws_util.h"

#include "fws_build.h"
#include "fws_cell.h"
#include "fws_pace.h"
#include "fws_rate.h"

#include "fws_clock.h"
#include "fws_report.h"
#include "report_int.h"

static json_t *
lat_json(const struct fws_stream_result *x)
{
	json_t *o, *h;
	unsigned int i;

	o = json_pack("{s:I, s:I, s:f, s:I, s:I, s:I, s:I, s:I, s:f}", "count",
		      (json_int_t)x->lat.count, "min", (json_int_t)x->lat.min, "avg", x->lat.avg,
		      "max", (json_int_t)x->lat.max, "p50", (json_int_t)x->lat.p50, "p90",
		      (json_int_t)x->lat.p90, "p99", (json_int_t)x->lat.p99, "p99_9",
		      (json_int_t)x->lat.p999, "jitter", x->lat.jitter);
	json_object_set_new(o, "clock_skew", json_integer((json_int_t)x->lat.skewed));
	json_object_set_new(o, "clock_skew_max", json_real(x->lat.skew_max_ns));
	h = json_array();
	for (i = 0; i < x->n_hist; i++)
		json_array_append_new(h, json_pack("[I, I, I]", (json_int_t)x->hist[i].lo,
						   (json_int_t)x->hist[i].width,
						   (json_int_t)x->hist[i].count));
	json_object_set_new(o, "histogram", h);
	return o;
}

void
fws_report_iso_time(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

const char *
fws_report_rate_note(const struct fws_stream_result *s, bool partial, char *buf, size_t len)
{
	if (partial && s->generator_limited) /* stopped, not limited: say which */
		snprintf(buf, len,
			 "INTERRUPTED: counts up to the stop (%.3f Mpps over %.3f s), not a rate "
			 "the generator was limited to",
			 s->tx_pps / 1e6, s->duration);
	else if (s->generator_limited && s->req_pps > 0)
		snprintf(buf, len,
			 "GENERATOR-LIMITED: requested %.3f Mpps, sent %.3f Mpps (%.1f %%)%s",
			 s->req_pps / 1e6, s->tx_pps / 1e6, s->tx_pps * 100 / s->req_pps,
			 s->alloc_fail ? ", transmit pool ran dry" : "");
	else if (s->generator_limited)
		snprintf(buf, len, "GENERATOR-LIMITED: transmit pool ran dry %" PRIu64 " times",
			 s->alloc_fail);
	else if (s->unlimited && s->req_pps > 0 && s->tx_pps > 1.01 * s->req_pps)
		snprintf(buf, len,
			 "sent above the reported link rate (%.3f Mpps): a virtual "
			 "device",
			 s->req_pps / 1e6);
	else
		buf[0] = '\0';
	return buf;
}

/* A stream split over several transmit ports: each one's flows and sums. */
static json_t *
senders_json(const struct fws_stream_result *x)
{
	json_t *a = json_array();
	unsigned int j;

	for (j = 0; j < x->n_senders; j++) {
		const struct fws_sender_result *o = &x->senders[j];

		json_array_append_new(
			a,
			json_pack("{s:s, s:s, s:[I, I], s:I, s:I, s:I, s:I, s:I, s:I}", "port",
				  o->port, "host", o->host, "flows", (json_int_t)o->flow_lo,
				  (json_int_t)o->flow_hi, "offered_frames", (json_int_t)o->rx.tx,
				  "distinct_frames", (json_int_t)o->rx.unique, "lost",
				  (json_int_t)o->rx.lost, "reordered", (json_int_t)o->rx.reordered,
				  "duplicated", (json_int_t)o->rx.dup, "flows_lossy",
				  (json_int_t)o->rx.flows_lossy));
	}
	return a;
}

static json_t *
stream_json(const struct fws_stream_result *x, const struct fws_fd_layout *fd, bool partial)
{
	char note[256];
	json_t *o;

	o = json_pack("{s:s, s:s, s:s, s:s, s:I}", "name", x->name, "direction",
		      fws_dir_name(x->dir), "tx_port", x->tx_port, "rx_port", x->rx_port, "flows",
		      (json_int_t)x->flows);
	json_object_set_new(o, "requested_pps",
			    x->req_pps > 0 ? json_real(x->req_pps) : json_null());
	json_object_set_new(o, "requested", json_string(x->unlimited ? "line" : "rate"));
	json_object_set_new(o, "offered",
			    json_pack("{s:I, s:I, s:f, s:f, s:f, s:f, s:I, s:I, s:I}", "frames",
				      (json_int_t)x->tx_frames, "bytes", (json_int_t)x->tx_bytes,
				      "duration_s", x->duration, "pps", x->tx_pps, "l1_bps",
				      x->tx_l1_bps, "l2_bps", x->tx_l2_bps, "refused",
				      (json_int_t)x->tx_refused, "pool_empty",
				      (json_int_t)x->alloc_fail, "behind_max_frames",
				      (json_int_t)x->tx_behind));
	json_object_set_new(o, "generator_limited", json_boolean(x->generator_limited));
	json_object_set_new(
		o, "received",
		json_pack("{s:I, s:I, s:I, s:f, s:f, s:f}", "total_frames", (json_int_t)x->rx.rx,
			  "distinct_frames", (json_int_t)x->rx.unique, "distinct_bytes",
			  (json_int_t)x->rx.bytes, "distinct_pps", x->rx_pps, "distinct_l1_bps",
			  x->rx_l1_bps, "distinct_l2_bps", x->rx_l2_bps));
	json_object_set_new(o, "lost", json_integer((json_int_t)x->rx.lost));
	json_object_set_new(o, "lost_min", json_integer((json_int_t)x->rx.lost_min));
	json_object_set_new(o, "receiver_missed", json_integer((json_int_t)x->rx_missed));
	json_object_set_new(o, "lost_dut_min", json_integer((json_int_t)x->lost_dut_min));
	json_object_set_new(o, "loss_pct", json_real(x->loss_pct));
	json_object_set_new(o, "reordered", json_integer((json_int_t)x->rx.reordered));
	json_object_set_new(o, "duplicated", json_integer((json_int_t)x->rx.dup));
	json_object_set_new(o, "late", json_integer((json_int_t)x->rx.late));
	json_object_set_new(o, "excess", json_integer((json_int_t)x->rx.excess));
	json_object_set_new(o, "flows_seen", json_integer((json_int_t)x->rx.flows_seen));
	json_object_set_new(o, "flows_lossy", json_integer((json_int_t)x->rx.flows_lossy));
	json_object_set_new(o, "flows_split", json_integer((json_int_t)x->flows_split));
	if (x->n_senders)
		json_object_set_new(o, "senders", senders_json(x));
	json_object_set_new(o, "latency_ns", lat_json(x));
	fws_fd_json(fd, x->fd, o); /* the features' own: stamps, clocks, tcp, icmp, ... */
	if (*fws_report_rate_note(x, partial, note, sizeof(note)))
		json_object_set_new(o, "note", json_string(note));
	return o;
}

json_t *
fws_report_goal_json(const struct fws_search_goal *g, int result)
{
	json_t *o = json_pack("{s:b, s:f, s:f, s:f, s:f, s:f, s:i}", "found", g->found, "load",
			      g->load, "upper", g->upper, "offered_load", g->offered, "loss_ratio",
			      g->loss_ratio, "conditional_load", g->conditional, "exceeded",
			      g->exceeded);

	json_object_set_new(o, "trial", result >= 0 ? json_integer(result) : json_null());
	json_object_set_new(o, "generator_limited", json_boolean(g->generator_limited));
	json_object_set_new(o, "tester_limited", json_boolean(g->tester_limited));
	if (g->tester_limited && !g->generator_limited) {
		json_object_set_new(o, "receiver_missed", json_integer((json_int_t)g->missed));
		json_object_set_new(
			o, "note",
			json_string("lower bound: a trial that failed the goal lost no "
				    "more than its receiving ports missed (the tester's "
				    "loss): the failure may be the tester's, not the "
				    "DUT's"));
	}
	if (g->generator_limited) {
		json_object_set_new(o, "upper", json_null());
		json_object_set_new(
			o, "note",
			json_string("lower bound: no trial lost frames and the generator "
				    "did not reach the load asked for; this is the "
				    "generator's ceiling, not the DUT's"));
	}
	return o;
}

/* A search goal with its absolute figures (the trial it stands on) beside its loads. */
static json_t *
search_goal_json(const struct fws_run *run, const struct fws_search_summary *s, int g)
{
	json_t *o = fws_report_goal_json(&s->goal[g], s->result[g]);
	struct fws_goal_figs v;

	fws_report_goal_figs(run, s, g, &v);
	if (!s->goal[g].found || !v.have)
		return o;
	json_object_set_new(o, "pps", json_real(v.pps));
	json_object_set_new(o, "l1_bps", json_real(v.l1_bps));
	json_object_set_new(o, "line_pct",
			    v.line_pps > 0 ? json_real(v.pps * 100 / v.line_pps) : json_null());
	json_object_set_new(o, "asked_pps", json_real(v.asked_pps));
	json_object_set_new(o, "upper_pps", v.upper_pps > 0 ? json_real(v.upper_pps) : json_null());
	return o;
}

static json_t *
search_json(const struct fws_run *run, const struct fws_search_summary *s)
{
	json_t *tr = json_array(), *o;
	unsigned int i;

	for (i = 0; i < s->n_trials; i++) {
		const struct fws_search_trial *t = &s->trials[i];

		json_array_append_new(tr, json_pack("{s:f, s:f, s:f, s:I, s:I}", "load", t->load,
						    "duration_s", t->duration, "offered_load",
						    t->offered, "tx", (json_int_t)t->tx, "lost",
						    (json_int_t)t->lost));
	}
	o = json_pack("{s:s, s:f, s:b, s:o, s:o, s:o}", "frame_size", s->size, "max_pps",
		      s->max_pps, "complete", s->complete, "ndr",
		      search_goal_json(run, s, FWS_SEARCH_NDR), "pdr",
		      search_goal_json(run, s, FWS_SEARCH_PDR), "trials", tr);
	if (!s->complete)
		json_object_set_new(o, "note",
				    json_string("the run ended during this search: a goal not "
						"found was not measured to its end"));
	if (s->repetition)
		json_object_set_new(o, "repetition", json_integer(s->repetition));
	return o;
}

static json_t *
report_ports(const struct fws_run *run)
{
	return fws_report_ports_json(run->ports, run->n_ports);
}

static json_t *
report_path_check(const struct fws_run *run)
{
	json_t *a;
	unsigned int i;

	if (run->n_paths == 0)
		return NULL;
	a = json_array();
	for (i = 0; i < run->n_paths; i++) {
		const struct fws_path_result *p = &run->paths[i];
		json_t *o = json_pack("{s:s, s:I, s:I, s:I, s:I, s:b}", "stream", p->stream, "sent",
				      (json_int_t)p->sent, "received", (json_int_t)p->received,
				      "wrong_port", (json_int_t)p->wrong_port, "icmp_errors",
				      (json_int_t)p->icmp_errors, "ok", p->ok);

		if (p->skipped)
			json_object_set_new(o, "skipped",
					    json_string("every flow expected blocked"));
		json_array_append_new(a, o);
	}
	return a;
}

/* The measured phase's seconds (what the live line showed) and their steadiness. */
static json_t *
seconds_json(const struct fws_result *r)
{
	const struct fws_steady *y = &r->steady;
	json_t *tx = json_array(), *rx = json_array(), *o;
	unsigned int i;

	for (i = 0; i < r->n_seconds; i++) {
		json_array_append_new(tx, json_real(r->seconds[i].tx_pps));
		json_array_append_new(rx, json_real(r->seconds[i].rx_pps));
	}
	o = json_pack("{s:o, s:o, s:f, s:f, s:b, s:i, s:i, s:{s:i, s:f, s:f, s:b}}", "tx_pps", tx,
		      "rx_pps", rx, "band_pct", y->band * 100, "mean_rx_pps", y->mean_rx_pps,
		      "unsteady", y->unsteady, "outside_band", y->outside, "generator_limited",
		      y->limited, "worst", "second", y->worst, "rx_pps", y->worst_rx_pps,
		      "deviation_pct", y->worst_dev * 100, "generator_limited", y->worst_limited);
	if (r->seconds_dropped)
		json_object_set_new(o, "dropped", json_integer(r->seconds_dropped));
	return o;
}

static json_t *
trial_json(const struct fws_result *r)
{
	json_t *tr, *st = json_array(), *pt = json_array();
	char t0[32], cookie[16];
	unsigned int s;

	fws_report_iso_time(r->started, t0, sizeof(t0));
	snprintf(cookie, sizeof(cookie), "%08x", r->cookie);
	tr = json_pack("{s:s, s:s, s:f, s:s, s:s, s:b, s:f, s:f}", "frame_size", r->size.name,
		       "rfc6985", r->rfc6985, "avg_frame", r->avg_frame, "cookie", cookie,
		       "started", t0, "partial", r->partial, "warmup_s", r->warmup, "drain_s",
		       r->drain);
	if (r->number)
		json_object_set_new(tr, "number", json_integer(r->number));
	if (r->repetition)
		json_object_set_new(tr, "repetition", json_integer(r->repetition));
	for (s = 0; s < r->n_streams; s++)
		json_array_append_new(st, stream_json(&r->streams[s], &r->fd, r->partial));
	for (s = 0; s < r->n_ports; s++)
		json_array_append_new(pt, fws_report_port_result_json(&r->ports[s], &r->fd));
	if (r->kind != FWS_RESULT_RUN) {
		char label[16];

		fws_result_label(r->kind, r->lat_frac, label, sizeof(label));
		json_object_set_new(tr, "search_goal", json_string(label));
	}
	if (r->tsc_hz > 0)
		json_object_set_new(tr, "tsc_hz", json_real(r->tsc_hz));
	if (r->steady.n)
		json_object_set_new(tr, "seconds", seconds_json(r));
	json_object_set_new(tr, "rx_poll_period_ns", json_real(r->rx_poll_ns));
	fws_fd_json_trial(&r->fd, r->fd_trial, tr); /* link events, ICMP about no stream */
	json_object_set_new(tr, "merge_s", json_real(r->merge_s));
	if (r->phase_hosts > 1)
		json_object_set_new(tr, "phase_sync",
				    json_pack("{s:i, s:f, s:f}", "hosts", (int)r->phase_hosts,
					      "bound_ns", r->phase_sync_ns, "late_ns",
					      r->phase_late_ns));
	if (r->dir != FWS_DIR_NONE)
		json_object_set_new(tr, "sweep_cell",
				    json_pack("{s:s, s:s}", "direction", fws_dir_name(r->dir),
					      "frame_size", r->size.name));
	json_object_set_new(tr, "streams", st);
	json_object_set_new(tr, "ports", pt);
	return tr;
}

/* The earlier report's entries of key (sweep --resume) first, then this run's. */
static json_t *
with_carried(const struct fws_run *run, const char *key, json_t *a)
{
	json_t *c = run->carried_json ? json_object_get(run->carried_json, key) : NULL;
	size_t n = json_array_size(c), i;

	for (i = 0; i < n; i++)
		json_array_insert(a, i, json_array_get(c, i));
	return a;
}

static json_t *
report_trials(const struct fws_run *run)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < run->n_results; i++)
		json_array_append_new(a, trial_json(&run->results[i]));
	return with_carried(run, "trials", a);
}

static json_t *
done_json(const struct fws_cell_done *d)
{
	json_t *o = json_pack("{s:s, s:s}", "direction", d->direction, "frame_size", d->size);

	if (d->repetition)
		json_object_set_new(o, "repetition", json_integer(d->repetition));
	return o;
}

/* What --resume keeps (sweep cells; run and search: each repetition of a frame size)
 * completed: the earlier report's (resumed) and this run's. */
static json_t *
report_sweep_done(const struct fws_run *run)
{
	json_t *a;
	unsigned int i;

	if (run->cap_done == 0 && !(run->carried && run->carried->has_done))
		return NULL;
	a = json_array();
	for (i = 0; run->carried && i < run->carried->n_done; i++)
		json_array_append_new(a, done_json(&run->carried->done[i]));
	for (i = 0; i < run->n_done; i++)
		json_array_append_new(a, done_json(&run->done[i]));
	return a;
}

static json_t *
report_back_to_back(const struct fws_run *run)
{
	json_t *bb;
	unsigned int i, k;

	if (run->n_b2b == 0 && !run->carried_json)
		return NULL;
	bb = json_array();
	for (i = 0; i < run->n_b2b; i++) {
		const struct fws_b2b_summary *b = &run->b2b[i];
		json_t *bursts = json_array();

		for (k = 0; k < b->n; k++)
			json_array_append_new(bursts, json_integer((json_int_t)b->bursts[k]));
		json_array_append_new(
			bb, json_pack("{s:s, s:s, s:I, s:b, s:i, s:o, s:f, s:f, s:f, s:f}",
				      "frame_size", b->size, "direction", fws_dir_name(b->dir),
				      "max_frames", (json_int_t)b->max_frames, "generator_limited",
				      b->generator_limited, "trials", b->trials, "bursts", bursts,
				      "avg", b->avg, "min", b->n ? b->min : 0.0, "max", b->max,
				      "stddev", b->stddev));
	}
	return with_carried(run, "back_to_back", bb);
}

unsigned int
fws_report_below_rfc(const struct fws_run *run, char (*notes)[FWS_REPORT_NOTE_LEN])
{
	const struct fws_cfg_sweep *w = &run->cfg->sweep;
	unsigned int i, n = 0, lat = 0;

	for (i = 0; i < run->n_results; i++)
		lat += run->results[i].kind == FWS_RESULT_LAT;
	if (lat && w->lat_repeat < FWS_RFC_LATENCY_TRIALS)
		snprintf(notes[n++], FWS_REPORT_NOTE_LEN,
			 "latency: %u trials per point, below the %u of RFC 2544 26.2 "
			 "(sweep.latency_repeat)",
			 w->lat_repeat, FWS_RFC_LATENCY_TRIALS);
	if (run->n_b2b && w->b2b_repeat < FWS_RFC_B2B_TRIALS)
		snprintf(notes[n++], FWS_REPORT_NOTE_LEN,
			 "back-to-back: %u repetitions, below the %u of RFC 2544 26.4 and RFC 9004 "
			 "(sweep.back_to_back.repeat)",
			 w->b2b_repeat, FWS_RFC_B2B_TRIALS);
	return n;
}

/* What the sweep measured fewer times than the RFC asks; none: no key. */
static json_t *
report_below_rfc(const struct fws_run *run)
{
	char notes[2][FWS_REPORT_NOTE_LEN];
	unsigned int i, n = fws_report_below_rfc(run, notes);
	json_t *a;

	if (n == 0)
		return NULL;
	a = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(notes[i]));
	return a;
}

static json_t *
report_search(const struct fws_run *run)
{
	json_t *a;
	unsigned int i;

	if (run->n_searches == 0 && !run->carried_json)
		return NULL;
	a = json_array();
	for (i = 0; i < run->n_searches; i++)
		json_array_append_new(a, search_json(run, &run->searches[i]));
	return with_carried(run, "search", a);
}

static json_t *
report_clock(const struct fws_run *run)
{
	if (run->tsc_hz == 0)
		return NULL;
	return json_pack("{s:I, s:I, s:f, s:s}", "tsc_hz", (json_int_t)run->tsc_hz, "tsc_hz_dpdk",
			 (json_int_t)run->tsc_hz_dpdk, "dpdk_error_ppm",
			 fws_clock_ppm((double)run->tsc_hz_dpdk, (double)run->tsc_hz), "source",
			 "TSC against CLOCK_MONOTONIC_RAW over 200 ms at setup; each trial's own "
			 "rate (trials[].tsc_hz) gives its durations and rates");
}

/* How the derived figures of the cells are computed. */
static json_t *
report_formulas(const struct fws_run *run)
{
	(void)run;
	return json_pack("{s:s}", "goodput_derived_bps", FWS_GOODPUT_FORMULA);
}

static json_t *
report_config(const struct fws_run *run)
{
	return fws_config_to_json(run->cfg);
}

/* The report's sections after its head, in order; NULL from one leaves its key out. */
static const struct {
	const char *key;
	json_t *(*emit)(const struct fws_run *run);
} report_sections[] = {
	/* clang-format off */
	{"clock", report_clock},
	{"config", report_config},
	{"hosts", fws_report_hosts},
	{"ports", report_ports},
	{"path_check", report_path_check},
	{"trials", report_trials},
	{"cells", fws_report_cells},
	{"formulas", report_formulas},
	{"sweep_done", report_sweep_done},
	{"back_to_back", report_back_to_back},
	{"below_rfc", report_below_rfc},
	{"search", report_search},
	/* clang-format on */
};

/* This process's peak resident memory (the controller's, whatever its agents hold). */
static uint64_t
rss_peak(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) == 0 ? (uint64_t)ru.ru_maxrss * 1024 : 0;
}

json_t *
fws_report_json(const struct fws_run *run)
{
	json_t *root, *v;
	char t0[32], t1[32];
	unsigned int i;

	fws_report_iso_time(run->started, t0, sizeof(t0));
	fws_report_iso_time(run->finished, t1, sizeof(t1));
	root = json_pack("{s:s, s:{s:s, s:s, s:s}, s:s, s:s, s:s, s:s, s:b}", "schema",
			 FWS_REPORT_SCHEMA, "tool", "name", "fwstress", "version", FWS_VERSION,
			 "commit", FWS_COMMIT, "dpdk", FWS_DPDK_VERSION, "started", t0, "finished",
			 t1, "status", fws_run_status_name(run->status), "partial", run->partial);
	if (run->error[0])
		json_object_set_new(root, "error", json_string(run->error));
	json_object_set_new(root, "hugepage_bytes_peak",
			    json_integer((json_int_t)run->hugepage_peak));
	json_object_set_new(root, "rss_bytes_peak", json_integer((json_int_t)rss_peak()));
	for (i = 0; i < FWS_DIM(report_sections); i++)
		if ((v = report_sections[i].emit(run)) != NULL)
			json_object_set_new(root, report_sections[i].key, v);
	return root;
}

static int
emit_json(FILE *f, const void *arg)
{
	return fws_report_dump(f, fws_report_json(arg));
}

int
fws_report_write_json(const char *path, const struct fws_run *run)
{
	return fws_report_write_atomic(path, emit_json, run);
}

void
fws_report_progress(FILE *f, const struct fws_progress *p, unsigned int trial, unsigned int of,
		    double least_s, double left_s)
{
	char trials[32] = "", left[80] = "", t[32], u[32];
	double loss = p->tx_frames > p->rx_frames && p->tx_frames
			      ? (double)(p->tx_frames - p->rx_frames) * 100.0 / (double)p->tx_frames
			      : 0;

	if (p->result)
		return; /* the trial's end: the report says it */
	if (of)
		snprintf(trials, sizeof(trials), " of ~%u", FWS_MAX(of, trial));
	if (left_s >= 0 &&
	    strcmp(fws_pace_fmt(t, sizeof(t), left_s), fws_pace_fmt(u, sizeof(u), least_s)) != 0)
		snprintf(left, sizeof(left), " | %s to %s left", u, t); /* no cell finished yet */
	else if (left_s >= 0)
		snprintf(left, sizeof(left), " | about %s left", t);
	/* The phase's clock stops at its length: the last tick may come after it. */
	fprintf(f,
		"[%6.1f/%.1f s] trial %u%s (%s%s%s) %-7s TX %9.4f Mpps %8.3f Gbit/s L1 | RX %9.4f "
		"Mpps %8.3f Gbit/s L1",
		FWS_MIN(p->elapsed, p->total), p->total, trial, trials,
		p->frame_size ? p->frame_size : "?", p->direction ? ", " : "",
		p->direction ? p->direction : "", p->phase, p->tx_pps / 1e6, p->tx_bps / 1e9,
		p->rx_pps / 1e6, p->rx_bps / 1e9);
	/* During warm-up nothing is measured: received test frames count from the measured
	 * phase on. */
	if (strcmp(p->phase, "measure") == 0)
		fprintf(f, " | not yet received %.3f %%", loss);
	fprintf(f, "%s\n", left);
}
