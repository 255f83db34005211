/* SPDX-License-Identifier: BSD-3-Clause */
/* The connection tests' method: which trials, in what order, and what is kept. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fws_compat.h"
#include "fws_conntest.h"
#include "fws_util.h"

/* A trial's derived fields from its stats: percentiles, impaired, verdict. */
static void
trial_finish(struct fws_conntrial *t)
{
	const struct fws_conn_stats *st = &t->st;

	t->est_min_us = st->est.count ? (double)st->est.min / 1e3 : 0;
	t->est_max_us = (double)st->est.max / 1e3;
	t->est_avg_us = fws_hist_mean(&st->est) / 1e3;
	t->est_p50_us = (double)fws_hist_quantile(&st->est, 0.5) / 1e3;
	t->est_p99_us = (double)fws_hist_quantile(&st->est, 0.99) / 1e3;
	/* capacity: every attempted connection should be held; the others: closed. */
	t->impaired = st->attempted - FWS_MIN(st->clean, st->attempted);
	t->pass = fws_conn_criteria(st, t->verdict, sizeof(t->verdict));
	t->generator_limited = t->tx_refused > 0 || t->achieved < 0.99 * t->rate;
}

static struct fws_conntrial *
next_slot(struct fws_connrun *run)
{
	struct fws_conntrial *n;
	unsigned int cap;

	if (run->n_trials == run->cap_trials) {
		cap = run->cap_trials ? run->cap_trials * 2 : 16;
		if ((n = realloc(run->trials, sizeof(*n) * cap)) == NULL)
			return NULL;
		run->trials = n;
		run->cap_trials = cap;
	}
	n = &run->trials[run->n_trials];
	memset(n, 0, sizeof(*n));
	return n;
}

static void
log_trial(const struct fws_connrun *run, const struct fws_connops *ops,
	  const struct fws_conntrial *t)
{
	if (ops->log == NULL)
		return;
	fprintf(ops->log,
		"connections: %s trial %u: %.0f/s asked, %.0f/s reached%s: %lu attempted, %lu "
		"established, %lu closed, %lu held, %lu failed, %lu impaired; %s\n",
		fws_conn_test_name(run->test), run->n_trials, t->rate, t->achieved,
		t->generator_limited ? " (generator-limited)" : "", (unsigned long)t->st.attempted,
		(unsigned long)t->st.established, (unsigned long)t->st.closed,
		(unsigned long)t->st.held, (unsigned long)fws_conn_failed(&t->st),
		(unsigned long)t->impaired, t->verdict);
	if (run->test == FWS_CONN_CAPACITY && t->st.first_fail != FWS_CONN_FAIL_NONE)
		fprintf(ops->log, "connections: capacity: %lu held when the first failed (%s)\n",
			(unsigned long)t->st.held_at_fail, fws_conn_fail_name(t->st.first_fail));
	fflush(ops->log);
}

/* One trial and what follows it: kept, saved, then the reset and aging. */
static int
one(struct fws_connrun *run, const struct fws_connops *ops, double rate, struct fws_err *e)
{
	struct fws_conntrial *t = next_slot(run);
	int rc;

	if (t == NULL)
		return fws_err_set(e, FWS_ERR_FAULT, -ENOMEM, "connections: out of memory");
	t->rate = rate;
	rc = ops->trial(ops->arg, rate, t, e);
	if (rc < 0) { /* nothing to keep: it failed, or is invalid (an agent was lost) */
		free(t->st.est_per_s.v);
		free(t->st.closed_per_s.v);
		memset(t, 0, sizeof(*t));
		run->partial = true;
		return rc;
	}
	trial_finish(t);
	run->n_trials++;
	log_trial(run, ops, t);
	if (t->partial) {
		run->partial = true;
		return fws_err_set(e, FWS_ERR_INTERRUPTED, -EINTR, "interrupted");
	}
	if (ops->saved)
		ops->saved(ops->saved_arg, run);
	return ops->between(ops->arg, e);
}

static int
search(struct fws_connrun *run, const struct fws_connops *ops, struct fws_err *e)
{
	const struct fws_cfg_search *cs = &run->cfg->search;
	struct fws_search_cfg sc = {.min_load = cs->min_load,
				    .width = cs->width,
				    .pdr_loss = cs->pdr,
				    .short_s = 1,
				    .final_s = 1,
				    .max_trials = cs->max_trials};
	struct fws_search *s = fws_search_new(&sc);
	double load, dur, max = run->cfg->conn.rate;
	int rc = 0, g;

	if (s == NULL)
		return fws_err_set(e, FWS_ERR_CONFIG, -EINVAL, "connections: bad search settings");
	while (rc == 0 && fws_search_next(s, &load, &dur) == 1) {
		const struct fws_conntrial *t;

		rc = one(run, ops, load * max, e);
		t = &run->trials[run->n_trials - 1];
		if (rc == 0 || !t->partial)
			fws_search_record(s, t->achieved / max, t->st.attempted, t->impaired);
	}
	for (g = 0; g < FWS_SEARCH_GOALS; g++)
		fws_search_goal(s, g, &run->goal[g]);
	run->searched = true;
	fws_search_free(s);
	return rc;
}

/* The test once: a trial at the fixed rate, a search, or capacity's iterations. */
static int
test_once(struct fws_connrun *run, const struct fws_connops *ops, struct fws_err *e)
{
	unsigned int i;
	int rc = 0;

	if (run->fixed_rate > 0)
		return one(run, ops, run->fixed_rate, e);
	if (run->test != FWS_CONN_CAPACITY)
		return search(run, ops, e);
	for (i = 0; rc == 0 && i < run->cfg->conn.iterations; i++)
		rc = one(run, ops, run->cfg->conn.rate, e);
	return rc;
}

/* The test "repeat" times, each from scratch (a search anew), each repetition recorded. */
int
fws_conntest_execute(struct fws_connrun *run, const struct fws_connops *ops, struct fws_err *e)
{
	unsigned int k, reps = run->cfg->repeat > 1 ? run->cfg->repeat : 1;
	struct fws_connrep *r;
	int rc = 0;

	run->test = run->cfg->conn.test;
	if ((run->reps = calloc(reps, sizeof(*run->reps))) == NULL)
		return fws_err_set(e, FWS_ERR_FAULT, -ENOMEM, "connections: out of memory");
	for (k = 0; k < reps && rc == 0; k++) {
		r = &run->reps[run->n_reps++];
		r->first = run->n_trials;
		run->searched = false;
		memset(run->goal, 0, sizeof(run->goal));
		rc = test_once(run, ops, e);
		r->done = rc == 0;
		r->searched = run->searched;
		memcpy(r->goal, run->goal, sizeof(r->goal));
		if (ops->log && reps > 1)
			fprintf(ops->log, "connections: repetition %u of %u %s\n", k + 1, reps,
				r->done ? "done" : "not finished");
	}
	return rc;
}

void
fws_connrun_rep(const struct fws_connrun *run, unsigned int k, struct fws_connrun *view)
{
	const struct fws_connrep *r;

	*view = *run;
	view->n_reps = 0;
	view->reps = NULL;
	if (run->n_reps == 0)
		return;
	r = &run->reps[k];
	view->trials = run->trials + r->first;
	view->n_trials = view->cap_trials =
		(k + 1 < run->n_reps ? run->reps[k + 1].first : run->n_trials) - r->first;
	view->searched = r->searched;
	memcpy(view->goal, r->goal, sizeof(view->goal));
	view->partial = run->partial && !r->done;
}

double
fws_connrun_figure(const struct fws_connrun *run, int *trial)
{
	double held = -1;
	unsigned int i;

	*trial = -1;
	if (run->test != FWS_CONN_CAPACITY && run->fixed_rate > 0 && run->n_trials) {
		const struct fws_conntrial *t = &run->trials[0];

		*trial = 0; /* one trial at a fixed rate: what completed unimpaired, per second */
		return t->st.attempted ? t->achieved * (double)(t->st.attempted - t->impaired) /
						 (double)t->st.attempted
				       : 0;
	}
	if (run->test != FWS_CONN_CAPACITY) {
		const struct fws_search_goal *g = &run->goal[FWS_SEARCH_NDR];

		if (!run->searched || !g->found || g->trial < 0)
			return 0;
		*trial = g->trial;
		return g->conditional * run->cfg->conn.rate;
	}
	for (i = 0; i < run->n_trials; i++) {
		double h = (double)run->trials[i].st.held;

		if (held < 0 || h < held) {
			held = h;
			*trial = (int)i;
		}
	}
	return held < 0 ? 0 : held;
}

void
fws_connrun_free(struct fws_connrun *run)
{
	unsigned int i;

	for (i = 0; i < run->n_trials; i++) {
		free(run->trials[i].st.est_per_s.v);
		free(run->trials[i].st.closed_per_s.v);
	}
	free(run->trials);
	run->trials = NULL;
	run->n_trials = run->cap_trials = 0;
	free(run->reps);
	run->reps = NULL;
	run->n_reps = 0;
}
