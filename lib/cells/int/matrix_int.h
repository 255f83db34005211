/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The matrix model shared by the renderers (fws_matrix.c: tables; matrix_html.c: the page
 * and its charts). Rows: scenario, frame size and result kind, over every report given.
 * Columns: per report (an appliance) its directions, in order of appearance.
 */
#ifndef FWS_MATRIX_INT_H
#define FWS_MATRIX_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "fws_cell.h"
#include "fws_matrix.h"

#define MAX_COLS 16
#define MATRIX_MAX_FIGS 8

/* A matrix row; per column the summed throughput and the trial's proof figures. */
struct row {
	const struct fws_cell *first;
	unsigned int scn; /**< its scenario's place: the first row of it, in the reports' order */
	double pps[MAX_COLS], l1[MAX_COLS], line[MAX_COLS], cpu[MAX_COLS];
	/** DUT telemetry (-1: none): the busiest core's mean, its own drops in the phase. */
	double core[MAX_COLS], dut_drops[MAX_COLS];
	double attack[MAX_COLS], attack_leaked[MAX_COLS], blocked_leaked[MAX_COLS];
	double goodput[MAX_COLS]; /**< derived from L1, or TCP's measured payload rate */
	bool measured[MAX_COLS];  /**< a cell of it measured its goodput (TCP) */
	bool has[MAX_COLS];
	bool limited[MAX_COLS]; /**< a cell of it was generator-limited */
	bool capped[MAX_COLS];  /**< a goal cell of it passed the configured maximum */
	double conn[MAX_COLS], conn_failed[MAX_COLS];   /**< connection tests' figures */
	double flood[MAX_COLS], flood_passed[MAX_COLS]; /**< a SYN flood in the trial, -1: none */
	double loss[MAX_COLS];                          /**< %, the column's worst stream */
	/** The streams the column's cells are: more than one, their figures are summed and its
	 * loss and latency the worst stream's (issue 51, item 8); their names, ", " apart. */
	unsigned int n_streams[MAX_COLS];
	char streams[MAX_COLS][72];
	double missed[MAX_COLS]; /**< frames the receiving ports missed (the tester's loss) */
	double p50[MAX_COLS], p99[MAX_COLS]; /**< ns, the worst stream's; 0: none */
	/** Cells measured "repeat" times: the fewest repetitions of the column's cells (0 or 1:
	 * one measurement; figures are medians otherwise) and the widest spread (CoV). */
	unsigned int reps[MAX_COLS];
	/** Of the fewest repetitions: those the DUT's figures are the median of (fewer than
	 * reps: a telemetry session or load command failed in the others). */
	unsigned int dut_reps[MAX_COLS];
	double spread[MAX_COLS];
	/** The widest spread (CoV) of repeated cells' latency medians; 0: none. */
	double lat_spread[MAX_COLS];
	/** A cell's trial left the steady band (a second off its mean beyond it), and the
	 * furthest second's distance from the mean, %. */
	bool unsteady[MAX_COLS];
	double worst_second[MAX_COLS];
	/** Why the column's figures are not the scenario's result (a cell's verdict: an
	 * expectation failed, a campaign scenario interrupted or failed); NULL: they are. */
	const char *verdict[MAX_COLS];
};

struct col {
	unsigned int set; /**< which report (appliance) */
	char dir[48];     /**< "upload", "download", "bidir upload", ... */
	char label[160];  /**< the direction; with several reports "APPLIANCE direction" */
};

struct row;

/** A figure of a direction's column group (matrix_figs.c): key (report --columns), heading
 * after the direction in a table, label in an HTML cell, whether ">=" marks a lower bound. */
struct matrix_fig {
	const char *key, *head, *label;
	bool bound;
	void (*value)(const struct row *x, unsigned int c, char *buf, size_t len);
};

extern const struct matrix_fig matrix_figs[];
extern const unsigned int matrix_n_figs;

/* Rows: at most one per cell. Cells in columns beyond MAX_COLS are counted, not shown. */
struct matrix {
	const struct fws_cells *sets;
	unsigned int n_sets;
	unsigned int n_cols, n_rows, left_out;
	struct col cols[MAX_COLS];
	struct row *rows;
	unsigned int n_crows; /**< connection tests' rows (their own table) */
	struct row *crows;
	const struct matrix_fig *figs[MATRIX_MAX_FIGS]; /**< per direction, in order */
	unsigned int n_figs;
};

/** The charts' series colours (matrix_html.c), in turn. */
#define MATRIX_COLOURS 8
extern const char *const matrix_colours[MATRIX_COLOURS];

/** s, HTML-escaped, to f. */
void matrix_html_escape(FILE *f, const char *s);

/** Each trial's DUT timeline (matrix_timeline.c): CPU per core and the load on one axis. */
void matrix_html_timelines(FILE *f, const struct matrix *m);

/** A cell's column direction: its own, and in a bidir trial its stream's half of it ("bidir
 * upload"); a bidir cell of a report older than 2.5 names no half: its column sums both. */
void matrix_cell_dir(const struct fws_cell *c, char *buf, size_t len);

/** The figures a --columns list names ("l1,mpps,loss"), in its order. 0 or -EINVAL (err). */
int matrix_pick_figs(const char *list, const struct matrix_fig **out, unsigned int *n, char *err,
		     size_t errlen);

/** The matrix shows figure key in its own column: the notes leave it out. */
bool matrix_shows(const struct matrix *m, const char *key);

/** Figure fg of column c of row x as its cell shows it (">= " for a lower bound, "(above
 * link)"); html: "&ge; ". */
const char *matrix_fig_text(const struct row *x, unsigned int c, const struct matrix_fig *fg,
			    bool html, char *buf, size_t len);

/** The connection tests' table, when the reports have any: Markdown, MediaWiki or HTML. */
void matrix_conn_table(FILE *f, const struct matrix *m, int fmt);

/** A sweep's back-to-back results, a row per report, frame size and direction, in format
 * fmt (markdown, mediawiki, html); nothing when no report has any. */
void matrix_b2b_table(FILE *f, const struct matrix *m, int fmt);

/** Each report's "BELOW RFC 2544" lines (a sweep measured fewer times than it asks), one
 * note each, in format fmt. */
void matrix_below_rfc(FILE *f, const struct matrix *m, int fmt);

/** An appliance's name: its DUT name, or "report N" (1-based) when the report has none. */
const char *matrix_set_name(const struct matrix *m, unsigned int set, char *buf, size_t len);

/** "NDR (0 loss)", "PDR", "fixed rate". */
const char *matrix_kind_name(const char *kind);

/** The notes of a row, derived from its cells' measurements. */
void matrix_row_notes(const struct matrix *m, const struct row *x, char *notes, size_t len);

/** Each note of column c of row x alone (no column label), one call of emit each. */
void matrix_col_notes(const struct matrix *m, const struct row *x, unsigned int c,
		      void (*emit)(void *arg, const char *text), void *arg);

/** Columns of set (first index and count). */
unsigned int matrix_set_cols(const struct matrix *m, unsigned int set, unsigned int *first);
/** s as a Markdown (wiki: MediaWiki) table cell holds it: its separators escaped. */
void matrix_table_str(FILE *f, const char *s, bool wiki);

/** Text from a report file into HTML: element content and quoted attributes alike. */
const char *matrix_esc(const char *s, char *buf, size_t len);

/** A verdict's short form for a figure's place ("expectation failed", "interrupted"). */
const char *matrix_verdict_word(const char *verdict, char *buf, size_t len);

/** A figure above what the link carries: measured on a virtual device, unpaced. */
bool matrix_above_link(const struct row *x, unsigned int col);

/** The banner of a report that ended early ("" when every report is whole). */
void matrix_partial_banner(const struct matrix *m, char *buf, size_t len);

/** The HTML page's table of the matrix and its numbered notes (matrix_table.c). */
void matrix_html_table(FILE *f, const struct matrix *m);

/** The matrix as CSV (matrix_csv.c): a row per cell, then per back-to-back result. */
void matrix_csv(FILE *f, const struct matrix *m);

/** The HTML page: appliances, the table, throughput charts, latency histograms. */
void matrix_html(FILE *f, const struct matrix *m);

#define GOODPUT_NOTE                                                                               \
	"* iperf Mbit/s: the TCP goodput iperf reports at MTU 1500 for that L1 rate, derived "     \
	"(not measured): L1 x 1448 / 1538 (1448 payload bytes per 1538-byte slot on the wire, "    \
	"TCP timestamps on), given for MTU-size frames only (1500 to 1522 bytes: \"-\" at "        \
	"other sizes, where no iperf run would show it). Where a note says so, TCP test traffic "  \
	"was measured and the column gives its payload rate instead, at any size."

#endif /* FWS_MATRIX_INT_H */
