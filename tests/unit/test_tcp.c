/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP segments (fws_tcp): serial arithmetic across the 2^32 wrap, connection tokens, control
 * segments built and parsed back (options, checksums recomputed from scratch), data segments
 * filled from the template with checksums right for any sequence number, the receive parse
 * of TCP (payload after the options, the IP length not the frame's), and the window test the
 * transmit engine applies.
 */
#include <string.h>

#include <rte_ip.h>

#include "fws_pkt.h"
#include "fws_tcp.h"
#include "unit.h"

START_TEST(test_tcp_serial)
{
	static const struct {
		uint32_t a, b;
		bool after;
	} cases[] = {
		{1, 0, true},
		{0, 1, false},
		{5, 0xfffffffbu, true},
		{0xfffffffbu, 5, false},
		{0x7fffffffu, 0, true},
		{0x80000000u, 0, false},
		{0, 0, false},
		{0x80000001u, 1, false},
		{10, 0xfffffff0u, true},
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(fws_tcp_after(cases[i].a, cases[i].b) == cases[i].after, "case %u",
			      i);
	ck_assert_uint_eq(fws_tcp_max(0xfffffff0u, 16), 16);
	ck_assert_uint_eq(fws_tcp_max(16, 0xfffffff0u), 16);
	ck_assert_uint_eq(fws_tcp_max(7, 7), 7);
}
END_TEST

START_TEST(test_tcp_token)
{
	uint32_t tok = fws_tcp_token(true, 13, 9, 0xabcdef), flow;
	unsigned int stream;
	bool server;

	ck_assert_int_eq(fws_tcp_token_parse(tok, 13, &server, &stream, &flow), 0);
	ck_assert(server);
	ck_assert_uint_eq(stream, 9);
	ck_assert_uint_eq(flow, 0xabcdef);
	/* Another trial's nonce: not a connection of this one. */
	ck_assert_int_eq(fws_tcp_token_parse(tok, 14, &server, &stream, &flow), -1);
	tok = fws_tcp_token(false, 13, 0, 0);
	ck_assert_int_eq(fws_tcp_token_parse(tok, 5, &server, &stream, &flow), 0); /* 13 & 7 */
	ck_assert(!server);
}
END_TEST

/* Both checksums recomputed from scratch equal what the segment carries. */
static bool
cksum_ok(const uint8_t *frame, uint32_t l3)
{
	uint8_t copy[2048];
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)copy;
	uint32_t len = rte_be_to_cpu_16(((const struct rte_ipv4_hdr *)(frame + l3))->total_length);
	uint16_t ipc, tcpc;

	memcpy(copy, frame + l3, len);
	ipc = ip->hdr_checksum;
	memcpy(&tcpc, copy + 20 + 16, 2);
	ip->hdr_checksum = 0;
	memset(copy + 20 + 16, 0, 2);
	return rte_ipv4_cksum(ip) == ipc && rte_ipv4_udptcp_cksum(ip, copy + 20) == tcpc;
}

/* A SYN and an ACK, built and parsed back: every field and option as given. */
START_TEST(test_tcp_build_parse)
{
	struct fws_tcp_seg g = {.src_mac = {{2, 0, 0, 0, 0, 1}},
				.dst_mac = {{2, 0, 0, 0, 0, 2}},
				.src_be = RTE_BE32(0xc6120105),
				.dst_be = RTE_BE32(0xc6130101),
				.sport_be = RTE_BE16(1024),
				.dport_be = RTE_BE16(5001),
				.seq = 0xfffffffeu,
				.ack = 0,
				.flags = FWS_TCP_SYN,
				.window = 0xffff,
				.tsval = 0x12345678,
				.tsecr = 0,
				.mss = FWS_TCP_MSS4};
	struct fws_tcp_info ti;
	uint8_t buf[256];
	uint32_t len;

	len = fws_tcp_build(buf, sizeof(buf), &g);
	ck_assert_uint_eq(len, 14 + 20 + FWS_TCP_SYN_LEN);
	ck_assert(cksum_ok(buf, 14));
	ck_assert_int_eq(fws_tcp_parse(buf, len, &ti), 0);
	ck_assert_uint_eq(ti.seq, 0xfffffffeu);
	ck_assert_uint_eq(ti.flags, FWS_TCP_SYN);
	ck_assert_uint_eq(ti.mss, 1460);
	ck_assert(ti.has_wscale);
	ck_assert_uint_eq(ti.wscale, FWS_TCP_WSCALE);
	ck_assert(ti.has_ts);
	ck_assert_uint_eq(ti.tsval, 0x12345678);
	ck_assert_uint_eq(ti.payload_len, 0);
	ck_assert_uint_eq(ti.sport_be, RTE_BE16(1024));
	g.flags = FWS_TCP_ACK;
	g.vlan = 100;
	g.ack = 7;
	g.tsecr = 0x9abcdef0;
	len = fws_tcp_build(buf, sizeof(buf), &g);
	ck_assert_uint_eq(len, 18 + 20 + FWS_PKT_TCP_LEN);
	ck_assert(cksum_ok(buf, 18));
	ck_assert_int_eq(fws_tcp_parse(buf, 60 > len ? 60 : len, &ti), 0); /* padded to 60 */
	ck_assert_uint_eq(ti.ack, 7);
	ck_assert_uint_eq(ti.mss, 0);
	ck_assert(!ti.has_wscale);
	ck_assert_uint_eq(ti.tsecr, 0x9abcdef0);
	ck_assert_uint_eq(ti.window, 0xffff);
	ck_assert_int_eq(fws_tcp_build(buf, 60, &g), 0); /* no room */
	buf[18 + 9] = 17;                                /* UDP */
	ck_assert_int_eq(fws_tcp_parse(buf, len, &ti), -EINVAL);
}
END_TEST

/* Data segments from the template: checksum, numbers and signature right at every size and
 * across the wrap of the sequence number; the receive parse finds the signature. */
START_TEST(test_tcp_data_segment)
{
	static uint8_t tmpl[2048], frame[2048];
	static const uint16_t sizes[] = {88, 89, 576, 1518};
	struct fws_pkt_hdr h = {
		.src = {{2, 0, 0, 0, 0, 1}}, .dst = {{2, 0, 0, 0, 0, 2}}, .stream = 2, .tcp = true};
	struct fws_flow_tuple tup = {
		.src_ip = 0xc6120105, .dst_ip = 0xc6130101, .src_port = 1024, .dst_port = 5001};
	struct fws_tcp_txflow tf;
	struct fws_pkt_layout l;
	struct fws_pkt_flow fl;
	struct fws_pkt_view v;
	struct fws_sig s;
	unsigned int i;

	fws_pkt_layout(&h, &l);
	ck_assert_uint_eq(l.sig, 14 + 20 + 32);
	fws_pkt_template(tmpl, sizeof(tmpl), &h);
	fws_pkt_flow_init(&fl, &h, &tup, 77);
	fws_tcp_txflow_init(&tf, 0xfffffff0u, 0x01020304, 0, 0xaaaa5555, 0x5555aaaa);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct fws_pkt_size sz;
		uint32_t plen, seq;

		fws_pkt_size_init(&sz, tmpl, &h, sizes[i]);
		plen = fws_tcp_payload_len(&sz, l.l3, false);
		ck_assert_uint_eq(plen, sizes[i] - 4u - 14 - 20 - 32);
		memcpy(frame, tmpl, sizeof(frame));
		fws_tcp_fill(frame + l.l3, &sz, &fl, &tf, fws_sig_word0(2), 0xc0ffee, i, 1000 + i,
			     fws_pkt_halves(1000 + i), false, false);
		ck_assert_msg(cksum_ok(frame, l.l3), "size %u", sizes[i]);
		ck_assert_int_eq(fws_pkt_parse(frame, sz.data_len, &v), FWS_PKT_TCP);
		ck_assert_uint_eq(v.payload_len, plen);
		ck_assert_ptr_eq(v.payload, frame + l.sig);
		ck_assert_int_eq(fws_sig_parse(v.payload, v.payload_len, 0xc0ffee, &s), FWS_SIG_OK);
		ck_assert_uint_eq(s.flow, 77);
		ck_assert_uint_eq(s.seq, i);
		memcpy(&seq, frame + l.l4 + 4, 4);
		ck_assert_uint_eq(rte_be_to_cpu_32(seq), tf.seq);
		tf.seq += plen; /* wraps after the first */
	}
	ck_assert_uint_lt(tf.seq, 0x1000);
}
END_TEST

/* The engine's window test: a segment waits while its end passes the limit, across wrap. */
START_TEST(test_tcp_window)
{
	struct fws_tcp_txflow tf;

	fws_tcp_txflow_init(&tf, 0xffffff00u, 0, 0xffffff00u + 1000, 1, 2);
	ck_assert(!fws_tcp_after(tf.seq + 1000, tf.limit)); /* exactly fills it */
	ck_assert(fws_tcp_after(tf.seq + 1001, tf.limit));
	tf.seq += 1000; /* 0x2e8: wrapped */
	ck_assert_uint_eq(tf.seq, 0x2e8);
	tf.limit = 0x00000700u; /* an ACK beyond the wrap opened more */
	ck_assert(!fws_tcp_after(tf.seq + 0x418, tf.limit));
	ck_assert(fws_tcp_after(tf.seq + 0x419, tf.limit));
	ck_assert_uint_eq(fws_pkt_min_frame_tcp(false, false), 88);
	ck_assert_uint_eq(fws_pkt_min_frame_tcp(true, false), 92);
	ck_assert_uint_eq(fws_pkt_min_frame_tcp(false, true), 108);
}
END_TEST

/* IPv6: a SYN built and parsed back, and data segments from the template, their checksums
 * recomputed over the IPv6 pseudo header. */
static bool
cksum6_ok(const uint8_t *l3)
{
	uint8_t copy[2048];
	struct rte_ipv6_hdr *ip6 = (struct rte_ipv6_hdr *)copy;
	uint32_t len = 40 + rte_be_to_cpu_16(((const struct rte_ipv6_hdr *)l3)->payload_len);
	uint16_t sent;

	memcpy(copy, l3, len);
	memcpy(&sent, copy + 40 + 16, 2);
	memset(copy + 40 + 16, 0, 2);
	return rte_ipv6_udptcp_cksum(ip6, copy + 40) == sent;
}

START_TEST(test_tcp_ipv6)
{
	static uint8_t tmpl[2048], frame[2048];
	static const uint8_t hi_c[12] = {0x20, 0x01, 0, 2, 0, 0, 0, 1};
	static const uint8_t hi_s[12] = {0x20, 0x01, 0, 2, 0, 0, 0, 2};
	struct fws_tcp_seg g = {.ipv6 = true,
				.src_be = RTE_BE32(0x100),
				.dst_be = RTE_BE32(1),
				.sport_be = RTE_BE16(1024),
				.dport_be = RTE_BE16(5001),
				.seq = 42,
				.flags = FWS_TCP_SYN,
				.window = 0xffff,
				.tsval = 7,
				.mss = FWS_TCP_MSS6};
	struct fws_pkt_hdr h = {.ipv6 = true, .stream = 1, .tcp = true};
	struct fws_flow_tuple tup = {
		.src_ip = 0x100, .dst_ip = 1, .src_port = 1024, .dst_port = 5001};
	struct fws_tcp_txflow tf;
	struct fws_tcp_info ti;
	struct fws_pkt_layout l;
	struct fws_pkt_flow fl;
	struct fws_pkt_size sz;
	struct fws_pkt_view v;
	uint32_t len;

	memcpy(g.src6, hi_c, 12);
	memcpy(g.dst6, hi_s, 12);
	len = fws_tcp_build(frame, sizeof(frame), &g);
	ck_assert_uint_eq(len, 14 + 40 + FWS_TCP_SYN_LEN);
	ck_assert(cksum6_ok(frame + 14));
	ck_assert(memcmp(frame + 14 + 8, hi_c, 12) == 0);
	ck_assert_int_eq(fws_tcp_parse(frame, len, &ti), 0);
	ck_assert_uint_eq(ti.mss, 1440);
	ck_assert_uint_eq(ti.seq, 42);
	ck_assert_uint_eq(ti.src_be, RTE_BE32(0x100)); /* the low 32 bits */
	memcpy(h.src6, hi_c, 12);
	memcpy(h.dst6, hi_s, 12);
	fws_pkt_layout(&h, &l);
	ck_assert_uint_eq(l.sig, 14 + 40 + 32);
	fws_pkt_template(tmpl, sizeof(tmpl), &h);
	fws_pkt_flow_init(&fl, &h, &tup, 3);
	fws_tcp_txflow_init(&tf, 0xfffffff8u, 99, 0, 1, 2);
	for (len = 108; len <= 1518; len += 705) {
		fws_pkt_size_init(&sz, tmpl, &h, (uint16_t)len);
		memcpy(frame, tmpl, sizeof(frame));
		fws_tcp_fill(frame + l.l3, &sz, &fl, &tf, fws_sig_word0(1), 5, 0, 0, 0, false,
			     true);
		ck_assert_msg(cksum6_ok(frame + l.l3), "size %u", len);
		ck_assert_int_eq(fws_pkt_parse(frame, sz.data_len, &v), FWS_PKT_TCP);
		ck_assert_uint_eq(v.payload_len, fws_tcp_payload_len(&sz, l.l3, true));
		ck_assert_uint_eq(v.payload_len, len - 4 - 14 - 40 - 32);
		tf.seq += v.payload_len;
	}
}
END_TEST

/* Checksum offload (the NIC's IPv4 and L4 checksum): a segment or datagram filled for it
 * carries an IPv4 checksum of 0 and, in its L4 checksum, the pseudo-header sum DPDK computes
 * (rte_ipv4/ipv6_phdr_cksum: what the offload flags ask a NIC to start from); the NIC's
 * finish (the sum over the L4 header and data, complemented) gives the software checksum. */
static uint16_t
nic_finish(uint8_t *l4, uint32_t len, uint32_t at)
{
	uint16_t c = (uint16_t)~rte_raw_cksum(l4, len);

	c = c ? c : 0xffff; /* UDP: zero means none; TCP never sees it from a non-zero sum */
	memcpy(l4 + at, &c, 2);
	return c;
}

START_TEST(test_tcp_offload_fill)
{
	static uint8_t tmpl[2048], frame[2048], soft[2048];
	static const uint8_t hi[12] = {0x20, 0x01, 0, 2, 0, 0, 0, 1};
	unsigned int k;

	for (k = 0; k < 4; k++) { /* TCP v4, TCP v6, UDP v4, UDP v6 */
		const bool tcp = k < 2, v6 = k & 1;
		struct fws_pkt_hdr h = {.ipv6 = v6, .stream = 1, .tcp = tcp, .flows = 4};
		struct fws_flow_tuple tup = {.src_ip = 0xc6120105,
					     .dst_ip = 0xc6130101,
					     .src_port = 1024,
					     .dst_port = 5001};
		struct fws_tcp_txflow tf;
		struct fws_pkt_layout l;
		struct fws_pkt_flow fl;
		struct fws_pkt_size sz;
		uint32_t at = tcp ? 16 : 6, l4len;
		uint16_t got, want, ph;

		memcpy(h.src6, hi, 12);
		memcpy(h.dst6, hi, 12);
		fws_pkt_layout(&h, &l);
		fws_pkt_template(tmpl, sizeof(tmpl), &h);
		fws_pkt_flow_init(&fl, &h, &tup, 3);
		fws_pkt_size_init(&sz, tmpl, &h, 600);
		fws_tcp_txflow_init(&tf, 77, 99, 0, 1, 2);
		memcpy(frame, tmpl, sizeof(frame));
		memcpy(soft, tmpl, sizeof(soft));
		if (tcp) {
			fws_tcp_fill(frame + l.l3, &sz, &fl, &tf, fws_sig_word0(1), 5, 9, 11,
				     fws_pkt_halves(11), true, v6);
			fws_tcp_fill(soft + l.l3, &sz, &fl, &tf, fws_sig_word0(1), 5, 9, 11,
				     fws_pkt_halves(11), false, v6);
		} else {
			fws_pkt_fill(frame + l.l3, &sz, &fl, fws_sig_word0(1), 5, 9, 11,
				     fws_pkt_halves(11), true, v6);
			fws_pkt_fill(soft + l.l3, &sz, &fl, fws_sig_word0(1), 5, 9, 11,
				     fws_pkt_halves(11), false, v6);
		}
		l4len = sz.data_len - l.l4;
		memcpy(&got, frame + l.l4 + at, 2);
		if (v6) {
			ph = rte_ipv6_phdr_cksum((const struct rte_ipv6_hdr *)(frame + l.l3), 0);
		} else {
			const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(frame + l.l3);

			ck_assert_uint_eq(ip->hdr_checksum, 0);
			ph = rte_ipv4_phdr_cksum(ip, 0);
		}
		ck_assert_msg(got == ph, "case %u: %04x, DPDK's pseudo-header sum %04x", k, got,
			      ph);
		memcpy(&want, soft + l.l4 + at, 2);
		ck_assert_msg(nic_finish(frame + l.l4, l4len, at) == want, "case %u", k);
		if (!v6) { /* the NIC's IPv4 checksum: the frame is now the software one */
			struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(frame + l.l3);

			ip->hdr_checksum = rte_ipv4_cksum(ip);
		}
		ck_assert_msg(memcmp(frame, soft, sz.data_len) == 0, "case %u", k);
	}
}
END_TEST

/* The preambles, byte for byte where it matters: the HTTP request whole; the ClientHello's
 * record, handshake and extension lengths consistent and the SNI where RFC 6066 puts it. */
START_TEST(test_tcp_preamble)
{
	static const char want[] = "GET / HTTP/1.1\r\nHost: www.example\r\nUser-Agent: "
				   "fwstress\r\nAccept: */*\r\n\r\n";
	uint8_t b[512];
	uint32_t n, hs, ext, off;

	n = fws_tcp_preamble(b, sizeof(b), FWS_TCP_PRE_HTTP, "www.example");
	ck_assert_uint_eq(n, strlen(want));
	ck_assert(memcmp(b, want, n) == 0);
	n = fws_tcp_preamble(b, sizeof(b), FWS_TCP_PRE_TLS, "sni.example");
	ck_assert_uint_eq(b[0], 0x16);
	ck_assert_uint_eq((uint32_t)(b[3] << 8 | b[4]), n - 5); /* record length */
	ck_assert_uint_eq(b[5], 1);                             /* ClientHello */
	hs = (uint32_t)(b[6] << 16 | b[7] << 8 | b[8]);
	ck_assert_uint_eq(hs, n - 9);
	off = 9 + 2 + 32 + 1 + 2 + 4 + 2; /* version, random, session, suites, compression */
	ext = (uint32_t)(b[off] << 8 | b[off + 1]);
	ck_assert_uint_eq(off + 2 + ext, n);
	ck_assert_uint_eq((uint32_t)(b[off + 2] << 8 | b[off + 3]), 0); /* server_name */
	ck_assert_uint_eq(b[off + 8], 0);                               /* host_name */
	ck_assert_uint_eq((uint32_t)(b[off + 9] << 8 | b[off + 10]), 11);
	ck_assert(memcmp(b + off + 11, "sni.example", 11) == 0);
	ck_assert_uint_eq(fws_tcp_preamble(b, 40, FWS_TCP_PRE_TLS, "sni.example"), 0);
	ck_assert_uint_eq(fws_tcp_preamble(b, 20, FWS_TCP_PRE_HTTP, "www.example"), 0);
}
END_TEST

static Suite *
suite_tcp(void)
{
	Suite *s = suite_create("tcp");
	TCase *tc = tcase_create("tcp");

	tcase_add_test(tc, test_tcp_serial);
	tcase_add_test(tc, test_tcp_token);
	tcase_add_test(tc, test_tcp_build_parse);
	tcase_add_test(tc, test_tcp_data_segment);
	tcase_add_test(tc, test_tcp_window);
	tcase_add_test(tc, test_tcp_preamble);
	tcase_add_test(tc, test_tcp_ipv6);
	tcase_add_test(tc, test_tcp_offload_fill);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_tcp)
