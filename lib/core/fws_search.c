/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fws_search.h"

/* The interval of one goal in one phase (short or final trials). */
struct bounds {
	double lo, hi; /* lo passed (or min), hi failed (or above max) */
	int lo_trial;  /* index of the trial that set lo, -1: none */
};

struct goal_state {
	double loss;        /* loss ratio goal */
	struct bounds shrt; /* from short trials */
	struct bounds fin;  /* from final-duration trials */
	bool final_phase;   /* short trials proved unreliable or narrowing done */
	bool done;
	unsigned int down; /* final-duration failures in a row without a passing load */
	unsigned int inconsistent;
};

struct fws_search {
	struct fws_search_cfg cfg;
	struct goal_state g[FWS_SEARCH_GOALS];
	unsigned int n;
	struct fws_search_trial t[FWS_SEARCH_MAX_TRIALS];
	bool pending;
};

static void
bounds_init(struct bounds *b, double min_load)
{
	b->lo = min_load;
	b->hi = 1.0 + 1e-9; /* nothing failed yet: max itself is untested */
	b->lo_trial = -1;
}

struct fws_search *
fws_search_new(const struct fws_search_cfg *cfg)
{
	struct fws_search *s;
	int i;

	if (!(cfg->min_load > 0 && cfg->min_load < 1) || !(cfg->width > 0 && cfg->width < 1) ||
	    !(cfg->pdr_loss >= 0 && cfg->pdr_loss < 1) || !(cfg->short_s > 0) ||
	    !(cfg->final_s >= cfg->short_s) || cfg->max_trials == 0) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return NULL;
	s->cfg = *cfg;
	if (s->cfg.max_trials > FWS_SEARCH_MAX_TRIALS)
		s->cfg.max_trials = FWS_SEARCH_MAX_TRIALS;
	for (i = 0; i < FWS_SEARCH_GOALS; i++) {
		s->g[i].loss = i == FWS_SEARCH_NDR ? 0 : cfg->pdr_loss;
		bounds_init(&s->g[i].shrt, cfg->min_load);
		bounds_init(&s->g[i].fin, cfg->min_load);
	}
	return s;
}

static double
loss_ratio(const struct fws_search_trial *t)
{
	return t->tx ? (double)t->lost / (double)t->tx : 1.0;
}

/* What one goal wants next: a load and a duration, or 0 when it is done. */
static int
goal_next(struct fws_search *s, struct goal_state *g, double *load, double *duration)
{
	const struct fws_search_cfg *c = &s->cfg;
	struct bounds *b;

	if (g->done)
		return 0;
	if (!g->final_phase) {
		b = &g->shrt;
		if (b->hi > 1.0 && b->lo < 1.0) { /* max untested */
			*load = 1.0;
			*duration = c->short_s;
			return 1;
		}
		if (b->hi - b->lo > c->width && b->hi > c->min_load) {
			*load = (b->lo + b->hi) / 2;
			*duration = c->short_s;
			return 1;
		}
		/* Narrowed with short trials: confirm lo at final duration. */
		g->final_phase = true;
		g->fin.hi = b->hi <= 1.0 ? b->hi : g->fin.hi;
		if (b->lo_trial < 0 && b->hi <= c->min_load) {
			g->done = true; /* even the minimum failed */
			return 0;
		}
		/* Another goal's final trial may have confirmed it already. */
		if (!(g->fin.lo_trial >= 0 && g->fin.lo >= b->lo)) {
			*load = b->lo_trial >= 0 ? b->lo : c->min_load;
			*duration = c->final_s;
			return 1;
		}
	}
	b = &g->fin;
	if (b->lo_trial >= 0 && (b->hi - b->lo <= c->width || b->hi > 1.0)) {
		g->done = true;
		return 0;
	}
	if (b->hi <= c->min_load * (1 + 1e-9)) {
		g->done = true; /* even the minimum failed */
		return 0;
	}
	if (b->lo_trial >= 0) {
		*load = (b->lo + b->hi) / 2;
	} else {
		/* No load holds at final duration yet: step down from the failure, doubling the
		 * step each time (MLRsearch's external search), then bisect. */
		double step = c->width * (double)(1u << (g->down < 20 ? g->down : 20));

		*load = b->hi - step > c->min_load ? b->hi - step : c->min_load;
		g->down++;
	}
	*duration = c->final_s;
	return 1;
}

int
fws_search_next(struct fws_search *s, double *load, double *duration)
{
	int i;

	if (s->pending || s->n >= s->cfg.max_trials)
		return 0;
	/* PDR first: it sits higher, and its failures bound NDR too. */
	for (i = FWS_SEARCH_GOALS - 1; i >= 0; i--) {
		if (goal_next(s, &s->g[i], load, duration)) {
			s->t[s->n].load = *load;
			s->t[s->n].duration = *duration;
			s->pending = true;
			return 1;
		}
	}
	return 0;
}

static void
update(struct goal_state *g, struct bounds *b, const struct fws_search_trial *t, int idx)
{
	bool pass = loss_ratio(t) <= g->loss;

	if (pass) {
		g->down = 0;
		if (t->load >= b->hi) {
			/* It passes above a load that failed: an inconsistent DUT. The newer
			 * result wins for this load, the failure above stays. */
			g->inconsistent++;
		}
		if (t->load >= b->lo && t->load < b->hi) {
			b->lo = t->load;
			b->lo_trial = idx;
		}
	} else {
		if (t->load <= b->lo && b->lo_trial >= 0) {
			/* A load at or below the one that passed now fails: the newer result
			 * wins, the lower bound has to be found again. */
			g->inconsistent++;
			b->lo = 0;
			b->lo_trial = -1;
		}
		if (t->load < b->hi)
			b->hi = t->load;
	}
}

void
fws_search_record(struct fws_search *s, double offered, uint64_t tx, uint64_t lost)
{
	struct fws_search_trial *t = &s->t[s->n];
	int i;

	if (!s->pending)
		return;
	t->offered = offered;
	t->tx = tx;
	t->lost = lost;
	for (i = 0; i < FWS_SEARCH_GOALS; i++) {
		struct goal_state *g = &s->g[i];

		/* Every trial narrows the short interval; only final-duration ones the final. */
		update(g, &g->shrt, t, (int)s->n);
		if (t->duration >= s->cfg.final_s)
			update(g, &g->fin, t, (int)s->n);
		else if (g->final_phase && loss_ratio(t) > g->loss && t->load < g->fin.hi)
			g->fin.hi = t->load;
	}
	s->n++;
	s->pending = false;
}

void
fws_search_missed(struct fws_search *s, uint64_t missed)
{
	if (s->n > 0)
		s->t[s->n - 1].missed = missed;
}

/* A trial that failed goal g, and whose loss beyond the goal's share its receivers' misses
 * explain: a failure that may be the tester's. */
static bool
tester_failed(const struct goal_state *g, const struct fws_search_trial *t)
{
	uint64_t dut = t->lost > t->missed ? t->lost - t->missed : 0;

	return loss_ratio(t) > g->loss && t->missed > 0 && (double)dut <= g->loss * (double)t->tx;
}

void
fws_search_goal(const struct fws_search *s, int goal, struct fws_search_goal *out)
{
	const struct goal_state *g = &s->g[goal];
	unsigned int i, failed = 0;

	memset(out, 0, sizeof(*out));
	out->trial = g->fin.lo_trial;
	out->upper = g->fin.hi > 1.0 ? 1.0 : g->fin.hi;
	if (g->fin.lo_trial >= 0) {
		const struct fws_search_trial *t = &s->t[g->fin.lo_trial];

		out->found = true;
		out->load = t->load;
		out->offered = t->offered;
		out->loss_ratio = loss_ratio(t);
		out->conditional = t->offered * (1 - out->loss_ratio);
	}
	for (i = 0; i < s->n; i++) {
		if (loss_ratio(&s->t[i]) <= g->loss)
			continue;
		failed++;
		if (s->t[i].load <= out->load + 1e-12)
			out->exceeded++;
		if (out->found && tester_failed(g, &s->t[i]) && s->t[i].load <= out->upper + 1e-9 &&
		    !out->tester_limited) {
			out->tester_limited = true;
			out->missed = s->t[i].missed;
		}
	}
	if (out->found && failed == 0 && out->offered < 0.99 * out->load) {
		out->generator_limited = true;
		out->upper = 0;
	}
}

unsigned int
fws_search_trials(const struct fws_search *s, const struct fws_search_trial **t)
{
	*t = s->t;
	return s->n;
}

void
fws_search_free(struct fws_search *s)
{
	free(s);
}
