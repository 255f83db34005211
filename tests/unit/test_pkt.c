/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "fws_pkt.h"
#include "fws_size.h"
#include "unit.h"

static uint8_t tmpl[9216];
static uint8_t frame[9216];

/* Layouts under test: untagged IPv4, IPv4 on VLAN 100, IPv6, IPv6 on VLAN 4094. */
static const struct {
	uint16_t vlan;
	bool ipv6;
} layouts[] = {{0, false}, {100, false}, {0, true}, {4094, true}};

static struct fws_pkt_hdr hdr;
static struct fws_pkt_layout lay;

static void
build(unsigned int layout, uint16_t size, const struct fws_flow_tuple *tup, uint32_t cookie,
      uint32_t seq, uint32_t ts)
{
	static const uint8_t s6[12] = {0x20, 0x01, 0x00, 0x02, 0, 0, 0, 1, 0, 0, 0, 0};
	static const uint8_t d6[12] = {0x20, 0x01, 0x00, 0x02, 0, 0, 0, 2, 0xab, 0xcd, 0, 0};
	struct fws_pkt_size sz;
	struct fws_pkt_flow fl;

	memset(&hdr, 0, sizeof(hdr));
	hdr.src = (struct rte_ether_addr){{2, 0, 0, 0, 0, 1}};
	hdr.dst = (struct rte_ether_addr){{2, 0, 0, 0, 0, 2}};
	hdr.stream = 3;
	hdr.vlan = layouts[layout].vlan;
	hdr.ipv6 = layouts[layout].ipv6;
	memcpy(hdr.src6, s6, 12);
	memcpy(hdr.dst6, d6, 12);
	fws_pkt_layout(&hdr, &lay);
	fws_pkt_template(tmpl, sizeof(tmpl), &hdr);
	fws_pkt_size_init(&sz, tmpl, &hdr, size);
	fws_pkt_flow_init(&fl, &hdr, tup, 12345);
	/* The mbuf holds the template from an earlier, different frame: fill must not care. */
	memcpy(frame, tmpl, sizeof(frame));
	memset(frame + lay.sig + 4, 0x5a, FWS_SIG_LEN - 4);
	if (hdr.ipv6)
		fws_pkt_fill(frame + lay.l3, &sz, &fl, fws_sig_word0(3), cookie, seq, ts,
			     fws_pkt_halves(ts), false, true);
	else
		fws_pkt_fill(frame + lay.l3, &sz, &fl, fws_sig_word0(3), cookie, seq, ts,
			     fws_pkt_halves(ts), false, false);
}

/* Recompute the UDP checksum from scratch (RFC 768 / RFC 8200) and compare. */
static int
udp_ok(void)
{
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(frame + lay.l4);
	uint16_t sent = udp->dgram_cksum, again;

	udp->dgram_cksum = 0;
	if (lay.ipv6)
		again = rte_ipv6_udptcp_cksum((const struct rte_ipv6_hdr *)(frame + lay.l3), udp);
	else
		again = rte_ipv4_udptcp_cksum((const struct rte_ipv4_hdr *)(frame + lay.l3), udp);
	udp->dgram_cksum = sent;
	return sent == again;
}

START_TEST(test_pkt_checksums)
{
	static const uint16_t sizes[] = {88, 89, 128, 570, 1518, 9000};
	struct fws_flow_tuple tup = {
		.src_ip = 0xc6120105, .dst_ip = 0xc61301fe, .src_port = 1024, .dst_port = 65535};
	unsigned int i, k;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (k = 0; k < 50; k++) {
			struct fws_pkt_view v;
			struct fws_sig s;

			tup.src_port = (uint16_t)(1024 + k * 977);
			tup.dst_ip = 0xfffffff0u + k;
			build((unsigned int)_i, sizes[i], &tup, 0xabcdef01u * (k + 1), k * 0x10001u,
			      0xfffff000u + k);
			/* Independent check: a full recomputation gives the same checksums. */
			if (!lay.ipv6) {
				const struct rte_ipv4_hdr *ip =
					(const struct rte_ipv4_hdr *)(frame + lay.l3);

				ck_assert_uint_eq(rte_ipv4_cksum(ip), 0);
				ck_assert_uint_eq(rte_be_to_cpu_16(ip->total_length),
						  sizes[i] - 4 - lay.l3);
			} else {
				const struct rte_ipv6_hdr *ip =
					(const struct rte_ipv6_hdr *)(frame + lay.l3);

				ck_assert_uint_eq(rte_be_to_cpu_16(ip->payload_len),
						  sizes[i] - 4 - lay.l4);
				ck_assert_uint_eq(ip->dst_addr[8], 0xab); /* template prefix */
				ck_assert_uint_eq(ip->dst_addr[15], (uint8_t)(0xf0 + k));
			}
			ck_assert_uint_eq(udp_ok(), 1);
			ck_assert_int_eq(fws_pkt_parse(frame, sizes[i] - 4, &v), FWS_PKT_UDP);
			ck_assert_ptr_eq(v.payload, frame + lay.sig);
			ck_assert_uint_eq(v.payload_len, sizes[i] - 4u - lay.sig);
			ck_assert_int_eq(
				fws_sig_parse(v.payload, v.payload_len, 0xabcdef01u * (k + 1), &s),
				FWS_SIG_OK);
			ck_assert_uint_eq(s.flow, 12345);
			ck_assert_uint_eq(s.stream, 3);
			ck_assert_uint_eq(s.seq, k * 0x10001u);
		}
	}
}
END_TEST

START_TEST(test_pkt_min_frame)
{
	ck_assert_uint_eq(fws_pkt_min_frame(false, false), 64);
	ck_assert_uint_eq(fws_pkt_min_frame(true, false), 68);
	ck_assert_uint_eq(fws_pkt_min_frame(false, true), 84);
	ck_assert_uint_eq(fws_pkt_min_frame(true, true), 88);
}
END_TEST

/* Malformed and truncated frames: a verdict, never a read past the end. */
START_TEST(test_pkt_parse_malformed)
{
	struct fws_flow_tuple tup = {.src_ip = 1, .dst_ip = 2, .src_port = 3, .dst_port = 4};
	struct fws_pkt_view v;
	uint8_t f[128];
	uint32_t len;

	build(0, 64, &tup, 1, 0, 0);
	for (len = 0; len < 60; len++) {
		enum fws_pkt_kind k = fws_pkt_parse(frame, len, &v);

		ck_assert_msg(k == FWS_PKT_TRUNCATED, "len %u: %d", len, k);
	}
	memcpy(f, frame, 60);
	f[12] = 0x88; /* LLDP */
	f[13] = 0xcc;
	ck_assert_int_eq(fws_pkt_parse(f, 60, &v), FWS_PKT_OTHER);
	f[12] = 0x08; /* ARP */
	f[13] = 0x06;
	ck_assert_int_eq(fws_pkt_parse(f, 42, &v), FWS_PKT_CONTROL);
	f[12] = 0x86; /* IPv6 ethertype, but only 46 bytes */
	f[13] = 0xdd;
	ck_assert_int_eq(fws_pkt_parse(f, 46, &v), FWS_PKT_TRUNCATED);
	memcpy(f, frame, 60);
	f[FWS_PKT_L3_OFF + 9] = 6; /* a UDP datagram labelled TCP: no valid data offset */
	ck_assert_int_eq(fws_pkt_parse(f, 60, &v), FWS_PKT_TRUNCATED);
	f[FWS_PKT_L3_OFF + 9] = 47; /* GRE */
	ck_assert_int_eq(fws_pkt_parse(f, 60, &v), FWS_PKT_OTHER);
	memcpy(f, frame, 60);
	f[FWS_PKT_L3_OFF + 6] = 0x20; /* MF */
	ck_assert_int_eq(fws_pkt_parse(f, 60, &v), FWS_PKT_FRAGMENT);
	memcpy(f, frame, 60);
	f[FWS_PKT_L3_OFF + 9] = 1; /* ICMP, type 3: unreachable */
	f[FWS_PKT_L4_OFF] = 3;
	ck_assert_int_eq(fws_pkt_parse(f, 60, &v), FWS_PKT_ICMP_ERROR);
	f[FWS_PKT_L4_OFF] = 0; /* echo reply: for the control plane */
	ck_assert_int_eq(fws_pkt_parse(f, 60, &v), FWS_PKT_CONTROL);
	f[FWS_PKT_L4_OFF] = 5; /* redirect */
	ck_assert_int_eq(fws_pkt_parse(f, 60, &v), FWS_PKT_OTHER);
	ck_assert_int_eq(fws_pkt_parse(f, FWS_PKT_L4_OFF, &v), FWS_PKT_TRUNCATED);
	memcpy(f, frame, 60);
	f[FWS_PKT_L3_OFF] = 0x44; /* IHL 4 < 5 */
	ck_assert_int_eq(fws_pkt_parse(f, 60, &v), FWS_PKT_TRUNCATED);
	memcpy(f, frame, 60);
	f[FWS_PKT_L4_OFF + 4] = 0x10; /* UDP length 4096 */
	ck_assert_int_eq(fws_pkt_parse(f, 60, &v), FWS_PKT_TRUNCATED);
	/* One VLAN tag in front. */
	memcpy(f, frame, 12);
	f[12] = 0x81;
	f[13] = 0x00;
	f[14] = 0;
	f[15] = 5;
	memcpy(f + 16, frame + 12, 48);
	ck_assert_int_eq(fws_pkt_parse(f, 64, &v), FWS_PKT_UDP);
	ck_assert_ptr_eq(v.payload, f + FWS_PKT_SIG_OFF + 4);
}
END_TEST

static Suite *
suite_pkt(void)
{
	Suite *s = suite_create("pkt");
	TCase *tc = tcase_create("frames");

	tcase_add_loop_test(tc, test_pkt_checksums, 0, 4);
	tcase_add_test(tc, test_pkt_min_frame);
	tcase_add_test(tc, test_pkt_parse_malformed);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_pkt)
