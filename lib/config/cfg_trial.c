/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The trial's shape: frame sizes, the rate and its layer, duration, warm-up, drain, TX
 * bursts, the path check and the sequence window; each key parsed and emitted here.
 */
#include <errno.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "fws_frame.h"
#include "fws_rxstat.h"
#include "fws_sig.h"
#include "cfg_int.h"
#include "fws_util.h"

/* Ethernet 14 + IPv4 20 + UDP 8 + signature 18 + FCS 4. */
#define FWS_CFG_MIN_FRAME_IPV4 64

static int
parse_one_size(struct cfg_ctx *c, const json_t *v, struct fws_size_mix *m)
{
	static const char *const keys[] = {"name", "mix", NULL};
	const json_t *mix, *e;
	size_t i, old;

	if (json_is_integer(v)) {
		json_int_t s = json_integer_value(v);

		if (s < FWS_CFG_MIN_FRAME_IPV4)
			return cfg_fail(c,
					"%lld is below the %d-byte minimum for Ethernet/IPv4/UDP "
					"with the %d-byte signature",
					(long long)s, FWS_CFG_MIN_FRAME_IPV4, FWS_SIG_LEN);
		if (s > FWS_SIZE_MAX)
			return cfg_fail(c, "%lld is above the %d-byte maximum", (long long)s,
					FWS_SIZE_MAX);
		fws_size_fixed(m, (uint16_t)s);
		return 0;
	}
	if (json_is_string(v)) {
		if (strcmp(json_string_value(v), "imix") != 0)
			return cfg_fail(c,
					"\"%s\" is not a frame size (a number, \"imix\" or a mix)",
					json_string_value(v));
		fws_size_imix(m);
		return 0;
	}
	if (!json_is_object(v))
		return cfg_fail(c, "expected a frame size, \"imix\" or {\"mix\": ...}, got %s",
				cfg_type_name(v));
	if (cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	memset(m, 0, sizeof(*m));
	strlcpy(m->name, "mix", sizeof(m->name));
	if ((e = json_object_get(v, "name")) != NULL) {
		old = cfg_push_key(c, "name");
		if (cfg_get_string(c, e, m->name, sizeof(m->name)) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	old = cfg_push_key(c, "mix");
	mix = json_object_get(v, "mix");
	if (mix == NULL) {
		cfg_pop(c, old);
		return cfg_fail(c, "a mix object needs \"mix\": [[size, weight], ...]");
	}
	if (!json_is_array(mix) || json_array_size(mix) == 0 ||
	    json_array_size(mix) > FWS_SIZE_MAX_ENTRIES)
		return cfg_fail(c, "expected 1 to %d [size, weight] pairs", FWS_SIZE_MAX_ENTRIES);
	json_array_foreach(mix, i, e)
	{
		size_t o2 = cfg_push_idx(c, i);
		struct fws_size_mix one;
		uint64_t w;
		size_t o3;

		if (!json_is_array(e) || json_array_size(e) != 2)
			return cfg_fail(c, "expected [size, weight]");
		o3 = cfg_push_idx(c, 0);
		if (!json_is_integer(json_array_get(e, 0)))
			return cfg_fail(c, "expected a frame size in bytes, got %s",
					cfg_type_name(json_array_get(e, 0)));
		if (parse_one_size(c, json_array_get(e, 0), &one) < 0)
			return -EINVAL;
		cfg_pop(c, o3);
		o3 = cfg_push_idx(c, 1);
		if (cfg_get_uint(c, json_array_get(e, 1), 1, 255, &w) < 0)
			return -EINVAL;
		cfg_pop(c, o3);
		m->size[m->n] = one.size[0];
		m->weight[m->n] = (uint16_t)w;
		m->n++;
		cfg_pop(c, o2);
	}
	if (fws_size_seq_len(m) > FWS_SIZE_MAX_SEQ)
		return cfg_fail(c, "weights add up to %u, more than %d", fws_size_seq_len(m),
				FWS_SIZE_MAX_SEQ);
	cfg_pop(c, old);
	return 0;
}

int
cfg_sec_frame_size(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	struct fws_cfg *cfg = t->cfg;
	const json_t *e;
	size_t i, old;

	if (json_is_string(v) && strcmp(json_string_value(v), "rfc2544") == 0) {
		/* RFC 2544 section 9.1: the Ethernet frame sizes. */
		static const uint16_t sizes[] = {64, 128, 256, 512, 1024, 1280, 1518};

		for (i = 0; i < FWS_DIM(sizes); i++)
			fws_size_fixed(&cfg->sizes[i], sizes[i]);
		cfg->n_sizes = FWS_DIM(sizes);
		return 0;
	}
	if (!json_is_array(v)) {
		cfg->n_sizes = 1;
		return parse_one_size(c, v, &cfg->sizes[0]);
	}
	if (json_array_size(v) == 0 || json_array_size(v) > FWS_CFG_MAX_SIZES)
		return cfg_fail(c, "expected 1 to %d frame sizes", FWS_CFG_MAX_SIZES);
	json_array_foreach(v, i, e)
	{
		old = cfg_push_idx(c, i);
		if (parse_one_size(c, e, &cfg->sizes[i]) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	cfg->n_sizes = (unsigned int)json_array_size(v);
	return 0;
}

int
cfg_parse_rate(struct cfg_ctx *c, const json_t *v, struct fws_rate *r)
{
	enum fws_rate_layer layer = r->layer;

	if (json_is_integer(v) || json_is_real(v))
		return cfg_fail(
			c, "%g has no unit: write \"line\", \"50%%\", \"1Mpps\" or \"900Mbit\"",
			json_number_value(v));
	if (cfg_want_type(c, v, JSON_STRING, "a rate string") < 0)
		return -EINVAL;
	if (fws_rate_parse(json_string_value(v), r) == -ERANGE)
		return cfg_fail(
			c, "\"%s\" is above the largest rate fwstress paces (%g pps, %g bit/s)",
			json_string_value(v), FWS_RATE_MAX_PPS, FWS_RATE_MAX_BPS);
	if (fws_rate_parse(json_string_value(v), r) < 0)
		return cfg_fail(c,
				"\"%s\" is not a rate (\"line\", \"max\", \"1-100%%\", "
				"\"1.5Mpps\", \"800kpps\", \"9.5Gbit\", \"100Mbit\")",
				json_string_value(v));
	r->layer = layer;
	return 0;
}

/* Any of the stream's transmit ports tags its frames. */
static bool
sent_tagged(const struct fws_cfg *cfg, const struct fws_cfg_stream *st)
{
	unsigned int j;

	for (j = 0; j < st->n_tx; j++)
		if (cfg->ports[st->tx_ports[j]].vlan)
			return true;
	return false;
}

/* Every stream's headers (VLAN tag, IPv6) and the signature must fit every frame size. */
int
cfg_check_frame_minimum(struct cfg_ctx *c, const json_t *root, struct fws_cfg *cfg)
{
	unsigned int s, z;

	if (cfg->conn.test != FWS_CONN_NONE)
		return 0; /* a connection test sends its own segments, no frame_size */
	for (s = 0; s < cfg->n_streams; s++) {
		const struct fws_cfg_stream *st = &cfg->streams[s];
		bool vlan = sent_tagged(cfg, st), tcp = st->l4 != FWS_L4_UDP;
		uint16_t need = tcp ? fws_pkt_min_frame_tcp(vlan, st->flows.ipv6)
				    : fws_pkt_min_frame(vlan, st->flows.ipv6);
		/* TCP: the payload of a segment fits the MSS less the timestamp option. */
		int mss = st->flows.ipv6 ? FWS_TCP_MSS6 : FWS_TCP_MSS4;
		uint16_t most = (uint16_t)(need - FWS_SIG_LEN + mss - 12);

		for (z = 0; z < cfg->n_sizes; z++) {
			bool small = fws_size_min(&cfg->sizes[z]) < need;

			if (!small && (!tcp || fws_size_max(&cfg->sizes[z]) <= most))
				continue;
			cfg_push_key(c, "frame_size");
			if (json_is_array(json_object_get(root, "frame_size")))
				cfg_push_idx(c, z);
			if (!small)
				return cfg_fail(c,
						"%u is above the %u-byte largest TCP segment of "
						"stream \"%s\" (MSS %d less the 12-byte timestamp "
						"option)",
						fws_size_max(&cfg->sizes[z]), most, st->name, mss);
			return cfg_fail(c,
					"%u is below the %u-byte minimum of stream \"%s\" "
					"(Ethernet%s/%s/%s with the %d-byte signature)",
					fws_size_min(&cfg->sizes[z]), need, st->name,
					vlan ? "/802.1Q" : "", st->flows.ipv6 ? "IPv6" : "IPv4",
					tcp ? "TCP with timestamps" : "UDP", FWS_SIG_LEN);
		}
	}
	return 0;
}

int
cfg_sec_duration(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	return cfg_get_seconds(c, v, 0.01, 86400, &t->cfg->duration);
}

int
cfg_sec_warmup(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	return cfg_get_seconds(c, v, 0, 3600, &t->cfg->warmup);
}

int
cfg_sec_drain(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	return cfg_get_seconds(c, v, 0, 60, &t->cfg->drain);
}

int
cfg_sec_repeat(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	uint64_t n;
	int rc = cfg_get_uint(c, v, 1, FWS_CFG_MAX_REPEAT, &n);

	if (rc == 0)
		t->cfg->repeat = (unsigned int)n;
	return rc;
}

int
cfg_sec_steady_band(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	return cfg_get_percent(c, v, 0, 50, &t->cfg->steady_band);
}

int
cfg_sec_burst(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	uint64_t u;

	if (cfg_get_uint(c, v, 1, 512, &u) < 0)
		return -EINVAL;
	t->cfg->burst = (uint16_t)u;
	return 0;
}

int
cfg_sec_path_check(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	if (!json_is_boolean(v))
		return cfg_fail(c, "expected true or false, got %s", cfg_type_name(v));
	t->cfg->path_check = json_is_true(v);
	return 0;
}

int
cfg_sec_seq_window(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	uint64_t u;

	if (cfg_get_uint(c, v, FWS_RXSTAT_WINDOW, FWS_RXSTAT_MAX_WINDOW, &u) < 0)
		return -EINVAL;
	if (u & (u - 1))
		return cfg_fail(c, "%llu is not a power of two", (unsigned long long)u);
	t->cfg->seq_window = (uint32_t)u;
	return 0;
}

int
cfg_sec_rate_layer(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	if (cfg_want_type(c, v, JSON_STRING, "\"l1\" or \"l2\"") < 0)
		return -EINVAL;
	if (strcmp(json_string_value(v), "l1") == 0)
		t->rate.layer = FWS_RATE_L1;
	else if (strcmp(json_string_value(v), "l2") == 0)
		t->rate.layer = FWS_RATE_L2;
	else
		return cfg_fail(c,
				"\"%s\" is not a layer (l1 counts preamble and IFG, l2 does not)",
				json_string_value(v));
	return 0;
}

int
cfg_sec_rate(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	return cfg_parse_rate(c, v, &t->rate);
}

static json_t *
size_json(const struct fws_size_mix *m)
{
	json_t *mix;
	unsigned int i;

	if (m->n == 1 && m->weight[0] == 1)
		return json_integer(m->size[0]);
	if (strcmp(m->name, "imix") == 0)
		return json_string("imix");
	mix = json_array();
	for (i = 0; i < m->n; i++)
		json_array_append_new(mix, json_pack("[i,i]", m->size[i], m->weight[i]));
	return json_pack("{s:s, s:o}", "name", m->name, "mix", mix);
}

json_t *
cfg_emit_frame_size(const struct fws_cfg *cfg)
{
	json_t *a;
	unsigned int i;

	if (cfg->n_sizes == 1)
		return size_json(&cfg->sizes[0]);
	a = json_array();
	for (i = 0; i < cfg->n_sizes; i++)
		json_array_append_new(a, size_json(&cfg->sizes[i]));
	return a;
}

json_t *
cfg_emit_rate_layer(const struct fws_cfg *cfg)
{
	bool l2 = cfg->n_streams && cfg->streams[0].rate.layer == FWS_RATE_L2;

	return json_string(l2 ? "l2" : "l1");
}

json_t *
cfg_emit_duration(const struct fws_cfg *cfg)
{
	return json_real(cfg->duration);
}

json_t *
cfg_emit_warmup(const struct fws_cfg *cfg)
{
	return json_real(cfg->warmup);
}

json_t *
cfg_emit_repeat(const struct fws_cfg *cfg)
{
	return cfg->repeat > 1 ? json_integer(cfg->repeat) : NULL;
}

json_t *
cfg_emit_steady_band(const struct fws_cfg *cfg)
{
	return json_sprintf("%.10g%%", cfg->steady_band * 100);
}

json_t *
cfg_emit_drain(const struct fws_cfg *cfg)
{
	return json_real(cfg->drain);
}

json_t *
cfg_emit_burst(const struct fws_cfg *cfg)
{
	return json_integer(cfg->burst);
}

json_t *
cfg_emit_path_check(const struct fws_cfg *cfg)
{
	return json_boolean(cfg->path_check);
}

json_t *
cfg_emit_seq_window(const struct fws_cfg *cfg)
{
	return json_integer(cfg->seq_window);
}
