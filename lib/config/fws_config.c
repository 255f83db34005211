/* SPDX-License-Identifier: BSD-3-Clause */
/* Config: the top level, sizes, rates, lcores, output, DUT, EAL, search and sweep. */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_cell.h"
#include "fws_config.h"
#include "fws_pkt.h"
#include "fws_sig.h"
#include "fws_tcp.h"
#include "cfg_int.h"

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

		for (i = 0; i < RTE_DIM(sizes); i++)
			fws_size_fixed(&cfg->sizes[i], sizes[i]);
		cfg->n_sizes = RTE_DIM(sizes);
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

const char *
fws_config_eal_refused(const char *arg, const char *next)
{
	const char *type = NULL;

	if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
		return "EAL would print its usage and exit without running";
	if (strncmp(arg, "--proc-type=", 12) == 0)
		type = arg + 12;
	else if (strcmp(arg, "--proc-type") == 0)
		type = next ? next : "";
	if (type && strcmp(type, "primary") != 0 && strcmp(type, "auto") != 0)
		return "fwstress runs as a primary process (it sets up and owns its ports)";
	return NULL;
}

static int
parse_lcore_list(struct cfg_ctx *c, const json_t *v, unsigned int *out, unsigned int *n)
{
	const json_t *e;
	size_t i, old;
	uint64_t u;

	if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > FWS_CFG_MAX_LCORES)
		return cfg_fail(c, "expected a list of 1 to %d lcore ids", FWS_CFG_MAX_LCORES);
	json_array_foreach(v, i, e)
	{
		size_t j;

		old = cfg_push_idx(c, i);
		if (cfg_get_uint(c, e, 0, 1023, &u) < 0)
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (out[j] == u)
				return cfg_fail(c, "lcore %llu is listed twice",
						(unsigned long long)u);
		out[i] = (unsigned int)u;
		cfg_pop(c, old);
	}
	*n = (unsigned int)json_array_size(v);
	return 0;
}

int
cfg_sec_lcores(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	struct fws_cfg *cfg = t->cfg;
	static const char *const keys[] = {"tx", "rx", NULL};
	const json_t *tx, *rx;
	size_t old;

	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	tx = json_object_get(v, "tx");
	rx = json_object_get(v, "rx");
	if (!tx || !rx)
		return cfg_fail(c, "give both \"tx\" and \"rx\" lcore lists, or neither");
	old = cfg_push_key(c, "tx");
	if (parse_lcore_list(c, tx, cfg->tx_lcores, &cfg->n_tx_lcores) < 0)
		return -EINVAL;
	cfg_pop(c, old);
	old = cfg_push_key(c, "rx");
	if (parse_lcore_list(c, rx, cfg->rx_lcores, &cfg->n_rx_lcores) < 0)
		return -EINVAL;
	cfg_pop(c, old);
	return 0;
}

int
cfg_sec_output(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	struct fws_cfg *cfg = t->cfg;
	static const char *const keys[] = {"json", "text", NULL};
	const json_t *x;
	size_t old;

	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	if ((x = json_object_get(v, "json")) != NULL) {
		old = cfg_push_key(c, "json");
		if (json_is_string(x) && json_string_length(x) == 0)
			cfg->json_out[0] = '\0';
		else if (cfg_get_string(c, x, cfg->json_out, sizeof(cfg->json_out)) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "text")) != NULL) {
		old = cfg_push_key(c, "text");
		if (json_is_string(x) && json_string_length(x) == 0)
			cfg->text_out[0] = '\0';
		else if (cfg_get_string(c, x, cfg->text_out, sizeof(cfg->text_out)) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	return 0;
}

int
cfg_sec_dut(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	struct fws_cfg *cfg = t->cfg;
	static const char *const keys[] = {"name", "firmware", "load_command", NULL};
	const json_t *x;
	size_t old;

	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	if ((x = json_object_get(v, "name")) != NULL) {
		old = cfg_push_key(c, "name");
		if (cfg_get_string(c, x, cfg->dut_name, sizeof(cfg->dut_name)) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "firmware")) != NULL) {
		old = cfg_push_key(c, "firmware");
		if (cfg_get_string(c, x, cfg->dut_firmware, sizeof(cfg->dut_firmware)) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "load_command")) != NULL) {
		old = cfg_push_key(c, "load_command");
		if (cfg_get_string(c, x, cfg->dut_load_cmd, sizeof(cfg->dut_load_cmd)) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	return 0;
}

int
cfg_sec_eal(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	struct fws_cfg *cfg = t->cfg;
	const json_t *e;
	size_t i, old;

	if (!json_is_array(v))
		return cfg_fail(c, "expected a list of EAL arguments, got %s", cfg_type_name(v));
	if (json_array_size(v) > FWS_CFG_MAX_EAL)
		return cfg_fail(c, "more than %d EAL arguments", FWS_CFG_MAX_EAL);
	json_array_foreach(v, i, e)
	{
		old = cfg_push_idx(c, i);
		if (!json_is_string(e))
			return cfg_fail(c, "expected a string, got %s", cfg_type_name(e));
		if (fws_config_eal_refused(json_string_value(e),
					   json_string_value(json_array_get(v, i + 1))))
			return cfg_fail(c, "\"%s\": %s", json_string_value(e),
					fws_config_eal_refused(
						json_string_value(e),
						json_string_value(json_array_get(v, i + 1))));
		cfg->eal[i] = strdup(json_string_value(e));
		if (cfg->eal[i] == NULL)
			return -ENOMEM;
		cfg->n_eal = (unsigned int)i + 1;
		cfg_pop(c, old);
	}
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
cfg_sec_search(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	struct fws_cfg_search *s = &t->cfg->search;
	static const char *const keys[] = {"short", "final",      "width", "pdr",
					   "min",   "max_trials", NULL};
	const json_t *x;
	uint64_t u;
	size_t old;

	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
#define SEARCH(key, expr)                                                                          \
	if ((x = json_object_get(v, key)) != NULL) {                                               \
		old = cfg_push_key(c, key);                                                        \
		if ((expr) < 0)                                                                    \
			return -EINVAL;                                                            \
		cfg_pop(c, old);                                                                   \
	}
	SEARCH("short", cfg_get_seconds(c, x, 0.1, 3600, &s->short_s));
	SEARCH("final", cfg_get_seconds(c, x, 0.1, 86400, &s->final_s));
	SEARCH("width", cfg_get_percent(c, x, 0, 50, &s->width));
	SEARCH("pdr", cfg_get_percent(c, x, 0, 50, &s->pdr));
	SEARCH("min", cfg_get_percent(c, x, 0, 50, &s->min_load));
	SEARCH("max_trials", cfg_get_uint(c, x, 2, 200, &u));
#undef SEARCH
	if (x)
		s->max_trials = (unsigned int)u;
	if (s->final_s < s->short_s) {
		old = cfg_push_key(c, "final");
		return cfg_fail(c, "the final trials (%g s) are shorter than the short ones (%g s)",
				s->final_s, s->short_s);
	}
	return 0;
}

static const char *const dir_names[] = {
#define DIR_NAME(n, s) [FWS_DIR_##n] = s,
	FWS_DIRS(DIR_NAME)
#undef DIR_NAME
};

const char *
fws_dir_name(enum fws_dir d)
{
	return (unsigned int)d < RTE_DIM(dir_names) ? dir_names[d] : "?";
}

enum fws_dir
fws_dir_of(const char *name)
{
	enum fws_dir d;

	for (d = FWS_DIR_UPLOAD; d <= FWS_DIR_BIDIR; d++)
		if (strcmp(name, dir_names[d]) == 0)
			return d;
	return FWS_DIR_NONE;
}

int
cfg_sec_sweep(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	struct fws_cfg_sweep *w = &t->cfg->sweep;
	static const char *const keys[] = {"directions", "mode", "latency_at", "back_to_back",
					   NULL};
	const json_t *x, *e;
	size_t i, old, o2;

	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	if ((x = json_object_get(v, "directions")) != NULL) {
		old = cfg_push_key(c, "directions");
		if (!json_is_array(x) || json_array_size(x) == 0 || json_array_size(x) > 3)
			return cfg_fail(c,
					"expected 1 to 3 of \"upload\", \"download\", \"bidir\"");
		w->n_dirs = 0;
		w->dirs_given = true;
		json_array_foreach(x, i, e)
		{
			o2 = cfg_push_idx(c, i);
			if (!json_is_string(e) || fws_dir_of(json_string_value(e)) == FWS_DIR_NONE)
				return cfg_fail(c,
						"expected \"upload\", \"download\" or \"bidir\"");
			w->dirs[w->n_dirs++] = fws_dir_of(json_string_value(e));
			cfg_pop(c, o2);
		}
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "mode")) != NULL) {
		old = cfg_push_key(c, "mode");
		if (!json_is_string(x) || (strcmp(json_string_value(x), "search") &&
					   strcmp(json_string_value(x), "fixed")))
			return cfg_fail(c,
					"expected \"search\" (NDR/PDR per cell) or \"fixed\" (one "
					"trial at the rate)");
		w->search = strcmp(json_string_value(x), "search") == 0;
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "latency_at")) != NULL) {
		old = cfg_push_key(c, "latency_at");
		if (!json_is_array(x) || json_array_size(x) > 8)
			return cfg_fail(c, "expected up to 8 percentages of NDR, e.g. [\"10%%\", "
					   "\"50%%\", \"90%%\"]");
		w->n_lat = 0;
		json_array_foreach(x, i, e)
		{
			o2 = cfg_push_idx(c, i);
			if (cfg_get_percent(c, e, 0, 100, &w->lat[w->n_lat]) < 0)
				return -EINVAL;
			w->n_lat++;
			cfg_pop(c, o2);
		}
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "back_to_back")) != NULL) {
		static const char *const bk[] = {"repeat", "seconds", NULL};
		const json_t *y;
		uint64_t u;

		old = cfg_push_key(c, "back_to_back");
		if (cfg_want_type(c, x, JSON_OBJECT, "an object") < 0 ||
		    cfg_check_keys(c, x, bk) < 0)
			return -EINVAL;
		w->b2b_repeat = 1;
		if ((y = json_object_get(x, "repeat")) != NULL) {
			o2 = cfg_push_key(c, "repeat");
			if (cfg_get_uint(c, y, 1, 100, &u) < 0)
				return -EINVAL;
			w->b2b_repeat = (unsigned int)u;
			cfg_pop(c, o2);
		}
		if ((y = json_object_get(x, "seconds")) != NULL) {
			o2 = cfg_push_key(c, "seconds");
			if (cfg_get_seconds(c, y, 0.001, 10, &w->b2b_seconds) < 0)
				return -EINVAL;
			cfg_pop(c, o2);
		}
		cfg_pop(c, old);
	}
	return 0;
}

/* The directions the streams can be swept in: upload and download where a measured stream
 * has that role, bidir where both do. */
static bool
sweep_dir_fits(const struct fws_cfg *cfg, enum fws_dir d)
{
	bool up = false, down = false;
	unsigned int s;

	for (s = 0; s < cfg->n_streams; s++) {
		up |= !cfg->streams[s].learn_only && cfg->streams[s].dir == FWS_DIR_UPLOAD;
		down |= !cfg->streams[s].learn_only && cfg->streams[s].dir == FWS_DIR_DOWNLOAD;
	}
	return d == FWS_DIR_UPLOAD ? up : d == FWS_DIR_DOWNLOAD ? down : up && down;
}

/* A sweep cell measures its direction's streams, and no other: a direction named in
 * sweep.directions with no stream of its own is refused (it would measure the others under
 * its name); the default list keeps those the streams have. Streams without a direction
 * role (explicit streams) are swept once, as they are (no directions: n_dirs 0). */
int
cfg_sweep_fit(struct cfg_ctx *c, struct fws_cfg *cfg)
{
	struct fws_cfg_sweep *w = &cfg->sweep;
	unsigned int i, n = 0;

	if (!sweep_dir_fits(cfg, FWS_DIR_UPLOAD) && !sweep_dir_fits(cfg, FWS_DIR_DOWNLOAD)) {
		if (w->dirs_given) {
			cfg_push_key(c, "sweep");
			cfg_push_key(c, "directions");
			return cfg_fail(c,
					"the streams have no direction (explicit streams): give "
					"them \"direction\": \"upload\" or \"download\", or leave "
					"sweep.directions out (they are then swept as they are)");
		}
		w->n_dirs = 0;
		return 0;
	}
	for (i = 0; i < w->n_dirs; i++) {
		if (sweep_dir_fits(cfg, w->dirs[i])) {
			w->dirs[n++] = w->dirs[i];
			continue;
		}
		if (!w->dirs_given)
			continue;
		cfg_push_key(c, "sweep");
		cfg_push_key(c, "directions");
		cfg_push_idx(c, i);
		return cfg_fail(c,
				"\"%s\": the streams go %s only: give \"direction\": \"bidir\" (or "
				"streams each way), or leave \"%s\" out",
				fws_dir_name(w->dirs[i]),
				sweep_dir_fits(cfg, FWS_DIR_UPLOAD) ? "upload" : "download",
				fws_dir_name(w->dirs[i]));
	}
	w->n_dirs = n;
	return 0;
}

struct fws_cfg *
fws_config_parse(const char *buf, size_t len, char *err, size_t errlen)
{
	return fws_config_parse_at(buf, len, NULL, err, errlen);
}

struct fws_cfg *
fws_config_parse_at(const char *buf, size_t len, const char *base, char *err, size_t errlen)
{
	struct cfg_ctx c = {.buf = buf, .len = len, .err = err, .errlen = errlen, .base = base};
	struct fws_cfg *cfg;
	json_error_t jerr;
	json_t *root;
	int rc;

	if (errlen)
		err[0] = '\0';
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (root == NULL) {
		snprintf(err, errlen, "config: line %d: %s", jerr.line, jerr.text);
		cfg_one_line(err);
		errno = EINVAL;
		return NULL;
	}
	cfg = calloc(1, sizeof(*cfg));
	if (cfg == NULL) {
		json_decref(root);
		snprintf(err, errlen, "config: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	rc = cfg_parse_sections(&c, root, cfg);
	json_decref(root);
	if (rc < 0) {
		if (rc == -ENOMEM)
			snprintf(err, errlen, "config: out of memory");
		fws_config_free(cfg);
		errno = -rc;
		return NULL;
	}
	return cfg;
}

struct fws_cfg *
fws_config_load(const char *path, char *err, size_t errlen)
{
	struct fws_cfg *cfg;
	char *buf, msg[FWS_CFG_PATH_LEN + 512], dir[FWS_CFG_PATH_LEN], *slash;
	size_t len;
	int rc, saved;

	if ((rc = cfg_read_file(path, FWS_CONFIG_MAX_BYTES, &buf, &len, err, errlen, "config")) <
	    0) {
		cfg_one_line(err);
		errno = -rc;
		return NULL;
	}
	strlcpy(dir, path, sizeof(dir));
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	cfg = fws_config_parse_at(buf, len, slash ? dir : NULL, err, errlen);
	saved = errno;
	free(buf);
	if (cfg == NULL && strncmp(err, "config: ", 8) == 0) {
		/* Name the file: "config: FILE: where: what (line N)". */
		strlcpy(msg, err + 8, sizeof(msg));
		snprintf(err, errlen, "config: %s: %s", path, msg);
	}
	if (cfg == NULL)
		cfg_one_line(err);
	errno = saved;
	return cfg;
}

void
fws_config_free(struct fws_cfg *cfg)
{
	unsigned int i;

	if (cfg == NULL)
		return;
	for (i = 0; i < cfg->n_eal; i++)
		free(cfg->eal[i]);
	for (i = 0; i < cfg->n_hosts; i++)
		cfg_host_free(&cfg->hosts[i]);
	fws_blocklist_free(&cfg->blocklist);
	free(cfg);
}

int
fws_config_port(const struct fws_cfg *cfg, const char *name)
{
	unsigned int i;

	for (i = 0; i < cfg->n_ports; i++)
		if (strcmp(cfg->ports[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
}
