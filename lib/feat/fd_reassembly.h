/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Feature "reassembly", its data: a stream's packets that arrived fragmented (a receiving
 * host's counts, lib/host/feat_reassembly.c, and the trial's: the same block).
 */
#ifndef FWS_FD_REASSEMBLY_H
#define FWS_FD_REASSEMBLY_H

#include <stdint.h>

#include "fws_featdata.h"

struct fws_fd_frag {
	uint64_t reassembled; /**< distinct packets reassembled */
	/** Packets whose first fragment arrived and whose reassembly was given up (never
	 * completed in time, too many fragments, overlapping): lost, unless a copy came. */
	uint64_t given_up;
	/** Of those, packets whose first fragment the full reassembly table refused: lost to
	 * the tester's limit, not the DUT's. */
	uint64_t refused;
};

extern const struct fws_featdata fws_fd_reassembly;

#endif /* FWS_FD_REASSEMBLY_H */
