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

/* What the user called a report (report --label), else its DUT's name, else its place. */
static void
set_base(const struct matrix *m, unsigned int set, char *buf, size_t len)
{
	const struct fws_cells *x = &m->sets[set];

	if (x->label[0] || x->dut[0])
		snprintf(buf, len, "%s", x->label[0] ? x->label : x->dut);
	else
		snprintf(buf, len, "report %u", set + 1);
}

const char *
matrix_set_name(const struct matrix *m, unsigned int set, char *buf, size_t len)
{
	const struct fws_cells *x = &m->sets[set];
	bool same = false, fw = false, date = false;
	char base[96], other[96];
	unsigned int o;

	set_base(m, set, base, sizeof(base));
	for (o = 0; o < m->n_sets; o++) {
		set_base(m, o, other, sizeof(other));
		if (o == set || strcmp(base, other))
			continue;
		same = true;
		fw |= strcmp(x->firmware, m->sets[o].firmware) != 0;
		date |= strcmp(x->started, m->sets[o].started) != 0;
	}
	/* Two reports of one appliance (firmware before and after): the groups are headed by
	 * what tells them apart (issue 51, item 2). */
	if (same && fw && x->firmware[0])
		snprintf(buf, len, "%s %s", base, x->firmware);
	else if (same && !fw && date && x->started[0])
		snprintf(buf, len, "%s %s", base, x->started);
	else if (same)
		snprintf(buf, len, "%s (report %u)", base, set + 1);
	else
		snprintf(buf, len, "%s", base);
	return buf;
}

unsigned int
matrix_set_cols(const struct matrix *m, unsigned int set, unsigned int *first)
{
	unsigned int c, n = 0;

	*first = m->n_cols;
	for (c = 0; c < m->n_cols; c++) {
		if (m->cols[c].set != set)
			continue;
		if (n++ == 0)
			*first = c;
	}
	return n;
}

void
matrix_cell_dir(const struct fws_cell *c, char *buf, size_t len)
{
	if (strcmp(c->direction, "bidir"))
		snprintf(buf, len, "%s", c->direction);
	else if (c->stream_dir[0] && strcmp(c->stream_dir, "bidir"))
		snprintf(buf, len, "bidir %s", c->stream_dir);
	else
		snprintf(buf, len, "bidir (both directions summed)");
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
			r->reps[col] = r->reps[col] ? RTE_MIN(r->reps[col], reps) : reps;
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

const char *
matrix_kind_name(const char *k)
{
	static const struct {
		const char *kind, *name;
	} conn[] = {
		{"cps", "connections/s, none impaired (NDR)"},
		{"cps-fixed", "connections/s completed at a fixed rate"},
		{"sessions", "concurrent connections held"},
		{"teardown", "closes/s, none impaired (NDR)"},
		{"teardown-fixed", "closes/s completed at a fixed rate"},
	};
	unsigned int i;

	for (i = 0; i < sizeof(conn) / sizeof(conn[0]); i++)
		if (!strcmp(k, conn[i].kind))
			return conn[i].name;
	if (!strcmp(k, "ndr"))
		return "NDR (0 loss)";
	static char lat[48]; /* one report is rendered at a time */
	unsigned int pct;

	if (!strcmp(k, "pdr"))
		return "PDR";
	if (!strcmp(k, "b2b"))
		return "back-to-back bursts";
	if (sscanf(k, "lat%u", &pct) == 1) {
		snprintf(lat, sizeof(lat), "latency at %u %% of NDR", pct);
		return lat;
	}
	return "fixed rate";
}

/*
 * Text from a report file into a Markdown or MediaWiki cell: no column breaks, no lines, and
 * no markup of its own (a DUT name is the user's text, not the page's): what either syntax
 * would read as a link, a template, emphasis or a tag is written as an entity or escaped.
 */
static void
table_str(FILE *f, const char *s, bool wiki)
{
	for (; *s; s++) {
		if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (wiki && strchr("|{}[]'~_=!", *s))
			fprintf(f, "&#%d;", *s);
		else if (!wiki && strchr("|\\`*_[]#!~", *s))
			fprintf(f, "\\%c", *s);
		else
			fputc(*s, f);
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
		table_str(f, matrix_set_name(m, s, name, sizeof(name)), wiki);
		fprintf(f, " (firmware ");
		table_str(f, x->firmware[0] ? x->firmware : "not given", wiki);
		fprintf(f, ", ");
		table_str(f, x->started[0] ? x->started : "date not given", wiki);
		if (x->tool[0]) {
			fprintf(f, ", measured by ");
			table_str(f, x->tool, wiki);
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
		table_str(f, matrix_set_name(m, s, name, sizeof(name)), true);
		if (m->sets[s].firmware[0]) {
			fputs(", ", f);
			table_str(f, m->sets[s].firmware, true);
		}
		fputs(", ", f);
		table_str(f, m->sets[s].started, true);
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
			table_str(f, m->cols[c].label, wiki);
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
	table_str(f, x->first->scenario, wiki);
	fputs(sep, f);
	table_str(f, x->first->size, wiki);
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
	table_str(f, notes, wiki);
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
		table_str(f, banner, wiki);
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

/* One format's pieces of the connection table. */
static const struct {
	const char *head, *cell, *sep, *row_end, *end;
} conn_fmt[] = {
	[FWS_MATRIX_MARKDOWN] = {"| Scenario | Data | Test", " | ", " | ", " |\n", ""},
	[FWS_MATRIX_MEDIAWIKI] = {"{| class=\"wikitable\"\n! Scenario !! Data !! Test", " || ",
				  " !! ", "\n", "|}\n"},
	[FWS_MATRIX_HTML] = {"<table><tr><th>Scenario</th><th>Data</th><th>Test", "</td><td>",
			     "</th><th>", "</td></tr>\n", "</table>\n"},
};

/* Text from a report into a cell of the format. */
static void
conn_text(FILE *f, const char *s, int fmt)
{
	char buf[512];

	if (fmt == FWS_MATRIX_HTML)
		fputs(matrix_esc(s, buf, sizeof(buf)), f);
	else
		table_str(f, s, fmt == FWS_MATRIX_MEDIAWIKI);
}

void
matrix_conn_table(FILE *f, const struct matrix *m, int fmt)
{
	unsigned int r, c;
	bool md = fmt == FWS_MATRIX_MARKDOWN, html = fmt == FWS_MATRIX_HTML;

	if (m->n_crows == 0)
		return;
	fprintf(f, html ? "<h2>Connections</h2>\n" : "\nConnections (fwstress connections):\n\n");
	fputs(conn_fmt[fmt].head, f);
	for (c = 0; c < m->n_cols; c++) {
		fputs(conn_fmt[fmt].sep, f);
		conn_text(f, m->cols[c].label, fmt);
		fprintf(f, "%sfailed", conn_fmt[fmt].sep);
	}
	fputs(html ? "</th></tr>\n" : md ? " |\n" : "\n", f);
	if (md) {
		fputs("|---|---|---", f);
		for (c = 0; c < m->n_cols; c++)
			fputs("|---:|---:", f);
		fputs("|\n", f);
	}
	for (r = 0; r < m->n_crows; r++) {
		const struct row *x = &m->crows[r];

		fputs(html ? "<tr><td>" : md ? "| " : "|-\n| ", f);
		conn_text(f, x->first->scenario, fmt);
		fputs(conn_fmt[fmt].cell, f);
		conn_text(f, x->first->size, fmt);
		fprintf(f, "%s%s", conn_fmt[fmt].cell, matrix_kind_name(x->first->kind));
		for (c = 0; c < m->n_cols; c++) {
			if (!x->has[c] || x->conn[c] < 0) {
				fprintf(f, "%s%s", conn_fmt[fmt].cell, conn_fmt[fmt].cell);
				continue;
			}
			fprintf(f, "%s%s%.0f%s%.0f", conn_fmt[fmt].cell,
				x->limited[c] ? (html ? "&ge; " : ">= ") : "", x->conn[c],
				conn_fmt[fmt].cell, x->conn_failed[c]);
		}
		fputs(conn_fmt[fmt].row_end, f);
	}
	fputs(conn_fmt[fmt].end, f);
}

void
matrix_below_rfc(FILE *f, const struct matrix *m, int fmt)
{
	unsigned int s;
	char name[80];

	for (s = 0; s < m->n_sets; s++) {
		if (!m->sets[s].below_rfc[0])
			continue;
		fputs(fmt == FWS_MATRIX_HTML        ? "<p class=\"below-rfc\"><strong>"
		      : fmt == FWS_MATRIX_MEDIAWIKI ? "'''"
						    : "**",
		      f);
		fputs("BELOW RFC 2544", f);
		if (m->n_sets > 1) {
			fputs(" (", f);
			conn_text(f, matrix_set_name(m, s, name, sizeof(name)), fmt);
			fputc(')', f);
		}
		fputs(fmt == FWS_MATRIX_HTML        ? ":</strong> "
		      : fmt == FWS_MATRIX_MEDIAWIKI ? ":''' "
						    : ":** ",
		      f);
		conn_text(f, m->sets[s].below_rfc, fmt);
		fputs(fmt == FWS_MATRIX_HTML ? "</p>\n" : "\n\n", f);
	}
}

/* One back-to-back result's figures: the longest burst that passed (frames) over its
 * repetitions, and whether the generator limited it. */
static void
b2b_row(FILE *f, const struct matrix *m, unsigned int s, const struct fws_cell_b2b *b, int fmt)
{
	bool md = fmt == FWS_MATRIX_MARKDOWN, html = fmt == FWS_MATRIX_HTML;
	bool capped = !b->generator_limited && b->max_frames > 0 && b->min >= b->max_frames;
	bool bound = b->generator_limited || capped;
	char name[80];

	fputs(html ? "<tr><td>" : md ? "| " : "|-\n| ", f);
	conn_text(f,
		  b->scenario[0] ? b->scenario
		  : m->sets[s].n ? m->sets[s].c[0].scenario
				 : "-",
		  fmt);
	if (m->n_sets > 1) {
		fputs(conn_fmt[fmt].cell, f);
		conn_text(f, matrix_set_name(m, s, name, sizeof(name)), fmt);
	}
	fputs(conn_fmt[fmt].cell, f);
	conn_text(f, b->size, fmt);
	fputs(conn_fmt[fmt].cell, f);
	conn_text(f, b->direction, fmt);
	fprintf(f, "%s%s%.0f%s%.0f%s%.0f%s%u%s%s", conn_fmt[fmt].cell,
		bound ? (html ? "&ge; " : ">= ") : "", b->avg, conn_fmt[fmt].cell, b->min,
		conn_fmt[fmt].cell, b->max, conn_fmt[fmt].cell, b->trials,
		html ? "</td><td class=\"notes\">" : conn_fmt[fmt].cell,
		b->generator_limited ? "generator-limited: the longest burst the generator sent "
				       "passed, a lower bound"
		: capped ? "every burst passed the longest tried (sweep.back_to_back.seconds): a "
			   "lower bound"
			 : "");
	fputs(conn_fmt[fmt].row_end, f);
}

void
matrix_b2b_table(FILE *f, const struct matrix *m, int fmt)
{
	bool md = fmt == FWS_MATRIX_MARKDOWN, html = fmt == FWS_MATRIX_HTML;
	unsigned int s, i, n = 0;

	for (s = 0; s < m->n_sets; s++)
		n += m->sets[s].n_b2b;
	if (n == 0)
		return;
	fprintf(f, html ? "<h2>Back-to-back bursts (RFC 2544 26.4)</h2>\n"
			: "\nBack-to-back bursts (RFC 2544 26.4): the longest burst at line rate "
			  "that passed without loss, in frames, over its repetitions:\n\n");
	fputs(html ? "<table><tr><th>Scenario"
	      : md ? "| Scenario"
		   : "{| class=\"wikitable\"\n! "
		     "Scenario",
	      f);
	fprintf(f, "%s%s%sFrame size%sDirection%savg%smin%smax%srepetitions%sNotes%s",
		m->n_sets > 1 ? conn_fmt[fmt].sep : "", m->n_sets > 1 ? "Appliance" : "",
		conn_fmt[fmt].sep, conn_fmt[fmt].sep, conn_fmt[fmt].sep, conn_fmt[fmt].sep,
		conn_fmt[fmt].sep, conn_fmt[fmt].sep, conn_fmt[fmt].sep,
		html ? "</th></tr>\n"
		: md ? " |\n"
		     : "\n");
	if (md)
		fprintf(f, "|---%s|---|---|---:|---:|---:|---:|---|\n",
			m->n_sets > 1 ? "|---" : "");
	for (s = 0; s < m->n_sets; s++)
		for (i = 0; i < m->sets[s].n_b2b; i++)
			b2b_row(f, m, s, &m->sets[s].b2b[i], fmt);
	fputs(conn_fmt[fmt].end, f);
}
