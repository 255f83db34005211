/* SPDX-License-Identifier: BSD-3-Clause */
/* The spread of repetitions (fws_stats.c), against Python's statistics module on the same
 * values (the expected figures below are what python3 -c 'import statistics as s; ...'
 * printed: s.median, s.mean, s.stdev, s.quantiles(v, n=100, method="inclusive")). */
#include <math.h>

#include "fws_stats.h"
#include "unit.h"

START_TEST(test_stats_five)
{
	double v[] = {2351.2, 2340.9, 2360.4, 2349.0, 2355.7};
	struct fws_stats s;

	fws_stats_of(v, 5, &s);
	ck_assert_uint_eq(s.n, 5);
	ck_assert_double_eq_tol(s.median, 2351.2, 1e-9);
	ck_assert_double_eq_tol(s.mean, 2351.44, 1e-9);
	ck_assert_double_eq_tol(s.stdev, 7.34050406988509, 1e-9);
	ck_assert_double_eq_tol(s.cov, 0.0031217058780513597, 1e-12);
	ck_assert_double_eq_tol(s.ci95, 2.7764 * 7.34050406988509 / sqrt(5), 1e-9);
	ck_assert_double_eq_tol(s.min, 2340.9, 1e-9);
	ck_assert_double_eq_tol(s.max, 2360.4, 1e-9);
	ck_assert(!s.has_pct);
}
END_TEST

START_TEST(test_stats_percentiles_from_twenty)
{
	double v[23];
	struct fws_stats s;
	int i;

	for (i = 1; i <= 23; i++)
		v[i - 1] = (double)(i * i % 37) + 0.5 * i;
	fws_stats_of(v, 23, &s);
	ck_assert_double_eq_tol(s.median, 27.5, 1e-9);
	ck_assert_double_eq_tol(s.mean, 25.08695652173913, 1e-9);
	ck_assert_double_eq_tol(s.stdev, 13.166462365620328, 1e-9);
	ck_assert(s.has_pct);
	ck_assert_double_eq_tol(s.p1, 2.27, 1e-9);
	ck_assert_double_eq_tol(s.p99, 43.95, 1e-9);
}
END_TEST

START_TEST(test_stats_small)
{
	double one[] = {7}, two[] = {4, 2};
	struct fws_stats s;

	fws_stats_of(one, 1, &s);
	ck_assert_double_eq(s.median, 7);
	ck_assert_double_eq(s.stdev, 0);
	ck_assert_double_eq(s.ci95, 0);
	fws_stats_of(two, 2, &s);
	ck_assert_double_eq(s.median, 3);
	ck_assert_double_eq_tol(s.ci95, 12.7062 * sqrt(2) / sqrt(2), 1e-9);
	/* t beyond the table: near the normal's, decreasing. */
	ck_assert_double_eq_tol(fws_stats_t975(31), 2.0395, 1e-3);
	ck_assert_double_eq_tol(fws_stats_t975(120), 1.9799, 1e-3);
	ck_assert(fws_stats_t975(1000) < fws_stats_t975(100));
	/* The one-sided 95 % quantile compare's verdict uses (scipy.stats.t.ppf(0.95, df)). */
	ck_assert(isinf(fws_stats_t95(0)));
	ck_assert_double_eq_tol(fws_stats_t95(4), 2.1318, 1e-4);
	ck_assert_double_eq_tol(fws_stats_t95(30), 1.6973, 1e-4);
	ck_assert_double_eq_tol(fws_stats_t95(40), 1.6839, 1e-3);
	ck_assert_double_eq_tol(fws_stats_t95(120), 1.6577, 1e-3);
	ck_assert(fws_stats_t95(1000) < fws_stats_t95(100) && fws_stats_t95(1000) > 1.6448);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("stats");

	tcase_add_test(tc, test_stats_five);
	tcase_add_test(tc, test_stats_percentiles_from_twenty);
	tcase_add_test(tc, test_stats_small);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite)
