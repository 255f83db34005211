/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The report read back (report, compare, sweep --resume, campaigns): its cells, the schema of
 * fws_cell.h that report_cells.c writes, checked as strictly as a config and with the same
 * line-numbered errors (lib/config's JSON reading context, fws_jsonread.h).
 */
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
#include "fws_cells_io.h"
#include "fws_frame.h"
#include "fws_sig.h"
#include "fws_text.h"
#include "fws_jsonread.h"

/* Report cells: our own output read back, checked as strictly as a config. */
static int
cell_str(struct cfg_ctx *c, const json_t *o, const char *key, char *out, size_t len)
{
	const json_t *v = json_object_get(o, key);
	size_t old = cfg_push_key(c, key), i;
	const char *s;

	if (!json_is_string(v))
		return cfg_fail(c, "expected a string, got %s", v ? cfg_type_name(v) : "nothing");
	s = json_string_value(v);
	if (json_string_length(v) >= len)
		return cfg_fail(c, "longer than %zu characters", len - 1);
	for (i = 0; s[i]; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return cfg_fail(c, "a control character in a name");
	strlcpy(out, s, len);
	cfg_pop(c, old);
	return 0;
}

static int
cell_num(struct cfg_ctx *c, const json_t *o, const char *key, double *out, double dflt, double lo,
	 double hi)
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
	if (!(*out >= lo && *out <= hi))
		return cfg_fail(c, "%g is outside %g..%g", *out, lo, hi);
	cfg_pop(c, old);
	return 0;
}

/* The widest bucket and the latest start a report's histogram may have (ns). */
#define HIST_WIDTH_MAX (1100LL * 1000 * 1000 * 1000)
#define HIST_LO_MAX (1LL << 50)

/* Latency buckets: [lo, width, count], non-negative integers. */
static int
parse_hist(struct cfg_ctx *c, const json_t *h, struct fws_cell *x)
{
	size_t i, old = cfg_push_key(c, FWS_CELL_HIST_KEY);

	if (h == NULL || json_is_null(h)) {
		cfg_pop(c, old);
		return 0;
	}
	if (!json_is_array(h))
		return cfg_fail(c, "expected a list of [lo, width, count], got %s",
				cfg_type_name(h));
	if (json_array_size(h) && (x->hist = calloc(json_array_size(h), sizeof(*x->hist))) == NULL)
		return -ENOMEM;
	for (i = 0; i < json_array_size(h); i++) {
		const json_t *b = json_array_get(h, i);
		json_int_t v[3];
		unsigned int k;

		size_t o2 = cfg_push_idx(c, i);

		if (!json_is_array(b) || json_array_size(b) != 3)
			return cfg_fail(c, "expected [lo, width, count]");
		for (k = 0; k < 3; k++) {
			v[k] = json_integer_value(json_array_get(b, k));
			if (!json_is_integer(json_array_get(b, k)) || v[k] < 0)
				return cfg_fail(c, "expected [lo, width, count] of integers >= 0");
		}
		/* What this tool writes: a bucket 1 ns to 1100 s wide, below 2^50 ns (13 days);
		 * a width of 0 or 2^62 is a hand's edit, whose percentiles would be figures. */
		if (v[1] < 1 || v[1] > HIST_WIDTH_MAX || v[0] > HIST_LO_MAX)
			return cfg_fail(
				c,
				"a bucket [%lld, %lld, ...]: its width is outside 1..%lld ns or "
				"its start beyond %lld ns (not a histogram fwstress writes)",
				(long long)v[0], (long long)v[1], (long long)HIST_WIDTH_MAX,
				(long long)HIST_LO_MAX);
		x->hist[x->n_hist++] = (struct fws_cell_bucket){
			.lo = (uint64_t)v[0], .width = (uint64_t)v[1], .count = (uint64_t)v[2]};
		cfg_pop(c, o2);
	}
	cfg_pop(c, old);
	return 0;
}

static int
parse_cell(struct cfg_ctx *c, const json_t *o, struct fws_cell *x)
{
	if (!json_is_object(o))
		return cfg_fail(c, "expected an object, got %s", cfg_type_name(o));
#define CELL_STR(m, key, req)                                                                      \
	if ((req || json_object_get(o, key)) && cell_str(c, o, key, x->m, sizeof(x->m)) < 0)       \
		return -EINVAL;
#define CELL_NUM(m, key, dflt, lo, hi)                                                             \
	if (cell_num(c, o, key, &x->m, dflt, lo, hi) < 0)                                          \
		return -EINVAL;
	FWS_CELL_STRINGS(CELL_STR)
	FWS_CELL_NUMBERS(CELL_NUM)
	CELL_NUM(repetition, FWS_CELL_REP_KEY, -1, 1, FWS_STATS_MAX)
#undef CELL_STR
#undef CELL_NUM
	/* Derived, so always from the L1 rate (reports older than the figure get it too);
	 * measured on TCP streams, as the report says. */
	if (!x->goodput_measured)
		x->goodput_bps = fws_goodput_derived(x->l1_bps);
	return parse_hist(c, json_object_get(o, FWS_CELL_HIST_KEY), x);
}

/* "sweep_done": [{"direction", "frame_size"[, "repetition"]}, ...] */
static int
parse_done(const json_t *root, struct fws_cells *cells)
{
	const json_t *a = json_object_get(root, "sweep_done"), *e;
	size_t i;

	if (!json_is_array(a))
		return 0;
	cells->has_done = true;
	if (json_array_size(a) == 0)
		return 0;
	cells->done = calloc(json_array_size(a), sizeof(*cells->done));
	if (cells->done == NULL)
		return -ENOMEM;
	json_array_foreach(a, i, e)
	{
		const char *d = json_string_value(json_object_get(e, "direction"));
		const char *z = json_string_value(json_object_get(e, "frame_size"));
		json_int_t rep = json_integer_value(json_object_get(e, "repetition"));

		if (d == NULL || z == NULL || rep < 0 || rep > FWS_STATS_MAX)
			continue;
		cells->done[cells->n_done].repetition = (unsigned int)rep;
		fws_text_safe(cells->done[cells->n_done].direction,
			      sizeof(cells->done[0].direction), d, SIZE_MAX);
		fws_text_safe(cells->done[cells->n_done++].size, sizeof(cells->done[0].size), z,
			      SIZE_MAX);
	}
	return 0;
}

/* With a done list, only the cells of done sweep cells are kept (the rest is run again). */
static void
keep_done_cells(struct fws_cells *cells)
{
	unsigned int i, k = 0;

	if (!cells->has_done)
		return;
	for (i = 0; i < cells->n; i++) {
		const struct fws_cell *c = &cells->c[i];

		if (fws_cells_done(cells, c->direction, c->size) ||
		    fws_cells_rep_done(cells, c->size,
				       c->repetition >= 1 ? (unsigned int)c->repetition : 1)) {
			cells->c[k++] = cells->c[i];
			continue;
		}
		free(cells->c[i].hist);
	}
	cells->n = k;
}

/* Is a search summary's "frame_size" ("64 upload") or a direction/size pair done? */
static bool
entry_done(const struct fws_cells *cells, const json_t *e, const char *dir_key)
{
	const char *z = json_string_value(json_object_get(e, "frame_size"));
	const char *d = dir_key ? json_string_value(json_object_get(e, dir_key)) : NULL;
	json_int_t rep = json_integer_value(json_object_get(e, "repetition"));
	unsigned int i;
	char both[80];

	if (z == NULL)
		return false;
	if (fws_cells_rep_done(cells, z, rep >= 1 ? (unsigned int)rep : 1))
		return true; /* a run or search repetition */
	if (d)
		return fws_cells_done(cells, d, z);
	for (i = 0; i < cells->n_done; i++) {
		if (cells->done[i].repetition) /* a run's: matched above */
			continue;
		snprintf(both, sizeof(both), "%s %s", cells->done[i].size,
			 cells->done[i].direction);
		if (strcmp(both, z) == 0)
			return true;
	}
	return false;
}

static json_t *
carry_array(const struct fws_cells *cells, const json_t *a, const char *dir_key, bool nested)
{
	json_t *out = json_array();
	const json_t *e;
	size_t i;

	json_array_foreach(a, i, e)
	{
		const json_t *key =
			nested && json_object_get(e, "sweep_cell")
				? json_object_get(e, "sweep_cell")
				: e; /* a run or search trial: its own size and repetition */

		if (key && entry_done(cells, key, dir_key)) {
			json_t *c = json_deep_copy(e);

			json_object_set_new(c, "carried", json_true());
			json_array_append_new(out, c);
		}
	}
	return out;
}

json_t *
fws_report_carried_json(const char *path, const struct fws_cells *cells, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *root, *out;

	if (cells->major != FWS_REPORT_MAJOR) {
		snprintf(err, errlen,
			 "report: %s: schema version %u, this fwstress writes %s (keys renamed): "
			 "fwstress cannot resume it; run it anew or choose another output.json",
			 path, cells->major, FWS_REPORT_SCHEMA);
		return NULL;
	}
	root = json_load_file(path, 0, &jerr);
	if (root == NULL) {
		snprintf(err, errlen, "report: %s: line %d: %s", path, jerr.line, jerr.text);
		cfg_one_line(err);
		return NULL;
	}
	out = json_pack(
		"{s:o, s:o, s:o}", "trials",
		carry_array(cells, json_object_get(root, "trials"), "direction", true), "search",
		carry_array(cells, json_object_get(root, "search"), NULL, false), "back_to_back",
		carry_array(cells, json_object_get(root, "back_to_back"), "direction", false));
	json_decref(root);
	return out;
}

int
fws_report_load_cells(const char *path, struct fws_cells *cells, char *err, size_t errlen)
{
	size_t len;
	char *buf;
	int rc;

	memset(cells, 0, sizeof(*cells));
	if ((rc = cfg_read_file(path, FWS_REPORT_MAX_BYTES, &buf, &len, err, errlen, "report")) <
	    0) {
		cfg_one_line(err);
		return rc;
	}
	rc = fws_report_parse_cells(buf, len, path, cells, err, errlen);
	free(buf);
	return rc;
}

/* "fwstress-report/M" or "fwstress-report/M.m", M from 1 to this fwstress's major. */
static int
schema_version(const char *s, const char *path, struct fws_cells *cells, char *err, size_t errlen)
{
	const size_t n = strlen(FWS_REPORT_SCHEMA_NAME);
	unsigned int major = 0, minor = 0;
	char tail;
	int k;

	if (s == NULL) {
		snprintf(err, errlen, "report: %s: not an fwstress report (no \"schema\": \"%s\")",
			 path, FWS_REPORT_SCHEMA);
		return -EINVAL;
	}
	k = strncmp(s, FWS_REPORT_SCHEMA_NAME, n) == 0
		    ? sscanf(s + n, "%3u.%3u%c", &major, &minor, &tail)
		    : 0;
	if ((k != 1 && k != 2) || major == 0 || (k == 1 && strchr(s + n, '.') != NULL)) {
		snprintf(err, errlen, "report: %s: schema \"%.40s\" is not an fwstress report's",
			 path, s);
		return -EINVAL;
	}
	if (major > FWS_REPORT_MAJOR) {
		snprintf(err, errlen,
			 "report: %s: schema \"%.40s\" is newer than this fwstress %s reads (%s): "
			 "read it with a newer fwstress",
			 path, s, FWS_VERSION, FWS_REPORT_SCHEMA);
		return -EINVAL;
	}
	cells->major = major;
	cells->minor = minor;
	return 0;
}

/* A report from before 2.5 named a run's cells by their stream's direction even when both
 * directions ran at once (a run or search of a bidir config: no trial of it was a sweep
 * cell, its streams go both ways): read them as 2.5 writes them, bidir with the stream's
 * half, so that compare lines them up with a newer report's. Every other cell's stream goes
 * its cell's way. */
static void
older_cells(const json_t *root, struct fws_cells *cells)
{
	const json_t *tr, *e;
	bool up = false, down = false, sweep = false;
	unsigned int i;
	size_t k, j;

	if (cells->major > 2 || (cells->major == 2 && cells->minor >= 5))
		return;
	json_array_foreach(json_object_get(root, "trials"), k, tr)
	{
		sweep |= json_object_get(tr, "sweep") != NULL;
		json_array_foreach(json_object_get(tr, "streams"), j, e)
		{
			const char *d = json_string_value(json_object_get(e, "direction"));
			json_int_t sent = json_integer_value(
				json_object_get(json_object_get(e, "offered"), "frames"));

			up |= sent > 0 && d && strcmp(d, "upload") == 0; /* not a learner */
			down |= sent > 0 && d && strcmp(d, "download") == 0;
		}
	}
	for (i = 0; i < cells->n; i++) {
		struct fws_cell *c = &cells->c[i];
		bool half = !strcmp(c->direction, "upload") || !strcmp(c->direction, "download");

		if (!half)
			continue;
		strlcpy(c->stream_dir, c->direction, sizeof(c->stream_dir));
		if (up && down && !sweep && !cells->has_done)
			strlcpy(c->direction, "bidir", sizeof(c->direction));
	}
}

/* A report's string (another lab's, edited by hand) as the terminal and the text formats may
 * show it: control characters as \xNN, bounded (fws_text_safe); absent or not a string: "". */
static void
take_text(char *dst, size_t len, const json_t *v)
{
	if (json_is_string(v))
		fws_text_safe(dst, len, json_string_value(v), json_string_length(v));
}

/* "fwstress 0.1.0 (commit C, DPDK 22.11.11)" from a report's "tool" and "dpdk": what an
 * older report does not say is left out. */
static void
tool_line(const json_t *root, char *buf, size_t len)
{
	const json_t *t = json_object_get(root, "tool");
	const char *name = json_string_value(json_object_get(t, "name"));
	const char *ver = json_string_value(json_object_get(t, "version"));
	const char *commit = json_string_value(json_object_get(t, "commit"));
	const char *dpdk = json_string_value(json_object_get(root, "dpdk"));

	/* A build that knew no commit wrote "" (older ones "unknown"): said by nothing. */
	if (commit && (!commit[0] || strcmp(commit, "unknown") == 0))
		commit = NULL;
	if (!commit && !dpdk)
		snprintf(buf, len, "%s %s", name ? name : "fwstress", ver ? ver : "?");
	else
		snprintf(buf, len, "%s %s (%s%s%s%s)", name ? name : "fwstress", ver ? ver : "?",
			 commit ? "commit " : "", commit ? commit : "", commit && dpdk ? ", " : "",
			 dpdk ? dpdk : "");
}

/* Cells sorted by key and repetition, to find the same cell twice. */
struct cell_ref {
	char key[200];
	int rep;
	unsigned int idx;
};

static int
ref_cmp(const void *a, const void *b)
{
	const struct cell_ref *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c == 0)
		c = (x->rep > y->rep) - (x->rep < y->rep);
	return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

/* One cell twice (the same key and repetition): a report edited or merged by hand, whose
 * median would count it twice. -EINVAL with the two named in err. */
static int
duplicates(const struct fws_cells *cells, char *err, size_t errlen)
{
	struct cell_ref *r = calloc(cells->n + 1, sizeof(*r));
	unsigned int i;
	int rc = 0;

	if (r == NULL)
		return -ENOMEM;
	for (i = 0; i < cells->n; i++) {
		fws_cell_key(&cells->c[i], r[i].key, sizeof(r[i].key));
		r[i].rep = (int)cells->c[i].repetition;
		r[i].idx = i;
	}
	qsort(r, cells->n, sizeof(*r), ref_cmp);
	for (i = 1; i < cells->n && rc == 0; i++)
		if (strcmp(r[i - 1].key, r[i].key) == 0 && r[i - 1].rep == r[i].rep) {
			snprintf(err, errlen,
				 "cells[%u]: the same cell as cells[%u] (%s, repetition %d): "
				 "a report edited or merged by hand?",
				 r[i].idx, r[i - 1].idx, r[i].key, r[i].rep < 1 ? 1 : r[i].rep);
			rc = -EINVAL;
		}
	free(r);
	return rc;
}

/* A sweep_done entry names cells the report must have: one missing would be skipped by
 * --resume and the cell end with fewer repetitions than asked. */
static int
done_without_cells(const struct fws_cells *cells, char *err, size_t errlen)
{
	unsigned int d, i;

	for (d = 0; d < cells->n_done; d++) {
		const struct fws_cell_done *e = &cells->done[d];
		bool found = false;

		for (i = 0; i < cells->n && !found; i++) {
			const struct fws_cell *c = &cells->c[i];
			int rep = c->repetition >= 1 ? (int)c->repetition : 1;

			found = strcmp(c->size, e->size) == 0 &&
				(e->repetition ? rep == (int)e->repetition
					       : strcmp(c->direction, e->direction) == 0);
		}
		if (!found) {
			char rep[32] = "";

			if (e->repetition)
				snprintf(rep, sizeof(rep), ", repetition %u", e->repetition);
			snprintf(err, errlen,
				 "sweep_done: %s %s%s is done, but no cell of it is in the report: "
				 "a report edited by hand?",
				 e->direction, e->size, rep);
			return -EINVAL;
		}
	}
	return 0;
}

/* What the cells must hold together, past each cell's own checks. */
static int
structure(const struct fws_cells *cells, char *err, size_t errlen)
{
	int rc = duplicates(cells, err, errlen);

	return rc == 0 ? done_without_cells(cells, err, errlen) : rc;
}

/* A number within [0, 1e15] (what a count of frames can be), else -1. */
static double
frames_of(const json_t *v)
{
	double x = json_number_value(v);

	return json_is_number(v) && x >= 0 && x <= 1e15 ? x : -1;
}

/* A sweep's back-to-back results and its "below RFC" lines, for the matrix (issue 51, item
 * 5); an entry that is not one (a hand-edited report) is left out. */
static void
read_sweep_extras(const json_t *root, struct fws_cells *cells)
{
	const json_t *a = json_object_get(root, "back_to_back"), *v;
	size_t i, used = 0;

	if (json_is_array(a) && json_array_size(a) > 0 && json_array_size(a) <= 4096)
		cells->b2b = calloc(json_array_size(a), sizeof(*cells->b2b));
	for (i = 0; cells->b2b && i < json_array_size(a); i++) {
		const json_t *o = json_array_get(a, i);
		struct fws_cell_b2b *b = &cells->b2b[cells->n_b2b];

		take_text(b->scenario, sizeof(b->scenario),
			  json_object_get(json_object_get(root, "config"), "scenario"));
		take_text(b->size, sizeof(b->size), json_object_get(o, "frame_size"));
		take_text(b->direction, sizeof(b->direction), json_object_get(o, "direction"));
		b->avg = frames_of(json_object_get(o, "avg"));
		b->min = frames_of(json_object_get(o, "min"));
		b->max = frames_of(json_object_get(o, "max"));
		b->max_frames = frames_of(json_object_get(o, "max_frames"));
		b->trials =
			(unsigned int)(json_is_integer(json_object_get(o, "trials")) &&
						       json_integer_value(
							       json_object_get(o, "trials")) > 0 &&
						       json_integer_value(json_object_get(
							       o, "trials")) < 100000
					       ? json_integer_value(json_object_get(o, "trials"))
					       : 0);
		b->generator_limited = json_is_true(json_object_get(o, "generator_limited"));
		if (b->size[0] && b->direction[0] && b->avg >= 0 && b->min >= 0 && b->max >= 0)
			cells->n_b2b++;
	}
	json_array_foreach(json_object_get(root, "below_rfc"), i, v)
	{
		char line[256] = "";

		take_text(line, sizeof(line), v);
		if (line[0] && used < sizeof(cells->below_rfc))
			used += (size_t)snprintf(cells->below_rfc + used,
						 sizeof(cells->below_rfc) - used, "%s%s",
						 used ? "; " : "", line);
	}
}

int
fws_report_parse_cells(const char *buf, size_t len, const char *path, struct fws_cells *cells,
		       char *err, size_t errlen)
{
	struct cfg_ctx c = {.buf = buf, .len = len, .err = err, .errlen = errlen};
	const json_t *a, *d;
	const char *s;
	char why[400];
	json_error_t jerr;
	json_t *root;
	size_t i;
	int rc = 0;

	memset(cells, 0, sizeof(*cells));
	root = json_loadb(buf, len, 0, &jerr);
	if (root == NULL) {
		snprintf(err, errlen, "report: %s: line %d: %s", path, jerr.line, jerr.text);
		cfg_one_line(err);
		return -EINVAL;
	}
	s = json_string_value(json_object_get(root, "schema"));
	if (schema_version(s, path, cells, err, errlen) < 0) {
		cfg_one_line(err);
		json_decref(root);
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
	d = json_object_get(json_object_get(root, "config"), "dut");
	take_text(cells->dut, sizeof(cells->dut), json_object_get(d, "name"));
	take_text(cells->firmware, sizeof(cells->firmware), json_object_get(d, "firmware"));
	take_text(cells->started, sizeof(cells->started), json_object_get(root, "started"));
	cells->partial = json_is_true(json_object_get(root, "partial"));
	tool_line(root, cells->tool, sizeof(cells->tool));
	fws_text_clean(cells->tool, sizeof(cells->tool));
	take_text(cells->status, sizeof(cells->status), json_object_get(root, "status"));
	cells->c = calloc(json_array_size(a) + 1, sizeof(*cells->c));
	if (cells->c == NULL) {
		json_decref(root);
		return -ENOMEM;
	}
	if (rc == 0)
		rc = parse_done(root, cells);
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
	if (rc == 0 && (rc = structure(cells, why, sizeof(why))) < 0)
		snprintf(err, errlen, "report: %s: %s", path, why);
	if (rc == 0)
		older_cells(root, cells);
	if (rc == 0)
		fws_report_read_timelines(root, cells);
	if (rc == 0)
		read_sweep_extras(root, cells);
	json_decref(root);
	if (rc < 0) {
		cfg_one_line(err);
		fws_cells_free(cells);
		return rc;
	}
	keep_done_cells(cells);
	return rc;
}
