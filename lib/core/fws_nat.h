/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NAT observation: per flow (found by its signature, never by its headers), the addresses
 * and ports its frames arrived with, how often, and how often that changed between frames
 * (a translation that changes mid-run is NAT state lost). Values are kept as they arrived:
 * network order, IPv4 addresses or the low 32 bits of IPv6 ones. One writer per table (a
 * receive lcore); tables of several lcores are merged after the trial.
 */
#ifndef FWS_NAT_H
#define FWS_NAT_H

#include <stdbool.h>
#include <stdint.h>

/** The header fields NAT rewrites, network order. */
struct fws_nat_tuple {
	uint32_t src, dst;
	uint16_t sport, dport;
};

struct fws_natobs {
	struct fws_nat_tuple last; /**< as the latest frame arrived */
	uint16_t seen;             /**< frames observed, saturating; 0: never seen */
	uint16_t changes;          /**< frames that arrived translated otherwise than the one
				    * before them, saturating */
};

static inline bool
fws_nat_tuple_eq(const struct fws_nat_tuple *a, const struct fws_nat_tuple *b)
{
	return a->src == b->src && a->dst == b->dst && a->sport == b->sport && a->dport == b->dport;
}

/** One frame of the flow arrived with t. */
static inline void
fws_natobs_see(struct fws_natobs *o, const struct fws_nat_tuple *t)
{
	if (o->seen && !fws_nat_tuple_eq(&o->last, t) && o->changes != UINT16_MAX)
		o->changes++;
	o->last = *t;
	if (o->seen != UINT16_MAX)
		o->seen++;
}

/** Merge another lcore's observation of the same flow (its frames came after or between). */
void fws_natobs_merge(struct fws_natobs *into, const struct fws_natobs *o);

/** What NAT did to a stream, against what its frames carried when sent. */
struct fws_nat_sum {
	uint32_t flows;          /**< flows of the stream */
	uint32_t seen;           /**< flows with at least one frame observed */
	uint32_t src_translated; /**< seen flows that arrived with another source address/port */
	uint32_t dst_translated; /**< ... another destination address or port */
	uint32_t changed;        /**< flows whose translation changed during the trial */
	uint32_t mismatched;     /**< seen flows that did not arrive as wanted (when given) */
	uint32_t distinct_src;   /**< distinct source addresses among translated flows */
	uint32_t distinct_sport; /**< distinct source ports among translated flows */
	uint16_t sport_min, sport_max; /**< host order; 0/0 when none was translated */
};

/**
 * Summarise n flows: obs[i] against sent[i] and, when want is not NULL, against the tuple
 * flow i should arrive with. scratch holds n uint32_t. Returns 0.
 */
int fws_nat_summarize(const struct fws_natobs *obs, const struct fws_nat_tuple *sent,
		      const struct fws_nat_tuple *want, uint32_t n, uint32_t *scratch,
		      struct fws_nat_sum *sum);

#endif /* FWS_NAT_H */
