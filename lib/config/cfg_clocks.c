/* SPDX-License-Identifier: BSD-3-Clause */
/* "clocks": how the hosts' clocks are aligned for one-way latency (probe, ptp, none). */
#include <errno.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "cfg_int.h"
#include "fws_util.h"

static const char *const sync_names[] = {
#define FWS_CLOCK_SYNC_NAME(n, s) s,
	FWS_CLOCK_SYNCS(FWS_CLOCK_SYNC_NAME)
#undef FWS_CLOCK_SYNC_NAME
};

const char *
fws_clock_sync_name(enum fws_clock_sync m)
{
	return (unsigned int)m < FWS_DIM(sync_names) ? sync_names[m] : "?";
}

const char *
fws_config_ptp_socket(const struct fws_cfg *cfg, unsigned int k)
{
	if (k > 0 && k <= cfg->n_hosts && cfg->hosts[k - 1].ptp_socket[0])
		return cfg->hosts[k - 1].ptp_socket;
	return cfg->ptp_socket[0] ? cfg->ptp_socket : FWS_PTP_SOCKET_DEFAULT;
}

/* "clocks".domain: the PTP domain number, 0-255. */
static int
ptp_domain(struct cfg_ctx *c, const json_t *x, uint8_t *out)
{
	size_t old;

	if (x == NULL)
		return 0;
	old = cfg_push_key(c, "domain");
	if (!json_is_integer(x) || json_integer_value(x) < 0 || json_integer_value(x) > 255)
		return cfg_fail(c, "a PTP domain is a number from 0 to 255 (ptp4l's domainNumber)");
	*out = (uint8_t)json_integer_value(x);
	cfg_pop(c, old);
	return 0;
}

/* "clocks": a mode's name, or {mode, socket, domain}. */
int
cfg_sec_clocks(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	static const char *const keys[] = {"mode", "socket", "domain", NULL};
	const json_t *m = v;
	size_t i;

	if (json_is_object(v)) {
		if (cfg_check_keys(c, v, keys) < 0 ||
		    cfg_member_string(c, v, "socket", true, t->cfg->ptp_socket,
				      sizeof(t->cfg->ptp_socket)) < 0)
			return -EINVAL;
		if ((m = json_object_get(v, "mode")) == NULL)
			return cfg_fail(c, "\"clocks\" needs a \"mode\"");
		if (ptp_domain(c, json_object_get(v, "domain"), &t->cfg->ptp_domain) < 0)
			return -EINVAL;
	}
	if (cfg_want_type(c, m, JSON_STRING, "\"probe\", \"ptp\" or \"none\"") < 0)
		return -EINVAL;
	for (i = 0; i < FWS_DIM(sync_names); i++)
		if (strcmp(json_string_value(m), sync_names[i]) == 0) {
			t->cfg->clock_sync = (enum fws_clock_sync)i;
			return 0;
		}
	return cfg_fail(c, "\"%s\" is not a way to align clocks (probe, ptp or none)",
			json_string_value(m));
}

json_t *
cfg_emit_clocks(const struct fws_cfg *cfg)
{
	if (cfg->n_hosts == 0 && cfg->clock_sync == FWS_CLOCK_SYNC_PROBE)
		return NULL;
	json_t *o;

	if (!cfg->ptp_socket[0] && cfg->ptp_domain == 0)
		return json_string(fws_clock_sync_name(cfg->clock_sync));
	o = json_pack("{s:s}", "mode", fws_clock_sync_name(cfg->clock_sync));
	if (cfg->ptp_socket[0])
		json_object_set_new(o, "socket", json_string(cfg->ptp_socket));
	if (cfg->ptp_domain)
		json_object_set_new(o, "domain", json_integer(cfg->ptp_domain));
	return o;
}
