/* SPDX-License-Identifier: BSD-3-Clause */
/* The methods' keys: "search" (NDR/PDR) and "sweep", parsed, checked and emitted. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "cfg_int.h"

int
cfg_sec_search(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	struct fws_cfg_search *s = &t->cfg->search;
	static const char *const keys[] = {"short", "final",      "width", "pdr",
					   "min",   "max_trials", NULL};
	const json_t *x;
	uint64_t u;
	size_t old;

	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
#define SEARCH(key, expr)                                                                          \
	if ((x = json_object_get(v, key)) != NULL) {                                               \
		old = cfg_push_key(c, key);                                                        \
		if ((expr) < 0)                                                                    \
			return -EINVAL;                                                            \
		cfg_pop(c, old);                                                                   \
	}
	SEARCH("short", cfg_get_seconds(c, x, 0.1, 3600, &s->short_s));
	SEARCH("final", cfg_get_seconds(c, x, 0.1, 86400, &s->final_s));
	SEARCH("width", cfg_get_percent(c, x, 0, 50, &s->width));
	SEARCH("pdr", cfg_get_percent(c, x, 0, 50, &s->pdr));
	SEARCH("min", cfg_get_percent(c, x, 0, 50, &s->min_load));
	SEARCH("max_trials", cfg_get_uint(c, x, 2, 200, &u));
#undef SEARCH
	if (x)
		s->max_trials = (unsigned int)u;
	if (s->final_s < s->short_s) {
		old = cfg_push_key(c, "final");
		return cfg_fail(c, "the final trials (%g s) are shorter than the short ones (%g s)",
				s->final_s, s->short_s);
	}
	return 0;
}

int
cfg_sec_sweep(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	struct fws_cfg_sweep *w = &t->cfg->sweep;
	static const char *const keys[] = {"directions",     "mode",         "latency_at",
					   "latency_repeat", "back_to_back", NULL};
	const json_t *x, *e;
	size_t i, old, o2;

	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	if ((x = json_object_get(v, "directions")) != NULL) {
		old = cfg_push_key(c, "directions");
		if (!json_is_array(x) || json_array_size(x) == 0 || json_array_size(x) > 3)
			return cfg_fail(c,
					"expected 1 to 3 of \"upload\", \"download\", \"bidir\"");
		w->n_dirs = 0;
		w->dirs_given = true;
		json_array_foreach(x, i, e)
		{
			o2 = cfg_push_idx(c, i);
			if (!json_is_string(e) || fws_dir_of(json_string_value(e)) == FWS_DIR_NONE)
				return cfg_fail(c,
						"expected \"upload\", \"download\" or \"bidir\"");
			w->dirs[w->n_dirs++] = fws_dir_of(json_string_value(e));
			cfg_pop(c, o2);
		}
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "mode")) != NULL) {
		old = cfg_push_key(c, "mode");
		if (!json_is_string(x) || (strcmp(json_string_value(x), "search") &&
					   strcmp(json_string_value(x), "fixed")))
			return cfg_fail(c,
					"expected \"search\" (NDR/PDR per cell) or \"fixed\" (one "
					"trial at the rate)");
		w->search = strcmp(json_string_value(x), "search") == 0;
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "latency_at")) != NULL) {
		old = cfg_push_key(c, "latency_at");
		if (!json_is_array(x) || json_array_size(x) > 8)
			return cfg_fail(c, "expected up to 8 percentages of NDR, e.g. [\"10%%\", "
					   "\"50%%\", \"90%%\"]");
		w->n_lat = 0;
		json_array_foreach(x, i, e)
		{
			o2 = cfg_push_idx(c, i);
			if (cfg_get_percent(c, e, 0, 100, &w->lat[w->n_lat]) < 0)
				return -EINVAL;
			w->n_lat++;
			cfg_pop(c, o2);
		}
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "latency_repeat")) != NULL) {
		uint64_t u;

		old = cfg_push_key(c, "latency_repeat");
		if (cfg_get_uint(c, x, 1, FWS_CFG_MAX_REPEAT, &u) < 0)
			return -EINVAL;
		w->lat_repeat = (unsigned int)u;
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "back_to_back")) != NULL) {
		static const char *const bk[] = {"repeat", "seconds", NULL};
		const json_t *y;
		uint64_t u;

		old = cfg_push_key(c, "back_to_back");
		if (cfg_want_type(c, x, JSON_OBJECT, "an object") < 0 ||
		    cfg_check_keys(c, x, bk) < 0)
			return -EINVAL;
		w->b2b_repeat = FWS_RFC_B2B_TRIALS;
		if ((y = json_object_get(x, "repeat")) != NULL) {
			o2 = cfg_push_key(c, "repeat");
			if (cfg_get_uint(c, y, 1, FWS_CFG_MAX_B2B, &u) < 0)
				return -EINVAL;
			w->b2b_repeat = (unsigned int)u;
			cfg_pop(c, o2);
		}
		if ((y = json_object_get(x, "seconds")) != NULL) {
			o2 = cfg_push_key(c, "seconds");
			if (cfg_get_seconds(c, y, 0.001, 10, &w->b2b_seconds) < 0)
				return -EINVAL;
			cfg_pop(c, o2);
		}
		cfg_pop(c, old);
	}
	return 0;
}

/* The directions the streams can be swept in: upload and download where a measured stream
 * has that role, bidir where both do. */
static bool
sweep_dir_fits(const struct fws_cfg *cfg, enum fws_dir d)
{
	bool up = false, down = false;
	unsigned int s;

	for (s = 0; s < cfg->n_streams; s++) {
		up |= !cfg->streams[s].learn_only && cfg->streams[s].dir == FWS_DIR_UPLOAD;
		down |= !cfg->streams[s].learn_only && cfg->streams[s].dir == FWS_DIR_DOWNLOAD;
	}
	return d == FWS_DIR_UPLOAD ? up : d == FWS_DIR_DOWNLOAD ? down : up && down;
}

/* A sweep cell measures its direction's streams, and no other: a direction named in
 * sweep.directions with no stream of its own is refused (it would measure the others under
 * its name); the default list keeps those the streams have. Streams without a direction
 * role (explicit streams) are swept once, as they are (no directions: n_dirs 0). */
int
cfg_sweep_fit(struct cfg_ctx *c, struct fws_cfg *cfg)
{
	struct fws_cfg_sweep *w = &cfg->sweep;
	unsigned int i, n = 0;

	if (!sweep_dir_fits(cfg, FWS_DIR_UPLOAD) && !sweep_dir_fits(cfg, FWS_DIR_DOWNLOAD)) {
		if (w->dirs_given) {
			cfg_push_key(c, "sweep");
			cfg_push_key(c, "directions");
			return cfg_fail(c,
					"the streams have no direction (explicit streams): give "
					"them \"direction\": \"upload\" or \"download\", or leave "
					"sweep.directions out (they are then swept as they are)");
		}
		w->n_dirs = 0;
		return 0;
	}
	w->dirs_skipped = 0;
	for (i = 0; i < w->n_dirs; i++) {
		if (sweep_dir_fits(cfg, w->dirs[i])) {
			w->dirs[n++] = w->dirs[i];
			continue;
		}
		if (!w->dirs_given) {
			w->dirs_skipped |= 1u << w->dirs[i];
			continue;
		}
		cfg_push_key(c, "sweep");
		cfg_push_key(c, "directions");
		cfg_push_idx(c, i);
		return cfg_fail(c,
				"\"%s\": the streams go %s only: give \"direction\": \"bidir\" (or "
				"streams each way), or leave \"%s\" out",
				fws_dir_name(w->dirs[i]),
				sweep_dir_fits(cfg, FWS_DIR_UPLOAD) ? "upload" : "download",
				fws_dir_name(w->dirs[i]));
	}
	w->n_dirs = n;
	return 0;
}

static json_t *
percent_json(double fraction)
{
	return json_sprintf("%.10g%%", fraction * 100);
}

json_t *
cfg_emit_search(const struct fws_cfg *cfg)
{
	const struct fws_cfg_search *s = &cfg->search;

	return json_pack("{s:f, s:f, s:o, s:o, s:o, s:i}", "short", s->short_s, "final", s->final_s,
			 "width", percent_json(s->width), "pdr", percent_json(s->pdr), "min",
			 percent_json(s->min_load), "max_trials", s->max_trials);
}

json_t *
cfg_emit_sweep(const struct fws_cfg *cfg)
{
	json_t *dirs = json_array(), *lat = json_array(), *o;
	unsigned int i;

	for (i = 0; i < cfg->sweep.n_dirs; i++)
		json_array_append_new(dirs, json_string(fws_dir_name(cfg->sweep.dirs[i])));
	for (i = 0; i < cfg->sweep.n_lat; i++)
		json_array_append_new(lat, percent_json(cfg->sweep.lat[i]));
	o = json_pack("{s:s, s:o, s:i}", "mode", cfg->sweep.search ? "search" : "fixed",
		      "latency_at", lat, "latency_repeat", cfg->sweep.lat_repeat);
	if (cfg->sweep.n_dirs) /* none: streams without a direction, swept as they are */
		json_object_set_new(o, "directions", dirs);
	else
		json_decref(dirs);
	if (cfg->sweep.b2b_repeat)
		json_object_set_new(o, "back_to_back",
				    json_pack("{s:i, s:f}", "repeat", cfg->sweep.b2b_repeat,
					      "seconds", cfg->sweep.b2b_seconds));
	return o;
}
