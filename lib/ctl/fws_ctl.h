/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Control plane of a tester port: what a host on the DUT's segment does. Answers ARP and
 * IPv6 neighbour solicitations for the port's addresses and for every address its streams
 * send from or to (so return traffic and NAT replies reach it), answers ICMP/ICMPv6 echo,
 * builds gratuitous ARP, unsolicited NA and the requests that resolve a gateway, and learns
 * the gateway's MAC from what it sends. Pure frame logic without DPDK calls: the trial feeds
 * it frames and sends what it returns.
 */
#ifndef FWS_CTL_H
#define FWS_CTL_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

#include "fws_config.h"
#include "fws_counters.h"

#define FWS_CTL_MAX_RANGES FWS_CFG_MAX_RANGES
#define FWS_CTL_FRAME_MAX 128 /**< room a built control frame needs */

/** A range of addresses a port answers for (IPv6: low 32 bits vary below hi6). */
struct fws_ctl_range {
	bool ipv6;
	uint8_t hi6[12];
	uint32_t lo, hi;
};

/** One port's control state. */
struct fws_ctl_port {
	struct rte_ether_addr mac;
	uint16_t vlan;
	uint32_t ipv4; /**< own address used as the source of our requests; 0 = none */
	bool has_ipv6;
	uint8_t ipv6[16];
	unsigned int n_ranges;
	struct fws_ctl_range ranges[FWS_CTL_MAX_RANGES];
	uint32_t gw4; /**< gateway to learn, 0 = none */
	bool gw4_known;
	struct rte_ether_addr gw4_mac;
	bool gw6_set, gw6_known;
	uint8_t gw6[16];
	struct rte_ether_addr gw6_mac;
	struct fws_ctl_counters cnt;
};

/** Add an address range to answer for. Returns 0 or -ENOSPC. */
int fws_ctl_add_range(struct fws_ctl_port *cp, bool ipv6, const uint8_t *hi6, uint32_t lo,
		      uint32_t hi);

/** Whether the port answers for an address (IPv4 host order; IPv6 16 bytes). */
bool fws_ctl_ours4(const struct fws_ctl_port *cp, uint32_t ip);
bool fws_ctl_ours6(const struct fws_ctl_port *cp, const uint8_t *ip6);

/**
 * Handle one received control frame (ARP, ICMP echo, ICMPv6 ND or echo) of *len bytes in
 * buf (room bytes of space). Returns 1 when buf now holds a reply of *len bytes to send on
 * the same port, 0 when there is nothing to send. Every frame lands in one counter.
 */
int fws_ctl_input(struct fws_ctl_port *cp, uint8_t *buf, uint32_t *len, uint32_t room);

/** Build an ARP request for target (host order) into buf; gratuitous when target is ours. */
uint32_t fws_ctl_arp_request(const struct fws_ctl_port *cp, uint32_t target, uint8_t *buf);

/** Build a neighbour solicitation for target into buf. */
uint32_t fws_ctl_ns(const struct fws_ctl_port *cp, const uint8_t *target, uint8_t *buf);

/** Build an unsolicited neighbour advertisement of addr (to all nodes) into buf. */
uint32_t fws_ctl_unsolicited_na(const struct fws_ctl_port *cp, const uint8_t *addr, uint8_t *buf);

#endif /* FWS_CTL_H */
