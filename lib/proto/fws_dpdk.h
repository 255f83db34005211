/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The one place where DPDK's LTS lines (22.11, 23.11, 24.11) differ for fwstress. Code
 * elsewhere calls these names and never tests RTE_VERSION itself; a new line's change
 * goes here, keyed on the release that made it.
 *
 * - IPv6 addresses: 24.11 made rte_ipv6_hdr's src_addr/dst_addr a struct rte_ipv6_addr
 *   (before, uint8_t[16]). Our code keeps an address as 16 bytes (uint8_t[16]) and reaches
 *   a header's through fws_ip6_src/fws_ip6_dst, the same bytes on every line.
 * - Telemetry: 23.03 renamed rte_tel_data_add_dict_u64 to rte_tel_data_add_dict_uint and
 *   deprecated the old name; fws_tel_dict_u64 is whichever the line has.
 * - ICMP echo: 24.11 deprecated RTE_IP_ICMP_ECHO_REQUEST/_REPLY; the types are RFC 792's
 *   numbers, spelled here once.
 */
#ifndef FWS_DPDK_H
#define FWS_DPDK_H

#include <stdint.h>
#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_version.h>

#include "fws_frame.h"

/** The DPDK release this was compiled against, as RTE_VERSION_NUM gives it. */
#define FWS_DPDK_AT_LEAST(y, m) (RTE_VERSION >= RTE_VERSION_NUM(y, m, 0, 0))

/** An IPv6 address as fwstress keeps it: 16 bytes in network order. */
#define FWS_IP6_LEN 16

_Static_assert(sizeof(((struct rte_ipv6_hdr *)0)->src_addr) == FWS_IP6_LEN &&
		       sizeof(((struct rte_ipv6_hdr *)0)->dst_addr) == FWS_IP6_LEN,
	       "rte_ipv6_hdr's addresses are 16 bytes on every DPDK line");

/** The 16 bytes of an IPv6 header's source address. */
static inline uint8_t *
fws_ip6_src(struct rte_ipv6_hdr *ip)
{
	return (uint8_t *)&ip->src_addr;
}

/** The 16 bytes of an IPv6 header's destination address. */
static inline uint8_t *
fws_ip6_dst(struct rte_ipv6_hdr *ip)
{
	return (uint8_t *)&ip->dst_addr;
}

/** fws_ip6_src of a header that is only read. */
static inline const uint8_t *
fws_ip6_csrc(const struct rte_ipv6_hdr *ip)
{
	return (const uint8_t *)&ip->src_addr;
}

/** fws_ip6_dst of a header that is only read. */
static inline const uint8_t *
fws_ip6_cdst(const struct rte_ipv6_hdr *ip)
{
	return (const uint8_t *)&ip->dst_addr;
}

/** A configured MAC (fws_frame.h, laid out as DPDK's) as DPDK's type. */
static inline struct rte_ether_addr
fws_rte_mac(const struct fws_mac *m)
{
	struct rte_ether_addr a;

	memcpy(a.addr_bytes, m->addr_bytes, sizeof(a.addr_bytes));
	return a;
}

/** ICMP echo request and reply types (RFC 792). */
#define FWS_ICMP_ECHO_REQUEST 8
#define FWS_ICMP_ECHO_REPLY 0

/* Telemetry's unsigned dictionary entry (needs rte_telemetry.h before use). */
#if FWS_DPDK_AT_LEAST(23, 3)
#define fws_tel_dict_u64 rte_tel_data_add_dict_uint
#else
#define fws_tel_dict_u64 rte_tel_data_add_dict_u64
#endif

#endif /* FWS_DPDK_H */
