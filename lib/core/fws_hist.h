/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Log-linear latency histogram in nanoseconds, HdrHistogram's layout at 3 significant digits
 * (lowest discernible value 1 ns): values below 2^(FWS_HIST_SUB_BITS + 1) are counted exactly;
 * above, every power of two is split into 2^FWS_HIST_SUB_BITS equal buckets, so a bucket is at
 * most 1/1024 (0.098 %) of its value wide. Bucket i is HdrHistogram's counts index i, so the
 * export (fws_hdr.h) copies the counts as they are. Values from 2^FWS_HIST_MAX_BITS ns (17.2 s)
 * up are counted in the last bucket. 200 KiB; one writer; merge to combine lcores.
 */
#ifndef FWS_HIST_H
#define FWS_HIST_H

#include <stdint.h>

#define FWS_HIST_SUB_BITS 10
#define FWS_HIST_SUB (1u << FWS_HIST_SUB_BITS)
#define FWS_HIST_MAX_BITS 34
#define FWS_HIST_NB ((FWS_HIST_MAX_BITS - FWS_HIST_SUB_BITS + 1) * FWS_HIST_SUB)

/** Histogram with exact count, sum, min and max beside the buckets. */
struct fws_hist {
	uint64_t count;
	uint64_t sum;
	uint64_t min;
	uint64_t max;
	uint64_t b[FWS_HIST_NB];
};

/** Bucket index of a value (ns). */
static inline unsigned int
fws_hist_index(uint64_t v)
{
	unsigned int msb, shift;

	if (v < FWS_HIST_SUB)
		return (unsigned int)v;
	if (v >= (1ull << FWS_HIST_MAX_BITS))
		return FWS_HIST_NB - 1;
	msb = 63u - (unsigned int)__builtin_clzll(v);
	shift = msb - FWS_HIST_SUB_BITS;
	return (shift + 1) * FWS_HIST_SUB + (unsigned int)((v >> shift) & (FWS_HIST_SUB - 1));
}

static inline void
fws_hist_add(struct fws_hist *h, uint64_t v)
{
	h->b[fws_hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/** Add n samples of value v. */
static inline void
fws_hist_add_n(struct fws_hist *h, uint64_t v, uint64_t n)
{
	h->b[fws_hist_index(v)] += n;
	h->count += n;
	h->sum += v * n;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/** A non-empty bucket as results and reports keep a histogram: [lo, lo + width), count. */
struct fws_cell_bucket {
	uint64_t lo, width, count;
};

/** Empty histogram (min starts at UINT64_MAX). */
void fws_hist_reset(struct fws_hist *h);

/** Add src into dst. */
void fws_hist_merge(struct fws_hist *dst, const struct fws_hist *src);

/** Lowest value of bucket i and its width. */
uint64_t fws_hist_bucket_lo(unsigned int i);
uint64_t fws_hist_bucket_width(unsigned int i);

/** The value at rank (1-based) of a bucket [lo, lo + width) that holds count values of
 * which before came before it: lo when 1 wide, else linear in the rank's place. */
double fws_hist_in_bucket(uint64_t lo, uint64_t width, uint64_t count, uint64_t before,
			  uint64_t rank);

/**
 * Value at quantile q (0 < q <= 1), nearest-rank: in the bucket that holds the
 * ceil(q * count)-th smallest value, at that rank's place among the bucket's count (linear
 * inside a bucket wider than 1 ns: a bucket of one value gives its middle), clamped to
 * [min, max]. 0 when empty.
 */
uint64_t fws_hist_quantile(const struct fws_hist *h, double q);

/** Mean, 0 when empty. */
double fws_hist_mean(const struct fws_hist *h);

#endif /* FWS_HIST_H */
