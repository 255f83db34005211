/* SPDX-License-Identifier: BSD-3-Clause */
/* The parser's JSON side: error context with paths and line numbers, typed getters. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_cell.h"
#include "fws_config.h"
#include "fws_names.h"
#include "fws_frame.h"
#include "fws_sig.h"
#include "cfg_int.h"

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
				n = snprintf(child, sizeof(child), "%s%s%s", path, *path ? "." : "",
					     key);
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
cfg_line_of(const struct cfg_ctx *c, const char *path)
{
	struct scan s = {.p = c->buf, .end = c->buf + c->len, .want = path, .line = 1};

	if (c->buf == NULL)
		return 0;
	scan_value(&s, "", 0);
	return s.found;
}

int
cfg_fail(struct cfg_ctx *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	int line = cfg_line_of(c, c->path);

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line > 0)
		snprintf(c->err, c->errlen, "config: %s: %s (line %d)",
			 *c->path ? c->path : "(top)", msg, line);
	else
		snprintf(c->err, c->errlen, "config: %s: %s", *c->path ? c->path : "(top)", msg);
	cfg_one_line(c->err);
	return -EINVAL;
}

void
cfg_one_line(char *s)
{
	/* Keys and values quoted from the input may hold line breaks or escape sequences: the
	 * error stays one line and never reaches the terminal raw. */
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

/* Path push/cfg_pop: returns the old length to restore. */
size_t
cfg_push_key(struct cfg_ctx *c, const char *key)
{
	size_t old = strlen(c->path);

	snprintf(c->path + old, sizeof(c->path) - old, "%s%s", old ? "." : "", key);
	return old;
}

size_t
cfg_push_idx(struct cfg_ctx *c, size_t i)
{
	size_t old = strlen(c->path);

	snprintf(c->path + old, sizeof(c->path) - old, "[%zu]", i);
	return old;
}

void
cfg_pop(struct cfg_ctx *c, size_t old)
{
	c->path[old] = '\0';
}

const char *
cfg_type_name(const json_t *v)
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
int
cfg_check_keys(struct cfg_ctx *c, const json_t *obj, const char *const *allowed)
{
	return cfg_check_keys_named(c, obj, allowed, NULL);
}

int
cfg_check_keys_named(struct cfg_ctx *c, const json_t *obj, const char *const *allowed,
		     const char *where)
{
	char known[320];
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
		old = cfg_push_key(c, key);
		(void)old; /* the error keeps the path */
		strlcpy(known, where ? where : "keys: ", sizeof(known));
		for (a = allowed; *a && where == NULL; a++) {
			strlcat(known, a == allowed ? "" : ", ", sizeof(known));
			strlcat(known, *a, sizeof(known));
		}
		if (fws_names_nearest(key, allowed, 0))
			return cfg_fail(c, "unknown key; did you mean \"%s\"? (%s)",
					fws_names_nearest(key, allowed, 0), known);
		return cfg_fail(c, "unknown key (%s)", known);
	}
	return 0;
}

int
cfg_want_type(struct cfg_ctx *c, const json_t *v, json_type t, const char *what)
{
	if (json_typeof(v) == t || (t == JSON_REAL && json_is_integer(v)))
		return 0;
	return cfg_fail(c, "expected %s, got %s", what, cfg_type_name(v));
}

int
cfg_get_string(struct cfg_ctx *c, const json_t *v, char *out, size_t outlen)
{
	if (cfg_want_type(c, v, JSON_STRING, "a string") < 0)
		return -EINVAL;
	if (json_string_length(v) >= outlen || json_string_length(v) == 0)
		return cfg_fail(c, "\"%s\" must be 1 to %zu characters", json_string_value(v),
				outlen - 1);
	strlcpy(out, json_string_value(v), outlen);
	return 0;
}

int
cfg_get_uint(struct cfg_ctx *c, const json_t *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
	json_int_t i;

	if (!json_is_integer(v))
		return cfg_fail(c, "expected an integer, got %s", cfg_type_name(v));
	i = json_integer_value(v);
	if (i < 0 || (uint64_t)i < lo || (uint64_t)i > hi)
		return cfg_fail(c, "%lld is outside %llu-%llu", (long long)i,
				(unsigned long long)lo, (unsigned long long)hi);
	*out = (uint64_t)i;
	return 0;
}

int
cfg_get_seconds(struct cfg_ctx *c, const json_t *v, double lo, double hi, double *out)
{
	double d;

	if (!json_is_number(v))
		return cfg_fail(c, "expected a number of seconds, got %s", cfg_type_name(v));
	d = json_number_value(v);
	if (!(d >= lo && d <= hi))
		return cfg_fail(c, "%g s is outside %g-%g s", d, lo, hi);
	*out = d;
	return 0;
}

int
cfg_parse_mac(struct cfg_ctx *c, const json_t *v, struct fws_mac *mac)
{
	unsigned int b[6];
	char tail;
	int i;

	if (cfg_want_type(c, v, JSON_STRING, "a MAC address string") < 0)
		return -EINVAL;
	if (sscanf(json_string_value(v), "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3],
		   &b[4], &b[5], &tail) != 6)
		return cfg_fail(c, "\"%s\" is not a MAC address (xx:xx:xx:xx:xx:xx)",
				json_string_value(v));
	for (i = 0; i < 6; i++)
		mac->addr_bytes[i] = (uint8_t)b[i];
	return 0;
}

int
cfg_ipv4_of(const char *s, uint32_t *out)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1)
		return -EINVAL;
	*out = ntohl(a.s_addr);
	return 0;
}

/* An IPv6 address split into its upper 96 bits and its low 32 (host order). */
int
cfg_ipv6_of(const char *s, uint8_t hi[12], uint32_t *lo)
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
int
cfg_parse_ip_range(struct cfg_ctx *c, const json_t *v, bool *ipv6, uint8_t hi6[12], uint32_t *lo,
		   uint32_t *hi)
{
	char s[128], *sep;
	const char *str;
	uint8_t other[12];
	bool v6;

	if (cfg_want_type(c, v, JSON_STRING, "an IP address or range string") < 0)
		return -EINVAL;
	str = json_string_value(v);
	if (strlcpy(s, str, sizeof(s)) >= sizeof(s))
		return cfg_fail(c, "\"%.40s...\" is too long for an address range", str);
	v6 = strchr(s, ':') != NULL;
	*ipv6 = v6;
	if ((sep = strchr(s, '/')) != NULL) {
		char *end;
		long len;
		int bits = v6 ? 128 : 32;

		*sep = '\0';
		len = strtol(sep + 1, &end, 10);
		if ((v6 ? cfg_ipv6_of(s, hi6, lo) : cfg_ipv4_of(s, lo)) < 0 || *end ||
		    end == sep + 1 || len < 0 || len > bits)
			return cfg_fail(c, "\"%s\" is not an %s prefix (address/len)", str,
					v6 ? "IPv6" : "IPv4");
		if (len < bits - 24)
			return cfg_fail(c, "prefix \"%s\" is wider than /%d", str, bits - 24);
		len -= bits - 32; /* bits of the low 32 that are fixed */
		*lo &= len ? ~0u << (32 - len) : 0;
		*hi = *lo | (len == 32 ? 0 : ~0u >> len);
		return 0;
	}
	if ((sep = strchr(s, '-')) != NULL) {
		*sep = '\0';
		if (v6 ? (cfg_ipv6_of(s, hi6, lo) < 0 || cfg_ipv6_of(sep + 1, other, hi) < 0)
		       : (cfg_ipv4_of(s, lo) < 0 || cfg_ipv4_of(sep + 1, hi) < 0))
			return cfg_fail(c, "\"%s\" is not an %s range (first-last)", str,
					v6 ? "IPv6" : "IPv4");
		if (v6 && memcmp(hi6, other, 12) != 0)
			return cfg_fail(c, "range \"%s\" differs above the low 32 bits", str);
		if (*hi < *lo)
			return cfg_fail(c, "range \"%s\" ends before it starts", str);
		return 0;
	}
	if ((v6 ? cfg_ipv6_of(s, hi6, lo) : cfg_ipv4_of(s, lo)) < 0)
		return cfg_fail(c, "\"%s\" is not an %s address", str, v6 ? "IPv6" : "IPv4");
	*hi = *lo;
	return 0;
}

/* 5001, "5001" or "1024-65535". */
int
cfg_parse_port_range(struct cfg_ctx *c, const json_t *v, uint16_t *lo, uint16_t *hi)
{
	long a, b;
	char *end;
	const char *s;

	if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);

		if (i < 0 || i > 65535)
			return cfg_fail(c, "port %lld is outside 0-65535", (long long)i);
		*lo = *hi = (uint16_t)i;
		return 0;
	}
	if (cfg_want_type(c, v, JSON_STRING, "a port or a range string") < 0)
		return -EINVAL;
	s = json_string_value(v);
	a = strtol(s, &end, 10);
	if (end == s)
		return cfg_fail(c, "\"%s\" is not a port range (lo-hi)", s);
	if (*end == '-') {
		const char *q = end + 1;

		b = strtol(q, &end, 10);
		if (end == q)
			return cfg_fail(c, "\"%s\" is not a port range (lo-hi)", s);
	} else {
		b = a;
	}
	if (*end)
		return cfg_fail(c, "\"%s\" is not a port range (lo-hi)", s);
	if (a < 0 || b < 0 || a > 65535 || b > 65535)
		return cfg_fail(c, "range \"%s\" is outside 0-65535", s);
	if (b < a)
		return cfg_fail(c, "range \"%s\" ends before it starts", s);
	*lo = (uint16_t)a;
	*hi = (uint16_t)b;
	return 0;
}

/* "0.5%": a fraction given in percent, within (lo, hi] percent. */
int
cfg_get_percent(struct cfg_ctx *c, const json_t *v, double lo, double hi, double *out)
{
	char *end;
	double d;

	if (!json_is_string(v))
		return cfg_fail(c, "expected a percentage string such as \"0.5%%\", got %s",
				cfg_type_name(v));
	d = strtod(json_string_value(v), &end);
	if (end == json_string_value(v) || strcmp(end, "%") != 0)
		return cfg_fail(c, "\"%s\" is not a percentage (\"0.5%%\")", json_string_value(v));
	if (!(d > lo && d <= hi))
		return cfg_fail(c, "%s is outside %g-%g %%", json_string_value(v), lo, hi);
	*out = d / 100;
	return 0;
}

int
cfg_read_file(const char *path, size_t max, char **buf, size_t *len, char *err, size_t errlen,
	      const char *what)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), rc = 0;
	struct stat st;
	size_t n = 0;
	char *b = NULL;

	*buf = NULL;
	*len = 0;
	if (fd < 0 || fstat(fd, &st) != 0)
		rc = -errno;
	else if (S_ISDIR(st.st_mode))
		rc = -EISDIR;
	else if (!S_ISREG(st.st_mode))
		rc = -EINVAL;
	else if ((size_t)st.st_size > max)
		rc = -EFBIG;
	else if ((b = malloc((size_t)st.st_size + 1)) == NULL)
		rc = -ENOMEM;
	while (rc == 0 && n <= (size_t)st.st_size) {
		ssize_t r = read(fd, b + n, (size_t)st.st_size + 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			rc = -errno;
		else if (r == 0)
			break;
		else
			n += (size_t)r;
	}
	if (rc == 0 && n > (size_t)st.st_size)
		rc = -EFBIG; /* it grew while we read */
	if (fd >= 0)
		close(fd);
	if (rc == -EINVAL)
		snprintf(err, errlen, "%s: %s: not a regular file (a FIFO, socket or device)", what,
			 path);
	else if (rc == -EFBIG)
		snprintf(err, errlen, "%s: %s: larger than %zu bytes", what, path, max);
	else if (rc < 0)
		snprintf(err, errlen, "%s: %s: %s", what, path, strerror(-rc));
	if (rc < 0) {
		free(b);
		return rc;
	}
	*buf = b;
	*len = n;
	return 0;
}

const char *
cfg_name_of(const char *const *names, size_t n, unsigned int i)
{
	return i < n ? names[i] : "?";
}

int
cfg_pick_name(struct cfg_ctx *c, const json_t *v, const char *const *names, size_t n)
{
	char choices[256] = "";
	size_t i, used = 0, left = 0;

	for (i = 0; i < n; i++)
		left += names[i][0] != '\0';
	for (i = 0; i < n; i++) {
		if (names[i][0] == '\0')
			continue;
		left--;
		used += (size_t)snprintf(choices + used, sizeof(choices) - used, "%s\"%s\"",
					 used == 0   ? ""
					 : left == 0 ? " or "
						     : ", ",
					 names[i]);
		if (used >= sizeof(choices))
			break;
	}
	if (cfg_want_type(c, v, JSON_STRING, choices) < 0)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (names[i][0] != '\0' && strcmp(json_string_value(v), names[i]) == 0)
			return (int)i;
	return cfg_fail(c, "expected %s", choices);
}

int
cfg_member_string(struct cfg_ctx *c, const json_t *o, const char *key, bool ptp_socket, char *out,
		  size_t len)
{
	const json_t *x = json_object_get(o, key);
	size_t old;
	int rc = 0;

	if (x == NULL)
		return 0;
	old = cfg_push_key(c, key);
	if (cfg_get_string(c, x, out, len) < 0)
		return -EINVAL;
	if (ptp_socket && out[0] != '/')
		rc = cfg_fail(c, "\"%s\": ptp4l's socket is an absolute path (its uds_address)",
			      out);
	else if (out[0] == '-')
		rc = cfg_fail(c, "\"%s\" starts with \"-\": not a destination or path", out);
	cfg_pop(c, old);
	return rc;
}
