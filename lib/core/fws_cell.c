/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "fws_cell.h"

void
fws_cells_free(struct fws_cells *cells)
{
	unsigned int i;

	for (i = 0; i < cells->n; i++)
		free(cells->c[i].hist);
	free(cells->c);
	free(cells->done);
	cells->c = NULL;
	cells->done = NULL;
	cells->n = cells->n_done = 0;
}

bool
fws_cells_done(const struct fws_cells *cells, const char *direction, const char *size)
{
	unsigned int i;

	for (i = 0; cells && i < cells->n_done; i++)
		if (!strcmp(cells->done[i].direction, direction) &&
		    !strcmp(cells->done[i].size, size))
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
	return RTE_MAX(c->connections, 0.0);
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
	if (o->rx_missed > 0 || x->rx_missed > 0)
		return "tester-limited: a receiving port missed frames, its loss is not the DUT's";
	return NULL;
}

static void
verdict(struct fws_cell_cmp *r, const struct fws_cell_tolerance *tol, int *worse)
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
	gain = m->lower_better ? -r->change : r->change;
	if (gain < -t) { /* an old lower bound above the new figure: worse for sure */
		r->verdict = FWS_CELL_WORSE;
		(*worse)++;
	} else if (r->old->generator_limited > 0) {
		r->verdict = FWS_CELL_SKIPPED;
		r->why = "tester-limited in the old report: a lower bound the new figure meets";
	} else if (gain > t) {
		r->verdict = FWS_CELL_BETTER;
	}
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
			verdict(&r[n], tol, &worse);
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
