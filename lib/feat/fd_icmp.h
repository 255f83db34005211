/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Feature "icmp", its data: ICMP errors from the path about a stream's packets in one trial
 * (lib/host/feat_icmp.c counts them on the host whose packets drew them), and per trial those
 * about no stream of it. The path feature (lib/ctrl/feat_path.c) reads the stream's tally.
 */
#ifndef FWS_FD_ICMP_H
#define FWS_FD_ICMP_H

#include <stdint.h>

#include "fws_featdata.h"
#include "fws_frame.h"

/** A stream's, per host and per trial (the same block). */
struct fws_icmp_tally {
	uint64_t n[FWS_ICMP_CLASSES_N]; /**< by class (fws_pkt.h) */
	uint32_t mtu_min, mtu_max;      /**< MTUs "too big" errors announced (0: none) */
};

/** The trial's: errors about no stream of it. */
struct fws_icmp_trial {
	uint64_t unmatched;
};

extern const struct fws_featdata fws_fd_icmp;

#endif /* FWS_FD_ICMP_H */
