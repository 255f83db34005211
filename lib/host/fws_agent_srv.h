/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The agent's server (fwstress agent): requests from the control stream (fws_wire.h) onto
 * the seam's operations (fws_agent.h) of this host's part of the config. The stream is
 * what an ssh key is restricted to, so every field of every request is checked here
 * before an operation sees it: an index against the config, a range against its stream's
 * flows, a plan against the config's sizes, streams and rates, a number for being finite.
 * A request that fails a check gets an error answer; the server serves on.
 */
#ifndef FWS_AGENT_SRV_H
#define FWS_AGENT_SRV_H

#include <stdbool.h>

#include <jansson.h>

#include "fws_agent.h"
#include "fws_config.h"
#include "fws_wire.h"

/** What the server calls to become a host: EAL for the config's ports (0 or -1), then the
 * agent of config host host (NULL with e set). The fuzz harness gives its own. */
struct fws_agent_srv_env {
	int (*eal_start)(struct fws_cfg *cfg);
	void (*eal_stop)(void);
	struct fws_agent *(*part)(const struct fws_cfg *cfg, unsigned int host, struct fws_err *e);
	/** Set up and idle between requests: the host's own duties (ARP, TCP); true when
	 * it should be asked again at once. NULL: nothing. */
	bool (*idle)(struct fws_agent *a);
	/** While its workers run: their live counts now (NULL: no live events). */
	void (*live)(struct fws_agent *a, struct fws_agent_live *out);
	/** A signal handler's count (NULL: none): once non-zero, serving ends within
	 * 100 ms, "interrupted by a signal" (Ctrl-C on an agent started by hand). */
	volatile int *stop;
};

struct fws_agent_srv;

/** A server answering on out (not closed by it). NULL when out of memory. */
struct fws_agent_srv *fws_agent_srv_new(int out, const struct fws_agent_srv_env *env);

/** The answer to one request, written to out: 0, or -errno when it could not be written. */
int fws_agent_srv_answer(struct fws_agent_srv *s, const json_t *req);

/** Requests from rd until bye, the stream's end, a failed write, a dead man or a stop, with a
 * heartbeat on out meanwhile: why it ended (static text). *rc: a failed write's -errno. */
const char *fws_agent_srv_serve(struct fws_agent_srv *s, struct fws_wire_rd *rd, int *rc);

/** The controller said bye. */
bool fws_agent_srv_bye(const struct fws_agent_srv *s);

/** Workers stopped, the agent destroyed, its config freed, EAL stopped if it started. */
void fws_agent_srv_free(struct fws_agent_srv *s);

#endif
