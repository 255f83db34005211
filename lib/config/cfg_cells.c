/* SPDX-License-Identifier: BSD-3-Clause */
/* Report cells read back (report, compare, sweep --resume): JSON input, so it lives here. */
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
#include "cfg_int.h"

/* Report cells: our own output read back, checked as strictly as a config. */
static int
cell_str(struct cfg_ctx *c, const json_t *o, const char *key, char *out, size_t len)
{
	const json_t *v = json_object_get(o, key);
	size_t old = cfg_push_key(c, key);

	if (!json_is_string(v))
		return cfg_fail(c, "expected a string, got %s", v ? cfg_type_name(v) : "nothing");
	strlcpy(out, json_string_value(v), len);
	cfg_pop(c, old);
	return 0;
}

static int
cell_num(struct cfg_ctx *c, const json_t *o, const char *key, double *out, double dflt)
{
	const json_t *v = json_object_get(o, key);
	size_t old;

	if (v == NULL || json_is_null(v)) {
		*out = dflt;
		return 0;
	}
	old = cfg_push_key(c, key);
	if (!json_is_number(v))
		return cfg_fail(c, "expected a number, got %s", cfg_type_name(v));
	*out = json_number_value(v);
	cfg_pop(c, old);
	return 0;
}

static int
parse_cell(struct cfg_ctx *c, const json_t *o, struct fws_cell *x)
{
	const json_t *h;
	size_t i;

	if (!json_is_object(o))
		return cfg_fail(c, "expected an object, got %s", cfg_type_name(o));
#define CELL_STR(m, key)                                                                           \
	if (cell_str(c, o, key, x->m, sizeof(x->m)) < 0)                                           \
		return -EINVAL;
#define CELL_NUM(m, key, dflt)                                                                     \
	if (cell_num(c, o, key, &x->m, dflt) < 0)                                                  \
		return -EINVAL;
	FWS_CELL_STRINGS(CELL_STR)
	FWS_CELL_NUMBERS(CELL_NUM)
#undef CELL_STR
#undef CELL_NUM
	h = json_object_get(o, FWS_CELL_HIST_KEY);
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
	struct cfg_ctx c = {.err = err, .errlen = errlen};
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
		size_t old = cfg_push_idx(&c, i);
		char msg[400];

		rc = parse_cell(&c, json_array_get(a, i), &cells->c[i]);
		cells->n = (unsigned int)i + 1;
		if (rc < 0) {
			/* cfg_fail() wrote "config: <path>: ..."; say which report. */
			strlcpy(msg, err + strlen("config: "), sizeof(msg));
			snprintf(err, errlen, "report: %s: %s", path, msg);
		}
		cfg_pop(&c, old);
	}
	json_decref(root);
	if (rc < 0)
		fws_cells_free(cells);
	return rc;
}
