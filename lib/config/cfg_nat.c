/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Config section "nat": what the DUT is expected to do to addresses and ports. "none": no
 * translation on any stream. "masquerade": upload IPv4 streams arrive source-translated, and
 * each download IPv4 stream is sent to the translations its learner (the upload stream it
 * answers; added as a learn-only stream when the direction is download alone) taught in a
 * learn phase before each trial (RFC 9693's two phases).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "cfg_int.h"
#include "fws_util.h"

static const char *const mode_names[] = {FWS_NAT_MODES(CFG_NAME)};

const char *
fws_nat_mode_name(enum fws_nat_mode m)
{
	return cfg_name_of(mode_names, FWS_DIM(mode_names), m);
}

static int
parse_mode(struct cfg_ctx *c, const json_t *v, struct fws_cfg_nat *nat)
{
	int i = cfg_pick_name(c, v, mode_names, FWS_DIM(mode_names)); /* "" (unset): never */

	if (i < 0)
		return -EINVAL;
	nat->mode = (enum fws_nat_mode)i;
	return 0;
}

/* The upload stream whose flows download stream d reverses: same ports crossed, same family. */
static int
find_learner(const struct fws_cfg *cfg, unsigned int d)
{
	const struct fws_cfg_stream *ds = &cfg->streams[d];
	unsigned int s;

	for (s = 0; s < cfg->n_streams; s++) {
		const struct fws_cfg_stream *us = &cfg->streams[s];

		if (us->dir == FWS_DIR_UPLOAD && us->tx_port == ds->rx_port &&
		    us->rx_port == ds->tx_port && us->flows.ipv6 == ds->flows.ipv6 &&
		    us->flows.count == ds->flows.count)
			return (int)s;
	}
	return -1;
}

/* A learn-only upload stream for a download stream that has none: its flows reversed. */
static int
add_learner(struct cfg_ctx *c, struct fws_cfg *cfg, unsigned int d)
{
	const struct fws_cfg_stream *ds = &cfg->streams[d];
	char name[sizeof(ds->name)];
	struct fws_cfg_stream *l;

	if (cfg->n_streams == FWS_CFG_MAX_STREAMS)
		return cfg_fail(c, "no room for the learn stream of %s (at most %d streams)",
				ds->name, FWS_CFG_MAX_STREAMS);
	l = &cfg->streams[cfg->n_streams];
	*l = *ds;
	snprintf(name, sizeof(name), "learn-%.20s", ds->name);
	strlcpy(l->name, name, sizeof(l->name));
	l->dir = FWS_DIR_UPLOAD;
	fws_cfg_stream_tx(l, ds->rx_port);
	l->rx_port = ds->tx_port;
	l->learn_only = true;
	l->learner = -1;
	l->l4 = FWS_L4_UDP;
	fws_cfg_reverse_flows(&ds->flows, &l->flows);
	return (int)cfg->n_streams++;
}

/* Masquerade: every download IPv4 stream gets its learner (once every stream exists: after
 * the sections, the default direction and the scenario's preset). */
static int
pair_streams(struct cfg_ctx *c, struct fws_cfg *cfg)
{
	unsigned int s, n = cfg->n_streams;
	int l;

	for (s = 0; s < n; s++) {
		struct fws_cfg_stream *ds = &cfg->streams[s];

		/* A TCP download learns its translations from its own SYNs; a SYN flood needs none. */
		if (ds->dir != FWS_DIR_DOWNLOAD || ds->flows.ipv6 || ds->l4 != FWS_L4_UDP)
			continue;
		l = find_learner(cfg, s);
		if (l < 0 && (l = add_learner(c, cfg, s)) < 0)
			return -EINVAL;
		cfg->streams[s].learner = (int8_t)l;
	}
	for (s = 0; s < cfg->n_streams; s++)
		if (cfg->streams[s].dir == FWS_DIR_CUSTOM)
			return cfg_fail(c,
					"\"masquerade\" needs \"direction\" streams (upload and "
					"download that answer each other); %s is explicit",
					cfg->streams[s].name);
	return 0;
}

int
cfg_sec_nat(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	static const char *const keys[] = {"mode", "learn_frames", "learn_pps", NULL};
	struct fws_cfg_nat *nat = &t->cfg->nat;
	const json_t *x;
	uint64_t u;
	size_t old;

	nat->learn_frames = 2;
	nat->learn_pps = 2000;
	if (json_is_string(v) && parse_mode(c, v, nat) < 0)
		return -EINVAL;
	if (!json_is_string(v)) {
		if (cfg_want_type(c, v, JSON_OBJECT, "a mode or an object") < 0 ||
		    cfg_check_keys(c, v, keys) < 0)
			return -EINVAL;
		if ((x = json_object_get(v, "mode")) == NULL)
			return cfg_fail(c, "needs a \"mode\"");
		old = cfg_push_key(c, "mode");
		if (parse_mode(c, x, nat) < 0)
			return -EINVAL;
		cfg_pop(c, old);
		if ((x = json_object_get(v, "learn_frames")) != NULL) {
			old = cfg_push_key(c, "learn_frames");
			if (cfg_get_uint(c, x, 1, 16, &u) < 0)
				return -EINVAL;
			nat->learn_frames = (uint32_t)u;
			cfg_pop(c, old);
		}
		if ((x = json_object_get(v, "learn_pps")) != NULL) {
			old = cfg_push_key(c, "learn_pps");
			if (cfg_get_uint(c, x, 1, 1000000, &u) < 0)
				return -EINVAL;
			nat->learn_pps = (double)u;
			cfg_pop(c, old);
		}
	}
	return 0;
}

int
cfg_nat_pair(struct cfg_ctx *c, struct fws_cfg *cfg)
{
	size_t old;

	if (cfg->nat.mode != FWS_NAT_MASQUERADE)
		return 0;
	old = cfg_push_key(c, "nat");
	if (pair_streams(c, cfg) < 0)
		return -EINVAL;
	cfg_pop(c, old);
	return 0;
}

json_t *
cfg_emit_nat(const struct fws_cfg *cfg)
{
	if (cfg->nat.mode == FWS_NAT_UNSET)
		return NULL;
	return json_pack("{s:s, s:i, s:I}", "mode", fws_nat_mode_name(cfg->nat.mode),
			 "learn_frames", (int)cfg->nat.learn_frames, "learn_pps",
			 (json_int_t)cfg->nat.learn_pps);
}
