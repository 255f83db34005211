/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include <rte_arp.h>
#include <rte_icmp.h>
#include <rte_ip.h>

#include "fws_ctl.h"
#include "fws_dpdk.h"
#include "fws_pkt.h"

#define ICMP6_ECHO_REQUEST 128
#define ICMP6_ECHO_REPLY 129
#define ND_NS 135
#define ND_NA 136
#define ND_OPT_SLLA 1
#define ND_OPT_TLLA 2
#define NA_FLAG_SOLICITED 0x40
#define NA_FLAG_OVERRIDE 0x20

int
fws_ctl_add_range(struct fws_ctl_port *cp, bool ipv6, const uint8_t *hi6, uint32_t lo, uint32_t hi)
{
	struct fws_ctl_range *r;

	if (cp->n_ranges >= FWS_CTL_MAX_RANGES)
		return -ENOSPC;
	r = &cp->ranges[cp->n_ranges++];
	memset(r, 0, sizeof(*r));
	r->ipv6 = ipv6;
	if (ipv6)
		memcpy(r->hi6, hi6, sizeof(r->hi6));
	r->lo = lo;
	r->hi = hi;
	return 0;
}

bool
fws_ctl_ours4(const struct fws_ctl_port *cp, uint32_t ip)
{
	unsigned int i;

	for (i = 0; i < cp->n_ranges; i++)
		if (!cp->ranges[i].ipv6 && ip >= cp->ranges[i].lo && ip <= cp->ranges[i].hi)
			return true;
	return false;
}

bool
fws_ctl_ours6(const struct fws_ctl_port *cp, const uint8_t *ip6)
{
	uint32_t lo;
	unsigned int i;

	memcpy(&lo, ip6 + 12, 4);
	lo = rte_be_to_cpu_32(lo);
	for (i = 0; i < cp->n_ranges; i++) {
		const struct fws_ctl_range *r = &cp->ranges[i];

		if (r->ipv6 && memcmp(r->hi6, ip6, 12) == 0 && lo >= r->lo && lo <= r->hi)
			return true;
	}
	return false;
}

/* Ethernet header (+ the port's VLAN tag) for a frame we originate; returns its length. */
static uint32_t
l2_header(const struct fws_ctl_port *cp, uint8_t *buf, const struct rte_ether_addr *dst,
	  uint16_t type)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)buf;

	rte_ether_addr_copy(dst, &eth->dst_addr);
	rte_ether_addr_copy(&cp->mac, &eth->src_addr);
	if (cp->vlan) {
		struct rte_vlan_hdr *vh = (struct rte_vlan_hdr *)(eth + 1);

		eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_VLAN);
		vh->vlan_tci = rte_cpu_to_be_16(cp->vlan);
		vh->eth_proto = rte_cpu_to_be_16(type);
		return RTE_ETHER_HDR_LEN + FWS_PKT_VLAN_LEN;
	}
	eth->ether_type = rte_cpu_to_be_16(type);
	return RTE_ETHER_HDR_LEN;
}

/* Ethernet frames are at least 60 bytes before the FCS: pad with zeros. */
static uint32_t
pad(uint8_t *buf, uint32_t len)
{
	if (len < RTE_ETHER_MIN_LEN - RTE_ETHER_CRC_LEN) {
		memset(buf + len, 0, RTE_ETHER_MIN_LEN - RTE_ETHER_CRC_LEN - len);
		len = RTE_ETHER_MIN_LEN - RTE_ETHER_CRC_LEN;
	}
	return len;
}

uint32_t
fws_ctl_arp_request(const struct fws_ctl_port *cp, uint32_t target, uint8_t *buf)
{
	static const struct rte_ether_addr bcast = {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};
	uint32_t off = l2_header(cp, buf, &bcast, RTE_ETHER_TYPE_ARP);
	struct rte_arp_hdr *arp = (struct rte_arp_hdr *)(buf + off);
	bool gratuitous = target == cp->ipv4;

	arp->arp_hardware = RTE_BE16(RTE_ARP_HRD_ETHER);
	arp->arp_protocol = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	arp->arp_hlen = RTE_ETHER_ADDR_LEN;
	arp->arp_plen = 4;
	arp->arp_opcode = RTE_BE16(RTE_ARP_OP_REQUEST);
	rte_ether_addr_copy(&cp->mac, &arp->arp_data.arp_sha);
	arp->arp_data.arp_sip = rte_cpu_to_be_32(cp->ipv4);
	memset(&arp->arp_data.arp_tha, 0, sizeof(arp->arp_data.arp_tha));
	arp->arp_data.arp_tip = rte_cpu_to_be_32(gratuitous ? cp->ipv4 : target);
	return pad(buf, off + (uint32_t)sizeof(*arp));
}

/* ICMPv6 checksum over the pseudo header and the message (RFC 8200 8.1). */
static uint16_t
icmp6_cksum(const struct rte_ipv6_hdr *ip, const uint8_t *msg, uint32_t len)
{
	uint8_t ph[8] = {0};
	uint32_t s, l = rte_cpu_to_be_32(len);

	memcpy(ph, &l, 4);
	ph[7] = IPPROTO_ICMPV6;
	s = fws_pkt_sum(fws_ip6_csrc(ip), 16) + fws_pkt_sum(fws_ip6_cdst(ip), 16) +
	    fws_pkt_sum(ph, 8) + fws_pkt_sum(msg, len);
	return (uint16_t)~fws_pkt_fold(s);
}

/* IPv6 header + ND message (type, target, link-layer option); returns the frame length. */
static uint32_t
nd_frame(const struct fws_ctl_port *cp, uint8_t *buf, const struct rte_ether_addr *dmac,
	 const uint8_t *src, const uint8_t *dst, uint8_t type, uint8_t flags, const uint8_t *target)
{
	uint32_t off = l2_header(cp, buf, dmac, RTE_ETHER_TYPE_IPV6);
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(buf + off);
	uint8_t *m = buf + off + sizeof(*ip);
	uint16_t ck;

	memset(ip, 0, sizeof(*ip) + 32);
	ip->vtc_flow = RTE_BE32(6u << 28);
	ip->payload_len = RTE_BE16(32);
	ip->proto = IPPROTO_ICMPV6;
	ip->hop_limits = 255;
	memcpy(fws_ip6_src(ip), src, 16);
	memcpy(fws_ip6_dst(ip), dst, 16);
	m[0] = type;
	m[4] = flags;
	memcpy(m + 8, target, 16);
	m[24] = type == ND_NS ? ND_OPT_SLLA : ND_OPT_TLLA;
	m[25] = 1; /* 8 bytes */
	memcpy(m + 26, cp->mac.addr_bytes, 6);
	ck = icmp6_cksum(ip, m, 32);
	memcpy(m + 2, &ck, 2);
	return off + (uint32_t)sizeof(*ip) + 32;
}

uint32_t
fws_ctl_ns(const struct fws_ctl_port *cp, const uint8_t *target, uint8_t *buf)
{
	/* To the target's solicited-node multicast group ff02::1:ffXX:XXXX. */
	uint8_t dst[16] = {0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff};
	struct rte_ether_addr dmac = {{0x33, 0x33, 0xff, target[13], target[14], target[15]}};

	memcpy(dst + 13, target + 13, 3);
	return nd_frame(cp, buf, &dmac, cp->ipv6, dst, ND_NS, 0, target);
}

uint32_t
fws_ctl_unsolicited_na(const struct fws_ctl_port *cp, const uint8_t *addr, uint8_t *buf)
{
	static const uint8_t all_nodes[16] = {0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
	static const struct rte_ether_addr dmac = {{0x33, 0x33, 0, 0, 0, 1}};

	return nd_frame(cp, buf, &dmac, addr, all_nodes, ND_NA, NA_FLAG_OVERRIDE, addr);
}

static void
learn(struct fws_ctl_port *cp, bool v6, const uint8_t *ip, const struct rte_ether_addr *mac)
{
	if (rte_is_zero_ether_addr(mac) || !rte_is_unicast_ether_addr(mac))
		return;
	if (!v6) {
		uint32_t a;

		memcpy(&a, ip, 4);
		if (cp->gw4 && rte_be_to_cpu_32(a) == cp->gw4) {
			cp->gw4_mac = *mac;
			cp->gw4_known = true;
		}
	} else if (cp->gw6_set && memcmp(ip, cp->gw6, 16) == 0) {
		cp->gw6_mac = *mac;
		cp->gw6_known = true;
	}
}

static int
arp_input(struct fws_ctl_port *cp, uint8_t *buf, uint32_t off, uint32_t *len)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)buf;
	struct rte_arp_hdr *arp = (struct rte_arp_hdr *)(buf + off);
	uint32_t tip, sip;

	if (*len < off + sizeof(*arp) || arp->arp_hardware != RTE_BE16(RTE_ARP_HRD_ETHER) ||
	    arp->arp_protocol != RTE_BE16(RTE_ETHER_TYPE_IPV4) ||
	    arp->arp_hlen != RTE_ETHER_ADDR_LEN || arp->arp_plen != 4) {
		cp->cnt.malformed++;
		return 0;
	}
	sip = arp->arp_data.arp_sip;
	learn(cp, false, (const uint8_t *)&sip, &arp->arp_data.arp_sha);
	tip = rte_be_to_cpu_32(arp->arp_data.arp_tip);
	if (arp->arp_opcode == RTE_BE16(RTE_ARP_OP_REPLY)) {
		cp->cnt.arp_replies++;
		return 0;
	}
	if (arp->arp_opcode != RTE_BE16(RTE_ARP_OP_REQUEST) || !fws_ctl_ours4(cp, tip) ||
	    sip == arp->arp_data.arp_tip) {
		cp->cnt.ignored++;
		return 0;
	}
	/* Reply in place: to the asker, from us, for the address it asked about. */
	arp->arp_opcode = RTE_BE16(RTE_ARP_OP_REPLY);
	arp->arp_data.arp_tha = arp->arp_data.arp_sha;
	arp->arp_data.arp_tip = arp->arp_data.arp_sip;
	rte_ether_addr_copy(&cp->mac, &arp->arp_data.arp_sha);
	arp->arp_data.arp_sip = rte_cpu_to_be_32(tip);
	rte_ether_addr_copy(&eth->src_addr, &eth->dst_addr);
	rte_ether_addr_copy(&cp->mac, &eth->src_addr);
	cp->cnt.arp_requests++;
	*len = pad(buf, off + (uint32_t)sizeof(*arp));
	return 1;
}

static int
icmp4_input(struct fws_ctl_port *cp, uint8_t *buf, uint32_t off, uint32_t *len)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)buf;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(buf + off);
	uint32_t ihl, tot, a;
	struct rte_icmp_hdr *icmp;

	if (*len < off + sizeof(*ip)) {
		cp->cnt.malformed++;
		return 0;
	}
	ihl = (ip->version_ihl & 0xf) * 4u;
	tot = rte_be_to_cpu_16(ip->total_length);
	if (ihl < sizeof(*ip) || tot < ihl + sizeof(*icmp) || *len < off + tot) {
		cp->cnt.malformed++;
		return 0;
	}
	icmp = (struct rte_icmp_hdr *)(buf + off + ihl);
	if (icmp->icmp_type != FWS_ICMP_ECHO_REQUEST ||
	    !fws_ctl_ours4(cp, rte_be_to_cpu_32(ip->dst_addr))) {
		cp->cnt.ignored++;
		return 0;
	}
	/* Echo reply in place: swap addresses, new type and checksums. */
	a = ip->src_addr;
	ip->src_addr = ip->dst_addr;
	ip->dst_addr = a;
	ip->time_to_live = 64;
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	icmp->icmp_type = FWS_ICMP_ECHO_REPLY;
	icmp->icmp_cksum = 0;
	icmp->icmp_cksum = (uint16_t)~fws_pkt_fold(fws_pkt_sum(icmp, tot - ihl));
	rte_ether_addr_copy(&eth->src_addr, &eth->dst_addr);
	rte_ether_addr_copy(&cp->mac, &eth->src_addr);
	cp->cnt.echo_requests++;
	*len = pad(buf, off + tot);
	return 1;
}

static int
icmp6_input(struct fws_ctl_port *cp, uint8_t *buf, uint32_t off, uint32_t *len, uint32_t room)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)buf;
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(buf + off);
	uint8_t *m = buf + off + sizeof(*ip), tmp[16], target[16];
	uint32_t plen;
	uint16_t ck;

	if (*len < off + sizeof(*ip) + 8) {
		cp->cnt.malformed++;
		return 0;
	}
	plen = rte_be_to_cpu_16(ip->payload_len);
	if (ip->proto != IPPROTO_ICMPV6 || plen < 8 || *len < off + sizeof(*ip) + plen) {
		cp->cnt.malformed++;
		return 0;
	}
	switch (m[0]) {
	case ND_NS:
		if (plen < 24) {
			cp->cnt.malformed++;
			return 0;
		}
		memcpy(target, m + 8, 16);
		if (!fws_ctl_ours6(cp, target)) {
			cp->cnt.ignored++;
			return 0;
		}
		if (room < off + sizeof(*ip) + 32) {
			cp->cnt.malformed++;
			return 0;
		}
		{
			static const uint8_t unspec[16];
			static const uint8_t all_nodes[16] = {0xff, 0x02, [15] = 1};
			struct rte_ether_addr dmac = eth->src_addr;
			bool dad = memcmp(fws_ip6_src(ip), unspec, 16) == 0;

			/* Solicited (RFC 4861 7.2.4); a DAD probe gets an all-nodes answer. */
			memcpy(tmp, dad ? all_nodes : fws_ip6_src(ip), 16);
			if (dad)
				dmac = (struct rte_ether_addr){{0x33, 0x33, 0, 0, 0, 1}};
			*len = nd_frame(cp, buf, &dmac, target, tmp, ND_NA,
					(uint8_t)(NA_FLAG_OVERRIDE | (dad ? 0 : NA_FLAG_SOLICITED)),
					target);
		}
		cp->cnt.nd_solicits++;
		*len = pad(buf, *len);
		return 1;
	case ND_NA: {
		uint32_t o;

		cp->cnt.nd_adverts++;
		if (plen < 24)
			return 0;
		/* The target link-layer option, else the frame's source. */
		for (o = 24; o + 8 <= plen && m[o + 1]; o += m[o + 1] * 8u) {
			if (m[o] == ND_OPT_TLLA) {
				learn(cp, true, m + 8, (const struct rte_ether_addr *)(m + o + 2));
				return 0;
			}
		}
		learn(cp, true, m + 8, &eth->src_addr);
		return 0;
	}
	case ICMP6_ECHO_REQUEST:
		if (!fws_ctl_ours6(cp, fws_ip6_dst(ip))) {
			cp->cnt.ignored++;
			return 0;
		}
		memcpy(tmp, fws_ip6_src(ip), 16);
		memcpy(fws_ip6_src(ip), fws_ip6_dst(ip), 16);
		memcpy(fws_ip6_dst(ip), tmp, 16);
		ip->hop_limits = 64;
		m[0] = ICMP6_ECHO_REPLY;
		m[2] = m[3] = 0;
		ck = icmp6_cksum(ip, m, plen);
		memcpy(m + 2, &ck, 2);
		rte_ether_addr_copy(&eth->src_addr, &eth->dst_addr);
		rte_ether_addr_copy(&cp->mac, &eth->src_addr);
		cp->cnt.echo_requests++;
		*len = off + (uint32_t)sizeof(*ip) + plen;
		return 1;
	default:
		cp->cnt.ignored++;
		return 0;
	}
}

int
fws_ctl_input(struct fws_ctl_port *cp, uint8_t *buf, uint32_t *len, uint32_t room)
{
	uint32_t off = RTE_ETHER_HDR_LEN;
	uint16_t type;

	if (*len < RTE_ETHER_HDR_LEN) {
		cp->cnt.malformed++;
		return 0;
	}
	memcpy(&type, buf + 12, 2);
	if (type == RTE_BE16(RTE_ETHER_TYPE_VLAN)) {
		if (*len < RTE_ETHER_HDR_LEN + FWS_PKT_VLAN_LEN) {
			cp->cnt.malformed++;
			return 0;
		}
		memcpy(&type, buf + 16, 2);
		off += FWS_PKT_VLAN_LEN;
	}
	/* A reply keeps the tag of the request; our own frames carry the port's. */
	switch (rte_be_to_cpu_16(type)) {
	case RTE_ETHER_TYPE_ARP:
		return arp_input(cp, buf, off, len);
	case RTE_ETHER_TYPE_IPV4:
		return icmp4_input(cp, buf, off, len);
	case RTE_ETHER_TYPE_IPV6:
		return icmp6_input(cp, buf, off, len, room);
	default:
		cp->cnt.ignored++;
		return 0;
	}
}
