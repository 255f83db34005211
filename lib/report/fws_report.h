/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reports: a run's results as a text table for people and as JSON for machines. The JSON
 * carries a schema version, the tool and DPDK versions, the normalised config, the ports and
 * every trial. Files are written atomically (temporary file, then rename).
 */
#ifndef FWS_REPORT_H
#define FWS_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "fws_config.h"
#include "fws_search.h"
#include "fws_trial.h"

/** A throughput search over one frame-size mix. */
struct fws_search_summary {
	char size[32];
	struct fws_search_goal goal[FWS_SEARCH_GOALS];
	int result[FWS_SEARCH_GOALS]; /**< the goal's trial in fws_run.results, -1: none */
	unsigned int n_trials;
	struct fws_search_trial trials[FWS_SEARCH_MAX_TRIALS];
};

#define FWS_REPORT_SCHEMA "fwstress-report/1"

struct json_t;

/** Back-to-back bursts of one sweep cell (RFC 2544 26.4, RFC 9004). */
struct fws_b2b_summary {
	char size[32], direction[16];
	uint64_t max_frames; /**< the longest burst tried */
	unsigned int n, trials;
	uint64_t bursts[100]; /**< longest loss-free burst of each repetition, frames */
	double avg, min, max, stddev;
};

struct fws_cells;

/** A whole run as the report sees it. */
struct fws_run {
	const struct fws_cfg *cfg;
	struct fws_trial *trial; /**< for the run-level port counters */
	time_t started, finished;
	const char *status; /**< "completed", "interrupted" or "error" */
	char error[512];    /**< when status is "error" */
	bool partial;
	unsigned int n_ports;
	struct fws_port_result ports[FWS_CFG_MAX_PORTS];
	unsigned int n_paths; /**< path check results, when it ran */
	struct fws_path_result paths[FWS_CFG_MAX_STREAMS];
	unsigned int n_results;
	struct fws_result *results; /**< one per frame-size mix run so far */
	unsigned int n_searches;
	struct fws_search_summary *searches; /**< fwstress search: one per frame-size mix */
	unsigned int n_b2b;
	struct fws_b2b_summary *b2b;
	const struct fws_cells *carried; /**< sweep --resume: cells of the earlier report */
	uint64_t hugepage_peak;
};

/** Text report (the table a person reads). */
void fws_report_text(FILE *f, const struct fws_run *run);

/** JSON report. */
struct json_t *fws_report_json(const struct fws_run *run);

/** Write text or JSON to path atomically. Returns 0 or -errno. */
int fws_report_write_json(const char *path, const struct fws_run *run);
int fws_report_write_text(const char *path, const struct fws_run *run);

/** One progress line (stderr while running). */
void fws_report_progress(FILE *f, const struct fws_progress *p);

#endif /* FWS_REPORT_H */
