/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The facts of a test frame that the configuration, the controller and the reports reason
 * with, without DPDK: header lengths, the smallest frame a signature fits, what fills a frame,
 * how an ICMP error is classed and a MAC address. Building and parsing frames is lib/proto's
 * (fws_pkt.h, over DPDK's header structures).
 */
#ifndef FWS_FRAME_H
#define FWS_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FWS_ETHER_HDR_LEN 14 /**< destination, source, type (DPDK's RTE_ETHER_HDR_LEN) */
#define FWS_PKT_FCS 4
#define FWS_PKT_VLAN_LEN 4
#define FWS_PKT_IPV4_LEN 20
#define FWS_PKT_IPV6_LEN 40
#define FWS_PKT_UDP_LEN 8
#define FWS_PKT_TCP_LEN 32 /**< header with NOP, NOP, timestamps (RFC 7323) */

#define FWS_TCP_MSS4 1460 /**< the MSS a TCP stream's segments fill: IPv4 */
#define FWS_TCP_MSS6 1440 /**< and IPv6 */

/** What fills a frame after its signature (and any payload). */
#define FWS_FILLS(X)                                                                               \
	X(COUNTER, "counter", "a byte counter (the default: not zeros, but compressible)")         \
	X(ZERO, "zero", "zeros: compresses to almost nothing")                                     \
	X(RANDOM, "random", "pseudo-random bytes, fixed for the run: incompressible")              \
	X(PATTERN, "pattern", "a hex pattern repeated")
enum fws_fill {
#define FWS_FILL_ENUM(n, s, d) FWS_FILL_##n,
	FWS_FILLS(FWS_FILL_ENUM)
#undef FWS_FILL_ENUM
};
#define FWS_FILL_PATTERN_MAX 32

/** What an ICMP or ICMPv6 error says and what it quotes of the packet it is about. */
#define FWS_ICMP_CLASSES(X)                                                                        \
	X(TOO_BIG, "too_big", "fragmentation needed (IPv4, DF set) or packet too big (IPv6)")      \
	X(UNREACH, "unreachable", "destination unreachable")                                       \
	X(TIME, "time_exceeded", "time exceeded (TTL or reassembly)")                              \
	X(PARAM, "param_problem", "parameter problem")
enum fws_icmp_class {
#define FWS_ICMP_CLASS_ENUM(n, s, d) FWS_ICMP_##n,
	FWS_ICMP_CLASSES(FWS_ICMP_CLASS_ENUM)
#undef FWS_ICMP_CLASS_ENUM
		FWS_ICMP_CLASSES_N
};

/** "too_big", "unreachable", ... */
const char *fws_icmp_class_name(enum fws_icmp_class c);

/** Smallest frame (incl. FCS) that holds the headers and the signature. */
uint16_t fws_pkt_min_frame(bool vlan, bool ipv6);

/** The same for TCP segments with the timestamp option: 88 bytes untagged IPv4. */
uint16_t fws_pkt_min_frame_tcp(bool vlan, bool ipv6);

/** A MAC address, laid out as DPDK's struct rte_ether_addr (fws_dpdk.h converts). */
struct fws_mac {
	uint8_t addr_bytes[6];
} __attribute__((aligned(2)));

/** "02:46:57:53:0A:01" (as rte_ether_format_addr writes it) into buf (at least 18 bytes). */
void fws_mac_format(char *buf, size_t len, const struct fws_mac *m);

#endif /* FWS_FRAME_H */
