/* SPDX-License-Identifier: BSD-3-Clause */
/* The in-process agent (fws_agent_local.c): this process's EAL and ports behind the seam. */
#ifndef FWS_AGENT_LOCAL_H
#define FWS_AGENT_LOCAL_H

#include "fws_agent.h"

/** This process as a load client: its host name, kernel, fwstress and DPDK versions. */
void fws_agent_info_self(struct fws_host_info *out);

/** The in-process agent over this process's EAL and the config's ports. NULL with errno
 * and e set on failure. */
struct fws_agent *fws_agent_local(const struct fws_cfg *cfg, struct fws_err *e);

/** The in-process agent for the ports of host (0: those naming no host; k: hosts[k - 1],
 * in that host's fwstress agent): it sends the streams whose transmit port it owns and
 * receives those whose receive port it owns. */
struct fws_agent *fws_agent_local_part(const struct fws_cfg *cfg, unsigned int host,
				       struct fws_err *e);

#endif /* FWS_AGENT_LOCAL_H */
