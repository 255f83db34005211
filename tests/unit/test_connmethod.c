/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The connection tests' method (fws_connmethod) driven by a model DUT: RFC 3511's iteration
 * rules (the same connections every iteration, a reset and the aging wait after each, none
 * after an interrupted one), the rate search finding the model's limit within the search
 * width, capacity's iterations and figure, and RFC 9411's pass criteria at their edges.
 */
#include <errno.h>
#include <string.h>

#include "fws_conntest.h"
#include "unit.h"

/* A DUT that completes every connection up to max_cps and impairs the share above it. */
struct model {
	double max_cps;
	uint64_t count;
	unsigned int trials, betweens, between_after_trial;
	uint64_t attempted[64];
	int stop_at; /**< this trial comes back partial (interrupted) */
	int lost_at; /**< this trial fails (an agent lost): its counts are no measurement */
	uint64_t held[8];
	unsigned int repeat; /**< config repeat */
};

static int
m_trial(void *arg, double rate, struct fws_conntrial *out, struct fws_err *e)
{
	struct model *m = arg;
	double over = rate > m->max_cps ? (rate - m->max_cps) / rate : 0;

	ck_assert_uint_eq(m->betweens, m->trials); /* the last iteration was reset first */
	out->achieved = rate;
	out->phase_s = (double)m->count / rate;
	out->st.attempted = m->count;
	out->st.established = m->count - (uint64_t)(over * (double)m->count);
	out->st.failed[FWS_CONN_FAIL_SYN] = m->count - out->st.established;
	out->st.closed = out->st.clean = out->st.established;
	out->st.held = m->held[m->trials % 8];
	fws_hist_reset(&out->st.est);
	m->attempted[m->trials] = m->count;
	out->partial = (int)m->trials == m->stop_at;
	if ((int)m->trials++ == m->lost_at)
		return fws_err_set(e, FWS_ERR_FAULT, -EPIPE, "host site2: agent lost");
	return 0;
}

static int
m_between(void *arg, struct fws_err *e)
{
	struct model *m = arg;

	(void)e;
	m->betweens++;
	return 0;
}

static struct fws_cfg cfg;

static void
run_model(struct model *m, enum fws_conn_test test, double fixed, struct fws_connrun *run, int want)
{
	struct fws_connops ops = {.trial = m_trial, .between = m_between, .arg = m};
	struct fws_err e = {0};

	memset(&cfg, 0, sizeof(cfg));
	cfg.conn = (struct fws_cfg_conn){.test = test, .rate = 100000, .iterations = 3};
	cfg.repeat = m->repeat;
	cfg.search = (struct fws_cfg_search){
		.width = 0.01, .pdr = 0.005, .min_load = 0.001, .max_trials = 60};
	memset(run, 0, sizeof(*run));
	run->cfg = &cfg;
	run->fixed_rate = fixed;
	ck_assert_int_eq(fws_conntest_execute(run, &ops, &e), want);
}

START_TEST(test_connmethod_rate_search)
{
	struct model m = {.max_cps = 37000, .count = 5000, .stop_at = -1, .lost_at = -1};
	struct fws_connrun run;
	unsigned int i;
	int tr;
	double v;

	run_model(&m, FWS_CONN_RATE, 0, &run, 0);
	ck_assert_uint_ge(m.trials, 5);
	ck_assert_uint_eq(m.betweens, m.trials); /* a reset and the aging after each */
	for (i = 0; i < m.trials; i++)
		ck_assert_uint_eq(m.attempted[i], 5000); /* the same connections every time */
	v = fws_connrun_figure(&run, &tr);
	ck_assert(tr >= 0);
	ck_assert_msg(v <= 37000 && v >= 37000 - 1000, "found %.0f", v);
	ck_assert_uint_eq(run.trials[tr].impaired, 0);
	ck_assert(run.trials[tr].pass);
	fws_connrun_free(&run);
}
END_TEST

START_TEST(test_connmethod_capacity)
{
	struct model m = {.max_cps = 1e9,
			  .count = 300,
			  .stop_at = -1,
			  .lost_at = -1,
			  .held = {120, 118, 121}};
	struct fws_connrun run;
	int tr;

	run_model(&m, FWS_CONN_CAPACITY, 0, &run, 0);
	ck_assert_uint_eq(m.trials, 3);
	ck_assert_uint_eq(m.betweens, 3);
	ck_assert(fws_connrun_figure(&run, &tr) == 118); /* the fewest held */
	ck_assert_int_eq(tr, 1);
	fws_connrun_free(&run);
}
END_TEST

/* Repeated (config repeat 3): the search runs three times from scratch, each repetition's
 * trials and goals its own (a view of the run), each finding the model's limit. */
START_TEST(test_connmethod_repeated_search)
{
	struct model m = {
		.max_cps = 37000, .count = 500, .stop_at = -1, .lost_at = -1, .repeat = 3};
	struct fws_connrun run, v;
	unsigned int k, first = 0;
	int tr;
	double x;

	run_model(&m, FWS_CONN_RATE, 0, &run, 0);
	ck_assert_uint_eq(run.n_reps, 3);
	ck_assert_uint_eq(fws_connrun_n_reps(&run), 3);
	for (k = 0; k < 3; k++) {
		fws_connrun_rep(&run, k, &v);
		ck_assert(run.reps[k].done && v.searched && !v.partial);
		ck_assert_uint_eq(run.reps[k].first, first); /* one after the other */
		ck_assert_ptr_eq(v.trials, run.trials + first);
		first += v.n_trials;
		x = fws_connrun_figure(&v, &tr);
		ck_assert(tr >= 0 && (unsigned int)tr < v.n_trials);
		ck_assert_msg(x <= 37000 && x >= 37000 - 1000, "repetition %u found %.0f", k, x);
		ck_assert_uint_eq(v.trials[tr].impaired, 0);
	}
	ck_assert_uint_eq(first, run.n_trials);
	ck_assert_uint_eq(m.trials, run.n_trials);
	fws_connrun_free(&run);
}
END_TEST

/* Capacity repeated twice: each repetition its three iterations, its figure the fewest its
 * own held; an interruption in the second leaves the first complete. */
START_TEST(test_connmethod_repeated_capacity)
{
	struct model m = {.max_cps = 1e9,
			  .count = 300,
			  .stop_at = 4,
			  .lost_at = -1,
			  .held = {120, 118, 121, 90, 95, 99},
			  .repeat = 2};
	struct fws_connrun run, v;
	int tr;

	run_model(&m, FWS_CONN_CAPACITY, 0, &run, -EINTR);
	ck_assert_uint_eq(run.n_reps, 2);
	fws_connrun_rep(&run, 0, &v);
	ck_assert(run.reps[0].done && !v.partial);
	ck_assert(fws_connrun_figure(&v, &tr) == 118);
	ck_assert_int_eq(tr, 1);
	fws_connrun_rep(&run, 1, &v);
	ck_assert(!run.reps[1].done && v.partial);
	ck_assert_uint_eq(v.n_trials, 2); /* 90 and the interrupted 95 */
	fws_connrun_free(&run);
}
END_TEST

/* An interrupted iteration ends the test, partial, without another reset or trial. */
START_TEST(test_connmethod_interrupted)
{
	struct model m = {.max_cps = 1e9, .count = 10, .stop_at = 1, .lost_at = -1};
	struct fws_connrun run;

	run_model(&m, FWS_CONN_CAPACITY, 0, &run, -EINTR);
	ck_assert_uint_eq(m.trials, 2);
	ck_assert_uint_eq(m.betweens, 1);
	ck_assert(run.partial);
	fws_connrun_free(&run);
}
END_TEST

/* An iteration that fails (its agent lost) is not kept: the report holds the earlier ones
 * only, partial, and nothing follows it. */
START_TEST(test_connmethod_lost)
{
	struct model m = {.max_cps = 1e9, .count = 10, .stop_at = -1, .lost_at = 1};
	struct fws_connrun run;

	run_model(&m, FWS_CONN_CAPACITY, 0, &run, -EPIPE);
	ck_assert_uint_eq(m.trials, 2);
	ck_assert_uint_eq(m.betweens, 1);
	ck_assert_uint_eq(run.n_trials, 1);
	ck_assert(run.partial);
	fws_connrun_free(&run);
}
END_TEST

START_TEST(test_connmethod_fixed)
{
	struct model m = {.max_cps = 1000, .count = 100, .stop_at = -1, .lost_at = -1};
	struct fws_connrun run;

	run_model(&m, FWS_CONN_RATE, 2000, &run, 0);
	ck_assert_uint_eq(m.trials, 1);
	ck_assert_uint_eq(run.trials[0].impaired, 50);
	ck_assert(!run.trials[0].pass);
	fws_connrun_free(&run);
}
END_TEST

/* RFC 9411: under 0.001 % failed and under 0.001 % reset, each at its edge. */
START_TEST(test_connmethod_criteria)
{
	static const struct {
		uint64_t attempted, syn, rst;
		bool pass;
	} cases[] = {
		{100000, 0, 0, true},  {100000, 1, 0, false},  {100001, 1, 0, true},
		{200000, 1, 0, true},  {100000, 0, 1, false},  {100001, 0, 1, true},
		{1000000, 5, 4, true}, {1000000, 5, 5, false}, {0, 0, 0, false},
		{10, 0, 0, true},
	};
	unsigned int i;
	char why[160];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fws_conn_stats st = {.attempted = cases[i].attempted};

		st.failed[FWS_CONN_FAIL_SYN] = cases[i].syn;
		st.failed[FWS_CONN_FAIL_RST] = cases[i].rst;
		ck_assert_msg(fws_conn_criteria(&st, why, sizeof(why)) == cases[i].pass,
			      "case %u: %s", i, why);
		ck_assert(strstr(why, cases[i].pass        ? "met"
				      : cases[i].attempted ? "missed"
							   : "no "));
	}
}
END_TEST

static Suite *
suite_connmethod(void)
{
	Suite *s = suite_create("connmethod");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_connmethod_rate_search);
	tcase_add_test(tc, test_connmethod_capacity);
	tcase_add_test(tc, test_connmethod_repeated_search);
	tcase_add_test(tc, test_connmethod_repeated_capacity);
	tcase_add_test(tc, test_connmethod_interrupted);
	tcase_add_test(tc, test_connmethod_lost);
	tcase_add_test(tc, test_connmethod_fixed);
	tcase_add_test(tc, test_connmethod_criteria);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_connmethod)
