/* SPDX-License-Identifier: BSD-3-Clause */
#include "fws_rxstat.h"

/* Flow f's ring: W / 64 words. */
static inline uint64_t *
ring_of(const struct fws_rxring *r, const struct fws_rxflow *f)
{
	return r->base + ((size_t)(f - r->flows) << r->shift);
}

static inline unsigned int
ring_test_set(const struct fws_rxring *r, const struct fws_rxflow *f, uint64_t s)
{
	uint64_t *w = &ring_of(r, f)[((uint32_t)s & r->wmask) >> 6], bit = 1ull << (s & 63);
	uint64_t old = *w;

	*w = old | bit;
	return (old & bit) != 0;
}

void
fws_rxring_leave(const struct fws_rxring *r, const struct fws_rxflow *f, uint64_t nt)
{
	uint64_t nwords = ((uint64_t)r->wmask + 1) >> 6, b = f->top >> 6, x;
	uint64_t *ring = ring_of(r, f);

	if ((nt >> 6) - b >= nwords) {
		memset(ring, 0, nwords * 8);
		return;
	}
	ring[b & (nwords - 1)] = f->window >> (63 - (f->top & 63));
	for (x = b + 1; x < nt >> 6; x++)
		ring[x & (nwords - 1)] = 0;
}

void
fws_rxstat_behind(struct fws_rxflow *f, const struct fws_rxring *r, uint64_t d, uint32_t bytes)
{
	uint64_t s, bit;

	if (d > f->top || d >= (r ? (uint64_t)r->wmask + 1 : FWS_RXSTAT_WINDOW)) {
		f->late++;
		return;
	}
	s = f->top - d;
	if (d < FWS_RXSTAT_WINDOW) {
		bit = FWS_RXSTAT_TOP >> d;
		if (f->window & bit) {
			f->dup++;
			return;
		}
		f->window |= bit;
		if (r && (s >> 6) != (f->top >> 6))
			ring_test_set(r, f, s);
	} else if (ring_test_set(r, f, s)) {
		f->dup++;
		return;
	}
	f->reordered++;
	f->bytes += bytes;
}

void
fws_rxstat_merge(struct fws_rxflow *dst, const struct fws_rxflow *src)
{
	if (src->rx == 0)
		return;
	if (dst->rx == 0) {
		*dst = *src;
		return;
	}
	dst->rx += src->rx;
	dst->bytes += src->bytes;
	dst->reordered += src->reordered;
	dst->dup += src->dup;
	dst->late += src->late;
	if (src->top > dst->top)
		dst->top = src->top;
}

void
fws_rxstat_add(struct fws_rxstat_sum *sum, const struct fws_rxflow *f, uint64_t tx)
{
	uint64_t unique = fws_rxstat_unique(f);

	sum->flows++;
	sum->tx += tx;
	if (tx > unique) {
		sum->lost += tx - unique;
		sum->lost_min += tx - unique > f->late ? tx - unique - f->late : 0;
		sum->flows_lossy++;
	} else {
		sum->excess += unique - tx;
	}
	if (f->rx == 0)
		return;
	sum->flows_seen++;
	sum->rx += f->rx;
	sum->unique += unique;
	sum->bytes += f->bytes;
	sum->reordered += f->reordered;
	sum->dup += f->dup;
	sum->late += f->late;
}
