/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trial feature "blocked": a stream with "expect" (blocked, or a blocklist's destinations)
 * has flows the DUT should block; the core collect sums them apart from the rest
 * (fws_stream_result.blk), so loss is never blocking. This verdict: did any leak?
 */
#include <inttypes.h>
#include <stdio.h>

#include "fws_feature.h"
#include "fws_trial_int.h"

static void
blocked_collect(struct fws_trial *t, void *state, const struct fws_step *x)
{
	unsigned int s;

	(void)state;
	for (s = 0; s < t->cfg->n_streams; s++) {
		struct fws_stream_result *sr = &x->res->streams[s];

		sr->blk_flows = t->n_blocked[s];
		sr->blk_ok = sr->blk.unique == 0;
		if (!sr->blk_ok)
			snprintf(sr->blk_reason, sizeof(sr->blk_reason),
				 "%" PRIu64 " of %" PRIu64
				 " frames to %u flows expected blocked leaked",
				 sr->blk.unique, sr->blk.tx, sr->blk_flows);
	}
}

const struct fws_feature fws_feature_blocked = {
	.name = "blocked",
	.on = {[FWS_FEATURE_COLLECT] = blocked_collect},
};
