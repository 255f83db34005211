/* SPDX-License-Identifier: BSD-3-Clause */
/* How long measuring a config takes, counted by the method's own loops (fws_estimate.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fws_estimate.h"
#include "fws_method.h"
#include "fws_search.h"
#include "fws_util.h"

/* A stream's rate at full load in the models (any: the loops count trials, not frames). */
#define MODEL_PPS 1e6
/* Where the narrowing models' limits sit, as shares of the maximum: spread over the range,
 * most of them no binary fraction (a bisection narrows to its width before it meets one),
 * a few exactly on one (met on the way); each behind a generator that reaches the rate and
 * one that falls short of it. The most any of them asks is the estimate's most. */
static const double narrow_at[] = {0.0031, 0.0107, 0.0377, 0.0913, 0.125, 0.163,
				   0.25,   0.3013, 0.377,  0.4519, 0.5,   0.5377,
				   0.6131, 0.75,   0.8123, 0.9173, 0.9871};
static const double generator_at[] = {1, 0.8};
#define NARROW_AT 0.377 /* the connection tests' search */

/* A DUT that costs nothing: it forwards up to capacity (a share of the maximum load; above
 * it the excess is lost) and holds bursts up to buffer frames, behind a generator that may
 * fall short of the rate (the search then asks more); the trials' time adds up. */
struct model {
	const struct fws_cfg *cfg;
	double capacity;
	double buffer;    /* a share of the longest burst the line rate allows (1: any) */
	double generator; /* the share of the maximum the generator reaches */
	double seconds;
	unsigned int trials;
};

/* One trial's time: its warm-up, what it measures, its drain, the set-up around it. A burst
 * lasts at most its longest burst. */
static double
trial_s(const struct fws_cfg *cfg, const struct fws_trial_opts *o)
{
	if (o->burst)
		return cfg->sweep.b2b_seconds + cfg->drain + FWS_ESTIMATE_SETUP_S;
	return cfg->warmup + (o->duration > 0 ? o->duration : cfg->duration) + cfg->drain +
	       FWS_ESTIMATE_SETUP_S;
}

static int
model_measure(void *arg, unsigned int z, const struct fws_trial_opts *o, struct fws_result *res,
	      struct fws_err *e)
{
	struct model *md = arg;
	double asked = o->rate_scale > 0 ? o->rate_scale : 1;
	double load = asked < md->generator ? asked : md->generator;
	double seconds = o->duration > 0 ? o->duration : md->cfg->duration;
	/* the longest burst it holds; a buffer of the whole burst or more: every one */
	uint64_t longest =
		md->buffer >= 1 ? UINT64_MAX
				: (uint64_t)(MODEL_PPS * md->cfg->sweep.b2b_seconds * md->buffer);
	unsigned int s;

	(void)e;
	memset(res, 0, sizeof(*res));
	res->size_idx = z;
	res->kind = o->kind;
	res->lat_frac = o->lat_frac;
	res->dir = o->dir;
	res->n_streams = md->cfg->n_streams;
	for (s = 0; s < md->cfg->n_streams; s++) {
		struct fws_stream_result *sr = &res->streams[s];

		sr->active = !o->streams || ((o->streams >> s) & 1);
		if (!sr->active)
			continue;
		sr->req_pps = asked * MODEL_PPS;
		sr->tx_pps = load * MODEL_PPS;
		sr->duration = seconds;
		if (o->burst) {
			sr->rx.tx = o->burst;
			sr->rx.lost = o->burst > longest ? o->burst - longest : 0;
		} else {
			sr->rx.tx = (uint64_t)(sr->tx_pps * seconds);
			sr->rx.lost =
				load > md->capacity
					? (uint64_t)((load - md->capacity) * MODEL_PPS * seconds)
					: 0;
		}
		sr->rx.unique = sr->rx.tx - sr->rx.lost;
		sr->tx_frames = sr->rx.tx;
	}
	md->seconds += trial_s(md->cfg, o);
	md->trials++;
	return 0;
}

/* The method's loops for mode against a model: their trials and seconds. */
static void
count(const struct fws_cfg *cfg, enum fws_method_mode mode, double capacity, double buffer,
      double generator, double *seconds, unsigned int *trials)
{
	struct model md = {cfg, capacity, buffer, generator, 0, 0};
	struct fws_trial_opts base = {0};
	struct fws_run run = {0};
	struct fws_method m = {.cfg = cfg,
			       .run = &run,
			       .measure = model_measure,
			       .measure_arg = &md,
			       .base = &base};
	struct fws_err e = {0};

	run.cfg = cfg;
	if (fws_run_alloc(&run, cfg, mode) == 0)
		fws_method_execute(&m, mode, &e);
	fws_run_free(&run);
	*seconds = md.seconds;
	*trials = md.trials;
}

/* A connection test's iterations: a capacity test runs "iterations"; a rate or teardown
 * test searches (the search's own trial count against the narrowing model), each one
 * opening every connection at the rate, waiting out the last tries and the aging. */
static unsigned int
conn_iterations(const struct fws_cfg *cfg)
{
	const struct fws_cfg_search *sc = &cfg->search;
	struct fws_search_cfg c = {.min_load = sc->min_load, /* as fws_connmethod.c's search */
				   .width = sc->width,
				   .pdr_loss = sc->pdr,
				   .short_s = 1,
				   .final_s = 1,
				   .max_trials = sc->max_trials};
	struct fws_search *s;
	double load, d;
	unsigned int n = 0;

	if (cfg->conn.test == FWS_CONN_CAPACITY)
		return cfg->conn.iterations;
	if ((s = fws_search_new(&c)) == NULL)
		return cfg->conn.iterations;
	while (fws_search_next(s, &load, &d) == 1) {
		uint64_t tx = 1000000;

		fws_search_record(s, load, tx,
				  load > NARROW_AT ? (uint64_t)((load - NARROW_AT) / load * tx)
						   : 0);
		n++;
	}
	fws_search_free(s);
	return n;
}

static void
conn_cells(const struct fws_cfg *cfg, struct fws_estimate *e)
{
	const struct fws_cfg_conn *k = &cfg->conn;
	unsigned int s, r, n = conn_iterations(cfg), reps = cfg->repeat > 1 ? cfg->repeat : 1;
	double each, connections = 0;

	for (s = 0; s < cfg->n_streams; s++)
		connections += cfg->streams[s].flows.count;
	each = connections / k->rate + k->tries * k->retry_s + k->aging_s + k->hold_s +
	       FWS_ESTIMATE_SETUP_S;
	if (k->test == FWS_CONN_TEARDOWN)
		each += connections / k->open_rate;
	e->cells = 1;
	for (r = 0; r < reps; r++) {
		e->cell_s += n * each;
		e->cell_trials += n;
	}
	e->cell_min_s = e->cell_s;
	e->cell_min_trials = e->cell_trials;
}

void
fws_estimate_cells(const struct fws_cfg *cfg, enum fws_campaign_cmd cmd, struct fws_estimate *e)
{
	static const enum fws_method_mode modes[] = {[FWS_CAMPAIGN_RUN] = FWS_METHOD_RUN,
						     [FWS_CAMPAIGN_SEARCH] = FWS_METHOD_SEARCH,
						     [FWS_CAMPAIGN_SWEEP] = FWS_METHOD_SWEEP};
	struct fws_cfg *one;
	double most, least;
	unsigned int n_most, n_least, cells, i;

	memset(e, 0, sizeof(*e));
	e->fixed_s = 2.0; /* EAL, gateways, path check */
	if (cmd == FWS_CAMPAIGN_CONNECTIONS) {
		conn_cells(cfg, e);
		return;
	}
	cells = fws_method_cells_left(cfg, modes[cmd], NULL);
	/* The models are alike for every frame size and direction: one cell counted (a copy of
	 * the config with its first of each, read only) stands for each. */
	if (cells == 0 || (one = malloc(sizeof(*one))) == NULL)
		return;
	memcpy(one, cfg, sizeof(*one));
	one->n_sizes = 1;
	one->sweep.n_dirs = one->sweep.n_dirs ? 1 : 0;
	most = 0;
	n_most = 0;
	for (i = 0; i < FWS_DIM(narrow_at) * FWS_DIM(generator_at); i++) {
		double sec, at = narrow_at[i / FWS_DIM(generator_at)];
		unsigned int n;

		count(one, modes[cmd], at, at, generator_at[i % FWS_DIM(generator_at)], &sec, &n);
		most = sec > most ? sec : most;
		n_most = n > n_most ? n : n_most;
	}
	count(one, modes[cmd], 2, 1, 1, &least, &n_least);
	free(one);
	e->cells = cells;
	e->cell_s = most;
	e->cell_min_s = least;
	e->cell_trials = n_most;
	e->cell_min_trials = n_least;
}

double
fws_estimate_total(const struct fws_cfg *cfg, enum fws_campaign_cmd cmd, unsigned int *trials)
{
	struct fws_estimate e;

	fws_estimate_cells(cfg, cmd, &e);
	*trials = e.cells * e.cell_trials;
	return e.fixed_s + e.cells * e.cell_s;
}
