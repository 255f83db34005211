/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The seam between deciding and doing. The controller (fws_trial: the phase machine, the
 * methodology, what a result means) drives the hosts that own ports through this interface
 * only; an agent sends, receives, counts, answers ARP and ND, opens TCP connections and
 * aims return traffic where it is told. Everything that crosses it is a plain structure (no
 * pointers but the caller's buffers, numbers in host order unless named _be, stream and
 * port indices as the config numbers them), so a remote agent carries the same over a
 * stream. Two implementations: in-process (lib/host/fws_agent_local.c, over fws_host) and
 * remote (lib/ctrl/fws_agent_remote.c, over the control stream to a host's fwstress agent).
 *
 * A trial, as the controller runs it: prepare (learning and handshakes the host does by
 * itself), arm (the plan: sizes, rates, cookies), launch, phase changes while polling,
 * stop, collect (per-stream and per-port counts, then per-flow ones in chunks), after (TCP
 * close). Between trials the controller may aim a stream's flows at learned translations.
 */
#ifndef FWS_AGENT_H
#define FWS_AGENT_H

#include <stdbool.h>
#include <stdint.h>

#include "fws_clock.h"
#include "fws_hist.h"
#include "fws_nat.h"
#include "fws_ptp.h"
#include "fws_rxstat.h"
#include "fws_agent_types.h"
#include "fws_config.h"
#include "fws_err.h"
#include "fws_featdata.h"
#include "fws_phase.h"

struct fws_agent;
struct fws_conntester_hooks;
struct fws_conntrial;
struct fws_err;

/** One trial or probe as the controller decided it. */
struct fws_agent_plan {
	unsigned int size_idx;               /**< the config's frame-size entry */
	uint32_t cookie, warm_cookie;        /**< the measured phase's and the warm-up's */
	bool warmup;                         /**< the trial starts in warm-up */
	uint32_t active;                     /**< bit s: stream s sends */
	double pps[FWS_CFG_MAX_STREAMS];     /**< per stream; 0: unpaced */
	uint64_t limit[FWS_CFG_MAX_STREAMS]; /**< > 0: exactly this many measured frames */
	/** Per stream sent from this host and received on another: its stamps' map into the
	 * receiver's ticks (the controller's clock alignment, feat_clocks.c). */
	struct fws_affine clk[FWS_CFG_MAX_STREAMS];
};

/** A plan from outside (a controller's request) checked against cfg: its frame-size entry,
 * its streams, its rates finite and at most 1e10 pps, its limits; its booleans made 0 or 1.
 * 0, or -EINVAL with e saying what is wrong. */
int fws_agent_plan_check(const struct fws_cfg *cfg, struct fws_agent_plan *p, struct fws_err *e);

/** While phases run: the host's view since its last poll. */
struct fws_agent_poll {
	bool tx_stopped;  /**< every transmitter has seen stop */
	bool bursts_sent; /**< every stream with a limit sent it */
};

/** Live totals of the running phase (read while the lcores write), and per second over
 * the interval since the host's previous reading (its own clock: a remote agent's readings
 * come as events, whenever the controller looks at them). */
struct fws_agent_live {
	uint64_t tx_frames, tx_bytes, rx_frames, rx_bytes;
	double tx_pps, rx_pps, tx_Bps, rx_Bps;
	bool rates; /**< an interval of this phase is behind the rates (not its first reading) */
	bool warm;  /**< the warm-up's totals */
	struct fws_live_stream streams[FWS_CFG_MAX_STREAMS];
};

/** A stream's counts on one host after a trial: its sending side where it sends, its
 * receiving side where it receives. */
struct fws_agent_stream {
	/* Sending. */
	uint64_t tx_frames, tx_bytes, tx_refused, alloc_fail;
	double duration; /**< measured transmit time, s */
	uint64_t behind; /**< the most frames a paced sender of it was behind its schedule */
	bool unlimited;  /**< unpaced */
	bool active;     /**< it sent in this trial */
	uint32_t aimed;  /**< flows aimed at a learned translation (download through NAT) */
	/* Receiving. */
	struct fws_hist hist; /**< latency, ns */
	double jitter_ns;     /**< RFC 3550 jitter, weighted over the receive lcores */
	uint64_t skewed;      /**< frames that read as arriving before their stamp */
	double skew_max_ns;   /**< the deepest of those readings */
	/** The features' own count blocks (lib/feat: the table's layout). */
	_Alignas(8) unsigned char fd[FWS_FD_COUNT_BYTES];
};

/** A host's counts after a trial. */
struct fws_agent_counts {
	double tsc_hz;        /**< its TSC rate over the measured phase, 0: none */
	double rx_poll_ns;    /**< its slowest receiving worker's loop pass */
	double phase_late_ns; /**< the longest from an armed phase instant to a worker's switch */
	struct fws_agent_stream streams[FWS_CFG_MAX_STREAMS];
	struct fws_port_result ports[FWS_CFG_MAX_PORTS]; /**< the ports this host owns */
	/** The features' count blocks of the trial as a whole (lib/feat). */
	_Alignas(8) unsigned char fd_trial[FWS_FD_TRIAL_COUNT_BYTES];
};

/** One flow as its receiving host saw it, merged over its receive lcores. */
struct fws_agent_rxflow {
	struct fws_rxflow rx;
	struct fws_natobs nat; /**< how it arrived (with "nat" in the config) */
	uint32_t lcores;       /**< receive lcores it arrived on */
};

/** One flow as its sending host sent it. */
struct fws_agent_txflow {
	uint64_t seq;              /**< frames sent in the measured phase */
	struct fws_nat_tuple sent; /**< its addresses and ports as sent, network order */
};

/** The stages of prepare: the controller runs each on every agent before the next, so that
 * TCP connections between two hosts find both ends reset before the first SYN and every
 * handshake done before the data senders take their verdicts. */
enum fws_prep_stage {
	FWS_PREP_RESET,  /**< forget the last trial's connections */
	FWS_PREP_OPEN,   /**< the clients' handshakes (the servers answer while idle) */
	FWS_PREP_SETTLE, /**< the senders' verdicts, the clients' preambles */
	FWS_PREP_STAGES
};

/** Flows per chunk of the per-flow calls: a bounded buffer for any number of flows. */
#define FWS_AGENT_CHUNK 4096

struct fws_agent_ops {
	const char *name;
	/** The ports it owns (facts and run totals), by config index; their count. */
	unsigned int (*ports)(struct fws_agent *a, struct fws_port_result *out);
	/** Its TSC rate calibrated at setup and DPDK's estimate. */
	void (*clock)(struct fws_agent *a, uint64_t *hz, uint64_t *hz_dpdk);
	/** Its TSC now, as its stamps read it (a test clock applied): the controller's clock
	 * probe times the call. */
	uint64_t (*tsc)(struct fws_agent *a);
	/** Its clock under PTP ("clocks": "ptp"): ptp4l's state through pmc on socket in PTP
	 * domain domain, checked,
	 * and its TSC beside CLOCK_REALTIME. 0, or -1 with why in e. */
	int (*ptp)(struct fws_agent *a, const char *socket, unsigned int domain,
		   struct fws_ptp_point *out, struct fws_err *e);
	/** Largest hugepage memory its heaps held so far. */
	uint64_t (*hugepage_peak)(struct fws_agent *a);
	/** Before a trial, workers stopped: what the host does by itself for the streams of
	 * mask (TCP handshakes), in stage st. stop: a stop request ends it (-EINTR). */
	int (*prepare)(struct fws_agent *a, enum fws_prep_stage st, uint32_t mask,
		       volatile int *stop, struct fws_err *e);
	/** Load the plan: sizes, rates, limits, cookies; counters zeroed. */
	int (*arm)(struct fws_agent *a, const struct fws_agent_plan *p, struct fws_err *e);
	/** Start the workers in phase ph. */
	int (*launch)(struct fws_agent *a, enum fws_phase ph, struct fws_err *e);
	/** Move the workers to phase ph at at, a reading of its clock as tsc gives it (0: at
	 * once). Returns how late the request came (ns past at when it arrived; 0 in time). */
	double (*phase)(struct fws_agent *a, enum fws_phase ph, uint64_t at);
	/** Each pass of the controller's loop: control plane, the host's own duties. */
	void (*poll)(struct fws_agent *a, struct fws_agent_poll *out);
	/** Live totals of the running phase (warm: the warm-up's). */
	void (*live)(struct fws_agent *a, bool warm, struct fws_agent_live *out);
	/** End the workers (the last poll included). measured: the measured phase began. */
	void (*stop)(struct fws_agent *a, bool measured);
	/** The trial's counts (after stop). */
	void (*collect)(struct fws_agent *a, struct fws_agent_counts *out);
	/** Flows [lo, lo + n) of stream s as received here (zero where none arrived). */
	void (*rx_flows)(struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n,
			 struct fws_agent_rxflow *out);
	/** Flows [lo, lo + n) of stream s as sent from here. */
	void (*tx_flows)(struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n,
			 struct fws_agent_txflow *out);
	/** Send flows [lo, lo + n) of stream s to at[i].dst, at[i].dport (network order; dst
	 * 0: not learned, the flow keeps its own destination). 0 or -errno. */
	int (*aim)(struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n,
		   const struct fws_nat_tuple *at);
	/** After a trial or probe: close what prepare opened; each stream's TCP results into
	 * out (NULL: discarded). */
	void (*after)(struct fws_agent *a, struct fws_agent_counts *out);
	/** Retire the trial's cookies: late frames count as stale. */
	void (*retire)(struct fws_agent *a);
	/** Connection tests (fwstress connections), its ports' ends of them: one iteration
	 * numbered nonce at rate of the clients it owns, the servers it owns answering
	 * meanwhile; hk marks the measured phase; *stop ends it early. progress: a line per
	 * second where it runs. 0 or -errno with e set. */
	int (*conn_trial)(struct fws_agent *a, double rate, uint32_t nonce, bool progress,
			  const struct fws_conntester_hooks *hk, volatile int *stop,
			  struct fws_conntrial *out, struct fws_err *e);
	/** Between iterations (its clients): hold, reset, the aging wait. */
	int (*conn_between)(struct fws_agent *a, volatile int *stop, struct fws_err *e);
	/** Its servers answer iteration nonce's clients, which another agent owns. */
	int (*conn_serve)(struct fws_agent *a, uint32_t nonce, struct fws_err *e);
	/** Why the agent is gone (its control stream ended, it died, it did not answer), or
	 * NULL while it lives; NULL hook: it cannot be lost (in-process). */
	const char *(*lost)(struct fws_agent *a);
	void (*destroy)(struct fws_agent *a);
};

struct fws_agent {
	const struct fws_agent_ops *ops;
	char name[FWS_CFG_NAME_LEN]; /**< the host's, for messages */
	unsigned int host;           /**< its config host: 0 this process, k hosts[k - 1] */
	/** Bit p: the agent owns config port p; bit s of tx/rx: it sends / receives stream s. */
	uint64_t ports, tx_streams, rx_streams;
	struct fws_host_info info; /**< who it is (hello), for the report */
};

/** Why agent a is lost, or NULL. */
static inline const char *
fws_agent_lost(struct fws_agent *a)
{
	return a->ops->lost ? a->ops->lost(a) : NULL;
}

/** What host (0: this process; k: hosts[k - 1]) owns of cfg: a->ports, tx_streams (those
 * whose transmit port it owns), rx_streams (receive port). */
void fws_agent_owns(struct fws_agent *a, const struct fws_cfg *cfg, unsigned int host);

#endif /* FWS_AGENT_H */
