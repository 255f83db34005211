/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>

#include "fws_sig.h"
#include "fws_frame.h"

uint16_t
fws_pkt_min_frame(bool vlan, bool ipv6)
{
	return (uint16_t)(FWS_ETHER_HDR_LEN + (vlan ? FWS_PKT_VLAN_LEN : 0) +
			  (ipv6 ? FWS_PKT_IPV6_LEN : FWS_PKT_IPV4_LEN) + FWS_PKT_UDP_LEN +
			  FWS_SIG_LEN + FWS_PKT_FCS);
}

uint16_t
fws_pkt_min_frame_tcp(bool vlan, bool ipv6)
{
	return (uint16_t)(fws_pkt_min_frame(vlan, ipv6) - FWS_PKT_UDP_LEN + FWS_PKT_TCP_LEN);
}

static const char *const icmp_class_names[] = {
#define FWS_ICMP_CLASS_NAME(n, s, d) s,
	FWS_ICMP_CLASSES(FWS_ICMP_CLASS_NAME)
#undef FWS_ICMP_CLASS_NAME
};

const char *
fws_icmp_class_name(enum fws_icmp_class c)
{
	return (unsigned int)c < FWS_ICMP_CLASSES_N ? icmp_class_names[c] : "?";
}

void
fws_mac_format(char *buf, size_t len, const struct fws_mac *m)
{
	const uint8_t *b = m->addr_bytes;

	snprintf(buf, len, "%02X:%02X:%02X:%02X:%02X:%02X", b[0], b[1], b[2], b[3], b[4], b[5]);
}
