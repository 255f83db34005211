/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Control-plane I/O: the main lcore's side of ARP, neighbour discovery and echo. Between
 * trials it polls every queue itself; while workers run, receive lcores pass control frames
 * over a ring per lcore, and replies for a port go out through the worker that owns the
 * port's TX queue 0 (a queue has one writer), over a ring per port. Gateways are resolved
 * here before any load. The frame logic itself is fws_ctl.
 */
#ifndef FWS_CTLIO_H
#define FWS_CTLIO_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ethdev.h>

#include "fws_config.h"
#include "fws_ctl.h"
#include "fws_err.h"

#define FWS_CTLIO_RX_RING 4096 /**< also TCP's ACKs to the main lcore */
#define FWS_CTLIO_TX_RING 2048 /**< also TCP's ACKs from the main lcore */

struct rte_mempool;
struct rte_ring;

struct fws_ctlio {
	const struct fws_cfg *cfg;
	struct fws_ctl_port port[FWS_CFG_MAX_PORTS];
	uint16_t port_id[FWS_CFG_MAX_PORTS];
	int port_of_id[RTE_MAX_ETHPORTS];
	uint16_t nb_rxq;
	struct rte_mempool *pool; /**< frames we originate (requests, announcements) */
	struct rte_ring *tx_ring[FWS_CFG_MAX_PORTS]; /**< to the worker owning queue 0, or NULL */
	unsigned int n_rx_rings;
	struct rte_ring *rx_ring[FWS_CFG_MAX_LCORES]; /**< from each receive lcore */
	bool running;                                 /**< workers own the queues */
	/** TCP segments without a signature (fws_tcps_input), with the frame: NULL drops them. */
	void (*tcp_input)(void *arg, unsigned int port, struct rte_mbuf *m);
	void *tcp_arg;
	/** With workers stopped: UDP datagrams (a connection test's over UDP), NULL: counted
	 * as idle frames and dropped. tcp_arg is its argument too. */
	void (*udp_input)(void *arg, unsigned int port, struct rte_mbuf *m);
	/** ICMP errors (feat_icmp.c: matched to the stream whose packet they quote); NULL drops. */
	void (*icmp_input)(void *arg, unsigned int port, struct rte_mbuf *m);
	void *icmp_arg;
	uint64_t idle_rx[FWS_CFG_MAX_PORTS]; /**< frames polled by the main lcore, all kinds */
};

/**
 * Set up the control plane of cfg's ports (port_ids, their source MACs): the addresses each
 * answers for (its own, its streams' sources and destinations) and its pool. Returns 0 or
 * -errno.
 */
int fws_ctlio_init(struct fws_ctlio *io, const struct fws_cfg *cfg, const uint16_t *port_ids,
		   const struct rte_ether_addr *macs, uint16_t nb_rxq, struct fws_err *e);

/** The ring of receive lcore k (created on first use), or NULL without memory. */
struct rte_ring *fws_ctlio_rx_ring(struct fws_ctlio *io, unsigned int k);

/** The reply ring of port p for the worker that owns its queue 0, or NULL. */
struct rte_ring *fws_ctlio_tx_ring(struct fws_ctlio *io, unsigned int p, int socket);

/**
 * Announce our addresses and resolve every gateway (5 tries, 1 s apart). Returns 0 or
 * -EHOSTUNREACH with a message naming the port and gateway.
 */
int fws_ctlio_resolve(struct fws_ctlio *io, struct fws_err *e);

/** Send a frame we originate (from io->pool) on port p: directly between trials, through
 * the worker owning queue 0 while workers run. A refusal is counted and the frame freed. */
void fws_ctlio_send(struct fws_ctlio *io, unsigned int p, struct rte_mbuf *m);

struct fws_tcp_seg;

/** A frame we originate from seg (a TCP segment, or with udp its addresses, ports and payload
 * as a UDP datagram), sent from port p toward port to: addressed (MACs, next hop, VLAN), built
 * into a fresh mbuf from io's pool, padded to the Ethernet minimum. NULL without an mbuf or
 * room. */
struct rte_mbuf *fws_ctlio_segment(struct fws_ctlio *io, unsigned int p, unsigned int to,
				   struct fws_tcp_seg *seg, bool udp);

/** While workers run: answer what the receive lcores passed on. */
void fws_ctlio_service(struct fws_ctlio *io);

/** With workers stopped: poll every queue, answer control frames, count the rest. */
void fws_ctlio_poll_idle(struct fws_ctlio *io);

/** Destination MAC of frames from port from toward port to: its resolved gateway, a static
 * next hop, or the receiving port (a cable or a loopback). */
struct rte_ether_addr fws_ctlio_hop(const struct fws_ctlio *io, unsigned int from, unsigned int to,
				    bool ipv6);

void fws_ctlio_free(struct fws_ctlio *io);

#endif /* FWS_CTLIO_H */
