/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fws_hdr.h"
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
	for (v = 0; v < (1ull << FWS_HIST_MAX_BITS); v = v < 100000 ? v + 7 : v * 1.0009 + 1) {
		i = fws_hist_index(v);
		ck_assert_uint_le(fws_hist_bucket_lo(i), v);
		ck_assert_uint_gt(fws_hist_bucket_lo(i) + fws_hist_bucket_width(i), v);
		/* Exact below 2048, then at most 1/1024 (0.098 %) of the value wide. */
		ck_assert(v < 2048 ? fws_hist_bucket_width(i) == 1
				   : fws_hist_bucket_width(i) * 1024 <= v);
	}
	ck_assert_uint_eq(fws_hist_index(UINT64_MAX), FWS_HIST_NB - 1);
	ck_assert_uint_eq(fws_hist_index((1ull << FWS_HIST_MAX_BITS) - 1), FWS_HIST_NB - 1);
	ck_assert_uint_eq(FWS_HIST_NB * sizeof(uint64_t), 200 * 1024);
}
END_TEST

/* HdrHistogram's countsArrayIndex for a histogram of 3 significant digits (sub-bucket count
 * 2048, half 1024), lowest discernible value 1 (unit magnitude 0), as its AbstractHistogram
 * computes it: the export copies our buckets as its counts, so they must be its indices. */
static unsigned int
hdr_index(uint64_t v)
{
	const unsigned int half_mag = 10, lz_base = 64 - 0 - half_mag - 1;
	unsigned int bucket = lz_base - (unsigned int)__builtin_clzll(v | 2047);
	uint64_t sub = v >> bucket;

	return ((bucket + 1) << half_mag) + (unsigned int)(sub - 1024);
}

START_TEST(test_hist_hdr_layout)
{
	uint64_t v, st = 7;
	unsigned int k;

	for (v = 0; v < 70000; v++)
		ck_assert_uint_eq(fws_hist_index(v), hdr_index(v));
	for (k = 0; k < 1000000; k++) {
		v = rnd(&st) >> (64 - FWS_HIST_MAX_BITS + (k % 30));
		ck_assert_msg(fws_hist_index(v) == hdr_index(v), "%lu: %u, HdrHistogram %u", v,
			      fws_hist_index(v), hdr_index(v));
	}
	/* Its highest trackable value, 2^34 - 1, is its last index (countsArrayLength 25600). */
	ck_assert_uint_eq(hdr_index((1ull << FWS_HIST_MAX_BITS) - 1), FWS_HIST_NB - 1);
}
END_TEST

/* Inside a bucket the rank's place: values spread over wide buckets (2^20 to 2^21 ns: 1024 ns each) give
 * percentiles within a bucket, and on average far closer than a bucket's middle would. */
START_TEST(test_hist_interpolated)
{
	enum { N = 200000 };
	uint64_t *ref = malloc(N * sizeof(*ref)), st = 99;
	struct fws_hist *h = malloc(sizeof(*h));
	double err = 0, mid_err = 0;
	unsigned int i, q;

	fws_hist_reset(h);
	for (i = 0; i < N; i++) {
		ref[i] = (1u << 20) + rnd(&st) % (1u << 20);
		fws_hist_add(h, ref[i]);
	}
	qsort(ref, N, sizeof(*ref), cmp_u64);
	for (q = 1; q < 100; q++) {
		uint64_t want = ref[(size_t)ceil(q / 100.0 * N) - 1],
			 got = fws_hist_quantile(h, q / 100.0);
		unsigned int b = fws_hist_index(want);
		double mid = (double)fws_hist_bucket_lo(b) + (fws_hist_bucket_width(b) - 1) / 2.0;

		ck_assert_uint_eq(fws_hist_bucket_width(b), 1024);
		ck_assert_uint_eq(fws_hist_index(got), b);
		err += fabs((double)got - (double)want);
		mid_err += fabs(mid - (double)want);
	}
	ck_assert_msg(err / 99 < 64 && err < mid_err / 4, "mean error %.1f ns, middle's %.1f",
		      err / 99, mid_err / 99);
	/* One value in a wide bucket: its middle; a constant: itself (min = max). */
	ck_assert_double_eq(fws_hist_in_bucket(4096, 4, 1, 0, 1), 4098);
	fws_hist_reset(h);
	fws_hist_add_n(h, 1500007, 1000);
	ck_assert_uint_eq(fws_hist_quantile(h, 0.99), 1500007);
	free(ref);
	free(h);
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
	/* Below 2048 every value has its own bucket: quantiles are exact. */
	ck_assert_uint_eq(fws_hist_quantile(a, 0.5), 9);
	ck_assert_uint_eq(fws_hist_quantile(a, 0.95), 18);
	ck_assert_uint_eq(fws_hist_quantile(a, 1.0), 19);
	ck_assert_uint_eq(a->min, 0);
	free(a);
	free(b);
}
END_TEST

/* The V2 encoding byte for byte (computed by hand from HdrHistogram's format: a big-endian
 * header; counts as ZigZag LEB128, a run of zeros as its negative length, a single zero as
 * 0, nothing after the last count), and its compressed form's framing. */
START_TEST(test_hdr_encoding)
{
	static const uint8_t want[] = {
		0x1c, 0x84, 0x93, 0x13, 0x00, 0x00, 0x00, 0x0a, /* cookie, payload 10 bytes */
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, /* index offset 0, 3 digits */
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, /* lowest 1 ns */
		0x00, 0x00, 0x00, 0x03, 0xff, 0xff, 0xff, 0xff, /* highest 2^34 - 1 ns */
		0x3f, 0xf0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* ratio 1.0 */
		0x05,                                           /* 3 zeros */
		0x02,                                           /* 1 */
		0x97, 0x1f,                                     /* 1996 zeros */
		0xd8, 0x04,                                     /* 300 */
		0xdb, 0xf0, 0x02,                               /* 23598 zeros */
		0x02,                                           /* 1 (the last bucket) */
	};
	uint64_t *counts = calloc(FWS_HIST_NB, sizeof(*counts));
	struct fws_cell_bucket b[3] = {{3, 1, 1}, {2000, 1, 300}, {0, 0, 1}};
	uint8_t *enc = NULL;
	size_t n;
	char *s;

	b[2].lo = fws_hist_bucket_lo(FWS_HIST_NB - 1);
	b[2].width = fws_hist_bucket_width(FWS_HIST_NB - 1);
	ck_assert_int_eq(fws_hdr_counts(b, 3, counts), 0);
	n = fws_hdr_encode(counts, &enc);
	ck_assert_uint_eq(n, sizeof(want));
	ck_assert_mem_eq(enc, want, sizeof(want));
	free(enc);
	/* Compressed: its cookie, then a zlib stream ("HISTF" is how every such line begins). */
	s = fws_hdr_base64(counts);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(strncmp(s, "HISTFAAAA", 9), 0);
	ck_assert_uint_eq(strlen(s) % 4, 0);
	free(s);
	/* An empty histogram: the header alone. */
	memset(counts, 0, FWS_HIST_NB * sizeof(*counts));
	ck_assert_uint_eq(fws_hdr_encode(counts, &enc), 40);
	free(enc);
	/* Buckets of an older report (3.1 %: 32 per power of two) are not HdrHistogram's. */
	b[0] = (struct fws_cell_bucket){4096, 128, 5};
	ck_assert_int_eq(fws_hdr_counts(b, 1, counts), -EINVAL);
	free(counts);
}
END_TEST

static Suite *
suite_hist(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("histogram");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_hist_buckets);
	tcase_add_test(tc, test_hist_hdr_layout);
	tcase_add_loop_test(tc, test_hist_quantiles, 0, 4);
	tcase_add_test(tc, test_hist_interpolated);
	tcase_add_test(tc, test_hdr_encoding);
	tcase_add_test(tc, test_hist_merge_exact_small);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_hist)
