/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Receive side of one lcore: polls its queues, finds and verifies signatures and accounts
 * every test frame in its flow (fws_rxstat) and its stream's latency histogram (fws_hist).
 * Everything here has one writer, the owning lcore; the main lcore reads it after the
 * trial, except the live totals it reads for the progress line.
 */
#ifndef FWS_RX_H
#define FWS_RX_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>

#include "fws_clock.h"
#include "fws_config.h"
#include "fws_counters.h"
#include "fws_hist.h"
#include "fws_nat.h"
#include "fws_nicclock.h"
#include "fws_rxstat.h"

#define FWS_RX_BURST 64
#define FWS_RX_MAX_QUEUES (FWS_CFG_MAX_PORTS * 4)
#define FWS_RX_OLD_COOKIES 16
#define FWS_RX_CACHED_FLOWS 8192 /**< up to this many flows per lcore, no prefetch pass */

struct rte_mbuf;
struct rte_ring;

/*
 * What a received frame is, as the receive burst's first pass classifies it; each kind but
 * the test frame (accounted inline) goes through its stage (fws_rx.c's table): "other" is
 * counted and freed, control frames and the TCP segments of the main lcore's connections go
 * to the main lcore's ring, ICMP errors to it as well, fragments to reassembly.
 */
#define FWS_RX_KINDS(X)                                                                            \
	X(OTHER, "other")                                                                          \
	X(TEST, "test")                                                                            \
	X(CONTROL, "control")                                                                      \
	X(SEGMENT, "tcp-segment")                                                                  \
	X(ICMP, "icmp-error")                                                                      \
	X(FRAGMENT, "fragment")

enum fws_rx_kind {
#define FWS_RX_KIND_ENUM(n, s) FWS_RX_##n,
	FWS_RX_KINDS(FWS_RX_KIND_ENUM)
#undef FWS_RX_KIND_ENUM
		FWS_RX_KINDS_N
};

/** TCP: per flow, the end of the newest data that arrived: the ACK the receiver owes. */
struct fws_rx_tcphi {
	uint32_t hi;   /**< sequence number after the newest byte seen */
	uint32_t seen; /**< 1 once data arrived */
};

/** A stream as one receive lcore sees it. */
struct fws_rx_stream {
	struct fws_rxflow *flows; /**< this lcore's table, nb_flows entries */
	uint32_t nb_flows;
	uint8_t rx_port;       /**< config index of the port it must arrive on */
	struct fws_hist *hist; /**< latency, ns */
	uint64_t jitter16;     /**< RFC 3550 interarrival jitter x 16, timestamp units */
	uint64_t last_lat;
	bool have_last;
	/* Frames of one TX burst share a timestamp, so latencies come in runs: a run of equal
	 * values is added to the histogram at once (fws_rx_flush). */
	uint64_t run_lat;
	uint64_t run_n;
	uint64_t reassembled; /**< test packets that arrived fragmented, counted once each */
	uint64_t given_up;    /**< test packets whose first fragment came, reassembly gave up */
	uint64_t refused;     /**< of those, first fragments the full table refused */
};

struct fws_rx_queue {
	uint16_t port_id, queue;
	uint8_t port_idx; /**< config index */
	/** The port's NIC stamps every frame: its clock on the TSC (NULL: the TSC at the poll) */
	const struct fws_nicclock_pub *nc;
};

struct fws_rx_lcore {
	struct fws_affine skew; /**< a test-only clock of this host (FWS_TEST_CLOCK) */
	unsigned int nb_queues;
	struct fws_rx_queue queues[FWS_RX_MAX_QUEUES];
	unsigned int nb_streams;
	struct fws_rx_stream streams[FWS_CFG_MAX_STREAMS];
	uint32_t cookie;      /**< the measured phase's */
	uint32_t warm_cookie; /**< the warm-up's */
	unsigned int nb_old;
	uint32_t old[FWS_RX_OLD_COOKIES]; /**< earlier trials' cookies, newest first */
	uint64_t ns_mult;                 /**< ns per timestamp unit, 32.32 fixed point */
	int stamp_off;                    /**< the mbufs' receive timestamp (queues with nc) */
	uint64_t stamp_flag;              /**< the flag of an mbuf that carries one */
	double ns_per_unit;
	bool two_pass; /**< flow tables larger than the cache: prefetch a burst's flows first */
	bool rings;    /**< every stream has per-flow rings (seq_window > 64) */
	bool nat;      /**< natobs tables exist: record how each flow arrived */
	bool tcp;      /**< TCP streams: segments without a signature go to the main lcore */
	bool icmp;     /**< ICMP errors go to the main lcore too (feat_icmp.c matches them) */
	/* Fragments (fws_run sets these up; NULL: fragments are counted and dropped): this
	 * lcore's reassembly table (rte_ip_frag is not thread-safe), its death row, and a
	 * buffer a reassembled packet is read into. */
	struct rte_ip_frag_tbl *frag;
	struct rte_ip_frag_death_row *frag_dr;
	uint8_t *frag_buf;
	uint32_t frag_buf_len;
	struct rte_ring *ctl; /**< ARP, echo, ND frames for the main lcore; NULL: count, drop */
	struct fws_rx_counters port[FWS_CFG_MAX_PORTS];
	uint64_t live_frames; /**< test frames so far, for the progress line */
	uint64_t live_bytes;
	/* Per stream: its flows' rings beyond the window of 64, when rings is set. Kept apart
	 * from streams[]: the hot fields' layout is measurably sensitive (tools/bench). */
	struct fws_rxring ring[FWS_CFG_MAX_STREAMS];
	struct fws_natobs *natobs[FWS_CFG_MAX_STREAMS];  /**< per flow, when nat is set */
	struct fws_rx_tcphi *tcphi[FWS_CFG_MAX_STREAMS]; /**< per flow of a TCP stream */
	/* Per stream: test frames that read as arriving before their stamp (a clock map's
	 * error across hosts: latency taken as 0), and the deepest such reading in units. */
	uint64_t skewed[FWS_CFG_MAX_STREAMS];
	uint32_t skew_max[FWS_CFG_MAX_STREAMS];
} __rte_cache_aligned;

/** Clear counters and tables for a new trial. */
void fws_rx_reset(struct fws_rx_lcore *c);

/** Remember the finished trial's cookies so late frames are told apart as stale. */
void fws_rx_retire_cookies(struct fws_rx_lcore *c);

/** Add pending latency runs to the histograms (done at the end of every poll). */
void fws_rx_flush(struct fws_rx_lcore *c);

/**
 * Account a received burst: classify every frame, verify signatures, update flows and
 * latency, hand control frames to the main lcore's ring. Frees nothing: returns how many
 * mbufs are left at the start of pkts (everything but the control frames the ring took),
 * which the caller frees (fws_rx_free). now is the TSC at reception.
 */
uint16_t fws_rx_burst(struct fws_rx_lcore *c, const struct fws_rx_queue *q, struct rte_mbuf **pkts,
		      uint16_t n, uint64_t now);

/** Free what fws_rx_burst left, in bulk when every mbuf allows it. */
void fws_rx_free(struct rte_mbuf **pkts, uint16_t n);

/** Poll one queue once: rte_eth_rx_burst, fws_rx_burst, fws_rx_free. Returns frames. */
unsigned int fws_rx_poll(struct fws_rx_lcore *c, const struct fws_rx_queue *q);

/** Give up every reassembly still open (the trial is over): their fragments are counted as
 * frag_dropped. Main lcore, workers stopped. */
void fws_rx_frag_flush(struct fws_rx_lcore *c);

#endif /* FWS_RX_H */
