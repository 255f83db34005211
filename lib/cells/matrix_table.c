/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The HTML page's matrix: a row per appliance under each scenario, frame size and result, a
 * column per direction (the width does not grow with the appliances), the notes numbered
 * under the table and referred to from the figures.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix_int.h"

/* Every row of one scenario: named once above the table, not in a column. */
static bool
one_scenario(const struct matrix *m)
{
	unsigned int r;

	for (r = 1; r < m->n_rows; r++)
		if (strcmp(m->rows[r].first->scenario, m->rows[0].first->scenario))
			return false;
	return m->n_rows > 0;
}

/* The table's direction columns: each direction once, in order of first appearance; an
 * appliance's figures of it in its own row (the width does not grow with appliances). */
struct page_dirs {
	unsigned int n;
	const char *dir[MAX_COLS];
	bool one_scn; /**< every row of one scenario: named above the table, no column */
};

static void
page_dirs_of(const struct matrix *m, struct page_dirs *d)
{
	unsigned int c, k;

	d->n = 0;
	d->one_scn = one_scenario(m);
	for (c = 0; c < m->n_cols; c++) {
		for (k = 0; k < d->n && strcmp(d->dir[k], m->cols[c].dir); k++)
			;
		if (k == d->n)
			d->dir[d->n++] = m->cols[c].dir;
	}
}

/* The column of set's figures in direction dir; -1: the set has none. */
static int
page_col(const struct matrix *m, unsigned int set, const char *dir)
{
	unsigned int c;

	for (c = 0; c < m->n_cols; c++)
		if (m->cols[c].set == set && strcmp(m->cols[c].dir, dir) == 0)
			return (int)c;
	return -1;
}

static void
page_table_head(FILE *f, const struct matrix *m, const struct page_dirs *d)
{
	bool one = d->one_scn;
	unsigned int k;
	char col[400];

	if (one) {
		fprintf(f, "<p class=\"scenario\">Scenario: <strong>");
		matrix_html_escape(f, m->rows[0].first->scenario);
		fprintf(f, "</strong></p>\n");
	}
	fprintf(f, "<div class=\"wide\"><table id=\"matrix\">");
	fprintf(f, "<tr>%s<th>Frame size</th><th>Result</th>%s", one ? "" : "<th>Scenario</th>",
		m->n_sets > 1 ? "<th>Appliance</th>" : "");
	for (k = 0; k < d->n; k++)
		fprintf(f, "<th>%s</th>", matrix_esc(d->dir[k], col, sizeof(col)));
	fprintf(f, "</tr>\n");
}

/* The page's notes: each text once, numbered from 1 in order of first use; the cells refer
 * to them by number and the list under the table gives them. */
struct page_notes {
	char **text;
	unsigned int n, cap;
	unsigned int cell[32]; /**< the numbers of the cell being drawn */
	unsigned int n_cell;
};

static void
page_note(void *arg, const char *text)
{
	struct page_notes *pn = arg;
	unsigned int k, i;

	for (k = 0; k < pn->n && strcmp(pn->text[k], text); k++)
		;
	if (k == pn->n) {
		if (pn->n == pn->cap) {
			unsigned int cap = pn->cap ? 2 * pn->cap : 64;
			char **t = realloc(pn->text, cap * sizeof(*t));

			if (t == NULL)
				return;
			pn->text = t;
			pn->cap = cap;
		}
		if ((pn->text[pn->n] = strdup(text)) == NULL)
			return;
		pn->n++;
	}
	for (i = 0; i < pn->n_cell && pn->cell[i] != k + 1; i++)
		;
	if (i == pn->n_cell && pn->n_cell < sizeof(pn->cell) / sizeof(pn->cell[0]))
		pn->cell[pn->n_cell++] = k + 1;
}

/* The cell's references to the notes under the table. */
static void
page_refs(FILE *f, const struct matrix *m, const struct row *x, unsigned int c,
	  struct page_notes *pn)
{
	unsigned int i;

	pn->n_cell = 0;
	matrix_col_notes(m, x, c, page_note, pn);
	if (pn->n_cell == 0)
		return;
	fputs(" <sup class=\"refs\">", f);
	for (i = 0; i < pn->n_cell; i++)
		fprintf(f, "%s<a href=\"#note-%u\">%u</a>", i ? "," : "", pn->cell[i], pn->cell[i]);
	fputs("</sup>", f);
}

/* The notes the cells refer to, numbered, under the table. */
static void
page_notes_list(FILE *f, struct page_notes *pn)
{
	unsigned int k;

	if (pn->n)
		fprintf(f, "<ol class=\"notes\" id=\"notes\">\n");
	for (k = 0; k < pn->n; k++) {
		fprintf(f, "<li id=\"note-%u\">", k + 1);
		matrix_html_escape(f, pn->text[k]);
		fprintf(f, "</li>\n");
		free(pn->text[k]);
	}
	if (pn->n)
		fprintf(f, "</ol>\n");
	free(pn->text);
	memset(pn, 0, sizeof(*pn));
}

/* One direction's figures in one cell, each with its label: the first, throughput, large,
 * with the numbers of its notes. */
static void
page_figs(FILE *f, const struct matrix *m, const struct row *x, unsigned int c,
	  struct page_notes *pn)
{
	unsigned int k;
	char v[96];

	if (!x->has[c]) {
		fprintf(f, "<td></td>");
		return;
	}
	if (x->verdict[c]) {
		fprintf(f, "<td class=\"verdict\">");
		matrix_html_escape(f, matrix_verdict_word(x->verdict[c], v, sizeof(v)));
		page_refs(f, m, x, c, pn);
		fprintf(f, "</td>");
		return;
	}
	/* The first alone on its line, the others two a line: a row stays a few lines tall. */
	fprintf(f, "<td class=\"figs\">");
	for (k = 0; k < m->n_figs; k++) {
		fprintf(f, "<span class=\"fig fig-%s\">%s <small>%s</small></span>",
			m->figs[k]->key, matrix_fig_text(x, c, m->figs[k], true, v, sizeof(v)),
			m->figs[k]->label);
		if (k == 0)
			page_refs(f, m, x, c, pn);
		fputs(k + 1 == m->n_figs ? "" : k == 0 || k % 2 == 0 ? "<br>" : " &middot; ", f);
	}
	fprintf(f, "</td>");
}

/* Whether set measured anything of row x. */
static bool
page_set_in(const struct matrix *m, const struct row *x, unsigned int set)
{
	unsigned int c;

	for (c = 0; c < m->n_cols; c++)
		if (m->cols[c].set == set && x->has[c])
			return true;
	return false;
}

/* A matrix row: a table row per appliance that measured it, its size and result once. */
static void
page_row(FILE *f, const struct matrix *m, const struct row *x, const struct page_dirs *d,
	 struct page_notes *pn)
{
	unsigned int s, k, n = 0, done = 0;
	char name[80];

	for (s = 0; s < m->n_sets; s++)
		n += page_set_in(m, x, s);
	for (s = 0; s < m->n_sets; s++) {
		if (!page_set_in(m, x, s))
			continue;
		fprintf(f, "<tr%s>", done ? "" : " class=\"first\"");
		if (done++ == 0) {
			if (!d->one_scn) {
				fprintf(f, "<td rowspan=\"%u\">", n);
				matrix_html_escape(f, x->first->scenario);
				fprintf(f, "</td>");
			}
			fprintf(f, "<td rowspan=\"%u\">", n);
			matrix_html_escape(f, x->first->size);
			fprintf(f, "</td><td class=\"kind\" rowspan=\"%u\">%s</td>", n,
				matrix_kind_name(x->first->kind));
		}
		if (m->n_sets > 1) {
			fprintf(f, "<td class=\"appliance\">");
			matrix_html_escape(f, matrix_set_name(m, s, name, sizeof(name)));
			fprintf(f, "</td>");
		}
		for (k = 0; k < d->n; k++) {
			int c = page_col(m, s, d->dir[k]);

			if (c < 0)
				fprintf(f, "<td></td>");
			else
				page_figs(f, m, x, (unsigned int)c, pn);
		}
		fprintf(f, "</tr>\n");
	}
}

void
matrix_html_table(FILE *f, const struct matrix *m)
{
	struct page_notes pn = {0};
	struct page_dirs dirs;
	unsigned int r;

	if (m->n_rows == 0) /* (report --only b2b: the bursts' table alone) */
		return;
	page_dirs_of(m, &dirs);
	page_table_head(f, m, &dirs);
	for (r = 0; r < m->n_rows; r++)
		page_row(f, m, &m->rows[r], &dirs, &pn);
	fprintf(f, "</table></div>\n");
	page_notes_list(f, &pn);
	if (matrix_shows(m, "iperf"))
		fprintf(f, "<p class=\"note\">%s</p>\n", GOODPUT_NOTE);
}
