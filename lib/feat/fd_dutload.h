/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Feature "dutload", its data: the DUT's CPU load over a trial's measured phase, as its load
 * command reported it (lib/ctrl/feat_dutload.c fills it; no host counts). Cells read it.
 */
#ifndef FWS_FD_DUTLOAD_H
#define FWS_FD_DUTLOAD_H

#include <stdbool.h>

#include "fws_dutload.h"
#include "fws_featdata.h"

/** The trial's. */
struct fws_fd_dutload {
	bool probed;          /**< the command ran over this trial */
	struct fws_dutload v; /**< its verdict */
};

extern const struct fws_featdata fws_fd_dutload;

/** The DUT's CPU % in a result's trial blocks (l its layout), or -1 when not measured. */
double fws_fd_dut_cpu(const struct fws_fd_layout *l, const void *trial_area);

#endif /* FWS_FD_DUTLOAD_H */
