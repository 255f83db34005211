/* SPDX-License-Identifier: BSD-3-Clause */
/* A trial over the agents its config names (fws_agents.c). */
#ifndef FWS_AGENTS_H
#define FWS_AGENTS_H

#include "fws_config.h"
#include "fws_err.h"
#include "fws_trial.h"

/** Set up everything a config needs: the in-process agent for the ports naming no host,
 * a remote one for each host. NULL with errno and the error in e on failure. */
struct fws_trial *fws_trial_create(const struct fws_cfg *cfg, struct fws_err *e);

#endif /* FWS_AGENTS_H */
