/* SPDX-License-Identifier: BSD-3-Clause */
/* The trial object, shared by lib/run's files (create, phases, collect, path check). */
#ifndef FWS_TRIAL_INT_H
#define FWS_TRIAL_INT_H

#include <stdint.h>

#include "fws_ctlio.h"
#include "fws_feature.h"
#include "fws_nat.h"
#include "fws_port.h"
#include "fws_rx.h"
#include "fws_trial.h"
#include "fws_tcp.h"
#include "fws_tx.h"
#include "fws_worker.h"

#define FWS_LOGTYPE fws_logtype_trial
#include "fws_log.h"
extern int fws_logtype_trial;

struct fws_trial {
	const struct fws_cfg *cfg;
	uint64_t hz;      /**< TSC rate calibrated at setup (fws_clock) */
	uint64_t hz_dpdk; /**< rte_get_tsc_hz(), for the report */
	uint16_t max_frame;
	uint16_t nb_rxq; /**< receive queues of every port: one per receive lcore */
	struct fws_port_info port[FWS_CFG_MAX_PORTS];
	struct fws_ctlio ctl;
	struct fws_sync sync;
	uint32_t warm_cookie;
	unsigned int n_workers;
	struct fws_worker *workers; /**< one per lcore that transmits or receives */
	unsigned int n_tasks;
	struct fws_tx_task *tasks; /**< one per (stream, TX lcore with flows of it) */
	struct fws_pkt_flow *txflows[FWS_CFG_MAX_STREAMS];
	unsigned int n_rx;
	struct fws_rx_lcore *rx[FWS_CFG_MAX_LCORES];
	/* Frames of finished trials, all phases, per port: test and other frames counted by
	 * the receive lcores and transmit tasks; the control plane's are in ctl. */
	uint64_t rx_total[FWS_CFG_MAX_PORTS], tx_total[FWS_CFG_MAX_PORTS];
	uint64_t rx_control[FWS_CFG_MAX_PORTS]; /**< of rx_total: control frames */
	uint64_t hugepage_peak;
	uint64_t fill_seed; /**< the "random" fill's, for the run */
	/* Where each download stream's flows are aimed (fws_trial_aim): per stream the flows
	 * its last aim found a translation for and the tuples its flows must arrive with (the
	 * LAN flows they answer), network order; NULL before any aim. */
	uint32_t nat_learned[FWS_CFG_MAX_STREAMS];
	struct fws_nat_tuple *nat_want[FWS_CFG_MAX_STREAMS];
	/* Per stream with "expect": per flow, 1 when the DUT should block it; their count. */
	uint8_t *blocked[FWS_CFG_MAX_STREAMS];
	uint32_t n_blocked[FWS_CFG_MAX_STREAMS];
	/* The features' own state (fws_feature.h), by table index; set up: destroy owed. */
	void *feat[FWS_FEATURES_MAX];
	bool feat_ready[FWS_FEATURES_MAX];
};

/** The headers stream s is built from (fws_trial.c). */
void fws_trial_stream_hdr(const struct fws_trial *t, unsigned int s, struct fws_pkt_hdr *hdr);

/**
 * Point download stream d's flows at where their LAN flows were seen arriving on the WAN
 * side (seen: the translated source of flow i, false when never seen; those flows keep
 * their own destination and count as lost) and remember the LAN flows they must reach.
 * Used by NAT learning (a UDP learner) and TCP streams (the SYNs). 0 or -ENOMEM.
 */
int fws_trial_aim(struct fws_trial *t, unsigned int d,
		  bool (*seen)(void *arg, unsigned int d, uint32_t i, struct fws_nat_tuple *at),
		  void *arg);

/** How flow i of stream s arrived (its NAT observation), merged over the receive lcores. */
struct fws_natobs fws_trial_observed(const struct fws_trial *t, unsigned int s, uint32_t i);

/** Sample DPDK's heaps into t->hugepage_peak. */
void fws_trial_sample_hugepages(struct fws_trial *t);

/** Fill res's streams and ports after a trial; req_pps per stream as it was asked. */
void fws_trial_collect(struct fws_trial *t, const double *req_pps,
		       const struct rte_eth_stats *before, struct fws_result *res);

/** Live totals of the running phase for the progress line. */
void fws_trial_live(const struct fws_trial *t, bool warm, struct fws_progress *p);

/** Live per-stream counters and latency of the running phase into out[stream]. */
void fws_trial_live_streams(const struct fws_trial *t, bool warm, struct fws_live_stream *out);

/* A probe: exactly frames frames of one stream at pps; duration caps the time it may take.
 * The path check sends one per stream, NAT learning one per learner. */
struct fws_probe {
	unsigned int stream;
	uint64_t frames;
	double pps, duration, drain;
};

/**
 * The phases of one trial (pr NULL) or probe of frame-size mix size_idx, collected into res,
 * without the features' prepare and after hooks (a feature's prepare sends probes through
 * it). 0 or -errno with e set.
 */
int fws_trial_run_probe(struct fws_trial *t, unsigned int size_idx, const struct fws_trial_opts *o,
			const struct fws_probe *pr, struct fws_result *res, struct fws_err *e);

/**
 * Prepare the streams of mask (bit s; 0: all) through every feature, run the trial or probe,
 * then every feature's after hook (with res for a trial that ran, NULL otherwise).
 */
int fws_trial_run_streams(struct fws_trial *t, unsigned int size_idx,
			  const struct fws_trial_opts *o, uint32_t mask, const struct fws_probe *pr,
			  struct fws_result *res, struct fws_err *e);

#endif /* FWS_TRIAL_INT_H */
