/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Test frames: Ethernet / IPv4 / UDP / signature / pattern. A stream's transmit mbufs are
 * filled once with a template; per frame only the varying fields are written (lengths,
 * addresses, ports, signature) and both checksums are finished incrementally from sums that
 * were computed once per frame size and once per flow (RFC 1071 one's complement arithmetic).
 */
#ifndef FWS_PKT_H
#define FWS_PKT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "fws_flow.h"
#include "fws_sig.h"

#if RTE_BYTE_ORDER != RTE_LITTLE_ENDIAN
#error "fws_pkt folds signature words as little-endian halves"
#endif

#define FWS_PKT_L3_OFF 14
#define FWS_PKT_L4_OFF 34
#define FWS_PKT_SIG_OFF 42
#define FWS_PKT_FCS 4

/** What does not change within a stream. */
struct fws_pkt_hdr {
	struct rte_ether_addr src, dst;
	uint8_t stream;
	uint8_t ttl;
};

/** Sums and lengths of one frame size, precomputed from the template. */
struct fws_pkt_size {
	uint16_t data_len;   /**< frame size without FCS */
	uint16_t ip_len_be;  /**< IPv4 total length, network order */
	uint16_t udp_len_be; /**< UDP length, network order */
	uint16_t frame;      /**< frame size incl. FCS */
	uint32_t ip_sum;     /**< constant IPv4 header words incl. total length, folded */
	uint32_t udp_sum;    /**< pseudo-header proto+length, UDP header, signature word 0,
				  pattern: everything that does not vary per frame, folded */
	uint32_t ph_sum;     /**< pseudo-header proto+length only (for checksum offload) */
	uint32_t pad;
};

/** Transmit state of one flow: its header fields, their sums and its sequence counter. */
struct fws_pkt_flow {
	uint32_t src_be, dst_be;
	uint16_t sport_be, dport_be;
	uint32_t ip_sum; /**< src + dst, folded */
	uint32_t l4_sum; /**< src + dst + ports, folded */
	uint32_t index;  /**< flow index (< 2^24) */
	uint64_t seq;    /**< frames sent so far = next sequence number */
};

_Static_assert(sizeof(struct fws_pkt_flow) == 32, "two flows per cache line");

/** Write the stream's template into buf (room bytes): headers and the payload pattern. */
void fws_pkt_template(uint8_t *buf, uint32_t room, const struct fws_pkt_hdr *h);

/** Precompute a frame size (bytes incl. FCS) against a template made by fws_pkt_template. */
void fws_pkt_size_init(struct fws_pkt_size *s, const uint8_t *tmpl, uint16_t frame);

/** Precompute a flow. */
void fws_pkt_flow_init(struct fws_pkt_flow *f, const struct fws_flow_tuple *t, uint32_t index);

/** One's complement sum of len bytes, folded to 16 bits. */
uint32_t fws_pkt_sum(const void *p, uint32_t len);

static inline uint32_t
fws_pkt_fold(uint32_t s)
{
	s = (s & 0xffff) + (s >> 16);
	return (s & 0xffff) + (s >> 16);
}

static inline uint32_t
fws_pkt_halves(uint32_t v)
{
	return (v & 0xffff) + (v >> 16);
}

/**
 * Write the varying fields of one frame into p, which holds the stream's template. With
 * hw_cksum the IPv4 checksum is left 0 and the UDP checksum holds the pseudo-header sum, as
 * NIC checksum offload expects. ts_sum is fws_pkt_halves(ts), computed once per burst.
 */
static inline void
fws_pkt_fill(uint8_t *p, const struct fws_pkt_size *sz, const struct fws_pkt_flow *fl, uint32_t w0,
	     uint32_t cookie, uint32_t seq, uint32_t ts, uint32_t ts_sum, bool hw_cksum)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + FWS_PKT_L3_OFF);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(p + FWS_PKT_L4_OFF);
	uint8_t *sig = p + FWS_PKT_SIG_OFF;
	uint32_t check = fws_sig_check(cookie, w0, fl->index, seq, ts);
	uint32_t w1 = fws_sig_word1(fl->index, check);
	uint16_t check_lo = (uint16_t)check;
	uint32_t s;

	ip->total_length = sz->ip_len_be;
	ip->src_addr = fl->src_be;
	ip->dst_addr = fl->dst_be;
	udp->src_port = fl->sport_be;
	udp->dst_port = fl->dport_be;
	udp->dgram_len = sz->udp_len_be;
	memcpy(sig + 4, &w1, 4);
	memcpy(sig + 8, &seq, 4);
	memcpy(sig + 12, &ts, 4);
	memcpy(sig + 16, &check_lo, 2);
	if (hw_cksum) {
		ip->hdr_checksum = 0;
		udp->dgram_cksum = (uint16_t)fws_pkt_fold(fl->ip_sum + sz->ph_sum);
		return;
	}
	s = fws_pkt_fold(sz->ip_sum + fl->ip_sum);
	ip->hdr_checksum = (uint16_t)~s;
	s = sz->udp_sum + fl->l4_sum + fws_pkt_halves(w1) + fws_pkt_halves(seq) + ts_sum + check_lo;
	s = (uint16_t)~fws_pkt_fold(s);
	udp->dgram_cksum = (uint16_t)(s ? s : 0xffff);
}

/** Where the L4 payload of a received frame starts, as fws_pkt_parse() finds it. */
struct fws_pkt_view {
	const uint8_t *payload;
	uint32_t payload_len;
};

/** Verdict of fws_pkt_parse(). */
enum fws_pkt_kind {
	FWS_PKT_UDP = 0,    /**< IPv4/UDP, payload found */
	FWS_PKT_OTHER,      /**< not IPv4/UDP (ARP, IPv6, TCP, ...) */
	FWS_PKT_FRAGMENT,   /**< an IPv4 fragment */
	FWS_PKT_ICMP_ERROR, /**< ICMP destination unreachable, time exceeded, parameter problem */
	FWS_PKT_TRUNCATED   /**< headers claim more than the frame holds */
};

/** Find the UDP payload of a frame of len bytes (optionally one 802.1Q tag). */
static inline enum fws_pkt_kind
fws_pkt_parse(const uint8_t *p, uint32_t len, struct fws_pkt_view *v)
{
	const struct rte_ipv4_hdr *ip;
	const struct rte_udp_hdr *udp;
	uint32_t off = RTE_ETHER_HDR_LEN, ihl, ulen;
	uint16_t type;

	if (len < RTE_ETHER_HDR_LEN)
		return FWS_PKT_TRUNCATED;
	memcpy(&type, p + 12, 2);
	if (type == RTE_BE16(RTE_ETHER_TYPE_VLAN)) {
		if (len < RTE_ETHER_HDR_LEN + 4)
			return FWS_PKT_TRUNCATED;
		memcpy(&type, p + 16, 2);
		off += 4;
	}
	if (type != RTE_BE16(RTE_ETHER_TYPE_IPV4))
		return FWS_PKT_OTHER;
	if (len < off + sizeof(*ip))
		return FWS_PKT_TRUNCATED;
	ip = (const struct rte_ipv4_hdr *)(p + off);
	if ((ip->version_ihl >> 4) != 4)
		return FWS_PKT_OTHER;
	ihl = (ip->version_ihl & 0xf) * 4u;
	if (ihl < sizeof(*ip) || len < off + ihl)
		return FWS_PKT_TRUNCATED;
	if (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK))
		return FWS_PKT_FRAGMENT;
	off += ihl;
	if (unlikely(ip->next_proto_id == IPPROTO_ICMP)) {
		uint8_t icmp_type = len > off ? p[off] : 0;

		return icmp_type == 3 || icmp_type == 11 || icmp_type == 12 ? FWS_PKT_ICMP_ERROR
									    : FWS_PKT_OTHER;
	}
	if (ip->next_proto_id != IPPROTO_UDP)
		return FWS_PKT_OTHER;
	if (len < off + sizeof(*udp))
		return FWS_PKT_TRUNCATED;
	udp = (const struct rte_udp_hdr *)(p + off);
	ulen = rte_be_to_cpu_16(udp->dgram_len);
	if (ulen < sizeof(*udp) || len < off + ulen)
		return FWS_PKT_TRUNCATED;
	v->payload = p + off + sizeof(*udp);
	v->payload_len = ulen - (uint32_t)sizeof(*udp);
	return FWS_PKT_UDP;
}

#endif /* FWS_PKT_H */
