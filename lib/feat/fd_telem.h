/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Feature "telemetry", its data: the DUT's own figures over a trial (dut.telemetry: its CPU,
 * interrupts, states, drops, per second; lib/ctrl/feat_telemetry.c fills it, no host
 * counts). The series is on the heap, owned by the result (its release hook frees it).
 */
#ifndef FWS_FD_TELEM_H
#define FWS_FD_TELEM_H

#include <stdint.h>

#include "fws_featdata.h"
#include "fws_telem.h"

/** The trial's. */
struct fws_fd_telem {
	struct fws_telem *tm; /**< NULL: none (not configured, or a probe) */
	uint64_t lost;        /**< the frames the trial lost, its streams summed: beside the
			       * DUT's own drops */
};

extern const struct fws_featdata fws_fd_telem;

/** The DUT's telemetry in a result's trial blocks (l its layout), or NULL. */
const struct fws_telem *fws_fd_telem_of(const struct fws_fd_layout *l, const void *trial_area);

#endif /* FWS_FD_TELEM_H */
