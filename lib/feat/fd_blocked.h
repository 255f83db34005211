/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Feature "blocked", its data: a stream's flows the DUT should block ("expect": blocked, or a
 * blocklist's destinations), what was sent to them and what leaked (lib/ctrl/feat_blocked.c
 * sets them apart, the merge sums them apart from the stream's loss, its collect fills this).
 */
#ifndef FWS_FD_BLOCKED_H
#define FWS_FD_BLOCKED_H

#include <stdbool.h>
#include <stdint.h>

#include "fws_featdata.h"

/** A stream's. */
struct fws_fd_blocked {
	uint32_t flows; /**< flows expected blocked; 0: none (the rest is not filled) */
	bool active;    /**< the stream sent in this trial */
	bool ok;        /**< none leaked */
	uint64_t sent, leaked, leaked_total; /**< frames sent to them, distinct leaked, all */
	char reason[160];                    /**< why not ok */
};

extern const struct fws_featdata fws_fd_blocked;

/** A stream's block in its result area (l its layout); a zeroed block (no flows expected
 * blocked) when the layout has none. */
const struct fws_fd_blocked *fws_fd_blocked_of(const struct fws_fd_layout *l, const void *area);

#endif /* FWS_FD_BLOCKED_H */
