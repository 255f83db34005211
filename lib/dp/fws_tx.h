/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Transmit task: one stream's share of flows on one TX lcore and queue. Its mbufs come from
 * a pool of its own whose buffers hold the stream's template, so a burst writes only the
 * varying fields. Sequence numbers have one writer: the task owns its flow range.
 *
 * Departure stamps. A burst is built frame by frame and then handed to the driver, which puts
 * the frames on the wire one after the other. Each frame is stamped with its expected
 * departure: the burst's start, plus the time the task has needed at best to build that many
 * frames (so the stamp is never later than the hand-over), plus, with the wire model, the
 * serialization time of the frames before it in the burst at the port's link speed. Virtual
 * ports (rings, af_packet, pcap) hand the whole burst over at once and get no wire model. What
 * is left is measured on every FWS_TX_STAMP_SAMPLE-th burst: the lag from a burst's stamp to
 * the end of its hand-over. "now", the burst's start, is the caller's fresh TSC reading.
 */
#ifndef FWS_TX_H
#define FWS_TX_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>

#include "fws_clock.h"
#include "fws_counters.h"
#include "fws_pkt.h"
#include "fws_rate.h"
#include "fws_size.h"

#define FWS_TX_MAX_BURST 512
#define FWS_TX_STAMP_SAMPLE 8  /**< bursts per build-time and lag sample (power of 2) */
#define FWS_TX_LEAD_SAMPLES 16 /**< build-time samples before the stamps add a build time */

struct fws_engine;
struct fws_tcp_txflow;
struct rte_mempool;

struct fws_tx_task {
	/* Read in the burst loop. */
	const struct fws_engine *engine; /**< the stream's traffic engine */
	struct rte_mempool *pool;
	struct fws_pkt_flow *flows;
	uint32_t nb_flows;
	uint32_t cur_flow;
	uint16_t port_id, queue;
	uint16_t burst;
	uint16_t pat_len, pat_cur;
	uint32_t w0;
	uint32_t cookie;
	uint16_t l3; /**< offset of the IP header */
	bool ipv6;
	bool active; /**< false: this task sends nothing in the current trial */
	bool hw_cksum;
	bool wire;   /**< stamps add the wire model's serialization times */
	bool clk_on; /**< stamps are mapped by clk (another host receives, or a test clock) */
	uint8_t stream;
	uint8_t port_idx;
	uint32_t lead_fp; /**< build per frame added to stamps, TSC ticks << 8; UINT32_MAX: none */
	struct fws_pacer pacer;
	/* Written by the owning lcore, read by the main lcore. */
	struct fws_tx_counters cnt;
	uint64_t t_first, t_stop; /**< TSC at the start and end of the measured phase */
	uint64_t limit;           /**< > 0: send exactly this many measured frames (a burst) */
	uint32_t bursts;          /**< bursts tried, for sampling */
	/* Sampled full bursts of the trial: the fastest build per frame (lowered by a burst
	 * stamped after its hand-over) and how many were taken; lead_fp follows lead_min once
	 * FWS_TX_LEAD_SAMPLES were. */
	uint32_t lead_min;
	uint32_t lead_n;
	/* Measured bursts: lag from the stamp to the end of the hand-over, in TSC ticks, signed
	 * (negative: stamped after its own hand-over ended, latencies read short). */
	int64_t lag_sum, lag_min, lag_max;
	uint64_t lag_bursts, lag_late;
	/* Set up by the main lcore. */
	struct fws_affine clk; /**< the stamps' map into the receiving host's ticks */
	double pps;            /**< this task's share of the stream's rate; 0 = unlimited */
	uint8_t *tmpl;
	uint32_t tmpl_room;
	struct fws_pkt_hdr hdr;
	uint32_t wire_mbps; /**< link speed of the wire model; 0: stamp at the hand-over */
	uint16_t min_frame; /**< a stream with a payload: smaller sizes are raised to this */
	/* Engine "tcp": the connections of flows, same index (kept out of the UDP engine's
	 * hot lines above: their layout shows in tools/bench). */
	struct fws_tcp_txflow *tcp;
	struct fws_pkt_size pattern[FWS_SIZE_MAX_SEQ];
	uint64_t
		wire_fp[FWS_SIZE_MAX_SEQ]; /**< serialization time per pattern entry, ticks << 16 */
} __rte_cache_aligned;

/**
 * Create the task's pool (n mbufs, each filled with the template of hdr) on socket.
 * Returns 0 or -errno.
 */
int fws_tx_task_init(struct fws_tx_task *t, const char *pool_name, unsigned int n_mbufs,
		     uint16_t max_frame, int socket, const struct fws_pkt_hdr *hdr);

/** Load a size mix into the task (once per trial, before the lcores start). */
int fws_tx_task_sizes(struct fws_tx_task *t, const struct fws_size_mix *mix);

/** A new trial: forget the build times of the last (before its warm-up starts). */
void fws_tx_task_lead_reset(struct fws_tx_task *t);
/** Start a phase: cookie, sequence numbers from 0, pacing from now. */
void fws_tx_task_start(struct fws_tx_task *t, uint32_t cookie, uint64_t now, uint64_t hz);

/**
 * Build and send one burst if the pacer allows; now is a fresh TSC reading (the stamps'
 * base: read it after any other task's burst). Frames the queue refuses are freed and their
 * sequence numbers taken back, so the receive side never sees a gap that was not sent.
 * Returns the frames sent. measured selects the counter (tx_frames or warmup_tx).
 */
unsigned int fws_tx_burst(struct fws_tx_task *t, uint64_t now, bool measured);

/**
 * A sampled burst of n frames: build ticks from its start to the end of building, span to the
 * end of its hand-over. Updates the lead the next stamps add (lead_fp); a burst whose
 * hand-over ended before its stamp lowers it at once.
 */
void fws_tx_lead_learn(struct fws_tx_task *t, uint32_t n, uint64_t build, uint64_t span);

void fws_tx_task_free(struct fws_tx_task *t);

/** Commit a burst's count (one writer; the main lcore reads the totals live). */
static inline void
fws_tx_count(struct fws_tx_task *t, uint32_t sent, uint64_t bytes, bool measured)
{
	if (measured) {
		__atomic_store_n(&t->cnt.tx_frames, t->cnt.tx_frames + sent, __ATOMIC_RELAXED);
		__atomic_store_n(&t->cnt.tx_bytes, t->cnt.tx_bytes + bytes, __ATOMIC_RELAXED);
	} else {
		__atomic_store_n(&t->cnt.warmup_tx, t->cnt.warmup_tx + sent, __ATOMIC_RELAXED);
		__atomic_store_n(&t->cnt.warmup_tx_bytes, t->cnt.warmup_tx_bytes + bytes,
				 __ATOMIC_RELAXED);
	}
}

#endif /* FWS_TX_H */
