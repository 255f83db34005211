/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The record of a run: every kept trial, search and back-to-back summary, the path check,
 * the status. The methodology (fws_method) fills it; the reports render it.
 */
#ifndef FWS_RUN_H
#define FWS_RUN_H

#include <stdbool.h>
#include <time.h>

#include "fws_err.h"
#include "fws_search.h"
#include "fws_trial.h"

#define FWS_RUN_MAX_B2B FWS_CFG_MAX_B2B /**< back-to-back repetitions a cell keeps */

/** A throughput search over one frame-size mix. */
struct fws_search_summary {
	char size[32];
	struct fws_search_goal goal[FWS_SEARCH_GOALS];
	int result[FWS_SEARCH_GOALS]; /**< the goal's trial in fws_run.results, -1: none */
	double max_pps; /**< what a load of 1 asks for, frames/s over the active streams */
	unsigned int n_trials;
	struct fws_search_trial trials[FWS_SEARCH_MAX_TRIALS];
	bool complete; /**< ran to its end; false: the run ended during it (a goal not found is
			* not a result then) */
	unsigned int repetition; /**< of a cell searched "repeat" times, which (1 first); 0 */
};

/** Back-to-back bursts of one sweep cell (RFC 2544 26.4, RFC 9004). */
struct fws_b2b_summary {
	char size[32];
	enum fws_dir dir;
	uint64_t max_frames; /**< the longest burst tried */
	/** The line-rate probe the bursts are sized by fell short of the streams' rate: the
	 * tester's limit, and max_frames with it a lower bound of what the rate would give. */
	bool generator_limited;
	unsigned int n, trials;
	uint64_t bursts[FWS_RUN_MAX_B2B]; /**< longest loss-free burst of each repetition, frames */
	double avg, min, max, stddev;
};

struct fws_cells;
struct fws_cell_done;
struct json_t;

#define FWS_RUN_STATUSES(X)                                                                        \
	X(RUNNING, "running")                                                                      \
	X(COMPLETED, "completed")                                                                  \
	X(INTERRUPTED, "interrupted")                                                              \
	X(ERROR, "error")                                                                          \
	X(PATH_FAILED, "path-check-failed")

enum fws_run_status {
#define FWS_RUN_STATUS_ENUM(name, label) FWS_RUN_##name,
	FWS_RUN_STATUSES(FWS_RUN_STATUS_ENUM)
#undef FWS_RUN_STATUS_ENUM
};

/** The status as reports write it. */
const char *fws_run_status_name(enum fws_run_status st);

/** A whole run as the report sees it. Capacities come from the config (fws_run_alloc). */
struct fws_run {
	const struct fws_cfg *cfg;
	struct fws_trial *trial; /**< for the run-level port counters */
	time_t started, finished;
	enum fws_run_status status;
	char error[FWS_ERR_LEN]; /**< when status is error or path-check-failed */
	bool partial;
	unsigned int n_ports;
	struct fws_port_result ports[FWS_CFG_MAX_PORTS];
	unsigned int n_paths; /**< path check results, when it ran */
	struct fws_path_result paths[FWS_CFG_MAX_STREAMS];
	unsigned int n_results, cap_results;
	struct fws_result *results; /**< kept trials: fixed-rate, search goals, latency */
	unsigned int n_searches, cap_searches;
	struct fws_search_summary *searches;
	unsigned int n_b2b, cap_b2b;
	struct fws_b2b_summary *b2b;
	const struct fws_cells *carried; /**< sweep --resume: cells of the earlier report */
	struct json_t *carried_json;     /**< its trials, search, back_to_back of done cells */
	unsigned int n_done, cap_done;   /**< sweep cells this run completed */
	struct fws_cell_done *done;
	uint64_t hugepage_peak;
	uint64_t tsc_hz, tsc_hz_dpdk; /**< measured at setup (fws_clock), DPDK's estimate */
	unsigned int n_hosts;         /**< load clients with agents (0: this process only) */
	struct fws_host_info hosts[FWS_CFG_MAX_HOSTS + 1];
};

#endif /* FWS_RUN_H */
