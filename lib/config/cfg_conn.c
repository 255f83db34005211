/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "connections": the connection tests (fwstress connections). Every TCP stream's flows are
 * its connections: client i is flow i's source, on the stream's transmit port.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <jansson.h>

#include "fws_config.h"
#include "cfg_int.h"
#include "fws_util.h"

enum num_kind { N_DOUBLE, N_U16, N_U8, N_UINT };

/* The numeric keys: range, where they go, and their default. */
static const struct num_key {
	const char *key;
	double lo, hi, dflt;
	size_t off;
	enum num_kind kind;
} num_keys[] = {
	{"rate", 1, 1e8, 1000, offsetof(struct fws_cfg_conn, rate), N_DOUBLE},
	{"open_rate", 1, 1e8, 0, offsetof(struct fws_cfg_conn, open_rate), N_DOUBLE},
	{"reset_rate", 1, 1e8, 0, offsetof(struct fws_cfg_conn, reset_rate), N_DOUBLE},
	{"data", 0, FWS_CONN_MAX_DATA, 64, offsetof(struct fws_cfg_conn, data), N_U16},
	{"tries", 1, 8, 3, offsetof(struct fws_cfg_conn, tries), N_U8},
	{"retry", 0.01, 60, 1, offsetof(struct fws_cfg_conn, retry_s), N_DOUBLE},
	{"aging", 0, 3600, 2, offsetof(struct fws_cfg_conn, aging_s), N_DOUBLE},
	{"hold", 0, 86400, 0, offsetof(struct fws_cfg_conn, hold_s), N_DOUBLE},
	{"iterations", 1, 100, 1, offsetof(struct fws_cfg_conn, iterations), N_UINT},
};

#define TEST_NAME(n, s, d) s,
static const char *const test_names[] = {FWS_CONN_TESTS(TEST_NAME)};
#undef TEST_NAME

static void
num_set(struct fws_cfg_conn *k, const struct num_key *n, double v)
{
	uint8_t *p = (uint8_t *)k + n->off;

	switch (n->kind) {
	case N_DOUBLE:
		*(double *)p = v;
		break;
	case N_U16:
		*(uint16_t *)p = (uint16_t)v;
		break;
	case N_U8:
		*p = (uint8_t)v;
		break;
	case N_UINT:
		*(unsigned int *)p = (unsigned int)v;
	}
}

static double
num_get(const struct fws_cfg_conn *k, const struct num_key *n)
{
	const uint8_t *p = (const uint8_t *)k + n->off;

	switch (n->kind) {
	case N_DOUBLE:
		return *(const double *)p;
	case N_U16:
		return *(const uint16_t *)p;
	case N_U8:
		return *p;
	default:
		return *(const unsigned int *)p;
	}
}

static int
parse_num(struct cfg_ctx *c, const json_t *x, const struct num_key *n, struct fws_cfg_conn *k)
{
	size_t old = cfg_push_key(c, n->key);
	uint64_t u;

	if (n->kind == N_DOUBLE) {
		if (!json_is_number(x))
			return cfg_fail(c, "expected a number, got %s", cfg_type_name(x));
		if (!(json_number_value(x) >= n->lo && json_number_value(x) <= n->hi))
			return cfg_fail(c, "%g is outside %g-%g", json_number_value(x), n->lo,
					n->hi);
		num_set(k, n, json_number_value(x));
	} else {
		if (cfg_get_uint(c, x, (uint64_t)n->lo, (uint64_t)n->hi, &u) < 0)
			return -EINVAL;
		num_set(k, n, (double)u);
	}
	cfg_pop(c, old);
	return 0;
}

int
cfg_sec_connections(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	const char *keys[FWS_DIM(num_keys) + 2];
	struct fws_cfg_conn *k = &t->cfg->conn;
	const json_t *x;
	size_t i, old;
	int test;

	for (i = 0; i < FWS_DIM(num_keys); i++)
		keys[i] = num_keys[i].key;
	keys[i++] = "test";
	keys[i] = NULL;
	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	for (i = 0; i < FWS_DIM(num_keys); i++)
		num_set(k, &num_keys[i], num_keys[i].dflt);
	if ((x = json_object_get(v, "test")) == NULL)
		return cfg_fail(c, "give \"test\": \"rate\", \"capacity\" or \"teardown\"");
	old = cfg_push_key(c, "test");
	if ((test = cfg_pick_name(c, x, test_names, FWS_DIM(test_names))) < 0)
		return -EINVAL;
	cfg_pop(c, old);
	k->test = (enum fws_conn_test)test;
	for (i = 0; i < FWS_DIM(num_keys); i++)
		if ((x = json_object_get(v, num_keys[i].key)) != NULL &&
		    parse_num(c, x, &num_keys[i], k) < 0)
			return -EINVAL;
	if (k->open_rate == 0)
		k->open_rate = k->rate;
	if (k->reset_rate == 0)
		k->reset_rate = FWS_MAX(k->rate, 10000.0);
	return 0;
}

json_t *
cfg_emit_connections(const struct fws_cfg *cfg)
{
	json_t *o;
	size_t i;

	if (cfg->conn.test == FWS_CONN_NONE)
		return NULL;
	o = json_pack("{s:s}", "test", fws_conn_test_name(cfg->conn.test));
	for (i = 0; i < FWS_DIM(num_keys); i++)
		json_object_set_new(
			o, num_keys[i].key,
			num_keys[i].kind == N_DOUBLE
				? json_real(num_get(&cfg->conn, &num_keys[i]))
				: json_integer((json_int_t)num_get(&cfg->conn, &num_keys[i])));
	return o;
}

/* Every stream opens connections: TCP, at most 2^24 of them, 16 streams at most. */
int
cfg_apply_connections(struct cfg_ctx *c, struct fws_cfg *cfg)
{
	unsigned int s;

	if (cfg->conn.test == FWS_CONN_NONE)
		return 0;
	if (cfg->n_streams > FWS_CONN_MAX_SETS)
		return cfg_fail(c, "connections: at most %d streams", FWS_CONN_MAX_SETS);
	for (s = 0; s < cfg->n_streams; s++) {
		const struct fws_cfg_stream *st = &cfg->streams[s];

		if (st->l4 != cfg->streams[0].l4 || st->l4 == FWS_L4_SYN)
			return cfg_fail(c,
					"connections: stream \"%s\" is %s: every stream of a "
					"connection test is \"tcp\" (or every one \"udp\", RFC "
					"9693's UDP variant)",
					st->name, fws_l4_name(st->l4));
		if (st->l4 == FWS_L4_UDP && cfg->conn.test == FWS_CONN_TEARDOWN)
			return cfg_fail(c, "connections: teardown closes TCP connections: UDP has "
					   "none to close (\"l4\": \"tcp\")");
		if (st->app != FWS_APP_NONE)
			return cfg_fail(c, "connections: stream \"%s\": \"app\" is for trials",
					st->name);
	}
	return 0;
}
