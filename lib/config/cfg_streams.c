/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The load: "flows", "flows6", "direction" and "streams" (a stream's ports, flows,
 * rate and expectation), parsed, checked and emitted (as streams: the folded keys with them).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "fws_sig.h"
#include "cfg_int.h"
#include "fws_util.h"

static const struct fws_flow_spec cfg_default_upload_flows = {
	.count = 1024,
	.src_ip_lo = 0xc6120100, /* 198.18.1.0 */
	.src_ip_hi = 0xc61204ff, /* 198.18.4.255 */
	.dst_ip_lo = 0xc6130101, /* 198.19.1.1 */
	.dst_ip_hi = 0xc6130101,
	.src_port_lo = 1024,
	.src_port_hi = 1024,
	.dst_port_lo = 5001,
	.dst_port_hi = 5001,
};

/* 2001:2:0:1::1:100-2001:2:0:1::1:4ff -> 2001:2:0:2::1:1 (RFC 5180 benchmarking range),
 * clear of the ::1 and ::2 a lab gives its router and tester. */
static const struct fws_flow_spec cfg_default_upload_flows6 = {
	.count = 1024,
	.ipv6 = true,
	.src6 = {0x20, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01},
	.dst6 = {0x20, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02},
	.src_ip_lo = 0x10100,
	.src_ip_hi = 0x104ff,
	.dst_ip_lo = 0x10001,
	.dst_ip_hi = 0x10001,
	.src_port_lo = 1024,
	.src_port_hi = 1024,
	.dst_port_lo = 5001,
	.dst_port_hi = 5001,
};

void
cfg_default_flows(struct cfg_top *t)
{
	t->flows = cfg_default_upload_flows;
	t->flows6 = cfg_default_upload_flows6;
}

int
cfg_parse_flows(struct cfg_ctx *c, const json_t *v, struct fws_flow_spec *f)
{
	static const char *const keys[] = {"ip",       "count",    "src_ip", "dst_ip",
					   "src_port", "dst_port", NULL};
	const json_t *x;
	uint64_t cap, count;
	size_t old;
	bool src6, dst6;
	int rc = 0;

	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	if ((x = json_object_get(v, "ip")) != NULL) {
		old = cfg_push_key(c, "ip");
		if (!json_is_integer(x) ||
		    (json_integer_value(x) != 4 && json_integer_value(x) != 6))
			return cfg_fail(c, "expected 4 or 6 (the address family of the defaults)");
		if ((json_integer_value(x) == 6) != f->ipv6)
			*f = json_integer_value(x) == 6 ? cfg_default_upload_flows6
							: cfg_default_upload_flows;
		cfg_pop(c, old);
	}
	src6 = dst6 = f->ipv6;
#define FIELD(key, expr)                                                                           \
	if (rc == 0 && (x = json_object_get(v, key)) != NULL) {                                    \
		old = cfg_push_key(c, key);                                                        \
		rc = (expr);                                                                       \
		if (rc == 0)                                                                       \
			cfg_pop(c, old);                                                           \
	}
	FIELD("src_ip", cfg_parse_ip_range(c, x, &src6, f->src6, &f->src_ip_lo, &f->src_ip_hi));
	FIELD("dst_ip", cfg_parse_ip_range(c, x, &dst6, f->dst6, &f->dst_ip_lo, &f->dst_ip_hi));
	FIELD("src_port", cfg_parse_port_range(c, x, &f->src_port_lo, &f->src_port_hi));
	FIELD("dst_port", cfg_parse_port_range(c, x, &f->dst_port_lo, &f->dst_port_hi));
	FIELD("count", cfg_get_uint(c, x, 1, FWS_SIG_MAX_FLOWS, &count));
#undef FIELD
	if (rc < 0)
		return rc;
	if (src6 != dst6 || (json_object_get(v, "ip") && src6 != f->ipv6)) {
		old = cfg_push_key(c, json_object_get(v, "dst_ip") ? "dst_ip" : "src_ip");
		return cfg_fail(
			c, "source and destination must both be IPv4 or both IPv6 (\"ip\": %d)",
			f->ipv6 ? 6 : 4);
	}
	f->ipv6 = src6;
	cap = fws_flow_capacity(f);
	/* Without a count, take the default or as many as the ranges hold, whichever is less. */
	if ((x = json_object_get(v, "count")) != NULL)
		f->count = (uint32_t)count;
	else if (cap < f->count)
		f->count = (uint32_t)cap;
	if (cap < f->count) {
		old = cfg_push_key(c, "count");
		if (json_object_get(v, "count") == NULL)
			cfg_pop(c, old);
		return cfg_fail(c,
				"%u flows do not fit the address and port ranges, which hold %llu",
				f->count, (unsigned long long)cap);
	}
	return 0;
}

static const char *const expect_names[] = {FWS_EXPECTS(CFG_NAME)};

const char *
fws_expect_name(enum fws_expect x)
{
	return cfg_name_of(expect_names, FWS_DIM(expect_names), x);
}

/* "expect": what the stream's frames should meet at the DUT. */
static int
stream_expect(struct cfg_ctx *c, const json_t *x, const struct fws_cfg *cfg,
	      struct fws_cfg_stream *s)
{
	int i = cfg_pick_name(c, x, expect_names, FWS_DIM(expect_names));

	if (i < 0)
		return -EINVAL;
	s->expect = (enum fws_expect)i;
	if (s->expect == FWS_EXPECT_BLOCKLIST && cfg->n_blocklists == 0)
		return cfg_fail(c, "\"blocklist\" needs a top-level \"blocklist\" file");
	return 0;
}

/* An explicit stream's optional role: "direction" (upload or download: NAT pairs them),
 * "learn_only" (it only teaches NAT translations), "payload" and "expect". */
static int
stream_role(struct cfg_ctx *c, const json_t *v, const struct fws_cfg *cfg, struct fws_cfg_stream *s)
{
	const json_t *x;
	size_t old;

	if ((x = json_object_get(v, "payload")) != NULL) {
		old = cfg_push_key(c, "payload");
		if (cfg_want_type(c, x, JSON_STRING, "a string") < 0)
			return -EINVAL;
		if (json_string_length(x) == 0 || json_string_length(x) > FWS_CFG_PAYLOAD_MAX)
			return cfg_fail(c, "expected 1 to %d bytes", FWS_CFG_PAYLOAD_MAX);
		s->payload_len = (uint16_t)json_string_length(x);
		memcpy(s->payload, json_string_value(x), s->payload_len);
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "expect")) != NULL) {
		old = cfg_push_key(c, "expect");
		if (stream_expect(c, x, cfg, s) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}

	if ((x = json_object_get(v, "direction")) != NULL) {
		old = cfg_push_key(c, "direction");
		if (cfg_want_type(c, x, JSON_STRING, "\"upload\" or \"download\"") < 0)
			return -EINVAL;
		s->dir = fws_dir_of(json_string_value(x));
		if (s->dir != FWS_DIR_UPLOAD && s->dir != FWS_DIR_DOWNLOAD)
			return cfg_fail(c, "expected \"upload\" or \"download\"");
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "learn_only")) != NULL) {
		old = cfg_push_key(c, "learn_only");
		if (!json_is_boolean(x))
			return cfg_fail(c, "expected true or false, got %s", cfg_type_name(x));
		s->learn_only = json_is_true(x);
		cfg_pop(c, old);
	}
	return 0;
}

int
cfg_parse_stream(struct cfg_ctx *c, const json_t *v, struct fws_cfg *cfg, struct fws_cfg_stream *s)
{
	static const char *const keys[] = {
		"name",      "tx_port",    "rx_port", "flows",   "rate", "l4", "app",
		"direction", "learn_only", "expect",  "payload", "fill", "df", NULL};
	const json_t *x;
	size_t old;

	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	s->dir = FWS_DIR_CUSTOM;
	s->learner = -1;
	if ((x = json_object_get(v, "name")) == NULL)
		return cfg_fail(c, "a stream needs a \"name\"");
	old = cfg_push_key(c, "name");
	if (cfg_get_string(c, x, s->name, sizeof(s->name)) < 0)
		return -EINVAL;
	cfg_pop(c, old);
	if ((x = json_object_get(v, "tx_port")) == NULL)
		return cfg_fail(c, "stream \"%s\" needs a \"tx_port\"", s->name);
	old = cfg_push_key(c, "tx_port");
	if (cfg_stream_senders(c, x, cfg, s) < 0)
		return -EINVAL;
	cfg_pop(c, old);
	if ((x = json_object_get(v, "rx_port")) == NULL)
		return cfg_fail(c, "stream \"%s\" needs an \"rx_port\"", s->name);
	old = cfg_push_key(c, "rx_port");
	if (cfg_port_ref(c, cfg, x, &s->rx_port) < 0)
		return -EINVAL;
	cfg_pop(c, old);
	if ((x = json_object_get(v, "flows")) != NULL) {
		old = cfg_push_key(c, "flows");
		if (cfg_parse_flows(c, x, &s->flows) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "rate")) != NULL) {
		old = cfg_push_key(c, "rate");
		if (cfg_parse_rate(c, x, &s->rate) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "l4")) != NULL) {
		old = cfg_push_key(c, "l4");
		if (cfg_stream_l4(c, x, s) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "app")) != NULL) {
		old = cfg_push_key(c, "app");
		if (cfg_stream_app(c, x, s) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	if (cfg_parse_fill(c, v, &s->fill) < 0)
		return -EINVAL;
	return stream_role(c, v, cfg, s);
}

/* Streams from "direction": upload = lan -> wan, download = wan -> lan, bidir = both. */
static void
cfg_add_stream(struct fws_cfg *cfg, const char *name, enum fws_dir dir, int tx, int rx,
	       const struct fws_flow_spec *flows, bool reverse, const struct fws_rate *rate)
{
	struct fws_cfg_stream *s = &cfg->streams[cfg->n_streams++];

	strlcpy(s->name, name, sizeof(s->name));
	s->dir = dir;
	fws_cfg_stream_tx(s, (unsigned int)tx);
	s->rx_port = (uint8_t)rx;
	if (reverse)
		fws_cfg_reverse_flows(flows, &s->flows);
	else
		s->flows = *flows;
	s->rate = *rate;
	s->learner = -1;
}

int
cfg_expand_direction(struct cfg_ctx *c, const json_t *v, struct fws_cfg *cfg,
		     const struct fws_flow_spec *flows, const struct fws_flow_spec *flows6,
		     const struct fws_rate *rate)
{
	enum fws_dir dir;
	const char *d;
	int lan, wan;
	bool up, down;

	if (cfg_want_type(c, v, JSON_STRING, "\"upload\", \"download\" or \"bidir\"") < 0)
		return -EINVAL;
	d = json_string_value(v);
	dir = fws_dir_of(d);
	up = dir == FWS_DIR_UPLOAD || dir == FWS_DIR_BIDIR;
	down = dir == FWS_DIR_DOWNLOAD || dir == FWS_DIR_BIDIR;
	if (!up && !down)
		return cfg_fail(c, "\"%s\" is not a direction (upload, download, bidir)", d);
	lan = fws_config_port(cfg, "lan");
	wan = fws_config_port(cfg, "wan");
	if (lan < 0 || wan < 0)
		return cfg_fail(c, "direction \"%s\" needs ports named \"lan\" and \"wan\"", d);
	if (up)
		cfg_add_stream(cfg, "upload", FWS_DIR_UPLOAD, lan, wan, flows, false, rate);
	if (down)
		cfg_add_stream(cfg, "download", FWS_DIR_DOWNLOAD, wan, lan, flows, true, rate);
	if (up && flows6)
		cfg_add_stream(cfg, "upload6", FWS_DIR_UPLOAD, lan, wan, flows6, false, rate);
	if (down && flows6)
		cfg_add_stream(cfg, "download6", FWS_DIR_DOWNLOAD, wan, lan, flows6, true, rate);
	return 0;
}

int
cfg_sec_flows(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	return cfg_parse_flows(c, v, &t->flows);
}

int
cfg_sec_flows6(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	if (cfg_parse_flows(c, v, &t->flows6) < 0)
		return -EINVAL;
	if (!t->flows6.ipv6)
		return cfg_fail(c, "flows6 holds the IPv6 streams' flows; these are IPv4");
	if (json_object_get(t->root, "streams"))
		return cfg_fail(
			c, "flows6 goes with \"direction\"; give explicit streams their flows");
	t->flows6_set = true;
	return 0;
}

int
cfg_sec_streams(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	struct fws_cfg *cfg = t->cfg;
	const json_t *s;
	size_t i, j;

	if (!json_is_array(v) || json_array_size(v) == 0 ||
	    json_array_size(v) > FWS_CFG_MAX_STREAMS)
		return cfg_fail(c, "expected a list of 1 to %d streams", FWS_CFG_MAX_STREAMS);
	json_array_foreach(v, i, s)
	{
		size_t o2 = cfg_push_idx(c, i);
		struct fws_cfg_stream *st = &cfg->streams[i];

		st->flows = t->flows;
		st->rate = t->rate;
		if (cfg_parse_stream(c, s, cfg, st) < 0)
			return -EINVAL;
		for (j = 0; j < i; j++) {
			if (strcmp(cfg->streams[j].name, st->name) == 0) {
				cfg_push_key(c, "name");
				return cfg_fail(c, "stream name \"%s\" is used twice", st->name);
			}
		}
		cfg->n_streams = (unsigned int)i + 1;
		cfg_pop(c, o2);
	}
	return 0;
}

/* Every port's control plane answers for at most FWS_CFG_MAX_RANGES address ranges. */
int
cfg_check_ranges(struct cfg_ctx *c, const struct fws_cfg *cfg)
{
	unsigned int p, s, n;

	for (p = 0; p < cfg->n_ports; p++) {
		n = cfg->ports[p].n_ipv4 + cfg->ports[p].n_ipv6;
		for (s = 0; s < cfg->n_streams; s++)
			n += (fws_cfg_sender(&cfg->streams[s], p) >= 0) +
			     (cfg->streams[s].rx_port == p);
		if (n > FWS_CFG_MAX_RANGES) {
			cfg_push_key(c, "ports");
			cfg_push_idx(c, p);
			return cfg_fail(
				c,
				"port \"%s\" would answer for %u address ranges (its own "
				"addresses, its streams' sources and destinations), at most %d",
				cfg->ports[p].name, n, FWS_CFG_MAX_RANGES);
		}
	}
	return 0;
}

/* "direction" makes the streams; without "streams" or "direction" it is "upload". */
int
cfg_sec_direction(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	if (json_object_get(t->root, "streams"))
		return cfg_fail(c, "give \"direction\" or \"streams\", not both");
	return cfg_expand_direction(c, v, t->cfg, &t->flows, t->flows6_set ? &t->flows6 : NULL,
				    &t->rate);
}

static void
addr_str(bool v6, const uint8_t hi6[12], uint32_t lo, char *buf, size_t len)
{
	if (v6) {
		uint8_t a[16];
		uint32_t l = htonl(lo);

		memcpy(a, hi6, 12);
		memcpy(a + 12, &l, 4);
		inet_ntop(AF_INET6, a, buf, (socklen_t)len);
	} else {
		struct in_addr x = {.s_addr = htonl(lo)};

		inet_ntop(AF_INET, &x, buf, (socklen_t)len);
	}
}

static json_t *
ip_range_json(bool v6, const uint8_t hi6[12], uint32_t lo, uint32_t hi)
{
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN], s[2 * INET6_ADDRSTRLEN + 2];

	addr_str(v6, hi6, lo, a, sizeof(a));
	if (lo == hi)
		return json_string(a);
	addr_str(v6, hi6, hi, b, sizeof(b));
	snprintf(s, sizeof(s), "%s-%s", a, b);
	return json_string(s);
}

static json_t *
port_range_json(uint16_t lo, uint16_t hi)
{
	char s[16];

	if (lo == hi)
		return json_integer(lo);
	snprintf(s, sizeof(s), "%u-%u", lo, hi);
	return json_string(s);
}

static json_t *
flows_json(const struct fws_flow_spec *f)
{
	return json_pack("{s:i, s:I, s:o, s:o, s:o, s:o}", "ip", f->ipv6 ? 6 : 4, "count",
			 (json_int_t)f->count, "src_ip",
			 ip_range_json(f->ipv6, f->src6, f->src_ip_lo, f->src_ip_hi), "dst_ip",
			 ip_range_json(f->ipv6, f->dst6, f->dst_ip_lo, f->dst_ip_hi), "src_port",
			 port_range_json(f->src_port_lo, f->src_port_hi), "dst_port",
			 port_range_json(f->dst_port_lo, f->dst_port_hi));
}

/* "tx_port": a name, or the list a stream's flows are split over. */
static json_t *
senders_json(const struct fws_cfg *cfg, const struct fws_cfg_stream *s)
{
	json_t *a;
	unsigned int j;

	if (s->n_tx < 2)
		return json_string(cfg->ports[s->tx_port].name);
	a = json_array();
	for (j = 0; j < s->n_tx; j++)
		json_array_append_new(a, json_string(cfg->ports[s->tx_ports[j]].name));
	return a;
}

json_t *
cfg_emit_streams(const struct fws_cfg *cfg)
{
	json_t *a = json_array();
	unsigned int i;
	char buf[64];

	for (i = 0; i < cfg->n_streams; i++) {
		const struct fws_cfg_stream *s = &cfg->streams[i];

		json_t *o;

		fws_rate_format(&s->rate, buf, sizeof(buf));
		o = json_pack("{s:s, s:o, s:s, s:o, s:s}", "name", s->name, "tx_port",
			      senders_json(cfg, s), "rx_port", cfg->ports[s->rx_port].name, "flows",
			      flows_json(&s->flows), "rate", buf);
		/* Kept so the normalised config pairs NAT streams again. */
		if (s->dir == FWS_DIR_UPLOAD || s->dir == FWS_DIR_DOWNLOAD)
			json_object_set_new(o, "direction", json_string(fws_dir_name(s->dir)));
		if (s->learn_only)
			json_object_set_new(o, "learn_only", json_true());
		json_object_set_new(o, "l4", json_string(fws_l4_name(s->l4)));
		cfg_emit_stream_fill(o, s);
		if (s->app != FWS_APP_NONE)
			json_object_set_new(o, "app",
					    json_pack("{s:s}", fws_app_name(s->app), s->app_name));
		if (s->payload_len)
			json_object_set_new(o, "payload",
					    json_stringn((const char *)s->payload, s->payload_len));
		if (s->expect != FWS_EXPECT_PASS)
			json_object_set_new(o, "expect", json_string(fws_expect_name(s->expect)));
		json_array_append_new(a, o);
	}
	return a;
}
