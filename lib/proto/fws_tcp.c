/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>

#include "fws_tcp.h"

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

uint32_t
fws_tcp_build(uint8_t *buf, uint32_t room, const struct fws_tcp_seg *s)
{
	uint32_t l3 = RTE_ETHER_HDR_LEN + (s->vlan ? FWS_PKT_VLAN_LEN : 0), thl, len, v;
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)buf;
	struct rte_ipv4_hdr *ip;
	uint8_t *tcp;
	uint16_t w;

	if (room < l3 + FWS_PKT_IPV4_LEN + FWS_TCP_SYN_LEN)
		return 0;
	memset(buf, 0, l3 + FWS_PKT_IPV4_LEN + FWS_TCP_SYN_LEN);
	rte_ether_addr_copy(&s->dst_mac, &eth->dst_addr);
	rte_ether_addr_copy(&s->src_mac, &eth->src_addr);
	if (s->vlan) {
		struct rte_vlan_hdr *vh = (struct rte_vlan_hdr *)(eth + 1);

		eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_VLAN);
		vh->vlan_tci = rte_cpu_to_be_16(s->vlan & 0xfff);
		vh->eth_proto = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	} else {
		eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	}
	ip = (struct rte_ipv4_hdr *)(buf + l3);
	tcp = buf + l3 + FWS_PKT_IPV4_LEN;
	thl = 20 + options(tcp + 20, s);
	len = l3 + FWS_PKT_IPV4_LEN + thl;
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16((uint16_t)(FWS_PKT_IPV4_LEN + thl));
	ip->time_to_live = s->ttl ? s->ttl : 64;
	ip->next_proto_id = IPPROTO_TCP;
	ip->src_addr = s->src_be;
	ip->dst_addr = s->dst_be;
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
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	w = rte_ipv4_udptcp_cksum(ip, tcp);
	memcpy(tcp + 16, &w, 2);
	return len;
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
