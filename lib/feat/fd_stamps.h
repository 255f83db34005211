/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Feature "stamps", its data: how a stream's frames were stamped (lib/host/feat_stamps.c
 * fills a sending host's block from its transmit tasks) and what that leaves uncertain.
 */
#ifndef FWS_FD_STAMPS_H
#define FWS_FD_STAMPS_H

#include <stdint.h>

#include "fws_featdata.h"

/* A sending host's, and the trial's (the extremes of every sender, the mean over their
 * samples). */
struct fws_fd_stamps {
	uint32_t wire_mbps; /**< the wire model's link speed; 0: stamped at the hand-over */
	uint8_t active;     /**< it sent in this trial */
	double lead_ns;     /**< build time per frame added to each stamp (the fastest seen) */
	double lag_avg_ns;  /**< from a burst's stamp to the end of its hand-over (signed) */
	double lag_min_ns;  /**< < 0: a burst stamped after its hand-over ended */
	double lag_max_ns;
	uint64_t lag_bursts;  /**< sampled measured bursts behind the three */
	uint64_t late_bursts; /**< of them, stamped after their hand-over ended */
	uint64_t received;    /**< frames with a latency (a receiving host's): 0, no line */
};

extern const struct fws_featdata fws_fd_stamps;

#endif /* FWS_FD_STAMPS_H */
