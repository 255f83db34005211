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
#include "fws_agent_ops.h"
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

/* The agent interface: a member per CALL and LOCAL line of FWS_AGENT_OPS (fws_agent_ops.h,
 * where each is documented). */
struct fws_agent_ops {
	const char *name;
	FWS_AGENT_OPS(FWS_AGENT_OP_MEMBER)
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
