/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The figures of a direction's column group, as a table: what report --columns chooses from
 * and every renderer prints the same way. Markdown and MediaWiki give each its own column, so
 * a reader scans loss or latency down the matrix; the HTML page stacks them in one cell per
 * direction.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fws_compat.h"
#include "fws_util.h"
#include "matrix_int.h"

bool
matrix_above_link(const struct row *x, unsigned int col)
{
	return x->line[col] > 0 && x->pps[col] > 1.01 * x->line[col];
}

static void
v_l1(const struct row *x, unsigned int c, char *buf, size_t len)
{
	snprintf(buf, len, "%.1f", x->l1[c] / 1e6);
}

static void
v_mpps(const struct row *x, unsigned int c, char *buf, size_t len)
{
	snprintf(buf, len, "%.4f", x->pps[c] / 1e6);
}

/* The derived iperf figure means something only where the frames are the MTU-size ones iperf
 * sends (1500 to 1522 bytes, a VLAN tag included; issue 51, item 4): 64-byte frames at that
 * L1 rate are no iperf run's. A measured TCP payload rate is shown at any size. */
static bool
iperf_row(const struct row *x, unsigned int c)
{
	return x->measured[c] || (x->first->avg_frame >= 1500 && x->first->avg_frame <= 1522);
}

static void
v_iperf(const struct row *x, unsigned int c, char *buf, size_t len)
{
	if (iperf_row(x, c))
		snprintf(buf, len, "%.1f", x->goodput[c] / 1e6);
	else
		snprintf(buf, len, "-");
}

static void
v_loss(const struct row *x, unsigned int c, char *buf, size_t len)
{
	snprintf(buf, len, "%.4g", x->loss[c]);
}

static void
v_p50(const struct row *x, unsigned int c, char *buf, size_t len)
{
	snprintf(buf, len, x->p50[c] > 0 ? "%.1f" : "-", x->p50[c] / 1e3);
}

static void
v_p99(const struct row *x, unsigned int c, char *buf, size_t len)
{
	snprintf(buf, len, x->p99[c] > 0 ? "%.1f" : "-", x->p99[c] / 1e3);
}

static void
v_cpu(const struct row *x, unsigned int c, char *buf, size_t len)
{
	if (x->cpu[c] >= 0 && x->core[c] >= 0) /* telemetry: the busiest core beside it */
		snprintf(buf, len, "%.0f %% (core %.0f %%)", x->cpu[c], x->core[c]);
	else
		snprintf(buf, len, x->cpu[c] >= 0 ? "%.0f %%" : "-", x->cpu[c]);
}

/* bound: a lower bound's ">=" applies; html: its label in a stacked cell. */
const struct matrix_fig matrix_figs[] = {
	{"l1", " Mbit/s (L1)", "Mbit/s L1", true, v_l1},
	{"mpps", " Mpps", "Mpps", true, v_mpps},
	{"iperf", " iperf Mbit/s*", "iperf*", true, v_iperf},
	{"loss", " loss %", "% loss", false, v_loss},
	{"p50", " p50 us", "us p50", false, v_p50},
	{"p99", " p99 us", "us p99", false, v_p99},
	{"cpu", " DUT CPU", "DUT CPU", false, v_cpu},
};
const unsigned int matrix_n_figs = FWS_DIM(matrix_figs);

int
matrix_pick_figs(const char *list, const struct matrix_fig **out, unsigned int *n, char *err,
		 size_t errlen)
{
	char word[32];
	unsigned int k;

	*n = 0;
	while (*list) {
		size_t w = strcspn(list, ",");

		snprintf(word, sizeof(word), "%.*s", (int)FWS_MIN(w, sizeof(word) - 1), list);
		for (k = 0; k < matrix_n_figs && strcmp(word, matrix_figs[k].key); k++)
			;
		if (k == matrix_n_figs || *n == MATRIX_MAX_FIGS) {
			snprintf(err, errlen,
				 "--columns: \"%s\" is not a column (l1, mpps, iperf, loss, p50, "
				 "p99, cpu; up to %d)",
				 word, MATRIX_MAX_FIGS);
			return -EINVAL;
		}
		out[(*n)++] = &matrix_figs[k];
		list += w + (list[w] == ',');
	}
	if (*n == 0) {
		snprintf(err, errlen,
			 "--columns: name at least one (l1, mpps, iperf, loss, p50, "
			 "p99, cpu)");
		return -EINVAL;
	}
	return 0;
}

bool
matrix_shows(const struct matrix *m, const char *key)
{
	unsigned int k;

	for (k = 0; k < m->n_figs; k++)
		if (!strcmp(m->figs[k]->key, key))
			return true;
	return false;
}

const char *
matrix_fig_text(const struct row *x, unsigned int c, const struct matrix_fig *fg, bool html,
		char *buf, size_t len)
{
	bool bound = fg->bound && (x->limited[c] || x->capped[c] || x->missed[c] > 0) &&
		     (fg->value != v_iperf || iperf_row(x, c));
	char v[48];

	fg->value(x, c, v, sizeof(v));
	snprintf(buf, len, "%s%s%s", bound ? (html ? "&ge; " : ">= ") : "", v,
		 fg->value == v_l1 && matrix_above_link(x, c) ? " (above link)" : "");
	return buf;
}
