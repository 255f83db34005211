/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The matrix as CSV: a row per cell (every figure, a repeated cell's values and spread), a
 * row of kind b2b per back-to-back result, each report's below-RFC note on its rows.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "matrix_int.h"

/*
 * A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. A field a
 * spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return:
 * OWASP's rule for CSV injection) is quoted and starts with a single quote, so it reads as
 * the text it is.
 */
static void
csv_str(FILE *f, const char *s)
{
	bool formula = s[0] && strchr("=+-@\t\r", s[0]) != NULL;

	if (!formula && strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A CSV number: ten significant digits in plain decimals (a spreadsheet reads 4.797e+11 as
 * text in some locales, and a column should not mix notations), trailing zeros dropped. */
static void
csv_num(FILE *f, double v)
{
	int digits = v != 0 ? (int)floor(log10(fabs(v))) + 1 : 1;
	int dec = digits >= 10 ? 0 : digits <= -2 ? 12 : 10 - digits;
	char buf[64];
	size_t n;

	snprintf(buf, sizeof(buf), "%.*f", dec, v);
	n = strlen(buf);
	if (strchr(buf, '.')) {
		while (n > 0 && buf[n - 1] == '0')
			buf[--n] = '\0';
		if (n > 0 && buf[n - 1] == '.')
			buf[--n] = '\0';
	}
	fputs(strcmp(buf, "-0") ? buf : "0", f);
}

/* A repeated cell's repetitions: their count, each one's figure (its measure's, space
 * separated, in repetition order) and their spread; empty for one measurement. */
static void
csv_spread(FILE *f, const struct fws_cell *c)
{
	const struct fws_stats *x = &c->spread;
	const double stats[] = {x->median, x->min, x->max, x->mean, x->ci95, x->cov * 100};
	unsigned int i;

	if (c->reps < 2) {
		fputs(",1,,,,,,,,,,", f);
		return;
	}
	fprintf(f, ",%u,", c->reps);
	for (i = 0; i < c->reps; i++) {
		if (i)
			fputc(' ', f);
		csv_num(f, c->values[i]);
	}
	for (i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
		fputc(',', f);
		csv_num(f, stats[i]);
	}
	fputc(',', f);
	if (x->has_pct) { /* RFC 8219's, from 20 repetitions */
		csv_num(f, x->p1);
		fputc(',', f);
		csv_num(f, x->p99);
	} else
		fputc(',', f);
	fputc(',', f);
	if (c->lat_medians.n > 1)
		csv_num(f, c->lat_medians.cov * 100);
}

/* Every cell of every report, one line each: the appliance, the cell schema's keys, the
 * repetitions' spread. */
/* A row's report: its DUT, firmware, start and whether it ended early. */
static void
csv_set(FILE *f, const struct fws_cells *set)
{
	csv_str(f, set->dut);
	fputc(',', f);
	csv_str(f, set->firmware);
	fputc(',', f);
	csv_str(f, set->started);
	fprintf(f, ",%d", set->partial);
}

/*
 * A sweep's back-to-back result as a row of kind "b2b" (issue 51, item 5): scenario,
 * direction and frame size in the cells' columns, a lower bound flagged as a cell's is
 * (generator_limited, capped_by_config: every burst passed the longest tried), the
 * repetitions, and the bursts in frames in the b2b columns; no cell figure.
 */
static void
csv_b2b(FILE *f, const struct fws_cells *set, const struct fws_cell_b2b *b)
{
	bool capped = !b->generator_limited && b->max_frames > 0 && b->min >= b->max_frames;
	const struct {
		const char *name;
		double v;
	} flags[] = {{"generator_limited", b->generator_limited}, {"capped_by_config", capped}};
	const double frames[] = {b->avg, b->min, b->max, b->max_frames};
	unsigned int i;

	csv_set(f, set);
	fputc(',', f);
	csv_str(f, b->scenario[0] ? b->scenario : set->n ? set->c[0].scenario : "");
	fputs(",b2b,", f);
	csv_str(f, b->direction);
	fputs(",,", f);
	csv_str(f, b->size);
	fputs(",,", f); /* stream_direction, verdict */
#define B2B_NUM(mb, key, dflt, lo, hi)                                                             \
	fputc(',', f);                                                                             \
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)                                     \
		if (strcmp(key, flags[i].name) == 0)                                               \
			fputc(flags[i].v ? '1' : '0', f);
	FWS_CELL_NUMBERS(B2B_NUM)
#undef B2B_NUM
	fprintf(f, ",%u,,,,,,,,,,", b->trials);
	for (i = 0; i < sizeof(frames) / sizeof(frames[0]); i++) {
		fputc(',', f);
		if (frames[i] >= 0)
			csv_num(f, frames[i]);
	}
	fputc(',', f);
	csv_str(f, set->below_rfc);
	fputc('\n', f);
}

void
matrix_csv(FILE *f, const struct matrix *m)
{
	const char *sep = ",";
	unsigned int s, i;

	fputs("dut,firmware,started,partial", f);
#define HEAD_STR(mb, key, req) fprintf(f, "%s%s", sep, key);
#define HEAD_NUM(mb, key, dflt, lo, hi) HEAD_STR(mb, key, 0)
	FWS_CELL_STRINGS(HEAD_STR)
	FWS_CELL_NUMBERS(HEAD_NUM)
	fputs(",repetitions,values,median,min,max,mean,ci95,cov_pct,p1,p99,latency_p50_cov_pct", f);
	fputs(",b2b_frames_avg,b2b_frames_min,b2b_frames_max,b2b_frames_tried,below_rfc\n", f);
	for (s = 0; s < m->n_sets; s++) {
		for (i = 0; i < m->sets[s].n; i++) {
			const struct fws_cell *c = &m->sets[s].c[i];

			csv_set(f, &m->sets[s]);
#define ROW_STR(mb, key, req) fputs(sep, f), csv_str(f, c->mb);
#define ROW_NUM(mb, key, dflt, lo, hi)                                                             \
	fputs(sep, f);                                                                             \
	if (!((dflt) < 0 && c->mb < 0))                                                            \
		csv_num(f, c->mb);
			FWS_CELL_STRINGS(ROW_STR)
			FWS_CELL_NUMBERS(ROW_NUM)
			csv_spread(f, c);
			fputs(",,,,,", f);
			csv_str(f, m->sets[s].below_rfc);
			fputc('\n', f);
		}
		for (i = 0; i < m->sets[s].n_b2b; i++)
			csv_b2b(f, &m->sets[s], &m->sets[s].b2b[i]);
	}
#undef HEAD_STR
#undef HEAD_NUM
#undef ROW_STR
#undef ROW_NUM
}
