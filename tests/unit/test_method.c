/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The methodology (fws_method) driven by a model of a DUT instead of trials: a device that
 * forwards up to a capacity without loss and drops the excess, with a buffer that absorbs
 * bursts up to a size. No EAL: the measurer is the model.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fws_estimate.h"
#include "fws_method.h"
#include "unit.h"

#define MAX_PPS 1e6

struct model {
	double capacity;  /**< share of MAX_PPS forwarded without loss */
	double generator; /**< share of MAX_PPS the generator reaches */
	uint64_t buffer;  /**< longest burst passed without loss */
	unsigned int trials, interrupt_at, saved;
	volatile int stop;
};

static const char cfg_json[] =
	"{\"ports\": [{\"name\": \"lan\", \"device\": \"ringpair:m:a\"},"
	" {\"name\": \"wan\", \"device\": \"ringpair:m:b\"}],"
	" \"direction\": \"bidir\", \"rate\": \"1Mpps\", \"frame_size\": [64, 512],"
	" \"search\": {\"short\": 1, \"final\": 5, \"width\": \"0.5%\"},"
	" \"sweep\": {\"directions\": [\"upload\", \"download\"], \"latency_at\": [\"50%\"],"
	" \"latency_repeat\": 2,"
	" \"back_to_back\": {\"repeat\": 3, \"seconds\": 0.01}}}";

static int
model_measure(void *arg, unsigned int z, const struct fws_trial_opts *o, struct fws_result *res,
	      struct fws_err *e)
{
	struct model *md = arg;
	double load = o->rate_scale > 0 ? o->rate_scale : 1;
	double offered = load < md->generator ? load : md->generator;
	double seconds = o->duration > 0 ? o->duration : 10;
	struct fws_stream_result *sr = &res->streams[0];

	(void)e;
	memset(res, 0, sizeof(*res));
	res->size_idx = z;
	res->kind = o->kind;
	res->lat_frac = o->lat_frac;
	res->dir = o->dir;
	res->n_streams = 1;
	sr->active = true;
	sr->req_pps = load * MAX_PPS;
	sr->tx_pps = offered * MAX_PPS;
	if (o->burst) {
		sr->rx.tx = o->burst;
		sr->rx.lost = o->burst > md->buffer ? o->burst - md->buffer : 0;
	} else {
		sr->rx.tx = (uint64_t)(sr->tx_pps * seconds);
		sr->rx.lost = offered > md->capacity
				      ? (uint64_t)((offered - md->capacity) * MAX_PPS * seconds)
				      : 0;
	}
	sr->hist = calloc(1, sizeof(*sr->hist)); /* owned by the result, as a trial's */
	if (++md->trials == md->interrupt_at) {
		res->partial = true;
		md->stop = 1;
	}
	return 0;
}

static void
model_saved(void *arg, struct fws_run *run)
{
	(void)run;
	((struct model *)arg)->saved++;
}

static struct fws_cfg *cfg;
static struct fws_run run;
static struct model md;
static struct fws_trial_opts base;
static struct fws_method m;

static void
setup(void)
{
	char err[256];

	cfg = fws_config_parse(cfg_json, strlen(cfg_json), err, sizeof(err));
	ck_assert_msg(cfg != NULL, "%s", err);
	memset(&run, 0, sizeof(run));
	memset(&md, 0, sizeof(md));
	md.capacity = 0.6;
	md.generator = 1;
	md.buffer = 5000;
	run.cfg = cfg;
	base = (struct fws_trial_opts){.stop = &md.stop};
	m = (struct fws_method){.cfg = cfg,
				.run = &run,
				.measure = model_measure,
				.measure_arg = &md,
				.base = &base,
				.saved = model_saved,
				.saved_arg = &md};
}

static void
teardown(void)
{
	fws_run_free(&run);
	fws_config_free(cfg);
}

START_TEST(test_method_capacities)
{
	ck_assert_int_eq(fws_run_alloc(&run, cfg, FWS_METHOD_SWEEP), 0);
	/* 2 sizes x 2 directions, each NDR + PDR + 1 latency point twice; a search and b2b
	 * each. */
	ck_assert_uint_eq(run.cap_results, 2 * 2 * 4);
	ck_assert_uint_eq(run.cap_searches, 4);
	ck_assert_uint_eq(run.cap_b2b, 4);
	fws_run_free(&run);
	ck_assert_int_eq(fws_run_alloc(&run, cfg, FWS_METHOD_RUN), 0);
	ck_assert_uint_eq(run.cap_results, 2);
	ck_assert_uint_eq(run.cap_searches, 0);
}
END_TEST

START_TEST(test_method_run_keeps_one_per_size)
{
	struct fws_err e = {0};

	ck_assert_int_eq(fws_run_alloc(&run, cfg, FWS_METHOD_RUN), 0);
	ck_assert_int_eq(fws_method_execute(&m, FWS_METHOD_RUN, &e), 0);
	ck_assert_uint_eq(run.n_results, 2);
	ck_assert_uint_eq(run.results[1].size_idx, 1);
	ck_assert_uint_eq(md.saved, 1); /* between sizes, not after the last */
}
END_TEST

/* The search finds the model's capacity; only the goals' trials are kept. */
START_TEST(test_method_search_finds_capacity)
{
	const struct fws_search_summary *sum;
	struct fws_err e = {0};

	ck_assert_int_eq(fws_run_alloc(&run, cfg, FWS_METHOD_SEARCH), 0);
	ck_assert_int_eq(fws_method_execute(&m, FWS_METHOD_SEARCH, &e), 0);
	ck_assert_uint_eq(run.n_searches, 2);
	sum = &run.searches[0];
	ck_assert(sum->complete && run.searches[1].complete);
	ck_assert(sum->goal[FWS_SEARCH_NDR].found);
	ck_assert_double_le(sum->goal[FWS_SEARCH_NDR].load, 0.6);
	ck_assert_double_ge(sum->goal[FWS_SEARCH_NDR].load, 0.6 - 0.006);
	ck_assert_double_ge(sum->goal[FWS_SEARCH_PDR].load, sum->goal[FWS_SEARCH_NDR].load);
	ck_assert_int_ge(sum->result[FWS_SEARCH_NDR], 0);
	ck_assert_int_eq(run.results[sum->result[FWS_SEARCH_NDR]].kind, FWS_RESULT_NDR);
	ck_assert_uint_gt(sum->n_trials, 5);
	ck_assert_uint_le(run.n_results, run.cap_results);
	ck_assert_uint_gt(md.trials, run.n_results); /* the rest were measured, not kept */
}
END_TEST

/* Sweep: search, latency at 50 % of NDR, back-to-back bursts equal to the buffer. */
START_TEST(test_method_sweep_cells)
{
	struct fws_err e = {0};
	unsigned int i, lat = 0;
	char label[16];

	ck_assert_int_eq(fws_run_alloc(&run, cfg, FWS_METHOD_SWEEP), 0);
	ck_assert_int_eq(fws_method_execute(&m, FWS_METHOD_SWEEP, &e), 0);
	ck_assert_uint_eq(md.saved, 4 * 2); /* after every cell, between latency trials */
	ck_assert_uint_eq(run.n_b2b, 4);
	for (i = 0; i < run.n_b2b; i++) {
		ck_assert_uint_eq(run.b2b[i].n, 3);
		/* bisection to 0.1 % of the longest burst tried (10 ms at 1 Mpps) */
		ck_assert_double_le(run.b2b[i].avg, 5000);
		ck_assert_double_ge(run.b2b[i].avg, 5000 - 10);
		ck_assert_double_eq(run.b2b[i].stddev, 0);
	}
	for (i = 0; i < run.n_results; i++) {
		if (run.results[i].kind != FWS_RESULT_LAT)
			continue;
		ck_assert_double_eq(run.results[i].lat_frac, 0.5);
		ck_assert_uint_eq(run.results[i].repetition, lat % 2 + 1);
		lat++;
	}
	ck_assert_uint_eq(lat, 4 * 2);
	ck_assert_int_eq(run.b2b[1].dir, FWS_DIR_DOWNLOAD);
	fws_result_label(FWS_RESULT_LAT, 0.5, label, sizeof(label));
	ck_assert_str_eq(label, "lat50");
	fws_result_label(FWS_RESULT_NDR, 0, label, sizeof(label));
	ck_assert_str_eq(label, "ndr");
}
END_TEST

/* Sweep with repeat 3: every cell searched three times from scratch (each result numbered),
 * its latency point at the median of their NDRs; the run's capacities hold them. */
START_TEST(test_method_sweep_repeated)
{
	struct fws_err e = {0};
	unsigned int i, k, goals = 0, lat = 0;

	cfg->repeat = 3;
	ck_assert_int_eq(fws_run_alloc(&run, cfg, FWS_METHOD_SWEEP), 0);
	ck_assert_uint_eq(run.cap_searches, 4 * 3);
	ck_assert_int_eq(fws_method_execute(&m, FWS_METHOD_SWEEP, &e), 0);
	ck_assert_uint_eq(run.n_searches, 4 * 3);
	ck_assert_uint_le(run.n_results, run.cap_results);
	for (i = 0; i < run.n_results; i++) {
		const struct fws_result *r = &run.results[i];

		if (r->kind == FWS_RESULT_NDR || r->kind == FWS_RESULT_PDR) {
			k = goals++ / 2 % 3; /* NDR and PDR of repetition k, of each cell */
			ck_assert_uint_eq(r->repetition, k + 1);
		} else if (r->kind == FWS_RESULT_LAT) {
			ck_assert_uint_eq(r->repetition, lat++ % 2 + 1);
			/* the model's NDR is 0.6 whatever the repetition */
			ck_assert_double_le(r->streams[0].req_pps, 0.5 * 0.6 * MAX_PPS);
			ck_assert_double_ge(r->streams[0].req_pps, 0.5 * 0.594 * MAX_PPS);
		}
	}
	ck_assert_uint_eq(goals, 4 * 3 * 2);
	ck_assert_uint_eq(lat, 4 * 2);
	ck_assert_uint_eq(run.n_b2b, 4);
}
END_TEST

/* Latency at 50 % of NDR is at half the NDR published, the load the NDR's trial offered,
 * not half the load it asked for: a generator that reaches 40 % of the maximum asks 20 %. */
START_TEST(test_method_latency_of_published_ndr)
{
	struct fws_err e = {0};
	unsigned int i, lat = 0;

	md.capacity = 1;
	md.generator = 0.4;
	ck_assert_int_eq(fws_run_alloc(&run, cfg, FWS_METHOD_SWEEP), 0);
	ck_assert_int_eq(fws_method_execute(&m, FWS_METHOD_SWEEP, &e), 0);
	for (i = 0; i < run.n_results; i++) {
		if (run.results[i].kind != FWS_RESULT_LAT)
			continue;
		ck_assert_double_eq_tol(run.results[i].streams[0].req_pps, 0.5 * 0.4 * MAX_PPS,
					1e-6 * MAX_PPS);
		lat++;
	}
	ck_assert_uint_eq(lat, 4 * 2);
}
END_TEST

/* A generator that cannot reach the load: the search still ends (offered is what counts). */
START_TEST(test_method_search_generator_limited)
{
	struct fws_err e = {0};

	md.capacity = 1;
	md.generator = 0.4;
	ck_assert_int_eq(fws_run_alloc(&run, cfg, FWS_METHOD_SEARCH), 0);
	ck_assert_int_eq(fws_method_execute(&m, FWS_METHOD_SEARCH, &e), 0);
	ck_assert(run.searches[0].goal[FWS_SEARCH_NDR].found);
	ck_assert_double_le(run.searches[0].goal[FWS_SEARCH_NDR].offered, 0.4 + 1e-9);
	/* Nothing was lost anywhere: the generator's ceiling, a lower bound, no upper end. */
	ck_assert(run.searches[0].goal[FWS_SEARCH_NDR].generator_limited);
	ck_assert(run.searches[0].goal[FWS_SEARCH_PDR].generator_limited);
	ck_assert_double_eq(run.searches[0].goal[FWS_SEARCH_NDR].upper, 0);
}
END_TEST

/* A DUT that loses below the generator's ceiling: a measured NDR, not a lower bound. */
START_TEST(test_method_search_dut_below_generator)
{
	struct fws_err e = {0};

	md.capacity = 0.3;
	md.generator = 0.4;
	ck_assert_int_eq(fws_run_alloc(&run, cfg, FWS_METHOD_SEARCH), 0);
	ck_assert_int_eq(fws_method_execute(&m, FWS_METHOD_SEARCH, &e), 0);
	ck_assert(!run.searches[0].goal[FWS_SEARCH_NDR].generator_limited);
	ck_assert_double_le(run.searches[0].goal[FWS_SEARCH_NDR].offered, 0.3 + 1e-9);
	ck_assert_double_ge(run.searches[0].goal[FWS_SEARCH_NDR].offered, 0.29);
}
END_TEST

/* A trial cut short ends the method as interrupted; a fixed-rate one is kept, partial. */
START_TEST(test_method_interrupted)
{
	struct fws_err e = {0};

	md.interrupt_at = 2;
	ck_assert_int_eq(fws_run_alloc(&run, cfg, FWS_METHOD_RUN), 0);
	ck_assert_int_eq(fws_method_execute(&m, FWS_METHOD_RUN, &e), -EINTR);
	ck_assert_int_eq(e.kind, FWS_ERR_INTERRUPTED);
	ck_assert_int_eq(fws_err_exit_code(e.kind), 4);
	ck_assert_uint_eq(run.n_results, 2);
	ck_assert(run.results[1].partial);
}
END_TEST

START_TEST(test_method_search_interrupted)
{
	struct fws_err e = {0};

	md.interrupt_at = 4;
	ck_assert_int_eq(fws_run_alloc(&run, cfg, FWS_METHOD_SEARCH), 0);
	ck_assert_int_eq(fws_method_execute(&m, FWS_METHOD_SEARCH, &e), -EINTR);
	ck_assert_uint_eq(run.n_searches, 1);
	ck_assert_uint_eq(run.searches[0].n_trials, 3); /* the cut trial is not recorded */
	ck_assert(!run.searches[0].complete); /* its goals are no result: the report says so */
	ck_assert_uint_le(run.n_results, 2);
}
END_TEST

/* The estimate counts what the method's own loops ask: a fixed-rate run is one trial a size
 * and repetition, each its warm-up, duration, drain and a second around it. */
START_TEST(test_method_estimate_run)
{
	struct fws_estimate e;
	unsigned int trials;
	double s;

	s = fws_estimate_total(cfg, FWS_CAMPAIGN_RUN, &trials);
	ck_assert_uint_eq(trials, 2);
	ck_assert_double_eq_tol(s, 2 + 2 * (cfg->warmup + cfg->duration + cfg->drain + 1), 1e-9);
	cfg->repeat = 3;
	fws_estimate_cells(cfg, FWS_CAMPAIGN_RUN, &e);
	ck_assert_uint_eq(e.cells, 2);
	ck_assert_uint_eq(e.cell_trials, 3);
	ck_assert_uint_eq(e.cell_min_trials, 3);
	ck_assert_double_eq_tol(e.cell_s, e.cell_min_s, 1e-9);
}
END_TEST

/* Whatever the DUT, a real search or sweep asks for no fewer trials than the estimate's
 * least and no more than its most: the method against DUTs of many capacities and
 * buffers, the generator short of the rate or not. */
static void
bracketed(enum fws_campaign_cmd cmd, enum fws_method_mode mode)
{
	static const double caps[] = {0.001, 0.05, 0.3, 0.5, 0.6, 0.77, 0.999, 2};
	static const uint64_t bufs[] = {0, 10, 2500, 5000, 9999, 1000000};
	struct fws_estimate e;
	unsigned int i, least = UINT32_MAX, most = 0;
	struct fws_err err;

	fws_estimate_cells(cfg, cmd, &e);
	ck_assert_uint_le(e.cell_min_trials, e.cell_trials);
	ck_assert(e.cell_min_s <= e.cell_s);
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		md.capacity = caps[i];
		md.buffer = caps[i] > 1 ? UINT64_MAX : bufs[i % (sizeof(bufs) / sizeof(bufs[0]))];
		md.generator = i % 3 || caps[i] > 1 ? 1 : 0.8; /* the last passes everything */
		md.trials = 0;
		fws_run_free(&run);
		memset(&run, 0, sizeof(run));
		run.cfg = cfg;
		ck_assert_int_eq(fws_run_alloc(&run, cfg, mode), 0);
		ck_assert_int_eq(fws_method_execute(&m, mode, &err), 0);
		ck_assert_msg(md.trials >= e.cells * e.cell_min_trials &&
				      md.trials <= e.cells * e.cell_trials,
			      "capacity %g: %u trials, the estimate %u to %u", caps[i], md.trials,
			      e.cells * e.cell_min_trials, e.cells * e.cell_trials);
		least = md.trials < least ? md.trials : least;
		most = md.trials > most ? md.trials : most;
	}
	/* ... and the bounds are the ones such DUTs reach, not a wide guess. */
	ck_assert_uint_eq(least, e.cells * e.cell_min_trials);
	ck_assert_uint_ge(most * 10, e.cells * e.cell_trials * 9);
}

START_TEST(test_method_estimate_search)
{
	bracketed(FWS_CAMPAIGN_SEARCH, FWS_METHOD_SEARCH);
}
END_TEST

START_TEST(test_method_estimate_sweep)
{
	bracketed(FWS_CAMPAIGN_SWEEP, FWS_METHOD_SWEEP);
	cfg->repeat = 2; /* every cell's search twice */
	bracketed(FWS_CAMPAIGN_SWEEP, FWS_METHOD_SWEEP);
}
END_TEST

/* Connections: 2 x 1000 at 500/s, 3 tries 1 s apart, 2 s aging, 1 s around each iteration;
 * a capacity test its iterations, a teardown test searched (as the search counts) with its
 * connections opened at 250/s first; "repeat" the whole test. */
START_TEST(test_method_estimate_connections)
{
	unsigned int trials, n;
	double s, each = 4 + 3 + 2 + 1;

	cfg->n_streams = 2;
	cfg->streams[0].flows.count = cfg->streams[1].flows.count = 1000;
	cfg->conn = (struct fws_cfg_conn){.test = FWS_CONN_CAPACITY,
					  .rate = 500,
					  .open_rate = 250,
					  .tries = 3,
					  .retry_s = 1,
					  .aging_s = 2,
					  .iterations = 2};
	s = fws_estimate_total(cfg, FWS_CAMPAIGN_CONNECTIONS, &trials);
	ck_assert_uint_eq(trials, 2);
	ck_assert_double_eq_tol(s, 2 + 2 * each, 1e-9);
	cfg->conn.test = FWS_CONN_TEARDOWN;
	s = fws_estimate_total(cfg, FWS_CAMPAIGN_CONNECTIONS, &n);
	ck_assert_uint_gt(n, 4); /* width 0.5 %: the search narrows */
	ck_assert_uint_le(n, cfg->search.max_trials ? cfg->search.max_trials : 200);
	ck_assert_double_eq_tol(s, 2 + n * (each + 8), 1e-9);
	cfg->repeat = 3;
	s = fws_estimate_total(cfg, FWS_CAMPAIGN_CONNECTIONS, &trials);
	ck_assert_uint_eq(trials, 3 * n);
	ck_assert_double_eq_tol(s, 2 + 3 * n * (each + 8), 1e-9);
}
END_TEST

static Suite *
suite_method(void)
{
	Suite *s = suite_create("method");
	TCase *tc = tcase_create("model");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_method_capacities);
	tcase_add_test(tc, test_method_run_keeps_one_per_size);
	tcase_add_test(tc, test_method_search_finds_capacity);
	tcase_add_test(tc, test_method_sweep_cells);
	tcase_add_test(tc, test_method_sweep_repeated);
	tcase_add_test(tc, test_method_search_generator_limited);
	tcase_add_test(tc, test_method_latency_of_published_ndr);
	tcase_add_test(tc, test_method_search_dut_below_generator);
	tcase_add_test(tc, test_method_interrupted);
	tcase_add_test(tc, test_method_search_interrupted);
	tcase_add_test(tc, test_method_estimate_run);
	tcase_add_test(tc, test_method_estimate_search);
	tcase_add_test(tc, test_method_estimate_sweep);
	tcase_add_test(tc, test_method_estimate_connections);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_method)
