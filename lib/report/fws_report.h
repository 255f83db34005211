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

#include "fws_cells_io.h"
#include "fws_config.h"
#include "fws_run.h"

#include "fws_cell.h" /* FWS_REPORT_SCHEMA */

struct json_t;

/** Text report (the table a person reads). */
void fws_report_text(FILE *f, const struct fws_run *run);

/** JSON report. */
struct json_t *fws_report_json(const struct fws_run *run);

/**
 * The streams whose configured rate (pps or bit/s) is above what their transmit links carry
 * at one of the configured frame sizes (issue 51, item 9: "25Gbit" on a 10G port): a line
 * each on f after prefix, before the run and in the text report. How many.
 */
unsigned int fws_report_above_link(FILE *f, const char *prefix, const struct fws_run *run);

/** Write text or JSON to path atomically. Returns 0 or -errno. */
int fws_report_write_json(const char *path, const struct fws_run *run);
int fws_report_write_text(const char *path, const struct fws_run *run);

/**
 * The live line on f: trial (1-based) of about of, frame size, direction, phase, rates in L1,
 * and the time left (least_s to left_s; one figure when they agree; none when left_s < 0).
 */
void fws_report_progress(FILE *f, const struct fws_progress *p, unsigned int trial, unsigned int of,
			 double least_s, double left_s);

struct fws_connrun;

/** A connection test's report (fwstress connections): JSON, written atomically, and text. */
struct json_t *fws_report_conn_json(const struct fws_connrun *run);
int fws_report_conn_write_json(const char *path, const struct fws_connrun *run);
void fws_report_conn_text(FILE *f, const struct fws_connrun *run);

struct fws_campaign;

/**
 * Write a campaign's report to path (atomically): schema, DUT, the plan's scenarios with
 * status, exit code, reason, time and report file, and the cells of every scenario (cells[i]
 * are scenario i's), each labelled with its scenario's name. partial: the campaign did not
 * get to its end. 0 or -errno.
 */
int fws_report_campaign(const char *path, const struct fws_campaign *p,
			const struct fws_cells *cells, const char *started, bool partial);

/**
 * Take the statuses of an earlier campaign report at path into p (by scenario name).
 * 0, -ENOENT when there is none, or another -errno with err.
 */
int fws_campaign_resume(struct fws_campaign *p, const char *path, char *err, size_t errlen);

/** What the progress line needs of one NDJSON line of --stats. */
struct fws_live_brief {
	int trial;
	bool result; /**< a trial's result line */
	char phase[16];
	char frame_size[32];
	char direction[16]; /**< "" when the line has none */
};

/** Parse one --stats line. 0 or -EINVAL. */
int fws_campaign_live_brief(const char *line, size_t len, struct fws_live_brief *b);

#endif /* FWS_REPORT_H */
