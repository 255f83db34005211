/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Test frames: Ethernet [802.1Q] / IPv4 or IPv6 / UDP or TCP / signature / pattern. TCP
 * segments (fws_tcp.h) carry a 20-byte header and the timestamp option. A stream's
 * transmit mbufs are filled once with a template; per frame only the varying fields are
 * written (lengths, addresses, ports, signature) and the checksums are finished
 * incrementally from sums computed once per frame size and once per flow (RFC 1071).
 * IPv6 flows vary the low 32 bits of the addresses; the upper 96 are in the template.
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

#include "fws_dpdk.h"
#include "fws_frame.h"
#include "fws_flow.h"
#include "fws_sig.h"

#if RTE_BYTE_ORDER != RTE_LITTLE_ENDIAN
#error "fws_pkt folds signature words as little-endian halves"
#endif

/* Offsets of an untagged IPv4 frame (the common case, and the tests'). */
#define FWS_PKT_L3_OFF 14
#define FWS_PKT_L4_OFF 34
#define FWS_PKT_SIG_OFF 42

/** What does not change within a stream. */
struct fws_pkt_hdr {
	struct rte_ether_addr src, dst;
	uint16_t vlan; /**< 802.1Q VLAN id; 0 = untagged */
	bool ipv6;
	uint8_t src6[16], dst6[16]; /**< IPv6: the upper 96 bits of the addresses */
	uint8_t stream;
	uint8_t ttl;
	const uint8_t *payload; /**< written right after the signature; NULL: the fill */
	uint16_t payload_len;
	bool tcp; /**< TCP segments (fws_tcp.h) instead of UDP datagrams */
	bool syn; /**< TCP: SYNs (a flood) instead of data segments (ACK, PSH) */
	bool df;  /**< IPv4: don't fragment */
	enum fws_fill fill;
	const uint8_t *fill_pattern; /**< FWS_FILL_PATTERN: fill_len bytes repeated */
	uint8_t fill_len;
	uint64_t fill_seed; /**< FWS_FILL_RANDOM: the run's */
	uint32_t flows;     /**< the stream's flows (IPv4 identifications step by it) */
};

/** Header offsets of a stream's frames. */
struct fws_pkt_layout {
	uint16_t l3, l4, sig;
	bool ipv6;
};

/** Sums and lengths of one frame size, precomputed from the template. */
struct fws_pkt_size {
	uint16_t data_len;   /**< frame size without FCS */
	uint16_t ip_len_be;  /**< IPv4 total length / IPv6 payload length, network order */
	uint16_t udp_len_be; /**< UDP length, network order */
	uint16_t frame;      /**< frame size incl. FCS */
	uint32_t ip_sum;     /**< IPv4: constant header words incl. total length, folded */
	uint32_t udp_sum;    /**< pseudo-header proto+length, UDP header, signature word 0,
				  pattern: everything that does not vary per frame, folded */
	uint32_t ph_sum;     /**< pseudo-header proto+length only (for checksum offload) */
	uint16_t id_mul;     /**< IPv4 identification: the stream's flows (fws_pkt_ip_id) */
	uint16_t id_add;     /**< and its offset */
};

/** Transmit state of one flow: its header fields, their sums and its sequence counter. */
struct fws_pkt_flow {
	uint32_t src_be, dst_be; /**< IPv4 addresses; IPv6: their low 32 bits */
	uint16_t sport_be, dport_be;
	uint32_t ip_sum; /**< both full addresses, folded */
	uint32_t l4_sum; /**< addresses + ports, folded */
	uint32_t index;  /**< flow index (< 2^24) */
	uint64_t seq;    /**< frames sent so far = next sequence number */
};

_Static_assert(sizeof(struct fws_pkt_flow) == 32, "two flows per cache line");

/** Offsets for a stream. */
void fws_pkt_layout(const struct fws_pkt_hdr *h, struct fws_pkt_layout *l);

/** Write an Ethernet header (and an 802.1Q tag when vlan) announcing l3type_be (network
 * order). Returns its length. */
uint32_t fws_pkt_eth(uint8_t *buf, const struct rte_ether_addr *src,
		     const struct rte_ether_addr *dst, uint16_t vlan, uint16_t l3type_be);

/** Write the stream's template into buf (room bytes): headers and the payload pattern. */
void fws_pkt_template(uint8_t *buf, uint32_t room, const struct fws_pkt_hdr *h);

/** Precompute a frame size (bytes incl. FCS) against a template made by fws_pkt_template. */
void fws_pkt_size_init(struct fws_pkt_size *s, const uint8_t *tmpl, const struct fws_pkt_hdr *h,
		       uint16_t frame);

/** Precompute a flow (addresses of t in host order; IPv6: the low 32 bits). */
void fws_pkt_flow_init(struct fws_pkt_flow *f, const struct fws_pkt_hdr *h,
		       const struct fws_flow_tuple *t, uint32_t index);

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

/*
 * The IPv4 identification of a frame: seq x flows + flow, a counter of the stream's frames
 * (its flows are sent in turn), offset per stream (x 40503, spread over 16 bits). No frame
 * of a stream repeats one of another flow or of itself within 65536 frames, and streams that
 * share addresses (other ports) sent in step keep far apart, so the fragments of different
 * packets never meet in a reassembly: it goes by addresses and identification alone (RFC
 * 791; RFC 6864 asks them unique per source, destination and protocol).
 */
static inline uint16_t
fws_pkt_ip_id(const struct fws_pkt_size *sz, const struct fws_pkt_flow *fl, uint32_t seq)
{
	return (uint16_t)(seq * sz->id_mul + fl->index + sz->id_add);
}

/** The IP header's varying fields (length, addresses, IPv4 identification and checksum);
 * returns the L4 header. */
static inline uint8_t *
fws_pkt_fill_ip(uint8_t *l3, const struct fws_pkt_size *sz, const struct fws_pkt_flow *fl,
		uint32_t seq, bool hw_cksum, const bool ipv6)
{
	if (ipv6) {
		struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)l3;

		ip->payload_len = sz->ip_len_be;
		memcpy(l3 + 20, &fl->src_be, 4);
		memcpy(l3 + 36, &fl->dst_be, 4);
		return l3 + FWS_PKT_IPV6_LEN;
	} else {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)l3;

		uint16_t id = rte_cpu_to_be_16(fws_pkt_ip_id(sz, fl, seq));

		ip->total_length = sz->ip_len_be;
		ip->packet_id = id;
		ip->src_addr = fl->src_be;
		ip->dst_addr = fl->dst_be;
		ip->hdr_checksum =
			hw_cksum ? 0 : (uint16_t)~fws_pkt_fold(sz->ip_sum + fl->ip_sum + id);
		return l3 + FWS_PKT_IPV4_LEN;
	}
}

/**
 * Write the varying fields of one frame whose L3 header starts at l3 (the rest holds the
 * stream's template). With hw_cksum the IPv4 checksum is left 0 and the UDP checksum holds
 * the pseudo-header sum, as NIC checksum offload expects. ts_sum is fws_pkt_halves(ts),
 * computed once per burst. ipv6 is a constant at each call site.
 */
static inline void
fws_pkt_fill(uint8_t *l3, const struct fws_pkt_size *sz, const struct fws_pkt_flow *fl, uint32_t w0,
	     uint32_t cookie, uint32_t seq, uint32_t ts, uint32_t ts_sum, bool hw_cksum,
	     const bool ipv6)
{
	struct rte_udp_hdr *udp;
	uint8_t *sig;
	uint32_t check = fws_sig_check(cookie, w0, fl->index, seq, ts);
	uint32_t w1 = fws_sig_word1(fl->index, check);
	uint16_t check_lo = (uint16_t)check;
	uint32_t s;

	udp = (struct rte_udp_hdr *)fws_pkt_fill_ip(l3, sz, fl, seq, hw_cksum, ipv6);
	sig = (uint8_t *)udp + FWS_PKT_UDP_LEN;
	udp->src_port = fl->sport_be;
	udp->dst_port = fl->dport_be;
	udp->dgram_len = sz->udp_len_be;
	memcpy(sig + 4, &w1, 4);
	memcpy(sig + 8, &seq, 4);
	memcpy(sig + 12, &ts, 4);
	memcpy(sig + 16, &check_lo, 2);
	if (hw_cksum) {
		udp->dgram_cksum = (uint16_t)fws_pkt_fold(fl->ip_sum + sz->ph_sum);
		return;
	}
	s = sz->udp_sum + fl->l4_sum + fws_pkt_halves(w1) + fws_pkt_halves(seq) + ts_sum + check_lo;
	s = (uint16_t)~fws_pkt_fold(s);
	udp->dgram_cksum = (uint16_t)(s ? s : 0xffff);
}

/** Where the L4 payload of a received frame starts, as fws_pkt_parse() finds it. */
struct fws_pkt_view {
	const uint8_t *payload;
	uint32_t payload_len;
	const uint8_t *l3; /**< the IP header */
	const uint8_t *l4; /**< the UDP or TCP header (ports first) */
	bool ipv6;
};

/** Verdict of fws_pkt_parse(). */
enum fws_pkt_kind {
	FWS_PKT_UDP = 0,    /**< IPv4/UDP or IPv6/UDP, payload found */
	FWS_PKT_OTHER,      /**< anything else (TCP, IPv6 extension headers, ...) */
	FWS_PKT_FRAGMENT,   /**< an IPv4 fragment or an IPv6 fragment header */
	FWS_PKT_ICMP_ERROR, /**< ICMP(v6) unreachable, too big, time exceeded, parameter problem */
	FWS_PKT_CONTROL,    /**< ARP, ICMP(v6) echo, IPv6 neighbour discovery: for fws_ctl */
	FWS_PKT_TRUNCATED,  /**< headers claim more than the frame holds */
	FWS_PKT_TCP,        /**< IPv4/TCP or IPv6/TCP, payload found (it may be empty) */
};

static inline enum fws_pkt_kind
fws_pkt_icmp_kind(const uint8_t *p, uint32_t len, uint32_t off, bool v6)
{
	uint8_t t;

	if (len <= off)
		return FWS_PKT_TRUNCATED;
	t = p[off];
	if (v6) {
		if (t >= 1 && t <= 4)
			return FWS_PKT_ICMP_ERROR;
		if (t == 128 || t == 129 || (t >= 133 && t <= 137))
			return FWS_PKT_CONTROL;
		return FWS_PKT_OTHER;
	}
	if (t == 3 || t == 11 || t == 12)
		return FWS_PKT_ICMP_ERROR;
	if (t == 0 || t == 8)
		return FWS_PKT_CONTROL;
	return FWS_PKT_OTHER;
}

struct fws_icmp_info {
	enum fws_icmp_class cls;
	uint8_t type, code;
	uint32_t mtu;          /**< too_big: the next hop's MTU the sender announced (0: none) */
	bool ipv6;             /**< of the quoted packet */
	uint8_t proto;         /**< quoted: UDP or TCP (or other) */
	uint32_t src, dst;     /**< quoted addresses, host order (IPv6: the low 32 bits) */
	bool has_ports;        /**< the quote reaches the ports */
	uint16_t sport, dport; /**< host order */
	const uint8_t *quoted_payload; /**< after the quoted L4 header (UDP 8, TCP by its length) */
	uint32_t quoted_len;           /**< what of it the error carries (often truncated) */
};

/**
 * Parse a frame fws_pkt_parse called FWS_PKT_ICMP_ERROR: the error and what it quotes, as
 * much as there is. 0, or -EINVAL when the quote holds no whole IP header.
 */
int fws_pkt_icmp_parse(const uint8_t *frame, uint32_t len, struct fws_icmp_info *e);

/**
 * The L4 payload of a first fragment (offset 0, more to follow) of a UDP or TCP packet,
 * where a test packet's signature sits: *payload and the bytes of it the fragment carries;
 * 0 when the frame is no first fragment or carries no payload. IPv6: the fragment header
 * right after the base header.
 */
uint32_t fws_pkt_first_fragment(const uint8_t *frame, uint32_t len, const uint8_t **payload);

/* A TCP segment at off whose IP header says it is seg_len bytes long (IP padding and
 * Ethernet padding excluded): the payload after the header and its options. Out of line:
 * inlined into every receive loop it costs the UDP path (tools/bench). */
enum fws_pkt_kind fws_pkt_tcp_view(const uint8_t *p, uint32_t len, uint32_t off, int32_t seg_len,
				   struct fws_pkt_view *v);

/** Classify a frame of len bytes (optionally one 802.1Q tag) and find its L4 payload. */
static inline enum fws_pkt_kind
fws_pkt_parse(const uint8_t *p, uint32_t len, struct fws_pkt_view *v)
{
	const struct rte_udp_hdr *udp;
	uint32_t off = RTE_ETHER_HDR_LEN, ulen, w12, w20;
	uint16_t type;

	/* The test frame's usual shape first, in two loads: untagged IPv4 with a 20-byte
	 * header (type 0x0800, version and IHL 0x45), no fragment (MF and offset 0), UDP. */
	if (likely(len >= RTE_ETHER_HDR_LEN + 20 + sizeof(*udp))) {
		memcpy(&w12, p + 12, 4);
		memcpy(&w20, p + 20, 4);
		w12 = rte_be_to_cpu_32(w12);
		w20 = rte_be_to_cpu_32(w20);
		if ((w12 & 0xffffff00) == 0x08004500 && (w20 & 0x3fff00ff) == IPPROTO_UDP) {
			v->l3 = p + off;
			v->ipv6 = false;
			off += 20;
			goto udp_header;
		}
	}
	if (len < RTE_ETHER_HDR_LEN)
		return FWS_PKT_TRUNCATED;
	memcpy(&type, p + 12, 2);
	if (type == RTE_BE16(RTE_ETHER_TYPE_VLAN)) {
		if (len < RTE_ETHER_HDR_LEN + FWS_PKT_VLAN_LEN)
			return FWS_PKT_TRUNCATED;
		memcpy(&type, p + 16, 2);
		off += FWS_PKT_VLAN_LEN;
	}
	if (type == RTE_BE16(RTE_ETHER_TYPE_IPV4)) {
		const struct rte_ipv4_hdr *ip;
		uint32_t ihl;

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
		if (unlikely(ip->next_proto_id == IPPROTO_ICMP))
			return fws_pkt_icmp_kind(p, len, off, false);
		v->l3 = (const uint8_t *)ip;
		v->ipv6 = false;
		if (unlikely(ip->next_proto_id == IPPROTO_TCP))
			return fws_pkt_tcp_view(
				p, len, off, rte_be_to_cpu_16(ip->total_length) - (int32_t)ihl, v);
		if (ip->next_proto_id != IPPROTO_UDP)
			return FWS_PKT_OTHER;
	} else if (type == RTE_BE16(RTE_ETHER_TYPE_IPV6)) {
		const struct rte_ipv6_hdr *ip6;

		if (len < off + sizeof(*ip6))
			return FWS_PKT_TRUNCATED;
		ip6 = (const struct rte_ipv6_hdr *)(p + off);
		off += sizeof(*ip6);
		if (ip6->proto == IPPROTO_FRAGMENT)
			return FWS_PKT_FRAGMENT;
		if (unlikely(ip6->proto == IPPROTO_ICMPV6))
			return fws_pkt_icmp_kind(p, len, off, true);
		v->l3 = (const uint8_t *)ip6;
		v->ipv6 = true;
		if (unlikely(ip6->proto == IPPROTO_TCP))
			return fws_pkt_tcp_view(p, len, off, rte_be_to_cpu_16(ip6->payload_len), v);
		if (ip6->proto != IPPROTO_UDP)
			return FWS_PKT_OTHER;
	} else if (type == RTE_BE16(RTE_ETHER_TYPE_ARP)) {
		return FWS_PKT_CONTROL;
	} else {
		return FWS_PKT_OTHER;
	}
	if (len < off + sizeof(*udp))
		return FWS_PKT_TRUNCATED;
udp_header:
	udp = (const struct rte_udp_hdr *)(p + off);
	ulen = rte_be_to_cpu_16(udp->dgram_len);
	if (ulen < sizeof(*udp) || len < off + ulen)
		return FWS_PKT_TRUNCATED;
	v->l4 = p + off;
	v->payload = p + off + sizeof(*udp);
	v->payload_len = ulen - (uint32_t)sizeof(*udp);
	return FWS_PKT_UDP;
}

#endif /* FWS_PKT_H */
