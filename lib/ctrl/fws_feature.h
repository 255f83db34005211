/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trial features, in the manner of test-pmd's forwarding engines: each feature is one file
 * that owns its state and one entry in a table. An entry's hooks are optional (NULL: nothing
 * to do), called at fixed points and in table order; the phase machine and the setup loop
 * over the tables and name no feature. Two tables, one each side of the seam
 * (fws_agent.h): the controller's here (fws_feature.c: DUT load, NAT learning and verdict,
 * the path's verdict, blocked flows), which decide and judge; the host's in fws_host.h
 * (fws_hostfeat.c: stamps, reassembly, ICMP errors, link watch, TCP streams), which act on
 * the ports and count. Adding a feature: a new file with its entry and its line in the
 * table (docs/dev/design.md). What a feature reports is its data in lib/feat (fd_NAME.h):
 * its collect fills the result blocks (fws_trial_block), the report writes them.
 */
#ifndef FWS_FEATURE_H
#define FWS_FEATURE_H

#include <stdbool.h>
#include <stdint.h>

#include "fws_featdata.h"
#include "fws_phase.h"

struct fws_agent_counts;
struct fws_agent_plan;
struct fws_err;
struct fws_featdata;
struct fws_result;
struct fws_trial;
struct fws_trial_opts;

/** What a hook sees of the trial in progress. */
struct fws_step {
	const struct fws_trial_opts *o; /**< may be NULL */
	bool probe;                     /**< a path-check or NAT learn probe, not a trial */
	bool interrupted;               /**< a stop request ended a phase early */
	double duration;                /**< the measured phase's length, s */
	uint64_t now;                   /**< TSC when the event fired */
	struct fws_result *res;         /**< the result being filled */
	/** At collect: each agent's counts (the trial's agents, in order). */
	struct fws_agent_counts *const *counts;
};

struct fws_feature {
	const char *name;
	/** Once, after the trial's ports, tasks and receive lcores exist: *state is the
	 * feature's own (left NULL when it has nothing to keep). 0 or -errno with e set. */
	int (*setup)(struct fws_trial *t, void **state, struct fws_err *e);
	/** Before a trial's phases, workers stopped, for the streams of mask (bit s; 0: all):
	 * learning, handshakes. 0 or -errno with e set. */
	int (*prepare)(struct fws_trial *t, void *state, const struct fws_trial_opts *o,
		       uint32_t mask, unsigned int size_idx, struct fws_err *e);
	/** At the events above. */
	void (*on[FWS_FEATURE_EVENTS_N])(struct fws_trial *t, void *state,
					 const struct fws_step *x);
	/** Into agent k's plan, before each trial or probe arms it (p->clk zeroed). */
	void (*plan)(struct fws_trial *t, void *state, unsigned int k, struct fws_agent_plan *p);
	/** Stream s's flows this feature sets apart from its loss (per flow, 1: apart; the
	 * merge sums them in the result's blk), their number in *n; NULL: none. */
	const uint8_t *(*apart)(const struct fws_trial *t, const void *state, unsigned int s,
				uint32_t *n);
	/** After a trial (res: its result), or after a probe or a failed trial (res NULL). */
	void (*after)(struct fws_trial *t, void *state, struct fws_result *res);
	void (*destroy)(struct fws_trial *t, void *state);
};

#define FWS_FEATURES_MAX 16

/** Every feature's setup, in table order; 0 or the first failure's -errno. */
int fws_features_setup(struct fws_trial *t, struct fws_err *e);
/** Every feature's prepare for the streams of mask; stops at the first failure. */
int fws_features_prepare(struct fws_trial *t, const struct fws_trial_opts *o, uint32_t mask,
			 unsigned int size_idx, struct fws_err *e);
/** Every feature's hook of event ev. */
void fws_features_on(struct fws_trial *t, enum fws_feature_event ev, const struct fws_step *x);
/** Every feature's plan hook for agent k. */
void fws_features_plan(struct fws_trial *t, unsigned int k, struct fws_agent_plan *p);
/** The flows of stream s set apart (the first feature that sets any apart), their number
 * in *n; NULL and 0: none. */
const uint8_t *fws_features_apart(const struct fws_trial *t, unsigned int s, uint32_t *n);
/** Every feature's after hook. */
void fws_features_after(struct fws_trial *t, struct fws_result *res);
/** Every feature's destroy (those set up only). */
void fws_features_destroy(struct fws_trial *t);

#endif /* FWS_FEATURE_H */
