/* SPDX-License-Identifier: BSD-3-Clause */
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

/* Ethernet 14 + IPv4 20 + UDP 8 + signature 18 + FCS 4. */
#define FWS_CFG_MIN_FRAME_IPV4 64

/* Parse context: the raw buffer (for line numbers), the error sink and the current path. */
struct ctx {
	const char *buf;
	size_t len;
	char *err;
	size_t errlen;
	char path[256];
};

/*
 * Line lookup. jansson keeps no positions for values, so a small scanner walks the text
 * again and reports the line where the value at a JSON path starts.
 */
struct scan {
	const char *p, *end;
	const char *want;
	int line;
	int found;
};

static void
scan_ws(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')) {
		if (*s->p == '\n')
			s->line++;
		s->p++;
	}
}

static int
scan_string(struct scan *s, char *out, size_t outlen)
{
	size_t n = 0;

	if (s->p >= s->end || *s->p != '"')
		return -1;
	s->p++;
	while (s->p < s->end && *s->p != '"') {
		if (*s->p == '\\' && s->p + 1 < s->end)
			s->p++;
		if (out && n + 1 < outlen)
			out[n++] = *s->p;
		s->p++;
	}
	if (out)
		out[n] = '\0';
	if (s->p >= s->end)
		return -1;
	s->p++;
	return 0;
}

static int
scan_value(struct scan *s, const char *path, int depth)
{
	char child[512], key[128];
	int i = 0, n;

	if (depth > 64)
		return -1;
	scan_ws(s);
	if (!s->found && strcmp(path, s->want) == 0)
		s->found = s->line;
	if (s->p >= s->end)
		return -1;
	if (*s->p == '{' || *s->p == '[') {
		char close = *s->p == '{' ? '}' : ']';
		int obj = *s->p == '{';

		s->p++;
		scan_ws(s);
		if (s->p < s->end && *s->p == close) {
			s->p++;
			return 0;
		}
		for (;;) {
			scan_ws(s);
			if (obj) {
				if (scan_string(s, key, sizeof(key)) < 0)
					return -1;
				scan_ws(s);
				if (s->p >= s->end || *s->p != ':')
					return -1;
				s->p++;
				n = snprintf(child, sizeof(child), "%s%s%s", path,
					     *path ? "." : "", key);
			} else {
				n = snprintf(child, sizeof(child), "%s[%d]", path, i++);
			}
			if (n < 0 || (size_t)n >= sizeof(child))
				return -1; /* too deep to name: no line number */
			if (scan_value(s, child, depth + 1) < 0)
				return -1;
			scan_ws(s);
			if (s->p < s->end && *s->p == ',') {
				s->p++;
				continue;
			}
			if (s->p < s->end && *s->p == close) {
				s->p++;
				return 0;
			}
			return -1;
		}
	}
	if (*s->p == '"')
		return scan_string(s, NULL, 0);
	while (s->p < s->end && strchr(",}] \t\r\n", *s->p) == NULL)
		s->p++;
	return 0;
}

static int
line_of(const struct ctx *c, const char *path)
{
	struct scan s = {.p = c->buf, .end = c->buf + c->len, .want = path, .line = 1};

	scan_value(&s, "", 0);
	return s.found;
}

static int __attribute__((format(printf, 2, 3))) fail(struct ctx *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	int line = line_of(c, c->path);

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line > 0)
		snprintf(c->err, c->errlen, "config: %s: %s (line %d)",
			 *c->path ? c->path : "(top)", msg, line);
	else
		snprintf(c->err, c->errlen, "config: %s: %s", *c->path ? c->path : "(top)", msg);
	return -EINVAL;
}

/* Path push/pop: returns the old length to restore. */
static size_t
push_key(struct ctx *c, const char *key)
{
	size_t old = strlen(c->path);

	snprintf(c->path + old, sizeof(c->path) - old, "%s%s", old ? "." : "", key);
	return old;
}

static size_t
push_idx(struct ctx *c, size_t i)
{
	size_t old = strlen(c->path);

	snprintf(c->path + old, sizeof(c->path) - old, "[%zu]", i);
	return old;
}

static void
pop(struct ctx *c, size_t old)
{
	c->path[old] = '\0';
}

static const char *
type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	case JSON_NULL:
		return "null";
	}
	return "?";
}

/* Reject keys of obj that are not in allowed (NULL-terminated). */
static int
check_keys(struct ctx *c, const json_t *obj, const char *const *allowed)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)obj, key, v)
	{
		const char *const *a;
		size_t old;

		for (a = allowed; *a; a++)
			if (strcmp(*a, key) == 0)
				break;
		if (*a)
			continue;
		old = push_key(c, key);
		(void)old; /* the error keeps the path */
		return fail(c, "unknown key");
	}
	return 0;
}

static int
want_type(struct ctx *c, const json_t *v, json_type t, const char *what)
{
	if (json_typeof(v) == t || (t == JSON_REAL && json_is_integer(v)))
		return 0;
	return fail(c, "expected %s, got %s", what, type_name(v));
}

static int
get_string(struct ctx *c, const json_t *v, char *out, size_t outlen)
{
	if (want_type(c, v, JSON_STRING, "a string") < 0)
		return -EINVAL;
	if (json_string_length(v) >= outlen || json_string_length(v) == 0)
		return fail(c, "\"%s\" must be 1 to %zu characters", json_string_value(v),
			    outlen - 1);
	strlcpy(out, json_string_value(v), outlen);
	return 0;
}

static int
get_uint(struct ctx *c, const json_t *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
	json_int_t i;

	if (!json_is_integer(v))
		return fail(c, "expected an integer, got %s", type_name(v));
	i = json_integer_value(v);
	if (i < 0 || (uint64_t)i < lo || (uint64_t)i > hi)
		return fail(c, "%lld is outside %llu-%llu", (long long)i, (unsigned long long)lo,
			    (unsigned long long)hi);
	*out = (uint64_t)i;
	return 0;
}

static int
get_seconds(struct ctx *c, const json_t *v, double lo, double hi, double *out)
{
	double d;

	if (!json_is_number(v))
		return fail(c, "expected a number of seconds, got %s", type_name(v));
	d = json_number_value(v);
	if (!(d >= lo && d <= hi))
		return fail(c, "%g s is outside %g-%g s", d, lo, hi);
	*out = d;
	return 0;
}

static int
parse_mac(struct ctx *c, const json_t *v, struct rte_ether_addr *mac)
{
	unsigned int b[6];
	char tail;
	int i;

	if (want_type(c, v, JSON_STRING, "a MAC address string") < 0)
		return -EINVAL;
	if (sscanf(json_string_value(v), "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3],
		   &b[4], &b[5], &tail) != 6)
		return fail(c, "\"%s\" is not a MAC address (xx:xx:xx:xx:xx:xx)",
			    json_string_value(v));
	for (i = 0; i < 6; i++)
		mac->addr_bytes[i] = (uint8_t)b[i];
	return 0;
}

static int
ipv4_of(const char *s, uint32_t *out)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1)
		return -EINVAL;
	*out = ntohl(a.s_addr);
	return 0;
}

/* An IPv6 address split into its upper 96 bits and its low 32 (host order). */
static int
ipv6_of(const char *s, uint8_t hi[12], uint32_t *lo)
{
	uint8_t a[16];
	uint32_t l;

	if (inet_pton(AF_INET6, s, a) != 1)
		return -EINVAL;
	memcpy(hi, a, 12);
	memcpy(&l, a + 12, 4);
	*lo = ntohl(l);
	return 0;
}

/*
 * "a.b.c.d", "a.b.c.d-e.f.g.h" or "a.b.c.d/len" (all addresses of the prefix); the same
 * for IPv6, where a range may only vary the low 32 bits (prefix length 96 or more).
 */
static int
parse_ip_range(struct ctx *c, const json_t *v, bool *ipv6, uint8_t hi6[12], uint32_t *lo,
	       uint32_t *hi)
{
	char s[128], *sep;
	const char *str;
	uint8_t other[12];
	bool v6;

	if (want_type(c, v, JSON_STRING, "an IP address or range string") < 0)
		return -EINVAL;
	str = json_string_value(v);
	if (strlcpy(s, str, sizeof(s)) >= sizeof(s))
		return fail(c, "\"%.40s...\" is too long for an address range", str);
	v6 = strchr(s, ':') != NULL;
	*ipv6 = v6;
	if ((sep = strchr(s, '/')) != NULL) {
		char *end;
		long len;
		int bits = v6 ? 128 : 32;

		*sep = '\0';
		len = strtol(sep + 1, &end, 10);
		if ((v6 ? ipv6_of(s, hi6, lo) : ipv4_of(s, lo)) < 0 || *end || end == sep + 1 ||
		    len < 0 || len > bits)
			return fail(c, "\"%s\" is not an %s prefix (address/len)", str,
				    v6 ? "IPv6" : "IPv4");
		if (len < bits - 24)
			return fail(c, "prefix \"%s\" is wider than /%d", str, bits - 24);
		len -= bits - 32; /* bits of the low 32 that are fixed */
		*lo &= len ? ~0u << (32 - len) : 0;
		*hi = *lo | (len == 32 ? 0 : ~0u >> len);
		return 0;
	}
	if ((sep = strchr(s, '-')) != NULL) {
		*sep = '\0';
		if (v6 ? (ipv6_of(s, hi6, lo) < 0 || ipv6_of(sep + 1, other, hi) < 0)
		       : (ipv4_of(s, lo) < 0 || ipv4_of(sep + 1, hi) < 0))
			return fail(c, "\"%s\" is not an %s range (first-last)", str,
				    v6 ? "IPv6" : "IPv4");
		if (v6 && memcmp(hi6, other, 12) != 0)
			return fail(c, "range \"%s\" differs above the low 32 bits", str);
		if (*hi < *lo)
			return fail(c, "range \"%s\" ends before it starts", str);
		return 0;
	}
	if ((v6 ? ipv6_of(s, hi6, lo) : ipv4_of(s, lo)) < 0)
		return fail(c, "\"%s\" is not an %s address", str, v6 ? "IPv6" : "IPv4");
	*hi = *lo;
	return 0;
}

/* 5001, "5001" or "1024-65535". */
static int
parse_port_range(struct ctx *c, const json_t *v, uint16_t *lo, uint16_t *hi)
{
	long a, b;
	char *end;
	const char *s;

	if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);

		if (i < 0 || i > 65535)
			return fail(c, "port %lld is outside 0-65535", (long long)i);
		*lo = *hi = (uint16_t)i;
		return 0;
	}
	if (want_type(c, v, JSON_STRING, "a port or a range string") < 0)
		return -EINVAL;
	s = json_string_value(v);
	a = strtol(s, &end, 10);
	if (end == s)
		return fail(c, "\"%s\" is not a port range (lo-hi)", s);
	if (*end == '-') {
		const char *q = end + 1;

		b = strtol(q, &end, 10);
		if (end == q)
			return fail(c, "\"%s\" is not a port range (lo-hi)", s);
	} else {
		b = a;
	}
	if (*end)
		return fail(c, "\"%s\" is not a port range (lo-hi)", s);
	if (a < 0 || b < 0 || a > 65535 || b > 65535)
		return fail(c, "range \"%s\" is outside 0-65535", s);
	if (b < a)
		return fail(c, "range \"%s\" ends before it starts", s);
	*lo = (uint16_t)a;
	*hi = (uint16_t)b;
	return 0;
}

static const struct fws_flow_spec default_upload_flows = {
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
static const struct fws_flow_spec default_upload_flows6 = {
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

static void
reverse_flows(const struct fws_flow_spec *in, struct fws_flow_spec *out)
{
	*out = *in;
	memcpy(out->src6, in->dst6, sizeof(out->src6));
	memcpy(out->dst6, in->src6, sizeof(out->dst6));
	out->src_ip_lo = in->dst_ip_lo;
	out->src_ip_hi = in->dst_ip_hi;
	out->dst_ip_lo = in->src_ip_lo;
	out->dst_ip_hi = in->src_ip_hi;
	out->src_port_lo = in->dst_port_lo;
	out->src_port_hi = in->dst_port_hi;
	out->dst_port_lo = in->src_port_lo;
	out->dst_port_hi = in->src_port_hi;
}

static int
parse_flows(struct ctx *c, const json_t *v, struct fws_flow_spec *f)
{
	static const char *const keys[] = {"ip",       "count",    "src_ip", "dst_ip",
					   "src_port", "dst_port", NULL};
	const json_t *x;
	uint64_t cap, count;
	size_t old;
	bool src6, dst6;
	int rc = 0;

	if (want_type(c, v, JSON_OBJECT, "an object") < 0 || check_keys(c, v, keys) < 0)
		return -EINVAL;
	if ((x = json_object_get(v, "ip")) != NULL) {
		old = push_key(c, "ip");
		if (!json_is_integer(x) ||
		    (json_integer_value(x) != 4 && json_integer_value(x) != 6))
			return fail(c, "expected 4 or 6 (the address family of the defaults)");
		if ((json_integer_value(x) == 6) != f->ipv6)
			*f = json_integer_value(x) == 6 ? default_upload_flows6
							: default_upload_flows;
		pop(c, old);
	}
	src6 = dst6 = f->ipv6;
#define FIELD(key, expr)                                                                           \
	if (rc == 0 && (x = json_object_get(v, key)) != NULL) {                                    \
		old = push_key(c, key);                                                            \
		rc = (expr);                                                                       \
		if (rc == 0)                                                                       \
			pop(c, old);                                                               \
	}
	FIELD("src_ip", parse_ip_range(c, x, &src6, f->src6, &f->src_ip_lo, &f->src_ip_hi));
	FIELD("dst_ip", parse_ip_range(c, x, &dst6, f->dst6, &f->dst_ip_lo, &f->dst_ip_hi));
	FIELD("src_port", parse_port_range(c, x, &f->src_port_lo, &f->src_port_hi));
	FIELD("dst_port", parse_port_range(c, x, &f->dst_port_lo, &f->dst_port_hi));
	FIELD("count", get_uint(c, x, 1, FWS_SIG_MAX_FLOWS, &count));
#undef FIELD
	if (rc < 0)
		return rc;
	if (src6 != dst6 || (json_object_get(v, "ip") && src6 != f->ipv6)) {
		old = push_key(c, json_object_get(v, "dst_ip") ? "dst_ip" : "src_ip");
		return fail(c, "source and destination must both be IPv4 or both IPv6 (\"ip\": %d)",
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
		old = push_key(c, "count");
		if (json_object_get(v, "count") == NULL)
			pop(c, old);
		return fail(c, "%u flows do not fit the address and port ranges, which hold %llu",
			    f->count, (unsigned long long)cap);
	}
	return 0;
}

static int
parse_one_size(struct ctx *c, const json_t *v, struct fws_size_mix *m)
{
	static const char *const keys[] = {"name", "mix", NULL};
	const json_t *mix, *e;
	size_t i, old;

	if (json_is_integer(v)) {
		json_int_t s = json_integer_value(v);

		if (s < FWS_CFG_MIN_FRAME_IPV4)
			return fail(c,
				    "%lld is below the %d-byte minimum for Ethernet/IPv4/UDP "
				    "with the %d-byte signature",
				    (long long)s, FWS_CFG_MIN_FRAME_IPV4, FWS_SIG_LEN);
		if (s > FWS_SIZE_MAX)
			return fail(c, "%lld is above the %d-byte maximum", (long long)s,
				    FWS_SIZE_MAX);
		fws_size_fixed(m, (uint16_t)s);
		return 0;
	}
	if (json_is_string(v)) {
		if (strcmp(json_string_value(v), "imix") != 0)
			return fail(c, "\"%s\" is not a frame size (a number, \"imix\" or a mix)",
				    json_string_value(v));
		fws_size_imix(m);
		return 0;
	}
	if (!json_is_object(v))
		return fail(c, "expected a frame size, \"imix\" or {\"mix\": ...}, got %s",
			    type_name(v));
	if (check_keys(c, v, keys) < 0)
		return -EINVAL;
	memset(m, 0, sizeof(*m));
	strlcpy(m->name, "mix", sizeof(m->name));
	if ((e = json_object_get(v, "name")) != NULL) {
		old = push_key(c, "name");
		if (get_string(c, e, m->name, sizeof(m->name)) < 0)
			return -EINVAL;
		pop(c, old);
	}
	old = push_key(c, "mix");
	mix = json_object_get(v, "mix");
	if (mix == NULL) {
		pop(c, old);
		return fail(c, "a mix object needs \"mix\": [[size, weight], ...]");
	}
	if (!json_is_array(mix) || json_array_size(mix) == 0 ||
	    json_array_size(mix) > FWS_SIZE_MAX_ENTRIES)
		return fail(c, "expected 1 to %d [size, weight] pairs", FWS_SIZE_MAX_ENTRIES);
	json_array_foreach(mix, i, e)
	{
		size_t o2 = push_idx(c, i);
		struct fws_size_mix one;
		uint64_t w;
		size_t o3;

		if (!json_is_array(e) || json_array_size(e) != 2)
			return fail(c, "expected [size, weight]");
		o3 = push_idx(c, 0);
		if (!json_is_integer(json_array_get(e, 0)))
			return fail(c, "expected a frame size in bytes, got %s",
				    type_name(json_array_get(e, 0)));
		if (parse_one_size(c, json_array_get(e, 0), &one) < 0)
			return -EINVAL;
		pop(c, o3);
		o3 = push_idx(c, 1);
		if (get_uint(c, json_array_get(e, 1), 1, 255, &w) < 0)
			return -EINVAL;
		pop(c, o3);
		m->size[m->n] = one.size[0];
		m->weight[m->n] = (uint16_t)w;
		m->n++;
		pop(c, o2);
	}
	if (fws_size_seq_len(m) > FWS_SIZE_MAX_SEQ)
		return fail(c, "weights add up to %u, more than %d", fws_size_seq_len(m),
			    FWS_SIZE_MAX_SEQ);
	pop(c, old);
	return 0;
}

static int
parse_sizes(struct ctx *c, const json_t *v, struct fws_cfg *cfg)
{
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
		return fail(c, "expected 1 to %d frame sizes", FWS_CFG_MAX_SIZES);
	json_array_foreach(v, i, e)
	{
		old = push_idx(c, i);
		if (parse_one_size(c, e, &cfg->sizes[i]) < 0)
			return -EINVAL;
		pop(c, old);
	}
	cfg->n_sizes = (unsigned int)json_array_size(v);
	return 0;
}

static int
parse_rate(struct ctx *c, const json_t *v, struct fws_rate *r)
{
	enum fws_rate_layer layer = r->layer;

	if (json_is_integer(v) || json_is_real(v))
		return fail(c, "%g has no unit: write \"line\", \"50%%\", \"1Mpps\" or \"900Mbit\"",
			    json_number_value(v));
	if (want_type(c, v, JSON_STRING, "a rate string") < 0)
		return -EINVAL;
	if (fws_rate_parse(json_string_value(v), r) < 0)
		return fail(c,
			    "\"%s\" is not a rate (\"line\", \"1-100%%\", \"1.5Mpps\", "
			    "\"800kpps\", \"9.5Gbit\", \"100Mbit\")",
			    json_string_value(v));
	r->layer = layer;
	return 0;
}

/* One address or a list: "198.18.0.2/24", "2001:2:0:1::2/64" (length optional). */
static int
parse_addrs(struct ctx *c, const json_t *v, bool v6, struct fws_cfg_port *p)
{
	const json_t *e;
	size_t i, n = json_is_array(v) ? json_array_size(v) : 1, old;

	if (n == 0 || n > FWS_CFG_MAX_ADDRS)
		return fail(c, "expected 1 to %d addresses", FWS_CFG_MAX_ADDRS);
	for (i = 0; i < n; i++) {
		char s[64], *slash, *end;
		long len = v6 ? 64 : 24;

		e = json_is_array(v) ? json_array_get(v, i) : v;
		old = json_is_array(v) ? push_idx(c, i) : strlen(c->path);
		if (want_type(c, e, JSON_STRING, v6 ? "an IPv6 address" : "an IPv4 address") < 0)
			return -EINVAL;
		strlcpy(s, json_string_value(e), sizeof(s));
		if ((slash = strchr(s, '/')) != NULL) {
			*slash = '\0';
			len = strtol(slash + 1, &end, 10);
			if (*end || end == slash + 1 || len < 1 || len > (v6 ? 128 : 32))
				return fail(c, "\"%s\": bad prefix length", json_string_value(e));
		}
		if (v6) {
			if (inet_pton(AF_INET6, s, p->ipv6[i]) != 1)
				return fail(c, "\"%s\" is not an IPv6 address",
					    json_string_value(e));
			p->ipv6_len[i] = (uint8_t)len;
		} else {
			if (ipv4_of(s, &p->ipv4[i]) < 0 || p->ipv4[i] == 0)
				return fail(c, "\"%s\" is not an IPv4 address",
					    json_string_value(e));
			p->ipv4_len[i] = (uint8_t)len;
		}
		pop(c, old);
	}
	if (v6)
		p->n_ipv6 = (unsigned int)n;
	else
		p->n_ipv4 = (unsigned int)n;
	return 0;
}

static int
parse_port(struct ctx *c, const json_t *v, struct fws_cfg_port *p)
{
	static const char *const keys[] = {
		"name",    "device",   "mac",  "next_hop_mac",   "ipv4",           "ipv6",
		"gateway", "gateway6", "vlan", "rx_descriptors", "tx_descriptors", NULL};
	const json_t *x;
	uint64_t u;
	size_t old;

	if (want_type(c, v, JSON_OBJECT, "an object") < 0 || check_keys(c, v, keys) < 0)
		return -EINVAL;
	p->rx_desc = 1024;
	p->tx_desc = 1024;
	if ((x = json_object_get(v, "name")) == NULL)
		return fail(c, "a port needs a \"name\"");
	old = push_key(c, "name");
	if (get_string(c, x, p->name, sizeof(p->name)) < 0)
		return -EINVAL;
	pop(c, old);
	if ((x = json_object_get(v, "device")) == NULL)
		return fail(c, "port \"%s\" needs a \"device\" (PCI address or vdev)", p->name);
	old = push_key(c, "device");
	if (get_string(c, x, p->device, sizeof(p->device)) < 0)
		return -EINVAL;
	pop(c, old);
	if ((x = json_object_get(v, "mac")) != NULL) {
		old = push_key(c, "mac");
		if (parse_mac(c, x, &p->mac) < 0)
			return -EINVAL;
		p->mac_set = true;
		pop(c, old);
	}
	if ((x = json_object_get(v, "next_hop_mac")) != NULL) {
		old = push_key(c, "next_hop_mac");
		if (parse_mac(c, x, &p->next_hop_mac) < 0)
			return -EINVAL;
		p->next_hop_set = true;
		pop(c, old);
	}
	if ((x = json_object_get(v, "ipv4")) != NULL) {
		old = push_key(c, "ipv4");
		if (parse_addrs(c, x, false, p) < 0)
			return -EINVAL;
		pop(c, old);
	}
	if ((x = json_object_get(v, "ipv6")) != NULL) {
		old = push_key(c, "ipv6");
		if (parse_addrs(c, x, true, p) < 0)
			return -EINVAL;
		pop(c, old);
	}
	if ((x = json_object_get(v, "gateway")) != NULL) {
		old = push_key(c, "gateway");
		if (want_type(c, x, JSON_STRING, "an IPv4 address string") < 0)
			return -EINVAL;
		if (ipv4_of(json_string_value(x), &p->gateway) < 0 || p->gateway == 0)
			return fail(c, "\"%s\" is not an IPv4 address", json_string_value(x));
		pop(c, old);
	}
	if ((x = json_object_get(v, "gateway6")) != NULL) {
		old = push_key(c, "gateway6");
		if (want_type(c, x, JSON_STRING, "an IPv6 address string") < 0)
			return -EINVAL;
		if (inet_pton(AF_INET6, json_string_value(x), p->gateway6) != 1)
			return fail(c, "\"%s\" is not an IPv6 address", json_string_value(x));
		p->gateway6_set = true;
		pop(c, old);
	}
	if ((x = json_object_get(v, "vlan")) != NULL) {
		old = push_key(c, "vlan");
		if (get_uint(c, x, 1, 4094, &u) < 0)
			return -EINVAL;
		p->vlan = (uint16_t)u;
		pop(c, old);
	}
	if (p->gateway && p->n_ipv4 == 0)
		return fail(c,
			    "port \"%s\": a gateway needs an ipv4 address of the port to ask "
			    "from",
			    p->name);
	if (p->gateway6_set && p->n_ipv6 == 0)
		return fail(c,
			    "port \"%s\": a gateway6 needs an ipv6 address of the port to ask "
			    "from",
			    p->name);
	if (p->next_hop_set && (p->gateway || p->gateway6_set))
		return fail(c,
			    "port \"%s\": give a gateway to resolve or a static next_hop_mac, "
			    "not both",
			    p->name);
	if ((x = json_object_get(v, "rx_descriptors")) != NULL) {
		old = push_key(c, "rx_descriptors");
		if (get_uint(c, x, 64, 32768, &u) < 0)
			return -EINVAL;
		p->rx_desc = (uint16_t)u;
		pop(c, old);
	}
	if ((x = json_object_get(v, "tx_descriptors")) != NULL) {
		old = push_key(c, "tx_descriptors");
		if (get_uint(c, x, 64, 32768, &u) < 0)
			return -EINVAL;
		p->tx_desc = (uint16_t)u;
		pop(c, old);
	}
	return 0;
}

static int
port_ref(struct ctx *c, const struct fws_cfg *cfg, const json_t *v, uint8_t *out)
{
	int i;

	if (want_type(c, v, JSON_STRING, "a port name") < 0)
		return -EINVAL;
	i = fws_config_port(cfg, json_string_value(v));
	if (i < 0)
		return fail(c, "no port is named \"%s\"", json_string_value(v));
	*out = (uint8_t)i;
	return 0;
}

static int
parse_stream(struct ctx *c, const json_t *v, struct fws_cfg *cfg, struct fws_cfg_stream *s)
{
	static const char *const keys[] = {"name", "tx_port", "rx_port", "flows", "rate", NULL};
	const json_t *x;
	size_t old;

	if (want_type(c, v, JSON_OBJECT, "an object") < 0 || check_keys(c, v, keys) < 0)
		return -EINVAL;
	strlcpy(s->direction, "custom", sizeof(s->direction));
	if ((x = json_object_get(v, "name")) == NULL)
		return fail(c, "a stream needs a \"name\"");
	old = push_key(c, "name");
	if (get_string(c, x, s->name, sizeof(s->name)) < 0)
		return -EINVAL;
	pop(c, old);
	if ((x = json_object_get(v, "tx_port")) == NULL)
		return fail(c, "stream \"%s\" needs a \"tx_port\"", s->name);
	old = push_key(c, "tx_port");
	if (port_ref(c, cfg, x, &s->tx_port) < 0)
		return -EINVAL;
	pop(c, old);
	if ((x = json_object_get(v, "rx_port")) == NULL)
		return fail(c, "stream \"%s\" needs an \"rx_port\"", s->name);
	old = push_key(c, "rx_port");
	if (port_ref(c, cfg, x, &s->rx_port) < 0)
		return -EINVAL;
	pop(c, old);
	if ((x = json_object_get(v, "flows")) != NULL) {
		old = push_key(c, "flows");
		if (parse_flows(c, x, &s->flows) < 0)
			return -EINVAL;
		pop(c, old);
	}
	if ((x = json_object_get(v, "rate")) != NULL) {
		old = push_key(c, "rate");
		if (parse_rate(c, x, &s->rate) < 0)
			return -EINVAL;
		pop(c, old);
	}
	return 0;
}

static int
parse_lcore_list(struct ctx *c, const json_t *v, unsigned int *out, unsigned int *n)
{
	const json_t *e;
	size_t i, old;
	uint64_t u;

	if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > FWS_CFG_MAX_LCORES)
		return fail(c, "expected a list of 1 to %d lcore ids", FWS_CFG_MAX_LCORES);
	json_array_foreach(v, i, e)
	{
		size_t j;

		old = push_idx(c, i);
		if (get_uint(c, e, 0, 1023, &u) < 0)
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (out[j] == u)
				return fail(c, "lcore %llu is listed twice", (unsigned long long)u);
		out[i] = (unsigned int)u;
		pop(c, old);
	}
	*n = (unsigned int)json_array_size(v);
	return 0;
}

static int
parse_lcores(struct ctx *c, const json_t *v, struct fws_cfg *cfg)
{
	static const char *const keys[] = {"tx", "rx", NULL};
	const json_t *tx, *rx;
	size_t old;

	if (want_type(c, v, JSON_OBJECT, "an object") < 0 || check_keys(c, v, keys) < 0)
		return -EINVAL;
	tx = json_object_get(v, "tx");
	rx = json_object_get(v, "rx");
	if (!tx || !rx)
		return fail(c, "give both \"tx\" and \"rx\" lcore lists, or neither");
	old = push_key(c, "tx");
	if (parse_lcore_list(c, tx, cfg->tx_lcores, &cfg->n_tx_lcores) < 0)
		return -EINVAL;
	pop(c, old);
	old = push_key(c, "rx");
	if (parse_lcore_list(c, rx, cfg->rx_lcores, &cfg->n_rx_lcores) < 0)
		return -EINVAL;
	pop(c, old);
	return 0;
}

static int
parse_output(struct ctx *c, const json_t *v, struct fws_cfg *cfg)
{
	static const char *const keys[] = {"json", "text", NULL};
	const json_t *x;
	size_t old;

	if (want_type(c, v, JSON_OBJECT, "an object") < 0 || check_keys(c, v, keys) < 0)
		return -EINVAL;
	if ((x = json_object_get(v, "json")) != NULL) {
		old = push_key(c, "json");
		if (json_is_string(x) && json_string_length(x) == 0)
			cfg->json_out[0] = '\0';
		else if (get_string(c, x, cfg->json_out, sizeof(cfg->json_out)) < 0)
			return -EINVAL;
		pop(c, old);
	}
	if ((x = json_object_get(v, "text")) != NULL) {
		old = push_key(c, "text");
		if (json_is_string(x) && json_string_length(x) == 0)
			cfg->text_out[0] = '\0';
		else if (get_string(c, x, cfg->text_out, sizeof(cfg->text_out)) < 0)
			return -EINVAL;
		pop(c, old);
	}
	return 0;
}

static int
parse_dut(struct ctx *c, const json_t *v, struct fws_cfg *cfg)
{
	static const char *const keys[] = {"name", "firmware", "load_command", NULL};
	const json_t *x;
	size_t old;

	if (want_type(c, v, JSON_OBJECT, "an object") < 0 || check_keys(c, v, keys) < 0)
		return -EINVAL;
	if ((x = json_object_get(v, "name")) != NULL) {
		old = push_key(c, "name");
		if (get_string(c, x, cfg->dut_name, sizeof(cfg->dut_name)) < 0)
			return -EINVAL;
		pop(c, old);
	}
	if ((x = json_object_get(v, "firmware")) != NULL) {
		old = push_key(c, "firmware");
		if (get_string(c, x, cfg->dut_firmware, sizeof(cfg->dut_firmware)) < 0)
			return -EINVAL;
		pop(c, old);
	}
	if ((x = json_object_get(v, "load_command")) != NULL) {
		old = push_key(c, "load_command");
		if (get_string(c, x, cfg->dut_load_cmd, sizeof(cfg->dut_load_cmd)) < 0)
			return -EINVAL;
		pop(c, old);
	}
	return 0;
}

static int
parse_eal(struct ctx *c, const json_t *v, struct fws_cfg *cfg)
{
	const json_t *e;
	size_t i, old;

	if (!json_is_array(v))
		return fail(c, "expected a list of EAL arguments, got %s", type_name(v));
	if (json_array_size(v) > FWS_CFG_MAX_EAL)
		return fail(c, "more than %d EAL arguments", FWS_CFG_MAX_EAL);
	json_array_foreach(v, i, e)
	{
		old = push_idx(c, i);
		if (!json_is_string(e))
			return fail(c, "expected a string, got %s", type_name(e));
		cfg->eal[i] = strdup(json_string_value(e));
		if (cfg->eal[i] == NULL)
			return -ENOMEM;
		cfg->n_eal = (unsigned int)i + 1;
		pop(c, old);
	}
	return 0;
}

/* Streams from "direction": upload = lan -> wan, download = wan -> lan, bidir = both. */
static void
add_stream(struct fws_cfg *cfg, const char *name, const char *dir, int tx, int rx,
	   const struct fws_flow_spec *flows, bool reverse, const struct fws_rate *rate)
{
	struct fws_cfg_stream *s = &cfg->streams[cfg->n_streams++];

	strlcpy(s->name, name, sizeof(s->name));
	strlcpy(s->direction, dir, sizeof(s->direction));
	s->tx_port = (uint8_t)tx;
	s->rx_port = (uint8_t)rx;
	if (reverse)
		reverse_flows(flows, &s->flows);
	else
		s->flows = *flows;
	s->rate = *rate;
}

static int
expand_direction(struct ctx *c, const json_t *v, struct fws_cfg *cfg,
		 const struct fws_flow_spec *flows, const struct fws_flow_spec *flows6,
		 const struct fws_rate *rate)
{
	const char *d;
	int lan, wan;
	bool up, down;

	if (want_type(c, v, JSON_STRING, "\"upload\", \"download\" or \"bidir\"") < 0)
		return -EINVAL;
	d = json_string_value(v);
	up = strcmp(d, "upload") == 0 || strcmp(d, "bidir") == 0;
	down = strcmp(d, "download") == 0 || strcmp(d, "bidir") == 0;
	if (!up && !down)
		return fail(c, "\"%s\" is not a direction (upload, download, bidir)", d);
	lan = fws_config_port(cfg, "lan");
	wan = fws_config_port(cfg, "wan");
	if (lan < 0 || wan < 0)
		return fail(c, "direction \"%s\" needs ports named \"lan\" and \"wan\"", d);
	if (up)
		add_stream(cfg, "upload", "upload", lan, wan, flows, false, rate);
	if (down)
		add_stream(cfg, "download", "download", wan, lan, flows, true, rate);
	if (up && flows6)
		add_stream(cfg, "upload6", "upload", lan, wan, flows6, false, rate);
	if (down && flows6)
		add_stream(cfg, "download6", "download", wan, lan, flows6, true, rate);
	return 0;
}

/* Every stream's headers (VLAN tag, IPv6) and the signature must fit every frame size. */
static int
check_frame_minimum(struct ctx *c, const json_t *root, struct fws_cfg *cfg)
{
	unsigned int s, z;

	for (s = 0; s < cfg->n_streams; s++) {
		const struct fws_cfg_stream *st = &cfg->streams[s];
		bool vlan = cfg->ports[st->tx_port].vlan != 0;
		uint16_t need = fws_pkt_min_frame(vlan, st->flows.ipv6);

		for (z = 0; z < cfg->n_sizes; z++) {
			if (fws_size_min(&cfg->sizes[z]) >= need)
				continue;
			push_key(c, "frame_size");
			if (json_is_array(json_object_get(root, "frame_size")))
				push_idx(c, z);
			return fail(c,
				    "%u is below the %u-byte minimum of stream \"%s\" "
				    "(Ethernet%s/%s/UDP with the %d-byte signature)",
				    fws_size_min(&cfg->sizes[z]), need, st->name,
				    vlan ? "/802.1Q" : "", st->flows.ipv6 ? "IPv6" : "IPv4",
				    FWS_SIG_LEN);
		}
	}
	return 0;
}

/* "0.5%": a fraction given in percent, within (lo, hi] percent. */
static int
get_percent(struct ctx *c, const json_t *v, double lo, double hi, double *out)
{
	char *end;
	double d;

	if (!json_is_string(v))
		return fail(c, "expected a percentage string such as \"0.5%%\", got %s",
			    type_name(v));
	d = strtod(json_string_value(v), &end);
	if (end == json_string_value(v) || strcmp(end, "%") != 0)
		return fail(c, "\"%s\" is not a percentage (\"0.5%%\")", json_string_value(v));
	if (!(d > lo && d <= hi))
		return fail(c, "%s is outside %g-%g %%", json_string_value(v), lo, hi);
	*out = d / 100;
	return 0;
}

static int
parse_search(struct ctx *c, const json_t *v, struct fws_cfg_search *s)
{
	static const char *const keys[] = {"short", "final",      "width", "pdr",
					   "min",   "max_trials", NULL};
	const json_t *x;
	uint64_t u;
	size_t old;

	if (want_type(c, v, JSON_OBJECT, "an object") < 0 || check_keys(c, v, keys) < 0)
		return -EINVAL;
#define SEARCH(key, expr)                                                                          \
	if ((x = json_object_get(v, key)) != NULL) {                                               \
		old = push_key(c, key);                                                            \
		if ((expr) < 0)                                                                    \
			return -EINVAL;                                                            \
		pop(c, old);                                                                       \
	}
	SEARCH("short", get_seconds(c, x, 0.1, 3600, &s->short_s));
	SEARCH("final", get_seconds(c, x, 0.1, 86400, &s->final_s));
	SEARCH("width", get_percent(c, x, 0, 50, &s->width));
	SEARCH("pdr", get_percent(c, x, 0, 50, &s->pdr));
	SEARCH("min", get_percent(c, x, 0, 50, &s->min_load));
	SEARCH("max_trials", get_uint(c, x, 2, 200, &u));
#undef SEARCH
	if (x)
		s->max_trials = (unsigned int)u;
	if (s->final_s < s->short_s) {
		old = push_key(c, "final");
		return fail(c, "the final trials (%g s) are shorter than the short ones (%g s)",
			    s->final_s, s->short_s);
	}
	return 0;
}

static int
parse_sweep(struct ctx *c, const json_t *v, struct fws_cfg_sweep *w)
{
	static const char *const keys[] = {"directions", "mode", "latency_at", "back_to_back",
					   NULL};
	const json_t *x, *e;
	size_t i, old, o2;

	if (want_type(c, v, JSON_OBJECT, "an object") < 0 || check_keys(c, v, keys) < 0)
		return -EINVAL;
	if ((x = json_object_get(v, "directions")) != NULL) {
		old = push_key(c, "directions");
		if (!json_is_array(x) || json_array_size(x) == 0 || json_array_size(x) > 3)
			return fail(c, "expected 1 to 3 of \"upload\", \"download\", \"bidir\"");
		w->n_dirs = 0;
		json_array_foreach(x, i, e)
		{
			o2 = push_idx(c, i);
			if (!json_is_string(e) || (strcmp(json_string_value(e), "upload") &&
						   strcmp(json_string_value(e), "download") &&
						   strcmp(json_string_value(e), "bidir")))
				return fail(c, "expected \"upload\", \"download\" or \"bidir\"");
			strlcpy(w->dirs[w->n_dirs++], json_string_value(e), sizeof(w->dirs[0]));
			pop(c, o2);
		}
		pop(c, old);
	}
	if ((x = json_object_get(v, "mode")) != NULL) {
		old = push_key(c, "mode");
		if (!json_is_string(x) || (strcmp(json_string_value(x), "search") &&
					   strcmp(json_string_value(x), "fixed")))
			return fail(c, "expected \"search\" (NDR/PDR per cell) or \"fixed\" (one "
				       "trial at the rate)");
		w->search = strcmp(json_string_value(x), "search") == 0;
		pop(c, old);
	}
	if ((x = json_object_get(v, "latency_at")) != NULL) {
		old = push_key(c, "latency_at");
		if (!json_is_array(x) || json_array_size(x) > 8)
			return fail(c, "expected up to 8 percentages of NDR, e.g. [\"10%%\", "
				       "\"50%%\", \"90%%\"]");
		w->n_lat = 0;
		json_array_foreach(x, i, e)
		{
			o2 = push_idx(c, i);
			if (get_percent(c, e, 0, 100, &w->lat[w->n_lat]) < 0)
				return -EINVAL;
			w->n_lat++;
			pop(c, o2);
		}
		pop(c, old);
	}
	if ((x = json_object_get(v, "back_to_back")) != NULL) {
		static const char *const bk[] = {"repeat", "seconds", NULL};
		const json_t *y;
		uint64_t u;

		old = push_key(c, "back_to_back");
		if (want_type(c, x, JSON_OBJECT, "an object") < 0 || check_keys(c, x, bk) < 0)
			return -EINVAL;
		w->b2b_repeat = 1;
		if ((y = json_object_get(x, "repeat")) != NULL) {
			o2 = push_key(c, "repeat");
			if (get_uint(c, y, 1, 100, &u) < 0)
				return -EINVAL;
			w->b2b_repeat = (unsigned int)u;
			pop(c, o2);
		}
		if ((y = json_object_get(x, "seconds")) != NULL) {
			o2 = push_key(c, "seconds");
			if (get_seconds(c, y, 0.001, 10, &w->b2b_seconds) < 0)
				return -EINVAL;
			pop(c, o2);
		}
		pop(c, old);
	}
	return 0;
}

static int
parse_top(struct ctx *c, const json_t *root, struct fws_cfg *cfg)
{
	static const char *const keys[] = {
		"flows6",     "path_check", "search",  "sweep", "dut",        "eal",
		"ports",      "direction",  "streams", "flows", "frame_size", "rate",
		"rate_layer", "duration",   "warmup",  "drain", "burst",      "lcores",
		"output",     "scenario",   NULL};
	struct fws_flow_spec flows = default_upload_flows, flows6 = default_upload_flows6;
	struct fws_rate rate = {.kind = FWS_RATE_LINE, .layer = FWS_RATE_L1, .value = 100};
	const json_t *x, *e;
	uint64_t u;
	size_t i, j, old;

	if (!json_is_object(root))
		return fail(c, "the config must be a JSON object, got %s", type_name(root));
	if (check_keys(c, root, keys) < 0)
		return -EINVAL;
	cfg->duration = 10;
	cfg->warmup = 1;
	cfg->drain = 2;
	cfg->burst = 32;
	strlcpy(cfg->json_out, "fwstress-report.json", sizeof(cfg->json_out));
	fws_size_fixed(&cfg->sizes[0], 64);
	cfg->n_sizes = 1;

#define OPT(key, expr)                                                                             \
	if ((x = json_object_get(root, key)) != NULL) {                                            \
		old = push_key(c, key);                                                            \
		if ((expr) < 0)                                                                    \
			return -EINVAL;                                                            \
		pop(c, old);                                                                       \
	}
	OPT("dut", parse_dut(c, x, cfg));
	strlcpy(cfg->scenario, "routing", sizeof(cfg->scenario));
	OPT("scenario", get_string(c, x, cfg->scenario, sizeof(cfg->scenario)));
	OPT("eal", parse_eal(c, x, cfg));
	OPT("duration", get_seconds(c, x, 0.01, 86400, &cfg->duration));
	OPT("warmup", get_seconds(c, x, 0, 3600, &cfg->warmup));
	OPT("drain", get_seconds(c, x, 0, 60, &cfg->drain));
	OPT("burst", get_uint(c, x, 1, 512, &u));
	if (x)
		cfg->burst = (uint16_t)u;
	OPT("frame_size", parse_sizes(c, x, cfg));
	OPT("lcores", parse_lcores(c, x, cfg));
	OPT("output", parse_output(c, x, cfg));
	if ((x = json_object_get(root, "rate_layer")) != NULL) {
		old = push_key(c, "rate_layer");
		if (want_type(c, x, JSON_STRING, "\"l1\" or \"l2\"") < 0)
			return -EINVAL;
		if (strcmp(json_string_value(x), "l1") == 0)
			rate.layer = FWS_RATE_L1;
		else if (strcmp(json_string_value(x), "l2") == 0)
			rate.layer = FWS_RATE_L2;
		else
			return fail(
				c,
				"\"%s\" is not a layer (l1 counts preamble and IFG, l2 does not)",
				json_string_value(x));
		pop(c, old);
	}
	OPT("rate", parse_rate(c, x, &rate));
	OPT("flows", parse_flows(c, x, &flows));
	OPT("flows6", parse_flows(c, x, &flows6));
	if (x && !flows6.ipv6) {
		old = push_key(c, "flows6");
		return fail(c, "flows6 holds the IPv6 streams' flows; these are IPv4");
	}
	cfg->path_check = true;
	cfg->search = (struct fws_cfg_search){.short_s = 1,
					      .final_s = 60,
					      .width = 0.005,
					      .pdr = 0.005,
					      .min_load = 0.001,
					      .max_trials = 60};
	OPT("search", parse_search(c, x, &cfg->search));
	cfg->sweep = (struct fws_cfg_sweep){.n_dirs = 3,
					    .dirs = {"upload", "download", "bidir"},
					    .search = true,
					    .b2b_seconds = 2};
	OPT("sweep", parse_sweep(c, x, &cfg->sweep));
	if ((x = json_object_get(root, "path_check")) != NULL) {
		old = push_key(c, "path_check");
		if (!json_is_boolean(x))
			return fail(c, "expected true or false, got %s", type_name(x));
		cfg->path_check = json_is_true(x);
		pop(c, old);
	}

	/* Ports. */
	if ((x = json_object_get(root, "ports")) == NULL)
		return fail(c, "a config needs \"ports\"");
	old = push_key(c, "ports");
	if (!json_is_array(x) || json_array_size(x) == 0 || json_array_size(x) > FWS_CFG_MAX_PORTS)
		return fail(c, "expected a list of 1 to %d ports", FWS_CFG_MAX_PORTS);
	json_array_foreach(x, i, e)
	{
		size_t o2 = push_idx(c, i);

		if (parse_port(c, e, &cfg->ports[i]) < 0)
			return -EINVAL;
		for (j = 0; j < i; j++) {
			if (strcmp(cfg->ports[j].name, cfg->ports[i].name) == 0) {
				push_key(c, "name");
				return fail(c, "port name \"%s\" is used twice",
					    cfg->ports[i].name);
			}
			if (strcmp(cfg->ports[j].device, cfg->ports[i].device) == 0) {
				push_key(c, "device");
				return fail(c, "device \"%s\" is used by ports[%zu] too",
					    cfg->ports[i].device, j);
			}
		}
		cfg->ports[i].name[sizeof(cfg->ports[i].name) - 1] = '\0';
		cfg->n_ports = (unsigned int)i + 1;
		pop(c, o2);
	}
	pop(c, old);

	/* Streams: explicit, or from a direction. */
	x = json_object_get(root, "streams");
	e = json_object_get(root, "direction");
	if (x && e) {
		old = push_key(c, "direction");
		return fail(c, "give \"direction\" or \"streams\", not both");
	}
	if (x) {
		const json_t *s;

		old = push_key(c, "streams");
		if (!json_is_array(x) || json_array_size(x) == 0 ||
		    json_array_size(x) > FWS_CFG_MAX_STREAMS)
			return fail(c, "expected a list of 1 to %d streams", FWS_CFG_MAX_STREAMS);
		json_array_foreach(x, i, s)
		{
			size_t o2 = push_idx(c, i);
			struct fws_cfg_stream *st = &cfg->streams[i];

			st->flows = flows;
			st->rate = rate;
			if (parse_stream(c, s, cfg, st) < 0)
				return -EINVAL;
			for (j = 0; j < i; j++) {
				if (strcmp(cfg->streams[j].name, st->name) == 0) {
					push_key(c, "name");
					return fail(c, "stream name \"%s\" is used twice",
						    st->name);
				}
			}
			cfg->n_streams = (unsigned int)i + 1;
			pop(c, o2);
		}
		pop(c, old);
	} else {
		json_t *dflt = json_string("upload");

		old = push_key(c, "direction");
		if (expand_direction(c, e ? e : dflt, cfg, &flows,
				     json_object_get(root, "flows6") ? &flows6 : NULL, &rate) < 0) {
			json_decref(dflt);
			return -EINVAL;
		}
		json_decref(dflt);
		pop(c, old);
	}
	if ((x = json_object_get(root, "streams")) && json_object_get(root, "flows6")) {
		old = push_key(c, "flows6");
		return fail(c, "flows6 goes with \"direction\"; give explicit streams their flows");
	}
	return check_frame_minimum(c, root, cfg);
#undef OPT
}

struct fws_cfg *
fws_config_parse(const char *buf, size_t len, char *err, size_t errlen)
{
	struct ctx c = {.buf = buf, .len = len, .err = err, .errlen = errlen};
	struct fws_cfg *cfg;
	json_error_t jerr;
	json_t *root;
	int rc;

	if (errlen)
		err[0] = '\0';
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (root == NULL) {
		snprintf(err, errlen, "config: line %d: %s", jerr.line, jerr.text);
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
	rc = parse_top(&c, root, cfg);
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
	char *buf = NULL;
	size_t len = 0, cap = 0;
	FILE *f = fopen(path, "r");
	int saved;

	if (f == NULL) {
		saved = errno;
		snprintf(err, errlen, "config: %s: %s", path, strerror(saved));
		errno = saved;
		return NULL;
	}
	for (;;) {
		size_t n;

		if (len + 4096 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 8192);

			if (nb == NULL) {
				free(buf);
				fclose(f);
				snprintf(err, errlen, "config: %s: out of memory", path);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	cfg = fws_config_parse(buf, len, err, errlen);
	saved = errno;
	free(buf);
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

static json_t *
mac_json(const struct rte_ether_addr *a)
{
	const uint8_t *b = a->addr_bytes;

	/* As rte_ether_format_addr writes it, without linking librte_net. */
	return json_sprintf("%02X:%02X:%02X:%02X:%02X:%02X", b[0], b[1], b[2], b[3], b[4], b[5]);
}

json_t *
fws_config_to_json(const struct fws_cfg *cfg)
{
	json_t *root = json_object(), *a, *o;
	unsigned int i;
	char buf[64];

	if (cfg->dut_name[0] || cfg->dut_firmware[0] || cfg->dut_load_cmd[0]) {
		o = json_object();
		if (cfg->dut_name[0])
			json_object_set_new(o, "name", json_string(cfg->dut_name));
		if (cfg->dut_firmware[0])
			json_object_set_new(o, "firmware", json_string(cfg->dut_firmware));
		if (cfg->dut_load_cmd[0])
			json_object_set_new(o, "load_command", json_string(cfg->dut_load_cmd));
		json_object_set_new(root, "dut", o);
	}
	a = json_array();
	for (i = 0; i < cfg->n_eal; i++)
		json_array_append_new(a, json_string(cfg->eal[i]));
	json_object_set_new(root, "eal", a);
	a = json_array();
	for (i = 0; i < cfg->n_ports; i++) {
		const struct fws_cfg_port *p = &cfg->ports[i];

		o = json_pack("{s:s, s:s, s:i, s:i}", "name", p->name, "device", p->device,
			      "rx_descriptors", p->rx_desc, "tx_descriptors", p->tx_desc);
		if (p->mac_set)
			json_object_set_new(o, "mac", mac_json(&p->mac));
		if (p->next_hop_set)
			json_object_set_new(o, "next_hop_mac", mac_json(&p->next_hop_mac));
		if (p->n_ipv4 || p->n_ipv6) {
			json_t *a4 = json_array(), *a6 = json_array();
			char ab[INET6_ADDRSTRLEN + 8], ip[INET6_ADDRSTRLEN];
			unsigned int k;

			for (k = 0; k < p->n_ipv4; k++) {
				struct in_addr ia = {.s_addr = htonl(p->ipv4[k])};

				inet_ntop(AF_INET, &ia, ip, sizeof(ip));
				snprintf(ab, sizeof(ab), "%s/%u", ip, p->ipv4_len[k]);
				json_array_append_new(a4, json_string(ab));
			}
			for (k = 0; k < p->n_ipv6; k++) {
				inet_ntop(AF_INET6, p->ipv6[k], ip, sizeof(ip));
				snprintf(ab, sizeof(ab), "%s/%u", ip, p->ipv6_len[k]);
				json_array_append_new(a6, json_string(ab));
			}
			json_object_set_new(o, "ipv4", a4);
			json_object_set_new(o, "ipv6", a6);
		}
		if (p->gateway) {
			struct in_addr ia = {.s_addr = htonl(p->gateway)};
			char ip[INET_ADDRSTRLEN];

			inet_ntop(AF_INET, &ia, ip, sizeof(ip));
			json_object_set_new(o, "gateway", json_string(ip));
		}
		if (p->gateway6_set) {
			char ip[INET6_ADDRSTRLEN];

			inet_ntop(AF_INET6, p->gateway6, ip, sizeof(ip));
			json_object_set_new(o, "gateway6", json_string(ip));
		}
		if (p->vlan)
			json_object_set_new(o, "vlan", json_integer(p->vlan));
		json_array_append_new(a, o);
	}
	json_object_set_new(root, "ports", a);
	a = json_array();
	for (i = 0; i < cfg->n_streams; i++) {
		const struct fws_cfg_stream *s = &cfg->streams[i];

		fws_rate_format(&s->rate, buf, sizeof(buf));
		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:o, s:s}", "name", s->name,
						   "tx_port", cfg->ports[s->tx_port].name,
						   "rx_port", cfg->ports[s->rx_port].name, "flows",
						   flows_json(&s->flows), "rate", buf));
	}
	json_object_set_new(root, "streams", a);
	if (cfg->n_sizes == 1) {
		json_object_set_new(root, "frame_size", size_json(&cfg->sizes[0]));
	} else {
		a = json_array();
		for (i = 0; i < cfg->n_sizes; i++)
			json_array_append_new(a, size_json(&cfg->sizes[i]));
		json_object_set_new(root, "frame_size", a);
	}
	json_object_set_new(root, "rate_layer",
			    json_string(cfg->n_streams && cfg->streams[0].rate.layer == FWS_RATE_L2
						? "l2"
						: "l1"));
	json_object_set_new(root, "duration", json_real(cfg->duration));
	json_object_set_new(root, "warmup", json_real(cfg->warmup));
	json_object_set_new(root, "drain", json_real(cfg->drain));
	json_object_set_new(root, "burst", json_integer(cfg->burst));
	json_object_set_new(root, "scenario", json_string(cfg->scenario));
	{
		json_t *dirs = json_array(), *lat = json_array();

		for (i = 0; i < cfg->sweep.n_dirs; i++)
			json_array_append_new(dirs, json_string(cfg->sweep.dirs[i]));
		for (i = 0; i < cfg->sweep.n_lat; i++) {
			snprintf(buf, sizeof(buf), "%.10g%%", cfg->sweep.lat[i] * 100);
			json_array_append_new(lat, json_string(buf));
		}
		o = json_pack("{s:o, s:s, s:o}", "directions", dirs, "mode",
			      cfg->sweep.search ? "search" : "fixed", "latency_at", lat);
		if (cfg->sweep.b2b_repeat)
			json_object_set_new(o, "back_to_back",
					    json_pack("{s:i, s:f}", "repeat", cfg->sweep.b2b_repeat,
						      "seconds", cfg->sweep.b2b_seconds));
		json_object_set_new(root, "sweep", o);
	}
	json_object_set_new(root, "path_check", json_boolean(cfg->path_check));
	{
		char w[32], pd[32], mn[32];

		snprintf(w, sizeof(w), "%.10g%%", cfg->search.width * 100);
		snprintf(pd, sizeof(pd), "%.10g%%", cfg->search.pdr * 100);
		snprintf(mn, sizeof(mn), "%.10g%%", cfg->search.min_load * 100);
		json_object_set_new(root, "search",
				    json_pack("{s:f, s:f, s:s, s:s, s:s, s:i}", "short",
					      cfg->search.short_s, "final", cfg->search.final_s,
					      "width", w, "pdr", pd, "min", mn, "max_trials",
					      cfg->search.max_trials));
	}
	if (cfg->n_tx_lcores) {
		json_t *tx = json_array(), *rx = json_array();

		for (i = 0; i < cfg->n_tx_lcores; i++)
			json_array_append_new(tx, json_integer(cfg->tx_lcores[i]));
		for (i = 0; i < cfg->n_rx_lcores; i++)
			json_array_append_new(rx, json_integer(cfg->rx_lcores[i]));
		json_object_set_new(root, "lcores", json_pack("{s:o, s:o}", "tx", tx, "rx", rx));
	}
	json_object_set_new(root, "output",
			    json_pack("{s:s, s:s}", "json", cfg->json_out, "text", cfg->text_out));
	return root;
}

/* Report cells: our own output read back, checked as strictly as a config. */
static int
cell_str(struct ctx *c, const json_t *o, const char *key, char *out, size_t len)
{
	const json_t *v = json_object_get(o, key);
	size_t old = push_key(c, key);

	if (!json_is_string(v))
		return fail(c, "expected a string, got %s", v ? type_name(v) : "nothing");
	strlcpy(out, json_string_value(v), len);
	pop(c, old);
	return 0;
}

static int
cell_num(struct ctx *c, const json_t *o, const char *key, double *out, double dflt)
{
	const json_t *v = json_object_get(o, key);
	size_t old;

	if (v == NULL || json_is_null(v)) {
		*out = dflt;
		return 0;
	}
	old = push_key(c, key);
	if (!json_is_number(v))
		return fail(c, "expected a number, got %s", type_name(v));
	*out = json_number_value(v);
	pop(c, old);
	return 0;
}

static int
parse_cell(struct ctx *c, const json_t *o, struct fws_cell *x)
{
	const json_t *h;
	size_t i;

	if (!json_is_object(o))
		return fail(c, "expected an object, got %s", type_name(o));
	if (cell_str(c, o, "scenario", x->scenario, sizeof(x->scenario)) < 0 ||
	    cell_str(c, o, "kind", x->kind, sizeof(x->kind)) < 0 ||
	    cell_str(c, o, "direction", x->direction, sizeof(x->direction)) < 0 ||
	    cell_str(c, o, "stream", x->stream, sizeof(x->stream)) < 0 ||
	    cell_str(c, o, "frame_size", x->size, sizeof(x->size)) < 0 ||
	    cell_num(c, o, "avg_frame", &x->avg_frame, 0) < 0 ||
	    cell_num(c, o, "pps", &x->pps, 0) < 0 || cell_num(c, o, "l1_bps", &x->l1_bps, 0) < 0 ||
	    cell_num(c, o, "l2_bps", &x->l2_bps, 0) < 0 ||
	    cell_num(c, o, "loss_pct", &x->loss_pct, 0) < 0 ||
	    cell_num(c, o, "latency_p50_ns", &x->p50_ns, 0) < 0 ||
	    cell_num(c, o, "latency_p99_ns", &x->p99_ns, 0) < 0 ||
	    cell_num(c, o, "line_pps", &x->line_pps, 0) < 0 ||
	    cell_num(c, o, "dut_cpu_pct", &x->dut_cpu, -1) < 0)
		return -EINVAL;
	h = json_object_get(o, "latency_histogram");
	if (json_is_array(h) && json_array_size(h)) {
		x->hist = calloc(json_array_size(h), sizeof(*x->hist));
		if (x->hist == NULL)
			return -ENOMEM;
		for (i = 0; i < json_array_size(h); i++) {
			const json_t *b = json_array_get(h, i);

			if (!json_is_array(b) || json_array_size(b) != 3)
				continue;
			x->hist[x->n_hist].lo = (uint64_t)json_integer_value(json_array_get(b, 0));
			x->hist[x->n_hist].width =
				(uint64_t)json_integer_value(json_array_get(b, 1));
			x->hist[x->n_hist++].count =
				(uint64_t)json_integer_value(json_array_get(b, 2));
		}
	}
	return 0;
}

int
fws_config_load_cells(const char *path, struct fws_cells *cells, char *err, size_t errlen)
{
	struct ctx c = {.err = err, .errlen = errlen};
	const json_t *a, *d;
	json_error_t jerr;
	json_t *root;
	size_t i;
	int rc = 0;

	memset(cells, 0, sizeof(*cells));
	root = json_load_file(path, 0, &jerr);
	if (root == NULL) {
		snprintf(err, errlen, "report: %s: line %d: %s", path, jerr.line, jerr.text);
		return -EINVAL;
	}
	strlcpy(c.path, "cells", sizeof(c.path));
	a = json_object_get(root, "cells");
	if (!json_is_array(a)) {
		snprintf(err, errlen, "report: %s: no \"cells\" list (not an fwstress report?)",
			 path);
		json_decref(root);
		return -EINVAL;
	}
	if ((d = json_object_get(json_object_get(root, "config"), "dut")) != NULL) {
		if (json_is_string(json_object_get(d, "name")))
			strlcpy(cells->dut, json_string_value(json_object_get(d, "name")),
				sizeof(cells->dut));
		if (json_is_string(json_object_get(d, "firmware")))
			strlcpy(cells->firmware, json_string_value(json_object_get(d, "firmware")),
				sizeof(cells->firmware));
	}
	if (json_is_string(json_object_get(root, "started")))
		strlcpy(cells->started, json_string_value(json_object_get(root, "started")),
			sizeof(cells->started));
	cells->c = calloc(json_array_size(a) + 1, sizeof(*cells->c));
	if (cells->c == NULL) {
		json_decref(root);
		return -ENOMEM;
	}
	for (i = 0; i < json_array_size(a) && rc == 0; i++) {
		size_t old = push_idx(&c, i);
		char msg[400];

		rc = parse_cell(&c, json_array_get(a, i), &cells->c[i]);
		cells->n = (unsigned int)i + 1;
		if (rc < 0) {
			/* fail() wrote "config: <path>: ..."; say which report. */
			strlcpy(msg, err + strlen("config: "), sizeof(msg));
			snprintf(err, errlen, "report: %s: %s", path, msg);
		}
		pop(&c, old);
	}
	json_decref(root);
	if (rc < 0)
		fws_cells_free(cells);
	return rc;
}
