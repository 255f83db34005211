/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include "fws_bytes.h"
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
				ck_assert_uint_eq(fws_ip6_cdst(ip)[8], 0xab); /* template prefix */
				ck_assert_uint_eq(fws_ip6_cdst(ip)[15], (uint8_t)(0xf0 + k));
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

/* The usual shape's quick test and the full parse agree at its edges: a field it ignores
 * (DF, TOS) keeps a frame UDP, one it checks sends the frame the long way to the same
 * answer as before. */
START_TEST(test_pkt_parse_usual_shape)
{
	struct fws_flow_tuple tup = {.src_ip = 1, .dst_ip = 2, .src_port = 3, .dst_port = 4};
	struct fws_pkt_view v;
	uint8_t f[128];

	build(0, 64, &tup, 1, 0, 0);
	memcpy(f, frame, 64);
	f[FWS_PKT_L3_OFF + 1] = 0xb8; /* TOS: EF */
	f[FWS_PKT_L3_OFF + 6] = 0x40; /* DF */
	ck_assert_int_eq(fws_pkt_parse(f, 64, &v), FWS_PKT_UDP);
	ck_assert_ptr_eq(v.l3, f + FWS_PKT_L3_OFF);
	ck_assert_ptr_eq(v.l4, f + FWS_PKT_L4_OFF);
	ck_assert_ptr_eq(v.payload, f + FWS_PKT_SIG_OFF);
	ck_assert(!v.ipv6);
	f[FWS_PKT_L3_OFF + 7] = 1; /* offset 8 bytes, DF still set */
	ck_assert_int_eq(fws_pkt_parse(f, 64, &v), FWS_PKT_FRAGMENT);
	memcpy(f, frame, 64);
	f[FWS_PKT_L3_OFF] = 0x65; /* version 6 behind the IPv4 type */
	ck_assert_int_eq(fws_pkt_parse(f, 64, &v), FWS_PKT_OTHER);
	/* IHL 6: 4 bytes of options move the UDP header */
	memcpy(f, frame, FWS_PKT_L4_OFF);
	memset(f + FWS_PKT_L4_OFF, 1, 4);
	memcpy(f + FWS_PKT_L4_OFF + 4, frame + FWS_PKT_L4_OFF, 64 - FWS_PKT_L4_OFF);
	f[FWS_PKT_L3_OFF] = 0x46;
	ck_assert_int_eq(fws_pkt_parse(f, 68, &v), FWS_PKT_UDP);
	ck_assert_ptr_eq(v.l4, f + FWS_PKT_L4_OFF + 4);
	ck_assert_ptr_eq(v.payload, f + FWS_PKT_SIG_OFF + 4);
	/* the quick test needs the UDP header whole: a frame that ends inside it is truncated */
	memcpy(f, frame, 64);
	ck_assert_int_eq(fws_pkt_parse(f, FWS_PKT_L4_OFF + 7, &v), FWS_PKT_TRUNCATED);
}
END_TEST

/* An ICMP error frame: Ethernet, the outer IP header (v6 or v4, lengths from n), the ICMP
 * header (type, code, the MTU field), then quote[n]; pad zero bytes follow the packet. */
static uint32_t
icmp_frame(uint8_t *f, bool v6, uint8_t type, uint8_t code, uint32_t mtu, const uint8_t *quote,
	   uint32_t n, uint32_t pad)
{
	uint32_t l3 = 14, ip = v6 ? 40 : 20, i = l3 + ip;

	memset(f, 0, 2048);
	f[12] = v6 ? 0x86 : 0x08;
	f[13] = v6 ? 0xdd : 0x00;
	if (v6) {
		f[l3] = 0x60;
		f[l3 + 4] = (uint8_t)((8 + n) >> 8);
		f[l3 + 5] = (uint8_t)(8 + n);
		f[l3 + 6] = 58;
	} else {
		f[l3] = 0x45;
		f[l3 + 2] = (uint8_t)((ip + 8 + n) >> 8);
		f[l3 + 3] = (uint8_t)(ip + 8 + n);
		f[l3 + 9] = 1;
	}
	f[i] = type;
	f[i + 1] = code;
	f[i + 4] = (uint8_t)(mtu >> 24);
	f[i + 5] = (uint8_t)(mtu >> 16);
	f[i + 6] = (uint8_t)(mtu >> 8);
	f[i + 7] = (uint8_t)mtu;
	memcpy(f + i + 8, quote, n);
	return i + 8 + n + pad;
}

/* ICMP errors: the class, the announced MTU, and what the quote holds, however short. */
START_TEST(test_pkt_icmp_error)
{
	uint8_t q[128] = {
		0x45, 0, 0x05, 0xda, 0, 0, 0x40, 0,  64, 17,
		0,    0, 198,  18,   1, 7, 198,  19, 1,  1}; /* IPv4/UDP 198.18.1.7 -> 198.19.1.1 */
	uint8_t q6[128] = {0x60, 0, 0, 0, 0x05, 0xc8, 17, 64};
	uint8_t f[2048];
	struct fws_icmp_info e;
	uint32_t len;
	unsigned int k;

	q[20] = 0x04; /* sport 1025 */
	q[21] = 0x01;
	q[22] = 0x13; /* dport 5001 */
	q[23] = 0x89;
	for (k = 28; k < sizeof(q); k++)
		q[k] = (uint8_t)k;
	/* Fragmentation needed, 8 bytes of UDP quoted (RFC 792), padded to 60. */
	len = icmp_frame(f, false, 3, 4, 1400, q, 28, 0);
	len = icmp_frame(f, false, 3, 4, 1400, q, 28, 60 > len ? 60 - len : 0);
	ck_assert_int_eq(fws_pkt_parse(f, len, &(struct fws_pkt_view){0}), FWS_PKT_ICMP_ERROR);
	ck_assert_int_eq(fws_pkt_icmp_parse(f, len, &e), 0);
	ck_assert_int_eq(e.cls, FWS_ICMP_TOO_BIG);
	ck_assert_uint_eq(e.mtu, 1400);
	ck_assert(!e.ipv6 && e.has_ports && e.proto == 17);
	ck_assert_uint_eq(e.src, 0xc6120107);
	ck_assert_uint_eq(e.dst, 0xc6130101);
	ck_assert_uint_eq(e.sport, 1025);
	ck_assert_uint_eq(e.dport, 5001);
	ck_assert_uint_eq(e.quoted_len, 0); /* the padding is not the quote */
	/* Linux quotes more: the payload after the UDP header, truncated. */
	len = icmp_frame(f, false, 3, 4, 1400, q, 100, 0);
	ck_assert_int_eq(fws_pkt_icmp_parse(f, len, &e), 0);
	ck_assert_uint_eq(e.quoted_len, 72);
	ck_assert_uint_eq(e.quoted_payload[0], 28);
	/* The quote stops inside the ports, or before the IP header ends. */
	len = icmp_frame(f, false, 11, 0, 0, q, 22, 0);
	ck_assert_int_eq(fws_pkt_icmp_parse(f, len, &e), 0);
	ck_assert_int_eq(e.cls, FWS_ICMP_TIME);
	ck_assert(!e.has_ports && e.dst == 0xc6130101);
	len = icmp_frame(f, false, 3, 1, 0, q, 19, 0);
	ck_assert_int_eq(fws_pkt_icmp_parse(f, len, &e), -EINVAL);
	len = icmp_frame(f, false, 3, 3, 0, q, 28, 0); /* port unreachable */
	ck_assert_int_eq(fws_pkt_icmp_parse(f, len, &e), 0);
	ck_assert_int_eq(e.cls, FWS_ICMP_UNREACH);
	ck_assert_uint_eq(e.mtu, 0);
	/* ICMPv6 packet too big: a 32-bit MTU; the quoted IPv6 header's low address bits. */
	q6[23] = 7;
	q6[39] = 1;
	q6[42] = 0x01;
	q6[43] = 0x89;
	len = icmp_frame(f, true, 2, 0, 1280, q6, 48, 0);
	ck_assert_int_eq(fws_pkt_icmp_parse(f, len, &e), 0);
	ck_assert_int_eq(e.cls, FWS_ICMP_TOO_BIG);
	ck_assert_uint_eq(e.mtu, 1280);
	ck_assert(e.ipv6 && e.has_ports && e.src == 7 && e.dst == 1 && e.dport == 0x189);
	len = icmp_frame(f, true, 4, 0, 0, q6, 30, 0); /* parameter problem, quote too short */
	ck_assert_int_eq(fws_pkt_icmp_parse(f, len, &e), -EINVAL);
	ck_assert_str_eq(fws_icmp_class_name(FWS_ICMP_TOO_BIG), "too_big");
	/* Shorter than its headers: refused, never read beyond. */
	for (k = 0; k < 14 + 20 + 8 + 20; k++)
		ck_assert_int_eq(fws_pkt_icmp_parse(f, k, &e), -EINVAL);
}
END_TEST

/* IPv4 identifications: a stream whose 7 flows share their addresses, sent in turn, repeats
 * none within 65536 frames; another stream sent in step stays far from it; the header
 * carries it and its checksum holds. */
START_TEST(test_pkt_ip_id)
{
	static uint8_t seen[65536];
	struct fws_pkt_hdr h = {.stream = 3, .flows = 7};
	struct fws_pkt_flow fl[7] = {0};
	struct fws_pkt_size a, b;
	uint32_t k, f, n = 0, gap;

	fws_pkt_template(tmpl, sizeof(tmpl), &h);
	fws_pkt_size_init(&a, tmpl, &h, 128);
	h.stream = 4;
	fws_pkt_size_init(&b, tmpl, &h, 128);
	for (f = 0; f < 7; f++)
		fl[f].index = f;
	memset(seen, 0, sizeof(seen));
	for (k = 0; n < 65536; k++)
		for (f = 0; f < 7 && n < 65536; f++, n++) {
			ck_assert_uint_eq(seen[fws_pkt_ip_id(&a, &fl[f], k)], 0);
			seen[fws_pkt_ip_id(&a, &fl[f], k)] = 1;
		}
	gap = (uint16_t)(fws_pkt_ip_id(&b, &fl[0], 100) - fws_pkt_ip_id(&a, &fl[0], 100));
	ck_assert_uint_ge(RTE_MIN(gap, 65536 - gap), 4096);
	/* More flows than identifications: each flow still counts up. */
	h.flows = 70000;
	fws_pkt_size_init(&a, tmpl, &h, 128);
	ck_assert_uint_eq((uint16_t)(fws_pkt_ip_id(&a, &fl[1], 6) - fws_pkt_ip_id(&a, &fl[1], 5)),
			  1);
	/* In the frame, network order, covered by the checksum. */
	fws_pkt_flow_init(&fl[2], &h,
			  &(struct fws_flow_tuple){.src_ip = 0xc6120001, .dst_ip = 0xc6130001}, 2);
	memcpy(frame, tmpl, 128);
	fws_pkt_fill(frame + 14, &b, &fl[2], fws_sig_word0(4), 1, 9, 0, 0, false, false);
	ck_assert_uint_eq((uint32_t)frame[18] << 8 | frame[19], fws_pkt_ip_id(&b, &fl[2], 9));
	ck_assert_uint_eq(rte_ipv4_cksum((const struct rte_ipv4_hdr *)(frame + 14)), 0);
}
END_TEST

/* First fragments: where the signature sits, IPv4 and IPv6, UDP and TCP; later fragments,
 * whole packets and short frames give nothing. */
START_TEST(test_pkt_first_fragment)
{
	uint8_t f[256] = {0};
	const uint8_t *pl = NULL;
	uint32_t k;

	f[12] = 0x08; /* IPv4/UDP, MF, offset 0: the payload after the UDP header */
	f[14] = 0x45;
	f[14 + 6] = 0x20;
	f[14 + 9] = 17;
	ck_assert_uint_eq(fws_pkt_first_fragment(f, 100, &pl), 100 - 42);
	ck_assert_ptr_eq(pl, f + 42);
	f[14] = 0x46; /* options: 4 bytes more */
	ck_assert_uint_eq(fws_pkt_first_fragment(f, 100, &pl), 100 - 46);
	f[14] = 0x45;
	f[14 + 9] = 6; /* TCP, data offset 8 words */
	f[34 + 12] = 0x80;
	ck_assert_uint_eq(fws_pkt_first_fragment(f, 100, &pl), 100 - 34 - 32);
	ck_assert_uint_eq(fws_pkt_first_fragment(f, 34 + 12, &pl), 0); /* no data offset */
	f[14 + 7] = 1;                                                 /* offset 8: not the first */
	ck_assert_uint_eq(fws_pkt_first_fragment(f, 100, &pl), 0);
	f[14 + 7] = 0;
	f[14 + 6] = 0x40; /* DF, no MF: a whole packet */
	ck_assert_uint_eq(fws_pkt_first_fragment(f, 100, &pl), 0);

	memset(f, 0, sizeof(f)); /* IPv6, fragment header, UDP */
	f[12] = 0x86;
	f[13] = 0xdd;
	f[14] = 0x60;
	f[14 + 6] = 44;
	f[54] = 17;
	f[54 + 3] = 1; /* M */
	ck_assert_uint_eq(fws_pkt_first_fragment(f, 100, &pl), 100 - 70);
	ck_assert_ptr_eq(pl, f + 70);
	f[54 + 3] = 0x09; /* offset 8 */
	ck_assert_uint_eq(fws_pkt_first_fragment(f, 100, &pl), 0);
	f[54 + 3] = 1;
	f[54] = 58; /* not UDP or TCP */
	ck_assert_uint_eq(fws_pkt_first_fragment(f, 100, &pl), 0);
	f[54] = 17;
	for (k = 0; k <= 70; k++) /* shorter than the headers and a payload byte */
		ck_assert_uint_eq(fws_pkt_first_fragment(f, k, &pl), 0);
}
END_TEST

/* fws_dpdk.h: an IPv6 header's addresses are bytes 8-23 and 24-39 (RFC 8200) on every DPDK
 * line, whatever type the line gives the fields. */
START_TEST(test_pkt_ip6_addr_accessors)
{
	uint8_t raw[40] = {0};
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)raw;
	unsigned int i;

	ck_assert_ptr_eq(fws_ip6_src(ip), raw + 8);
	ck_assert_ptr_eq(fws_ip6_dst(ip), raw + 24);
	ck_assert_ptr_eq(fws_ip6_csrc(ip), raw + 8);
	ck_assert_ptr_eq(fws_ip6_cdst(ip), raw + 24);
	for (i = 0; i < FWS_IP6_LEN; i++)
		fws_ip6_dst(ip)[i] = (uint8_t)(0xa0 + i);
	ck_assert_uint_eq(raw[24], 0xa0);
	ck_assert_uint_eq(raw[39], 0xaf);
	ck_assert_uint_eq(raw[23], 0);
}
END_TEST

/* fwstress's own helpers (core builds without DPDK) against DPDK's: byte order, a MAC's
 * layout and text, the Ethernet header's length. */
START_TEST(test_pkt_own_helpers_match_dpdk)
{
	const struct fws_mac m = {{0x02, 0x46, 0x57, 0x53, 0x0a, 0xff}};
	struct rte_ether_addr r = fws_rte_mac(&m);
	char a[32], b[32];

	ck_assert_uint_eq(fws_cpu_to_be16(0x1234), rte_cpu_to_be_16(0x1234));
	ck_assert_uint_eq(fws_be32_to_cpu(0x12345678u), rte_be_to_cpu_32(0x12345678u));
	ck_assert_uint_eq(fws_cpu_to_le32(0x12345678u), rte_cpu_to_le_32(0x12345678u));
	ck_assert_uint_eq(fws_le16_to_cpu(0x1234), rte_le_to_cpu_16(0x1234));
	ck_assert_uint_eq(sizeof(m), sizeof(r));
	ck_assert_uint_eq(_Alignof(struct fws_mac), _Alignof(struct rte_ether_addr));
	ck_assert_mem_eq(r.addr_bytes, m.addr_bytes, 6);
	fws_mac_format(a, sizeof(a), &m);
	/* rte_ether_format_addr's format (librte_net, which the unit tests do not link) */
	snprintf(b, sizeof(b), RTE_ETHER_ADDR_PRT_FMT, RTE_ETHER_ADDR_BYTES(&r));
	ck_assert_str_eq(a, b);
	ck_assert_uint_eq(FWS_ETHER_HDR_LEN, RTE_ETHER_HDR_LEN);
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
	tcase_add_test(tc, test_pkt_parse_usual_shape);
	tcase_add_test(tc, test_pkt_icmp_error);
	tcase_add_test(tc, test_pkt_first_fragment);
	tcase_add_test(tc, test_pkt_ip_id);
	tcase_add_test(tc, test_pkt_ip6_addr_accessors);
	tcase_add_test(tc, test_pkt_own_helpers_match_dpdk);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_pkt)
