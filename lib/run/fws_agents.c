/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Above both sides of the seam: the agents of a config, built for a trial. The controller
 * (lib/ctrl) drives agents it is given; a host (lib/host) is one; only this file knows both
 * kinds and picks them from the config.
 */
#include <errno.h>
#include <stdbool.h>

#include "fws_agent_local.h"
#include "fws_agent_remote.h"
#include "fws_agents.h"
#include "fws_feat.h"
#include "fws_trial_agents.h"

/* The agents of a config: the in-process one for the ports naming no host, a remote one
 * for each host (started one after the other: a refusal stops the rest). */
struct fws_trial *
fws_trial_create(const struct fws_cfg *cfg, struct fws_err *e)
{
	struct fws_agent *agents[FWS_TRIAL_MAX_AGENTS] = {NULL};
	struct fws_fd_layout fd = {0};
	bool local = fws_config_local_ports(cfg);
	unsigned int n = local, h, k;
	int rc = 0;

	/* Where every agent (one build) puts its features' count blocks. */
	if (fws_feat_layout(&fd) < 0) {
		fws_err_set(e, FWS_ERR_SETUP, -ENOSPC,
			    "setup: the features' count blocks exceed their areas");
		return NULL;
	}
	/* The remote ones first: each sets up while the next starts (a link between two
	 * agents comes up only when both ends are there). */
	for (h = 1; h <= cfg->n_hosts && rc == 0; h++) {
		if ((agents[n] = fws_agent_remote(cfg, h, &fd, e)) == NULL)
			rc = -EINVAL;
		else
			n++;
	}
	if (rc == 0 && local && (agents[0] = fws_agent_local(cfg, e)) == NULL)
		rc = -EINVAL;
	for (k = local; k < n && rc == 0; k++)
		rc = fws_agent_remote_ready(agents[k], e);
	if (rc < 0) {
		for (k = 0; k < n; k++)
			if (agents[k])
				agents[k]->ops->destroy(agents[k]);
		return NULL;
	}
	return fws_trial_create_agents(cfg, agents, n, &fd, e);
}
