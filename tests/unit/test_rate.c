/* SPDX-License-Identifier: BSD-3-Clause */
#include <math.h>

#include "fws_rate.h"
#include "unit.h"

/* Published maximum frame rates (RFC 2544 appendix, 10 Mbit/s x scale): fps at 10 Gbit/s. */
static const struct {
	double frame;
	uint64_t fps10g;
} table[] = {
	{64, 14880952},  {128, 8445945}, {256, 4528985}, {512, 2349624},
	{1024, 1197318}, {1280, 961538}, {1518, 812743},
};

/* Maximum frame rates for every RFC 2544 size at the common link speeds (frames/s,
 * rounded down as the published tables are). */
static const uint64_t speeds[] = {1000000000ull,  2500000000ull,  10000000000ull,
				  25000000000ull, 40000000000ull, 100000000000ull};
static const uint64_t sizes[] = {64, 128, 256, 512, 1024, 1280, 1518};
static const uint64_t fps[6][7] = {
	{1488095, 844594, 452898, 234962, 119731, 96153, 81274},
	{3720238, 2111486, 1132246, 587406, 299329, 240384, 203185},
	{14880952, 8445945, 4528985, 2349624, 1197318, 961538, 812743},
	{37202380, 21114864, 11322463, 5874060, 2993295, 2403846, 2031859},
	{59523809, 33783783, 18115942, 9398496, 4789272, 3846153, 3250975},
	{148809523, 84459459, 45289855, 23496240, 11973180, 9615384, 8127438},
};

START_TEST(test_rate_tables)
{
	unsigned int sp, z;

	for (sp = 0; sp < 6; sp++)
		for (z = 0; z < 7; z++)
			ck_assert_msg((uint64_t)floor(fws_rate_line_pps(
					      speeds[sp], (double)sizes[z])) == fps[sp][z],
				      "%lu bit/s, %lu bytes", (unsigned long)speeds[sp],
				      (unsigned long)sizes[z]);
}
END_TEST

START_TEST(test_rate_line)
{
	unsigned int i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		double pps = fws_rate_line_pps(10000000000ull, table[i].frame);

		ck_assert_uint_eq((uint64_t)floor(pps), table[i].fps10g);
		ck_assert_double_eq_tol(fws_rate_bps(pps, table[i].frame, FWS_RATE_L1), 1e10, 1);
	}
	/* 1 Gbit/s, 64 bytes: 1,488,095 fps. */
	ck_assert_uint_eq((uint64_t)fws_rate_line_pps(1000000000ull, 64), 1488095);
}
END_TEST

START_TEST(test_rate_parse)
{
	static const struct {
		const char *s;
		int rc;
		enum fws_rate_kind kind;
		double value;
	} cases[] = {
		{"line", 0, FWS_RATE_LINE, 100},
		{"max", 0, FWS_RATE_MAX, 100},
		{"MAX", 0, FWS_RATE_MAX, 100},
		{"50%", 0, FWS_RATE_PERCENT, 50},
		{"0.5%", 0, FWS_RATE_PERCENT, 0.5},
		{"100%", 0, FWS_RATE_PERCENT, 100},
		{"101%", -22, 0, 0},
		{"1.5Mpps", 0, FWS_RATE_PPS, 1.5e6},
		{"800kpps", 0, FWS_RATE_PPS, 8e5},
		{"1000pps", 0, FWS_RATE_PPS, 1000},
		{"9.5Gbit", 0, FWS_RATE_BPS, 9.5e9},
		{"100 Mbit/s", 0, FWS_RATE_BPS, 1e8},
		{"64kbps", 0, FWS_RATE_BPS, 64e3},
		{"0Mpps", -22, 0, 0},
		{"-5%", -22, 0, 0},
		{"fast", -22, 0, 0},
		{"10", -22, 0, 0},
		{"10 furlongs", -22, 0, 0},
		{"nan%", -22, 0, 0},
		{"", -22, 0, 0},
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fws_rate r = {0};
		int rc = fws_rate_parse(cases[i].s, &r);

		ck_assert_msg(rc == cases[i].rc, "\"%s\": rc %d", cases[i].s, rc);
		if (rc == 0) {
			ck_assert_int_eq(r.kind, cases[i].kind);
			ck_assert_double_eq_tol(r.value, cases[i].value, 1e-6);
		}
	}
}
END_TEST

START_TEST(test_rate_pps)
{
	struct fws_rate r = {.kind = FWS_RATE_PERCENT, .value = 50, .layer = FWS_RATE_L1};

	ck_assert_double_eq_tol(fws_rate_pps(&r, 10000000000ull, 64), 14880952.38 / 2, 0.01);
	ck_assert_double_lt(fws_rate_pps(&r, 0, 64), 0); /* needs a link speed */
	r.kind = FWS_RATE_BPS;
	r.value = 1e9;
	ck_assert_double_eq_tol(fws_rate_pps(&r, 0, 64), 1e9 / (84 * 8), 1e-6);
	r.layer = FWS_RATE_L2;
	ck_assert_double_eq_tol(fws_rate_pps(&r, 0, 64), 1e9 / (64 * 8), 1e-6);
	r.kind = FWS_RATE_LINE;
	ck_assert_double_eq(fws_rate_pps(&r, 0, 64), 0); /* unknown speed: unlimited */
}
END_TEST

START_TEST(test_rate_pacer)
{
	struct fws_pacer p;
	uint64_t hz = 2000000000ull, now, total = 0;

	/* 1 Mpps on a 2 GHz clock: 2000 cycles a frame. */
	fws_pacer_init(&p, 1e6, hz, 1000);
	ck_assert_uint_eq(fws_pacer_due(&p, 1000, 32), 0);
	ck_assert_uint_eq(fws_pacer_due(&p, 1000 + 2000 * 10, 32), 10);
	ck_assert_uint_eq(fws_pacer_due(&p, 1000 + 2000 * 100, 32), 32);
	ck_assert_uint_eq(p.behind, 100); /* 100 due at once: behind by 100 */
	fws_pacer_init(&p, 1e6, hz, 1000);
	ck_assert_uint_eq(p.behind, 0);
	for (now = 1000; now < 1000 + hz; now += 7919) { /* 4 due a call: never behind */
		uint32_t n = fws_pacer_due(&p, now, 32);

		fws_pacer_sent(&p, n);
		total += n;
	}
	/* One second: 1,000,000 frames, give or take the last step. */
	ck_assert_uint_le(total, 1000000);
	ck_assert_uint_ge(total, 999990);
	ck_assert_uint_eq(p.behind, 0);
	/* Descheduled for 5 ms: 5000 due at once, sent 32 at a time back to back. */
	now += 5 * 2000000;
	while ((total = fws_pacer_due(&p, now, 32)) > 0)
		fws_pacer_sent(&p, (uint32_t)total);
	ck_assert_uint_ge(p.behind, 5000);
	ck_assert_uint_le(p.behind, 5005);
	fws_pacer_init(&p, 0, hz, 0);
	ck_assert_uint_eq(fws_pacer_due(&p, 5, 32), 32);
}
END_TEST

static Suite *
suite_rate(void)
{
	Suite *s = suite_create("rate");
	TCase *tc = tcase_create("math");

	tcase_add_test(tc, test_rate_line);
	tcase_add_test(tc, test_rate_tables);
	tcase_add_test(tc, test_rate_parse);
	tcase_add_test(tc, test_rate_pps);
	tcase_add_test(tc, test_rate_pacer);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_rate)
