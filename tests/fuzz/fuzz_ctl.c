/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer: the control plane's frame logic (ARP, ND, ICMP and ICMPv6 echo) on one frame,
 * answered in place: a reply never outgrows the buffer.
 */
#include <stdlib.h>
#include <string.h>

#include "fws_ctl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t hi6[12] = {0x20, 0x01, 0x00, 0x02};
	static struct fws_ctl_port cp;
	uint8_t buf[2048 + 64];
	uint64_t before, after;
	uint32_t len;

	if (size > 2048)
		return 0;
	memset(&cp, 0, sizeof(cp));
	cp.mac = (struct rte_ether_addr){{0x02, 0, 0, 0, 0, 1}};
	cp.ipv4 = 0xc6120002;
	cp.has_ipv6 = true;
	memcpy(cp.ipv6, hi6, 12);
	cp.ipv6[15] = 2;
	fws_ctl_add_range(&cp, false, NULL, 0xc6120002, 0xc61200ff);
	fws_ctl_add_range(&cp, true, hi6, 2, 0xff);
	memcpy(buf, data, size);
	len = (uint32_t)size;
#define CLASSES(c)                                                                                 \
	((c).arp_requests + (c).arp_replies + (c).nd_solicits + (c).nd_adverts +                   \
	 (c).echo_requests + (c).ignored + (c).malformed)
	before = CLASSES(cp.cnt);
	if (fws_ctl_input(&cp, buf, &len, 2048) == 1 && (len > 2048 || len < 14))
		abort(); /* a reply fits the buffer and is a frame */
	after = CLASSES(cp.cnt);
	if (after != before + 1)
		abort(); /* every frame lands in one counter */
	return 0;
}
