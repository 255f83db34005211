/* SPDX-License-Identifier: BSD-3-Clause */
/* "dut" (the device under test, its load command) and "output" (the report files). */
#include <errno.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "cfg_int.h"

int
cfg_sec_dut(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	struct fws_cfg *cfg = t->cfg;
	static const char *const keys[] = {"name", "firmware", "load_command", "telemetry", NULL};
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
	if ((x = json_object_get(v, "telemetry")) != NULL) {
		old = cfg_push_key(c, "telemetry");
		if (cfg_get_string(c, x, cfg->dut_telemetry, sizeof(cfg->dut_telemetry)) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
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

json_t *
cfg_emit_dut(const struct fws_cfg *cfg)
{
	json_t *o;

	if (!cfg->dut_name[0] && !cfg->dut_firmware[0] && !cfg->dut_load_cmd[0] &&
	    !cfg->dut_telemetry[0])
		return NULL;
	o = json_object();
	if (cfg->dut_name[0])
		json_object_set_new(o, "name", json_string(cfg->dut_name));
	if (cfg->dut_firmware[0])
		json_object_set_new(o, "firmware", json_string(cfg->dut_firmware));
	if (cfg->dut_load_cmd[0])
		json_object_set_new(o, "load_command", json_string(cfg->dut_load_cmd));
	if (cfg->dut_telemetry[0])
		json_object_set_new(o, "telemetry", json_string(cfg->dut_telemetry));
	return o;
}

json_t *
cfg_emit_output(const struct fws_cfg *cfg)
{
	return json_pack("{s:s, s:s}", "json", cfg->json_out, "text", cfg->text_out);
}
