/* SPDX-License-Identifier: BSD-3-Clause */
/* Control plane frames: ARP, ICMP echo, IPv6 neighbour discovery, built and answered. */
#include <stdlib.h>
#include <string.h>

#include <rte_arp.h>
#include <rte_icmp.h>
#include <rte_ip.h>

#include "fws_ctl.h"
#include "fws_pkt.h"
#include "unit.h"

static struct fws_ctl_port cp;
static const struct rte_ether_addr peer = {{0x02, 0xaa, 0, 0, 0, 1}};
static const uint8_t our6[16] = {0x20, 0x01, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2};
static const uint8_t gw6[16] = {0x20, 0x01, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1};
static const uint8_t range6[12] = {0x20, 0x01, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0};

static void
setup(void)
{
	memset(&cp, 0, sizeof(cp));
	cp.mac = (struct rte_ether_addr){{0x02, 0x46, 0x57, 0, 0, 1}};
	cp.ipv4 = 0xc6120002; /* 198.18.0.2 */
	cp.gw4 = 0xc6120001;
	cp.has_ipv6 = true;
	memcpy(cp.ipv6, our6, 16);
	cp.gw6_set = true;
	memcpy(cp.gw6, gw6, 16);
	fws_ctl_add_range(&cp, false, NULL, 0xc6120002, 0xc6120002);
	fws_ctl_add_range(&cp, false, NULL, 0xc6120100, 0xc61204ff); /* stream sources */
	fws_ctl_add_range(&cp, true, range6, 2, 2);
	fws_ctl_add_range(&cp, true, range6, 0x100, 0x4ff);
}

static uint64_t
counted(void)
{
	const struct fws_ctl_counters *c = &cp.cnt;

	return c->arp_requests + c->arp_replies + c->nd_solicits + c->nd_adverts +
	       c->echo_requests + c->ignored + c->malformed;
}

/* An ARP frame from the peer; the peer claims sip. */
static uint32_t
arp_frame(uint8_t *buf, uint16_t op, uint32_t sip, uint32_t tip, uint16_t vlan)
{
	struct fws_ctl_port peer_port = {.mac = peer, .vlan = vlan, .ipv4 = sip};
	uint32_t len = fws_ctl_arp_request(&peer_port, tip, buf);
	uint32_t off = vlan ? 18 : 14;
	struct rte_arp_hdr *arp = (struct rte_arp_hdr *)(buf + off);

	arp->arp_opcode = rte_cpu_to_be_16(op);
	return len;
}

START_TEST(test_ctl_arp)
{
	uint8_t buf[256];
	uint32_t len;
	struct rte_arp_hdr *arp = (struct rte_arp_hdr *)(buf + 14);

	/* A request for a stream source address: answered as that address, from our MAC. */
	len = arp_frame(buf, RTE_ARP_OP_REQUEST, 0xc6120009, 0xc6120105, 0);
	ck_assert_int_eq(fws_ctl_input(&cp, buf, &len, sizeof(buf)), 1);
	ck_assert_uint_eq(len, 60);
	ck_assert_uint_eq(rte_be_to_cpu_16(arp->arp_opcode), RTE_ARP_OP_REPLY);
	ck_assert_uint_eq(rte_be_to_cpu_32(arp->arp_data.arp_sip), 0xc6120105);
	ck_assert_uint_eq(rte_be_to_cpu_32(arp->arp_data.arp_tip), 0xc6120009);
	ck_assert(rte_is_same_ether_addr(&arp->arp_data.arp_sha, &cp.mac));
	ck_assert(rte_is_same_ether_addr(&arp->arp_data.arp_tha, &peer));
	ck_assert(rte_is_same_ether_addr((struct rte_ether_addr *)buf, &peer));
	ck_assert_uint_eq(cp.cnt.arp_requests, 1);
	/* Not ours: ignored. */
	len = arp_frame(buf, RTE_ARP_OP_REQUEST, 0xc6120009, 0xc6120600, 0);
	ck_assert_int_eq(fws_ctl_input(&cp, buf, &len, sizeof(buf)), 0);
	ck_assert_uint_eq(cp.cnt.ignored, 1);
	ck_assert(!cp.gw4_known);
	/* The gateway's reply teaches us its MAC. */
	len = arp_frame(buf, RTE_ARP_OP_REPLY, 0xc6120001, 0xc6120002, 0);
	ck_assert_int_eq(fws_ctl_input(&cp, buf, &len, sizeof(buf)), 0);
	ck_assert(cp.gw4_known);
	ck_assert(rte_is_same_ether_addr(&cp.gw4_mac, &peer));
	ck_assert_uint_eq(cp.cnt.arp_replies, 1);
	/* Tagged request: the reply keeps the tag. */
	len = arp_frame(buf, RTE_ARP_OP_REQUEST, 0xc6120009, 0xc6120002, 7);
	ck_assert_int_eq(fws_ctl_input(&cp, buf, &len, sizeof(buf)), 1);
	ck_assert_uint_eq(buf[12], 0x81);
	ck_assert_uint_eq(buf[15], 7);
	ck_assert_uint_eq(rte_be_to_cpu_16(((struct rte_arp_hdr *)(buf + 18))->arp_opcode),
			  RTE_ARP_OP_REPLY);
	/* Our own gratuitous ARP names us as sender and target. */
	len = fws_ctl_arp_request(&cp, cp.ipv4, buf);
	ck_assert_uint_eq(rte_be_to_cpu_32(arp->arp_data.arp_tip), cp.ipv4);
	ck_assert_uint_eq(counted(), 4);
}
END_TEST

START_TEST(test_ctl_echo4)
{
	uint8_t buf[256] = {0};
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(buf + 14);
	struct rte_icmp_hdr *icmp = (struct rte_icmp_hdr *)(ip + 1);
	uint32_t len = 14 + 20 + 8 + 56;

	buf[12] = 0x08;
	memcpy(buf + 6, &peer, 6);
	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16(20 + 8 + 56);
	ip->time_to_live = 3;
	ip->next_proto_id = IPPROTO_ICMP;
	ip->src_addr = rte_cpu_to_be_32(0xc6130001);
	ip->dst_addr = rte_cpu_to_be_32(0xc6120002);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	icmp->icmp_type = FWS_ICMP_ECHO_REQUEST;
	icmp->icmp_ident = 77;
	memset(icmp + 1, 0x61, 56);
	icmp->icmp_cksum = (uint16_t)~fws_pkt_fold(fws_pkt_sum(icmp, 64));
	ck_assert_int_eq(fws_ctl_input(&cp, buf, &len, sizeof(buf)), 1);
	ck_assert_uint_eq(icmp->icmp_type, FWS_ICMP_ECHO_REPLY);
	ck_assert_uint_eq(icmp->icmp_ident, 77);
	ck_assert_uint_eq(rte_be_to_cpu_32(ip->dst_addr), 0xc6130001);
	ck_assert_uint_eq(rte_be_to_cpu_32(ip->src_addr), 0xc6120002);
	ck_assert_uint_eq(rte_ipv4_cksum(ip), 0);
	ck_assert_uint_eq(fws_pkt_fold(fws_pkt_sum(icmp, 64)), 0xffff);
	/* Claims more bytes than the frame has: malformed, no reply. */
	ip->total_length = rte_cpu_to_be_16(1400);
	icmp->icmp_type = FWS_ICMP_ECHO_REQUEST;
	ck_assert_int_eq(fws_ctl_input(&cp, buf, &len, sizeof(buf)), 0);
	ck_assert_uint_eq(cp.cnt.malformed, 1);
}
END_TEST

/* Verify an ICMPv6 checksum from scratch. */
static int
icmp6_ok(const uint8_t *l3)
{
	const struct rte_ipv6_hdr *ip = (const struct rte_ipv6_hdr *)l3;
	uint32_t plen = rte_be_to_cpu_16(ip->payload_len), s;
	uint8_t ph[8] = {0};

	ph[2] = (uint8_t)(plen >> 8);
	ph[3] = (uint8_t)plen;
	ph[7] = IPPROTO_ICMPV6;
	s = fws_pkt_sum(fws_ip6_csrc(ip), 16) + fws_pkt_sum(fws_ip6_cdst(ip), 16) +
	    fws_pkt_sum(ph, 8) + fws_pkt_sum(l3 + 40, plen);
	return fws_pkt_fold(s) == 0xffff;
}

START_TEST(test_ctl_nd)
{
	struct fws_ctl_port router = {.mac = peer, .has_ipv6 = true};
	uint8_t buf[256], target[16] = {0};
	const uint8_t *m = buf + 14 + 40;
	uint32_t len;

	memcpy(router.ipv6, gw6, 16);
	/* The router solicits one of our stream addresses. */
	memcpy(target, range6, 12);
	target[14] = 0x02;
	target[15] = 0x22;
	len = fws_ctl_ns(&router, target, buf);
	ck_assert(icmp6_ok(buf + 14));
	ck_assert_uint_eq(buf[0], 0x33); /* solicited-node multicast */
	ck_assert_int_eq(fws_ctl_input(&cp, buf, &len, sizeof(buf)), 1);
	ck_assert_uint_eq(m[0], 136);
	ck_assert_uint_eq(m[4], 0x60); /* solicited, override */
	ck_assert_mem_eq(m + 8, target, 16);
	ck_assert_uint_eq(m[24], 2); /* target link-layer address */
	ck_assert_mem_eq(m + 26, cp.mac.addr_bytes, 6);
	ck_assert_mem_eq(buf + 14 + 24, gw6, 16); /* back to the router */
	ck_assert_mem_eq(buf, peer.addr_bytes, 6);
	ck_assert(icmp6_ok(buf + 14));
	ck_assert_uint_eq(cp.cnt.nd_solicits, 1);
	/* An address outside our ranges: ignored. */
	target[13] = 9;
	len = fws_ctl_ns(&router, target, buf);
	ck_assert_int_eq(fws_ctl_input(&cp, buf, &len, sizeof(buf)), 0);
	ck_assert_uint_eq(cp.cnt.ignored, 1);
	/* The router's unsolicited NA teaches us the gateway MAC. */
	len = fws_ctl_unsolicited_na(&router, gw6, buf);
	ck_assert(icmp6_ok(buf + 14));
	ck_assert_int_eq(fws_ctl_input(&cp, buf, &len, sizeof(buf)), 0);
	ck_assert(cp.gw6_known);
	ck_assert(rte_is_same_ether_addr(&cp.gw6_mac, &peer));
	/* Too small a buffer for the answer: not written past. */
	memcpy(target, our6, 16);
	len = fws_ctl_ns(&router, target, buf);
	ck_assert_int_eq(fws_ctl_input(&cp, buf, &len, 80), 0);
	ck_assert_uint_eq(cp.cnt.malformed, 1);
	ck_assert_uint_eq(counted(), 4);
}
END_TEST

START_TEST(test_ctl_echo6)
{
	uint8_t buf[256] = {0};
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(buf + 14);
	uint8_t *m = buf + 54;
	uint32_t len = 54 + 16, s;
	uint8_t ph[8] = {0, 0, 0, 16, 0, 0, 0, IPPROTO_ICMPV6};
	uint16_t ck;

	buf[12] = 0x86;
	buf[13] = 0xdd;
	ip->vtc_flow = RTE_BE32(6u << 28);
	ip->payload_len = RTE_BE16(16);
	ip->proto = IPPROTO_ICMPV6;
	memcpy(fws_ip6_src(ip), gw6, 16);
	memcpy(fws_ip6_dst(ip), our6, 16);
	m[0] = 128;
	memset(m + 8, 0x77, 8);
	s = fws_pkt_sum(fws_ip6_csrc(ip), 16) + fws_pkt_sum(fws_ip6_cdst(ip), 16) +
	    fws_pkt_sum(ph, 8) + fws_pkt_sum(m, 16);
	ck = (uint16_t)~fws_pkt_fold(s);
	memcpy(m + 2, &ck, 2);
	ck_assert(icmp6_ok(buf + 14));
	ck_assert_int_eq(fws_ctl_input(&cp, buf, &len, sizeof(buf)), 1);
	ck_assert_uint_eq(m[0], 129);
	ck_assert_mem_eq(fws_ip6_dst(ip), gw6, 16);
	ck_assert(icmp6_ok(buf + 14));
}
END_TEST

/* Random and truncated frames: never a crash, every frame in exactly one counter. */
START_TEST(test_ctl_garbage)
{
	static const uint16_t types[] = {0x0806, 0x0800, 0x86dd, 0x8100, 0x88cc};
	uint64_t st = 12345;
	uint8_t buf[256];
	unsigned int i, j;

	for (i = 0; i < 20000; i++) {
		uint32_t len;

		for (j = 0; j < sizeof(buf); j++) {
			st ^= st << 13;
			st ^= st >> 7;
			st ^= st << 17;
			buf[j] = (uint8_t)st;
		}
		len = (uint32_t)(st % 120);
		buf[12] = (uint8_t)(types[i % 5] >> 8);
		buf[13] = (uint8_t)types[i % 5];
		if (i % 3 == 0 && len > 30) { /* plausible headers, random rest */
			buf[14] = 0x45;
			buf[16] = 0;
			buf[17] = (uint8_t)(len - 14);
			buf[23] = 1;
			buf[34] = 8;
		}
		fws_ctl_input(&cp, buf, &len, (uint32_t)sizeof(buf));
		ck_assert_uint_le(len, sizeof(buf));
	}
	ck_assert_uint_eq(counted(), 20000);
	ck_assert_uint_gt(cp.cnt.malformed, 1000);
}
END_TEST

static Suite *
suite_ctl(void)
{
	Suite *s = suite_create("ctl");
	TCase *tc = tcase_create("control");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_ctl_arp);
	tcase_add_test(tc, test_ctl_echo4);
	tcase_add_test(tc, test_ctl_nd);
	tcase_add_test(tc, test_ctl_echo6);
	tcase_add_test(tc, test_ctl_garbage);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_ctl)
