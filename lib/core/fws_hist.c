/* SPDX-License-Identifier: BSD-3-Clause */
#include <math.h>
#include <string.h>

#include "fws_hist.h"

void
fws_hist_reset(struct fws_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void
fws_hist_merge(struct fws_hist *dst, const struct fws_hist *src)
{
	unsigned int i;

	if (src->count == 0)
		return;
	for (i = 0; i < FWS_HIST_NB; i++)
		dst->b[i] += src->b[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t
fws_hist_bucket_lo(unsigned int i)
{
	unsigned int shift;

	if (i < FWS_HIST_SUB)
		return i;
	shift = i / FWS_HIST_SUB - 1;
	return (uint64_t)(FWS_HIST_SUB + i % FWS_HIST_SUB) << shift;
}

uint64_t
fws_hist_bucket_width(unsigned int i)
{
	if (i < FWS_HIST_SUB)
		return 1;
	return 1ull << (i / FWS_HIST_SUB - 1);
}

double
fws_hist_in_bucket(uint64_t lo, uint64_t width, uint64_t count, uint64_t before, uint64_t rank)
{
	if (width <= 1 || count == 0)
		return (double)lo;
	/* The rank-th value sits in the middle of its 1/count share of the bucket. */
	return (double)lo + (double)width * ((double)(rank - before) - 0.5) / (double)count;
}

uint64_t
fws_hist_quantile(const struct fws_hist *h, double q)
{
	uint64_t rank, seen = 0, v;
	unsigned int i;

	if (h->count == 0)
		return 0;
	if (q <= 0)
		return h->min;
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (i = 0; i < FWS_HIST_NB; i++) {
		seen += h->b[i];
		if (seen >= rank)
			break;
	}
	if (i == FWS_HIST_NB)
		return h->max;
	v = (uint64_t)(fws_hist_in_bucket(fws_hist_bucket_lo(i), fws_hist_bucket_width(i), h->b[i],
					  seen - h->b[i], rank) +
		       0.5);
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

double
fws_hist_mean(const struct fws_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0;
}
