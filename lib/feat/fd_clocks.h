/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Feature "clocks", its data: how a stream's sender and receiver clocks were aligned and
 * the bound that leaves on its one-way figures (lib/ctrl/feat_clocks.c fills it after each
 * trial; no host counts).
 */
#ifndef FWS_FD_CLOCKS_H
#define FWS_FD_CLOCKS_H

#include <stdint.h>

#include "fws_featdata.h"

/** The latency figures the bound may make uncertain (RFC 7679 3.8), in the order of the
 * bits of fws_fd_clocks.uncertain: min, avg, p50, p99, max. */
#define FWS_FD_CLOCK_FIGS 5
#define FWS_FD_CLOCK_FIG_P50 2

struct fws_fd_clocks {
	uint8_t cross_host; /**< sent from one host, received on another */
	uint8_t aligned;    /**< its stamps were mapped into the receiver's clock */
	uint8_t sync;       /**< enum fws_clock_sync: how they were to be aligned */
	uint8_t uncertain;  /**< bit i: the bound exceeds 10 % of latency figure i */
	/** The offset between the two, how far the map drifted over the trial, the bound of
	 * every one-way figure, and of it the hosts' PTP offsets. */
	double offset_ns, residual_ns, bound_ns, ptp_ns;
	/** Frames that read as arriving before their stamp, and the deepest (the latency's). */
	uint64_t skewed;
	double skew_max_ns;
};

extern const struct fws_featdata fws_fd_clocks;

#endif /* FWS_FD_CLOCKS_H */
