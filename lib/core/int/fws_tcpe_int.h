/* SPDX-License-Identifier: BSD-3-Clause */
/* Between the TCP endpoint (fws_tcpe.c) and its congestion controls (fws_tcpe_cc.c). */
#ifndef FWS_TCPE_INT_H
#define FWS_TCPE_INT_H

#include <stdint.h>

#include "fws_tcpe.h"

/* Plain functions: FWS_MIN and FWS_MAX nested shadow their own locals (-Wshadow). */
static inline uint64_t
min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static inline uint64_t
max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static inline double
mind(double a, double b)
{
	return a < b ? a : b;
}

static inline double
maxd(double a, double b)
{
	return a > b ? a : b;
}

/* A congestion control: a line of fws_tcpe_ccs, by enum fws_tcpe_cc_kind. */
struct fws_tcpe_cc_ops {
	const char *name;
	/* bytes newly acknowledged outside recovery */
	void (*ack)(struct fws_tcpe *e, uint64_t acked, uint64_t now);
	/* a loss: the new ssthresh (the flight's share kept) */
	uint64_t (*loss)(struct fws_tcpe *e, uint64_t flight, uint64_t now);
};

#define FWS_TCPE_CC_N 2
extern const struct fws_tcpe_cc_ops fws_tcpe_ccs[FWS_TCPE_CC_N];

#endif /* FWS_TCPE_INT_H */
