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
fws_pkt_template(uint8_t *buf, uint32_t room, const struct fws_pkt_hdr *h)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)buf;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(buf + FWS_PKT_L3_OFF);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(buf + FWS_PKT_L4_OFF);
	uint32_t w0 = fws_sig_word0(h->stream);
	uint32_t i;

	/* Payload pattern: a counter, so the payload is neither zeros nor compressible. */
	for (i = FWS_PKT_SIG_OFF; i < room; i++)
		buf[i] = (uint8_t)(i * 7 + 1);
	memset(buf, 0, FWS_PKT_SIG_OFF + FWS_SIG_LEN);
	rte_ether_addr_copy(&h->dst, &eth->dst_addr);
	rte_ether_addr_copy(&h->src, &eth->src_addr);
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->type_of_service = 0;
	ip->packet_id = 0;
	ip->fragment_offset = 0;
	ip->time_to_live = h->ttl ? h->ttl : 64;
	ip->next_proto_id = IPPROTO_UDP;
	udp->dgram_cksum = 0;
	memcpy(buf + FWS_PKT_SIG_OFF, &w0, 4);
}

void
fws_pkt_size_init(struct fws_pkt_size *s, const uint8_t *tmpl, uint16_t frame)
{
	uint8_t ip[sizeof(struct rte_ipv4_hdr)];
	struct rte_ipv4_hdr *iph = (struct rte_ipv4_hdr *)ip;
	uint16_t data_len = (uint16_t)(frame - FWS_PKT_FCS);
	uint16_t udp_len = (uint16_t)(data_len - FWS_PKT_L4_OFF);
	uint8_t ph[4];

	memset(s, 0, sizeof(*s));
	s->frame = frame;
	s->data_len = data_len;
	s->ip_len_be = rte_cpu_to_be_16((uint16_t)(data_len - FWS_PKT_L3_OFF));
	s->udp_len_be = rte_cpu_to_be_16(udp_len);
	memcpy(ip, tmpl + FWS_PKT_L3_OFF, sizeof(ip));
	iph->total_length = s->ip_len_be;
	iph->hdr_checksum = 0;
	iph->src_addr = 0;
	iph->dst_addr = 0;
	s->ip_sum = fws_pkt_sum(ip, sizeof(ip));
	/* Pseudo header: zero, protocol, UDP length. */
	ph[0] = 0;
	ph[1] = IPPROTO_UDP;
	memcpy(ph + 2, &s->udp_len_be, 2);
	s->ph_sum = fws_pkt_sum(ph, sizeof(ph));
	/* UDP header with zero ports and checksum: only the length counts. Then signature word 0
	 * (the rest of the signature is zero in the template) and the pattern. */
	s->udp_sum = fws_pkt_fold(s->ph_sum + fws_pkt_halves(s->udp_len_be) +
				  fws_pkt_sum(tmpl + FWS_PKT_SIG_OFF, data_len - FWS_PKT_SIG_OFF));
}

void
fws_pkt_flow_init(struct fws_pkt_flow *f, const struct fws_flow_tuple *t, uint32_t index)
{
	memset(f, 0, sizeof(*f));
	f->src_be = rte_cpu_to_be_32(t->src_ip);
	f->dst_be = rte_cpu_to_be_32(t->dst_ip);
	f->sport_be = rte_cpu_to_be_16(t->src_port);
	f->dport_be = rte_cpu_to_be_16(t->dst_port);
	f->ip_sum = fws_pkt_fold(fws_pkt_halves(f->src_be) + fws_pkt_halves(f->dst_be));
	f->l4_sum = fws_pkt_fold(f->ip_sum + f->sport_be + f->dport_be);
	f->index = index;
}
