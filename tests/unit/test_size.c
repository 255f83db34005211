/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "fws_size.h"
#include "unit.h"

START_TEST(test_size_fixed)
{
	struct fws_size_mix m;
	uint16_t seq[FWS_SIZE_MAX_SEQ];
	char buf[64];

	fws_size_fixed(&m, 1518);
	ck_assert_int_eq(fws_size_sequence(&m, seq, FWS_SIZE_MAX_SEQ), 1);
	ck_assert_uint_eq(seq[0], 1518);
	ck_assert_double_eq(fws_size_avg(&m), 1518.0);
	fws_size_rfc6985(&m, buf, sizeof(buf));
	ck_assert_str_eq(buf, "g");
	fws_size_fixed(&m, 64);
	fws_size_rfc6985(&m, buf, sizeof(buf));
	ck_assert_str_eq(buf, "a");
	fws_size_fixed(&m, 100);
	fws_size_rfc6985(&m, buf, sizeof(buf));
	ck_assert_str_eq(buf, "j (j=100)");
}
END_TEST

START_TEST(test_size_imix_ratio)
{
	struct fws_size_mix m;
	uint16_t seq[FWS_SIZE_MAX_SEQ];
	unsigned int n64 = 0, n570 = 0, n1518 = 0, i, run = 0, maxrun = 0;
	int n;

	fws_size_imix(&m);
	n = fws_size_sequence(&m, seq, FWS_SIZE_MAX_SEQ);
	ck_assert_int_eq(n, 12);
	for (i = 0; i < 12; i++) {
		n64 += seq[i] == 64;
		n570 += seq[i] == 570;
		n1518 += seq[i] == 1518;
		run = seq[i] == 64 ? run + 1 : 0;
		if (run > maxrun)
			maxrun = run;
	}
	ck_assert_uint_eq(n64, 7);
	ck_assert_uint_eq(n570, 4);
	ck_assert_uint_eq(n1518, 1);
	/* Spread, not 7 small frames in a row. */
	ck_assert_uint_le(maxrun, 2);
	ck_assert_double_eq_tol(fws_size_avg(&m), (7 * 64 + 4 * 570 + 1518) / 12.0, 1e-9);
}
END_TEST

START_TEST(test_size_rfc6985)
{
	struct fws_size_mix m;
	char buf[128];

	fws_size_imix(&m);
	fws_size_rfc6985(&m, buf, sizeof(buf));
	/* 7 a, 4 j (570), 1 g, spread; legend names the custom size. */
	ck_assert_ptr_nonnull(strstr(buf, "(j=570)"));
	ck_assert_uint_eq(strspn(buf, "ajg"), 12);
	memset(&m, 0, sizeof(m));
	m.n = 2;
	m.size[0] = 64;
	m.weight[0] = 1;
	m.size[1] = 1518;
	m.weight[1] = 1;
	fws_size_rfc6985(&m, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ag");
}
END_TEST

START_TEST(test_size_limits)
{
	struct fws_size_mix m;
	uint16_t seq[4];

	memset(&m, 0, sizeof(m));
	ck_assert_int_lt(fws_size_sequence(&m, seq, 4), 0); /* empty */
	fws_size_imix(&m);
	ck_assert_int_lt(fws_size_sequence(&m, seq, 4), 0); /* 12 > 4 */
	ck_assert_uint_eq(fws_size_min(&m), 64);
	ck_assert_uint_eq(fws_size_max(&m), 1518);
}
END_TEST

static Suite *
suite_size(void)
{
	Suite *s = suite_create("size");
	TCase *tc = tcase_create("patterns");

	tcase_add_test(tc, test_size_fixed);
	tcase_add_test(tc, test_size_imix_ratio);
	tcase_add_test(tc, test_size_rfc6985);
	tcase_add_test(tc, test_size_limits);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_size)
