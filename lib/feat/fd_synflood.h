/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Feature "synflood", its data: a stream of SYNs from spoofed sources ("l4": "syn", RFC 3511
 * 5.5) beside the other streams: its rate, the SYNs that passed the DUT and the ones it
 * blocked (lib/ctrl/feat_synflood.c fills it after each trial from the stream's counts; no
 * host counts of its own).
 */
#ifndef FWS_FD_SYNFLOOD_H
#define FWS_FD_SYNFLOOD_H

#include <stdbool.h>
#include <stdint.h>

#include "fws_featdata.h"

/** A stream's. */
struct fws_fd_synflood {
	bool on;     /**< the stream is a SYN flood: the rest is filled */
	bool active; /**< it sent in this trial */
	uint64_t sent, passed, blocked;
	double pps;       /**< SYNs per second offered */
	uint32_t sources; /**< spoofed sources (the stream's flows) */
};

extern const struct fws_featdata fws_fd_synflood;

#endif /* FWS_FD_SYNFLOOD_H */
