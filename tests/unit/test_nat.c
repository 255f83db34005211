/* SPDX-License-Identifier: BSD-3-Clause */
/* NAT observation: per-flow tuples as they arrived, merged over lcores, summarised. */
#include <string.h>

#include "fws_bytes.h"
#include "fws_nat.h"
#include "unit.h"

static struct fws_nat_tuple
tup(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport)
{
	return (struct fws_nat_tuple){fws_cpu_to_be32(src), fws_cpu_to_be32(dst),
				      fws_cpu_to_be16(sport), fws_cpu_to_be16(dport)};
}

START_TEST(test_see_counts_changes)
{
	struct fws_natobs o = {0};
	struct fws_nat_tuple a = tup(1, 2, 1024, 5001), b = tup(9, 2, 40000, 5001);

	fws_natobs_see(&o, &a);
	fws_natobs_see(&o, &a);
	ck_assert_int_eq(o.seen, 2);
	ck_assert_int_eq(o.changes, 0);
	fws_natobs_see(&o, &b);
	fws_natobs_see(&o, &b);
	fws_natobs_see(&o, &a);
	ck_assert_int_eq(o.seen, 5);
	ck_assert_int_eq(o.changes, 2);
	ck_assert(fws_nat_tuple_eq(&o.last, &a));
	o.seen = UINT16_MAX;
	o.changes = UINT16_MAX;
	fws_natobs_see(&o, &b);
	ck_assert_int_eq(o.seen, UINT16_MAX);
	ck_assert_int_eq(o.changes, UINT16_MAX);
}
END_TEST

START_TEST(test_merge)
{
	struct fws_natobs x = {0}, y = {0}, none = {0};
	struct fws_nat_tuple a = tup(1, 2, 3, 4), b = tup(1, 2, 3, 5);

	fws_natobs_see(&y, &a);
	fws_natobs_merge(&x, &none);
	ck_assert_int_eq(x.seen, 0);
	fws_natobs_merge(&x, &y); /* into an empty one: a copy */
	ck_assert_int_eq(x.seen, 1);
	ck_assert_int_eq(x.changes, 0);
	fws_natobs_merge(&x, &y); /* the same tuple on another lcore: no change */
	ck_assert_int_eq(x.seen, 2);
	ck_assert_int_eq(x.changes, 0);
	memset(&y, 0, sizeof(y));
	fws_natobs_see(&y, &b);
	fws_natobs_merge(&x, &y); /* another tuple on another lcore: a change */
	ck_assert_int_eq(x.seen, 3);
	ck_assert_int_eq(x.changes, 1);
}
END_TEST

/* Four flows: one untranslated, two masqueraded to one address (ports kept and moved),
 * one never seen; one translation changed during the trial. */
START_TEST(test_summarize)
{
	struct fws_nat_tuple sent[4] = {tup(10, 20, 1024, 5001), tup(11, 20, 1024, 5001),
					tup(12, 20, 1025, 5001), tup(13, 20, 1026, 5001)};
	struct fws_natobs obs[4] = {0};
	struct fws_nat_tuple m1 = tup(99, 20, 1024, 5001), m2 = tup(99, 20, 61000, 5001);
	struct fws_nat_sum sum;
	uint32_t scratch[4];

	fws_natobs_see(&obs[0], &sent[0]);
	fws_natobs_see(&obs[1], &m1);
	fws_natobs_see(&obs[2], &sent[2]);
	fws_natobs_see(&obs[2], &m2); /* untranslated first, then translated: state changed */
	fws_nat_summarize(obs, sent, NULL, 4, scratch, &sum);
	ck_assert_int_eq(sum.flows, 4);
	ck_assert_int_eq(sum.seen, 3);
	ck_assert_int_eq(sum.src_translated, 2);
	ck_assert_int_eq(sum.dst_translated, 0);
	ck_assert_int_eq(sum.changed, 1);
	ck_assert_int_eq(sum.distinct_src, 1);
	ck_assert_int_eq(sum.distinct_sport, 2);
	ck_assert_int_eq(sum.sport_min, 1024);
	ck_assert_int_eq(sum.sport_max, 61000);
	ck_assert_int_eq(sum.mismatched, 0);
	/* Wanted untranslated (no NAT expected): the two translated flows mismatch. */
	fws_nat_summarize(obs, sent, sent, 4, scratch, &sum);
	ck_assert_int_eq(sum.mismatched, 2);
}
END_TEST

START_TEST(test_summarize_empty)
{
	struct fws_natobs obs[2] = {0};
	struct fws_nat_tuple sent[2] = {tup(1, 2, 3, 4), tup(1, 2, 3, 5)};
	struct fws_nat_sum sum;
	uint32_t scratch[2];

	fws_nat_summarize(obs, sent, sent, 2, scratch, &sum);
	ck_assert_int_eq(sum.seen, 0);
	ck_assert_int_eq(sum.distinct_src, 0);
	ck_assert_int_eq(sum.distinct_sport, 0);
	ck_assert_int_eq(sum.sport_min, 0);
	ck_assert_int_eq(sum.mismatched, 0);
}
END_TEST

static Suite *
suite_nat(void)
{
	Suite *s = suite_create("nat");
	TCase *tc = tcase_create("nat");

	tcase_add_test(tc, test_see_counts_changes);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_summarize);
	tcase_add_test(tc, test_summarize_empty);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_nat)
