/* SPDX-License-Identifier: BSD-3-Clause */
/* "dut" (the device under test, its load command) and "output" (the report files). */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "cfg_int.h"
#include "fws_util.h"

/* "dut"'s keys and where each sits in struct fws_cfg_dut: read and written by this table. */
#define DUT_FIELD(key, m)                                                                          \
	{                                                                                          \
		key, offsetof(struct fws_cfg_dut, m), sizeof(((struct fws_cfg_dut *)0)->m)         \
	}
static const struct {
	const char *key;
	size_t off, len;
} fields[] = {
	DUT_FIELD("name", name),
	DUT_FIELD("firmware", firmware),
	DUT_FIELD("load_command", load_cmd),
	DUT_FIELD("telemetry", telemetry),
};
#undef DUT_FIELD

int
cfg_parse_dut(struct cfg_ctx *c, const json_t *v, struct fws_cfg_dut *d)
{
	static const char *const keys[] = {"name", "firmware", "load_command", "telemetry", NULL};
	const json_t *x;
	unsigned int i;
	size_t old;

	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	for (i = 0; i < FWS_DIM(fields); i++) {
		if ((x = json_object_get(v, fields[i].key)) == NULL)
			continue;
		old = cfg_push_key(c, fields[i].key);
		if (cfg_get_string(c, x, (char *)d + fields[i].off, fields[i].len) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	return 0;
}

int
cfg_sec_dut(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	return cfg_parse_dut(c, v, &t->cfg->dut);
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

json_t *
cfg_emit_dut(const struct fws_cfg *cfg)
{
	json_t *o;

	if (!cfg->dut.name[0] && !cfg->dut.firmware[0] && !cfg->dut.load_cmd[0] &&
	    !cfg->dut.telemetry[0])
		return NULL;
	o = json_object();
	cfg_emit_dut_fields(o, &cfg->dut);
	return o;
}

void
cfg_emit_dut_fields(json_t *o, const struct fws_cfg_dut *d)
{
	unsigned int i;

	for (i = 0; i < FWS_DIM(fields); i++)
		if (((const char *)d + fields[i].off)[0])
			json_object_set_new(o, fields[i].key,
					    json_string((const char *)d + fields[i].off));
}

json_t *
cfg_emit_output(const struct fws_cfg *cfg)
{
	return json_pack("{s:s, s:s}", "json", cfg->json_out, "text", cfg->text_out);
}
