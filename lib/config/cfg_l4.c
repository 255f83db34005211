/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Config of the streams' transport: "l4" (UDP or TCP, globally and per stream), a TCP
 * stream's "app" (the preamble its connections open with), "tcp" (fault injection), and
 * what follows once every stream exists: TCP's limits, and both directions of TCP kept
 * apart as connections.
 */
#include <errno.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "fws_sig.h"
#include "cfg_int.h"
#include "fws_util.h"

static const char *const l4_names[] = {FWS_L4S(CFG_NAME)};

const char *
fws_l4_name(enum fws_l4 l)
{
	return cfg_name_of(l4_names, FWS_DIM(l4_names), l);
}

int
cfg_stream_l4(struct cfg_ctx *c, const json_t *x, struct fws_cfg_stream *s)
{
	int i = cfg_pick_name(c, x, l4_names, FWS_DIM(l4_names));

	if (i < 0)
		return -EINVAL;
	s->l4 = (enum fws_l4)i;
	return 0;
}

int
cfg_sec_l4(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	struct fws_cfg_stream tmp = {0};

	if (cfg_stream_l4(c, v, &tmp) < 0)
		return -EINVAL;
	if (tmp.l4 == FWS_L4_SYN)
		return cfg_fail(c, "\"syn\" is a stream's (a SYN flood beside the streams it "
				   "loads), not every stream's");
	t->cfg->l4 = tmp.l4;
	return 0;
}

json_t *
cfg_emit_l4(const struct fws_cfg *cfg)
{
	return json_string(fws_l4_name(cfg->l4 == FWS_L4_TCP ? FWS_L4_TCP : FWS_L4_UDP));
}

/*
 * TCP both ways: a download's connections are the reverse of the upload's flows, the same
 * client addresses and ports to the same server, which would be the same connections. The
 * download's server ports move above the upload's (below them at the top of the range).
 */
static void
separate_bidir(struct fws_cfg *cfg, struct fws_cfg_stream *d)
{
	unsigned int s;

	for (s = 0; s < cfg->n_streams; s++) {
		const struct fws_cfg_stream *u = &cfg->streams[s];
		struct fws_flow_spec rev;
		uint16_t w;

		if (u->l4 != FWS_L4_TCP || u->dir != FWS_DIR_UPLOAD)
			continue;
		fws_cfg_reverse_flows(&u->flows, &rev);
		if (rev.count != d->flows.count || rev.src_ip_lo != d->flows.src_ip_lo ||
		    rev.src_ip_hi != d->flows.src_ip_hi || rev.dst_ip_lo != d->flows.dst_ip_lo ||
		    rev.dst_ip_hi != d->flows.dst_ip_hi ||
		    rev.src_port_lo != d->flows.src_port_lo ||
		    rev.src_port_hi != d->flows.src_port_hi ||
		    rev.dst_port_lo != d->flows.dst_port_lo ||
		    rev.dst_port_hi != d->flows.dst_port_hi)
			continue;
		w = (uint16_t)(u->flows.dst_port_hi - u->flows.dst_port_lo + 1);
		if (d->flows.src_port_hi <= 65535 - w) {
			d->flows.src_port_lo += w;
			d->flows.src_port_hi += w;
		} else {
			d->flows.src_port_lo -= w;
			d->flows.src_port_hi -= w;
		}
		return;
	}
}

int
cfg_sec_tcp(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	static const char *const keys[] = {"seq_offset", NULL};
	const json_t *x;
	uint64_t u;
	size_t old;

	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	if ((x = json_object_get(v, "seq_offset")) != NULL) {
		old = cfg_push_key(c, "seq_offset");
		if (cfg_get_uint(c, x, 0, UINT32_MAX, &u) < 0)
			return -EINVAL;
		t->cfg->tcp_seq_offset = (uint32_t)u;
		cfg_pop(c, old);
	}
	return 0;
}

json_t *
cfg_emit_tcp(const struct fws_cfg *cfg)
{
	return cfg->tcp_seq_offset
		       ? json_pack("{s:I}", "seq_offset", (json_int_t)cfg->tcp_seq_offset)
		       : NULL;
}

int
cfg_apply_l4(struct cfg_ctx *c, struct fws_cfg *cfg)
{
	unsigned int s;

	for (s = 0; s < cfg->n_streams; s++) {
		struct fws_cfg_stream *st = &cfg->streams[s];

		if (st->l4 == FWS_L4_UNSET)
			st->l4 = cfg->l4 == FWS_L4_TCP ? FWS_L4_TCP : FWS_L4_UDP;
		if (st->l4 != FWS_L4_TCP && st->app != FWS_APP_NONE)
			return cfg_fail(c,
					"stream \"%s\": \"app\" opens TCP connections: it needs "
					"\"l4\": \"tcp\"",
					st->name);
		if (st->l4 == FWS_L4_SYN && st->flows.count > FWS_SIG_MAX_FLOWS)
			return cfg_fail(c, "stream \"%s\": at most %u SYN flood sources", st->name,
					FWS_SIG_MAX_FLOWS);
		if (st->l4 != FWS_L4_TCP)
			continue;
		if (st->app != FWS_APP_NONE && st->dir == FWS_DIR_DOWNLOAD)
			return cfg_fail(
				c,
				"stream \"%s\": \"app\": the client's request opens the data "
				"it sends: upload streams only",
				st->name);
		if (st->flows.count > FWS_SIG_MAX_FLOWS)
			return cfg_fail(c, "stream \"%s\": at most %u TCP connections", st->name,
					FWS_SIG_MAX_FLOWS);
		if (st->dir == FWS_DIR_DOWNLOAD)
			separate_bidir(cfg, st);
	}
	return 0;
}

static const char *const app_names[] = {FWS_APPS(CFG_NAME)};

const char *
fws_app_name(enum fws_app a)
{
	return cfg_name_of(app_names, FWS_DIM(app_names), a);
}

/* "app": {"tls_sni": NAME} or {"http_host": NAME}, one of them. */
int
cfg_stream_app(struct cfg_ctx *c, const json_t *x, struct fws_cfg_stream *s)
{
	static const char *const keys[] = {"tls_sni", "http_host", NULL};
	const char *key;
	json_t *v;
	size_t i, old;

	if (cfg_want_type(c, x, JSON_OBJECT, "{\"tls_sni\": NAME} or {\"http_host\": NAME}") < 0 ||
	    cfg_check_keys(c, x, keys) < 0)
		return -EINVAL;
	if (json_object_size(x) != 1)
		return cfg_fail(c, "give one of \"tls_sni\" or \"http_host\"");
	json_object_foreach((json_t *)x, key, v)
	{
		old = cfg_push_key(c, key);
		if (cfg_get_string(c, v, s->app_name, sizeof(s->app_name)) < 0)
			return -EINVAL;
		for (i = 0; s->app_name[i]; i++)
			if ((unsigned char)s->app_name[i] <= ' ' || s->app_name[i] == 0x7f)
				return cfg_fail(c,
						"\"%s\": a host name has no spaces or control "
						"characters",
						s->app_name);
		cfg_pop(c, old);
		s->app = strcmp(key, "tls_sni") == 0 ? FWS_APP_TLS : FWS_APP_HTTP;
	}
	return 0;
}
