/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TSC against the kernel's CLOCK_MONOTONIC_RAW. DPDK's rte_get_tsc_hz() is an estimate
 * (rounded, e.g. 2.100 GHz for a TSC that runs at 2.09599 GHz: every time, rate and latency
 * off by 0.19 %); fwstress measures the rate instead, once at setup (pacing, deadlines,
 * latency) and over every trial (its durations and rates), and reports both. The readings
 * themselves are a host's (fws_hostclock.h: the TSC is DPDK's rte_rdtsc); this is their
 * arithmetic, which the controller shares.
 */
#ifndef FWS_CLOCK_H
#define FWS_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

/** A TSC reading and the CLOCK_MONOTONIC_RAW time (ns) taken between two TSC reads. */
struct fws_clock_pair {
	uint64_t tsc;
	uint64_t ns;
};

/** TSC ticks per second between two pairs; 0 when b is not after a. */
double fws_clock_hz(const struct fws_clock_pair *a, const struct fws_clock_pair *b);

/** (a - b) / b in parts per million. */
double fws_clock_ppm(double a, double b);

/*
 * An affine map of TSC readings, x -> x + off + (x - base) * q / 2^32: one host's ticks in
 * another's time base (the stamps of a stream sent from one load client and received on
 * another, feat_clocks.c), or a test-only offset and drift of a host's clock.
 */
struct fws_affine {
	bool on;
	uint64_t base;
	int64_t off; /**< ticks at base */
	int64_t q;   /**< rate difference, 2^-32 units (50 ppm: 214748) */
};

static inline uint64_t
fws_affine_apply(const struct fws_affine *a, uint64_t x)
{
	__int128 d = (__int128)(int64_t)(x - a->base) * a->q;

	return x + (uint64_t)a->off + (uint64_t)(int64_t)(d >> 32);
}

/** The x that a maps to y (to within two ticks for any rate difference under 1 %). */
static inline uint64_t
fws_affine_unapply(const struct fws_affine *a, uint64_t y)
{
	uint64_t x = y - (uint64_t)a->off;
	int i;

	for (i = 0; i < 3; i++) /* x = y - off - (x - base) q / 2^32, converging */
		x = y - (uint64_t)a->off -
		    (uint64_t)(int64_t)(((__int128)(int64_t)(x - a->base) * a->q) >> 32);
	return x;
}

/** outer after inner, as one map (exact in its offset, to 2^-32 squared in its rate). */
static inline struct fws_affine
fws_affine_then(const struct fws_affine *inner, const struct fws_affine *outer)
{
	struct fws_affine r = {.on = inner->on || outer->on, .base = inner->base};

	if (!inner->on)
		return *outer;
	if (!outer->on)
		return *inner;
	r.off = (int64_t)(fws_affine_apply(outer, fws_affine_apply(inner, r.base)) - r.base);
	r.q = inner->q + outer->q + (int64_t)(((__int128)inner->q * outer->q) >> 32);
	return r;
}

/** A test-only clock from FWS_TEST_CLOCK="OFFSET_NS,PPM" at hz (a.on false when unset):
 * 0, or -EINVAL for a malformed value. */
int fws_affine_test_clock(const char *env, uint64_t hz, uint64_t now, struct fws_affine *a);

#endif /* FWS_CLOCK_H */
