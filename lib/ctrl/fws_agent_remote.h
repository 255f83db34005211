/* SPDX-License-Identifier: BSD-3-Clause */
/* The remote agent (fws_agent_remote.c): a load client's fwstress agent over its control
 * stream, behind the seam. */
#ifndef FWS_AGENT_REMOTE_H
#define FWS_AGENT_REMOTE_H

#include "fws_agent.h"

/** The agent of cfg->hosts[host - 1], on that load client: its command started, hello
 * exchanged, its ports set up there. NULL with e set on failure. */
struct fws_agent *fws_agent_remote(const struct fws_cfg *cfg, unsigned int host,
				   const struct fws_fd_layout *fd, struct fws_err *e);

/** The stop requests (Ctrl-C, SIGTERM) that end a wait for remote agents: while they start
 * (hello, setup) the first one, later a second one (the first stops the trial, whose end
 * still asks the agents for its counts). NULL: none. */
void fws_agent_remote_stop_on(volatile int *stop);

/** Wait for a remote agent's setup (sent by fws_agent_remote, so that the agents set up at
 * once); 0 for any other agent. 0 or -errno with e set. */
int fws_agent_remote_ready(struct fws_agent *a, struct fws_err *e);

#endif /* FWS_AGENT_REMOTE_H */
