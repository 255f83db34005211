/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tester ports: find or create the DPDK port behind a config's device string and set it up
 * in DPDK's order (info, capability-checked offloads, configure, descriptors, queues on the
 * port's socket, start, promiscuous, link wait with a timeout).
 *
 * Devices: a PCI address ("0000:01:00.0"), a vdev string ("net_null0,no-rx=1"), or
 * "ringpair:NAME:a" / "ringpair:NAME:b", two in-memory ports crossed so that what one sends
 * the other receives (a cable without a NIC).
 */
#ifndef FWS_PORT_H
#define FWS_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

#include "fws_nicclock.h"

#define FWS_PORT_RINGPAIR_QUEUES 8
#define FWS_PORT_RINGPAIR_SIZE 4096

struct rte_mempool;

/** What a port needs from its setup. */
struct fws_port_req {
	uint16_t nb_rxq, nb_txq;
	uint16_t rx_desc, tx_desc;
	uint16_t max_frame;         /**< largest frame incl. FCS that will cross the port */
	unsigned int rx_pool_extra; /**< mbufs the receive lcores may hold beyond the rings */
	bool rx_stamp_nic;          /**< the NIC's receive timestamps where it offers them */
};

/** A port after setup. */
struct fws_port_info {
	uint16_t port_id;
	int socket;
	char driver[64];
	char dev_name[128];
	struct rte_ether_addr mac;
	uint32_t link_speed_mbps; /**< 0 when unknown */
	bool link_up;
	bool physical;      /**< on a hardware bus (PCI, ...): frames serialize on a wire */
	char kernel_if[16]; /**< af_packet: the kernel interface underneath (its carrier is the
			     * link: the driver reports its link up whatever the interface does) */
	bool hw_cksum;      /**< IPv4 and UDP checksum offload on transmit */
	bool hw_tcp_cksum;  /**< IPv4 and TCP checksum offload on transmit */
	bool rss;
	bool stamp_rx_all; /**< RX timestamp offload: the NIC can stamp every received frame */
	bool stamp_ptp;    /**< IEEE 1588 timesync: a clock that latches PTP event frames */
	/* The NIC stamps every received frame for us (RX timestamp offload on, its clock read
	 * and mapped onto the TSC at setup: clock); where mbufs carry the stamp (DPDK's
	 * dynamic field and flag). */
	bool stamp_rx_on;
	struct fws_nicclock clock;
	int stamp_off;
	uint64_t stamp_flag;
	uint16_t rx_desc, tx_desc;
	struct rte_mempool *rx_pool;
};

/**
 * Find (PCI, existing vdev), probe (new vdev) or create (ringpair) the port of device.
 * Returns the port id or -errno, with a one-line message in err.
 */
int fws_port_resolve(const char *device, char *err, unsigned int errlen);

/** What to do when EAL's memory runs out: more hugepages, or under --no-huge more -m. */
const char *fws_port_mem_hint(void);

/** The NIC's clock (rte_eth_read_clock) and the TSC read together: of a few tries, the
 * read between the closest TSC reads, tsc their middle. 0 or -errno. */
int fws_port_clock_pair(uint16_t port_id, uint64_t *nic, uint64_t *tsc);

/** Set up a resolved port. Returns 0 or -errno with a message in err. */
int fws_port_setup(uint16_t port_id, const struct fws_port_req *req, struct fws_port_info *info,
		   char *err, unsigned int errlen);

/** The port's MAC: its driver's, or for an in-memory port that has none a locally
 * administered one per port (02:46:57:53:00:0N), the one a run sends from. */
void fws_port_mac(uint16_t port_id, struct rte_ether_addr *mac);

/** The link now: 1 up, 0 down (a kernel interface: up and carrier; others: the driver). */
int fws_port_link_now(const struct fws_port_info *info);

/**
 * The NIC's hardware timestamps: rx_all, RX timestamp offload (it can stamp every received
 * frame); ptp, IEEE 1588 timesync (its clock is readable: the driver has the operation,
 * whatever it answers before timesync is enabled).
 */
void fws_port_stamp_probe(uint16_t port_id, const struct rte_eth_dev_info *dev, bool *rx_all,
			  bool *ptp);

/** Stop the port and free its receive pool. */
void fws_port_close(struct fws_port_info *info);

#endif /* FWS_PORT_H */
