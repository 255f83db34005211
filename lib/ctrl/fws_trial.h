/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trials. fws_trial_create (lib/run/fws_agents.h) makes the controller's trial over the
 * agents of a config: the in-process one sets up ports, lcore roles, pools and flow tables
 * and resolves the gateways (EAL must be up), a remote one has its host's agent do so;
 * fws_trial_run runs one trial of a frame-size mix through its phase table
 * (fws_phase.c: warm-up, measure, stop, drain) over the agents (fws_agent.h) and merges
 * their counts into a struct fws_result (fws_merge.c); fws_trial_path_check probes each
 * stream alone first.
 */
#ifndef FWS_TRIAL_H
#define FWS_TRIAL_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "fws_agent_types.h"
#include "fws_config.h"
#include "fws_counters.h"
#include "fws_dutload.h"
#include "fws_telem.h"
#include "fws_featdata.h"
#include "fws_err.h"
#include "fws_hist.h"
#include "fws_nat.h"
#include "fws_frame.h"
#include "fws_rxstat.h"
#include "fws_size.h"
#include "fws_steady.h"

struct fws_trial;

/** Latency summary of a stream, ns. */
struct fws_lat {
	uint64_t count, min, max, p50, p90, p99, p999;
	double avg;
	double jitter; /**< RFC 3550 interarrival jitter */
	/** Frames that read as arriving before their stamp (taken as 0), and the deepest such
	 * reading: a sender's stamps mapped into another host's clock with an error larger
	 * than the path's latency (never beyond the map's bound when the bound holds). */
	uint64_t skewed;
	double skew_max_ns;
};

/** A stream split over several transmit ports: what one of them sent, by its own flows. */
struct fws_sender_result {
	char port[FWS_CFG_NAME_LEN];
	char host[FWS_CFG_NAME_LEN]; /**< the load client that owns the port ("local": this one) */
	uint32_t flow_lo, flow_hi;   /**< its flows [lo, hi) */
	struct fws_rxstat_sum rx;    /**< its flows' sums (a blocked flow's received: its leaks) */
};

struct fws_stream_result {
	char name[FWS_CFG_NAME_LEN];
	enum fws_dir dir;
	char tx_port[FWS_CFG_SENDERS_NAME_LEN]; /**< split over several: "lan+lan2" */
	char rx_port[FWS_CFG_NAME_LEN];
	uint32_t flows;
	double duration; /**< measured transmit time, s */
	double req_pps;  /**< requested; 0 = as fast as possible */
	bool unlimited;
	bool active; /**< it sent in this trial (a sweep cell or a probe may leave it out) */
	uint64_t tx_frames, tx_bytes, tx_refused, alloc_fail;
	/** The most frames a paced sender was behind its schedule at once, then sent back to
	 * back: the largest burst above the rate asked (a generator descheduled or slow). */
	uint64_t tx_behind;
	double tx_pps, tx_l1_bps, tx_l2_bps;
	double rx_pps, rx_l1_bps, rx_l2_bps;
	double loss_pct;
	bool generator_limited;
	/** Frames the receiving port's NIC or driver dropped during the trial (imissed, rx_nombuf
	 * and ierrors: the tester's, not the DUT's), shared by every stream it receives, and
	 * the loss no such miss can explain: lost_min minus them, at least 0. */
	uint64_t rx_missed;
	uint64_t lost_dut_min;
	uint64_t flows_split; /**< flows that arrived on more than one receive queue */
	struct fws_rxstat_sum rx;
	struct fws_lat lat;
	/** It carries a payload (an attack pattern): proof of inspection, not a matrix cell. */
	bool proof;
	/** Flows a feature set apart (its apart hook: the blocked feature's, those the DUT
	 * should block): their own sums, apart from rx (which holds only the rest, so loss is
	 * never blocking). */
	struct fws_rxstat_sum apart;
	unsigned int n_senders; /**< split over several transmit ports: each one's sums; else 0 */
	struct fws_sender_result senders[FWS_CFG_MAX_PORTS];
	/** Latency: the histogram's non-empty buckets, rising (owned by the result). */
	struct fws_cell_bucket *hist;
	unsigned int n_hist;
	/** The features' own result blocks (fws_featdata.h: the result's layout, fd). */
	_Alignas(8) unsigned char fd[FWS_FD_RESULT_BYTES];
};

/** What a result is: a run's trial, a search goal, a latency point, a back-to-back burst. */
#define FWS_RESULT_KINDS(X) X(RUN, "run") X(NDR, "ndr") X(PDR, "pdr") X(LAT, "lat") X(B2B, "b2b")
enum fws_result_kind {
#define FWS_RESULT_ENUM(n, s) FWS_RESULT_##n,
	FWS_RESULT_KINDS(FWS_RESULT_ENUM)
#undef FWS_RESULT_ENUM
};

/** "run", "ndr", "pdr", "b2b", or "lat50" for a latency point at 50 % of NDR. */
void fws_result_label(enum fws_result_kind kind, double lat_frac, char *buf, size_t len);

struct fws_result {
	/** Its number among the trials run (1 first; a search's discarded ones count): as the
	 * progress line and --stats number it. */
	unsigned int number;
	/** Of a cell measured "repeat" times, which measurement (1 first); 0: not repeated. */
	unsigned int repetition;
	enum fws_result_kind kind;
	double lat_frac;  /**< LAT: the load as a fraction of NDR */
	enum fws_dir dir; /**< a sweep cell's direction: cells use it for every stream */
	unsigned int size_idx;
	struct fws_size_mix size;
	char rfc6985[320];
	double avg_frame;
	uint32_t cookie;
	time_t started;
	double warmup, drain;
	bool partial;     /**< interrupted: counts are what was measured until then */
	bool lower_bound; /**< a search goal the generator or receiver limited (fws_search_goal) */
	/** A search goal no trial failed, the generator reaching every load: the configured
	 * maximum rate passed, so the goal is the config's cap, a lower bound of the DUT's. */
	bool capped;
	/** A goal the receiver limited: the frames the failing trial's receiving ports missed. */
	uint64_t tester_missed;
	double tsc_hz;     /**< TSC rate over the trial against CLOCK_MONOTONIC_RAW, 0: none */
	double rx_poll_ns; /**< a receiving worker's loop pass, average over the measured phase
			    * (the slowest worker): receive stamps are taken once per poll */
	double merge_s;    /**< the controller's time to read and merge every flow's counts */
	/** Load clients whose phases were armed for one instant (0: one host, no arming); the
	 * longest from an armed instant to a worker's switch (a request heard late, a worker
	 * not running then), ns; and how far apart the hosts' changes could be: the two widest
	 * clock probes' errors of a change, the largest over the trial, plus that lateness. */
	unsigned int phase_hosts;
	double phase_late_ns, phase_sync_ns;
	/** The measured phase's full seconds, as the live line has them (the last, partial
	 * one is not among them); heap, fws_result_free frees them. */
	struct fws_second *seconds;
	unsigned int n_seconds, cap_seconds;
	unsigned int seconds_dropped; /**< out of memory for more */
	struct fws_steady steady;     /**< the seconds against config steady_band */
	unsigned int n_streams;
	struct fws_stream_result streams[FWS_CFG_MAX_STREAMS];
	unsigned int n_ports;
	struct fws_port_result ports[FWS_CFG_MAX_PORTS];
	/** Where each feature's result blocks sit in a stream's fd and in fd_trial, and its
	 * hooks. */
	struct fws_fd_layout fd;
	/** The features' result blocks of the trial as a whole (lib/feat). */
	_Alignas(8) unsigned char fd_trial[FWS_FD_TRIAL_RESULT_BYTES];
};

/** What the progress callback sees once per second, and once with the trial's result. */
struct fws_progress {
	const char *phase; /**< "warm-up", "measure", or "result" (result is set) */
	double elapsed, total;
	uint64_t tx_frames, tx_bytes, rx_frames, rx_bytes; /**< since the phase began */
	double tx_pps, rx_pps, tx_bps, rx_bps; /**< over the last second; bit/s are L1 */
	bool rates; /**< the rates (here and per stream) cover an interval of this phase */
	unsigned int n_streams;
	const struct fws_live_stream *streams; /**< per config stream */
	const struct fws_result *result;       /**< phase "result": the trial just collected */
	const char *frame_size;                /**< the trial's frame-size entry */
	const char *direction;                 /**< a sweep cell's direction, or NULL */
};

/** Options of a trial run. */
struct fws_trial_opts {
	volatile int *stop; /**< set (by a signal handler) to end the trial early, partial */
	void (*progress)(void *arg, const struct fws_progress *p);
	void *progress_arg;
	double rate_scale; /**< 0 < scale <= 1: run every stream at this share of its rate */
	double duration;   /**< > 0: measured duration instead of the config's */
	uint32_t streams;  /**< bit s set: stream s sends; 0: all streams */
	uint64_t burst;    /**< > 0: each sending stream sends exactly this many frames at its
			        rate, no warm-up: a back-to-back trial */
	enum fws_result_kind kind; /**< what the result is (search goal, latency point, burst) */
	double lat_frac;           /**< LAT: the load as a fraction of NDR */
	enum fws_dir dir;          /**< a sweep cell's direction (upload, download, bidir) */
};

/**
 * Run the trial of frame-size mix size_idx. Returns 0 (res->partial tells whether it was
 * cut short) or -errno with the error in e.
 */
int fws_trial_run(struct fws_trial *t, unsigned int size_idx, const struct fws_trial_opts *o,
		  struct fws_result *res, struct fws_err *e);

/** What the path check saw for one stream. */
struct fws_path_result {
	char stream[FWS_CFG_NAME_LEN];
	uint64_t sent, received, wrong_port, icmp_errors;
	bool ok;
	bool skipped; /**< every flow is expected blocked: no probe could pass */
};

/**
 * Path check: before any load, send a short low-rate probe on each stream alone and check
 * that it arrives, on the stream's receive port only. Fills paths (one per stream, up to
 * the first that fails). Returns 0, or -EHOSTUNREACH with a message naming the stream and
 * what was seen (nothing, the wrong port, ICMP errors), or -EINTR when interrupted.
 */
int fws_trial_path_check(struct fws_trial *t, const struct fws_trial_opts *o,
			 struct fws_path_result *paths, struct fws_err *e);

/** Free the histograms a result owns. */
void fws_result_free(struct fws_result *res);

/** Largest hugepage memory (bytes) DPDK's heaps held during this trial object's life. */
uint64_t fws_trial_hugepage_peak(struct fws_trial *t);

/** The TSC rate measured at setup against CLOCK_MONOTONIC_RAW, and DPDK's estimate. */
void fws_trial_clock(const struct fws_trial *t, uint64_t *hz, uint64_t *hz_dpdk);

/** The load clients of the trial, in config order (with no hosts: this process); their
 * count. */
unsigned int fws_trial_hosts(const struct fws_trial *t, struct fws_host_info *out,
			     unsigned int max);

/** Agent k's clock probe as the one-way alignment takes it: of 8 exchanges over its control
 * link the shortest half round trip, ns (the error of a reading); -1 when it cannot be
 * probed. */
double fws_trial_probe_ns(struct fws_trial *t, unsigned int k);

/** Port facts for the report header. */
unsigned int fws_trial_ports(const struct fws_trial *t, struct fws_port_result *out);

void fws_trial_destroy(struct fws_trial *t);

/** Whether some port of cfg is this process's (names no host): EAL is needed here. */
bool fws_config_local_ports(const struct fws_cfg *cfg);

#endif /* FWS_TRIAL_H */
