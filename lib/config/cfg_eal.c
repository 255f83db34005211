/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * "eal" and "lcores": the EAL arguments and the lcores per role, parsed and emitted; and the
 * config's "eal" list and the command line's EAL arguments as one list: the command
 * line's come after, and where EAL takes an option once (a core list, a file prefix) or
 * not with another of its kind (-l, -c, --lcores), the command line's replaces the config's.
 * EAL refuses "-l 0-1 ... -l 2-3" outright, so appending alone would turn an override into
 * a failed start. Options EAL takes many times (-a, --vdev, --log-level) add up.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "cfg_int.h"
#include "fws_util.h"

/* name, whether a value follows it (or "=VALUE"), its group: of one group EAL takes one
 * (0: each one counts, they add up). */
static const struct {
	const char *name;
	bool value;
	unsigned int group;
} eal_opts[] = {
	{"-l", true, 1},
	{"-c", true, 1},
	{"--lcores", true, 1},
	{"-s", true, 2},
	{"-S", true, 2},
	{"--main-lcore", true, 3},
	{"-n", true, 4},
	{"-r", true, 5},
	{"-m", true, 6},
	{"--socket-mem", true, 6},
	{"--socket-limit", true, 7},
	{"--file-prefix", true, 8},
	{"--huge-dir", true, 9},
	{"--proc-type", true, 10},
	{"--iova-mode", true, 11},
	{"--base-virtaddr", true, 12},
	{"--in-memory", false, 13},
	{"--no-huge", false, 14},
	{"--no-pci", false, 15},
	{"--no-hpet", false, 16},
	{"--no-shconf", false, 17},
	{"--legacy-mem", false, 18},
	{"--single-file-segments", false, 19},
	{"--telemetry", false, 20},
	{"--no-telemetry", false, 20},
	{"--syslog", true, 21},
	{"--vfio-intr", true, 22},
	{"--vfio-vf-token", true, 23},
	{"--mbuf-pool-ops-name", true, 24},
	{"--force-max-simd-bitwidth", true, 25},
	{"--huge-unlink", false, 26},
	{"--match-allocations", false, 27},
	{"--create-uio-dev", false, 28},
	{"--trace-dir", true, 29},
	{"--trace-bufsz", true, 30},
	{"--trace-mode", true, 31},
	{"--huge-worker-stack", false, 32},
	{"-a", true, 0},
	{"--allow", true, 0},
	{"-b", true, 0},
	{"--block", true, 0},
	{"--vdev", true, 0},
	{"-d", true, 0},
	{"--log-level", true, 0},
	{"--trace", true, 0},
};

/* The option arg is (its table entry, -1: not one EAL has), and how many words it takes. */
static int
opt_of(const char *arg, unsigned int *words)
{
	size_t n;
	unsigned int i;

	*words = 1;
	for (i = 0; i < FWS_DIM(eal_opts); i++) {
		n = strlen(eal_opts[i].name);
		if (strncmp(arg, eal_opts[i].name, n) != 0)
			continue;
		if (arg[n] == '\0') { /* -l 0-1, --file-prefix x, --no-pci */
			*words = eal_opts[i].value ? 2 : 1;
			return (int)i;
		}
		if (arg[n] == '=' || (n == 2 && arg[1] != '-')) /* --file-prefix=x, -l0-1 */
			return (int)i;
	}
	return -1;
}

/* Whether list (n words) has an option of group g. */
static bool
has_group(char *const *list, unsigned int n, unsigned int g)
{
	unsigned int i, w;
	int k;

	for (i = 0; i < n; i += w) {
		k = opt_of(list[i], &w);
		if (k >= 0 && eal_opts[k].group == g)
			return true;
	}
	return false;
}

int
fws_config_eal_merge(struct fws_cfg *cfg, char *const *cli, unsigned int n_cli, char *err,
		     size_t errlen)
{
	char *keep[FWS_CFG_MAX_EAL];
	unsigned int i, j, w, n = 0;
	int k;

	for (i = 0; i < cfg->n_eal; i += w) {
		k = opt_of(cfg->eal[i], &w);
		w = i + w > cfg->n_eal ? cfg->n_eal - i : w;
		for (j = 0; j < w; j++) { /* the command line has one of its kind: drop it */
			if (k >= 0 && eal_opts[k].group && has_group(cli, n_cli, eal_opts[k].group))
				free(cfg->eal[i + j]);
			else
				keep[n++] = cfg->eal[i + j];
		}
	}
	if (n + n_cli > FWS_CFG_MAX_EAL) {
		snprintf(
			err, errlen,
			"EAL arguments: the config's %u and the command line's %u are more than %d",
			n, n_cli, FWS_CFG_MAX_EAL);
		memcpy(cfg->eal, keep, n * sizeof(*keep));
		cfg->n_eal = n;
		return -E2BIG;
	}
	for (i = 0; i < n_cli; i++)
		if ((keep[n] = strdup(cli[i])) != NULL)
			n++;
	memcpy(cfg->eal, keep, n * sizeof(*keep));
	cfg->n_eal = n;
	return 0;
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

json_t *
cfg_emit_eal(const struct fws_cfg *cfg)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < cfg->n_eal; i++)
		json_array_append_new(a, json_string(cfg->eal[i]));
	return a;
}

json_t *
cfg_emit_lcores(const struct fws_cfg *cfg)
{
	json_t *tx, *rx;
	unsigned int i;

	if (!cfg->n_tx_lcores)
		return NULL;
	tx = json_array();
	rx = json_array();
	for (i = 0; i < cfg->n_tx_lcores; i++)
		json_array_append_new(tx, json_integer(cfg->tx_lcores[i]));
	for (i = 0; i < cfg->n_rx_lcores; i++)
		json_array_append_new(rx, json_integer(cfg->rx_lcores[i]));
	return json_pack("{s:o, s:o}", "tx", tx, "rx", rx);
}
