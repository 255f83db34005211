/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "fws_rxstat.h"
#include "unit.h"

/* Feed an arrival order of sequence numbers and compare every counter. */
static const struct {
	const char *name;
	uint64_t tx;
	uint32_t seq[16];
	unsigned int n;
	uint64_t rx, unique, lost, reordered, dup, late;
} cases[] = {
	{"in order", 5, {0, 1, 2, 3, 4}, 5, 5, 5, 0, 0, 0, 0},
	{"tail lost", 5, {0, 1, 2}, 3, 3, 3, 2, 0, 0, 0},
	{"head lost", 5, {2, 3, 4}, 3, 3, 3, 2, 0, 0, 0},
	{"gap", 6, {0, 1, 3, 5}, 4, 4, 4, 2, 0, 0, 0},
	{"swap", 4, {0, 2, 1, 3}, 4, 4, 4, 0, 1, 0, 0},
	{"late by 3", 5, {1, 2, 3, 0, 4}, 5, 5, 5, 0, 1, 0, 0},
	{"dup of last", 3, {0, 1, 1, 2}, 4, 4, 3, 0, 0, 1, 0},
	{"dup of older", 4, {0, 1, 2, 3, 1}, 5, 5, 4, 0, 0, 1, 0},
	{"dup of reordered", 3, {0, 2, 1, 1}, 4, 4, 3, 0, 1, 1, 0},
	{"first frame dup", 2, {0, 0, 1}, 3, 3, 2, 0, 0, 1, 0},
	{"swap and loss", 6, {0, 2, 1, 4, 5}, 5, 5, 5, 1, 1, 0, 0},
	{"nothing", 3, {0}, 0, 0, 0, 3, 0, 0, 0},
	{"late beyond window", 80, {0, 70, 1}, 3, 3, 3, 77, 1, 0, 1},
};

START_TEST(test_rxstat_cases)
{
	unsigned int c = (unsigned int)_i, k;
	struct fws_rxflow f;
	struct fws_rxstat_sum sum;

	memset(&f, 0, sizeof(f));
	memset(&sum, 0, sizeof(sum));
	for (k = 0; k < cases[c].n; k++)
		fws_rxstat_update(&f, cases[c].seq[k], 64, 1000 + k);
	fws_rxstat_add(&sum, &f, cases[c].tx);
	ck_assert_msg(sum.rx == cases[c].rx, "%s: rx %lu", cases[c].name, sum.rx);
	ck_assert_msg(sum.unique == cases[c].unique, "%s: unique %lu", cases[c].name, sum.unique);
	ck_assert_msg(sum.lost == cases[c].lost, "%s: lost %lu", cases[c].name, sum.lost);
	ck_assert_msg(sum.reordered == cases[c].reordered, "%s: reordered %lu", cases[c].name,
		      sum.reordered);
	ck_assert_msg(sum.dup == cases[c].dup, "%s: dup %lu", cases[c].name, sum.dup);
	ck_assert_msg(sum.late == cases[c].late, "%s: late %lu", cases[c].name, sum.late);
	ck_assert_uint_eq(sum.bytes, 64 * cases[c].n);
}
END_TEST

START_TEST(test_rxstat_wrap)
{
	struct fws_rxflow f;
	uint64_t i, base = 0xfffffff0ull;

	/* Sequence numbers past 2^32 extend to 64 bits; reordering across the wrap works. */
	memset(&f, 0, sizeof(f));
	for (i = 0; i < 32; i++)
		fws_rxstat_update(&f, (uint32_t)(base + i), 64, i);
	ck_assert_uint_eq(f.top, base + 31);
	fws_rxstat_update(&f, (uint32_t)(base + 33), 64, 40);
	fws_rxstat_update(&f, (uint32_t)(base + 32), 64, 41);
	ck_assert_uint_eq(f.top, base + 33);
	ck_assert_uint_eq(f.reordered, 1);
	ck_assert_uint_eq(f.dup, 0);
	ck_assert_uint_eq(fws_rxstat_unique(&f), 34);
}
END_TEST

START_TEST(test_rxstat_merge)
{
	struct fws_rxflow a, b;
	struct fws_rxstat_sum sum;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&sum, 0, sizeof(sum));
	fws_rxstat_update(&a, 0, 100, 10);
	fws_rxstat_update(&a, 1, 100, 20);
	fws_rxstat_update(&b, 2, 100, 5);
	fws_rxstat_merge(&a, &b);
	fws_rxstat_add(&sum, &a, 4);
	ck_assert_uint_eq(sum.unique, 3);
	ck_assert_uint_eq(sum.lost, 1);
	ck_assert_uint_eq(sum.first_tsc, 5);
	ck_assert_uint_eq(sum.last_tsc, 20);
	ck_assert_uint_eq(sum.flows_lossy, 1);
	ck_assert_uint_eq(sizeof(struct fws_rxflow), 64);
}
END_TEST

static Suite *
suite_rxstat(void)
{
	Suite *s = suite_create("rxstat");
	TCase *tc = tcase_create("accounting");

	tcase_add_loop_test(tc, test_rxstat_cases, 0, (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_test(tc, test_rxstat_wrap);
	tcase_add_test(tc, test_rxstat_merge);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_rxstat)
