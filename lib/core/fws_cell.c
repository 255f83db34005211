/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fws_cell.h"

void
fws_cells_free(struct fws_cells *cells)
{
	unsigned int i;

	for (i = 0; i < cells->n; i++)
		free(cells->c[i].hist);
	free(cells->c);
	cells->c = NULL;
	cells->n = 0;
}

void
fws_cell_key(const struct fws_cell *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s/%s/%s/%s", c->scenario, c->kind, c->direction, c->stream,
		 c->size);
}

static const struct fws_cell *
find(const struct fws_cells *cells, const char *key)
{
	char k[200];
	unsigned int i;

	for (i = 0; i < cells->n; i++) {
		fws_cell_key(&cells->c[i], k, sizeof(k));
		if (strcmp(k, key) == 0)
			return &cells->c[i];
	}
	return NULL;
}

int
fws_cell_compare(const struct fws_cells *old, const struct fws_cells *new_, double tolerance,
		 struct fws_cell_cmp **rows, unsigned int *n_rows)
{
	struct fws_cell_cmp *r = calloc(old->n + new_->n + 1, sizeof(*r));
	unsigned int i, n = 0;
	int worse = 0;
	char key[200];

	if (r == NULL)
		return -ENOMEM;
	for (i = 0; i < old->n; i++) {
		const struct fws_cell *o = &old->c[i], *x;

		fws_cell_key(o, key, sizeof(key));
		x = find(new_, key);
		r[n].old = o;
		r[n].new_ = x;
		if (x == NULL) {
			r[n++].verdict = FWS_CELL_ONLY_OLD;
			continue;
		}
		r[n].change = o->pps > 0 ? x->pps / o->pps - 1 : (x->pps > 0 ? 1 : 0);
		if (r[n].change < -tolerance) {
			r[n].verdict = FWS_CELL_WORSE;
			worse++;
		} else if (r[n].change > tolerance) {
			r[n].verdict = FWS_CELL_BETTER;
		}
		n++;
	}
	for (i = 0; i < new_->n; i++) {
		fws_cell_key(&new_->c[i], key, sizeof(key));
		if (find(old, key) == NULL) {
			r[n].new_ = &new_->c[i];
			r[n++].verdict = FWS_CELL_ONLY_NEW;
		}
	}
	*rows = r;
	*n_rows = n;
	return worse;
}
