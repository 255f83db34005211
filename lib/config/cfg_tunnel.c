/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "tunnel": the tunnel the streams cross (for the overhead report), and the tunnel
 * scenarios' presets (the tunnel, a random fill and frame sizes around its MTU).
 */
#include <errno.h>
#include <string.h>

#include <jansson.h>

#include "fws_config.h"
#include "fws_tunnel.h"
#include "cfg_int.h"
#include "fws_util.h"

/* "tunnel": {kind, overhead, mtu}: the tunnel the streams cross, for the overhead report. */
int
cfg_sec_tunnel(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	static const char *const keys[] = {"kind", "overhead", "mtu", NULL};
	struct fws_tunnel *tu = &t->cfg->tunnel;
	const json_t *x;
	uint64_t u;
	size_t old;
	int k;

	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	old = cfg_push_key(c, "kind");
	if ((x = json_object_get(v, "kind")) == NULL || !json_is_string(x) ||
	    (k = fws_tunnel_kind_of(json_string_value(x))) < 0)
		return cfg_fail(c, "give \"wireguard\", \"ipsec\" or \"openvpn\"");
	cfg_pop(c, old);
	fws_tunnel_defaults((enum fws_tunnel_kind)k, tu);
	if ((x = json_object_get(v, "overhead")) != NULL) {
		old = cfg_push_key(c, "overhead");
		if (cfg_get_uint(c, x, 0, 1000, &u) < 0)
			return -EINVAL;
		tu->base = (uint16_t)u; /* bytes besides the inner packet; padding stays */
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "mtu")) != NULL) {
		old = cfg_push_key(c, "mtu");
		if (cfg_get_uint(c, x, 576, 9000, &u) < 0)
			return -EINVAL;
		tu->mtu = (uint16_t)u;
		cfg_pop(c, old);
	}
	return 0;
}

json_t *
cfg_emit_tunnel(const struct fws_cfg *cfg)
{
	const struct fws_tunnel *tu = &cfg->tunnel;

	if (tu->kind == FWS_TUNNEL_NONE)
		return NULL;
	return json_pack("{s:s, s:i, s:i}", "kind", fws_tunnel_name(tu->kind), "overhead",
			 (int)tu->base, "mtu", (int)tu->mtu);
}

/*
 * The tunnel scenarios (openvpn, ipsec, wireguard) unless the config says otherwise: their
 * tunnel, an incompressible fill (a compressing tunnel must not inflate the result), and
 * frame sizes around the inner MTU: the largest that fits, and one just over it.
 */
int
cfg_tunnel_preset(struct cfg_ctx *c, const json_t *root, struct fws_cfg *cfg)
{
	int k = fws_tunnel_kind_of(cfg->scenario);
	uint16_t sizes[8], n = 0, m, i, j;

	(void)c;
	if (k < 0)
		return 0;
	if (json_object_get(root, "tunnel") == NULL)
		fws_tunnel_defaults((enum fws_tunnel_kind)k, &cfg->tunnel);
	if (!cfg->fill.set) {
		cfg->fill.kind = FWS_FILL_RANDOM;
		cfg->fill.set = true;
	}
	if (json_object_get(root, "frame_size") != NULL)
		return 0;
	m = (uint16_t)(cfg->tunnel.mtu + 18); /* the largest frame whose packet fits */
	{
		const uint16_t want[] = {64,  512, 1024, (uint16_t)(m - 64), m, (uint16_t)(m + 8),
					 1518};

		for (i = 0; i < FWS_DIM(want); i++) {
			for (j = 0; j < n && sizes[j] != want[i]; j++)
				;
			if (j == n && want[i] >= 64 && want[i] <= 1518)
				sizes[n++] = want[i];
		}
	}
	for (i = 0; i < n; i++)
		fws_size_fixed(&cfg->sizes[i], sizes[i]);
	cfg->n_sizes = n;
	return 0;
}
