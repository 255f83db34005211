/* SPDX-License-Identifier: BSD-3-Clause */
/* Campaign plans: parsed as strictly as a config, and each scenario's config put together. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fws_campaign.h"
#include "fws_compat.h"
#include "cfg_int.h"

static const char *const cmd_names[] = {FWS_CAMPAIGN_CMDS(CFG_NAME)};
static const char *const status_names[] = {FWS_CAMPAIGN_STATUSES(CFG_NAME)};
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

const char *
fws_campaign_cmd_name(enum fws_campaign_cmd c)
{
	return cfg_name_of(cmd_names, N_OF(cmd_names), c);
}

const char *
fws_campaign_status_name(enum fws_campaign_status s)
{
	return cfg_name_of(status_names, N_OF(status_names), s);
}

/* A file name from the plan: relative ones start at the plan's directory. */
static int
plan_path(struct cfg_ctx *c, const json_t *v, char *out, size_t len)
{
	char rel[FWS_CFG_PATH_LEN];

	if (cfg_get_string(c, v, rel, sizeof(rel)) < 0)
		return -EINVAL;
	if (rel[0] == '/' || c->base == NULL || !c->base[0])
		strlcpy(out, rel, len);
	else if ((size_t)snprintf(out, len, "%s/%s", c->base, rel) >= len)
		return cfg_fail(c, "\"%s\": the path is longer than %zu characters", rel, len - 1);
	return 0;
}

/* An optional string of the object at key; "" when absent. */
static int
opt_string(struct cfg_ctx *c, const json_t *o, const char *key, char *out, size_t len)
{
	const json_t *v = json_object_get(o, key);
	size_t old;
	int rc;

	out[0] = '\0';
	if (v == NULL)
		return 0;
	old = cfg_push_key(c, key);
	rc = cfg_get_string(c, v, out, len);
	cfg_pop(c, old);
	return rc;
}

/* A setup or teardown: a shell command run here, or {"host": NAME, "command": TEXT} run on
 * a host of the scenario's config (through its "shell"). */
static int
step(struct cfg_ctx *c, const json_t *o, const char *key, char *cmd, size_t len,
     char host[FWS_CFG_NAME_LEN])
{
	static const char *const keys[] = {"host", "command", NULL};
	const json_t *v = json_object_get(o, key);
	size_t old;
	int rc;

	host[0] = '\0';
	if (v == NULL || json_is_string(v))
		return opt_string(c, o, key, cmd, len);
	old = cfg_push_key(c, key);
	rc = cfg_want_type(c, v, JSON_OBJECT,
			   "a shell command, or {\"host\": NAME, \"command\": TEXT}");
	if (rc == 0)
		rc = cfg_check_keys(c, v, keys);
	if (rc == 0 && (json_object_get(v, "host") == NULL || !json_object_get(v, "command")))
		rc = cfg_fail(c, "needs both \"host\" (a host of the config) and \"command\"");
	if (rc == 0)
		rc = opt_string(c, v, "host", host, FWS_CFG_NAME_LEN);
	if (rc == 0)
		rc = opt_string(c, v, "command", cmd, len);
	cfg_pop(c, old);
	return rc;
}

static int
parse_dut(struct cfg_ctx *c, const json_t *v, struct fws_campaign *p)
{
	size_t old;
	int rc;

	if (v == NULL)
		return 0;
	old = cfg_push_key(c, "dut");
	rc = cfg_parse_dut(c, v, &p->dut); /* as a config's "dut" (cfg_dut.c) */
	if (rc == 0)
		cfg_pop(c, old);
	return rc;
}

static int
parse_wrap(struct cfg_ctx *c, const json_t *v, struct fws_campaign *p)
{
	size_t old, i;
	int rc;

	if (v == NULL)
		return 0;
	old = cfg_push_key(c, "wrap");
	rc = cfg_want_type(c, v, JSON_ARRAY, "a list of strings (a command prefix)");
	if (rc == 0 && json_array_size(v) > FWS_CAMPAIGN_MAX_WRAP)
		rc = cfg_fail(c, "at most %d words", FWS_CAMPAIGN_MAX_WRAP);
	for (i = 0; rc == 0 && i < json_array_size(v); i++) {
		size_t o2 = cfg_push_idx(c, i);

		rc = cfg_get_string(c, json_array_get(v, i), p->wrap[i], sizeof(p->wrap[i]));
		cfg_pop(c, o2);
	}
	p->n_wrap = rc == 0 ? (unsigned int)json_array_size(v) : 0;
	cfg_pop(c, old);
	return rc;
}

/* A scenario name becomes the cells' scenario and a file name in the work directory. */
static int
check_name(struct cfg_ctx *c, const struct fws_campaign *p, unsigned int i)
{
	const char *n = p->s[i].name;
	unsigned int k;

	if (strspn(n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+.-") !=
		    strlen(n) ||
	    n[0] == '.')
		return cfg_fail(c, "\"%s\": letters, digits and _ + . - only (it names files)", n);
	for (k = 0; k < i; k++)
		if (strcmp(p->s[k].name, n) == 0)
			return cfg_fail(c, "\"%s\" is the name of scenario %u too", n, k + 1);
	return 0;
}

static int
parse_scenario(struct cfg_ctx *c, const json_t *v, const char *base_cfg, struct fws_campaign *p,
	       unsigned int i)
{
	static const char *const keys[] = {"name",  "config",   "overrides", "command",
					   "setup", "teardown", NULL};
	struct fws_campaign_scenario *s = &p->s[i];
	const json_t *x;
	size_t old;
	int rc;

	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	old = cfg_push_key(c, "name");
	rc = (x = json_object_get(v, "name")) == NULL
		     ? cfg_fail(c, "missing")
		     : cfg_get_string(c, x, s->name, sizeof(s->name));
	if (rc == 0)
		rc = check_name(c, p, i);
	cfg_pop(c, old);
	if (rc < 0)
		return rc;
	old = cfg_push_key(c, "config");
	if ((x = json_object_get(v, "config")) != NULL)
		rc = plan_path(c, x, s->config, sizeof(s->config));
	else if (base_cfg[0])
		strlcpy(s->config, base_cfg, sizeof(s->config));
	else
		rc = cfg_fail(c, "missing, and the plan has no \"base\" config");
	cfg_pop(c, old);
	s->cmd = FWS_CAMPAIGN_SWEEP;
	if (rc == 0 && (x = json_object_get(v, "command")) != NULL) {
		old = cfg_push_key(c, "command");
		rc = cfg_pick_name(c, x, cmd_names, N_OF(cmd_names));
		s->cmd = rc >= 0 ? (enum fws_campaign_cmd)rc : s->cmd;
		rc = rc < 0 ? rc : 0;
		cfg_pop(c, old);
	}
	if (rc == 0 && (x = json_object_get(v, "overrides")) != NULL) {
		old = cfg_push_key(c, "overrides");
		rc = cfg_want_type(c, x, JSON_OBJECT, "an object (keys of the config)");
		if (rc == 0 && (s->overrides = json_dumps(x, JSON_COMPACT)) == NULL)
			rc = -ENOMEM;
		cfg_pop(c, old);
	}
	if (rc == 0)
		rc = step(c, v, "setup", s->setup, sizeof(s->setup), s->setup_host);
	if (rc == 0)
		rc = step(c, v, "teardown", s->teardown, sizeof(s->teardown), s->teardown_host);
	return rc;
}

static int
parse_scenarios(struct cfg_ctx *c, const json_t *v, const char *base_cfg, struct fws_campaign *p)
{
	size_t old = cfg_push_key(c, "scenarios"), i;
	int rc = 0;

	if (v == NULL)
		rc = cfg_fail(c, "missing: the list of scenarios to measure");
	else if (cfg_want_type(c, v, JSON_ARRAY, "a list of scenarios") < 0)
		rc = -EINVAL;
	else if (json_array_size(v) == 0 || json_array_size(v) > FWS_CAMPAIGN_MAX_SCENARIOS)
		rc = cfg_fail(c, "1 to %d scenarios, got %zu", FWS_CAMPAIGN_MAX_SCENARIOS,
			      json_array_size(v));
	for (i = 0; rc == 0 && i < json_array_size(v); i++) {
		size_t o2 = cfg_push_idx(c, i);

		p->n = (unsigned int)i + 1;
		rc = parse_scenario(c, json_array_get(v, i), base_cfg, p, (unsigned int)i);
		cfg_pop(c, o2);
	}
	cfg_pop(c, old);
	return rc;
}

static int
parse_plan(struct cfg_ctx *c, const json_t *root, struct fws_campaign *p)
{
	static const char *const keys[] = {"dut", "output", "wrap", "base", "scenarios", NULL};
	char base_cfg[FWS_CFG_PATH_LEN] = "";
	const json_t *v;
	size_t old;
	int rc;

	if (cfg_want_type(c, root, JSON_OBJECT, "an object") < 0 ||
	    cfg_check_keys(c, root, keys) < 0 ||
	    parse_dut(c, json_object_get(root, "dut"), p) < 0 ||
	    parse_wrap(c, json_object_get(root, "wrap"), p) < 0)
		return -EINVAL;
	strlcpy(p->output, "fwstress-campaign.json", sizeof(p->output));
	if ((v = json_object_get(root, "output")) != NULL) {
		old = cfg_push_key(c, "output");
		rc = plan_path(c, v, p->output, sizeof(p->output) - 2);
		cfg_pop(c, old);
		if (rc < 0)
			return rc;
	}
	strlcpy(p->workdir, p->output, sizeof(p->workdir));
	strlcat(p->workdir, ".d", sizeof(p->workdir)); /* output left room for it */
	if ((v = json_object_get(root, "base")) != NULL) {
		old = cfg_push_key(c, "base");
		rc = plan_path(c, v, base_cfg, sizeof(base_cfg));
		cfg_pop(c, old);
		if (rc < 0)
			return rc;
	}
	return parse_scenarios(c, json_object_get(root, "scenarios"), base_cfg, p);
}

/* "config: KEY: ..." from the section helpers becomes "campaign: PLAN: KEY: ...". */
static void
campaign_error(char *err, size_t errlen, const char *what)
{
	char msg[600];

	strlcpy(msg, strncmp(err, "config: ", 8) == 0 ? err + 8 : err, sizeof(msg));
	snprintf(err, errlen, "campaign: %s: %s", what, msg);
	cfg_one_line(err);
}

int
fws_campaign_parse(const char *buf, size_t len, const char *base, struct fws_campaign *p, char *err,
		   size_t errlen)
{
	struct cfg_ctx c = {.buf = buf, .len = len, .err = err, .errlen = errlen, .base = base};
	json_error_t jerr;
	json_t *root;
	int rc;

	memset(p, 0, sizeof(*p));
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (root == NULL) {
		snprintf(err, errlen, "campaign: line %d: %s", jerr.line, jerr.text);
		cfg_one_line(err);
		return -EINVAL;
	}
	rc = parse_plan(&c, root, p);
	json_decref(root);
	if (rc < 0) {
		campaign_error(err, errlen, "plan");
		fws_campaign_free(p);
	}
	return rc;
}

bool
fws_campaign_is_plan(const char *path)
{
	char err[256], *buf;
	json_t *root;
	size_t len;
	bool plan;

	if (cfg_read_file(path, FWS_CONFIG_MAX_BYTES, &buf, &len, err, sizeof(err), "campaign") < 0)
		return false;
	root = json_loadb(buf, len, 0, NULL);
	free(buf);
	plan = json_is_object(root) && json_object_get(root, "scenarios") != NULL;
	json_decref(root);
	return plan;
}

int
fws_campaign_load(const char *path, struct fws_campaign *p, char *err, size_t errlen)
{
	char base[FWS_CFG_PATH_LEN], *slash, *buf;
	size_t len;
	int rc;

	memset(p, 0, sizeof(*p));
	if ((rc = cfg_read_file(path, FWS_CONFIG_MAX_BYTES, &buf, &len, err, errlen, "campaign")) <
	    0) {
		cfg_one_line(err);
		return rc;
	}
	strlcpy(base, path, sizeof(base));
	slash = strrchr(base, '/');
	if (slash)
		*slash = '\0';
	rc = fws_campaign_parse(buf, len, slash ? base : NULL, p, err, errlen);
	free(buf);
	if (rc < 0 && strncmp(err, "campaign: plan: ", 16) == 0) {
		char msg[600];

		strlcpy(msg, err + 16, sizeof(msg));
		snprintf(err, errlen, "campaign: %s: %s", path, msg);
	}
	return rc;
}

void
fws_campaign_free(struct fws_campaign *p)
{
	unsigned int i;

	for (i = 0; i < p->n; i++) {
		free(p->s[i].overrides);
		p->s[i].overrides = NULL;
	}
}

/* Overrides into a config: objects merged key by key, anything else replaced. */
static void
merge(json_t *dst, json_t *src)
{
	const char *key;
	json_t *v;

	json_object_foreach(src, key, v)
	{
		json_t *d = json_object_get(dst, key);

		if (json_is_object(d) && json_is_object(v))
			merge(d, v);
		else
			json_object_set(dst, key, v);
	}
}

/* A relative blocklist file starts at the config's directory, wherever the copy goes: made
 * absolute, since the copy is read from the campaign's own folder (a plan named by a relative
 * path gave "config/drop.txt", which the child then read under its copy's folder: issue 51,
 * item 11). */
static void
absolute_blocklists(json_t *root, const char *config_dir)
{
	json_t *b = json_object_get(root, "blocklist"), *a;
	char *dir = realpath(config_dir, NULL);
	size_t i;

	if (json_is_string(b)) {
		a = json_array();
		json_array_append(a, b);
	} else if (json_is_array(b)) {
		a = json_deep_copy(b);
	} else {
		free(dir);
		return;
	}
	for (i = 0; i < json_array_size(a); i++) {
		const char *s = json_string_value(json_array_get(a, i));
		char path[FWS_CFG_PATH_LEN * 2];

		if (s == NULL || s[0] == '/')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir ? dir : config_dir, s);
		json_array_set_new(a, i, json_string(path));
	}
	json_object_set_new(root, "blocklist", a);
	free(dir);
}

/* The plan's DUT over the config's. */
static void
set_dut(json_t *root, const struct fws_campaign *p)
{
	json_t *d = json_object_get(root, "dut");

	if (!json_is_object(d)) {
		d = json_object();
		json_object_set_new(root, "dut", d);
	}
	cfg_emit_dut_fields(d, &p->dut); /* its non-empty keys over the config's */
}

static char *
config_json(const struct fws_campaign *p, unsigned int i, char *err, size_t errlen)
{
	const struct fws_campaign_scenario *s = &p->s[i];
	char dir[FWS_CFG_PATH_LEN], *slash, *buf, *text = NULL;
	json_error_t jerr;
	json_t *root, *ov;
	size_t len;

	if (cfg_read_file(s->config, FWS_CONFIG_MAX_BYTES, &buf, &len, err, errlen, "config") < 0)
		return NULL;
	root = json_loadb(buf, len, 0, &jerr);
	free(buf);
	if (!json_is_object(root)) {
		snprintf(err, errlen, "config: %s: line %d: %s", s->config, jerr.line,
			 root ? "not an object" : jerr.text);
		json_decref(root);
		return NULL;
	}
	if (s->overrides && (ov = json_loads(s->overrides, 0, NULL)) != NULL) {
		merge(root, ov);
		json_decref(ov);
	}
	strlcpy(dir, s->config, sizeof(dir));
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	absolute_blocklists(root, slash ? dir : ".");
	set_dut(root, p);
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (text == NULL)
		snprintf(err, errlen, "campaign: out of memory");
	return text;
}

char *
fws_campaign_config_text(const struct fws_campaign *p, unsigned int i, char *err, size_t errlen)
{
	char *text = config_json(p, i, err, errlen);
	struct fws_cfg *cfg;

	if (text == NULL) {
		cfg_one_line(err);
		return NULL;
	}
	cfg = fws_config_parse(text, strlen(text), err, errlen);
	if (cfg == NULL) {
		char msg[600];

		strlcpy(msg, err, sizeof(msg));
		snprintf(err, errlen, "scenario %s (%s with its overrides): %s", p->s[i].name,
			 p->s[i].config, msg);
		cfg_one_line(err);
		free(text);
		return NULL;
	}
	fws_config_free(cfg);
	return text;
}
