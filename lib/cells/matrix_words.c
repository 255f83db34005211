/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The matrix's words, shared by every renderer: a report's (appliance's) name as a column
 * group heads it, a cell's direction, a result kind's name, text made safe for a Markdown or
 * MediaWiki cell and for HTML, the charts' colours. Calls no other renderer (the circle
 * check holds lib/cells to it).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "matrix_int.h"

const char *const matrix_colours[MATRIX_COLOURS] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
						    "#ff7f0e", "#17becf", "#8c564b", "#e377c2"};

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
void
matrix_table_str(FILE *f, const char *s, bool wiki)
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

const char *
matrix_esc(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	for (; *s && o + 7 < len; s++) {
		const char *e = *s == '<'    ? "&lt;"
				: *s == '>'  ? "&gt;"
				: *s == '&'  ? "&amp;"
				: *s == '"'  ? "&quot;"
				: *s == '\'' ? "&#39;"
					     : NULL;

		if (e) {
			memcpy(buf + o, e, strlen(e));
			o += strlen(e);
		} else {
			buf[o++] = *s;
		}
	}
	buf[o] = '\0';
	return buf;
}

void
matrix_html_escape(FILE *f, const char *s)
{
	char buf[1024];

	fputs(matrix_esc(s, buf, sizeof(buf)), f);
}
