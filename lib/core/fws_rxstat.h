/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-flow receive accounting, one cache line per flow and one writer (the RX lcore whose
 * queue the flow arrives on). The 32-bit wire sequence number is extended to 64 bits against
 * the highest one seen, so flows may run past 2^32 frames. A frame is:
 *   - new, if its sequence number is above the highest seen (a jump leaves a gap);
 *   - reordered (RFC 4737), if below the highest seen and not seen before;
 *   - a duplicate, if seen before (known exactly within the 64 frames below the highest);
 *   - late, if more than 64 below the highest: counted as reordered, and since it cannot be
 *     told from a duplicate it is also counted in `late` so a report can say so.
 * Lost frames are what the transmitter counted minus the distinct frames received.
 */
#ifndef FWS_RXSTAT_H
#define FWS_RXSTAT_H

#include <stdint.h>

#define FWS_RXSTAT_WINDOW 64

/** Receive state of one flow: 64 bytes. */
struct fws_rxflow {
	uint64_t rx;        /**< frames received incl. duplicates */
	uint64_t bytes;     /**< bytes of those frames incl. FCS */
	uint64_t top;       /**< highest extended sequence number seen */
	uint64_t window;    /**< bit i: top - i was seen */
	uint64_t first_tsc; /**< TSC of the first frame */
	uint64_t last_tsc;  /**< TSC of the last frame */
	uint32_t reordered;
	uint32_t dup;
	uint32_t late;
	uint32_t pad;
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct fws_rxflow) == 64, "per-flow RX state is one cache line");

/** Account one frame of a flow: wire sequence number, frame bytes, arrival TSC. */
static inline void
fws_rxstat_update(struct fws_rxflow *f, uint32_t seq, uint32_t bytes, uint64_t tsc)
{
	int32_t delta;
	uint64_t d;

	f->bytes += bytes;
	f->last_tsc = tsc;
	if (f->rx++ == 0) {
		f->top = seq;
		f->window = 1;
		f->first_tsc = tsc;
		return;
	}
	delta = (int32_t)(seq - (uint32_t)f->top);
	if (delta > 0) {
		f->window = (uint64_t)delta < FWS_RXSTAT_WINDOW ? f->window << delta | 1 : 1;
		f->top += (uint64_t)delta;
		return;
	}
	d = (uint64_t)(-(int64_t)delta);
	if (d >= FWS_RXSTAT_WINDOW || d > f->top) {
		f->reordered++;
		f->late++;
		return;
	}
	if (f->window & (1ull << d)) {
		f->dup++;
		return;
	}
	f->window |= 1ull << d;
	f->reordered++;
}

/** Distinct frames of a flow. */
static inline uint64_t
fws_rxstat_unique(const struct fws_rxflow *f)
{
	return f->rx - f->dup;
}

/** Totals over a stream's flows. */
struct fws_rxstat_sum {
	uint64_t tx;     /**< frames sent (from the transmitter's per-flow counts) */
	uint64_t rx;     /**< frames received incl. duplicates */
	uint64_t unique; /**< distinct frames received */
	uint64_t bytes;
	uint64_t lost;   /**< sum over flows of max(0, tx - unique) */
	uint64_t excess; /**< sum over flows of max(0, unique - tx): should be 0 */
	uint64_t reordered;
	uint64_t dup;
	uint64_t late;
	uint64_t flows;       /**< flows in the stream */
	uint64_t flows_seen;  /**< flows with at least one frame */
	uint64_t flows_lossy; /**< flows with lost frames */
	uint64_t first_tsc;   /**< earliest first frame (0 when none) */
	uint64_t last_tsc;    /**< latest last frame */
};

/** Add src's counts of one flow into dst (a flow seen on several queues). */
void fws_rxstat_merge(struct fws_rxflow *dst, const struct fws_rxflow *src);

/** Account flow f (tx frames sent for it) into sum. */
void fws_rxstat_add(struct fws_rxstat_sum *sum, const struct fws_rxflow *f, uint64_t tx);

#endif /* FWS_RXSTAT_H */
