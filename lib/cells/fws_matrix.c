/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fws_compat.h"
#include "fws_matrix.h"
#include "fws_util.h"
#include "matrix_int.h"

int
fws_matrix_format(const char *name)
{
	if (!strcmp(name, "md") || !strcmp(name, "markdown"))
		return FWS_MATRIX_MARKDOWN;
	if (!strcmp(name, "wiki") || !strcmp(name, "mediawiki"))
		return FWS_MATRIX_MEDIAWIKI;
	if (!strcmp(name, "csv"))
		return FWS_MATRIX_CSV;
	if (!strcmp(name, "html"))
		return FWS_MATRIX_HTML;
	return -EINVAL;
}

/* The column of direction dir of set, added on first sight; -1 when the table is full. */
static int
col_named(struct matrix *m, unsigned int set, const char *dir)
{
	struct col *k;
	unsigned int c;
	char name[80];

	for (c = 0; c < m->n_cols; c++)
		if (m->cols[c].set == set && !strcmp(m->cols[c].dir, dir))
			return (int)c;
	if (m->n_cols == MAX_COLS)
		return -1;
	k = &m->cols[m->n_cols];
	k->set = set;
	strlcpy(k->dir, dir, sizeof(k->dir));
	if (m->n_sets > 1)
		snprintf(k->label, sizeof(k->label), "%s %s",
			 matrix_set_name(m, set, name, sizeof(name)), dir);
	else
		snprintf(k->label, sizeof(k->label), "%s", dir);
	return (int)m->n_cols++;
}

static int
col_of(struct matrix *m, unsigned int set, const struct fws_cell *cell)
{
	char dir[sizeof(m->cols[0].dir)];

	matrix_cell_dir(cell, dir, sizeof(dir));
	return col_named(m, set, dir);
}

/* Where a direction's column stands: upload, download, bidir (its halves, then a sum an
 * older report gives), custom, anything else. */
static int
dir_rank(const char *dir)
{
	static const char *const order[] = {"upload",
					    "download",
					    "bidir upload",
					    "bidir download",
					    "bidir (both directions summed)",
					    "custom"};
	unsigned int i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (strcmp(dir, order[i]) == 0)
			return (int)i;
	return (int)i;
}

/* Every report's columns in the fixed order, whatever order its cells came in (a resumed
 * sweep appends what it measured later). */
static void
make_cols(struct matrix *m)
{
	char dirs[MAX_COLS][sizeof(m->cols[0].dir)];
	unsigned int s, i, k, n;

	for (s = 0; s < m->n_sets; s++) {
		for (n = 0, i = 0; i < m->sets[s].n; i++) {
			char d[sizeof(dirs[0])];

			matrix_cell_dir(&m->sets[s].c[i], d, sizeof(d));
			for (k = 0; k < n && strcmp(dirs[k], d); k++)
				;
			if (k < n || n == MAX_COLS)
				continue;
			/* insertion in rank order, ties in order of appearance */
			for (k = n; k > 0 && dir_rank(dirs[k - 1]) > dir_rank(d); k--)
				memcpy(dirs[k], dirs[k - 1], sizeof(dirs[k]));
			memcpy(dirs[k], d, sizeof(dirs[k]));
			n++;
		}
		for (k = 0; k < n; k++)
			col_named(m, s, dirs[k]);
	}
}

/* Where a result stands in a frame size's rows: NDR, PDR, latency points by load, fixed
 * rate, the connection tests', anything else. */
static double
kind_rank(const char *kind)
{
	static const char *const order[] = {"ndr",      "pdr",      "lat",
					    "run",      "cps",      "cps-fixed",
					    "sessions", "teardown", "teardown-fixed"};
	unsigned int i, pct;

	if (sscanf(kind, "lat%u", &pct) == 1)
		return 2 + pct / 1000.0;
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (strcmp(kind, order[i]) == 0)
			return i;
	return i;
}

/* Rows in the fixed order: scenario (as the reports give them), frame size ascending,
 * result (issue 51, item 8). */
static int
row_cmp(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	double ka = kind_rank(a->first->kind), kb = kind_rank(b->first->kind);
	int d;

	if (a->scn != b->scn)
		return a->scn < b->scn ? -1 : 1;
	if (a->first->avg_frame != b->first->avg_frame)
		return a->first->avg_frame < b->first->avg_frame ? -1 : 1;
	if ((d = strcmp(a->first->size, b->first->size)) != 0)
		return d;
	if (ka != kb)
		return ka < kb ? -1 : 1;
	return strcmp(a->first->kind, b->first->kind);
}

static void
sort_rows(struct row *rows, unsigned int n)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i && strcmp(rows[j].first->scenario, rows[i].first->scenario); j++)
			;
		rows[i].scn = j < i ? rows[j].scn : i;
	}
	qsort(rows, n, sizeof(*rows), row_cmp);
}

static struct row *
row_of(struct row *rows, unsigned int *n, const struct fws_cell *c)
{
	unsigned int j;

	for (j = 0; j < *n; j++) {
		const struct fws_cell *f = rows[j].first;

		if (!strcmp(f->scenario, c->scenario) && !strcmp(f->size, c->size) &&
		    !strcmp(f->kind, c->kind))
			return &rows[j];
	}
	rows[*n].first = c;
	return &rows[(*n)++];
}

/* One more stream in column col of r: counted, named (the first few). */
static void
add_stream(struct row *r, int col, const char *stream)
{
	size_t used = strlen(r->streams[col]);

	if (r->n_streams[col]++ && used + 2 < sizeof(r->streams[col]))
		used += (size_t)snprintf(r->streams[col] + used, sizeof(r->streams[col]) - used,
					 ", ");
	if (used < sizeof(r->streams[col]))
		snprintf(r->streams[col] + used, sizeof(r->streams[col]) - used, "%s", stream);
}

static void
build(struct matrix *m)
{
	unsigned int s, i;

	for (s = 0; s < m->n_sets; s++) {
		for (i = 0; i < m->sets[s].n; i++) {
			const struct fws_cell *c = &m->sets[s].c[i];
			int col = col_of(m, s, c);
			unsigned int reps;
			struct row *r;

			if (col < 0) {
				m->left_out++;
				continue;
			}
			if (fws_cell_is_conn(c->kind))
				r = row_of(m->crows, &m->n_crows, c);
			else
				r = row_of(m->rows, &m->n_rows, c);
			r->has[col] = true;
			add_stream(r, col, c->stream);
			r->conn[col] = c->connections;
			r->conn_failed[col] = c->conn_failed;
			r->flood[col] = c->flood_pps;
			r->flood_passed[col] = c->flood_passed;
			r->pps[col] += c->pps;
			r->l1[col] += c->l1_bps;
			r->goodput[col] += c->goodput_bps;
			r->measured[col] |= c->goodput_measured != 0;
			r->line[col] += c->line_pps;
			r->cpu[col] = c->dut_cpu;
			r->core[col] = c->dut_core;
			r->dut_drops[col] = c->dut_drops;
			r->limited[col] |= c->generator_limited != 0;
			r->capped[col] |= c->capped != 0;
			r->loss[col] = fmax(r->loss[col], c->loss_pct);
			r->missed[col] = fmax(r->missed[col], c->rx_missed);
			r->p50[col] = fmax(r->p50[col], c->p50_ns);
			r->p99[col] = fmax(r->p99[col], c->p99_ns);
			reps = c->reps > 1 ? c->reps : 1;
			r->reps[col] = r->reps[col] ? FWS_MIN(r->reps[col], reps) : reps;
			if (c->reps > 1 && c->dut_cpu >= 0 &&
			    (r->dut_reps[col] == 0 || c->dut_reps < r->dut_reps[col]))
				r->dut_reps[col] = c->dut_reps;
			r->spread[col] = fmax(r->spread[col], c->spread.cov);
			if (c->unsteady > 0) {
				r->unsteady[col] = true;
				r->worst_second[col] = fmax(r->worst_second[col], c->worst_second);
			}
			if (c->lat_medians.n > 1)
				r->lat_spread[col] = fmax(r->lat_spread[col], c->lat_medians.cov);
			/* The same in every cell of a trial: taken once, not summed. */
			r->attack[col] = c->attack_frames;
			r->attack_leaked[col] = c->attack_leaked;
			r->blocked_leaked[col] = c->blocked_leaked;
			if (!fws_cell_ok(c) && r->verdict[col] == NULL)
				r->verdict[col] = c->verdict;
		}
	}
}

/* The caption: each appliance (DUT, firmware, date) and what measured it. */
static void
appliances(FILE *f, const struct matrix *m, bool wiki)
{
	unsigned int s;
	char name[80];

	fputs(m->n_sets > 1 ? "Appliances:" : "Appliance:", f);
	for (s = 0; s < m->n_sets; s++) {
		const struct fws_cells *x = &m->sets[s];

		fputs(s ? "; " : " ", f);
		matrix_table_str(f, matrix_set_name(m, s, name, sizeof(name)), wiki);
		fprintf(f, " (firmware ");
		matrix_table_str(f, x->firmware[0] ? x->firmware : "not given", wiki);
		fprintf(f, ", ");
		matrix_table_str(f, x->started[0] ? x->started : "date not given", wiki);
		if (x->tool[0]) {
			fprintf(f, ", measured by ");
			matrix_table_str(f, x->tool, wiki);
		}
		fputc(')', f);
	}
	fputs(".\n\n", f);
}

/* MediaWiki: a header row of column groups, one per appliance. */
static void
wiki_groups(FILE *f, const struct matrix *m)
{
	unsigned int s, first, n;
	char name[80];

	if (m->n_sets < 2)
		return;
	fprintf(f, "! colspan=\"3\" |");
	for (s = 0; s < m->n_sets; s++) {
		n = matrix_set_cols(m, s, &first);
		if (n == 0)
			continue;
		fprintf(f, " !! colspan=\"%u\" | ", n * m->n_figs);
		matrix_table_str(f, matrix_set_name(m, s, name, sizeof(name)), true);
		if (m->sets[s].firmware[0]) {
			fputs(", ", f);
			matrix_table_str(f, m->sets[s].firmware, true);
		}
		fputs(", ", f);
		matrix_table_str(f, m->sets[s].started, true);
	}
	fprintf(f, " !!\n|-\n");
}

static void
table_head(FILE *f, const struct matrix *m, bool wiki)
{
	unsigned int c, k;

	if (wiki) {
		fprintf(f, "{| class=\"wikitable\"\n");
		wiki_groups(f, m);
		fprintf(f, "! Scenario !! Frame size !! Result");
	} else {
		fprintf(f, "| Scenario | Frame size | Result");
	}
	for (c = 0; c < m->n_cols; c++) {
		for (k = 0; k < m->n_figs; k++) {
			fputs(wiki ? " !! " : " | ", f);
			matrix_table_str(f, m->cols[c].label, wiki);
			fputs(m->figs[k]->head, f);
		}
	}
	fprintf(f, wiki ? " !! Notes\n" : " | Notes |\n");
	if (!wiki) {
		fprintf(f, "|---|---|---");
		for (c = 0; c < m->n_cols; c++)
			for (k = 0; k < m->n_figs; k++)
				fprintf(f, "|---:");
		fprintf(f, "|---|\n");
	}
}

static void
table_row(FILE *f, const struct matrix *m, const struct row *x, bool wiki)
{
	const char *sep = wiki ? " || " : " | ";
	unsigned int c, k;
	char notes[1024], v[96];

	fputs(wiki ? "|-\n| " : "| ", f);
	matrix_table_str(f, x->first->scenario, wiki);
	fputs(sep, f);
	matrix_table_str(f, x->first->size, wiki);
	fprintf(f, "%s%s", sep, matrix_kind_name(x->first->kind));
	for (c = 0; c < m->n_cols; c++) {
		for (k = 0; k < m->n_figs; k++) {
			if (!x->has[c]) {
				fputs(wiki ? " ||" : " |", f);
				continue;
			}
			fputs(sep, f);
			if (x->verdict[c]) /* no result: its verdict where the figures were */
				fputs(k ? "-" : matrix_verdict_word(x->verdict[c], v, sizeof(v)),
				      f);
			else
				fputs(matrix_fig_text(x, c, m->figs[k], false, v, sizeof(v)), f);
		}
	}
	matrix_row_notes(m, x, notes, sizeof(notes));
	fputs(sep, f);
	matrix_table_str(f, notes, wiki);
	fputs(wiki ? "\n" : " |\n", f);
}

/* Markdown and MediaWiki share the layout; wiki decides the syntax. */
static void
table(FILE *f, const struct matrix *m, bool wiki)
{
	unsigned int r;

	char banner[1024];

	matrix_partial_banner(m, banner, sizeof(banner));
	if (banner[0]) {
		fputs(wiki ? "'''" : "**", f);
		matrix_table_str(f, banner, wiki);
		fputs(wiki ? "'''\n\n" : "**\n\n", f);
	}
	appliances(f, m, wiki);
	matrix_below_rfc(f, m, wiki ? FWS_MATRIX_MEDIAWIKI : FWS_MATRIX_MARKDOWN);
	if (m->n_rows) { /* (report --only b2b: the bursts' table alone) */
		table_head(f, m, wiki);
		for (r = 0; r < m->n_rows; r++)
			table_row(f, m, &m->rows[r], wiki);
		if (wiki)
			fprintf(f, "|}\n");
		if (matrix_shows(m, "iperf"))
			fprintf(f, "\n%s\n", GOODPUT_NOTE);
	}
	matrix_conn_table(f, m, wiki ? FWS_MATRIX_MEDIAWIKI : FWS_MATRIX_MARKDOWN);
	matrix_b2b_table(f, m, wiki ? FWS_MATRIX_MEDIAWIKI : FWS_MATRIX_MARKDOWN);
	if (m->left_out)
		fprintf(f,
			"\n%u cells beyond the first %d columns (appliance and direction) are not "
			"in this table (csv has every cell).\n",
			m->left_out, MAX_COLS);
}

int
fws_matrix_columns(const char *list, char *err, size_t errlen)
{
	const struct matrix_fig *figs[MATRIX_MAX_FIGS];
	unsigned int n;

	return matrix_pick_figs(list, figs, &n, err, errlen);
}

int
fws_matrix_render(FILE *f, const struct fws_cells *sets, unsigned int n_sets,
		  enum fws_matrix_format fmt)
{
	return fws_matrix_render_columns(f, sets, n_sets, fmt, NULL);
}

int
fws_matrix_render_columns(FILE *f, const struct fws_cells *sets, unsigned int n_sets,
			  enum fws_matrix_format fmt, const char *columns)
{
	struct matrix *m = calloc(1, sizeof(*m));
	unsigned int s, n = 0;
	char err[160];

	for (s = 0; s < n_sets; s++)
		n += sets[s].n;
	if (m == NULL || (m->rows = calloc(n + 1, sizeof(*m->rows))) == NULL ||
	    (m->crows = calloc(n + 1, sizeof(*m->crows))) == NULL) {
		if (m)
			free(m->rows);
		free(m);
		return -ENOMEM;
	}
	m->sets = sets;
	m->n_sets = n_sets;
	if (matrix_pick_figs(columns ? columns : FWS_MATRIX_COLUMNS, m->figs, &m->n_figs, err,
			     sizeof(err)) < 0) {
		free(m->rows);
		free(m->crows);
		free(m);
		return -EINVAL;
	}
	make_cols(m);
	build(m);
	sort_rows(m->rows, m->n_rows);
	sort_rows(m->crows, m->n_crows);
	switch (fmt) {
	case FWS_MATRIX_MARKDOWN:
		table(f, m, false);
		break;
	case FWS_MATRIX_MEDIAWIKI:
		table(f, m, true);
		break;
	case FWS_MATRIX_CSV:
		matrix_csv(f, m);
		break;
	case FWS_MATRIX_HTML:
		matrix_html(f, m);
		break;
	}
	free(m->rows);
	free(m->crows);
	free(m);
	return ferror(f) ? -EIO : 0;
}
