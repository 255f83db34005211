/* SPDX-License-Identifier: BSD-3-Clause */
/* The trial object, shared by lib/run's files (create, phases, collect, path check). */
#ifndef FWS_TRIAL_INT_H
#define FWS_TRIAL_INT_H

#include <stdint.h>

#include "fws_ctlio.h"
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
	/* ICMP errors of the current trial (fws_icmp.c), per stream and about none. */
	struct fws_icmp_tally icmp[FWS_CFG_MAX_STREAMS];
	uint64_t icmp_unmatched;
	/* NAT (fws_natlearn.c): per download stream, the flows its last learn phase taught and
	 * the tuples its flows must arrive with (the LAN flows they answer), network order. */
	uint32_t nat_learned[FWS_CFG_MAX_STREAMS];
	struct fws_nat_tuple *nat_want[FWS_CFG_MAX_STREAMS];
	/* TCP streams (fws_tcpconn.c): the connections, and per flow the data sender's state
	 * the transmit lcores read (engine "tcp"); NULL without TCP streams. */
	struct fws_tcpconn *tcp;
	struct fws_tcp_txflow *tcptx[FWS_CFG_MAX_STREAMS];
	/* Per stream with "expect": per flow, 1 when the DUT should block it; their count. */
	uint8_t *blocked[FWS_CFG_MAX_STREAMS];
	uint32_t n_blocked[FWS_CFG_MAX_STREAMS];
};

/** The headers stream s is built from (fws_trial.c). */
void fws_trial_stream_hdr(const struct fws_trial *t, unsigned int s, struct fws_pkt_hdr *hdr);

/**
 * NAT learn phase (RFC 9693): for every download stream of mask (bit s, 0: all) that has a
 * learner, send learn_frames per flow of the learner at learn_pps, and point each download
 * flow at the source address and port its learner flow arrived with on the WAN side. Flows
 * not learned keep their untranslated destination (they count as lost).
 */
int fws_nat_learn(struct fws_trial *t, const struct fws_trial_opts *o, uint32_t mask,
		  unsigned int size_idx, struct fws_err *e);

/** ICMP errors to the main lcore and matched to streams (after the receive lcores exist);
 * the tallies zeroed at each trial's start. */
void fws_icmp_setup(struct fws_trial *t);
void fws_icmp_reset(struct fws_trial *t);

/** The TCP connections' state (after the receive lcores exist). 0 or -ENOMEM. */
int fws_tcp_create(struct fws_trial *t);
void fws_tcp_destroy(struct fws_trial *t);

/**
 * Open every connection of the TCP streams of mask (bit s, 0: all), workers stopped: SYN,
 * SYN-ACK, ACK, the receiver's window. Connections that do not open are counted by reason
 * and send anyway. 0, or -EINTR on a stop request.
 */
int fws_tcp_open(struct fws_trial *t, const struct fws_trial_opts *o, uint32_t mask,
		 struct fws_err *e);

/** While the trial runs (each pass of the main loop): the receivers' ACKs. */
void fws_tcp_service(struct fws_trial *t);

/** After the trial, workers stopped: FIN both ways; the streams' TCP results into res. */
void fws_tcp_close(struct fws_trial *t, struct fws_result *res);

/**
 * Point download stream d's flows at where their LAN flows were seen arriving on the WAN
 * side (seen: the translated source of flow i, false when never seen; those flows keep
 * their own destination and count as lost) and remember the LAN flows they must reach.
 * 0 or -ENOMEM.
 */
int fws_nat_aim(struct fws_trial *t, unsigned int d,
		bool (*seen)(const struct fws_trial *t, unsigned int d, uint32_t i,
			     struct fws_nat_tuple *at));

/** Stream s's NAT summary and verdict into sr (when the config has "nat"). */
int fws_nat_collect(const struct fws_trial *t, unsigned int s, struct fws_stream_result *sr);

/** Sample DPDK's heaps into t->hugepage_peak. */
void fws_trial_sample_hugepages(struct fws_trial *t);

/** Fill res's streams and ports after a trial; req_pps per stream as it was asked. */
void fws_trial_collect(struct fws_trial *t, const double *req_pps,
		       const struct rte_eth_stats *before, struct fws_result *res);

/** Live totals of the running phase for the progress line. */
void fws_trial_live(const struct fws_trial *t, bool warm, struct fws_progress *p);

/** Live per-stream counters and latency of the running phase into out[stream]. */
void fws_trial_live_streams(const struct fws_trial *t, bool warm, struct fws_live_stream *out);

/*
 * Link watch: the main lcore looks at every port's link each pass of its phase loop (5 ms)
 * and records each time one goes down and comes back, with the test frames the streams to
 * and from it sent meanwhile. A link down at the start is an event at 0 s.
 */
struct fws_linkwatch {
	uint64_t start;                    /**< TSC at the start of the trial */
	bool up[FWS_CFG_MAX_PORTS];        /**< as last seen */
	int open[FWS_CFG_MAX_PORTS];       /**< the event of a port that is down, or -1 */
	uint64_t sent0[FWS_CFG_MAX_PORTS]; /**< its frames sent when it went down */
};

void fws_linkwatch_start(struct fws_linkwatch *lw, const struct fws_trial *t, uint64_t start,
			 struct fws_result *res);
void fws_linkwatch_poll(struct fws_linkwatch *lw, const struct fws_trial *t, uint64_t now,
			struct fws_result *res);
/** Close the events of links still down at the end of the trial. */
void fws_linkwatch_end(struct fws_linkwatch *lw, const struct fws_trial *t, struct fws_result *res);

/** A path-check probe: one stream at a low rate, briefly; NULL for a normal trial. */
/* A probe: exactly frames frames of one stream at pps; duration caps the time it may take. */
struct fws_probe {
	unsigned int stream;
	uint64_t frames;
	double pps, duration, drain;
};

int fws_trial_run_probe(struct fws_trial *t, unsigned int size_idx, const struct fws_trial_opts *o,
			const struct fws_probe *pr, struct fws_result *res, struct fws_err *e);

#endif /* FWS_TRIAL_INT_H */
