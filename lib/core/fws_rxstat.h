/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Per-flow receive accounting, one cache line per flow and one writer (the RX lcore whose
 * queue the flow arrives on). The 32-bit wire sequence number is extended to 64 bits against
 * the highest one seen, so flows may run past 2^32 frames. Every frame received is exactly
 * one of:
 *   - distinct: not seen before. It is "reordered" (RFC 4737) when it arrives below the
 *     highest sequence number seen; a jump above it leaves a gap.
 *   - a duplicate: seen before, known exactly within the flow's window (the last W sequence
 *     numbers: 64 in the cache line, more in an optional per-flow ring of W bits);
 *   - late: more than W below the highest: too late to tell a duplicate from a reordered
 *     frame. It never counts as distinct, so loss is an upper bound, exact when late is 0,
 *     and at least lost - late.
 * Lost frames are what the transmitter counted minus the distinct frames received.
 */
#ifndef FWS_RXSTAT_H
#define FWS_RXSTAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FWS_RXSTAT_WINDOW 64        /**< in the cache line; a larger window adds a ring */
#define FWS_RXSTAT_MAX_WINDOW 65536 /**< the largest ring, bits per flow */

/** Receive state of one flow: 64 bytes. */
struct fws_rxflow {
	uint64_t rx;     /**< every frame received: distinct, duplicates and late */
	uint64_t bytes;  /**< bytes of the distinct frames, incl. FCS */
	uint64_t top;    /**< highest extended sequence number seen */
	uint64_t window; /**< bit 63 - i: top - i was seen */
	uint32_t reordered;
	uint32_t dup;
	uint32_t late;
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct fws_rxflow) == 64, "per-flow RX state is one cache line");

#define FWS_RXSTAT_TOP (1ull << 63)

#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

/*
 * A flow's ring extends its window to W = wmask + 1 sequence numbers (a power of two, 128
 * to FWS_RXSTAT_MAX_WINDOW): W / 64 words, word (b mod W/64) holding the block of sequence
 * numbers 64b .. 64b + 63, bit s mod 64 set when s was seen. The block of the highest
 * sequence number lives in the cache line's window and is written to the ring when the top
 * leaves it (once per 64 frames in order); older blocks are kept in the ring directly. A
 * ring starts zeroed (fws_rx_reset).
 */
struct fws_rxring {
	uint64_t *base;                 /**< W / 8 bytes per flow */
	const struct fws_rxflow *flows; /**< the table the rings belong to, flow by flow */
	uint32_t wmask;                 /**< W - 1 */
	uint32_t shift;                 /**< log2(W / 64): words per flow */
};

/* The top leaves its block for nt's: the block goes to the ring, blocks jumped over are
 * empty (out of line: once per 64 frames in order). */
void fws_rxring_leave(const struct fws_rxring *r, const struct fws_rxflow *f, uint64_t nt);

/* A frame at or below the top (out of line: reordered, duplicate or late). */
void fws_rxstat_behind(struct fws_rxflow *f, const struct fws_rxring *r, uint64_t d,
		       uint32_t bytes);

/**
 * Account one frame of a flow: wire sequence number, frame bytes. r holds the rings of the
 * flow's table; NULL (best as a constant the compiler sees): the window is the cache line's
 * 64.
 */
static inline void
fws_rxstat_update(struct fws_rxflow *f, const struct fws_rxring *r, uint32_t seq, uint32_t bytes)
{
	int32_t delta;

	if (f->rx++ == 0) {
		f->top = seq;
		f->window = FWS_RXSTAT_TOP;
		f->bytes += bytes;
		return;
	}
	delta = (int32_t)(seq - (uint32_t)f->top);
	if (delta > 0) {
		uint64_t nt = f->top + (uint64_t)delta;

		if (r && unlikely((nt >> 6) != (f->top >> 6)))
			fws_rxring_leave(r, f, nt);
		f->window = delta < FWS_RXSTAT_WINDOW ? f->window >> delta | FWS_RXSTAT_TOP
						      : FWS_RXSTAT_TOP;
		f->top = nt;
		f->bytes += bytes;
		return;
	}
	fws_rxstat_behind(f, r, (uint64_t)(-(int64_t)delta), bytes);
}

/** Distinct frames of a flow. */
static inline uint64_t
fws_rxstat_unique(const struct fws_rxflow *f)
{
	return f->rx - f->dup - f->late;
}

/** Totals over a stream's flows. */
struct fws_rxstat_sum {
	uint64_t tx;       /**< frames sent (from the transmitter's per-flow counts) */
	uint64_t rx;       /**< every frame received: distinct + dup + late */
	uint64_t unique;   /**< distinct frames received */
	uint64_t bytes;    /**< bytes of the distinct frames */
	uint64_t lost;     /**< sum over flows of max(0, tx - unique): an upper bound when late */
	uint64_t lost_min; /**< sum over flows of max(0, tx - unique - late): the lower bound */
	uint64_t excess;   /**< sum over flows of max(0, unique - tx): should be 0 */
	uint64_t reordered;
	uint64_t dup;
	uint64_t late;        /**< too late to tell (beyond the window): never distinct */
	uint64_t flows;       /**< flows in the stream */
	uint64_t flows_seen;  /**< flows with at least one frame */
	uint64_t flows_lossy; /**< flows with lost frames */
};

/** Add src's counts of one flow into dst (a flow seen on several queues). */
void fws_rxstat_merge(struct fws_rxflow *dst, const struct fws_rxflow *src);

/** Account flow f (tx frames sent for it) into sum. */
void fws_rxstat_add(struct fws_rxstat_sum *sum, const struct fws_rxflow *f, uint64_t tx);

#endif /* FWS_RXSTAT_H */
