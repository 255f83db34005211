/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TSC against the kernel's CLOCK_MONOTONIC_RAW. DPDK's rte_get_tsc_hz() is an estimate
 * (rounded, e.g. 2.100 GHz for a TSC that runs at 2.09599 GHz: every time, rate and latency
 * off by 0.19 %); fwstress measures the rate instead, once at setup (pacing, deadlines,
 * latency) and over every trial (its durations and rates), and reports both.
 */
#ifndef FWS_CLOCK_H
#define FWS_CLOCK_H

#include <stdint.h>

/** A TSC reading and the CLOCK_MONOTONIC_RAW time (ns) taken between two TSC reads. */
struct fws_clock_pair {
	uint64_t tsc;
	uint64_t ns;
};

/** Read a pair: of 8 tries, the one whose TSC reads lie closest around the clock. 0 or -errno. */
int fws_clock_read(struct fws_clock_pair *p);

/** TSC ticks per second between two pairs; 0 when b is not after a. */
double fws_clock_hz(const struct fws_clock_pair *a, const struct fws_clock_pair *b);

/** The TSC rate measured over ms milliseconds (sleeping), rounded to 1 Hz; 0 on failure. */
uint64_t fws_clock_calibrate(unsigned int ms);

/** (a - b) / b in parts per million. */
double fws_clock_ppm(double a, double b);

#endif /* FWS_CLOCK_H */
