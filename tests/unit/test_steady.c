/* SPDX-License-Identifier: BSD-3-Clause */
/* Steadiness within a trial (fws_steady.c): a band around the seconds' mean receive rate,
 * the worst second named, generator-limited seconds told apart. */
#include "fws_steady.h"
#include "unit.h"

/* Ten steady seconds at 100 kpps within +/-1 %: steady, the worst the furthest. */
START_TEST(test_steady_within_band)
{
	struct fws_second s[10];
	struct fws_steady st;
	unsigned int i;

	for (i = 0; i < 10; i++)
		s[i] = (struct fws_second){100000,
					   100000 + (i == 6 ? -900 : (double)(i % 3) * 100)};
	fws_steady_of(s, 10, 100000, FWS_STEADY_BAND, &st);
	ck_assert_uint_eq(st.n, 10);
	ck_assert(!st.unsteady);
	ck_assert_uint_eq(st.outside, 0);
	ck_assert_uint_eq(st.limited, 0);
	ck_assert_uint_eq(st.worst, 7);
	ck_assert_double_eq(st.worst_rx_pps, 99100);
	ck_assert_double_eq_tol(st.mean_rx_pps, 100000, 1e-9); /* +900 in 9 seconds, -900 in one */
	ck_assert_double_eq_tol(st.worst_dev, 99100 / st.mean_rx_pps - 1, 1e-12);
}
END_TEST

/* The DUT halves its forwarding for three seconds: unsteady, the worst among them. */
START_TEST(test_steady_dut_dip)
{
	struct fws_second s[8];
	struct fws_steady st;
	unsigned int i;

	for (i = 0; i < 8; i++)
		s[i] = (struct fws_second){50000, i >= 4 && i < 7 ? 25000 - i : 50000};
	fws_steady_of(s, 8, 50000, FWS_STEADY_BAND, &st);
	ck_assert(st.unsteady);
	ck_assert_uint_eq(st.outside, 8); /* the mean (40,6xx) is in no second's band */
	ck_assert_uint_eq(st.worst, 7);
	ck_assert(!st.worst_limited);
	ck_assert_double_lt(st.worst_dev, -0.35);
	/* A wider band takes the full seconds in, not the halved ones. */
	fws_steady_of(s, 8, 50000, 0.3, &st);
	ck_assert_uint_eq(st.outside, 3);
}
END_TEST

/* The generator dips: those seconds are generator-limited, not the DUT's unsteadiness. */
START_TEST(test_steady_generator_dip)
{
	struct fws_second s[6] = {{1e6, 1e6}, {1e6, 1e6}, {8e5, 8e5},
				  {1e6, 1e6}, {1e6, 1e6}, {1e6, 1e6}};
	struct fws_steady st;

	fws_steady_of(s, 6, 1e6, FWS_STEADY_BAND, &st);
	ck_assert(!st.unsteady);
	ck_assert_uint_eq(st.limited, 1);
	ck_assert_uint_eq(st.worst, 3);
	ck_assert(st.worst_limited);
	/* Unpaced (nothing asked): no second is the generator's, the dip is unsteady. */
	fws_steady_of(s, 6, 0, FWS_STEADY_BAND, &st);
	ck_assert(st.unsteady);
	ck_assert_uint_eq(st.limited, 0);
	/* No second measured: nothing said. */
	fws_steady_of(s, 0, 1e6, FWS_STEADY_BAND, &st);
	ck_assert_uint_eq(st.n, 0);
	ck_assert(!st.unsteady);
	ck_assert_uint_eq(st.worst, 0);
}
END_TEST

static Suite *
suite_steady(void)
{
	Suite *s = suite_create("steady");
	TCase *tc = tcase_create("band");

	tcase_add_test(tc, test_steady_within_band);
	tcase_add_test(tc, test_steady_dut_dip);
	tcase_add_test(tc, test_steady_generator_dip);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_steady)
