/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Connection tests (fwstress connections): the method and its trials. rate and teardown
 * search (fws_search) for the highest connection (close) rate at which no connection is
 * impaired: each failed, unfinished, or one that had to send anything twice (CSIT's NDR for
 * CPS: no failed connection and no lost packet). capacity opens at the configured rate until
 * the first connection fails and reports how many the DUT held then, with the reason.
 * RFC 3511's iteration rules: every iteration attempts the same connections (every flow of
 * every stream), and between iterations every attempted connection is reset (RST) and the
 * DUT's aging time waited.
 *
 * The method asks for trials through ops, so the real one (fws_conntester, over a trial's
 * ports) and unit tests' models run the same code.
 */
#ifndef FWS_CONNTEST_H
#define FWS_CONNTEST_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "fws_config.h"
#include "fws_conntrial.h"
#include "fws_connstat.h"
#include "fws_dutload.h"
#include "fws_err.h"
#include "fws_search.h"
#include "fws_trial.h"

/** One repetition of the test (config repeat): its trials from run->trials[first] up to
 * the next repetition's first (the last: all so far), and its search's goals (indexes of its
 * own trials). */
struct fws_connrep {
	unsigned int first;
	bool done; /**< it ran to its end: it has a result */
	bool searched;
	struct fws_search_goal goal[FWS_SEARCH_GOALS];
};

struct fws_connrun {
	const struct fws_cfg *cfg;
	enum fws_conn_test test;
	time_t started, finished;
	bool running; /**< saved while it runs: the report says "running" */
	bool partial;
	uint64_t count;      /**< connections per iteration */
	size_t state_bytes;  /**< per connection */
	size_t memory_bytes; /**< the engine's, at the end */
	double fixed_rate;   /**< > 0: one trial at this rate instead of a search */
	unsigned int n_trials, cap_trials;
	struct fws_conntrial *trials;
	bool searched;
	struct fws_search_goal goal[FWS_SEARCH_GOALS];
	/** The test's repetitions (config repeat), as they started; heap. A run whose test
	 * has not started has none. */
	unsigned int n_reps;
	struct fws_connrep *reps;
	char error[FWS_ERR_LEN];
	unsigned int n_ports;
	struct fws_port_result ports[FWS_CFG_MAX_PORTS];
	unsigned int n_hosts; /**< with load clients: their agents */
	struct fws_host_info hosts[FWS_CFG_MAX_HOSTS + 1];
};

struct fws_connops {
	/** One iteration at rate (connections or closes per second) into out. 0 or -errno. */
	int (*trial)(void *arg, double rate, struct fws_conntrial *out, struct fws_err *e);
	/** After each: capacity's hold, RST every attempted connection, the aging wait. */
	int (*between)(void *arg, struct fws_err *e);
	void *arg;
	/** After each trial, before between: save progress (the report as it stands). */
	void (*saved)(void *arg, const struct fws_connrun *run);
	void *saved_arg;
	FILE *log; /**< a line per trial; NULL: quiet */
};

/** Run the configured test into run (cfg, count and fixed_rate set). 0 or -errno. */
int fws_conntest_execute(struct fws_connrun *run, const struct fws_connops *ops, struct fws_err *e);

/** Repetition k of run seen as a run of its own: its trials and goals, no repetitions;
 * points into run (nothing to free). A run without repetitions is its own only one. */
void fws_connrun_rep(const struct fws_connrun *run, unsigned int k, struct fws_connrun *view);

/** Repetitions of run a report gives (at least one). */
static inline unsigned int
fws_connrun_n_reps(const struct fws_connrun *run)
{
	return run->n_reps ? run->n_reps : 1;
}

/** The figure of the test: the NDR rate found (rate, teardown: conditional, per second),
 * or the fewest connections held (capacity); with a fixed rate, the connections (closes)
 * per second that completed unimpaired; 0 when none. */
double fws_connrun_figure(const struct fws_connrun *run, int *trial);

void fws_connrun_free(struct fws_connrun *run);

/* The controller's trials over its agents (fws_connagents.c): the iteration on the agent of
 * the clients, the one of the servers told to answer it, the DUT load probe here. */
struct fws_connagents;

/** For the connections of cfg over t's agents. NULL with e set: an agent that cannot run
 * them, or clients (servers) on more than one host. */
struct fws_connagents *fws_connagents_new(struct fws_trial *t, const struct fws_cfg *cfg,
					  volatile int *stop, bool progress, struct fws_err *e);
void fws_connagents_free(struct fws_connagents *x);

/** ops for the trials over x. */
void fws_connagents_ops(struct fws_connagents *x, struct fws_connops *ops);

#endif /* FWS_CONNTEST_H */
