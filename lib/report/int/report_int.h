/* SPDX-License-Identifier: BSD-3-Clause */
/* Inside lib/report: helpers the JSON and text reports share. */
#ifndef FWS_REPORT_INT_H
#define FWS_REPORT_INT_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include <jansson.h>

#include "fws_cell.h"
#include "fws_trial.h"

/** UTC time as ISO 8601 ("2026-11-30T07:41:48Z"). */
void fws_report_iso_time(time_t t, char *buf, size_t len);

/** Why a stream's rates need a note (generator-limited, refused, pool empty); "" if none. */
const char *fws_report_rate_note(const struct fws_stream_result *s, bool partial, char *buf,
				 size_t len);

/** A paced stream whose sender fell behind by more than 1 ms of frames (and 64 of them), then
 * caught up in a burst: the DUT did not see the constant rate asked. */
static inline bool
fws_report_stalled(const struct fws_stream_result *x)
{
	return x->req_pps > 0 && !x->unlimited && x->tx_behind > 64 &&
	       (double)x->tx_behind > x->req_pps * 1e-3;
}

struct fws_run;

/** The report's "cells": every complete trial's, then the carried ones (report_cells.c). */
json_t *fws_report_cells(const struct fws_run *run);

/** A cell as reports hold it: the schema of fws_cell.h. */
json_t *fws_report_cell_json(const struct fws_cell *c);

/** Room for one of fws_report_below_rfc's notes. */
#define FWS_REPORT_NOTE_LEN 160

/** What a sweep measured fewer times than RFC 2544 asks (its config lowered the count): up
 * to 2 notes into notes; how many. */
unsigned int fws_report_below_rfc(const struct fws_run *run, char (*notes)[FWS_REPORT_NOTE_LEN]);

struct fws_search_goal;
struct fws_search_summary;
struct fws_cfg_stream;

/** A search goal as reports hold it; result: its trial's index, -1: none. */
json_t *fws_report_goal_json(const struct fws_search_goal *g, int result);

/** The frames per second the transmit ports of a stream carry at most (their links add),
 * frames of avg_frame bytes; 0 when a link speed is unknown. */
double fws_report_line_pps(const struct fws_run *run, const struct fws_cfg_stream *cs,
			   double avg_frame);

/** A search goal in absolute figures, from the trial it stands on. */
struct fws_goal_figs {
	bool have;        /**< a trial behind it */
	double pps;       /**< offered by its active streams, frames/s */
	double l1_bps;    /**< the same in L1 bits/s */
	double line_pps;  /**< what their links carry at its frame size; 0: unknown */
	double asked_pps; /**< the load it asked for */
	double upper_pps; /**< the lowest load asked that failed the goal; 0: none did */
	double avg_frame;
};
void fws_report_goal_figs(const struct fws_run *run, const struct fws_search_summary *s, int g,
			  struct fws_goal_figs *out);

/** The load clients and their agents (report_hosts.c); NULL with none. */
json_t *fws_report_hosts_json(const struct fws_cfg *cfg, const struct fws_host_info *hosts,
			      unsigned int n);
/** Those of a run (its report's "hosts"). */
json_t *fws_report_hosts(const struct fws_run *run);

/** The same as text lines, one a host. */
void fws_report_hosts_text(FILE *f, const struct fws_cfg *cfg, const struct fws_host_info *hosts,
			   unsigned int n);

/** The ports' facts and run-level counters. */
json_t *fws_report_ports_json(const struct fws_port_result *ports, unsigned int n);
/** The features' table's layout (a port's facts carry its blocks by it). */
const struct fws_fd_layout *fws_report_fd(void);
/** A port's counts in one trial: trials[].ports[] (report_ports.c). */
json_t *fws_report_port_result_json(const struct fws_port_result *x,
				    const struct fws_fd_layout *fd);

#endif /* FWS_REPORT_INT_H */
