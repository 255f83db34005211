/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The HTML page of the matrix: one self-contained file, SVG charts drawn here. Throughput
 * against frame size in Mpps and in Mbit/s (L1), a marker shape per series and a small
 * sideways offset, so points of different directions or appliances stay apart where they
 * coincide; the theoretical line rate per port speed (RFC 2544 26.1); with several
 * appliances grouped bars per matrix row; latency histograms with axes, ticks and p50/p99.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "matrix_int.h"

#define W 760
#define H 360
#define ML 70
#define MB 40
#define MT 20
#define MR 20
#define MAX_SERIES 16
#define MAX_SPEEDS 8

/* A chart's frame: the plot area's scale and the SVG it draws into. */
struct plot {
	double xmin, xmax, ymax;
	int w, h;
};

static double
px(const struct plot *p, double x)
{
	return ML + (x - p->xmin) / (p->xmax - p->xmin) * (p->w - ML - MR);
}

static double
py(const struct plot *p, double y)
{
	return p->h - MB - y / p->ymax * (p->h - MB - MT);
}

/* A round tick step (1, 2, 2.5 or 5 times a power of ten) giving at most four steps up to
 * top. */
static double
tick_step(double top)
{
	static const double m[] = {1, 2, 2.5, 5, 10};
	double raw = top / 4, mag = pow(10, floor(log10(raw)));
	unsigned int i;

	for (i = 0; i + 1 < sizeof(m) / sizeof(m[0]) && m[i] * mag < raw; i++)
		;
	return m[i] * mag;
}

/* Decimals that print step and its multiples exactly (2.5: 1, 0.05: 2). */
static int
tick_decimals(double step)
{
	int d;

	for (d = 0; d < 6; d++) {
		double x = step * pow(10, d);

		if (fabs(x - round(x)) < 1e-6 * x)
			return d;
	}
	return d;
}

/* Both axes, value ticks on y at round numbers (in units of div), the axis titles. */
static void
axes(FILE *f, const struct plot *p, double div, const char *ytitle, const char *xtitle)
{
	double step = tick_step(p->ymax / div);
	int dec;
	unsigned int k;

	/* A report's figures are input: rates so small the step underflows (denormals) get one
	 * tick at 0 and one at the top, never a loop that does not end. */
	if (!(step > 0 && step * div > 0 && isfinite(step)))
		step = p->ymax > 0 ? p->ymax / div : 1;
	dec = tick_decimals(step);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n", p->w,
		p->h);
	fprintf(f,
		"<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
		ML, p->h - MB, p->w - MR, p->h - MB);
	fprintf(f,
		"<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
		ML, MT, ML, p->h - MB);
	for (k = 0; k * step * div <= p->ymax * (1 + 1e-9) && k <= 8; k++) {
		double y = py(p, k * step * div);

		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"black\"/>\n",
			ML - 4, y, ML, y);
		fprintf(f,
			"<text class=\"ytick\" x=\"%d\" y=\"%.1f\" font-size=\"11\" "
			"text-anchor=\"end\">%.*f</text>\n",
			ML - 6, y + 4, dec, k * step);
	}
	fprintf(f,
		"<text x=\"12\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 12 %d)\">%s</text>\n",
		p->h / 2, p->h / 2, ytitle);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%s</text>\n",
		(p->w + ML) / 2, p->h - 6, xtitle);
}

/* Frame-size ticks: 64, 128, ... 1518, then every 2 KiB. */
static void
size_ticks(FILE *f, const struct plot *p)
{
	int x;

	for (x = 64; x <= (int)p->xmax; x = x < 1518 ? x * 2 > 1518 ? 1518 : x * 2 : x + 2048) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\"/>\n",
			px(p, x), p->h - MB, px(p, x), p->h - MB + 4);
		fprintf(f,
			"<text class=\"xtick\" x=\"%.1f\" y=\"%d\" font-size=\"11\" "
			"text-anchor=\"middle\">%d</text>\n",
			px(p, x), p->h - MB + 16, x);
	}
}

/* Series k's marker: shape by k % 4, hollow from the fifth series on. attrs go in. */
static void
marker(FILE *f, unsigned int k, double x, double y, const char *attrs)
{
	const char *c = matrix_colours[k % MATRIX_COLOURS];
	char paint[96];

	if ((k / 4) % 2)
		snprintf(paint, sizeof(paint), "fill=\"white\" stroke=\"%s\" stroke-width=\"2\"",
			 c);
	else
		snprintf(paint, sizeof(paint), "fill=\"%s\" stroke=\"%s\"", c, c);
	switch (k % 4) {
	case 0:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" %s %s>", x, y, paint, attrs);
		fputs("</circle>", f);
		break;
	case 1:
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" %s %s>", x - 4,
			y - 4, paint, attrs);
		fputs("</rect>", f);
		break;
	case 2:
		fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" %s %s>", x, y - 5,
			x - 5, y + 4, x + 5, y + 4, paint, attrs);
		fputs("</polygon>", f);
		break;
	default:
		fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" %s %s>", x,
			y - 5, x + 5, y, x, y + 5, x - 5, y, paint, attrs);
		fputs("</polygon>", f);
	}
}

/* Series: appliance, direction and result kind. */
struct series {
	unsigned int n;
	char name[MAX_SERIES][200]; /**< escaped */
};

static unsigned int
series_of(struct series *s, const struct matrix *m, unsigned int set, const struct fws_cell *c)
{
	char raw[200], name[200], setname[80], dir[64];
	unsigned int k;

	matrix_cell_dir(c, dir, sizeof(dir));
	if (m->n_sets > 1)
		snprintf(raw, sizeof(raw), "%s %s %s",
			 matrix_set_name(m, set, setname, sizeof(setname)), dir, c->kind);
	else
		snprintf(raw, sizeof(raw), "%s %s", dir, c->kind);
	matrix_esc(raw, name, sizeof(name));
	for (k = 0; k < s->n && strcmp(s->name[k], name); k++)
		;
	if (k == s->n && s->n < MAX_SERIES)
		strcpy(s->name[s->n++], name);
	return k < MAX_SERIES ? k : MAX_SERIES - 1;
}

/* Port speeds seen (from each cell's line rate), in bit/s. */
static unsigned int
speeds(const struct matrix *m, double *bps)
{
	unsigned int s, i, k, n = 0;

	for (s = 0; s < m->n_sets; s++) {
		for (i = 0; i < m->sets[s].n; i++) {
			const struct fws_cell *c = &m->sets[s].c[i];
			double b;

			if (c->line_pps <= 0)
				continue;
			b = round(c->line_pps * (c->avg_frame + 20) * 8 / 1e6) * 1e6;
			for (k = 0; k < n && fabs(bps[k] - b) > 0.5; k++)
				;
			if (k == n && n < MAX_SPEEDS)
				bps[n++] = b;
		}
	}
	return n;
}

/* The theoretical maximum at each port speed, in pps (mbps false) or L1 bit/s. */
static void
line_rates(FILE *f, const struct plot *p, const double *bps, unsigned int n, bool mbps)
{
	double mid = (p->xmin + p->xmax) / 2;
	unsigned int k;
	int x;

	for (k = 0; k < n; k++) {
		fprintf(f,
			"<polyline class=\"line-rate\" data-mbps=\"%.0f\" fill=\"none\" "
			"stroke=\"#888\" stroke-dasharray=\"4 3\" points=\"",
			bps[k] / 1e6);
		for (x = (int)p->xmin; x <= (int)p->xmax; x += 8)
			fprintf(f, "%.1f,%.1f ", px(p, x),
				py(p, mbps ? bps[k] : bps[k] / ((x + 20) * 8.0)));
		fprintf(f,
			"\"/>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#666\">line "
			"rate "
			"%.0f Mbit/s</text>\n",
			mbps ? ML + 10.0 : px(p, mid),
			py(p, mbps ? bps[k] : bps[k] / ((mid + 20) * 8)) - 4, bps[k] / 1e6);
	}
}

/* Below the plot, under the axis label: nothing of the plot (line rates, ticks) is covered.
 * LEGEND_ROW a series; the chart's height grows by legend_h. */
#define LEGEND_ROW 16
static int
legend_h(const struct series *s)
{
	return s->n ? 8 + (int)s->n * LEGEND_ROW : 0;
}

static void
legend(FILE *f, const struct plot *p, const struct series *s)
{
	unsigned int k;

	for (k = 0; k < s->n; k++) {
		int y = p->h + 8 + (int)k * LEGEND_ROW;

		marker(f, k, ML + 6, y, "class=\"key\"");
		fprintf(f, "\n<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>\n", ML + 16, y + 4,
			s->name[k]);
	}
}

/* A repeated cell's spread at x: a bar from its repetitions' lowest to highest figure, with
 * caps (class "err"; data-min and data-max in the chart's unit: pps, or L1 bit/s by the
 * cell's own ratio). Only where the figure charted is the cell's measure (throughput). */
static void
error_bar(FILE *f, const struct plot *p, const struct fws_cell *c, unsigned int k, double x,
	  bool mbps)
{
	double scale = mbps && c->pps > 0 ? c->l1_bps / c->pps : 1;
	double lo = c->spread.min * scale, hi = c->spread.max * scale;

	if (c->reps < 2 || strcmp(fws_cell_measure(c)->name, "throughput"))
		return;
	fprintf(f,
		"<g class=\"err\" data-min=\"%.1f\" data-max=\"%.1f\" stroke=\"%s\">"
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/></g>\n",
		lo, hi, matrix_colours[k % MATRIX_COLOURS], x, py(p, hi), x, py(p, lo), x - 4,
		py(p, hi), x + 4, py(p, hi), x - 4, py(p, lo), x + 4, py(p, lo));
}

/* A cell's figure is a lower bound of the DUT's (the table's ">="): the generator, the
 * config's maximum or the receiver limited it. */
static int
lower_bound(const struct fws_cell *c)
{
	return c->generator_limited != 0 || c->capped != 0 || c->rx_missed > 0;
}

/* Throughput against frame size: Mpps (id "throughput", markers "pt") or L1 Mbit/s
 * (id "throughput-mbps", markers "pt-bps"); a repeated cell's marker is its median, with
 * its repetitions' range as an error bar. */
static void
chart_throughput(FILE *f, const struct matrix *m, bool mbps)
{
	struct plot p = {.xmin = 64, .xmax = 1518, .w = W, .h = H};
	struct series ser = {0};
	double bps[MAX_SPEEDS];
	unsigned int n_speeds = speeds(m, bps), s, i, k;

	for (s = 0; s < m->n_sets; s++)
		for (i = 0; i < m->sets[s].n; i++) {
			const struct fws_cell *c = &m->sets[s].c[i];

			p.xmax = fmax(p.xmax, c->avg_frame);
			if (!fws_cell_ok(c))
				continue;
			p.ymax = fmax(p.ymax, mbps ? c->l1_bps : c->pps);
			if (c->reps > 1 && c->pps > 0) /* room for the error bar */
				p.ymax = fmax(p.ymax,
					      c->spread.max * (mbps ? c->l1_bps / c->pps : 1));
			series_of(&ser, m, s, c); /* the legend's rows, for the height */
		}
	for (k = 0; k < n_speeds; k++)
		p.ymax = fmax(p.ymax, mbps ? bps[k] : bps[k] / ((p.xmin + 20) * 8));
	p.ymax = p.ymax > 0 ? p.ymax * 1.1 : 1;
	fprintf(f,
		"<svg id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\">\n",
		mbps ? "throughput-mbps" : "throughput", W, H + legend_h(&ser), W,
		H + legend_h(&ser));
	axes(f, &p, 1e6, mbps ? "Mbit/s (L1)" : "Mpps", "frame size (bytes)");
	size_ticks(f, &p);
	line_rates(f, &p, bps, n_speeds, mbps);
	for (s = 0; s < m->n_sets; s++)
		for (i = 0; i < m->sets[s].n; i++) {
			const struct fws_cell *c = &m->sets[s].c[i];
			double v = mbps ? c->l1_bps : c->pps;
			char attrs[1024], size[100], reps[96] = "";
			double x;

			if (!fws_cell_ok(c))
				continue; /* not a result: no point to read as one */
			k = series_of(&ser, m, s, c);
			matrix_esc(c->size, size, sizeof(size));
			if (c->reps > 1)
				snprintf(reps, sizeof(reps),
					 " (median of %u repetitions, their spread +/-%.1f %%)",
					 c->reps, c->spread.cov * 100);
			if (snprintf(attrs, sizeof(attrs),
				     "class=\"%s\" data-series=\"%s\" data-size=\"%s\" "
				     "data-%s=\"%.1f\" data-lower=\"%d\"><title>%s "
				     "%s: %s%.4f %s%s</title",
				     mbps ? "pt-bps" : "pt", ser.name[k], size,
				     mbps ? "bps" : "pps", v, lower_bound(c), ser.name[k], size,
				     lower_bound(c) ? "at least " : "", v / 1e6,
				     mbps ? "Mbit/s" : "Mpps", reps) >= (int)sizeof(attrs))
				continue; /* cannot happen: names are escaped into 200 bytes */
			/* Series side by side: coinciding points stay visible. */
			x = px(&p, c->avg_frame) + ((double)(k % 5) - 2) * 3;
			error_bar(f, &p, c, k, x, mbps);
			marker(f, k, x, py(&p, v), attrs);
			if (lower_bound(c)) /* the DUT's figure lies at or above: an arrow up */
				fprintf(f,
					"<path class=\"lower\" d=\"M%.1f %.1f V%.1f M%.1f %.1f "
					"L%.1f %.1f L%.1f %.1f\" fill=\"none\" stroke=\"%s\"/>",
					x, py(&p, v) - 6, py(&p, v) - 18, x - 4, py(&p, v) - 14, x,
					py(&p, v) - 18, x + 4, py(&p, v) - 14,
					matrix_colours[k % MATRIX_COLOURS]);
			fputc('\n', f);
		}
	legend(f, &p, &ser);
	fprintf(f, "</svg>\n");
}

/* A decade of nanoseconds as a reader writes it: 100 ns, 1 us, 10 ms, 1 s. */
static const char *
ns_label(double ns, char *buf, size_t len)
{
	static const struct {
		double div;
		const char *unit;
	} u[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}};
	unsigned int i;

	for (i = 0; i + 1 < sizeof(u) / sizeof(u[0]) && ns < u[i].div * (1 - 1e-9); i++)
		;
	snprintf(buf, len, "%.0f %s", ns / u[i].div, u[i].unit);
	return buf;
}

/* Decade ticks of a log axis from lmin to lend, on an axis that runs to lmax (log10 of ns +
 * 1). */
static void
log_ticks(FILE *f, double lmin, double lend, double lmax, int h)
{
	double d;

	for (d = floor(lmin); d <= ceil(lend); d++) {
		double x = ML + (d - lmin) / (lmax - lmin) * (W - ML - MR), ns = pow(10, d);
		char label[16];

		if (d < lmin || d > lend)
			continue;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\"/>\n",
			x, h - MB, x, h - MB + 4);
		fprintf(f,
			"<text class=\"xtick\" x=\"%.1f\" y=\"%d\" font-size=\"11\" "
			"text-anchor=\"middle\" data-ns=\"%.0f\">%s</text>\n",
			x, h - MB + 16, ns, ns_label(ns, label, sizeof(label)));
	}
}

/* The p50 and p99 markers of a histogram. */
static void
percentiles(FILE *f, const struct fws_cell *c, double lmin, double lmax, int h)
{
	const double v[] = {c->p50_ns, c->p99_ns};
	const int pct[] = {50, 99};
	unsigned int i;

	for (i = 0; i < 2; i++) {
		double x = ML + (log10(v[i] + 1) - lmin) / (lmax - lmin) * (W - ML - MR);

		if (v[i] <= 0)
			continue;
		fprintf(f,
			"<line class=\"pct\" data-p=\"%d\" data-ns=\"%.0f\" x1=\"%.1f\" y1=\"%d\" "
			"x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-dasharray=\"3 2\"/>\n",
			pct[i], v[i], x, MT, x, h - MB, i ? "#d62728" : "#2ca02c");
		fprintf(f,
			"<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"%s\">p%d %.2f "
			"us</text>\n",
			x + 3, MT + 10 + 12 * (int)i, i ? "#d62728" : "#2ca02c", pct[i],
			v[i] / 1e3);
	}
}

/* The buckets a histogram's axis spans: up to the one holding the 99.9th percentile, and
 * those within a decade above it; a few outliers far beyond (one 1 ms frame among 0.2 us
 * ones) would otherwise squeeze every other bar into the left edge. */
static unsigned int
hist_end(const struct fws_cell *c)
{
	uint64_t total = 0, cum = 0;
	unsigned int i, end = c->n_hist;
	double top;

	if (c->n_hist == 0) /* no histogram (a cell without latency): no axis */
		return 0;
	for (i = 0; i < c->n_hist; i++)
		total += c->hist[i].count;
	for (i = 0; i < c->n_hist; i++) {
		cum += c->hist[i].count;
		if ((double)cum >= 0.999 * (double)total) {
			end = i + 1;
			break;
		}
	}
	top = 10.0 * (double)(c->hist[end - 1].lo + c->hist[end - 1].width);
	while (end < c->n_hist && (double)(c->hist[end].lo + c->hist[end].width) <= top)
		end++;
	return end;
}

/* The frames beyond the axis: one bar at its right end, saying how many and how far. */
static void
outliers(FILE *f, const struct plot *p, const struct fws_cell *c, uint64_t n, double from)
{
	const struct fws_cell_bucket *last = &c->hist[c->n_hist - 1];
	double x0 = px(p, from) + 4, y = py(p, (double)n);

	fprintf(f,
		"<rect class=\"bar beyond\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\" fill=\"#ff7f0e\" data-count=\"%llu\"/>\n"
		"<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">%llu beyond, up "
		"to %.1f us</text>\n",
		x0, y, fmax(p->w - MR - x0, 2), p->h - MB - y, (unsigned long long)n,
		(double)(p->w - MR), MT + 34, (unsigned long long)n,
		(double)(last->lo + last->width) / 1e3);
}

/* The bars of a histogram's first end buckets: 0.1 % buckets drawn one by one would be
 * thousands of hair-thin bars of a few frames each, so every power of two is drawn as 32 bars
 * (at most 3.1 % wide), each the sum of the buckets it covers. Into b (end of them at most):
 * how many. */
static unsigned int
hist_bars(const struct fws_cell *c, unsigned int end, struct fws_cell_bucket *b)
{
	unsigned int i, n = 0;

	for (i = 0; i < end; i++) {
		uint64_t lo = c->hist[i].lo, w = 1;

		if (lo >= 32) {
			w = 1ull << (63 - __builtin_clzll(lo) - 5);
			lo &= ~(w - 1);
		}
		if (n && b[n - 1].lo == lo) {
			b[n - 1].count += c->hist[i].count;
			b[n - 1].width = c->hist[i].lo + c->hist[i].width - lo;
		} else {
			b[n++] = (struct fws_cell_bucket){
				.lo = lo,
				.width = w > c->hist[i].width ? w : c->hist[i].width,
				.count = c->hist[i].count};
		}
	}
	return n;
}

/* Latency histogram of one cell: bars over log-spaced buckets, axes, p50 and p99. */
static void
chart_latency(FILE *f, const struct matrix *m, unsigned int set, const struct fws_cell *c,
	      unsigned int idx)
{
	struct plot p = {.xmin = 0, .xmax = 1, .w = W, .h = 240};
	unsigned int i, end = hist_end(c), n_bars;
	struct fws_cell_bucket *bars;
	uint64_t beyond = 0;
	double lmin, lmax, lend;
	char name[80], dir[64];

	if (end == 0 || (bars = malloc(end * sizeof(*bars))) == NULL)
		return; /* no histogram (or no memory for its bars): no chart */
	n_bars = hist_bars(c, end, bars);
	for (i = 0; i < n_bars; i++)
		p.ymax = fmax(p.ymax, (double)bars[i].count);
	for (i = end; i < c->n_hist; i++)
		beyond += c->hist[i].count;
	p.ymax = fmax(p.ymax, (double)beyond);
	if (p.ymax == 0) {
		free(bars);
		return; /* nothing counted: no bars to scale */
	}
	lmin = log10((double)bars[0].lo + 1);
	lend = log10((double)(c->hist[end - 1].lo + c->hist[end - 1].width) + 1);
	if (lend <= lmin)
		lend = lmin + 1;
	lmax = beyond ? lend + 0.12 * (lend - lmin) : lend; /* room for the outliers' bar */
	fprintf(f, "<h3>Latency: ");
	if (m->n_sets > 1) {
		matrix_html_escape(f, matrix_set_name(m, set, name, sizeof(name)));
		fputs(", ", f);
	}
	matrix_cell_dir(c, dir, sizeof(dir));
	matrix_html_escape(f, dir);
	if (strcmp(dir, c->stream) != 0 && /* a stream named other than its direction */
	    strcmp(c->stream, c->stream_dir[0] ? c->stream_dir : c->direction) != 0) {
		fputs(" (stream ", f);
		matrix_html_escape(f, c->stream);
		fputs(")", f);
	}
	fprintf(f, ", frame size ");
	matrix_html_escape(f, c->size);
	fprintf(f, ", ");
	matrix_html_escape(f, matrix_kind_name(c->kind));
	if (!fws_cell_ok(c)) {
		fprintf(f, " (");
		matrix_html_escape(f, c->verdict);
		fprintf(f, ": not a result)");
	}
	fprintf(f,
		"</h3>\n<svg class=\"latency\" id=\"latency-%u\" "
		"xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">\n",
		idx, W, p.h);
	axes(f, &p, 1, "frames", "latency (log scale)");
	log_ticks(f, lmin, lend, lmax, p.h);
	for (i = 0; i < n_bars; i++) {
		double x0 = (log10((double)bars[i].lo + 1) - lmin) / (lmax - lmin);
		double x1 =
			(log10((double)(bars[i].lo + bars[i].width) + 1) - lmin) / (lmax - lmin);
		double y = py(&p, (double)bars[i].count);

		fprintf(f,
			"<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"#1f77b4\" data-lo=\"%llu\" data-count=\"%llu\"/>\n",
			px(&p, fmax(x0, 0)), y, fmax(px(&p, x1) - px(&p, fmax(x0, 0)), 1),
			p.h - MB - y, (unsigned long long)bars[i].lo,
			(unsigned long long)bars[i].count);
	}
	free(bars);
	if (beyond)
		outliers(f, &p, c, beyond, (lend - lmin) / (lmax - lmin));
	percentiles(f, c, lmin, lmax, p.h);
	fprintf(f, "</svg>\n");
}

/* A bar's colour is its appliance's; every second direction of an appliance is lighter. */
static const char *
col_opacity(const struct matrix *m, unsigned int c)
{
	unsigned int first;

	matrix_set_cols(m, m->cols[c].set, &first);
	return (c - first) % 2 ? "0.45" : "1";
}

/* Several appliances: per matrix row a group of bars, one per appliance and direction. */
static void
chart_appliances(FILE *f, const struct matrix *m)
{
	const double gw = fmax(m->n_cols * 14.0 + 24, 110);
	struct plot p = {.xmin = 0, .xmax = 1, .h = H};
	unsigned int r, c;

	p.w = (int)fmax(W, ML + MR + m->n_rows * gw);
	for (r = 0; r < m->n_rows; r++)
		for (c = 0; c < m->n_cols; c++)
			p.ymax = fmax(p.ymax, m->rows[r].l1[c]);
	p.ymax = p.ymax > 0 ? p.ymax * 1.25 : 1;
	fprintf(f,
		"<svg id=\"appliances\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\">\n",
		p.w, p.h + 8 + (int)m->n_cols * LEGEND_ROW);
	axes(f, &p, 1e6, "Mbit/s (L1)", "scenario, frame size, result");
	for (r = 0; r < m->n_rows; r++) {
		const struct row *x = &m->rows[r];
		double x0 = ML + r * gw + 12;
		char label[200];

		for (c = 0; c < m->n_cols; c++) {
			double y = py(&p, x->l1[c]);

			if (!x->has[c] || x->verdict[c])
				continue;
			fprintf(f,
				"<rect class=\"gbar\" data-col=\"%s\" data-mbps=\"%.1f\" "
				"x=\"%.1f\" "
				"y=\"%.1f\" width=\"12\" height=\"%.1f\" fill=\"%s\" "
				"fill-opacity=\"%s\"/>\n",
				matrix_esc(m->cols[c].label, label, sizeof(label)), x->l1[c] / 1e6,
				x0 + c * 14.0, y, p.h - MB - y, matrix_colours[m->cols[c].set % 8],
				col_opacity(m, c));
		}
		snprintf(label, sizeof(label), "%s %s %s", x->first->scenario, x->first->size,
			 x->first->kind);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">",
			x0 + m->n_cols * 7.0, p.h - MB + 14);
		matrix_html_escape(f, label);
		fprintf(f, "</text>\n");
	}
	for (c = 0; c < m->n_cols; c++) {
		char label[200];

		int y = p.h + 3 + (int)c * LEGEND_ROW; /* below the plot, as legend() */

		fprintf(f,
			"<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\" "
			"fill-opacity=\"%s\"/><text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>\n",
			ML + 1, y, matrix_colours[m->cols[c].set % 8], col_opacity(m, c), ML + 16,
			y + 9, matrix_esc(m->cols[c].label, label, sizeof(label)));
	}
	fprintf(f, "</svg>\n");
}

static void
page_head(FILE *f, const struct matrix *m)
{
	unsigned int s;
	char name[80], banner[1024];

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		   "<title>fwstress report</title>\n<style>body{font-family:sans-serif;margin:"
		   "2em}.wide{overflow-x:auto}table{border-collapse:collapse}td,th{border:1px "
		   "solid #ccc;padding:3px 8px;text-align:right}td{white-space:nowrap}"
		   "td.notes{white-space:normal;text-align:left;min-width:16em;max-width:40em}"
		   "td.figs{line-height:1.25;font-size:0.85em}.fig-l1{font-size:1.25em;font-weight:"
		   "bold}"
		   "td.kind{white-space:normal;max-width:7em}sup.refs{font-size:0.8em}"
		   "td.appliance{text-align:left;font-weight:bold}tr.first td{border-top:2px solid "
		   "#888}"
		   "small{color:#666}"
		   "th{background:#eee}</style></head><body>\n<h1>fwstress: ");
	if (m->n_sets == 1)
		matrix_html_escape(f, m->sets[0].dut[0] ? m->sets[0].dut : "report");
	else
		fprintf(f, "%u appliances", m->n_sets);
	fprintf(f, "</h1>\n");
	matrix_partial_banner(m, banner, sizeof(banner));
	if (banner[0]) {
		fprintf(f, "<p class=\"partial\"><strong>");
		matrix_html_escape(f, banner);
		fprintf(f, "</strong></p>\n");
	}
	matrix_below_rfc(f, m, FWS_MATRIX_HTML);
	for (s = 0; s < m->n_sets; s++) {
		fprintf(f, "<p class=\"appliance\">");
		if (m->n_sets > 1) {
			matrix_html_escape(f, matrix_set_name(m, s, name, sizeof(name)));
			fputs(": ", f);
		}
		if (m->sets[s].firmware[0]) {
			fprintf(f, "Firmware ");
			matrix_html_escape(f, m->sets[s].firmware);
			fprintf(f, ". ");
		}
		fprintf(f, "Started ");
		matrix_html_escape(f, m->sets[s].started[0] ? m->sets[s].started : "(not given)");
		fprintf(f, ". Measured by <span class=\"tool\">");
		matrix_html_escape(f, m->sets[s].tool[0] ? m->sets[s].tool : "(not named)");
		fprintf(f, "</span>.</p>\n");
	}
	fprintf(f, "<p>Rates at L1 (frame + 20 bytes preamble and gap).</p>\n");
}

void
matrix_html(FILE *f, const struct matrix *m)
{
	unsigned int s, i, idx = 0;

	page_head(f, m);
	matrix_html_table(f, m);
	matrix_conn_table(f, m, FWS_MATRIX_HTML);
	matrix_b2b_table(f, m, FWS_MATRIX_HTML);
	fprintf(f, "<h2>Throughput against frame size</h2>\n");
	chart_throughput(f, m, false);
	chart_throughput(f, m, true);
	if (m->n_sets > 1) {
		fprintf(f, "<h2>Appliances side by side</h2>\n<div class=\"wide\">");
		chart_appliances(f, m);
		fprintf(f, "</div>\n");
	}
	matrix_html_timelines(f, m);
	fprintf(f, "<h2>Latency histograms</h2>\n");
	for (s = 0; s < m->n_sets; s++)
		for (i = 0; i < m->sets[s].n; i++)
			chart_latency(f, m, s, &m->sets[s].c[i], idx++);
	fprintf(f, "</body></html>\n");
}
