/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fws_cell.h"
#include "fws_compat.h"
#include "fws_hist.h"
#include "fws_util.h"

void
fws_cells_free(struct fws_cells *cells)
{
	unsigned int i;

	for (i = 0; i < cells->n; i++) {
		free(cells->c[i].hist);
		free(cells->c[i].values);
	}
	for (i = 0; i < cells->n_timelines; i++) {
		free(cells->timelines[i].t);
		free(cells->timelines[i].dt);
		free(cells->timelines[i].cpu);
		free(cells->timelines[i].cores);
		free(cells->timelines[i].load);
	}
	free(cells->timelines);
	cells->timelines = NULL;
	cells->n_timelines = 0;
	free(cells->b2b);
	cells->b2b = NULL;
	cells->n_b2b = 0;
	free(cells->c);
	free(cells->done);
	cells->c = NULL;
	cells->done = NULL;
	cells->n = cells->n_done = 0;
}

/* Whether the comma list has word w (NULL: every word); "lat" names every latNN. */
static bool
listed(const char *list, const char *w)
{
	size_t n;

	if (list == NULL)
		return true;
	for (; *list; list += n + (list[n] == ',')) {
		n = strcspn(list, ",");
		if ((strlen(w) == n && strncmp(list, w, n) == 0) ||
		    (n == 3 && strncmp(list, "lat", 3) == 0 && strncmp(w, "lat", 3) == 0 &&
		     w[3] >= '0' && w[3] <= '9'))
			return true;
	}
	return false;
}

/* Word w (n bytes) is one of words, or with lat_pct a latency point latNN (1-100). */
static bool
word_ok(const char *w, size_t n, const char *const *words, bool lat_pct)
{
	unsigned int pct;
	char buf[24], tail;

	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, w, n);
	buf[n] = '\0';
	for (; *words; words++)
		if (strcmp(buf, *words) == 0)
			return true;
	return lat_pct && sscanf(buf, "lat%u%c", &pct, &tail) == 1 && pct >= 1 && pct <= 100 &&
	       buf[3] >= '1' && buf[3] <= '9';
}

static int
list_check(const char *opt, const char *list, const char *const *words, bool lat_pct,
	   const char *say, char *err, size_t len)
{
	size_t n;

	if (list == NULL)
		return 0;
	if (*list == '\0') {
		snprintf(err, len, "%s: an empty list (give one or more of %s)", opt, say);
		return -EINVAL;
	}
	for (; *list; list += n + (list[n] == ',')) {
		n = strcspn(list, ",");
		if (n == 0 || (list[n] == ',' && list[n + 1] == '\0')) {
			snprintf(err, len, "%s: an empty entry in the list (a comma too many)",
				 opt);
			return -EINVAL;
		}
		if (word_ok(list, n, words, lat_pct))
			continue;
		snprintf(err, len, "%s: \"%.*s\" is none of %s", opt, (int)FWS_MIN(n, (size_t)40),
			 list, say);
		return -EINVAL;
	}
	return 0;
}

int
fws_cells_pick_check(const char *only, const char *dirs, char *err, size_t len)
{
	static const char *const kinds[] = {
		"ndr", "pdr",       "lat",      "run",      "b2b",
		"cps", "cps-fixed", "sessions", "teardown", "teardown-fixed",
		NULL};
	static const char *const ways[] = {"upload", "download", "bidir", "custom", NULL};

	if (list_check("--only", only, kinds, true,
		       "ndr, pdr, lat, latNN, run, b2b, cps, cps-fixed, sessions, teardown, "
		       "teardown-fixed",
		       err, len) < 0)
		return -EINVAL;
	return list_check("--directions", dirs, ways, false, "upload, download, bidir, custom", err,
			  len);
}

void
fws_cells_pick(struct fws_cells *cells, const char *only, const char *dirs)
{
	unsigned int i, k;

	for (i = k = 0; i < cells->n; i++) {
		struct fws_cell *c = &cells->c[i];

		if (listed(only, c->kind) && listed(dirs, c->direction)) {
			cells->c[k++] = *c;
			continue;
		}
		free(c->hist);
		free(c->values);
	}
	cells->n = k;
	for (i = k = 0; i < cells->n_b2b; i++)
		if (listed(only, "b2b") && listed(dirs, cells->b2b[i].direction))
			cells->b2b[k++] = cells->b2b[i];
	cells->n_b2b = k;
	for (i = k = 0; i < cells->n_timelines; i++) {
		struct fws_timeline *t = &cells->timelines[i];

		if (listed(only, t->kind[0] ? t->kind : "run") &&
		    (t->direction[0] == '\0' || listed(dirs, t->direction))) {
			cells->timelines[k++] = *t;
			continue;
		}
		free(t->t);
		free(t->dt);
		free(t->cpu);
		free(t->cores);
		free(t->load);
	}
	cells->n_timelines = k;
}

bool
fws_cells_done(const struct fws_cells *cells, const char *direction, const char *size)
{
	unsigned int i;

	for (i = 0; cells && i < cells->n_done; i++)
		if (cells->done[i].repetition == 0 &&
		    !strcmp(cells->done[i].direction, direction) &&
		    !strcmp(cells->done[i].size, size))
			return true;
	return false;
}

bool
fws_cells_rep_done(const struct fws_cells *cells, const char *size, unsigned int rep)
{
	unsigned int i;

	for (i = 0; cells && i < cells->n_done; i++)
		if (cells->done[i].repetition == rep && !strcmp(cells->done[i].size, size))
			return true;
	return false;
}

void
fws_cell_key(const struct fws_cell *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s/%s/%s/%s", c->scenario, c->kind, c->direction, c->stream,
		 c->size);
}

/* Cells by key, sorted (ties in report order): compare looks them up in O(log n). */
struct keyed {
	char key[200];
	unsigned int idx;
};

static int
keyed_cmp(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

static struct keyed *
index_cells(const struct fws_cells *cells)
{
	struct keyed *k = malloc((cells->n + 1) * sizeof(*k));
	unsigned int i;

	if (k == NULL)
		return NULL;
	for (i = 0; i < cells->n; i++) {
		fws_cell_key(&cells->c[i], k[i].key, sizeof(k[i].key));
		k[i].idx = i;
	}
	qsort(k, cells->n, sizeof(*k), keyed_cmp);
	return k;
}

/* The first cell (in report order) with this key, or NULL. */
static const struct fws_cell *
find(const struct fws_cells *cells, const struct keyed *k, const char *key)
{
	unsigned int lo = 0, hi = cells->n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (strcmp(k[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < cells->n && strcmp(k[lo].key, key) == 0 ? &cells->c[k[lo].idx] : NULL;
}

static double
get_pps(const struct fws_cell *c)
{
	return c->pps;
}

static double
get_conn(const struct fws_cell *c)
{
	return FWS_MAX(c->connections, 0.0);
}

static double
get_p99(const struct fws_cell *c)
{
	return c->p99_ns;
}

enum { MEASURE_PPS, MEASURE_CONN, MEASURE_LAT };
static const struct fws_cell_measure measures[] = {
	[MEASURE_PPS] = {"throughput", "Mpps", 1e6, false, get_pps},
	[MEASURE_CONN] = {"connections", "c", 1, false, get_conn},
	[MEASURE_LAT] = {"latency p99", "us", 1e3, true, get_p99},
};

const struct fws_cell_measure *
fws_cell_measure(const struct fws_cell *c)
{
	if (fws_cell_is_conn(c->kind))
		return &measures[MEASURE_CONN];
	if (!strncmp(c->kind, "lat", 3))
		return &measures[MEASURE_LAT];
	return &measures[MEASURE_PPS];
}

double
fws_cell_figure(const struct fws_cell *c)
{
	return fws_cell_measure(c)->get(c);
}

/* Why two cells cannot be weighed against each other: one is no result, or not the DUT's
 * figure (NULL: they can). */
static const char *
unweighable(const struct fws_cell *o, const struct fws_cell *x)
{
	if (!fws_cell_ok(o) || !fws_cell_ok(x))
		return "no result (a cell's verdict: see the reports)";
	if (o->above_link > 0 || x->above_link > 0)
		return "above the link speed: a virtual device, not a wire rate";
	if (x->generator_limited > 0)
		return "tester-limited in the new report: a lower bound, not the DUT's figure";
	if (x->capped > 0)
		return "capped by the config in the new report: its configured maximum passed, a "
		       "lower bound, not the DUT's figure";
	if (o->rx_missed > 0 || x->rx_missed > 0)
		return "tester-limited: a receiving port missed frames, its loss is not the DUT's";
	return NULL;
}

/* A change of exactly the tolerance is within it: 1000 -> 970 at 3 % is -0.030000000000000027
 * in doubles (issue 52, item 4). */
#define EDGE 1e-9
#define Z95 1.644854 /* one-sided 95 % */
#define Z80 0.841621 /* 80 % power */
#define REPS_MAX 1000

static double
sq(double v)
{
	return v * v;
}

/* A side's figure: its repetitions' spread (n >= 2), or its one value. */
struct side {
	double mean, var; /**< the mean, one repetition's variance */
	unsigned int n;
};

static struct side
side_of(const struct fws_stats *spread, double one)
{
	if (spread->n >= 2)
		return (struct side){spread->mean, sq(spread->stdev), spread->n};
	return (struct side){one, 0, 1};
}

/*
 * Welch's t (issue 52, item 1): the one-sided 95 % half-width of x's mean minus o's, and one
 * repetition's noise (the sides' pooled standard deviation). With one side measured once the
 * other side's noise stands for both (its n - 1 degrees of freedom). False when neither
 * side has repetitions: no noise was measured.
 */
static bool
welch(struct side o, struct side x, double *half, double *noise)
{
	double vo, vx, df;

	if (o.n < 2 && x.n < 2)
		return false;
	if (o.n < 2 || x.n < 2) { /* the repeated side's noise for both */
		o.var = x.var = o.n < 2 ? x.var : o.var;
		df = (o.n < 2 ? x.n : o.n) - 1;
	}
	vo = o.var / o.n;
	vx = x.var / x.n;
	if (o.n >= 2 && x.n >= 2)
		df = vo + vx > 0 ? sq(vo + vx) / (sq(vo) / (o.n - 1) + sq(vx) / (x.n - 1))
				 : o.n + x.n - 2;
	*half = fws_stats_t95((unsigned int)df) * sqrt(vo + vx);
	*noise = sqrt((o.var + x.var) / 2);
	return true;
}

/* The figure's relative change of means (gain: positive is better), r->half and r->noise
 * relative to the old mean. */
static bool
welch_figure(struct fws_cell_cmp *r, double sign, double *gain)
{
	struct side o = side_of(&r->old->spread, fws_cell_figure(r->old));
	struct side x = side_of(&r->new_->spread, fws_cell_figure(r->new_));

	if (!(o.mean > 0) || !welch(o, x, &r->half, &r->noise))
		return false;
	*gain = sign * (x.mean / o.mean - 1);
	r->half /= o.mean;
	r->noise /= o.mean;
	return true;
}

/* Repetitions per side that would put the one-sided bound past the tolerance 4 times in 5 at
 * this noise, were the change what it measured; REPS_MAX + 1 when more than REPS_MAX. */
static unsigned int
reps_to_resolve(double noise, double gain, double t)
{
	double margin = fabs(gain) - t, n;

	if (!(margin > EDGE))
		return REPS_MAX + 1;
	n = ceil(2 * sq((Z95 + Z80) * noise / margin));
	return n > REPS_MAX ? REPS_MAX + 1 : n < 2 ? 2 : (unsigned int)n;
}

/*
 * With noise measured (repetitions on a side): WORSE or BETTER when the change is beyond
 * the tolerance with 95 % confidence (one-sided: under no change WORSE comes at most 5 % of
 * the time, whatever n); a change within the tolerance is the same; beyond it but not
 * confidently so, INCONCLUSIVE, with the repetitions that would resolve it.
 */
static void
verdict_tested(struct fws_cell_cmp *r, double gain, double t)
{
	if (gain + r->half < -t - EDGE)
		r->verdict = FWS_CELL_WORSE;
	else if (gain - r->half > t + EDGE)
		r->verdict = FWS_CELL_BETTER;
	else if (fabs(gain) > t + EDGE) {
		r->verdict = FWS_CELL_INCONCLUSIVE;
		r->reps_needed = reps_to_resolve(r->noise, gain, t);
	}
}

/* No noise measured (one measurement a side, or an old lower bound): the tolerance alone,
 * the row marked single. */
static void
verdict_single(struct fws_cell_cmp *r, double gain, double t)
{
	r->single = true;
	if (gain < -t - EDGE) /* an old lower bound above the new figure: worse for sure */
		r->verdict = FWS_CELL_WORSE;
	else if (r->old->generator_limited > 0) {
		r->verdict = FWS_CELL_SKIPPED;
		r->why = "tester-limited in the old report: a lower bound the new figure meets";
	} else if (r->old->capped > 0) {
		r->verdict = FWS_CELL_SKIPPED;
		r->why = "capped by the config in the old report: a lower bound the new figure "
			 "meets";
	} else if (gain > t + EDGE)
		r->verdict = FWS_CELL_BETTER;
}

/* At a fixed rate (run cells) a loss that rose by more than the loss tolerance (points) is
 * WORSE whatever the throughput says (issue 52, item 3): with repetitions, when it rose so
 * with 95 % confidence (else the cell is INCONCLUSIVE at most); measured once, by the
 * tolerance alone. */
static void
verdict_loss(struct fws_cell_cmp *r, const struct fws_cell_tolerance *tol)
{
	struct side o = side_of(&r->old->loss_spread, r->old->loss_pct);
	struct side x = side_of(&r->new_->loss_spread, r->new_->loss_pct);
	double t = tol->loss * 100, half = 0, noise = 0;

	if (strcmp(r->old->kind, "run") != 0 || r->verdict == FWS_CELL_SKIPPED ||
	    r->verdict == FWS_CELL_WORSE)
		return;
	r->loss_change = x.mean - o.mean;
	if (!(r->loss_change > t + EDGE))
		return;
	if (welch(o, x, &half, &noise) && r->loss_change - half <= t + EDGE) {
		if (r->verdict != FWS_CELL_INCONCLUSIVE) {
			r->verdict = FWS_CELL_INCONCLUSIVE;
			r->reps_needed = reps_to_resolve(noise, r->loss_change, t);
		}
		return;
	}
	r->verdict = FWS_CELL_WORSE;
	r->loss_worse = true;
}

static void
verdict(struct fws_cell_cmp *r, const struct fws_cell_tolerance *tol)
{
	const struct fws_cell_measure *m = fws_cell_measure(r->old);
	double o = m->get(r->old), x = m->get(r->new_);
	double t = m == &measures[MEASURE_LAT] ? tol->latency : tol->tolerance;
	double gain;

	r->change = o > 0 ? x / o - 1 : (x > 0 ? 1 : 0);
	if ((r->why = unweighable(r->old, r->new_)) != NULL) {
		r->verdict = FWS_CELL_SKIPPED;
		return;
	}
	if (!r->old->generator_limited && !r->old->capped &&
	    welch_figure(r, m->lower_better ? -1 : 1, &gain))
		verdict_tested(r, gain, t);
	else
		verdict_single(r, m->lower_better ? -r->change : r->change, t);
	verdict_loss(r, tol);
}

int
fws_cell_compare(const struct fws_cells *old, const struct fws_cells *new_,
		 const struct fws_cell_tolerance *tol, struct fws_cell_cmp **rows,
		 unsigned int *n_rows)
{
	struct fws_cell_cmp *r = calloc(old->n + new_->n + 1, sizeof(*r));
	struct keyed *ko = index_cells(old), *kn = index_cells(new_);
	unsigned int i, n = 0;
	int worse = 0;
	char key[200];

	if (r == NULL || ko == NULL || kn == NULL) {
		free(r);
		free(ko);
		free(kn);
		return -ENOMEM;
	}
	for (i = 0; i < old->n; i++) {
		fws_cell_key(&old->c[i], key, sizeof(key));
		r[n].old = &old->c[i];
		r[n].new_ = find(new_, kn, key);
		if (r[n].new_ == NULL)
			r[n].verdict = FWS_CELL_ONLY_OLD;
		else
			verdict(&r[n], tol);
		worse += r[n].verdict == FWS_CELL_WORSE;
		n++;
	}
	for (i = 0; i < new_->n; i++) {
		fws_cell_key(&new_->c[i], key, sizeof(key));
		if (find(old, ko, key) == NULL) {
			r[n].new_ = &new_->c[i];
			r[n++].verdict = FWS_CELL_ONLY_NEW;
		}
	}
	free(ko);
	free(kn);
	*rows = r;
	*n_rows = n;
	return worse;
}

/* Collapsing repetitions: the fields whose worst repetition speaks for the cell (a flag or
 * a limit in any of them holds for the cell), the others' median; a field whose default is -1
 * ("not measured": the DUT's figures, a connection test's) is the median of the repetitions
 * that have it, never one with -1 among its values (issue 51, item 6). */
static const struct {
	size_t off;
	bool worst, optional;
} nums[] = {
#define NUM_FIELD(m, key, dflt, lo, hi)                                                            \
	{offsetof(struct fws_cell, m),                                                             \
	 !strcmp(#m, "generator_limited") || !strcmp(#m, "above_link") || !strcmp(#m, "capped") || \
		 !strcmp(#m, "rx_missed") || !strcmp(#m, "attack_leaked") ||                       \
		 !strcmp(#m, "blocked_leaked") || !strcmp(#m, "conn_failed") ||                    \
		 !strcmp(#m, "flood_passed") || !strcmp(#m, "unsteady") ||                         \
		 !strcmp(#m, "worst_second") || !strcmp(#m, "dut_drops"),                          \
	 (dflt) < 0},
	FWS_CELL_NUMBERS(NUM_FIELD)
#undef NUM_FIELD
};

#define FIELD(c, i) (*(double *)((char *)(c) + nums[i].off))

static int
by_lo(const void *a, const void *b)
{
	const struct fws_cell_bucket *x = a, *y = b;

	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* Buckets of the repetitions' histograms, summed by their lower edge (sorted, then equal
 * edges folded: a 0.1 % histogram has thousands of buckets per repetition). */
static int
sum_hists(struct fws_cell *into, struct fws_cell *const *g, unsigned int n)
{
	unsigned int i, j, k = 0, total = 0;
	struct fws_cell_bucket *b;

	for (i = 0; i < n; i++)
		total += g[i]->n_hist;
	if ((b = calloc(total + 1, sizeof(*b))) == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		for (j = 0; j < g[i]->n_hist; j++)
			b[k++] = g[i]->hist[j];
	qsort(b, total, sizeof(*b), by_lo);
	into->n_hist = 0;
	for (i = 0; i < total; i++)
		if (into->n_hist && b[into->n_hist - 1].lo == b[i].lo)
			b[into->n_hist - 1].count += b[i].count;
		else
			b[into->n_hist++] = b[i];
	into->hist = b;
	return 0;
}

double
fws_cell_hist_quantile(const struct fws_cell *c, double q)
{
	uint64_t total = 0, rank, seen = 0;
	unsigned int i;

	for (i = 0; i < c->n_hist; i++)
		total += c->hist[i].count;
	if (total == 0)
		return 0;
	rank = (uint64_t)ceil(q * (double)total);
	if (rank < 1)
		rank = 1;
	if (rank > total)
		rank = total;
	for (i = 0; i < c->n_hist; i++) {
		seen += c->hist[i].count;
		if (seen >= rank)
			break;
	}
	return floor(fws_hist_in_bucket(c->hist[i].lo, c->hist[i].width, c->hist[i].count,
					seen - c->hist[i].count, rank) +
		     0.5); /* whole ns, as fws_hist_quantile */
}

/* A cell's latency over its repetitions: the percentiles of their summed histogram (every
 * frame of every repetition, as one trial of them all would give), and the spread of the
 * repetitions' own medians. */
static void
pool_latency(struct fws_cell *c, struct fws_cell *const *g, unsigned int n, double *tmp)
{
	unsigned int i;

	if (c->n_hist == 0)
		return;
	for (i = 0; i < n; i++)
		tmp[i] = g[i]->p50_ns;
	fws_stats_of(tmp, n, &c->lat_medians);
	c->p50_ns = fws_cell_hist_quantile(c, 0.5);
	c->p99_ns = fws_cell_hist_quantile(c, 0.99);
}

/* Group g (n cells of one key, in repetition order) into *out. */
static int
collapse_group(struct fws_cell *const *g, unsigned int n, struct fws_cell *out)
{
	double *v = calloc(n, sizeof(*v)), *tmp = calloc(n, sizeof(*tmp));
	struct fws_cell c = *g[0];
	struct fws_stats st;
	unsigned int i, f;

	if (v == NULL || tmp == NULL || sum_hists(&c, g, n) < 0) {
		free(v);
		free(tmp);
		return -ENOMEM;
	}
	for (f = 0; f < sizeof(nums) / sizeof(nums[0]); f++) {
		unsigned int k = 0;

		for (i = 0; i < n; i++)
			if (!nums[f].optional || FIELD(g[i], f) >= 0)
				tmp[k++] = FIELD(g[i], f);
		if (k == 0) { /* none measured it */
			FIELD(&c, f) = -1;
			continue;
		}
		fws_stats_of(tmp, k, &st);
		FIELD(&c, f) = nums[f].worst ? st.max : st.median;
	}
	for (i = 0, c.dut_reps = 0; i < n; i++)
		c.dut_reps += g[i]->dut_cpu >= 0;
	for (i = 0; i < n; i++)
		if (fws_cell_ok(&c) && !fws_cell_ok(g[i]))
			strlcpy(c.verdict, g[i]->verdict, sizeof(c.verdict));
	pool_latency(&c, g, n, tmp);
	for (i = 0; i < n; i++)
		tmp[i] = g[i]->loss_pct;
	fws_stats_of(tmp, n, &c.loss_spread);
	for (i = 0; i < n; i++)
		v[i] = tmp[i] = fws_cell_figure(g[i]);
	fws_stats_of(tmp, n, &c.spread);
	free(tmp);
	c.values = v;
	c.reps = n;
	for (i = 0; i < n; i++) { /* a later group's failure leaves these cells to be freed */
		free(g[i]->hist);
		g[i]->hist = NULL;
		g[i]->n_hist = 0;
	}
	*out = c;
	return 0;
}

static int
by_repetition(const void *a, const void *b)
{
	const struct fws_cell *x = *(struct fws_cell *const *)a, *y = *(struct fws_cell *const *)b;

	return (x->repetition > y->repetition) - (x->repetition < y->repetition);
}

int
fws_cells_collapse(struct fws_cells *cells)
{
	struct keyed *k = index_cells(cells);
	struct fws_cell **g = calloc(cells->n + 1, sizeof(*g));
	bool *gone = calloc(cells->n + 1, sizeof(*gone));
	unsigned int i, j, n, out = 0;
	int rc = 0;

	if (k == NULL || g == NULL || gone == NULL)
		rc = -ENOMEM;
	for (i = 0; rc == 0 && i < cells->n; i = j) {
		for (j = i, n = 0; j < cells->n && !strcmp(k[j].key, k[i].key); j++)
			if (cells->c[k[j].idx].repetition >= 1)
				g[n++] = &cells->c[k[j].idx];
		if (n < 2)
			continue;
		qsort(g, n, sizeof(*g), by_repetition);
		for (j = i; j < cells->n && !strcmp(k[j].key, k[i].key); j++)
			if (cells->c[k[j].idx].repetition >= 1)
				gone[k[j].idx] = true;
		gone[g[0] - cells->c] = false;
		rc = collapse_group(g, n, g[0]);
	}
	for (i = 0; rc == 0 && i < cells->n; i++)
		if (!gone[i])
			cells->c[out++] = cells->c[i];
	if (rc == 0)
		cells->n = out;
	free(k);
	free(g);
	free(gone);
	return rc;
}
