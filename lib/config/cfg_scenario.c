/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Scenario presets: what "scenario" implies unless the config says it otherwise.
 *   firewall  both directions, "nat": "masquerade"
 *   ids       firewall, plus an attack stream carrying uid=0(root) that must pass
 *   ips       firewall, plus the attack stream, which must be blocked
 *   appcontrol firewall with TCP streams, plus two application streams whose connections
 *             open with a TLS ClientHello: SNI allowed.fwstress.test must pass,
 *             blocked.fwstress.test must be blocked
 * Other scenarios (routing, the tunnels) are labels only. What a preset adds
 * is written out in full by validate, so a normalised config needs no preset.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "fws_tunnel.h"
#include "cfg_int.h"
#include "fws_util.h"

#define ATTACK_PATTERN "uid=0(root)"
#define APP_ALLOWED "allowed.fwstress.test"
#define APP_BLOCKED "blocked.fwstress.test"

static const struct preset {
	const char *name;
	bool attack;
	enum fws_expect attack_expect;
	bool apps; /**< the two application streams of appcontrol */
} presets[] = {
	{"firewall", false, FWS_EXPECT_PASS, false},
	{"ids", true, FWS_EXPECT_PASS, false},
	{"ips", true, FWS_EXPECT_BLOCKED, false},
	{"appcontrol", false, FWS_EXPECT_PASS, true},
};

static const struct preset *
preset_of(const struct fws_cfg *cfg)
{
	unsigned int i;

	for (i = 0; i < FWS_DIM(presets); i++)
		if (strcmp(cfg->scenario, presets[i].name) == 0)
			return &presets[i];
	return NULL;
}

/* A name with a meaning: a preset, a tunnel scenario, or routing (plain forwarding). */
static bool
known(const char *name)
{
	unsigned int i;

	for (i = 0; i < FWS_DIM(presets); i++)
		if (strcmp(name, presets[i].name) == 0)
			return true;
	return strcmp(name, "routing") == 0 || fws_tunnel_kind_of(name) > 0;
}

bool
fws_config_scenario_is_label(const struct fws_cfg *cfg)
{
	return !known(cfg->scenario);
}

int
cfg_scenario_check(struct cfg_ctx *c, const struct fws_cfg *cfg)
{
	char norm[FWS_CFG_NAME_LEN];
	const char *s = cfg->scenario;
	size_t n = 0;

	if (known(s))
		return 0;
	for (; *s; s++) /* without case and white space */
		if (!isspace((unsigned char)*s) && n + 1 < sizeof(norm))
			norm[n++] = (char)tolower((unsigned char)*s);
	norm[n] = '\0';
	if (!known(norm))
		return 0; /* a free label: validate says so */
	return cfg_fail(c,
			"\"%s\" is not a scenario; \"%s\" is (write it so for its preset, or "
			"choose a label that is not a scenario's name)",
			cfg->scenario, norm);
}

const char *
cfg_scenario_direction(const struct fws_cfg *cfg)
{
	return preset_of(cfg) ? "bidir" : "upload";
}

/* The attack stream: 16 flows LAN -> WAN of their own, 1 kpps, the pattern after the
 * signature (frames are raised to carry it whole). */
static int
add_attack(struct cfg_ctx *c, struct fws_cfg *cfg, enum fws_expect expect)
{
	int lan = fws_config_port(cfg, "lan"), wan = fws_config_port(cfg, "wan");
	struct fws_cfg_stream *s;
	unsigned int i;

	for (i = 0; i < cfg->n_streams; i++)
		if (strcmp(cfg->streams[i].name, "attack") == 0)
			return 0; /* the config has its own */
	if (lan < 0 || wan < 0)
		return cfg_fail(c,
				"\"%s\" adds an attack stream from port lan to port wan: the "
				"config has no such ports",
				cfg->scenario);
	if (cfg->n_streams == FWS_CFG_MAX_STREAMS)
		return cfg_fail(c, "no room for the attack stream (at most %d streams)",
				FWS_CFG_MAX_STREAMS);
	s = &cfg->streams[cfg->n_streams++];
	memset(s, 0, sizeof(*s));
	strlcpy(s->name, "attack", sizeof(s->name));
	s->dir = FWS_DIR_UPLOAD;
	fws_cfg_stream_tx(s, (unsigned int)lan);
	s->rx_port = (uint8_t)wan;
	s->learner = -1;
	s->flows = (struct fws_flow_spec){.count = 16,
					  .src_ip_lo = 0xc612fa00, /* 198.18.250.0-15 */
					  .src_ip_hi = 0xc612fa0f,
					  .dst_ip_lo = 0xc613fa01, /* 198.19.250.1 */
					  .dst_ip_hi = 0xc613fa01,
					  .src_port_lo = 1024,
					  .src_port_hi = 1024,
					  .dst_port_lo = 5001,
					  .dst_port_hi = 5001};
	s->rate = (struct fws_rate){.kind = FWS_RATE_PPS, .layer = FWS_RATE_L1, .value = 1000};
	s->payload_len = sizeof(ATTACK_PATTERN) - 1;
	memcpy(s->payload, ATTACK_PATTERN, s->payload_len);
	s->expect = expect;
	return 0;
}

/* An application stream: TCP, 16 flows of its own (198.18.NET.0-15 -> 198.19.NET.1:443),
 * 1 kpps, every connection opening with a ClientHello naming sni. */
static int
add_app(struct cfg_ctx *c, struct fws_cfg *cfg, const char *name, unsigned int net, const char *sni,
	enum fws_expect expect)
{
	int lan = fws_config_port(cfg, "lan"), wan = fws_config_port(cfg, "wan");
	struct fws_cfg_stream *s;
	unsigned int i;

	for (i = 0; i < cfg->n_streams; i++)
		if (strcmp(cfg->streams[i].name, name) == 0)
			return 0; /* the config has its own */
	if (lan < 0 || wan < 0 || cfg->n_streams == FWS_CFG_MAX_STREAMS)
		return cfg_fail(c,
				"\"appcontrol\" adds the stream %s from port lan to port wan: the "
				"config has no such ports or no room (at most %d streams)",
				name, FWS_CFG_MAX_STREAMS);
	s = &cfg->streams[cfg->n_streams++];
	memset(s, 0, sizeof(*s));
	strlcpy(s->name, name, sizeof(s->name));
	s->dir = FWS_DIR_UPLOAD;
	fws_cfg_stream_tx(s, (unsigned int)lan);
	s->rx_port = (uint8_t)wan;
	s->learner = -1;
	s->l4 = FWS_L4_TCP;
	s->app = FWS_APP_TLS;
	strlcpy(s->app_name, sni, sizeof(s->app_name));
	s->flows = (struct fws_flow_spec){.count = 16,
					  .src_ip_lo = 0xc6120000 | net << 8,
					  .src_ip_hi = 0xc612000f | net << 8,
					  .dst_ip_lo = 0xc6130001 | net << 8,
					  .dst_ip_hi = 0xc6130001 | net << 8,
					  .src_port_lo = 1024,
					  .src_port_hi = 1024,
					  .dst_port_lo = 443,
					  .dst_port_hi = 443};
	s->rate = (struct fws_rate){.kind = FWS_RATE_PPS, .layer = FWS_RATE_L1, .value = 1000};
	s->expect = expect;
	return 0;
}

int
cfg_apply_scenario(struct cfg_ctx *c, struct cfg_top *t)
{
	const struct preset *p = preset_of(t->cfg);
	size_t old;
	int rc = 0;

	if (p == NULL)
		return 0;
	old = cfg_push_key(c, "scenario");
	if (p->attack)
		rc = add_attack(c, t->cfg, p->attack_expect);
	if (p->apps && json_object_get(t->root, "l4") == NULL)
		t->cfg->l4 = FWS_L4_TCP; /* application control inspects connections */
	if (rc == 0 && p->apps)
		rc = add_app(c, t->cfg, "app-allowed", 251, APP_ALLOWED, FWS_EXPECT_PASS);
	if (rc == 0 && p->apps)
		rc = add_app(c, t->cfg, "app-blocked", 252, APP_BLOCKED, FWS_EXPECT_BLOCKED);
	if (rc == 0 && json_object_get(t->root, "nat") == NULL) {
		json_t *m = json_string("masquerade");

		rc = cfg_sec_nat(c, m, t); /* cfg_nat_pair pairs the streams next */
		json_decref(m);
	}
	if (rc == 0)
		cfg_pop(c, old);
	return rc;
}

int
cfg_sec_scenario(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	if (cfg_get_string(c, v, t->cfg->scenario, sizeof(t->cfg->scenario)) < 0)
		return -EINVAL;
	return cfg_scenario_check(c, t->cfg);
}

json_t *
cfg_emit_scenario(const struct fws_cfg *cfg)
{
	return json_string(cfg->scenario);
}
