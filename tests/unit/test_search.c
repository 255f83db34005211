/* SPDX-License-Identifier: BSD-3-Clause */
/* The throughput search against simulated DUTs. */
#include <math.h>
#include <stdlib.h>

#include "fws_search.h"
#include "unit.h"

#define MAX_PPS 1e6

static const struct fws_search_cfg cfg = {
	.min_load = 0.001,
	.width = 0.005,
	.pdr_loss = 0.005,
	.short_s = 1,
	.final_s = 60,
	.max_trials = 60,
};

enum model { SHARP, NOISY, FIXED_LOSS, FAST, LONG_ONLY };

static uint64_t st = 88172645463325252ull;

static double
uniform(void)
{
	st ^= st << 13;
	st ^= st >> 7;
	st ^= st << 17;
	return (double)(st >> 11) / 9007199254740992.0;
}

/* Loss ratio the DUT model gives at a load and trial duration. */
static double
dut(enum model m, double load, double duration)
{
	double cap;

	switch (m) {
	case SHARP:
		cap = 0.6;
		break;
	case NOISY:
		cap = 0.6 * (1 + (uniform() - 0.5) * 0.02); /* +-1 % per trial */
		break;
	case FIXED_LOSS:
		return 0.001;
	case FAST:
		return 0;
	case LONG_ONLY:
		/* Buffers hide the overload in short trials: above 0.5 it loses after 10 s. */
		cap = duration > 10 ? 0.5 : 0.8;
		break;
	default:
		cap = 1;
	}
	return load > cap ? 1 - cap / load : 0;
}

static unsigned int
run(enum model m, struct fws_search_goal *ndr, struct fws_search_goal *pdr)
{
	struct fws_search *s = fws_search_new(&cfg);
	const struct fws_search_trial *t;
	double load, duration;
	unsigned int n;

	ck_assert_ptr_nonnull(s);
	while (fws_search_next(s, &load, &duration)) {
		uint64_t tx = (uint64_t)(load * MAX_PPS * duration);
		uint64_t lost = (uint64_t)llround((double)tx * dut(m, load, duration));

		ck_assert(load >= cfg.min_load && load <= 1.0);
		fws_search_record(s, load, tx, lost);
	}
	fws_search_goal(s, FWS_SEARCH_NDR, ndr);
	fws_search_goal(s, FWS_SEARCH_PDR, pdr);
	n = fws_search_trials(s, &t);
	/* Every result stands on a final-duration trial. */
	if (ndr->found)
		ck_assert(fabs(ndr->offered - ndr->load) < 1e-12);
	fws_search_free(s);
	return n;
}

START_TEST(test_search_sharp)
{
	struct fws_search_goal ndr, pdr;
	unsigned int n = run(SHARP, &ndr, &pdr);

	ck_assert(ndr.found && pdr.found);
	ck_assert_msg(ndr.load <= 0.6 && ndr.load >= 0.6 - cfg.width, "NDR %f", ndr.load);
	ck_assert_double_eq(ndr.loss_ratio, 0);
	/* PDR: loss 1 - 0.6/x <= 0.5 % up to x = 0.60302 */
	ck_assert_msg(pdr.load <= 0.6031 && pdr.load >= 0.6031 - cfg.width, "PDR %f", pdr.load);
	ck_assert(pdr.upper - pdr.load <= cfg.width);
	ck_assert_uint_le(n, 30);
	ck_assert_uint_eq(ndr.exceeded, 0);
}
END_TEST

START_TEST(test_search_noisy)
{
	struct fws_search_goal ndr, pdr;
	unsigned int n = run(NOISY, &ndr, &pdr);

	ck_assert(ndr.found && pdr.found);
	ck_assert_msg(ndr.load >= 0.594 - 2 * cfg.width && ndr.load <= 0.606, "NDR %f", ndr.load);
	ck_assert_msg(pdr.load >= 0.594 - 2 * cfg.width && pdr.load <= 0.61, "PDR %f", pdr.load);
	ck_assert_uint_le(n, cfg.max_trials);
	ck_assert(pdr.conditional <= pdr.offered);
}
END_TEST

START_TEST(test_search_fixed_loss)
{
	struct fws_search_goal ndr, pdr;
	unsigned int n = run(FIXED_LOSS, &ndr, &pdr);

	/* 0.1 % at every load: no load is loss-free, but all meet the 0.5 % PDR goal. */
	ck_assert(!ndr.found);
	ck_assert_double_eq(ndr.load, 0);
	ck_assert(pdr.found);
	ck_assert_double_eq(pdr.load, 1.0);
	ck_assert_double_eq_tol(pdr.conditional, 0.999, 1e-6);
	ck_assert_uint_le(n, 40);
}
END_TEST

START_TEST(test_search_max_passes)
{
	struct fws_search_goal ndr, pdr;
	unsigned int n = run(FAST, &ndr, &pdr);

	ck_assert(ndr.found && pdr.found);
	ck_assert_double_eq(ndr.load, 1.0);
	ck_assert_double_eq(ndr.upper, 1.0);
	/* One short trial at max, one final trial at max. */
	ck_assert_uint_eq(n, 2);
}
END_TEST

START_TEST(test_search_long_trials_decide)
{
	struct fws_search_goal ndr, pdr;

	run(LONG_ONLY, &ndr, &pdr);
	/* Short trials say 0.8; the 60 s trials hold only up to 0.5. */
	ck_assert(ndr.found);
	ck_assert_msg(ndr.load <= 0.5 && ndr.load >= 0.5 - cfg.width, "NDR %f", ndr.load);
}
END_TEST

/* The receiver, not the DUT, loses above 0.6 (its capture's limit: every frame lost is one it
 * missed): the NDR found is a lower bound, tester-limited, with the misses named. When the
 * DUT loses more than the receiver misses, the failure is the DUT's. */
static void
run_missing(double dut_share, struct fws_search_goal *ndr)
{
	struct fws_search *s = fws_search_new(&cfg);
	double load, duration;

	ck_assert_ptr_nonnull(s);
	while (fws_search_next(s, &load, &duration)) {
		uint64_t tx = (uint64_t)(load * MAX_PPS * duration);
		uint64_t lost = (uint64_t)llround((double)tx * (load > 0.6 ? 1 - 0.6 / load : 0));

		fws_search_record(s, load, tx, lost);
		fws_search_missed(s, (uint64_t)((double)lost * (1 - dut_share)));
	}
	fws_search_goal(s, FWS_SEARCH_NDR, ndr);
	fws_search_free(s);
}

START_TEST(test_search_tester_limited)
{
	struct fws_search_goal ndr;

	run_missing(0, &ndr);
	ck_assert(ndr.found && ndr.tester_limited && !ndr.generator_limited);
	ck_assert_msg(ndr.load <= 0.6 && ndr.load >= 0.6 - cfg.width, "NDR %f", ndr.load);
	ck_assert_uint_gt(ndr.missed, 0);
	run_missing(0.5, &ndr); /* half the loss the DUT's: its failure */
	ck_assert(ndr.found && !ndr.tester_limited);
	ck_assert_uint_eq(ndr.missed, 0);
}
END_TEST

START_TEST(test_search_bad_settings)
{
	struct fws_search_cfg c = cfg;

	c.width = 0;
	ck_assert_ptr_null(fws_search_new(&c));
	c = cfg;
	c.final_s = 0.5; /* shorter than the short trials */
	ck_assert_ptr_null(fws_search_new(&c));
}
END_TEST

static Suite *
suite_search(void)
{
	Suite *s = suite_create("search");
	TCase *tc = tcase_create("models");

	tcase_add_test(tc, test_search_sharp);
	tcase_add_test(tc, test_search_noisy);
	tcase_add_test(tc, test_search_fixed_loss);
	tcase_add_test(tc, test_search_max_passes);
	tcase_add_test(tc, test_search_long_trials_decide);
	tcase_add_test(tc, test_search_bad_settings);
	tcase_add_test(tc, test_search_tester_limited);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_search)
