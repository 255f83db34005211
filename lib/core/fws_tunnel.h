/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tunnel overhead: the bytes a site-to-site tunnel puts on its encrypted (underlay) link for
 * each inner IP packet, per kind, with the byte counts and their sources in the table. The
 * outer packet is base + the inner packet with its trailer, padded to align; the underlay
 * frame adds Ethernet and FCS (18). Outer headers are IPv4 (20) and UDP (8) in every kind.
 */
#ifndef FWS_TUNNEL_H
#define FWS_TUNNEL_H

#include <stdint.h>

/* X(name, key, base, trailer, align, inner MTU, where the numbers come from) */
#define FWS_TUNNELS(X)                                                                             \
	X(NONE, "", 0, 0, 1, 0, "")                                                                \
	X(WIREGUARD, "wireguard", 60, 0, 16, 1420,                                                 \
	  "IPv4 20 + UDP 8 + WireGuard data message header 16 (type 4, receiver 4, counter 8) + "  \
	  "Poly1305 tag 16; the inner packet padded to a multiple of 16 (WireGuard whitepaper, "   \
	  "5.4.6); inner MTU 1420 as wg-quick sets it")                                            \
	X(IPSEC, "ipsec", 60, 2, 4, 1400,                                                          \
	  "IPv4 20 + UDP 8 (NAT traversal, RFC 3948) + ESP SPI and sequence number 8 + AES-GCM "   \
	  "IV 8 + ICV 16 (RFC 4303, RFC 4106); the inner packet and the 2-byte trailer (pad "      \
	  "length, next header) padded to a multiple of 4; inner MTU 1400 (strongSwan's "          \
	  "kernel-libipsec TUN)")                                                                  \
	X(OPENVPN, "openvpn", 52, 0, 1, 1400,                                                      \
	  "IPv4 20 + UDP 8 + P_DATA_V2 opcode and peer id 4 + packet id 4 + AES-256-GCM tag 16 "   \
	  "(OpenVPN 2.6 data channel, AEAD); with compression framing 1 more; inner MTU as "       \
	  "tun-mtu 1400 sets it")

enum fws_tunnel_kind {
#define FWS_TUNNEL_ENUM(n, k, b, t, a, m, d) FWS_TUNNEL_##n,
	FWS_TUNNELS(FWS_TUNNEL_ENUM)
#undef FWS_TUNNEL_ENUM
		FWS_TUNNEL_KINDS
};

struct fws_tunnel {
	enum fws_tunnel_kind kind;
	uint16_t base;    /**< outer bytes besides the inner packet */
	uint16_t trailer; /**< bytes after the inner packet, padded with it */
	uint16_t align;   /**< the inner packet and trailer are padded to a multiple of this */
	uint16_t mtu;     /**< the inner MTU: the largest inner IP packet */
};

/** The kind's defaults (base, trailer, align, MTU). */
void fws_tunnel_defaults(enum fws_tunnel_kind kind, struct fws_tunnel *t);

/** "wireguard", "ipsec", "openvpn" ("" for none); the source of its byte counts. */
const char *fws_tunnel_name(enum fws_tunnel_kind kind);
const char *fws_tunnel_doc(enum fws_tunnel_kind kind);

/** The kind named name, or -1. */
int fws_tunnel_kind_of(const char *name);

/** Bytes of the outer IP packet carrying an inner IP packet of ip_len bytes. */
uint32_t fws_tunnel_outer(const struct fws_tunnel *t, uint32_t ip_len);

/** Bytes of the underlay frame (FCS included) per inner frame of frame bytes (FCS included;
 * l2 bytes of Ethernet and VLAN header before its IP header). */
uint32_t fws_tunnel_link_frame(const struct fws_tunnel *t, uint32_t frame, uint32_t l2);

#endif /* FWS_TUNNEL_H */
