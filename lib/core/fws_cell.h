/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Cells: one measured figure of a qualification matrix (scenario x kind x direction x
 * stream x frame size), as every report carries them in "cells". Matrix renderers and the
 * regression compare work on cells, so they read any report, old or new.
 */
#ifndef FWS_CELL_H
#define FWS_CELL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fws_hist.h"
#include "fws_stats.h"
#include "fws_telem.h"

/*
 * What a report says it is ("schema": "fwstress-report/MAJOR.MINOR"; docs/reference/report-schema.md).
 * A key renamed, removed or given a new meaning is a new major version, a key added a new
 * minor one. report and compare read every major version up to this one (1 was written as
 * "fwstress-report/1") and any minor one: keys they do not know are ignored.
 */
#define FWS_REPORT_SCHEMA_NAME "fwstress-report/"
#define FWS_REPORT_MAJOR 2
#define FWS_REPORT_MINOR 12
#define FWS_REPORT_STR_(x) #x
#define FWS_REPORT_STR(x) FWS_REPORT_STR_(x)
#define FWS_REPORT_SCHEMA                                                                          \
	FWS_REPORT_SCHEMA_NAME FWS_REPORT_STR(FWS_REPORT_MAJOR) "." FWS_REPORT_STR(FWS_REPORT_MINOR)

/*
 * The TCP goodput an iperf run at MTU 1500 reports for an L1 rate, so that cells line up
 * with the iperf tables labs published for years: with TCP timestamps each 1538-byte slot
 * on the wire (1500 MTU + 14 Ethernet + 4 FCS + 20 preamble and gap) carries 1448 payload
 * bytes: 941.5 Mbit/s at 1 GbE, 2.354 Gbit/s at 2.5 GbE. Derived, never measured.
 */
#define FWS_GOODPUT_PAYLOAD 1448
#define FWS_GOODPUT_SLOT 1538
#define FWS_GOODPUT_FORMULA                                                                        \
	"goodput_derived_bps = l1_bps * 1448 / 1538: the TCP goodput iperf reports at MTU 1500 "   \
	"with TCP timestamps for that L1 rate (1448 payload bytes per 1538-byte slot on the "      \
	"wire); derived, not measured, except in cells with goodput_measured 1 (TCP streams): "    \
	"pps * (avg_frame - 4 FCS - Ethernet - 20 IPv4 - 32 TCP) * 8, the measured payload rate"

static inline double
fws_goodput_derived(double l1_bps)
{
	return l1_bps * FWS_GOODPUT_PAYLOAD / FWS_GOODPUT_SLOT;
}

/** A connection test's cell kind (fwstress connections): its figure is "connections". */
static inline bool
fws_cell_is_conn(const char *kind)
{
	return !strncmp(kind, "cps", 3) || !strcmp(kind, "sessions") ||
	       !strncmp(kind, "teardown", 8);
}

struct fws_cell;

/** What compare weighs in a cell, by its kind: throughput (Mpps) for run, ndr and pdr
 * cells, a connection test's figure, the 99th percentile of latency for a latency point. */
struct fws_cell_measure {
	const char *name;  /**< "throughput", "connections", "latency p99" */
	const char *unit;  /**< as compare prints the figure */
	double scale;      /**< the figure divided by this is in unit */
	bool lower_better; /**< latency: a higher figure is worse */
	double (*get)(const struct fws_cell *c);
};

/** The measure of a cell's kind. */
const struct fws_cell_measure *fws_cell_measure(const struct fws_cell *c);

/** The value at quantile q (0 < q <= 1) of a cell's histogram (buckets by rising lo):
 * nearest rank, the middle of its bucket, as fws_hist_quantile; 0 when empty. */
double fws_cell_hist_quantile(const struct fws_cell *c, double q);

/** What compare weighs: the cell's measure's figure. */
double fws_cell_figure(const struct fws_cell *c);

/*
 * The cell schema: member and report key, once, for the writer (lib/report) and the reader
 * (lib/report/report_read.c). Strings are X(member, key, required): one that is not required
 * reads as "" when absent (reports older than it). A number that is absent or null reads as
 * its default, and a number below zero whose default is below zero is written as null.
 * Numbers are X(member, key, default, lowest, highest): a report with a value outside is
 * refused when read.
 */
#define FWS_CELL_STRINGS(X)                                                                        \
	X(scenario, "scenario", true)                                                              \
	X(kind, "kind", true)                                                                      \
	X(direction, "direction", true)                                                            \
	X(stream, "stream", true)                                                                  \
	X(size, "frame_size", true)                                                                \
	X(stream_dir, "stream_direction", false)                                                   \
	X(verdict, "verdict", false)
#define FWS_CELL_NUMBERS(X)                                                                        \
	X(avg_frame, "avg_frame", 0, 0, 65535)                                                     \
	X(pps, "pps", 0, 0, 1e12)                                                                  \
	X(l1_bps, "l1_bps", 0, 0, 1e15)                                                            \
	X(l2_bps, "l2_bps", 0, 0, 1e15)                                                            \
	X(goodput_bps, "goodput_derived_bps", 0, 0, 1e15)                                          \
	X(loss_pct, "loss_pct", 0, 0, 100)                                                         \
	X(p50_ns, "latency_p50_ns", 0, 0, 1e13)                                                    \
	X(p99_ns, "latency_p99_ns", 0, 0, 1e13)                                                    \
	X(line_pps, "line_pps", 0, 0, 1e12)                                                        \
	X(dut_cpu, "dut_cpu_pct", -1, 0, 100)                                                      \
	X(generator_limited, "generator_limited", 0, 0, 1)                                         \
	X(attack_frames, "attack_frames", -1, 0, 1e15)                                             \
	X(attack_leaked, "attack_leaked", -1, 0, 1e15)                                             \
	X(blocked_leaked, "blocked_leaked", -1, 0, 1e15)                                           \
	X(goodput_measured, "goodput_measured", 0, 0, 1)                                           \
	X(connections, "connections", -1, 0, 1e12)                                                 \
	X(conn_failed, "connections_failed", -1, 0, 1e15)                                          \
	X(flood_pps, "syn_flood_pps", -1, 0, 1e12)                                                 \
	X(flood_passed, "syn_flood_passed", -1, 0, 1e15)                                           \
	X(above_link, "above_link", 0, 0, 1)                                                       \
	X(rx_missed, "receiver_missed", 0, 0, 1e15)                                                \
	X(unsteady, "unsteady", -1, 0, 1)                                                          \
	X(worst_second, "worst_second_pct", -1, 0, 1e6)                                            \
	X(dut_core, "dut_busiest_core_pct", -1, 0, 100)                                            \
	X(dut_states, "dut_states", -1, 0, FWS_TELEM_STATES_MAX)                                   \
	X(dut_drops, "dut_drops", -1, 0, FWS_TELEM_COUNT_MAX)                                      \
	X(capped, "capped_by_config", 0, 0, 1)
/* Written only in a cell of a repeated measurement, read as -1 where absent. */
#define FWS_CELL_REP_KEY "repetition"
#define FWS_CELL_HIST_KEY "latency_histogram"

struct fws_cell {
	char scenario[32];
	char kind[16]; /**< "run", "ndr", "pdr", "lat50", ...: what fws_result_label writes;
			* connection tests: "cps", "sessions", "teardown" */
	/** The trial's direction: upload, download, or bidir when both ran at once (a sweep's
	 * bidir cell, a run of a bidir config); "custom" for streams without a role. */
	char direction[32];
	char stream[32];
	char size[32];
	/** The stream's own direction (in a bidir trial, which half the cell is); "" in
	 * reports older than 2.5. */
	char stream_dir[16];
	/** "ok", or why the figures are not the scenario's result: "expectation failed: ...",
	 * "interrupted", "failed: ..." (a campaign scenario's status). "" (older reports): ok. */
	char verdict[200];
	double avg_frame;
	double pps; /**< throughput: received (run) or offered at the goal (ndr/pdr) */
	double l1_bps, l2_bps;
	double loss_pct;
	double p50_ns, p99_ns;
	double line_pps; /**< theoretical maximum at the link speed, 0 unknown */
	double dut_cpu;  /**< DUT CPU load %, negative when not measured */
	/** DUT telemetry (-1: none): its busiest core's mean over the measured phase, its state
	 * table at the end of it, and its own drops and errors in it (every interface). */
	double dut_core, dut_states, dut_drops;
	/** 1: the generator could not reach the load. An ndr/pdr cell is then a lower bound
	 * (no trial lost frames: the generator's ceiling, not the DUT's); a run cell's load
	 * fell short of the requested rate. */
	double generator_limited;
	/** 1: an ndr/pdr cell whose search never found a load that failed its goal: the
	 * configured maximum passed, so the figure is the config's cap (a lower bound). */
	double capped;
	double goodput_bps; /**< derived: fws_goodput_derived(l1_bps); TCP: measured */
	/** 1: a TCP stream's cell: goodput_bps is its data segments' payload rate, measured. */
	double goodput_measured;
	/* Proof of inspection, from the cell's trial (every cell of a trial has the same; -1:
	 * the trial had no such stream): attack frames sent, of those the ones that leaked
	 * where the scenario expects them blocked (IPS; -1 where they should pass, IDS), and
	 * frames that leaked to other flows expected blocked (blocklists). */
	double attack_frames, attack_leaked, blocked_leaked;
	/** Connection tests (-1 in other cells): the figure (cps and teardown: per second at
	 * NDR; sessions: connections held when the first failed) and the failed connections of
	 * its trial. */
	double connections, conn_failed;
	/** A SYN flood beside the cell's stream in its trial (-1: none): its rate sent and the
	 * SYNs that passed the DUT (RFC 3511 5.5). */
	double flood_pps, flood_passed;
	/** 1: pps above what the transmit links carry (line_pps): measured on a virtual
	 * device, unpaced; not a wire rate, never "line rate reached". */
	double above_link;
	/** > 0: TESTER-LIMITED: frames the receiving port missed in its NIC or driver where it
	 * mattered (a run cell: its trial lost frames while the port missed these; an ndr/pdr
	 * cell: a trial that failed the goal lost no more than its receivers missed, so the
	 * cell is a lower bound). The tester's loss, not the DUT's. */
	double rx_missed;
	/** Steadiness within the trial (-1: no full second measured): 1 when a second's
	 * receive rate left the band around the trial's mean (config steady_band) and the
	 * generator did not limit it; the second furthest from the mean, its distance in % of
	 * the mean. */
	double unsteady, worst_second;
	/** Of a cell measured "repeat" times, which measurement (1 first); -1: not repeated.
	 * Read back, a cell's repetitions are one cell (fws_cells_collapse): reps of them. */
	double repetition;
	unsigned int n_hist;
	struct fws_cell_bucket *hist; /**< latency histogram, non-empty buckets */
	/** Repetitions read back as one cell (0 or 1: a single measurement): its figures are
	 * each the median of theirs (flags: set in any, the histogram their sum), values the
	 * measure's figure of each (fws_cell_measure, in repetition order), spread theirs. */
	unsigned int reps;
	/** Of them, those with the DUT's figures (dut_cpu measured): the DUT's figures are
	 * their median. */
	unsigned int dut_reps;
	double *values;
	struct fws_stats spread;
	/** Of repetitions with a latency histogram: the spread of their medians (p50_ns each);
	 * the cell's p50_ns and p99_ns are then the summed histogram's (n 0: none). */
	struct fws_stats lat_medians;
	/** Of repetitions: the spread of their loss_pct (n 0: none); compare weighs a run
	 * cell's loss by it. */
	struct fws_stats loss_spread;
};

/** A sweep cell (direction x frame-size entry) whose every trial completed. */
/** A unit of work a report completed: a sweep cell (direction x frame-size entry, every
 * trial of it; repetition 0), or one repetition of a run or search cell (a frame-size
 * entry; direction ""; repetition 1 first, 1 also for a cell measured once). */
struct fws_cell_done {
	char direction[32];
	char size[32];
	unsigned int repetition;
};

#define FWS_TIMELINE_CPUS 256
#define FWS_TIMELINE_SECONDS 7200
#define FWS_TIMELINES_MAX 64

/** A trial's DUT timeline, for the HTML report: its telemetry's seconds (trials[].
 * dut_telemetry.seconds) and its load (trials[].seconds.rx_pps) on one time axis. */
struct fws_timeline {
	unsigned int trial; /**< its index among the report's trials (0 first) */
	char size[32];      /**< its frame size */
	char direction[32]; /**< a sweep cell's direction; "" none */
	char kind[16];      /**< what the trial was for ("ndr", "lat50", ...); "" a plain trial */
	unsigned int n, n_cpu;
	double *t, *dt, *cpu; /**< n each: a second's start (s since the trial began), its
			       * length, % busy */
	double *cores;        /**< n * n_cpu: each core's % (NAN where a second lacks it) */
	double m0, m1;        /**< the measured phase (its seconds' span); m0 < 0: none */
	unsigned int n_load;
	double *load; /**< per measured second from m0: frames/s received */
};

/** A sweep's back-to-back result of one frame size and direction (RFC 2544 26.4): the
 * longest burst at line rate that passed without loss, over its repetitions. */
struct fws_cell_b2b {
	char scenario[32]; /**< the report's scenario; "" not said */
	char size[32], direction[32];
	double avg, min, max; /**< frames */
	double max_frames;    /**< the longest burst tried (-1: not said) */
	unsigned int trials;  /**< repetitions */
	bool generator_limited;
};

struct fws_cells {
	char dut[64], firmware[64], started[32];
	/** What the user calls it (report --label): heads its column group; "" none. */
	char label[64];
	char tool[128]; /**< what wrote it: "fwstress 0.1.0 (commit C, DPDK 22.11.11)" */
	/** The run ended before its end (interrupted, a fault): its "partial", and its
	 * "status" when it said one. */
	bool partial;
	char status[400];
	unsigned int major, minor; /**< the report's schema version */
	unsigned int n;
	struct fws_cell *c;
	/** The report's "sweep_done" (has_done: it had one): sweep --resume skips these cells,
	 * runs every other one again and carries only their cells. */
	bool has_done;
	unsigned int n_done;
	struct fws_cell_done *done;
	/** Trials with DUT telemetry: their timelines (at most FWS_TIMELINES_MAX). */
	unsigned int n_timelines;
	struct fws_timeline *timelines;
	/** A sweep's back-to-back results (its "back_to_back"), and what it measured fewer
	 * times than RFC 2544 asks (its "below_rfc" lines, joined by "; "; "" none). */
	unsigned int n_b2b;
	struct fws_cell_b2b *b2b;
	char below_rfc[512];
};

/** The cell's figures are the scenario's result: no verdict against them. */
static inline bool
fws_cell_ok(const struct fws_cell *c)
{
	return c->verdict[0] == '\0' || strcmp(c->verdict, "ok") == 0;
}

/** Whether the sweep cell (direction, size) is in cells' done list. */
bool fws_cells_done(const struct fws_cells *cells, const char *direction, const char *size);

/** Whether a run or search report completed repetition rep (1 first) of frame size size. */
bool fws_cells_rep_done(const struct fws_cells *cells, const char *size, unsigned int rep);

void fws_cells_free(struct fws_cells *cells);

/**
 * Whether only and dirs are lists fws_cells_pick takes (report --only, --directions): comma
 * lists of result kinds (ndr, pdr, lat: every latency point, latNN, run, b2b, and the
 * connection tests' cps, cps-fixed, sessions, teardown, teardown-fixed) and of directions
 * (upload, download, bidir: both halves, custom); NULL: any. 0, or -EINVAL with why in err.
 */
int fws_cells_pick_check(const char *only, const char *dirs, char *err, size_t len);

/** Keep of cells only the cells, back-to-back results and DUT timelines of a kind in only
 * and a direction in dirs (lists fws_cells_pick_check took; NULL: any). */
void fws_cells_pick(struct fws_cells *cells, const char *only, const char *dirs);

/** "scenario/kind/direction/stream/size": how compare lines cells up. */
void fws_cell_key(const struct fws_cell *c, char *buf, size_t len);

enum fws_cell_verdict {
	FWS_CELL_SAME = 0,
	FWS_CELL_BETTER,
	FWS_CELL_WORSE,
	FWS_CELL_ONLY_OLD, /**< no longer measured */
	FWS_CELL_ONLY_NEW,
	FWS_CELL_SKIPPED, /**< not weighed: why says why (tester-limited, no result) */
	/** Noise measured (repetitions on a side), the change beyond the tolerance but not
	 * with 95 % confidence: noise cannot be told from a change. */
	FWS_CELL_INCONCLUSIVE,
};

struct fws_cell_cmp {
	const struct fws_cell *old, *new_;
	double change; /**< relative change of the measure's figure, new/old - 1 */
	enum fws_cell_verdict verdict;
	const char *why; /**< SKIPPED: why the cells were not weighed */
	/** No noise measured (one measurement on each side, or an old lower bound): the
	 * tolerance alone decided; a weaker verdict. */
	bool single;
	/** With noise measured: the one-sided 95 % half-width of the change of means (Welch's
	 * t, a fraction) and one repetition's noise (the sides' pooled standard deviation over
	 * the old mean). */
	double half, noise;
	/** INCONCLUSIVE: repetitions per side that would resolve it at this noise (more than
	 * 1000: 1001). */
	unsigned int reps_needed;
	double loss_change; /**< run cells: new loss - old loss, percentage points (means of
			     * the repetitions where measured repeatedly) */
	bool loss_worse;    /**< WORSE for its loss (beyond the loss tolerance) */
};

/** How far a figure may move before compare calls it better or worse, per measure: throughput
 * and connections (tolerance), latency (latency, noisier at microseconds), fractions; loss
 * at a fixed rate (loss, a fraction of the frames: 0.0001 is 0.01 %). */
struct fws_cell_tolerance {
	double tolerance, latency, loss;
};

/**
 * Every cell's repetitions (cells with a repetition, one key) into one cell, in the place of
 * the first: figures the median of theirs, flags and the tester's limits the worst, the
 * histogram their sum, values and spread the measure's (fws_stats.h). 0 or -ENOMEM.
 */
int fws_cells_collapse(struct fws_cells *cells);

/**
 * Line up the cells of two reports by key and weigh each by its measure. With noise measured
 * (repetitions on a side; docs/methodology.md): WORSE (BETTER) when the change of means is
 * beyond the tolerance with 95 % confidence (Welch's t, one-sided), INCONCLUSIVE when beyond
 * it without, same within it (the boundary included). With one measurement on each side
 * (single): the tolerance alone. A run cell whose loss rose by more than the loss tolerance
 * is WORSE too. A figure that is not the DUT's is not
 * weighed (SKIPPED): a cell with a verdict (an expectation failed, an interrupted scenario),
 * one above the link speed, and a new generator-limited lower bound; an old lower bound is
 * WORSE only when the new figure is below it. Fills a malloc'd array of rows (the caller frees
 * it) and returns how many cells got worse, or -ENOMEM.
 */
int fws_cell_compare(const struct fws_cells *old, const struct fws_cells *new_,
		     const struct fws_cell_tolerance *tol, struct fws_cell_cmp **rows,
		     unsigned int *n_rows);

#endif /* FWS_CELL_H */
