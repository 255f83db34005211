/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP test traffic: data segments built from the stream's template (fws_pkt) with the
 * flow's sequence and acknowledgement numbers, and the control segments of a connection's
 * life (SYN, SYN-ACK, ACK, FIN, RST) built and parsed whole. Every segment carries the
 * timestamp option (RFC 7323): its TSval is our token for the connection and side, so the
 * peer's TSecr names the connection a segment without payload belongs to, whatever NAT did
 * to addresses, ports and sequence numbers (pf's "modulate state" rewrites those, not the
 * timestamps; a DUT that rewrites timestamps, pf's "scrub reassemble tcp", defeats this).
 * Sequence numbers compare in serial arithmetic (RFC 1982): they wrap at 2^32.
 */
#ifndef FWS_TCP_H
#define FWS_TCP_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

#include "fws_pkt.h"

#define FWS_TCP_FIN 0x01
#define FWS_TCP_SYN 0x02
#define FWS_TCP_RST 0x04
#define FWS_TCP_PSH 0x08
#define FWS_TCP_ACK 0x10

#define FWS_TCP_WSCALE 8       /**< window scale we announce: the 0xffff field is 16 MiB */
#define FWS_TCP_WINDOW 0xffffu /**< the window field of every segment after the SYN */
#define FWS_TCP_SYN_LEN 40     /**< SYN header: MSS, NOP, window scale, NOP, NOP, timestamps */

/** a after b in serial arithmetic. */
static inline bool
fws_tcp_after(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) > 0;
}

/** The later of a and b. */
static inline uint32_t
fws_tcp_max(uint32_t a, uint32_t b)
{
	return fws_tcp_after(a, b) ? a : b;
}

/**
 * A connection's token, our TSval: the side (client: it opened), 3 bits of the trial's
 * nonce (a segment of an earlier trial's connection names no current one), the stream and
 * the flow.
 */
static inline uint32_t
fws_tcp_token(bool server, uint32_t nonce, unsigned int stream, uint32_t flow)
{
	return (uint32_t)server << 31 | (nonce & 7u) << 28 | (stream & 15u) << 24 |
	       (flow & 0xffffffu);
}

/** Decode a token: 0, or -1 when it is not of this nonce. */
static inline int
fws_tcp_token_parse(uint32_t tok, uint32_t nonce, bool *server, unsigned int *stream,
		    uint32_t *flow)
{
	if (((tok >> 28) & 7u) != (nonce & 7u))
		return -1;
	*server = tok >> 31;
	*stream = (tok >> 24) & 15u;
	*flow = tok & 0xffffffu;
	return 0;
}

/**
 * A data sender's state of one connection. seq has one writer, the transmit lcore (the main
 * lcore sets it up before and reads it after); limit is written by the main lcore when an
 * ACK arrives and read by the transmit lcore: a segment whose end passes it waits.
 */
struct fws_tcp_txflow {
	uint32_t seq;      /**< next sequence number to send */
	uint32_t limit;    /**< the receiver's window edge: its last ACK + window */
	uint32_t ack_be;   /**< the acknowledgement number we send, network order */
	uint32_t tsval_be; /**< our token */
	uint32_t tsecr_be; /**< the peer's token */
	uint32_t opt_sum;  /**< ack_be, tsval_be and tsecr_be summed, folded */
	uint32_t pad[2];
};

_Static_assert(sizeof(struct fws_tcp_txflow) == 32, "two connections per cache line");

/** Set ack_be, the tokens and their sum. */
static inline void
fws_tcp_txflow_init(struct fws_tcp_txflow *t, uint32_t seq, uint32_t ack, uint32_t limit,
		    uint32_t tsval, uint32_t tsecr)
{
	t->seq = seq;
	t->limit = limit;
	t->ack_be = rte_cpu_to_be_32(ack);
	t->tsval_be = rte_cpu_to_be_32(tsval);
	t->tsecr_be = rte_cpu_to_be_32(tsecr);
	t->opt_sum = fws_pkt_fold(fws_pkt_halves(t->ack_be) + fws_pkt_halves(t->tsval_be) +
				  fws_pkt_halves(t->tsecr_be));
}

/** Payload bytes of a data segment of size sz whose L3 header is at offset l3 (incl.). */
static inline uint32_t
fws_tcp_payload_len(const struct fws_pkt_size *sz, uint16_t l3, bool ipv6)
{
	return sz->data_len - l3 - (ipv6 ? FWS_PKT_IPV6_LEN : FWS_PKT_IPV4_LEN) - FWS_PKT_TCP_LEN;
}

/**
 * Write the varying fields of one data segment (the rest is the stream's TCP template):
 * the IP header, ports, the connection's numbers and timestamps, the signature, the TCP
 * checksum finished from the precomputed sums; with hw_cksum (the NIC's IPv4 and TCP
 * checksum offload) the IPv4 checksum is left 0 and the TCP checksum holds the pseudo-header
 * sum, as the NIC expects. ipv6 is a constant at each call site.
 */
static inline void
fws_tcp_fill(uint8_t *l3, const struct fws_pkt_size *sz, const struct fws_pkt_flow *fl,
	     const struct fws_tcp_txflow *tf, uint32_t w0, uint32_t cookie, uint32_t sigseq,
	     uint32_t ts, uint32_t ts_sum, bool hw_cksum, const bool ipv6)
{
	uint8_t *tcp = fws_pkt_fill_ip(l3, sz, fl, sigseq, hw_cksum, ipv6),
		*sig = tcp + FWS_PKT_TCP_LEN;
	uint32_t check = fws_sig_check(cookie, w0, fl->index, sigseq, ts);
	uint32_t w1 = fws_sig_word1(fl->index, check), seq_be = rte_cpu_to_be_32(tf->seq), s;
	uint16_t check_lo = (uint16_t)check, c;

	memcpy(tcp, &fl->sport_be, 2);
	memcpy(tcp + 2, &fl->dport_be, 2);
	memcpy(tcp + 4, &seq_be, 4);
	memcpy(tcp + 8, &tf->ack_be, 4);
	memcpy(tcp + 24, &tf->tsval_be, 4);
	memcpy(tcp + 28, &tf->tsecr_be, 4);
	memcpy(sig + 4, &w1, 4);
	memcpy(sig + 8, &sigseq, 4);
	memcpy(sig + 12, &ts, 4);
	memcpy(sig + 16, &check_lo, 2);
	if (hw_cksum) {
		c = (uint16_t)fws_pkt_fold(fl->ip_sum + sz->ph_sum);
		memcpy(tcp + 16, &c, 2);
		return;
	}
	s = sz->udp_sum + fl->l4_sum + fws_pkt_halves(seq_be) + tf->opt_sum + fws_pkt_halves(w1) +
	    fws_pkt_halves(sigseq) + ts_sum + check_lo;
	c = (uint16_t)~fws_pkt_fold(s);
	memcpy(tcp + 16, &c, 2);
}

/** Application preambles: what a connection's first data segment says. */
enum fws_tcp_preamble {
	FWS_TCP_PRE_TLS = 1, /**< a TLS 1.2/1.3 ClientHello with the name as SNI */
	FWS_TCP_PRE_HTTP,    /**< GET / HTTP/1.1 with the name as Host */
};

/** Write the preamble naming name (up to 255 bytes) into buf. Returns its length, or 0 when
 * it does not fit. */
uint32_t fws_tcp_preamble(uint8_t *buf, uint32_t room, enum fws_tcp_preamble kind,
			  const char *name);

/** A control segment, whole. Numbers in host order, addresses and ports in network order
 * (IPv6: the low 32 bits, the upper 96 in src6/dst6); a payload (a preamble) goes after
 * the options. */
struct fws_tcp_seg {
	struct rte_ether_addr src_mac, dst_mac;
	uint16_t vlan;
	bool ipv6;
	uint8_t src6[12], dst6[12];
	uint32_t src_be, dst_be;
	uint16_t sport_be, dport_be;
	uint32_t seq, ack;
	uint8_t flags;
	uint16_t window; /**< the field as sent */
	uint32_t tsval, tsecr;
	uint16_t mss; /**< SYN and SYN-ACK: the MSS option, with window scale FWS_TCP_WSCALE */
	uint8_t ttl;
	const uint8_t *payload;
	uint16_t payload_len;
};

/** Build s into buf (room bytes). Returns the frame length without FCS, or 0. */
uint32_t fws_tcp_build(uint8_t *buf, uint32_t room, const struct fws_tcp_seg *s);

/** The same as a UDP datagram (a connection test's over UDP): addresses, ports and
 * payload of s; numbers, flags and options are not used. */
uint32_t fws_tcp_build_udp(uint8_t *buf, uint32_t room, const struct fws_tcp_seg *s);

/** A received segment's header fields (IPv4 or IPv6: then the low 32 bits of addresses). */
struct fws_tcp_info {
	uint32_t src_be, dst_be;
	uint16_t sport_be, dport_be;
	uint32_t seq, ack; /**< host order */
	uint8_t flags;
	uint16_t window;
	bool has_ts, has_wscale;
	uint32_t tsval, tsecr;
	uint8_t wscale;
	uint16_t mss; /**< 0: no option */
	uint32_t payload_len;
};

/** Parse a frame of len bytes as a TCP segment. 0, or -EINVAL when it is not one. */
int fws_tcp_parse(const uint8_t *frame, uint32_t len, struct fws_tcp_info *ti);

#endif /* FWS_TCP_H */
