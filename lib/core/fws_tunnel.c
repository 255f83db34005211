/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "fws_tunnel.h"

static const struct {
	const char *name, *doc;
	struct fws_tunnel t;
} kinds[] = {
#define FWS_TUNNEL_ROW(n, k, b, tr, a, m, d) {k, d, {FWS_TUNNEL_##n, b, tr, a, m}},
	FWS_TUNNELS(FWS_TUNNEL_ROW)
#undef FWS_TUNNEL_ROW
};

void
fws_tunnel_defaults(enum fws_tunnel_kind kind, struct fws_tunnel *t)
{
	*t = kinds[(unsigned int)kind < FWS_TUNNEL_KINDS ? kind : FWS_TUNNEL_NONE].t;
}

const char *
fws_tunnel_name(enum fws_tunnel_kind kind)
{
	return (unsigned int)kind < FWS_TUNNEL_KINDS ? kinds[kind].name : "?";
}

const char *
fws_tunnel_doc(enum fws_tunnel_kind kind)
{
	return (unsigned int)kind < FWS_TUNNEL_KINDS ? kinds[kind].doc : "?";
}

int
fws_tunnel_kind_of(const char *name)
{
	unsigned int k;

	for (k = 1; k < FWS_TUNNEL_KINDS; k++)
		if (strcmp(name, kinds[k].name) == 0)
			return (int)k;
	return -1;
}

uint32_t
fws_tunnel_outer(const struct fws_tunnel *t, uint32_t ip_len)
{
	uint32_t a = t->align ? t->align : 1, in = ip_len + t->trailer;
	uint32_t padded = (in + a - 1) / a * a;

	/* WireGuard pads to 16 but never beyond the MTU. */
	if (t->kind == FWS_TUNNEL_WIREGUARD && t->mtu && in <= t->mtu && padded > t->mtu)
		padded = t->mtu;
	return t->base + padded;
}

uint32_t
fws_tunnel_link_frame(const struct fws_tunnel *t, uint32_t frame, uint32_t l2)
{
	uint32_t ip = frame > l2 + 4 ? frame - l2 - 4 : 0;

	return 14 + 4 + fws_tunnel_outer(t, ip);
}
