/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A trial over agents someone else built (lib/run/fws_agents.c from a config, or a test's
 * models): the one entry to lib/ctrl's trial from above it. The trial itself is private to
 * lib/ctrl (int/fws_trial_int.h).
 */
#ifndef FWS_TRIAL_AGENTS_H
#define FWS_TRIAL_AGENTS_H

#include "fws_agent.h"
#include "fws_err.h"
#include "fws_featdata.h"
#include "fws_trial.h"

#define FWS_TRIAL_MAX_AGENTS 8

/**
 * A trial over these agents (the trial owns them from here: destroyed with it, or at once
 * when this fails). Each agent's ports, tx_streams and rx_streams say what it owns; every
 * port and stream needs one. fd: where the features' blocks sit in the agents' counts and
 * the results (NULL: the table's, fws_feat_layout, as every agent of one build has it; a
 * test may give its own). fws_trial_create (lib/run/fws_agents.c) builds them from a
 * config.
 */
struct fws_trial *fws_trial_create_agents(const struct fws_cfg *cfg,
					  struct fws_agent *const *agents, unsigned int n,
					  const struct fws_fd_layout *fd, struct fws_err *e);

#endif /* FWS_TRIAL_AGENTS_H */
