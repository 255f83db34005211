/* SPDX-License-Identifier: BSD-3-Clause */
/* The TSC against CLOCK_MONOTONIC_RAW: the arithmetic, and two calibrations agreeing. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "fws_hostclock.h"
#include "unit.h"

START_TEST(test_clock_hz)
{
	struct fws_clock_pair a = {.tsc = 1000, .ns = 5000000000ull};
	struct fws_clock_pair b = {.tsc = 1000 + 2095990000ull, .ns = 6000000000ull};

	/* The machine: DPDK said 2.100 GHz, the TSC ran at 2.09599 GHz. */
	ck_assert_double_eq_tol(fws_clock_hz(&a, &b), 2095990000.0, 1e-3);
	ck_assert_double_eq(fws_clock_hz(&b, &a), 0);
	ck_assert_double_eq(fws_clock_hz(&a, &a), 0);
	ck_assert_double_eq_tol(fws_clock_ppm(2100000000.0, 2095990000.0), 1913.2, 0.1);
	ck_assert_double_eq(fws_clock_ppm(1, 0), 0);
}
END_TEST

/* Two calibrations of 50 ms agree to 0.1 % (the DPDK estimate's error was 0.19 %). */
START_TEST(test_clock_calibrate)
{
	uint64_t a = fws_clock_calibrate(50), b = fws_clock_calibrate(50);
	struct fws_clock_pair p, q;

	ck_assert_uint_gt(a, 100000000);
	ck_assert_double_lt(fabs(fws_clock_ppm((double)a, (double)b)), 1000);
	ck_assert_int_eq(fws_clock_read(&p), 0);
	ck_assert_int_eq(fws_clock_read(&q), 0);
	ck_assert_uint_ge(q.ns, p.ns);
	ck_assert_uint_ge(q.tsc, p.tsc);
}
END_TEST

/* The affine map of stamps between hosts: offset and rate, composed with a test clock. */
START_TEST(test_clock_affine)
{
	const uint64_t hz = 2000000000ull, base = 1ull << 40;
	struct fws_affine skew, align = {.on = true, .base = base, .off = -6000000, .q = 0}, both;

	/* 3 ms ahead, 50 ppm fast: a second after base it reads 3 ms + 50 us ahead. */
	ck_assert_int_eq(fws_affine_test_clock("3000000,50", hz, base, &skew), 0);
	ck_assert(skew.on);
	ck_assert_int_eq((int64_t)(fws_affine_apply(&skew, base) - base), 6000000);
	ck_assert_int_le(llabs((int64_t)(fws_affine_apply(&skew, base + hz) - base - hz) -
			       (6000000 + 100000)),
			 1);
	/* Backwards across zero: the map is signed. */
	ck_assert_int_eq((int64_t)(fws_affine_apply(&skew, base - hz) - (base - hz)),
			 6000000 - 100000);
	/* The alignment undoes the offset; composed, only the rate is left. */
	both = fws_affine_then(&skew, &align);
	ck_assert_int_le(llabs((int64_t)(fws_affine_apply(&both, base + hz) - base - hz) - 100000),
			 1);
	ck_assert_int_eq(fws_affine_test_clock(NULL, hz, base, &skew), 0);
	ck_assert(!skew.on);
	ck_assert_int_eq(fws_affine_test_clock("3ms", hz, base, &skew), -EINVAL);
	ck_assert_int_eq(fws_affine_test_clock("1,2,3", hz, base, &skew), -EINVAL);
	ck_assert_int_eq(fws_affine_test_clock("0,5000", hz, base, &skew), -EINVAL);
	/* Numbers that are not numbers: refused, never cast to an integer. */
	ck_assert_int_eq(fws_affine_test_clock("nan,0", hz, base, &skew), -EINVAL);
	ck_assert_int_eq(fws_affine_test_clock("0,nan", hz, base, &skew), -EINVAL);
	ck_assert_int_eq(fws_affine_test_clock("inf,0", hz, base, &skew), -EINVAL);
}
END_TEST

/* A phase armed for an instant of a skewed clock is armed at the raw TSC that reads it. */
START_TEST(test_clock_affine_unapply)
{
	const uint64_t hz = 3000000000ull, base = 1ull << 41;
	static const char *const clocks[] = {"3000000,50", "-3000000,-50", "0,0", "1,999"};
	struct fws_affine a;
	unsigned int i;
	int64_t dt;

	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		ck_assert_int_eq(fws_affine_test_clock(clocks[i], hz, base, &a), 0);
		for (dt = -3 * (int64_t)hz; dt <= 600 * (int64_t)hz; dt += 61 * (int64_t)hz) {
			uint64_t x = base + (uint64_t)dt;

			ck_assert_int_le(
				llabs((int64_t)(fws_affine_unapply(&a, fws_affine_apply(&a, x)) -
						x)),
				2);
		}
	}
}
END_TEST

static Suite *
suite_clock(void)
{
	Suite *s = suite_create("clock");
	TCase *tc = tcase_create("clock");

	tcase_add_test(tc, test_clock_hz);
	tcase_add_test(tc, test_clock_calibrate);
	tcase_add_test(tc, test_clock_affine);
	tcase_add_test(tc, test_clock_affine_unapply);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_clock)
