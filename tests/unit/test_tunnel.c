/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tunnel overhead (fws_tunnel): the bytes each kind puts on its encrypted link per inner
 * packet, worked out by hand from the formats (WireGuard's 16-byte padding capped at the
 * MTU, ESP's 4-byte alignment with its 2-byte trailer, OpenVPN's fixed 52), the underlay
 * frame per inner frame with and without a VLAN tag, and the names.
 */
#include "fws_tunnel.h"
#include "unit.h"

START_TEST(test_tunnel_overhead)
{
	static const struct {
		enum fws_tunnel_kind kind;
		uint32_t ip, outer;
	} cases[] = {
		/* WireGuard: 60 + the packet padded to 16, never past the MTU (1420). */
		{FWS_TUNNEL_WIREGUARD, 46, 60 + 48},
		{FWS_TUNNEL_WIREGUARD, 48, 60 + 48},
		{FWS_TUNNEL_WIREGUARD, 49, 60 + 64},
		{FWS_TUNNEL_WIREGUARD, 1420, 60 + 1420}, /* 1424 would pass the MTU */
		{FWS_TUNNEL_WIREGUARD, 1416, 60 + 1420}, /* 1424 capped at the MTU */
		{FWS_TUNNEL_WIREGUARD, 1500, 60 + 1504}, /* over the MTU: no cap */
		/* ESP in UDP with AES-GCM: 60 + (packet + 2) padded to 4. */
		{FWS_TUNNEL_IPSEC, 46, 60 + 48},
		{FWS_TUNNEL_IPSEC, 50, 60 + 52},
		{FWS_TUNNEL_IPSEC, 1400, 60 + 1404},
		{FWS_TUNNEL_IPSEC, 1401, 60 + 1404},
		/* OpenVPN, AEAD: 52 + the packet, no padding. */
		{FWS_TUNNEL_OPENVPN, 46, 98},
		{FWS_TUNNEL_OPENVPN, 1400, 1452},
		{FWS_TUNNEL_NONE, 100, 100},
	};
	struct fws_tunnel t;
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fws_tunnel_defaults(cases[i].kind, &t);
		ck_assert_msg(fws_tunnel_outer(&t, cases[i].ip) == cases[i].outer,
			      "case %u: %u, want %u", i, fws_tunnel_outer(&t, cases[i].ip),
			      cases[i].outer);
	}
	/* A 64-byte inner frame: a 46-byte packet; the underlay adds Ethernet and FCS. */
	fws_tunnel_defaults(FWS_TUNNEL_WIREGUARD, &t);
	ck_assert_uint_eq(fws_tunnel_link_frame(&t, 64, 14), 18 + 108);
	ck_assert_uint_eq(fws_tunnel_link_frame(&t, 68, 18), 18 + 108); /* VLAN-tagged */
	ck_assert_uint_eq(fws_tunnel_link_frame(&t, 1438, 14), 1498);   /* the largest that fits */
	ck_assert_uint_eq(t.mtu, 1420);
	fws_tunnel_defaults(FWS_TUNNEL_IPSEC, &t);
	ck_assert_uint_eq(t.mtu, 1400);
	t.base = 70; /* "overhead" overrides the fixed part, padding stays */
	ck_assert_uint_eq(fws_tunnel_outer(&t, 50), 70 + 52);
	ck_assert_int_eq(fws_tunnel_kind_of("openvpn"), FWS_TUNNEL_OPENVPN);
	ck_assert_int_eq(fws_tunnel_kind_of("gre"), -1);
	ck_assert_int_eq(fws_tunnel_kind_of(""), -1);
	ck_assert_str_eq(fws_tunnel_name(FWS_TUNNEL_IPSEC), "ipsec");
}
END_TEST

static Suite *
suite_tunnel(void)
{
	Suite *s = suite_create("tunnel");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_tunnel_overhead);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_tunnel)
