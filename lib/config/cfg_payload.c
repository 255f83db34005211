/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a frame carries after its signature, and IPv4's don't-fragment bit: "payload"
 * ({"fill", "df"}) for every stream, a stream's own "fill" and "df" over it. A fill is
 * "counter" (the default), "zero", "random" (fixed for the run: incompressible, what a
 * compressing tunnel must not shrink) or a hex pattern ("0x00ff...", up to 32 bytes).
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include <jansson.h>

#include "fws_config.h"
#include "cfg_int.h"
#include "fws_util.h"

static const char *const fill_names[] = {
#define FILL_NAME(n, s, d) s,
	FWS_FILLS(FILL_NAME)
#undef FILL_NAME
};

/* "0x" and 1 to 32 bytes of hex digits. */
static int
parse_pattern(struct cfg_ctx *c, const char *s, struct fws_cfg_fill *f)
{
	size_t n = strlen(s + 2), i;

	if (n == 0 || n % 2 || n / 2 > FWS_FILL_PATTERN_MAX)
		return cfg_fail(c, "\"%.80s\": a pattern is 0x and 1 to %d bytes in hex", s,
				FWS_FILL_PATTERN_MAX);
	for (i = 0; i < n; i += 2) {
		unsigned int b;

		if (!isxdigit((unsigned char)s[2 + i]) || !isxdigit((unsigned char)s[3 + i]) ||
		    sscanf(s + 2 + i, "%2x", &b) != 1)
			return cfg_fail(c, "\"%.80s\": not hex at byte %zu", s, i / 2 + 1);
		f->pattern[i / 2] = (uint8_t)b;
	}
	f->len = (uint8_t)(n / 2);
	f->kind = FWS_FILL_PATTERN;
	return 0;
}

static int
parse_fill(struct cfg_ctx *c, const json_t *x, struct fws_cfg_fill *f)
{
	const char *s;
	size_t i, old = cfg_push_key(c, "fill");

	if (cfg_want_type(c, x, JSON_STRING,
			  "\"counter\", \"zero\", \"random\" or a hex pattern \"0x...\"") < 0)
		return -EINVAL;
	s = json_string_value(x);
	f->set = true;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (parse_pattern(c, s, f) < 0)
			return -EINVAL;
		cfg_pop(c, old);
		return 0;
	}
	for (i = 0; i < FWS_DIM(fill_names); i++)
		if (i != FWS_FILL_PATTERN && strcmp(s, fill_names[i]) == 0) {
			f->kind = (enum fws_fill)i;
			cfg_pop(c, old);
			return 0;
		}
	return cfg_fail(c,
			"\"%.80s\": give \"counter\", \"zero\", \"random\" or a hex pattern "
			"\"0x...\"",
			s);
}

/* "fill" and "df" of v (an object: "payload" or a stream) into f. */
int
cfg_parse_fill(struct cfg_ctx *c, const json_t *v, struct fws_cfg_fill *f)
{
	const json_t *x;
	size_t old;

	if ((x = json_object_get(v, "fill")) != NULL && parse_fill(c, x, f) < 0)
		return -EINVAL;
	if ((x = json_object_get(v, "df")) != NULL) {
		old = cfg_push_key(c, "df");
		if (!json_is_boolean(x))
			return cfg_fail(c, "expected true or false, got %s", cfg_type_name(x));
		f->df = json_is_true(x);
		f->df_set = true;
		cfg_pop(c, old);
	}
	return 0;
}

int
cfg_sec_payload(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	static const char *const keys[] = {"fill", "df", NULL};

	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	return cfg_parse_fill(c, v, &t->cfg->fill);
}

/* A fill as configs write it. */
static json_t *
fill_json(const struct fws_cfg_fill *f)
{
	char hex[2 + 2 * FWS_FILL_PATTERN_MAX + 1] = "0x";
	unsigned int i;

	if (f->kind != FWS_FILL_PATTERN)
		return json_string(fill_names[f->kind]);
	for (i = 0; i < f->len; i++)
		snprintf(hex + 2 + 2 * i, 3, "%02x", f->pattern[i]);
	return json_string(hex);
}

json_t *
cfg_emit_payload(const struct fws_cfg *cfg)
{
	if (!cfg->fill.set && !cfg->fill.df_set)
		return NULL;
	return json_pack("{s:o, s:b}", "fill", fill_json(&cfg->fill), "df", cfg->fill.df);
}

/* A stream's "fill" and "df" for the emitted config. */
void
cfg_emit_stream_fill(json_t *o, const struct fws_cfg_stream *s)
{
	json_object_set_new(o, "fill", fill_json(&s->fill));
	if (!s->flows.ipv6)
		json_object_set_new(o, "df", json_boolean(s->fill.df));
}

/* Every stream without its own takes the config's; DF is IPv4's. */
int
cfg_apply_fill(struct cfg_ctx *c, struct fws_cfg *cfg)
{
	unsigned int s;

	for (s = 0; s < cfg->n_streams; s++) {
		struct fws_cfg_fill *f = &cfg->streams[s].fill;

		if (!f->set) {
			f->kind = cfg->fill.kind;
			f->len = cfg->fill.len;
			memcpy(f->pattern, cfg->fill.pattern, sizeof(f->pattern));
		}
		if (!f->df_set)
			f->df = cfg->fill.df && !cfg->streams[s].flows.ipv6;
		if (f->df && cfg->streams[s].flows.ipv6)
			return cfg_fail(c,
					"stream \"%s\": \"df\" is IPv4's (IPv6 routers never "
					"fragment: packets too big for a link are dropped)",
					cfg->streams[s].name);
	}
	return 0;
}
