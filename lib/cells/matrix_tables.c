/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tables under the matrix, in every format: connection tests' figures, back-to-back
 * bursts, and what a sweep measured fewer times than RFC 2544 asks.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "matrix_int.h"

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
		matrix_table_str(f, s, fmt == FWS_MATRIX_MEDIAWIKI);
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
