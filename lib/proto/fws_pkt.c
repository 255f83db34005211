/* SPDX-License-Identifier: BSD-3-Clause */
#include <netinet/in.h>

#include "fws_pkt.h"

uint32_t
fws_pkt_sum(const void *p, uint32_t len)
{
	const uint8_t *b = p;
	uint64_t s = 0;
	uint32_t i;
	uint16_t w;

	for (i = 0; i + 1 < len; i += 2) {
		memcpy(&w, b + i, 2);
		s += w;
	}
	if (len & 1) {
		w = 0;
		memcpy(&w, b + len - 1, 1);
		s += w;
	}
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint32_t)s;
}

void
fws_pkt_layout(const struct fws_pkt_hdr *h, struct fws_pkt_layout *l)
{
	l->ipv6 = h->ipv6;
	l->l3 = RTE_ETHER_HDR_LEN + (h->vlan ? FWS_PKT_VLAN_LEN : 0);
	l->l4 = l->l3 + (h->ipv6 ? FWS_PKT_IPV6_LEN : FWS_PKT_IPV4_LEN);
	l->sig = l->l4 + (h->tcp ? FWS_PKT_TCP_LEN : FWS_PKT_UDP_LEN);
}

uint32_t
fws_pkt_eth(uint8_t *buf, const struct rte_ether_addr *src, const struct rte_ether_addr *dst,
	    uint16_t vlan, uint16_t l3type_be)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)buf;

	rte_ether_addr_copy(dst, &eth->dst_addr);
	rte_ether_addr_copy(src, &eth->src_addr);
	if (vlan) {
		struct rte_vlan_hdr *vh = (struct rte_vlan_hdr *)(eth + 1);

		eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_VLAN);
		vh->vlan_tci = rte_cpu_to_be_16(vlan & 0xfff);
		vh->eth_proto = l3type_be;
		return RTE_ETHER_HDR_LEN + FWS_PKT_VLAN_LEN;
	}
	eth->ether_type = l3type_be;
	return RTE_ETHER_HDR_LEN;
}

/* A data segment's TCP header (a flood's SYN: SYN alone): 32 bytes, ACK and PSH, the largest window field (scaled by
 * FWS_TCP_WSCALE), NOP NOP and the timestamp option; ports, numbers and the option's
 * values are written per flow and frame. */
static void
tcp_template(uint8_t *l4, bool syn)
{
	l4[12] = (FWS_PKT_TCP_LEN / 4) << 4;
	l4[13] = syn ? 0x02 : 0x18; /* SYN (a flood, no ACK number), or ACK | PSH */
	l4[14] = 0xff;
	l4[15] = 0xff;
	l4[20] = 1;
	l4[21] = 1;
	l4[22] = 8;
	l4[23] = 10;
}

/* The bytes of buf from `from` to `to` (the signature is written over the first): the
 * counter counts from the frame's start. */
static void
fill(uint8_t *buf, uint32_t from, uint32_t to, const struct fws_pkt_hdr *h)
{
	uint8_t *p = buf + from;
	uint32_t n = to - from;
	uint64_t x = h->fill_seed | 1;
	uint32_t i;

	for (i = 0; i < n; i++) {
		switch (h->fill) {
		case FWS_FILL_ZERO:
			p[i] = 0;
			break;
		case FWS_FILL_RANDOM: /* xorshift64*: the same bytes for the whole run */
			x ^= x >> 12;
			x ^= x << 25;
			x ^= x >> 27;
			p[i] = (uint8_t)((x * 0x2545f4914f6cdd1dull) >> 56);
			break;
		case FWS_FILL_PATTERN:
			p[i] = h->fill_len ? h->fill_pattern[i % h->fill_len] : 0;
			break;
		default:
			p[i] = (uint8_t)((from + i) * 7 + 1);
		}
	}
}

void
fws_pkt_template(uint8_t *buf, uint32_t room, const struct fws_pkt_hdr *h)
{
	struct fws_pkt_layout l;
	uint32_t w0 = fws_sig_word0(h->stream);
	uint16_t l3type = RTE_BE16(h->ipv6 ? RTE_ETHER_TYPE_IPV6 : RTE_ETHER_TYPE_IPV4);

	fws_pkt_layout(h, &l);
	fill(buf, l.sig, room, h);
	memset(buf, 0, l.sig + FWS_SIG_LEN);
	if (h->payload_len && (uint32_t)l.sig + FWS_SIG_LEN + h->payload_len <= room)
		memcpy(buf + l.sig + FWS_SIG_LEN, h->payload, h->payload_len);
	fws_pkt_eth(buf, &h->src, &h->dst, h->vlan, l3type);
	if (h->ipv6) {
		struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(buf + l.l3);

		ip->vtc_flow = RTE_BE32(6u << 28);
		ip->proto = h->tcp ? IPPROTO_TCP : IPPROTO_UDP;
		ip->hop_limits = h->ttl ? h->ttl : 64;
		memcpy(fws_ip6_src(ip), h->src6, 12);
		memcpy(fws_ip6_dst(ip), h->dst6, 12);
	} else {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(buf + l.l3);

		ip->version_ihl = RTE_IPV4_VHL_DEF;
		ip->fragment_offset = h->df ? RTE_BE16(RTE_IPV4_HDR_DF_FLAG) : 0;
		ip->time_to_live = h->ttl ? h->ttl : 64;
		ip->next_proto_id = h->tcp ? IPPROTO_TCP : IPPROTO_UDP;
	}
	if (h->tcp)
		tcp_template(buf + l.l4, h->syn);
	memcpy(buf + l.sig, &w0, 4);
}

void
fws_pkt_size_init(struct fws_pkt_size *s, const uint8_t *tmpl, const struct fws_pkt_hdr *h,
		  uint16_t frame)
{
	struct fws_pkt_layout l;
	uint16_t data_len = (uint16_t)(frame - FWS_PKT_FCS), udp_len;
	uint8_t ph[4];

	fws_pkt_layout(h, &l);
	udp_len = (uint16_t)(data_len - l.l4);
	memset(s, 0, sizeof(*s));
	s->id_mul = (uint16_t)(h->flows > 0 && h->flows < 65536 ? h->flows : 1);
	s->id_add = (uint16_t)(h->stream * 40503u);
	s->frame = frame;
	s->data_len = data_len;
	s->udp_len_be = rte_cpu_to_be_16(udp_len);
	if (h->ipv6) {
		s->ip_len_be = s->udp_len_be;
	} else {
		uint8_t ip[FWS_PKT_IPV4_LEN];
		struct rte_ipv4_hdr *iph = (struct rte_ipv4_hdr *)ip;

		s->ip_len_be = rte_cpu_to_be_16((uint16_t)(data_len - l.l3));
		memcpy(ip, tmpl + l.l3, sizeof(ip));
		iph->total_length = s->ip_len_be;
		iph->hdr_checksum = 0;
		iph->src_addr = 0;
		iph->dst_addr = 0;
		s->ip_sum = fws_pkt_sum(ip, sizeof(ip));
	}
	/* Pseudo header: zero, protocol, L4 length (IPv6: a 32-bit length, same sum). */
	ph[0] = 0;
	ph[1] = h->tcp ? IPPROTO_TCP : IPPROTO_UDP;
	memcpy(ph + 2, &s->udp_len_be, 2);
	s->ph_sum = fws_pkt_sum(ph, sizeof(ph));
	if (h->tcp) {
		/* The TCP header's constant words (the template zeroes ports, numbers,
		 * checksum and option values), signature word 0 and the pattern. */
		s->udp_sum = fws_pkt_fold(s->ph_sum + fws_pkt_sum(tmpl + l.l4, data_len - l.l4));
		return;
	}
	/* UDP header with zero ports and checksum: only the length counts. Then signature word 0
	 * (the rest of the signature is zero in the template) and the pattern. */
	s->udp_sum = fws_pkt_fold(s->ph_sum + fws_pkt_halves(s->udp_len_be) +
				  fws_pkt_sum(tmpl + l.sig, data_len - l.sig));
}

void
fws_pkt_flow_init(struct fws_pkt_flow *f, const struct fws_pkt_hdr *h,
		  const struct fws_flow_tuple *t, uint32_t index)
{
	memset(f, 0, sizeof(*f));
	f->src_be = rte_cpu_to_be_32(t->src_ip);
	f->dst_be = rte_cpu_to_be_32(t->dst_ip);
	f->sport_be = rte_cpu_to_be_16(t->src_port);
	f->dport_be = rte_cpu_to_be_16(t->dst_port);
	f->ip_sum = fws_pkt_fold(fws_pkt_halves(f->src_be) + fws_pkt_halves(f->dst_be));
	if (h->ipv6)
		f->ip_sum = fws_pkt_fold(f->ip_sum + fws_pkt_sum(h->src6, 12) +
					 fws_pkt_sum(h->dst6, 12));
	f->l4_sum = fws_pkt_fold(f->ip_sum + f->sport_be + f->dport_be);
	f->index = index;
}

enum fws_pkt_kind
fws_pkt_tcp_view(const uint8_t *p, uint32_t len, uint32_t off, int32_t seg_len,
		 struct fws_pkt_view *v)
{
	uint32_t doff;

	if (len < off + 20 || seg_len < 20)
		return FWS_PKT_TRUNCATED;
	doff = (uint32_t)(p[off + 12] >> 4) * 4;
	if (doff < 20 || (uint32_t)seg_len < doff || len < off + (uint32_t)seg_len)
		return FWS_PKT_TRUNCATED;
	v->l4 = p + off;
	v->payload = p + off + doff;
	v->payload_len = (uint32_t)seg_len - doff;
	return FWS_PKT_TCP;
}

/* The error's class and announced MTU from its type and code. */
static void
icmp_class(const uint8_t *icmp, bool v6, struct fws_icmp_info *e)
{
	e->type = icmp[0];
	e->code = icmp[1];
	if (v6) {
		e->cls = e->type == 2   ? FWS_ICMP_TOO_BIG
			 : e->type == 3 ? FWS_ICMP_TIME
			 : e->type == 4 ? FWS_ICMP_PARAM
					: FWS_ICMP_UNREACH;
		if (e->cls == FWS_ICMP_TOO_BIG)
			e->mtu = (uint32_t)icmp[4] << 24 | (uint32_t)icmp[5] << 16 |
				 (uint32_t)icmp[6] << 8 | icmp[7];
		return;
	}
	e->cls = e->type == 3 && e->code == 4 ? FWS_ICMP_TOO_BIG
		 : e->type == 11              ? FWS_ICMP_TIME
		 : e->type == 12              ? FWS_ICMP_PARAM
					      : FWS_ICMP_UNREACH;
	if (e->cls == FWS_ICMP_TOO_BIG) /* RFC 1191: the next-hop MTU, 0 from old routers */
		e->mtu = (uint32_t)icmp[6] << 8 | icmp[7];
}

/* The quoted IP header at q (n bytes of quote): addresses, protocol, where L4 starts. */
static int
quoted_ip(const uint8_t *q, uint32_t n, struct fws_icmp_info *e, uint32_t *l4)
{
	if (n >= 1 && (q[0] >> 4) == 6) {
		if (n < FWS_PKT_IPV6_LEN)
			return -EINVAL;
		e->ipv6 = true;
		e->proto = q[6];
		e->src = (uint32_t)q[20] << 24 | (uint32_t)q[21] << 16 | (uint32_t)q[22] << 8 |
			 q[23];
		e->dst = (uint32_t)q[36] << 24 | (uint32_t)q[37] << 16 | (uint32_t)q[38] << 8 |
			 q[39];
		*l4 = FWS_PKT_IPV6_LEN;
		return 0;
	}
	if (n < FWS_PKT_IPV4_LEN || (q[0] >> 4) != 4 ||
	    (uint32_t)(q[0] & 15) * 4 < FWS_PKT_IPV4_LEN || (uint32_t)(q[0] & 15) * 4 > n)
		return -EINVAL;
	e->proto = q[9];
	e->src = (uint32_t)q[12] << 24 | (uint32_t)q[13] << 16 | (uint32_t)q[14] << 8 | q[15];
	e->dst = (uint32_t)q[16] << 24 | (uint32_t)q[17] << 16 | (uint32_t)q[18] << 8 | q[19];
	*l4 = (uint32_t)(q[0] & 15) * 4;
	return 0;
}

/* The Ethernet type of a frame (network order, after one 802.1Q tag) and where its payload
 * starts; -EINVAL when the frame is shorter than that. */
static int
eth_type(const uint8_t *p, uint32_t len, uint32_t *off, uint16_t *type)
{
	*off = RTE_ETHER_HDR_LEN;
	if (len < *off)
		return -EINVAL;
	memcpy(type, p + 12, 2);
	if (*type == RTE_BE16(RTE_ETHER_TYPE_VLAN)) {
		if (len < *off + FWS_PKT_VLAN_LEN)
			return -EINVAL;
		memcpy(type, p + 16, 2);
		*off += FWS_PKT_VLAN_LEN;
	}
	return 0;
}

uint32_t
fws_pkt_first_fragment(const uint8_t *p, uint32_t len, const uint8_t **payload)
{
	uint32_t off, hl = 0;
	uint16_t type;
	uint8_t proto;

	if (eth_type(p, len, &off, &type) < 0)
		return 0;
	if (type == RTE_BE16(RTE_ETHER_TYPE_IPV4)) {
		if (len < off + FWS_PKT_IPV4_LEN || (p[off] >> 4) != 4 || (p[off] & 15) < 5 ||
		    !(p[off + 6] & 0x20) || (p[off + 6] & 0x1f) || p[off + 7])
			return 0; /* not IPv4, or not a first fragment (MF set, offset 0) */
		proto = p[off + 9];
		off += (uint32_t)(p[off] & 15) * 4;
	} else if (type == RTE_BE16(RTE_ETHER_TYPE_IPV6)) {
		if (len < off + FWS_PKT_IPV6_LEN + 8 || p[off + 6] != IPPROTO_FRAGMENT)
			return 0;
		off += FWS_PKT_IPV6_LEN;
		if (!(p[off + 3] & 1) || p[off + 2] || (p[off + 3] & 0xf8))
			return 0; /* offset 0, M set */
		proto = p[off];
		off += 8;
	} else {
		return 0;
	}
	if (proto == IPPROTO_UDP)
		hl = FWS_PKT_UDP_LEN;
	else if (proto == IPPROTO_TCP && len >= off + 13)
		hl = (uint32_t)(p[off + 12] >> 4) * 4;
	if (hl < FWS_PKT_UDP_LEN || len <= off + hl)
		return 0;
	*payload = p + off + hl;
	return len - off - hl;
}

int
fws_pkt_icmp_parse(const uint8_t *p, uint32_t len, struct fws_icmp_info *e)
{
	uint32_t off, l4, hl, ipl;
	uint16_t type;
	bool v6;

	memset(e, 0, sizeof(*e));
	if (eth_type(p, len, &off, &type) < 0)
		return -EINVAL;
	v6 = type == RTE_BE16(RTE_ETHER_TYPE_IPV6);
	if (len < off + (v6 ? FWS_PKT_IPV6_LEN : FWS_PKT_IPV4_LEN))
		return -EINVAL;
	/* The IP length bounds the quote (a short frame is padded). */
	ipl = v6 ? FWS_PKT_IPV6_LEN + (uint32_t)(p[off + 4] << 8 | p[off + 5])
		 : (uint32_t)(p[off + 2] << 8 | p[off + 3]);
	len = RTE_MIN(len, off + ipl);
	off += v6 ? FWS_PKT_IPV6_LEN : (uint32_t)(p[off] & 15) * 4;
	if (len < off + 8) /* the ICMP header */
		return -EINVAL;
	icmp_class(p + off, v6, e);
	off += 8;
	if (quoted_ip(p + off, len - off, e, &l4) < 0)
		return -EINVAL;
	off += l4;
	if (len < off + 4)
		return 0; /* the quote ends before the ports */
	e->has_ports = e->proto == IPPROTO_UDP || e->proto == IPPROTO_TCP;
	e->sport = (uint16_t)(p[off] << 8 | p[off + 1]);
	e->dport = (uint16_t)(p[off + 2] << 8 | p[off + 3]);
	hl = e->proto == IPPROTO_TCP ? (len >= off + 13 ? (uint32_t)(p[off + 12] >> 4) * 4 : 0)
				     : FWS_PKT_UDP_LEN;
	if (hl >= FWS_PKT_UDP_LEN && len > off + hl) {
		e->quoted_payload = p + off + hl;
		e->quoted_len = len - off - hl;
	}
	return 0;
}
