/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The HTML report's DUT timelines: per trial with telemetry (config dut.telemetry) one SVG
 * on one time axis (seconds since the trial began): each core's busy share, all cores' in
 * black, the measured phase shaded, and the load the DUT carried (frames/s received each
 * measured second, dashed, on its own right-hand scale). A core at 100 % while the black
 * line sits low is the single-thread bound the report's notes name.
 */
#include <math.h>
#include <stdio.h>

#include "matrix_int.h"

#define TW 760
#define TH 280
#define TL 60
#define TR 70
#define TT 16
#define TB 36

struct axis {
	double t_end; /* seconds shown */
};

static double
tx(const struct axis *a, double t)
{
	return TL + t / a->t_end * (TW - TL - TR);
}

static double
ty(double pct)
{
	return TH - TB - pct / 100 * (TH - TB - TT);
}

/* The second's middle. */
static double
mid(const struct fws_timeline *tl, unsigned int i)
{
	return tl->t[i] + tl->dt[i] / 2;
}

/* One polyline through the finite values of v (stride apart), at the seconds' middles. */
static void
polyline(FILE *f, const struct axis *a, const struct fws_timeline *tl, const double *v,
	 unsigned int stride, const char *attrs)
{
	unsigned int i;

	fprintf(f, "<polyline fill=\"none\" %s points=\"", attrs);
	for (i = 0; i < tl->n; i++)
		if (isfinite(v[i * stride]) && isfinite(tl->t[i]))
			fprintf(f, "%.1f,%.1f ", tx(a, mid(tl, i)), ty(v[i * stride]));
	fprintf(f, "\"/>\n");
}

static void
frame(FILE *f, const struct axis *a, const struct fws_timeline *tl, double load_max)
{
	double step = a->t_end > 20 ? ceil(a->t_end / 10) : 1, t;
	int p;

	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n", TW, TH);
	if (tl->m0 >= 0)
		fprintf(f,
			"<rect class=\"measured\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
			"fill=\"#eee\" data-from=\"%.3f\" data-to=\"%.3f\"/>\n",
			tx(a, tl->m0), TT, tx(a, tl->m1) - tx(a, tl->m0), TH - TB - TT, tl->m0,
			tl->m1);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", TL,
		TH - TB, TW - TR, TH - TB);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", TL, TT, TL,
		TH - TB);
	for (p = 0; p <= 100; p += 25)
		fprintf(f,
			"<text class=\"ytick\" x=\"%d\" y=\"%.1f\" font-size=\"11\" "
			"text-anchor=\"end\">%d</text>\n",
			TL - 6, ty(p) + 4, p);
	for (t = 0; t <= a->t_end + 1e-9; t += step)
		fprintf(f,
			"<text class=\"xtick\" x=\"%.1f\" y=\"%d\" font-size=\"11\" "
			"text-anchor=\"middle\">%.0f</text>\n",
			tx(a, t), TH - TB + 14, t);
	fprintf(f,
		"<text x=\"12\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 12 %d)\">DUT CPU %%</text>\n",
		TH / 2, TH / 2);
	fprintf(f,
		"<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">seconds since the "
		"trial began (shaded: measured)</text>\n",
		(TW + TL) / 2, TH - 4);
	if (load_max > 0)
		fprintf(f,
			"<text class=\"loadmax\" x=\"%d\" y=\"%d\" font-size=\"11\" "
			"fill=\"#1f77b4\">%.4g kpps</text>\n",
			TW - TR + 4, TT + 4, load_max / 1e3);
}

/* The load: frames/s received in measured second k, drawn at m0 + k + 0.5, scaled so that
 * its highest second is at the top. */
static void
load_line(FILE *f, const struct axis *a, const struct fws_timeline *tl, double load_max)
{
	unsigned int k;

	if (load_max <= 0 || tl->m0 < 0)
		return;
	fprintf(f,
		"<polyline class=\"load\" fill=\"none\" stroke=\"#1f77b4\" "
		"stroke-dasharray=\"5,3\" "
		"data-max=\"%.1f\" points=\"",
		load_max);
	for (k = 0; k < tl->n_load; k++)
		if (isfinite(tl->load[k]))
			fprintf(f, "%.1f,%.1f ", tx(a, tl->m0 + k + 0.5),
				ty(tl->load[k] / load_max * 100));
	fprintf(f, "\"/>\n");
}

static void
timeline(FILE *f, const struct fws_timeline *tl, const char *set, unsigned int idx)
{
	struct axis a = {.t_end = 1};
	double load_max = 0;
	unsigned int i, c;
	char attrs[160];

	for (i = 0; i < tl->n; i++)
		if (isfinite(tl->t[i]))
			a.t_end = fmax(a.t_end, tl->t[i] + tl->dt[i]);
	for (i = 0; i < tl->n_load; i++)
		if (isfinite(tl->load[i]))
			load_max = fmax(load_max, tl->load[i]);
	fprintf(f, "<h3>DUT timeline: ");
	if (set) {
		matrix_html_escape(f, set);
		fputs(", ", f);
	}
	fprintf(f, "trial %u, frame size ", tl->trial + 1);
	matrix_html_escape(f, tl->size);
	if (tl->direction[0]) {
		fputs(", ", f);
		matrix_html_escape(f, tl->direction);
	}
	if (tl->kind[0]) {
		fputs(", ", f);
		matrix_html_escape(f, matrix_kind_name(tl->kind));
	}
	fprintf(f,
		"</h3>\n<svg class=\"timeline\" id=\"timeline-%u\" "
		"xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">\n",
		idx, TW, TH);
	frame(f, &a, tl, load_max);
	for (c = 0; c < tl->n_cpu; c++) {
		snprintf(attrs, sizeof(attrs),
			 "class=\"core\" data-core=\"%u\" stroke=\"%s\" stroke-opacity=\"0.7\"", c,
			 matrix_colours[c % MATRIX_COLOURS]);
		polyline(f, &a, tl, tl->cores + c, tl->n_cpu, attrs);
	}
	polyline(f, &a, tl, tl->cpu, 1, "class=\"cpu\" stroke=\"black\" stroke-width=\"2\"");
	load_line(f, &a, tl, load_max);
	fprintf(f, "</svg>\n");
}

void
matrix_html_timelines(FILE *f, const struct matrix *m)
{
	unsigned int s, i, idx = 0;
	char name[80];

	for (s = 0; s < m->n_sets; s++)
		idx += m->sets[s].n_timelines;
	if (idx == 0)
		return;
	fprintf(f, "<h2>The DUT over each trial</h2>\n<p class=\"note\">Black: all cores' busy "
		   "share; colours: each core; dashed: frames/s received in each measured second "
		   "(right: its highest). From the DUT's own counters (dut.telemetry).</p>\n");
	for (idx = 0, s = 0; s < m->n_sets; s++)
		for (i = 0; i < m->sets[s].n_timelines; i++)
			timeline(f, &m->sets[s].timelines[i],
				 m->n_sets > 1 ? matrix_set_name(m, s, name, sizeof(name)) : NULL,
				 idx++);
}
