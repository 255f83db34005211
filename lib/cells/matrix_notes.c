/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A matrix row's notes, derived from its cells' measurements, never typed: what a figure
 * is not (no result, above the link, a lower bound, the tester's loss), what proves the DUT
 * inspected, and the loss and latency when the matrix has no column for them.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fws_compat.h"
#include "fws_util.h"
#include "matrix_int.h"
#include "fws_telem.h"

const char *
matrix_verdict_word(const char *verdict, char *buf, size_t len)
{
	size_t n = strcspn(verdict, ":");

	snprintf(buf, len, "%.*s", (int)FWS_MIN(n, len - 1), verdict);
	return buf;
}

void
matrix_partial_banner(const struct matrix *m, char *buf, size_t len)
{
	size_t used = 0;
	unsigned int s;
	char name[80];

	buf[0] = '\0';
	for (s = 0; s < m->n_sets && used < len; s++) {
		const struct fws_cells *x = &m->sets[s];

		if (!x->partial)
			continue;
		if (x->status[0] >= '1' && x->status[0] <= '9') { /* a campaign's failures */
			used += (size_t)snprintf(buf + used, len - used,
						 "%sPARTIAL REPORT: %s: %s; their rows say so, "
						 "every other cell was measured.",
						 used ? " " : "",
						 matrix_set_name(m, s, name, sizeof(name)),
						 x->status);
			continue;
		}
		used += (size_t)snprintf(
			buf + used, len - used,
			"%sPARTIAL REPORT: %s ended before its end (%s): the cells it completed "
			"are shown, the rest were not measured.",
			used ? " " : "", matrix_set_name(m, s, name, sizeof(name)),
			x->status[0] ? x->status : "interrupted");
	}
}

struct notes {
	char *buf;
	size_t len, used;
	bool col_open;
	void (*emit)(void *arg, const char *text); /**< each note alone, instead of buf */
	void *arg;
};

/* One note of a column; the first of the column names it. */
static void __attribute__((format(printf, 3, 4)))
note(struct notes *n, const char *label, const char *fmt, ...)
{
	va_list ap;

	if (n->emit) {
		char one[512];

		va_start(ap, fmt);
		vsnprintf(one, sizeof(one), fmt, ap);
		va_end(ap);
		n->emit(n->arg, one);
		return;
	}
	if (n->used >= n->len)
		return;
	if (n->col_open)
		n->used += (size_t)snprintf(n->buf + n->used, n->len - n->used, ", ");
	else
		n->used += (size_t)snprintf(n->buf + n->used, n->len - n->used,
					    "%s%s: ", n->used ? "; " : "", label);
	n->col_open = true;
	if (n->used >= n->len)
		return;
	va_start(ap, fmt);
	n->used += (size_t)vsnprintf(n->buf + n->used, n->len - n->used, fmt, ap);
	va_end(ap);
}

/* A repeated cell's spread (coefficient of variation) marked above 2 %, warned above 5 %. */
#define SPREAD_MARK 0.02
#define SPREAD_WARN 0.05

/* Scenarios whose result means nothing unless the DUT is seen inspecting. */
static bool
inspects(const char *scenario)
{
	return !strcmp(scenario, "ids") || !strcmp(scenario, "ips") ||
	       !strcmp(scenario, "appcontrol");
}

static void
col_notes(struct notes *n, const struct matrix *m, const struct row *x, unsigned int c,
	  const char *label, bool goal)
{
	const char *scn = x->first->scenario;

	n->col_open = false;
	if (x->verdict[c]) { /* not a result: why, and nothing that reads as one */
		note(n, label, "%s: NOT A RESULT", x->verdict[c]);
		return;
	}
	/* At a fixed load loss is the result; a latency point's figures come first (where the
	 * matrix has no column for them). */
	if (!goal && !matrix_shows(m, "loss"))
		note(n, label, "loss %.4g %%", x->loss[c]);
	if (x->p50[c] > 0 && !matrix_shows(m, "p50") && !matrix_shows(m, "p99"))
		note(n, label, "latency p50 %.1f / p99 %.1f us", x->p50[c] / 1e3, x->p99[c] / 1e3);
	if (x->n_streams[c] > 1)
		note(n, label, "%u streams summed (%s); loss and latency the worst stream's",
		     x->n_streams[c], x->streams[c]);
	if (x->reps[c] > 1)
		note(n, label, "median of %u repetitions, their spread %s%.1f %%%s", x->reps[c],
		     x->spread[c] > SPREAD_MARK ? "~" : "+/-", x->spread[c] * 100,
		     x->spread[c] > SPREAD_WARN
			     ? " (REPETITIONS DISAGREE: above 5 %, the median may mislead)"
			     : "");
	if (x->reps[c] > 1 && x->lat_spread[c] > 0)
		note(n, label, "latency of all repetitions pooled, their medians' spread %s%.1f %%",
		     x->lat_spread[c] > SPREAD_MARK ? "~" : "+/-", x->lat_spread[c] * 100);
	if (x->unsteady[c])
		note(n, label,
		     "UNSTEADY within a trial: a second %.1f %% off its mean (beyond the steady "
		     "band)",
		     x->worst_second[c]);
	if (x->limited[c])
		note(n, label, "%s",
		     goal ? "generator-limited, a lower bound (no trial lost frames)"
			  : "generator-limited");
	if (x->capped[c])
		note(n, label,
		     "CAPPED BY THE CONFIG: its maximum rate passed, a lower bound (raise the "
		     "rate to find the DUT's)");
	if (matrix_above_link(x, c))
		note(n, label,
		     "ABOVE LINK SPEED (%.4f Mpps at most): a virtual device, unpaced: not a wire "
		     "rate",
		     x->line[c] / 1e6);
	else if (!x->limited[c] && x->line[c] > 0 && x->pps[c] >= 0.99 * x->line[c])
		note(n, label, "line rate reached");
	if (x->missed[c] > 0)
		note(n, label,
		     "TESTER-LIMITED: the receiver missed %.0f frames (its loss, not the DUT's)%s",
		     x->missed[c], goal ? ", a lower bound" : "");
	if (x->measured[c])
		note(n, label, "TCP goodput measured, not derived");
	if (x->flood[c] >= 0)
		note(n, label, "under a SYN flood of %.0f/s, %.0f SYNs passed", x->flood[c],
		     x->flood_passed[c]);
	if (x->reps[c] > 1 && x->dut_reps[c] > 0 && x->dut_reps[c] < x->reps[c])
		note(n, label,
		     "DUT figures: the median of the %u of %u repetitions that measured them",
		     x->dut_reps[c], x->reps[c]);
	if (x->cpu[c] > 95)
		note(n, label, "DUT CPU above 95 %%");
	if (x->core[c] >= FWS_TELEM_SINGLE_CORE && x->cpu[c] >= 0 &&
	    x->cpu[c] <= FWS_TELEM_SINGLE_MEAN)
		note(n, label,
		     "DUT: one core at %.0f %% while the mean is %.0f %%: single-thread bound",
		     x->core[c], x->cpu[c]);
	if (x->dut_drops[c] > 0)
		note(n, label, "the DUT dropped %.0f frames in its NICs (its own counters)",
		     x->dut_drops[c]);
	if (x->attack_leaked[c] > 0)
		note(n, label, "%s leaked %.0f of %.0f %s frames",
		     strcmp(scn, "appcontrol") ? "IPS" : "application control", x->attack_leaked[c],
		     x->attack[c], strcmp(scn, "appcontrol") ? "attack" : "blocked-application");
	if (x->blocked_leaked[c] > 0)
		note(n, label, "%.0f frames leaked to destinations expected blocked",
		     x->blocked_leaked[c]);
	if (inspects(scn) && x->attack[c] <= 0)
		note(n, label, "inspection not proven (no attack frames in the trial)");
	else if (inspects(scn) && x->attack_leaked[c] < 0)
		note(n, label,
		     "inspection not proven (attack frames pass by design: see the "
		     "DUT's alerts)");
}

/* A row of a search goal: loss is not its result but its condition. */
static bool
goal_row(const struct row *x)
{
	return strcmp(x->first->kind, "ndr") == 0 || strcmp(x->first->kind, "pdr") == 0;
}

void
matrix_col_notes(const struct matrix *m, const struct row *x, unsigned int c,
		 void (*emit)(void *arg, const char *text), void *arg)
{
	struct notes n = {.emit = emit, .arg = arg};

	if (x->has[c])
		col_notes(&n, m, x, c, m->cols[c].label, goal_row(x));
}

void
matrix_row_notes(const struct matrix *m, const struct row *x, char *buf, size_t len)
{
	bool goal = goal_row(x);
	struct notes n = {.buf = buf, .len = len};
	unsigned int c;

	buf[0] = '\0';
	for (c = 0; c < m->n_cols; c++)
		if (x->has[c])
			col_notes(&n, m, x, c, m->cols[c].label, goal);
	if (n.used >= len)
		buf[len - 1] = '\0';
}
