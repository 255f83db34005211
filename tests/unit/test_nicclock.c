/* SPDX-License-Identifier: BSD-3-Clause */
/* A NIC's clock on the TSC (fws_nicclock.c): a synthetic NIC clock in ns beside a 2.5 GHz TSC
 * whose true rate the setup's estimate misses by 200 ppm; anchors each second pull the rate
 * in, stamps before and after the newest anchor map within a tick, clocks that wrap. */
#include <math.h>

#include "fws_nicclock.h"
#include "unit.h"

#define HZ 2500000000ull

/* The TSC at NIC time ns, for a TSC that read tsc0 at ns0 and runs at rate ticks per ns. */
static uint64_t
tsc_at(uint64_t tsc0, uint64_t ns0, double rate, uint64_t ns)
{
	return tsc0 + (uint64_t)llround((double)(ns - ns0) * rate);
}

START_TEST(test_nicclock_rate_pulled_in)
{
	const double rate = 2.5 * (1 + 37e-6); /* the TSC's true ticks per NIC ns */
	const uint64_t ns0 = 1000000000000ull, tsc0 = 5000000000000ull;
	struct fws_nicclock c;
	unsigned int s;

	ck_assert(fws_nicclock_init(&c, ns0, tsc0, 2.5 * (1 + 237e-6)));
	/* Before any anchor the setup's rate: 200 ppm off, 200 us after a second. */
	ck_assert_int_gt(llabs((long long)(fws_nicclock_tsc(&c, ns0 + 1000000000) -
					   tsc_at(tsc0, ns0, rate, ns0 + 1000000000))),
			 400000);
	for (s = 1; s <= 10; s++) {
		uint64_t ns = ns0 + s * 1000000000ull;

		ck_assert(fws_nicclock_anchor(&c, ns, tsc_at(tsc0, ns0, rate, ns), HZ));
		/* Half a second after each anchor, within 2 TSC ticks of the truth. */
		ck_assert_int_le(llabs((long long)(fws_nicclock_tsc(&c, ns + 500000000) -
						   tsc_at(tsc0, ns0, rate, ns + 500000000))),
				 2);
		/* A frame stamped 3 ms before the newest anchor (received before it). */
		ck_assert_int_le(llabs((long long)(fws_nicclock_tsc(&c, ns - 3000000) -
						   tsc_at(tsc0, ns0, rate, ns - 3000000))),
				 2);
	}
}
END_TEST

/* A NIC clock near the end of its 64 bits and a TSC that wraps during the run. */
START_TEST(test_nicclock_wrap)
{
	const uint64_t ns0 = UINT64_MAX - 500000000ull, tsc0 = UINT64_MAX - 1000;
	struct fws_nicclock c;

	ck_assert(fws_nicclock_init(&c, ns0, tsc0, 2.5));
	ck_assert(fws_nicclock_anchor(&c, ns0 + 1000000000ull, tsc0 + 2500000000ull, HZ));
	ck_assert_uint_eq(fws_nicclock_tsc(&c, ns0 + 1000000100ull), tsc0 + 2500000250ull);
	ck_assert_uint_eq(fws_nicclock_tsc(&c, ns0 + 999999900ull), tsc0 + 2499999750ull);
}
END_TEST

/* What cannot be a map: no rate, a clock that goes back, a baseline too short for a rate. */
START_TEST(test_nicclock_refused)
{
	struct fws_nicclock c;

	ck_assert(!fws_nicclock_init(&c, 1, 1, 0));
	ck_assert(!fws_nicclock_init(&c, 1, 1, NAN));
	ck_assert(!fws_nicclock_init(&c, 1, 1, 3e9));
	ck_assert(fws_nicclock_init(&c, 1000, 5000, 2.5));
	ck_assert(!fws_nicclock_anchor(&c, 999, 6000, HZ));
	ck_assert(!fws_nicclock_anchor(&c, 2000, 4000, HZ));
	/* 0.1 s later, at another rate: the offset taken, the setup's rate kept. */
	ck_assert(fws_nicclock_anchor(&c, 1000 + 100000000ull, 5000 + 260000000ull, HZ));
	ck_assert_uint_eq(fws_nicclock_tsc(&c, 1000 + 100000000ull + 1000),
			  5000 + 260000000ull + 2500);
}
END_TEST

/* The double buffer: the reader sees the map last published, whole. */
START_TEST(test_nicclock_publish)
{
	static struct fws_nicclock_pub p;
	struct fws_nicclock a, b;

	ck_assert(fws_nicclock_init(&a, 10, 20, 1.0));
	ck_assert(fws_nicclock_init(&b, 30, 40, 2.0));
	fws_nicclock_publish(&p, &a);
	ck_assert_uint_eq(fws_nicclock_tsc(fws_nicclock_read(&p), 11), 21);
	fws_nicclock_publish(&p, &b);
	ck_assert_uint_eq(fws_nicclock_tsc(fws_nicclock_read(&p), 31), 42);
	fws_nicclock_publish(&p, &a);
	ck_assert_uint_eq(fws_nicclock_read(&p)->nic, 10);
}
END_TEST

static Suite *
suite_nicclock(void)
{
	Suite *s = suite_create("nicclock");
	TCase *tc = tcase_create("map");

	tcase_add_test(tc, test_nicclock_rate_pulled_in);
	tcase_add_test(tc, test_nicclock_wrap);
	tcase_add_test(tc, test_nicclock_refused);
	tcase_add_test(tc, test_nicclock_publish);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_nicclock)
