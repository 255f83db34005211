/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fws_matrix.h"

#define MAX_COLS 8

/* A matrix row: scenario, frame size and kind; per direction the summed throughput. */
struct row {
	const struct fws_cell *first;
	double pps[MAX_COLS], l1[MAX_COLS], line[MAX_COLS], cpu[MAX_COLS];
	bool has[MAX_COLS];
	bool limited[MAX_COLS]; /**< a cell of it was generator-limited */
};

/* Rows: at most one per cell. Cells in directions beyond MAX_COLS are counted, not shown. */
struct matrix {
	unsigned int n_cols, n_rows, left_out;
	const char *cols[MAX_COLS];
	struct row *rows;
};

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

static void
build(const struct fws_cells *cells, struct matrix *m)
{
	unsigned int i, j, col;

	for (i = 0; i < cells->n; i++) {
		const struct fws_cell *c = &cells->c[i];
		struct row *r = NULL;

		for (col = 0; col < m->n_cols && strcmp(m->cols[col], c->direction); col++)
			;
		if (col == m->n_cols) {
			if (m->n_cols == MAX_COLS) {
				m->left_out++;
				continue;
			}
			m->cols[m->n_cols++] = c->direction;
		}
		for (j = 0; j < m->n_rows; j++) {
			const struct fws_cell *f = m->rows[j].first;

			if (!strcmp(f->scenario, c->scenario) && !strcmp(f->size, c->size) &&
			    !strcmp(f->kind, c->kind)) {
				r = &m->rows[j];
				break;
			}
		}
		if (r == NULL) {
			r = &m->rows[m->n_rows++];
			r->first = c;
		}
		r->has[col] = true;
		r->pps[col] += c->pps;
		r->l1[col] += c->l1_bps;
		r->line[col] += c->line_pps;
		r->cpu[col] = c->dut_cpu;
		r->limited[col] |= c->generator_limited != 0;
	}
}

static const char *
kind_name(const char *k)
{
	if (!strcmp(k, "ndr"))
		return "NDR (0 loss)";
	if (!strcmp(k, "pdr"))
		return "PDR";
	return "fixed rate";
}

/* The notes of a row, derived from its cells. */
static void
row_notes(const struct matrix *m, const struct row *x, char *notes, size_t len)
{
	bool goal = strcmp(x->first->kind, "ndr") == 0 || strcmp(x->first->kind, "pdr") == 0;
	size_t used = 0;
	unsigned int c;

	notes[0] = '\0';
	for (c = 0; c < m->n_cols && used < len; c++) {
		if (!x->has[c])
			continue;
		if (x->limited[c])
			used += (size_t)snprintf(
				notes + used, len - used, "%s%s: %s", used ? "; " : "", m->cols[c],
				goal ? "generator-limited, a lower bound (no trial "
				       "lost frames)"
				     : "generator-limited");
		else if (x->line[c] > 0 && x->pps[c] >= 0.99 * x->line[c])
			used += (size_t)snprintf(notes + used, len - used,
						 "%s%s: NIC line rate reached", used ? "; " : "",
						 m->cols[c]);
	}
	if (used >= len)
		notes[len - 1] = '\0';
}

/* Text from a report file into a Markdown or MediaWiki cell: no column breaks, no lines. */
static void
table_str(FILE *f, const char *s, bool wiki)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs(wiki ? "&#124;" : "\\|", f);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
}

/* Per direction: these columns, after the row's scenario, frame size and result. */
static const char *const k_names[] = {" Mbit/s (L1)", " Mpps", " iperf Mbit/s*", " DUT CPU"};

#define GOODPUT_NOTE                                                                               \
	"* iperf Mbit/s: the TCP goodput iperf reports at MTU 1500 for that L1 rate, derived "     \
	"(not measured): L1 x 1448 / 1538 (1448 payload bytes per 1538-byte slot on the wire, "    \
	"TCP timestamps on)."

/* Markdown and MediaWiki share the layout; sep decides the syntax. */
static void
table(FILE *f, const struct matrix *m, bool wiki)
{
	unsigned int r, c;

	if (wiki)
		fprintf(f, "{| class=\"wikitable\"\n! Scenario !! Frame size !! Result");
	else
		fprintf(f, "| Scenario | Frame size | Result");
	for (c = 0; c < m->n_cols; c++) {
		unsigned int k;

		for (k = 0; k < 4; k++) {
			fputs(wiki ? " !! " : " | ", f);
			table_str(f, m->cols[c], wiki);
			fputs(k_names[k], f);
		}
	}
	fprintf(f, wiki ? " !! Notes\n" : " | Notes |\n");
	if (!wiki) {
		fprintf(f, "|---|---|---");
		for (c = 0; c < m->n_cols; c++)
			fprintf(f, "|---:|---:|---:|---:");
		fprintf(f, "|---|\n");
	}
	for (r = 0; r < m->n_rows; r++) {
		const struct row *x = &m->rows[r];
		char notes[512];

		fputs(wiki ? "|-\n| " : "| ", f);
		table_str(f, x->first->scenario, wiki);
		fputs(wiki ? " || " : " | ", f);
		table_str(f, x->first->size, wiki);
		fprintf(f, wiki ? " || %s" : " | %s", kind_name(x->first->kind));
		for (c = 0; c < m->n_cols; c++) {
			if (!x->has[c]) {
				fprintf(f, wiki ? " || || || ||" : " | | | |");
				continue;
			}
			fprintf(f,
				wiki ? " || %s%.1f || %s%.4f || %s%.1f || "
				     : " | %s%.1f | %s%.4f | %s%.1f | ",
				x->limited[c] ? "&ge; " : "", x->l1[c] / 1e6,
				x->limited[c] ? "&ge; " : "", x->pps[c] / 1e6,
				x->limited[c] ? "&ge; " : "", fws_goodput_derived(x->l1[c]) / 1e6);
			if (x->cpu[c] >= 0)
				fprintf(f, "%.0f %%", x->cpu[c]);
			else
				fprintf(f, "-");
		}
		row_notes(m, x, notes, sizeof(notes));
		fputs(wiki ? " || " : " | ", f);
		table_str(f, notes, wiki);
		fputs(wiki ? "\n" : " |\n", f);
	}
	if (wiki)
		fprintf(f, "|}\n");
	fprintf(f, "\n%s\n", GOODPUT_NOTE);
	if (m->left_out)
		fprintf(f,
			"\n%u cells in directions beyond the first %d are not in this table "
			"(csv has every cell).\n",
			m->left_out, MAX_COLS);
}

/* A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
static void
csv_str(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* Every cell, one line each, in the order and with the keys of the cell schema. */
static void
csv(FILE *f, const struct fws_cells *cells)
{
	const char *sep = "";
	unsigned int i;

#define HEAD_STR(m, key) fprintf(f, "%s%s", sep, key), sep = ",";
#define HEAD_NUM(m, key, dflt, lo, hi) HEAD_STR(m, key)
	FWS_CELL_STRINGS(HEAD_STR)
	FWS_CELL_NUMBERS(HEAD_NUM)
	fputc('\n', f);
	for (i = 0; i < cells->n; i++) {
		const struct fws_cell *c = &cells->c[i];

		sep = "";
#define ROW_STR(m, key) fputs(sep, f), csv_str(f, c->m), sep = ",";
#define ROW_NUM(m, key, dflt, lo, hi)                                                              \
	fputs(sep, f), sep = ",";                                                                  \
	if (!((dflt) < 0 && c->m < 0))                                                             \
		fprintf(f, "%.10g", c->m);
		FWS_CELL_STRINGS(ROW_STR)
		FWS_CELL_NUMBERS(ROW_NUM)
		fputc('\n', f);
	}
#undef HEAD_STR
#undef HEAD_NUM
#undef ROW_STR
#undef ROW_NUM
}

/* Text from a report file into HTML: element content and quoted attributes alike. */
static const char *
esc(const char *s, char *buf, size_t len)
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

static void
html_escape(FILE *f, const char *s)
{
	char buf[512];

	fputs(esc(s, buf, sizeof(buf)), f);
}

#define W 760
#define H 360
#define ML 70
#define MB 40
#define MT 20
#define MR 20

static const char *const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
				      "#ff7f0e", "#17becf", "#8c564b", "#e377c2"};

/* Throughput (Mpps) against frame size, one series per kind and direction, with the
 * theoretical line rate (RFC 2544 26.1). */
static void
chart_throughput(FILE *f, const struct fws_cells *cells)
{
	double xmin = 64, xmax = 1518, ymax = 0, link_bps = 0;
	char series[16][80];
	unsigned int n_series = 0, i, k;
	int x;

	for (i = 0; i < cells->n; i++) {
		const struct fws_cell *c = &cells->c[i];

		if (c->avg_frame > xmax)
			xmax = c->avg_frame;
		if (c->pps > ymax)
			ymax = c->pps;
		if (c->line_pps > 0)
			link_bps = c->line_pps * (c->avg_frame + 20) * 8;
	}
	if (link_bps > 0 && link_bps / ((xmin + 20) * 8) > ymax)
		ymax = link_bps / ((xmin + 20) * 8);
	ymax = ymax > 0 ? ymax * 1.1 : 1;
#define PX(v) (ML + ((v)-xmin) / (xmax - xmin) * (W - ML - MR))
#define PY(v) (H - MB - (v) / ymax * (H - MB - MT))
	fprintf(f,
		"<svg id=\"throughput\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\">\n",
		W, H, W, H);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", ML, H - MB,
		W - MR, H - MB);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", ML, MT, ML,
		H - MB);
	for (k = 0; k <= 4; k++)
		fprintf(f,
			"<text x=\"%d\" y=\"%.1f\" font-size=\"11\" "
			"text-anchor=\"end\">%.3f</text>\n",
			ML - 4, PY(ymax * k / 4) + 4, ymax * k / 4 / 1e6);
	fprintf(f,
		"<text x=\"12\" y=\"%d\" font-size=\"12\" transform=\"rotate(-90 12 %d)\">Mpps"
		"</text>\n",
		H / 2, H / 2);
	fprintf(f,
		"<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">frame size "
		"(bytes)</text>\n",
		(W + ML) / 2, H - 6);
	for (x = 64; x <= (int)xmax; x = x < 1518 ? x * 2 > 1518 ? 1518 : x * 2 : x + 2048)
		fprintf(f,
			"<text x=\"%.1f\" y=\"%d\" font-size=\"11\" "
			"text-anchor=\"middle\">%d</text>\n",
			PX(x), H - MB + 14, x);
	if (link_bps > 0) {
		fprintf(f, "<polyline id=\"line-rate\" fill=\"none\" stroke=\"#888\" "
			   "stroke-dasharray=\"4 3\" points=\"");
		for (x = (int)xmin; x <= (int)xmax; x += 8)
			fprintf(f, "%.1f,%.1f ", PX(x), PY(link_bps / ((x + 20) * 8.0)));
		fprintf(f,
			"\"/>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#888\">line "
			"rate %.0f Mbit/s</text>\n",
			PX(xmin) + 60, PY(link_bps / ((xmin + 20) * 8)) + 14, link_bps / 1e6);
	}
	for (i = 0; i < cells->n; i++) {
		const struct fws_cell *c = &cells->c[i];
		char name[80], raw[80], size[200];

		snprintf(raw, sizeof(raw), "%s %s", c->direction, c->kind);
		esc(raw, name, sizeof(name));
		esc(c->size, size, sizeof(size));
		for (k = 0; k < n_series && strcmp(series[k], name); k++)
			;
		if (k == n_series && n_series < 16)
			strcpy(series[n_series++], name);
		fprintf(f,
			"<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" "
			"data-series=\"%s\" data-size=\"%s\" data-pps=\"%.1f\"><title>%s %s: %.4f "
			"Mpps</title></circle>\n",
			PX(c->avg_frame), PY(c->pps), colours[k % 8], name, size, c->pps, name,
			size, c->pps / 1e6);
	}
	for (k = 0; k < n_series; k++)
		fprintf(f,
			"<text x=\"%d\" y=\"%d\" font-size=\"12\" fill=\"%s\">&#9679; %s</text>\n",
			W - MR - 180, MT + 14 + (int)k * 16, colours[k % 8], series[k]);
	fprintf(f, "</svg>\n");
#undef PX
#undef PY
}

/* Latency histogram of one cell: bars over log-spaced buckets. */
static void
chart_latency(FILE *f, const struct fws_cell *c, unsigned int idx)
{
	uint64_t maxc = 0;
	double lmin, lmax;
	unsigned int i;

	if (c->n_hist == 0)
		return;
	for (i = 0; i < c->n_hist; i++)
		if (c->hist[i].count > maxc)
			maxc = c->hist[i].count;
	if (maxc == 0)
		return; /* nothing counted: no bars to scale */
	lmin = log10((double)c->hist[0].lo + 1);
	lmax = log10((double)(c->hist[c->n_hist - 1].lo + c->hist[c->n_hist - 1].width) + 1);
	if (lmax <= lmin)
		lmax = lmin + 1;
	fprintf(f, "<h3>Latency: ");
	html_escape(f, c->stream);
	fprintf(f, ", ");
	html_escape(f, c->size);
	fprintf(f, ", ");
	html_escape(f, c->kind);
	fprintf(f,
		"</h3>\n<svg class=\"latency\" id=\"latency-%u\" "
		"xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"200\">\n",
		idx, W);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"200\" fill=\"white\"/>\n", W);
	for (i = 0; i < c->n_hist; i++) {
		double x0 = ML + (log10((double)c->hist[i].lo + 1) - lmin) / (lmax - lmin) *
					 (W - ML - MR);
		double x1 = ML + (log10((double)(c->hist[i].lo + c->hist[i].width) + 1) - lmin) /
					 (lmax - lmin) * (W - ML - MR);
		double h = (double)c->hist[i].count / (double)maxc * 160;

		fprintf(f,
			"<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"#1f77b4\" data-lo=\"%llu\" data-count=\"%llu\"/>\n",
			x0, 180 - h, x1 - x0 > 1 ? x1 - x0 : 1, h,
			(unsigned long long)c->hist[i].lo, (unsigned long long)c->hist[i].count);
	}
	fprintf(f, "<text x=\"%d\" y=\"196\" font-size=\"11\">%.1f us</text>\n", ML,
		(double)c->hist[0].lo / 1e3);
	fprintf(f,
		"<text x=\"%d\" y=\"196\" font-size=\"11\" text-anchor=\"end\">%.1f us (log "
		"scale)</text>\n</svg>\n",
		W - MR, (double)(c->hist[c->n_hist - 1].lo + c->hist[c->n_hist - 1].width) / 1e3);
}

static void
html(FILE *f, const struct fws_cells *cells, const struct matrix *m)
{
	unsigned int i, r, c;
	char notes[512];

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		   "<title>fwstress report</title>\n<style>body{font-family:sans-serif;margin:"
		   "2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;"
		   "text-align:right}th{background:#eee}</style></head><body>\n<h1>fwstress: ");
	html_escape(f, cells->dut[0] ? cells->dut : "report");
	fprintf(f, "</h1>\n<p>");
	if (cells->firmware[0]) {
		fprintf(f, "Firmware ");
		html_escape(f, cells->firmware);
		fprintf(f, ". ");
	}
	fprintf(f, "Started ");
	html_escape(f, cells->started);
	fprintf(f, ". Rates at L1 (frame + 20 bytes preamble and gap).</p>\n");
	fprintf(f, "<table id=\"matrix\"><tr><th>Scenario</th><th>Frame size</th><th>Result</th>");
	for (c = 0; c < m->n_cols; c++) {
		char col[200];

		esc(m->cols[c], col, sizeof(col));
		fprintf(f,
			"<th>%s Mbit/s</th><th>%s Mpps</th><th>%s iperf Mbit/s*</th><th>%s DUT "
			"CPU</th>",
			col, col, col, col);
	}
	fprintf(f, "<th>Notes</th></tr>\n");
	for (r = 0; r < m->n_rows; r++) {
		const struct row *x = &m->rows[r];

		fprintf(f, "<tr><td>");
		html_escape(f, x->first->scenario);
		fprintf(f, "</td><td>");
		html_escape(f, x->first->size);
		fprintf(f, "</td><td>%s</td>", kind_name(x->first->kind));
		for (c = 0; c < m->n_cols; c++) {
			if (!x->has[c]) {
				fprintf(f, "<td></td><td></td><td></td><td></td>");
				continue;
			}
			fprintf(f, "<td>%s%.1f</td><td>%s%.4f</td><td>%s%.1f</td><td>",
				x->limited[c] ? "&ge; " : "", x->l1[c] / 1e6,
				x->limited[c] ? "&ge; " : "", x->pps[c] / 1e6,
				x->limited[c] ? "&ge; " : "", fws_goodput_derived(x->l1[c]) / 1e6);
			if (x->cpu[c] >= 0)
				fprintf(f, "%.0f %%", x->cpu[c]);
			fprintf(f, "</td>");
		}
		row_notes(m, x, notes, sizeof(notes));
		fprintf(f, "<td>");
		html_escape(f, notes);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table>\n<p class=\"note\">%s</p>\n<h2>Throughput against frame size</h2>\n",
		GOODPUT_NOTE);
	chart_throughput(f, cells);
	fprintf(f, "<h2>Latency histograms</h2>\n");
	for (i = 0; i < cells->n; i++)
		chart_latency(f, &cells->c[i], i);
	fprintf(f, "</body></html>\n");
}

int
fws_matrix_render(FILE *f, const struct fws_cells *cells, enum fws_matrix_format fmt)
{
	struct matrix *m = calloc(1, sizeof(*m));

	if (m == NULL || (m->rows = calloc(cells->n + 1, sizeof(*m->rows))) == NULL) {
		free(m);
		return -ENOMEM;
	}
	build(cells, m);
	switch (fmt) {
	case FWS_MATRIX_MARKDOWN:
		table(f, m, false);
		break;
	case FWS_MATRIX_MEDIAWIKI:
		table(f, m, true);
		break;
	case FWS_MATRIX_CSV:
		csv(f, cells);
		break;
	case FWS_MATRIX_HTML:
		html(f, cells, m);
		break;
	}
	free(m->rows);
	free(m);
	return ferror(f) ? -EIO : 0;
}
