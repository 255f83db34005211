/* SPDX-License-Identifier: BSD-3-Clause */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fws_hist.h"
#include "unit.h"

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

START_TEST(test_hist_buckets)
{
	unsigned int i;
	uint64_t v;

	/* Buckets tile the range: each starts where the previous ends. */
	for (i = 1; i < FWS_HIST_NB; i++)
		ck_assert_uint_eq(fws_hist_bucket_lo(i),
				  fws_hist_bucket_lo(i - 1) + fws_hist_bucket_width(i - 1));
	for (v = 0; v < 100000; v += 7) {
		i = fws_hist_index(v);
		ck_assert_uint_le(fws_hist_bucket_lo(i), v);
		ck_assert_uint_gt(fws_hist_bucket_lo(i) + fws_hist_bucket_width(i), v);
		/* Relative width at most 1/32. */
		ck_assert(v < 32 || fws_hist_bucket_width(i) * 32 <= v);
	}
	ck_assert_uint_eq(fws_hist_index(UINT64_MAX), FWS_HIST_NB - 1);
}
END_TEST

/* Distributions: uniform, exponential-ish, bimodal, constant. */
static uint64_t
sample(int kind, uint64_t *st)
{
	uint64_t r = rnd(st);

	switch (kind) {
	case 0:
		return r % 100000;
	case 1:
		return (uint64_t)(-log((double)((r >> 11) + 1) / 9007199254740993.0) * 5000.0);
	case 2:
		return (r & 1) ? 800 + r % 50 : 2000000 + r % 100000;
	default:
		return 12345;
	}
}

START_TEST(test_hist_quantiles)
{
	static const double qs[] = {0.5, 0.9, 0.99, 0.999, 1.0};
	enum { N = 200000 };
	uint64_t *ref = malloc(N * sizeof(*ref)), st = 42 + (uint64_t)_i, sum = 0;
	struct fws_hist *h = malloc(sizeof(*h));
	unsigned int i, q;

	ck_assert_ptr_nonnull(ref);
	ck_assert_ptr_nonnull(h);
	fws_hist_reset(h);
	for (i = 0; i < N; i++) {
		ref[i] = sample(_i, &st);
		sum += ref[i];
		fws_hist_add(h, ref[i]);
	}
	qsort(ref, N, sizeof(*ref), cmp_u64);
	ck_assert_uint_eq(h->count, N);
	ck_assert_uint_eq(h->min, ref[0]);
	ck_assert_uint_eq(h->max, ref[N - 1]);
	ck_assert_double_eq_tol(fws_hist_mean(h), (double)sum / N, 1e-6);
	for (q = 0; q < sizeof(qs) / sizeof(qs[0]); q++) {
		uint64_t rank = (uint64_t)ceil(qs[q] * N), want = ref[rank - 1];
		uint64_t got = fws_hist_quantile(h, qs[q]);
		uint64_t w = fws_hist_bucket_width(fws_hist_index(want));
		uint64_t diff = got > want ? got - want : want - got;

		ck_assert_msg(diff <= w / 2, "dist %d q %g: got %lu want %lu (bucket %lu)", _i,
			      qs[q], got, want, w);
	}
	free(ref);
	free(h);
}
END_TEST

START_TEST(test_hist_merge_exact_small)
{
	struct fws_hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	uint64_t v;

	fws_hist_reset(a);
	fws_hist_reset(b);
	ck_assert_uint_eq(fws_hist_quantile(a, 0.5), 0);
	for (v = 0; v < 10; v++)
		fws_hist_add(a, v);
	for (v = 10; v < 20; v++)
		fws_hist_add(b, v);
	fws_hist_merge(a, b);
	ck_assert_uint_eq(a->count, 20);
	/* Below 32 every value has its own bucket: quantiles are exact. */
	ck_assert_uint_eq(fws_hist_quantile(a, 0.5), 9);
	ck_assert_uint_eq(fws_hist_quantile(a, 0.95), 18);
	ck_assert_uint_eq(fws_hist_quantile(a, 1.0), 19);
	ck_assert_uint_eq(a->min, 0);
	free(a);
	free(b);
}
END_TEST

static Suite *
suite_hist(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("histogram");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_hist_buckets);
	tcase_add_loop_test(tc, test_hist_quantiles, 0, 4);
	tcase_add_test(tc, test_hist_merge_exact_small);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_hist)
