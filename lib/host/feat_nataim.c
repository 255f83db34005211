/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Host feature "nataim", the host's part of "nat": after each trial, the flows of each stream
 * this host sends that its last aim sent to a learned translation (fws_hostflow.c), into the
 * stream's count block (lib/feat/fd_nat.h); the controller's NAT feature (lib/ctrl/feat_nat.c,
 * fws_feature_nat) reads their sum.
 */
#include "fd_nat.h"
#include "fws_host.h"

static void
nat_collect(struct fws_host *t, void *state, struct fws_agent_counts *c, uint64_t now)
{
	struct fws_nat_count *n;
	unsigned int s;

	(void)state;
	(void)now;
	for (s = 0; s < t->cfg->n_streams; s++)
		if (((t->tx_mask >> s) & 1) && (n = fws_host_block(t, &fws_fd_nat, c, s)) != NULL)
			n->aimed = t->aimed[s];
}

const struct fws_host_feature fws_feature_nataim = {
	.name = "nataim",
	.on = {[FWS_FEATURE_COLLECT] = nat_collect},
};
