/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Scenario presets: what "scenario" implies unless the config says it otherwise.
 *   firewall  both directions, "nat": "masquerade"
 *   ids       firewall, plus an attack stream carrying uid=0(root) that must pass
 *   ips       firewall, plus the attack stream, which must be blocked
 * Other scenarios (routing, appcontrol, the tunnels) are labels only. What a preset adds
 * is written out in full by validate, so a normalised config needs no preset.
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "cfg_int.h"

#define ATTACK_PATTERN "uid=0(root)"

static const struct preset {
	const char *name;
	bool attack;
	enum fws_expect attack_expect;
} presets[] = {
	{"firewall", false, FWS_EXPECT_PASS},
	{"ids", true, FWS_EXPECT_PASS},
	{"ips", true, FWS_EXPECT_BLOCKED},
};

static const struct preset *
preset_of(const struct fws_cfg *cfg)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(presets); i++)
		if (strcmp(cfg->scenario, presets[i].name) == 0)
			return &presets[i];
	return NULL;
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
	s->tx_port = (uint8_t)lan;
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
	if (rc == 0 && json_object_get(t->root, "nat") == NULL) {
		json_t *m = json_string("masquerade");

		rc = cfg_sec_nat(c, m, t); /* cfg_nat_pair pairs the streams next */
		json_decref(m);
	}
	if (rc == 0)
		cfg_pop(c, old);
	return rc;
}
