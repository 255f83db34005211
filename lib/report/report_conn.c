/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The report of a connection test (fwstress connections): every iteration with its counts
 * by reason, the established and closed rates per second, the time to establish, RFC 9411's
 * criteria, the search, and a matrix cell like a throughput report's.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fws_build.h"
#include "fws_compat.h"
#include "fws_conntest.h"
#include "fws_report.h"
#include "fws_util.h"
#include "report_int.h"

#define CRITERIA                                                                                   \
	"RFC 9411 7.2.3.3: failed connections under 0.001 % of those attempted, and connections "  \
	"reset under 0.001 %"
#define IMPAIRED                                                                                   \
	"a connection that failed, did not finish (closed; capacity: held), or sent anything "     \
	"twice; the search's loss (NDR: none impaired)"

/* The cell kinds, by test. */
static const char *const cell_kinds[] = {"", "cps", "sessions", "teardown"};

static json_t *
series_json(const struct fws_conn_series *x)
{
	json_t *a = json_array();
	uint32_t i;

	for (i = 0; i < x->n; i++)
		json_array_append_new(a, json_integer((json_int_t)x->v[i]));
	return a;
}

static json_t *
failed_json(const struct fws_conn_stats *st)
{
	json_t *o = json_object();
	unsigned int f;

	for (f = 1; f < FWS_CONN_FAIL_N; f++)
		json_object_set_new(o, fws_conn_fail_name((enum fws_conn_fail)f),
				    json_integer((json_int_t)st->failed[f]));
	return o;
}

static json_t *
trial_json(const struct fws_conntrial *t)
{
	const struct fws_conn_stats *st = &t->st;
	json_t *o = json_pack(
		"{s:f, s:f, s:f, s:f, s:b, s:b, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "rate",
		t->rate, "achieved", t->achieved, "phase_s", t->phase_s, "elapsed_s", t->elapsed_s,
		"generator_limited", t->generator_limited, "partial", t->partial, "attempted",
		(json_int_t)st->attempted, "established", (json_int_t)st->established, "closed",
		(json_int_t)st->closed, "held", (json_int_t)st->held, "failed_total",
		(json_int_t)fws_conn_failed(st), "impaired", (json_int_t)t->impaired, "retried",
		(json_int_t)st->retried, "resent", (json_int_t)st->resent);

	json_object_set_new(o, "failed", failed_json(st));
	json_object_set_new(o, "unfinished", json_integer((json_int_t)t->unfinished));
	json_object_set_new(o, "first_failure",
			    st->first_fail ? json_string(fws_conn_fail_name(st->first_fail))
					   : json_null());
	json_object_set_new(o, "held_at_first_failure",
			    st->first_fail ? json_integer((json_int_t)st->held_at_fail)
					   : json_null());
	json_object_set_new(o, "first_failure_s",
			    st->first_fail ? json_real(st->first_fail_us / 1e6) : json_null());
	json_object_set_new(
		o, "segments",
		json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "sent", (json_int_t)st->segs_sent,
			  "received", (json_int_t)st->segs_received, "rst_received",
			  (json_int_t)st->rst_received, "unmatched", (json_int_t)st->unmatched,
			  "reset_sent", (json_int_t)st->reset_sent, "tx_refused",
			  (json_int_t)t->tx_refused));
	json_object_set_new(o, "time_to_establish_us",
			    json_pack("{s:f, s:f, s:f, s:f, s:f, s:s}", "min", t->est_min_us, "avg",
				      t->est_avg_us, "p50", t->est_p50_us, "p99", t->est_p99_us,
				      "max", t->est_max_us, "from_to",
				      "the first SYN to the response (the first data ACK)"));
	json_object_set_new(o, "established_per_second", series_json(&st->est_per_s));
	json_object_set_new(o, "closed_per_second", series_json(&st->closed_per_s));
	if (t->dut_probed)
		json_object_set_new(o, "dut_cpu_pct",
				    t->dut.ok ? json_real(t->dut.cpu) : json_null());
	if (t->dut_probed && !t->dut.ok)
		json_object_set_new(o, "dut_load_error", json_string(t->dut.error));
	json_object_set_new(o, "criteria_met", json_boolean(t->pass));
	json_object_set_new(o, "criteria", json_string(t->verdict));
	return o;
}

static json_t *
result_json(const struct fws_connrun *run)
{
	int tr;
	double v = fws_connrun_figure(run, &tr);
	const struct fws_conntrial *t = tr >= 0 ? &run->trials[tr] : NULL;
	json_t *o = json_pack("{s:s, s:f, s:b, s:s}", "kind", cell_kinds[run->test], "value", v,
			      "fixed_rate", run->fixed_rate > 0, "unit",
			      run->test == FWS_CONN_CAPACITY ? "connections held"
			      : run->test == FWS_CONN_RATE   ? "connections per second"
							     : "closes per second");

	json_object_set_new(o, "trial", tr >= 0 ? json_integer(tr) : json_null());
	if (t && run->test == FWS_CONN_CAPACITY) {
		json_object_set_new(o, "first_failure",
				    t->st.first_fail
					    ? json_string(fws_conn_fail_name(t->st.first_fail))
					    : json_null());
		json_object_set_new(o, "first_failure_doc",
				    json_string(fws_conn_fail_doc(t->st.first_fail)));
	}
	if (t && ((run->test == FWS_CONN_CAPACITY && !t->st.first_fail) || t->generator_limited))
		json_object_set_new(
			o, "note",
			json_sprintf("%s%s%s",
				     run->test == FWS_CONN_CAPACITY && !t->st.first_fail
					     ? "no connection failed: the DUT held every one "
					       "attempted; its capacity is at least this"
					     : "",
				     run->test == FWS_CONN_CAPACITY && !t->st.first_fail &&
						     t->generator_limited
					     ? "; "
					     : "",
				     t->generator_limited
					     ? "generator-limited: the tester did not reach the "
					       "rate asked for (or its port refused segments); "
					       "this is the tester's figure, not the DUT's"
					     : ""));
	return o;
}

/* Repetition k's result, its trial numbered among all the run's, and which it is. */
static json_t *
rep_result_json(const struct fws_connrun *run, unsigned int k)
{
	struct fws_connrun v;
	json_t *o;
	int tr;

	fws_connrun_rep(run, k, &v);
	o = result_json(&v);
	fws_connrun_figure(&v, &tr);
	if (tr >= 0)
		json_object_set_new(o, "trial", json_integer(tr + (int)(v.trials - run->trials)));
	json_object_set_new(o, "repetition", json_integer(k + 1));
	return o;
}

/* Of a repeated test, the repetition whose figure is the median (the lower of the middle
 * two): a measurement the result can name; -1 when none has a result. */
struct rep_fig {
	double v;
	int k;
};

static int
by_fig(const void *a, const void *b)
{
	const struct rep_fig *x = a, *y = b;

	return (x->v > y->v) - (x->v < y->v);
}

static int
median_rep(const struct fws_connrun *run)
{
	struct rep_fig f[FWS_CFG_MAX_REPEAT];
	struct fws_connrun x;
	unsigned int i, n = 0;
	int tr;

	for (i = 0; i < run->n_reps && i < FWS_CFG_MAX_REPEAT; i++) {
		fws_connrun_rep(run, i, &x);
		f[n].v = fws_connrun_figure(&x, &tr);
		f[n].k = (int)i;
		if (tr >= 0 && !x.partial)
			n++;
	}
	qsort(f, n, sizeof(f[0]), by_fig);
	return n ? f[(n - 1) / 2].k : -1;
}

static json_t *
conn_json(const struct fws_connrun *run)
{
	const struct fws_cfg_conn *k = &run->cfg->conn;
	json_t *tr = json_array(), *o, *reps;
	unsigned int i, r;
	struct fws_connrun med = *run;
	int m = run->n_reps > 1 ? median_rep(run) : -1;

	for (r = 0; r < fws_connrun_n_reps(run); r++) {
		struct fws_connrun v;

		fws_connrun_rep(run, r, &v);
		for (i = 0; i < v.n_trials; i++) {
			json_t *t = trial_json(&v.trials[i]);

			if (run->n_reps > 1)
				json_object_set_new(t, "repetition", json_integer(r + 1));
			json_array_append_new(tr, t);
		}
	}
	if (m >= 0) /* the result and search a repeated test names: its median repetition's */
		fws_connrun_rep(run, (unsigned int)m, &med);
	o = json_pack("{s:s, s:I, s:I, s:I, s:i, s:i, s:f, s:f, s:s, s:s, s:o, s:o}", "test",
		      fws_conn_test_name(run->test), "count", (json_int_t)run->count,
		      "state_bytes_per_connection", (json_int_t)run->state_bytes, "engine_bytes",
		      (json_int_t)run->memory_bytes, "data_bytes", (int)k->data, "tries",
		      (int)k->tries, "retry_s", k->retry_s, "aging_s", k->aging_s, "criteria",
		      CRITERIA, "impaired", IMPAIRED, "result",
		      m >= 0 ? rep_result_json(run, (unsigned int)m) : result_json(&med), "trials",
		      tr);
	if (med.searched)
		json_object_set_new(
			o, "search",
			json_pack("{s:o, s:o}", "ndr",
				  fws_report_goal_json(&med.goal[FWS_SEARCH_NDR],
						       med.goal[FWS_SEARCH_NDR].trial),
				  "pdr",
				  fws_report_goal_json(&med.goal[FWS_SEARCH_PDR],
						       med.goal[FWS_SEARCH_PDR].trial)));
	if (run->n_reps > 1) {
		reps = json_array();
		for (r = 0; r < run->n_reps; r++)
			json_array_append_new(reps, rep_result_json(run, r));
		json_object_set_new(o, "repetitions", reps);
	}
	return o;
}

/* The matrix cell of one repetition (run: its view): the test's figure, in the first
 * stream's name and direction; rep 0: not repeated. */
static void
cell_json(json_t *a, const struct fws_connrun *run, unsigned int rep)
{
	struct fws_cell c;
	int tr;
	double v = fws_connrun_figure(run, &tr);

	if (tr < 0 || run->partial)
		return;
	memset(&c, 0, sizeof(c));
	strlcpy(c.scenario, run->cfg->scenario, sizeof(c.scenario));
	snprintf(c.kind, sizeof(c.kind), "%s%s", cell_kinds[run->test],
		 run->fixed_rate > 0 && run->test != FWS_CONN_CAPACITY ? "-fixed" : "");
	strlcpy(c.direction, fws_dir_name(run->cfg->streams[0].dir), sizeof(c.direction));
	strlcpy(c.stream, run->cfg->streams[0].name, sizeof(c.stream));
	snprintf(c.size, sizeof(c.size), "%u B each way", run->cfg->conn.data);
	c.connections = v;
	c.conn_failed = (double)fws_conn_failed(&run->trials[tr].st);
	c.dut_cpu = run->trials[tr].dut.ok ? run->trials[tr].dut.cpu : -1;
	c.attack_frames = c.attack_leaked = c.blocked_leaked = c.flood_pps = c.flood_passed = -1;
	c.unsteady = c.worst_second = c.dut_core = c.dut_states = c.dut_drops = -1;
	c.generator_limited = run->trials[tr].generator_limited;
	c.p50_ns = run->trials[tr].est_p50_us * 1e3;
	c.p99_ns = run->trials[tr].est_p99_us * 1e3;
	c.repetition = rep ? (double)rep : -1;
	json_array_append_new(a, fws_report_cell_json(&c));
}

/* The matrix cells: one per repetition that has a result (a partial run keeps those its
 * finished repetitions have). */
static json_t *
cells_json(const struct fws_connrun *run)
{
	json_t *a = json_array();
	struct fws_connrun v;
	unsigned int k;

	for (k = 0; k < fws_connrun_n_reps(run); k++) {
		fws_connrun_rep(run, k, &v);
		cell_json(a, &v, run->n_reps > 1 ? k + 1 : 0);
	}
	return a;
}

json_t *
fws_report_conn_json(const struct fws_connrun *run)
{
	char t0[32], t1[32];
	json_t *root;

	fws_report_iso_time(run->started, t0, sizeof(t0));
	fws_report_iso_time(run->finished, t1, sizeof(t1));
	root = json_pack("{s:s, s:s, s:{s:s, s:s, s:s}, s:s, s:s, s:s, s:s, s:b}", "schema",
			 FWS_REPORT_SCHEMA, "kind", "connections", "tool", "name", "fwstress",
			 "version", FWS_VERSION, "commit", FWS_COMMIT, "dpdk", FWS_DPDK_VERSION,
			 "started", t0, "finished", t1, "status",
			 run->error[0]  ? "error"
			 : run->running ? "running"
			 : run->partial ? "interrupted"
					: "completed",
			 "partial", run->partial);
	if (run->error[0])
		json_object_set_new(root, "error", json_string(run->error));
	json_object_set_new(root, "config", fws_config_to_json(run->cfg));
	json_object_set_new(root, "ports", fws_report_ports_json(run->ports, run->n_ports));
	if (run->n_hosts)
		json_object_set_new(root, "hosts",
				    fws_report_hosts_json(run->cfg, run->hosts, run->n_hosts));
	json_object_set_new(root, "connections", conn_json(run));
	json_object_set_new(root, "cells", cells_json(run));
	return root;
}

static int
emit_json(FILE *f, const void *arg)
{
	return fws_report_dump(f, fws_report_conn_json(arg));
}

int
fws_report_conn_write_json(const char *path, const struct fws_connrun *run)
{
	return fws_report_write_atomic(path, emit_json, run);
}

/* Per second (the first 12 and the last 4 of a long trial): a collapse shows. */
static void
text_series(FILE *f, const char *what, const struct fws_conn_series *x)
{
	uint32_t i;

	if (x->n < 2)
		return;
	fprintf(f, "      %s per second:", what);
	for (i = 0; i < x->n; i++) {
		if (x->n > 16 && i == 12) {
			fprintf(f, " ...");
			i = x->n - 4;
		}
		fprintf(f, " %lu", (unsigned long)x->v[i]);
	}
	fputc('\n', f);
}

/* One repetition's (run: its view) trials, numbered from first, and its result. */
static void
text_rep(FILE *f, const struct fws_connrun *run, unsigned int first)
{
	unsigned int i, k;
	int tr;
	double v = fws_connrun_figure(run, &tr);

	for (i = 0; i < run->n_trials; i++) {
		const struct fws_conntrial *t = &run->trials[i];

		fprintf(f, "%5u %10.0f %10.0f %9lu %9lu %9lu %9lu %7lu  %.0f/%.0f%s\n", first + i,
			t->rate, t->achieved, (unsigned long)t->st.attempted,
			(unsigned long)t->st.established, (unsigned long)t->st.closed,
			(unsigned long)t->st.held, (unsigned long)fws_conn_failed(&t->st),
			t->est_p50_us, t->est_p99_us,
			t->generator_limited ? " (generator-limited)" : "");
		for (k = 1; k < FWS_CONN_FAIL_N; k++)
			if (t->st.failed[k])
				fprintf(f, "      failed %s: %lu\n",
					fws_conn_fail_name((enum fws_conn_fail)k),
					(unsigned long)t->st.failed[k]);
		text_series(f, "established", &t->st.est_per_s);
	}
	if (tr < 0) {
		fprintf(f, "result: none%s\n", run->partial ? " (partial)" : "");
		return;
	}
	if (run->test == FWS_CONN_CAPACITY)
		fprintf(f, "result: %.0f connections held; first failure: %s\n", v,
			run->trials[tr].st.first_fail
				? fws_conn_fail_name(run->trials[tr].st.first_fail)
				: "none (at least this many)");
	else
		fprintf(f, "result: %.0f %s per second %s (trial %d)\n", v,
			run->test == FWS_CONN_RATE ? "connections" : "closes",
			run->fixed_rate > 0 ? "completed unimpaired at a fixed rate"
					    : "with no connection impaired",
			first + (unsigned int)tr);
	fprintf(f, "%s: %s\n", CRITERIA, run->trials[tr].verdict);
}

void
fws_report_conn_text(FILE *f, const struct fws_connrun *run)
{
	struct fws_connrun v;
	unsigned int k;

	fprintf(f, "fwstress connections: %s, %lu connections per iteration, %u B each way\n",
		fws_conn_test_name(run->test), (unsigned long)run->count, run->cfg->conn.data);
	fws_report_hosts_text(f, run->cfg, run->hosts, run->n_hosts);
	fprintf(f, "%5s %10s %10s %9s %9s %9s %9s %7s  %s\n", "trial", "asked/s", "reached/s",
		"attempted", "establ.", "closed", "held", "failed", "time to establish us p50/p99");
	for (k = 0; k < fws_connrun_n_reps(run); k++) {
		fws_connrun_rep(run, k, &v);
		if (run->n_reps > 1)
			fprintf(f, "repetition %u of %u:\n", k + 1, run->n_reps);
		text_rep(f, &v, (unsigned int)(v.trials - run->trials));
	}
}
