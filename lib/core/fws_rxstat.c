/* SPDX-License-Identifier: BSD-3-Clause */
#include "fws_rxstat.h"

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
	if (src->first_tsc < dst->first_tsc)
		dst->first_tsc = src->first_tsc;
	if (src->last_tsc > dst->last_tsc)
		dst->last_tsc = src->last_tsc;
}

void
fws_rxstat_add(struct fws_rxstat_sum *sum, const struct fws_rxflow *f, uint64_t tx)
{
	uint64_t unique = fws_rxstat_unique(f);

	sum->flows++;
	sum->tx += tx;
	if (tx > unique) {
		sum->lost += tx - unique;
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
	if (sum->first_tsc == 0 || f->first_tsc < sum->first_tsc)
		sum->first_tsc = f->first_tsc;
	if (f->last_tsc > sum->last_tsc)
		sum->last_tsc = f->last_tsc;
}
