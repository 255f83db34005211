/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A host's side of the seam (fws_agent.h): the ports, workers, transmit tasks, receive
 * lcores and control plane of this process, and the host features that act on them (stamps,
 * reassembly, ICMP errors, link watch, TCP streams). fws_host.c sets it up and tears it
 * down, fws_hostrun.c runs a trial's phases on it as the controller asks, fws_hostcollect.c
 * turns its per-lcore counters into the seam's plain counts. fws_agent_local.c is the
 * in-process agent over it. Nothing here decides a load or what a result means.
 */
#ifndef FWS_HOST_H
#define FWS_HOST_H

#include <stdint.h>

#include <rte_ethdev.h>

#include "fws_agent.h"
#include "fws_agent_local.h"
#include "fws_hostclock.h"
#include "fws_ctlio.h"
#include "fws_phase.h"
#include "fws_nat.h"
#include "fws_port.h"
#include "fws_rx.h"
#include "fws_tcp.h"
#include "fws_tx.h"
#include "fws_worker.h"

/* A host's own log type (--log-level=fws.host:debug), not the controller's fws.trial. */
#define FWS_LOGMOD "fws.host"
#include "fws_log.h"

/* The most host features a table holds (fws_hostfeat.c checks). */
#define FWS_HOST_FEATURES_MAX 16

struct fws_host {
	const struct fws_cfg *cfg;
	uint64_t
		tx_mask; /**< bit s: this host sends stream s (one of its transmit ports is here) */
	uint64_t port_mask;     /**< bit p: port p is this host's (an agent's: not a placeholder) */
	struct fws_affine skew; /**< FWS_TEST_CLOCK: a test-only offset and drift of its clock */
	uint64_t hz;            /**< TSC rate calibrated at setup (fws_clock) */
	uint64_t hz_dpdk;       /**< rte_get_tsc_hz(), for the report */
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
	uint64_t fill_seed;                  /**< the "random" fill's, for the run */
	uint32_t aimed[FWS_CFG_MAX_STREAMS]; /**< per stream: flows its last aim translated */
	/* The trial in progress: the NIC counters at its start, the clock at the start of its
	 * measured phase, the counts its features write as it runs (fws_agent_counts). */
	struct rte_eth_stats before[FWS_CFG_MAX_PORTS];
	/** An af_packet port's kernel interface: its rx_packets at the trial's start (-1: not
	 * such a port, or unreadable); fws_host_kernel_rx. */
	int64_t before_kernel_rx[FWS_CFG_MAX_PORTS];
	struct fws_clock_pair clk0;
	bool measuring;
	/* Live readings: the last one and its time (ns), for the rates of the next. */
	struct fws_agent_live live_last;
	uint64_t live_ns;
	struct fws_agent_counts *cur;
	/* The host features' own state (fws_host_feature), by table index; set up: destroy
	 * owed. */
	void *feat[FWS_HOST_FEATURES_MAX];
	bool feat_ready[FWS_HOST_FEATURES_MAX];
	/* Where the features' count blocks sit in fws_agent_stream.fd and fws_agent_counts.fd_trial
	 * (the one table's layout, fws_feat_layout). */
	struct fws_fd_layout fd;
};

/*
 * A host feature: one file owning its state, one entry in fws_hostfeat.c's table, optional
 * hooks (NULL: nothing to do) called in table order. The counts c are the host's for the
 * trial in progress (fws_agent_counts): what the feature measured goes there, into its own
 * count blocks (declared with its data in lib/feat: fd_NAME.h; fws_host_block and
 * fws_host_trial_block find them).
 */
struct fws_host_feature {
	const char *name;
	/** Once, after the ports, tasks and receive lcores exist. 0 or -errno with e set. */
	int (*setup)(struct fws_host *h, void **state, struct fws_err *e);
	/** Before a trial, workers stopped, for the streams of mask (bit s; 0: all), in stage
	 * st (each stage on every host before the next: fws_agent.h). */
	int (*prepare)(struct fws_host *h, void *state, enum fws_prep_stage st, uint32_t mask,
		       volatile int *stop, struct fws_err *e);
	/** At the events of fws_feature.h (start: armed; collect: after the core counts). */
	void (*on[FWS_FEATURE_EVENTS_N])(struct fws_host *h, void *state,
					 struct fws_agent_counts *c, uint64_t now);
	/** After a trial or probe; c NULL: results discarded. */
	void (*after)(struct fws_host *h, void *state, struct fws_agent_counts *c);
	/** Port p's facts, as the host answers for its ports and with each trial's counts: its
	 * port block in out->fd (fws_host_port_fact). */
	void (*port_facts)(const struct fws_host *h, const void *state, unsigned int p,
			   struct fws_port_result *out);
	void (*destroy)(struct fws_host *h, void *state);
};

int fws_host_features_setup(struct fws_host *h, struct fws_err *e);
int fws_host_features_prepare(struct fws_host *h, enum fws_prep_stage st, uint32_t mask,
			      volatile int *stop, struct fws_err *e);
void fws_host_features_on(struct fws_host *h, enum fws_feature_event ev, uint64_t now);
void fws_host_features_after(struct fws_host *h, struct fws_agent_counts *c);
void fws_host_features_port_facts(const struct fws_host *h, unsigned int p,
				  struct fws_port_result *out);
void fws_host_features_destroy(struct fws_host *h);

/** Feature data d's count block of stream s in the counts c (NULL when d has none). */
static inline void *
fws_host_block(const struct fws_host *h, const struct fws_featdata *d, struct fws_agent_counts *c,
	       unsigned int s)
{
	return fws_fd_count(&h->fd, d, c->streams[s].fd);
}

/** Feature data d's block of port p in the counts c (NULL when d has none). */
static inline void *
fws_host_port_block(const struct fws_host *h, const struct fws_featdata *d,
		    struct fws_agent_counts *c, unsigned int p)
{
	return fws_fd_port(&h->fd, d, c->ports[p].fd);
}

/** Feature data d's block in one port's facts out (NULL when d has none). */
static inline void *
fws_host_port_fact(const struct fws_host *h, const struct fws_featdata *d,
		   struct fws_port_result *out)
{
	return fws_fd_port(&h->fd, d, out->fd);
}

/** Feature data d's count block of the trial as a whole in the counts c (NULL: none). */
static inline void *
fws_host_trial_block(const struct fws_host *h, const struct fws_featdata *d,
		     struct fws_agent_counts *c)
{
	return fws_fd_trial_count(&h->fd, d, c->fd_trial);
}

/** Set up ports, lcores, pools, flow tables and the host features for cfg, and resolve the
 * gateways (EAL must be up). The ports of port_mask are this host's: each stream's senders
 * among them get transmit tasks for their share of its flows (the others are placeholders).
 * NULL with errno and e set on failure. */
struct fws_host *fws_host_create(const struct fws_cfg *cfg, uint64_t port_mask, struct fws_err *e);
void fws_host_destroy(struct fws_host *h);

/* fws_hostflow.c: */
/** The headers stream s is built from as transmit port p sends it, and as its first does. */
void fws_host_sender_hdr(const struct fws_host *h, unsigned int s, unsigned int p,
			 struct fws_pkt_hdr *hdr);
void fws_host_stream_hdr(const struct fws_host *h, unsigned int s, struct fws_pkt_hdr *hdr);

/** Send flows [lo, lo + n) of stream d to at[i].dst, at[i].dport (network order; dst 0: not
 * learned, the flow keeps its own destination and counts as lost). Used by the controller's NAT learning
 * (through the agent) and the TCP feature (the SYNs). 0 or -errno. */
int fws_host_aim(struct fws_host *h, unsigned int d, uint32_t lo, uint32_t n,
		 const struct fws_nat_tuple *at);

/** How flow i of stream s arrived (its NAT observation), merged over the receive lcores. */
struct fws_natobs fws_host_observed(const struct fws_host *h, unsigned int s, uint32_t i);

/** Sample DPDK's heaps into h->hugepage_peak; the peak so far. */
void fws_host_sample_hugepages(struct fws_host *h);
uint64_t fws_host_hugepage_peak(struct fws_host *h);
void fws_host_clock(const struct fws_host *h, uint64_t *hz, uint64_t *hz_dpdk);
/** Its TSC as its stamps read it (the test clock applied). */
uint64_t fws_host_tsc(const struct fws_host *h);

/* A trial on the host (fws_hostrun.c), as the agent's operations of the same names. */
int fws_host_arm(struct fws_host *h, const struct fws_agent_plan *p, struct fws_err *e);
int fws_host_launch(struct fws_host *h, enum fws_phase ph, struct fws_err *e);
/** Move the workers to phase ph at at, a reading of this host's clock as fws_host_tsc
 * gives it (0: now). Returns how late the request came, ns (at had passed already). */
double fws_host_phase(struct fws_host *h, enum fws_phase ph, uint64_t at);
void fws_host_poll(struct fws_host *h, struct fws_agent_poll *out);

/** Workers stopped, between requests: the ports polled once (ARP, ND, echo, the TCP
 * segments of connections whose other end is on another host). */
void fws_host_idle(struct fws_host *h);
void fws_host_stop(struct fws_host *h, bool measured);

/* Its counts (fws_hostcollect.c). */
unsigned int fws_host_ports(const struct fws_host *h, struct fws_port_result *out);
void fws_host_collect(struct fws_host *h, struct fws_agent_counts *out);
void fws_host_live(struct fws_host *h, bool warm, struct fws_agent_live *out);
void fws_host_rx_flows(const struct fws_host *h, unsigned int s, uint32_t lo, uint32_t n,
		       struct fws_agent_rxflow *out);
void fws_host_tx_flows(const struct fws_host *h, unsigned int s, uint32_t lo, uint32_t n,
		       struct fws_agent_txflow *out);

/** The host of the in-process agent; NULL for another kind of agent. */
struct fws_host *fws_agent_local_host(struct fws_agent *a);

/** Workers stopped, between requests (fwstress agent): the ports polled once, or, while
 * its servers answer another host's connection-test clients, a pass of that engine.
 * Returns whether that pass had segments to answer (then call it again at once: it polls
 * without a pause while busy and rests a millisecond when not, leaving the CPU to others). */
bool fws_agent_local_idle(struct fws_agent *a);

/**
 * The frames the kernel interface behind an af_packet port (the "iface=" of device, a
 * net_af_packet vdev) has received, from sysfs (the namespace's, as ip netns exec mounts it);
 * -1 for any other device, or when it cannot be read. A frame the interface received that
 * the port's ring did not deliver (the ring full: the receive lcore starved) is the tester's
 * miss, which the PMD does not count.
 */
int64_t fws_host_kernel_rx(const char *device);

#endif /* FWS_HOST_H */
