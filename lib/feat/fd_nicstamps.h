/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Feature "nicstamps", its data: what a port's NIC offers for latency stamps and the method
 * fwstress uses on it (fws_hwstamp.h), a fact of the port (its block filled by the port's
 * host when it answers for its ports: lib/host/feat_nicstamps.c), in the run's port list.
 */
#ifndef FWS_FD_NICSTAMPS_H
#define FWS_FD_NICSTAMPS_H

#include <stdbool.h>

#include "fws_featdata.h"

/** A port's. */
struct fws_fd_nicstamps {
	bool filled;   /**< its host filled it (a port without: nothing is said) */
	bool physical; /**< on a hardware bus (the words on the port's line are for those) */
	bool rx_all;   /**< RX timestamp offload: the NIC can stamp every received frame */
	bool ptp;      /**< IEEE 1588 timesync: a clock that latches PTP event frames */
	bool rx_used;  /**< its receive stamps give the arrivals */
};

extern const struct fws_featdata fws_fd_nicstamps;

#endif /* FWS_FD_NICSTAMPS_H */
