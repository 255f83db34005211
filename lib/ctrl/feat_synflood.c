/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trial feature "synflood": after each trial, each SYN flood stream's figures from its
 * merged counts (the SYNs that arrived passed the DUT, the lost ones it blocked) into its
 * result block (lib/feat's fd_synflood).
 */
#include "fd_synflood.h"
#include "fws_feature.h"
#include "fws_trial_int.h"

static void
synflood_collect(struct fws_trial *t, void *state, const struct fws_step *x)
{
	unsigned int s;

	(void)state;
	for (s = 0; s < t->cfg->n_streams; s++) {
		const struct fws_stream_result *sr = &x->res->streams[s];
		struct fws_fd_synflood *f = fws_trial_block(t, &fws_fd_synflood, x->res, s);

		if (f == NULL || t->cfg->streams[s].l4 != FWS_L4_SYN)
			continue;
		*f = (struct fws_fd_synflood){.on = true,
					      .active = sr->active,
					      .sent = sr->tx_frames,
					      .passed = sr->rx.unique,
					      .blocked = sr->rx.lost,
					      .pps = sr->tx_pps,
					      .sources = sr->flows};
	}
}

const struct fws_feature fws_feature_synflood = {
	.name = "synflood",
	.on = {[FWS_FEATURE_COLLECT] = synflood_collect},
};
