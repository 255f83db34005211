/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>

#include "fws_tcp.h"
#include "fws_dpdk.h"

/* Options: MSS, NOP, window scale, NOP, NOP, timestamps (SYN) or NOP, NOP, timestamps. */
static uint32_t
options(uint8_t *o, const struct fws_tcp_seg *s)
{
	uint32_t n = 0, v;

	if (s->flags & FWS_TCP_SYN) {
		o[n++] = 2;
		o[n++] = 4;
		o[n++] = (uint8_t)(s->mss >> 8);
		o[n++] = (uint8_t)s->mss;
		o[n++] = 1;
		o[n++] = 3;
		o[n++] = 3;
		o[n++] = FWS_TCP_WSCALE;
	}
	o[n++] = 1;
	o[n++] = 1;
	o[n++] = 8;
	o[n++] = 10;
	v = rte_cpu_to_be_32(s->tsval);
	memcpy(o + n, &v, 4);
	v = rte_cpu_to_be_32(s->tsecr);
	memcpy(o + n + 4, &v, 4);
	return n + 8;
}

/* The IP header of a segment (proto: TCP or UDP) of tcp_len bytes at tcp; returns its
 * checksum. */
static uint16_t
ip_header(uint8_t *l3, const struct fws_tcp_seg *s, uint16_t tcp_len, const uint8_t *tcp,
	  uint8_t proto)
{
	if (s->ipv6) {
		struct rte_ipv6_hdr *ip6 = (struct rte_ipv6_hdr *)l3;

		ip6->vtc_flow = RTE_BE32(6u << 28);
		ip6->payload_len = rte_cpu_to_be_16(tcp_len);
		ip6->proto = proto;
		ip6->hop_limits = s->ttl ? s->ttl : 64;
		memcpy(fws_ip6_src(ip6), s->src6, 12);
		memcpy(fws_ip6_src(ip6) + 12, &s->src_be, 4);
		memcpy(fws_ip6_dst(ip6), s->dst6, 12);
		memcpy(fws_ip6_dst(ip6) + 12, &s->dst_be, 4);
		return rte_ipv6_udptcp_cksum(ip6, tcp);
	}
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)l3;

	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16((uint16_t)(FWS_PKT_IPV4_LEN + tcp_len));
	ip->time_to_live = s->ttl ? s->ttl : 64;
	ip->next_proto_id = proto;
	ip->src_addr = s->src_be;
	ip->dst_addr = s->dst_be;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	return rte_ipv4_udptcp_cksum(ip, tcp);
}

uint32_t
fws_tcp_build(uint8_t *buf, uint32_t room, const struct fws_tcp_seg *s)
{
	uint32_t l3 = RTE_ETHER_HDR_LEN + (s->vlan ? FWS_PKT_VLAN_LEN : 0), thl, len, v;
	uint32_t iplen = s->ipv6 ? FWS_PKT_IPV6_LEN : FWS_PKT_IPV4_LEN;
	uint16_t type = s->ipv6 ? RTE_BE16(RTE_ETHER_TYPE_IPV6) : RTE_BE16(RTE_ETHER_TYPE_IPV4);
	uint8_t *tcp;
	uint16_t w;

	if (room < l3 + iplen + FWS_TCP_SYN_LEN + s->payload_len)
		return 0;
	memset(buf, 0, l3 + iplen + FWS_TCP_SYN_LEN);
	fws_pkt_eth(buf, &s->src_mac, &s->dst_mac, s->vlan, type);
	tcp = buf + l3 + iplen;
	thl = 20 + options(tcp + 20, s);
	if (s->payload_len)
		memcpy(tcp + thl, s->payload, s->payload_len);
	len = l3 + iplen + thl + s->payload_len;
	memcpy(tcp, &s->sport_be, 2);
	memcpy(tcp + 2, &s->dport_be, 2);
	v = rte_cpu_to_be_32(s->seq);
	memcpy(tcp + 4, &v, 4);
	v = rte_cpu_to_be_32(s->ack);
	memcpy(tcp + 8, &v, 4);
	tcp[12] = (uint8_t)((thl / 4) << 4);
	tcp[13] = s->flags;
	w = rte_cpu_to_be_16(s->window);
	memcpy(tcp + 14, &w, 2);
	w = ip_header(buf + l3, s, (uint16_t)(thl + s->payload_len), tcp, IPPROTO_TCP);
	memcpy(tcp + 16, &w, 2);
	return len;
}

uint32_t
fws_tcp_build_udp(uint8_t *buf, uint32_t room, const struct fws_tcp_seg *s)
{
	uint32_t l3 = RTE_ETHER_HDR_LEN + (s->vlan ? FWS_PKT_VLAN_LEN : 0);
	uint32_t iplen = s->ipv6 ? FWS_PKT_IPV6_LEN : FWS_PKT_IPV4_LEN;
	uint16_t type = s->ipv6 ? RTE_BE16(RTE_ETHER_TYPE_IPV6) : RTE_BE16(RTE_ETHER_TYPE_IPV4);
	uint16_t ulen = (uint16_t)(FWS_PKT_UDP_LEN + s->payload_len), w;
	uint8_t *udp;

	if (room < l3 + iplen + ulen)
		return 0;
	memset(buf, 0, l3 + iplen + FWS_PKT_UDP_LEN);
	fws_pkt_eth(buf, &s->src_mac, &s->dst_mac, s->vlan, type);
	udp = buf + l3 + iplen;
	memcpy(udp, &s->sport_be, 2);
	memcpy(udp + 2, &s->dport_be, 2);
	w = rte_cpu_to_be_16(ulen);
	memcpy(udp + 4, &w, 2);
	if (s->payload_len)
		memcpy(udp + FWS_PKT_UDP_LEN, s->payload, s->payload_len);
	w = ip_header(buf + l3, s, ulen, udp, IPPROTO_UDP);
	if (w == 0)
		w = 0xffff; /* UDP: zero means no checksum */
	memcpy(udp + 6, &w, 2);
	return l3 + iplen + ulen;
}

/* The options of a TCP header of hl bytes at tcp. */
static void
parse_options(const uint8_t *tcp, uint32_t hl, struct fws_tcp_info *ti)
{
	uint32_t i = 20;

	while (i < hl) {
		uint8_t kind = tcp[i], olen;

		if (kind == 0)
			return;
		if (kind == 1) {
			i++;
			continue;
		}
		if (i + 1 >= hl || (olen = tcp[i + 1]) < 2 || i + olen > hl)
			return;
		if (kind == 2 && olen == 4) {
			ti->mss = (uint16_t)(tcp[i + 2] << 8 | tcp[i + 3]);
		} else if (kind == 3 && olen == 3) {
			ti->has_wscale = true;
			ti->wscale = tcp[i + 2];
		} else if (kind == 8 && olen == 10) {
			ti->has_ts = true;
			memcpy(&ti->tsval, tcp + i + 2, 4);
			memcpy(&ti->tsecr, tcp + i + 6, 4);
			ti->tsval = rte_be_to_cpu_32(ti->tsval);
			ti->tsecr = rte_be_to_cpu_32(ti->tsecr);
		}
		i += olen;
	}
}

int
fws_tcp_parse(const uint8_t *frame, uint32_t len, struct fws_tcp_info *ti)
{
	struct fws_pkt_view v;
	const uint8_t *tcp;
	unsigned int a, b;

	memset(ti, 0, sizeof(*ti));
	if (fws_pkt_parse(frame, len, &v) != FWS_PKT_TCP)
		return -EINVAL;
	tcp = v.l4;
	a = v.ipv6 ? 8 + 12 : 12;
	b = v.ipv6 ? 24 + 12 : 16;
	memcpy(&ti->src_be, v.l3 + a, 4);
	memcpy(&ti->dst_be, v.l3 + b, 4);
	memcpy(&ti->sport_be, tcp, 2);
	memcpy(&ti->dport_be, tcp + 2, 2);
	memcpy(&ti->seq, tcp + 4, 4);
	memcpy(&ti->ack, tcp + 8, 4);
	ti->seq = rte_be_to_cpu_32(ti->seq);
	ti->ack = rte_be_to_cpu_32(ti->ack);
	ti->flags = tcp[13];
	ti->window = (uint16_t)(tcp[14] << 8 | tcp[15]);
	ti->payload_len = v.payload_len;
	parse_options(tcp, (uint32_t)(v.payload - tcp), ti);
	return 0;
}

/* Big-endian 16 and 24-bit lengths. */
static uint8_t *
be16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
	return p + 2;
}

/*
 * A TLS ClientHello as browsers open with (RFC 8446 4.1.2): record header, handshake
 * header, legacy version 1.2, a fixed random, an empty session id, two cipher suites (one
 * of TLS 1.3, one of 1.2), no compression, and the extensions server_name (RFC 6066:
 * the SNI application control reads), supported_groups (x25519), signature_algorithms
 * (ecdsa_secp256r1_sha256) and supported_versions (1.3, 1.2).
 */
static uint32_t
client_hello(uint8_t *buf, uint32_t room, const char *name)
{
	static const uint8_t tail[] = {0x00, 0x0a, 0x00, 0x04, 0x00, 0x02, 0x00, 0x1d, /* groups */
				       0x00, 0x0d, 0x00, 0x04, 0x00, 0x02, 0x04, 0x03, /* sigalgs */
				       0x00, 0x2b, 0x00, 0x05, 0x04, 0x03, 0x04, 0x03, 0x03};
	uint32_t n = (uint32_t)strlen(name), ext = 9 + n + sizeof(tail);
	uint32_t hello = 2 + 32 + 1 + 2 + 4 + 2 + 2 + ext, i;
	uint8_t *p = buf;

	if (n > 255 || room < 5 + 4 + hello)
		return 0;
	*p++ = 0x16; /* handshake record, TLS 1.0 on the record layer as is customary */
	*p++ = 0x03;
	*p++ = 0x01;
	p = be16(p, 4 + hello);
	*p++ = 0x01; /* ClientHello */
	*p++ = 0;
	p = be16(p, hello);
	*p++ = 0x03;
	*p++ = 0x03;
	for (i = 0; i < 32; i++)
		*p++ = (uint8_t)(0xf5 ^ i * 37);
	*p++ = 0; /* session id */
	p = be16(p, 4);
	p = be16(p, 0x1301); /* TLS_AES_128_GCM_SHA256 */
	p = be16(p, 0xc02f); /* TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 */
	*p++ = 1;
	*p++ = 0; /* null compression */
	p = be16(p, ext);
	p = be16(p, 0x0000); /* server_name */
	p = be16(p, 5 + n);
	p = be16(p, 3 + n);
	*p++ = 0; /* host_name */
	p = be16(p, n);
	memcpy(p, name, n);
	p += n;
	memcpy(p, tail, sizeof(tail));
	p += sizeof(tail);
	return (uint32_t)(p - buf);
}

uint32_t
fws_tcp_preamble(uint8_t *buf, uint32_t room, enum fws_tcp_preamble kind, const char *name)
{
	int n;

	if (kind == FWS_TCP_PRE_TLS)
		return client_hello(buf, room, name);
	n = snprintf((char *)buf, room,
		     "GET / HTTP/1.1\r\nHost: %s\r\nUser-Agent: fwstress\r\nAccept: */*\r\n\r\n",
		     name);
	return n > 0 && (uint32_t)n < room ? (uint32_t)n : 0;
}
