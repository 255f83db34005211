/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The controller's trial (fws_trial.h): the config, the agents that own the ports, where
 * the features' data sits, and the controller features' state. It decides; the agents do (fws_agent.h). fws_trial.c creates
 * it, fws_phase.c runs the phases, fws_merge.c turns the agents' counts into a result.
 */
#ifndef FWS_TRIAL_INT_H
#define FWS_TRIAL_INT_H

#include <stdint.h>

#include "fws_agent.h"
#include "fws_feature.h"
#include "fws_trial.h"
#include "fws_trial_agents.h"

#define FWS_LOGMOD "fws.trial"
#include "fws_log.h"

struct fws_probe;

struct fws_trial {
	const struct fws_cfg *cfg;
	unsigned int n_agents;
	struct fws_agent *agents[FWS_TRIAL_MAX_AGENTS];
	uint64_t hz, hz_dpdk; /**< the first agent's TSC (the phase machine's deadlines) */
	struct fws_port_result port[FWS_CFG_MAX_PORTS]; /**< facts, as the agents gave them */
	uint32_t cookie, warm_cookie;                   /**< the current trial's */
	unsigned int n_runs; /**< trials run so far (not path-check probes): the next's number */
	/** Where the features' blocks sit (lib/feat's table, or a test's own). */
	struct fws_fd_layout fd;
	/* The controller features' own state (fws_feature.h), by table index. */
	void *feat[FWS_FEATURES_MAX];
	bool feat_ready[FWS_FEATURES_MAX];
	/** How a feature sends its probes (NAT learning): the phases' fws_trial_run_probe, given
	 * to the features by the trial, so that the feature table calls no phase back. */
	int (*run_probe)(struct fws_trial *t, unsigned int size_idx, const struct fws_trial_opts *o,
			 const struct fws_probe *pr, struct fws_result *res, struct fws_err *e);
};

/** Feature data d's result block of stream s in res (NULL when d has none). */
static inline void *
fws_trial_block(const struct fws_trial *t, const struct fws_featdata *d, struct fws_result *res,
		unsigned int s)
{
	return fws_fd_result(&t->fd, d, res->streams[s].fd);
}

/** Feature data d's result block of the trial as a whole in res (NULL when d has none). */
static inline void *
fws_trial_trial_block(const struct fws_trial *t, const struct fws_featdata *d,
		      struct fws_result *res)
{
	return fws_fd_trial_result(&t->fd, d, res->fd_trial);
}

/** The controller's clock (CLOCK_MONOTONIC, ns): phases, clock probes. */
uint64_t fws_trial_now_ns(void);

/** An agent's TSC read against the controller's clock. */
struct fws_tsc_point {
	double c;   /**< controller time, ns */
	uint64_t a; /**< the agent's ticks then (its tsc operation) */
	double e;   /**< half the round trip, ns: the reading's error */
};

/** Of n exchanges with agent a, the one with the shortest round trip, its reading taken at
 * the round trip's middle (NTP-style). */
struct fws_tsc_point fws_trial_tsc_point(struct fws_agent *a, unsigned int n);

/** Every agent a of t. */
#define FWS_TRIAL_FOREACH_AGENT(t, i, a)                                                           \
	for ((i) = 0; (i) < (t)->n_agents && ((a) = (t)->agents[(i)], 1); (i)++)

/* A probe: exactly frames frames of one stream at pps; duration caps the time it may take.
 * The path check sends one per stream, NAT learning one per learner. */
struct fws_probe {
	unsigned int stream;
	uint64_t frames;
	double pps, duration, drain;
};

/**
 * The phases of one trial (pr NULL) or probe of frame-size mix size_idx, collected into res,
 * without the prepare and after steps (a feature's prepare sends probes through it).
 * 0 or -errno with e set.
 */
int fws_trial_run_probe(struct fws_trial *t, unsigned int size_idx, const struct fws_trial_opts *o,
			const struct fws_probe *pr, struct fws_result *res, struct fws_err *e);

/**
 * Prepare the streams of mask (bit s; 0: all) through every controller feature and every
 * agent, run the trial or probe, then the agents' after step (TCP results into res for a
 * trial that ran).
 */
int fws_trial_run_streams(struct fws_trial *t, unsigned int size_idx,
			  const struct fws_trial_opts *o, uint32_t mask, const struct fws_probe *pr,
			  struct fws_result *res, struct fws_err *e);

/** The link a stream is sent on, in Mbit/s: the sum of its transmit ports' (each sends its
 * share of the flows); 0 when one of them reports no speed. */
uint64_t fws_trial_tx_link_mbps(const struct fws_trial *t, unsigned int s);

/** Each stream's flows as received, merged over the agents that receive it, and as sent,
 * chunk by chunk: fn(arg, stream, first flow, count, rx, tx) for flows [0, count). */
typedef void (*fws_trial_flow_fn)(void *arg, unsigned int s, uint32_t lo, uint32_t n,
				  const struct fws_agent_rxflow *rx,
				  const struct fws_agent_txflow *tx);
int fws_trial_flows(struct fws_trial *t, unsigned int s, fws_trial_flow_fn fn, void *arg);

/** What agent k plays for stream s: FWS_FD_TX, FWS_FD_RX, both or none (fws_featdata.h). */
unsigned int fws_trial_roles(const struct fws_trial *t, unsigned int k, unsigned int s);
/** Fill res from the agents' counts after a trial; req_pps per stream as it was asked. */
int fws_trial_merge(struct fws_trial *t, const double *req_pps,
		    struct fws_agent_counts *const *counts, struct fws_result *res);

#endif /* FWS_TRIAL_INT_H */
