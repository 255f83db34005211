/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fws_cell.h"
#include "fws_compat.h"
#include "fws_method.h"
#include "fws_util.h"

static const char *const status_names[] = {
#define FWS_RUN_STATUS_NAME(name, label) [FWS_RUN_##name] = label,
	FWS_RUN_STATUSES(FWS_RUN_STATUS_NAME)
#undef FWS_RUN_STATUS_NAME
};

const char *
fws_run_status_name(enum fws_run_status st)
{
	return (unsigned int)st < FWS_DIM(status_names) ? status_names[st] : "error";
}

/* Kept results per cell: a search keeps NDR and PDR, a sweep cell also its latency trials. */
int
fws_run_alloc(struct fws_run *run, const struct fws_cfg *cfg, enum fws_method_mode mode)
{
	const struct fws_cfg_sweep *w = &cfg->sweep;
	unsigned int cells = cfg->n_sizes * (mode == FWS_METHOD_SWEEP ? FWS_MAX(w->n_dirs, 1u) : 1);
	bool search = mode == FWS_METHOD_SEARCH || (mode == FWS_METHOD_SWEEP && w->search);

	unsigned int reps = FWS_MAX(cfg->repeat, 1u);

	run->cap_results =
		cells * (reps * (search ? 2 : 1) +
			 (mode == FWS_METHOD_SWEEP && w->search ? w->n_lat * w->lat_repeat : 0));
	run->cap_searches = search ? cells * reps : 0;
	run->cap_b2b = mode == FWS_METHOD_SWEEP && w->b2b_repeat ? cells : 0;
	run->results = calloc(run->cap_results, sizeof(*run->results));
	run->searches =
		run->cap_searches ? calloc(run->cap_searches, sizeof(*run->searches)) : NULL;
	run->b2b = run->cap_b2b ? calloc(run->cap_b2b, sizeof(*run->b2b)) : NULL;
	run->cap_done =
		mode == FWS_METHOD_SWEEP ? cells : cells * reps; /* repetitions: run, search */
	run->done = run->cap_done ? calloc(run->cap_done, sizeof(*run->done)) : NULL;
	if (run->results == NULL || (run->cap_searches && run->searches == NULL) ||
	    (run->cap_b2b && run->b2b == NULL) || (run->cap_done && run->done == NULL)) {
		fws_run_free(run);
		return -ENOMEM;
	}
	return 0;
}

void
fws_run_free(struct fws_run *run)
{
	unsigned int i;

	for (i = 0; i < run->n_results; i++)
		fws_result_free(&run->results[i]);
	free(run->results);
	free(run->searches);
	free(run->b2b);
	free(run->done);
	run->results = NULL;
	run->searches = NULL;
	run->b2b = NULL;
	run->done = NULL;
	run->n_results = run->n_searches = run->n_b2b = run->n_done = 0;
}

int
fws_method_measure_trial(void *arg, unsigned int size_idx, const struct fws_trial_opts *o,
			 struct fws_result *res, struct fws_err *e)
{
	return fws_trial_run(arg, size_idx, o, res, e);
}

/* One trial: a partial one (or a stop request) ends the method as interrupted. With 0 and
 * -EINTR res holds what was measured and the caller owns it; other errors leave it empty. */
static int
measure(struct fws_method *m, unsigned int z, const struct fws_trial_opts *o,
	struct fws_result *res, struct fws_err *e)
{
	int rc = m->measure(m->measure_arg, z, o, res, e);

	if (rc < 0)
		return rc == -EINTR ? -EIO : rc;
	if (res->partial || (o->stop && *o->stop))
		return fws_err_set(e, FWS_ERR_INTERRUPTED, -EINTR, "interrupted");
	return 0;
}

/* A measured result that is not kept. */
static int
discard(struct fws_result *res, int rc)
{
	if (rc == 0 || rc == -EINTR)
		fws_result_free(res);
	return rc;
}

/* A trial kept in the report. */
static int
keep_trial(struct fws_method *m, const struct fws_trial_opts *o, unsigned int z, struct fws_err *e)
{
	struct fws_run *run = m->run;
	int rc;

	if (run->n_results >= run->cap_results)
		return fws_err_set(e, FWS_ERR_FAULT, -ENOSPC,
				   "method: more kept trials than the %u planned",
				   run->cap_results);
	rc = measure(m, z, o, &run->results[run->n_results], e);
	if (rc == 0 || rc == -EINTR) /* an interrupted trial is kept, marked partial */
		run->n_results++;
	return rc;
}

static void
saved(struct fws_method *m)
{
	if (m->saved)
		m->saved(m->saved_arg, m->run);
}

typedef int (*cell_fn)(struct fws_method *m, const struct fws_trial_opts *o, unsigned int z,
		       struct fws_err *e);

/* Repetition k (1 first) of frame size z, complete: --resume keeps it. */
static void
mark_rep_done(struct fws_run *run, unsigned int z, unsigned int k)
{
	if (run->n_done >= run->cap_done)
		return;
	run->done[run->n_done].direction[0] = '\0';
	strlcpy(run->done[run->n_done].size, run->cfg->sizes[z].name, sizeof(run->done[0].size));
	run->done[run->n_done++].repetition = k;
}

/* One cell measured reps times, each result (and search) numbered by its repetition (when
 * more than one), saved between them. resumable (run, search): a repetition the resumed
 * report completed is skipped, one completed here is marked. */
static int
repeated(struct fws_method *m, const struct fws_trial_opts *o, unsigned int z, cell_fn cell,
	 unsigned int reps, bool resumable, struct fws_err *e)
{
	unsigned int k, i, first, first_s;
	int rc = 0;

	for (k = 0; k < reps && rc == 0; k++) {
		if (resumable &&
		    fws_cells_rep_done(m->run->carried, m->cfg->sizes[z].name, k + 1)) {
			if (m->log)
				fprintf(m->log, "%s: repetition %u: done in the report, skipped\n",
					m->cfg->sizes[z].name, k + 1);
			continue;
		}
		first = m->run->n_results;
		first_s = m->run->n_searches;
		rc = cell(m, o, z, e);
		for (i = first; reps > 1 && i < m->run->n_results; i++)
			m->run->results[i].repetition = k + 1;
		for (i = first_s; reps > 1 && i < m->run->n_searches; i++)
			m->run->searches[i].repetition = k + 1;
		if (rc == 0 && resumable && !(o->stop && *o->stop))
			mark_rep_done(m->run, z, k + 1);
		if (rc == 0 && k + 1 < reps)
			saved(m);
	}
	return rc;
}

/* run and search: one cell per frame-size entry, measured "repeat" times, saved between. */
static int
each_size(struct fws_method *m, cell_fn cell, struct fws_err *e)
{
	unsigned int z, reps = FWS_MAX(m->cfg->repeat, 1u);
	int rc = 0;

	for (z = 0; z < m->cfg->n_sizes && rc == 0; z++) {
		rc = repeated(m, m->base, z, cell, reps, true, e);
		if (rc == 0 && z + 1 < m->cfg->n_sizes)
			saved(m);
	}
	return rc;
}

/* fwstress run: one trial per frame-size entry. */
static int
method_run(struct fws_method *m, struct fws_err *e)
{
	return each_size(m, keep_trial, e);
}

/* Loss over all active streams of a trial, and its offered load as a share of the maximum. */
static void
trial_totals(const struct fws_result *r, double load, double *offered, double *max, uint64_t *tx,
	     uint64_t *lost)
{
	double sent_pps = 0, max_pps = 0;
	unsigned int s;

	*tx = *lost = 0;
	for (s = 0; s < r->n_streams; s++) {
		if (!r->streams[s].active)
			continue;
		*tx += r->streams[s].rx.tx;
		*lost += r->streams[s].rx.lost;
		sent_pps += r->streams[s].tx_pps;
		max_pps += r->streams[s].req_pps / load;
	}
	*offered = max_pps > 0 ? sent_pps / max_pps : 0;
	*max = max_pps;
}

/* The frames the receiving ports of a trial's active streams missed (each port once). */
static uint64_t
trial_missed(const struct fws_cfg *cfg, const struct fws_result *r)
{
	uint64_t ports = 0, missed = 0;
	unsigned int s;

	for (s = 0; s < r->n_streams && s < cfg->n_streams; s++) {
		unsigned int p = cfg->streams[s].rx_port;

		if (!r->streams[s].active || ((ports >> p) & 1))
			continue;
		ports |= 1ull << p;
		missed += r->streams[s].rx_missed;
	}
	return missed;
}

/* A search keeps only the trials its goals stand on: the current NDR and PDR trials and the
 * one being measured. A trial that stops being a goal's never becomes one again. */
#define SLOTS (FWS_SEARCH_GOALS + 1)

struct slots {
	struct fws_result res[SLOTS];
	int trial[SLOTS]; /**< search trial index held, -1: free */
};

static struct fws_result *
slot_free(struct slots *sl, int trial)
{
	unsigned int i;

	for (i = 0; i < SLOTS; i++)
		if (sl->trial[i] < 0) {
			sl->trial[i] = trial;
			return &sl->res[i];
		}
	return NULL;
}

static void
slot_retain(struct slots *sl, const struct fws_search *s)
{
	struct fws_search_goal g[FWS_SEARCH_GOALS];
	unsigned int i, k;

	for (k = 0; k < FWS_SEARCH_GOALS; k++)
		fws_search_goal(s, (int)k, &g[k]);
	for (i = 0; i < SLOTS; i++) {
		bool goal = false;

		for (k = 0; k < FWS_SEARCH_GOALS; k++)
			goal |= sl->trial[i] >= 0 && sl->trial[i] == g[k].trial;
		if (sl->trial[i] >= 0 && !goal) {
			fws_result_free(&sl->res[i]);
			sl->trial[i] = -1;
		}
	}
}

static struct fws_result *
slot_of(struct slots *sl, int trial)
{
	unsigned int i;

	for (i = 0; i < SLOTS; i++)
		if (trial >= 0 && sl->trial[i] == trial)
			return &sl->res[i];
	return NULL;
}

/* Run the search's trials until it is done or a trial fails. */
static int
search_trials(struct fws_method *m, const struct fws_trial_opts *base, unsigned int z,
	      struct fws_search *s, struct slots *sl, struct fws_search_summary *sum,
	      struct fws_err *e)
{
	const char *name = sum->size;
	double load, duration, offered;
	uint64_t tx, lost;
	unsigned int n;
	int rc = 0;

	for (n = 0; rc == 0 && fws_search_next(s, &load, &duration); n++) {
		struct fws_trial_opts o = *base;
		struct fws_result *r = slot_free(sl, (int)n);

		o.rate_scale = load;
		o.duration = duration;
		rc = measure(m, z, &o, r, e);
		if (rc < 0) {
			discard(r, rc);
			sl->trial[r - sl->res] = -1;
			break;
		}
		trial_totals(r, load, &offered, &sum->max_pps, &tx, &lost);
		fws_search_record(s, offered, tx, lost);
		fws_search_missed(s, trial_missed(m->cfg, r));
		slot_retain(sl, s);
		if (m->log)
			fprintf(m->log,
				"search %s: trial %u, asked %.4f Mpps (%.3f %% of %.4f) for %.1f "
				"s: "
				"offered %.4f Mpps, loss %.5f %%\n",
				name, r->number, load * sum->max_pps / 1e6, load * 100,
				sum->max_pps / 1e6, duration, offered * sum->max_pps / 1e6,
				tx ? (double)lost * 100 / (double)tx : 0);
	}
	return rc;
}

/* Move the goals' trials into the run's kept results. */
static void
keep_goals(struct fws_method *m, struct fws_search *s, struct slots *sl,
	   struct fws_search_summary *sum)
{
	struct fws_run *run = m->run;
	const struct fws_search_trial *tr;
	unsigned int g;

	for (g = 0; g < FWS_SEARCH_GOALS; g++) {
		struct fws_result *r;

		fws_search_goal(s, (int)g, &sum->goal[g]);
		sum->result[g] = -1;
		if (g == FWS_SEARCH_PDR && sum->goal[g].trial == sum->goal[0].trial) {
			sum->result[g] = sum->result[0];
			continue;
		}
		r = slot_of(sl, sum->goal[g].trial);
		if (r == NULL || run->n_results >= run->cap_results)
			continue;
		run->results[run->n_results] = *r;
		run->results[run->n_results].kind = g ? FWS_RESULT_PDR : FWS_RESULT_NDR;
		run->results[run->n_results].lower_bound =
			sum->goal[g].generator_limited || sum->goal[g].tester_limited;
		run->results[run->n_results].capped =
			sum->goal[g].found && sum->goal[g].upper >= 1 &&
			!sum->goal[g].generator_limited && !sum->goal[g].tester_limited;
		run->results[run->n_results].tester_missed =
			sum->goal[g].tester_limited ? sum->goal[g].missed : 0;
		sl->trial[r - sl->res] = -1; /* its histograms moved with it */
		sum->result[g] = (int)run->n_results++;
	}
	sum->n_trials = fws_search_trials(s, &tr);
	memcpy(sum->trials, tr, sum->n_trials * sizeof(*tr));
}

/* Search NDR and PDR for one frame-size entry with base's streams; the trials they stand
 * on go into the report beside the search's trail. */
static int
search_cell(struct fws_method *m, const struct fws_trial_opts *base, unsigned int z,
	    struct fws_err *e)
{
	const struct fws_cfg_search *sc = &m->cfg->search;
	struct fws_search_cfg scfg = {.min_load = sc->min_load,
				      .width = sc->width,
				      .pdr_loss = sc->pdr,
				      .short_s = sc->short_s,
				      .final_s = sc->final_s,
				      .max_trials = sc->max_trials};
	struct fws_search_summary *sum = &m->run->searches[m->run->n_searches++];
	struct fws_search *s = fws_search_new(&scfg);
	struct slots *sl = calloc(1, sizeof(*sl));
	unsigned int i;
	int rc;

	if (s == NULL || sl == NULL) {
		fws_search_free(s);
		free(sl);
		return fws_err_set(e, FWS_ERR_CONFIG, -EINVAL, "config: search: bad settings");
	}
	for (i = 0; i < SLOTS; i++)
		sl->trial[i] = -1;
	snprintf(sum->size, sizeof(sum->size), "%s%s%s", m->cfg->sizes[z].name,
		 base->dir ? " " : "", fws_dir_name(base->dir));
	rc = search_trials(m, base, z, s, sl, sum, e);
	sum->complete = rc >= 0;
	keep_goals(m, s, sl, sum);
	for (i = 0; i < SLOTS; i++)
		if (sl->trial[i] >= 0)
			fws_result_free(&sl->res[i]);
	free(sl);
	fws_search_free(s);
	return rc;
}

/* fwstress search: NDR and PDR per frame-size entry. */
static int
method_search(struct fws_method *m, struct fws_err *e)
{
	return each_size(m, search_cell, e);
}

/* The fastest active stream's rate in frames/s at full load: from a short probe; *limited
 * when a stream fell short of its rate there (the tester's limit). */
static int
b2b_line_rate(struct fws_method *m, const struct fws_trial_opts *base, unsigned int z,
	      struct fws_result *r, double *line, bool *limited, struct fws_err *e)
{
	struct fws_trial_opts o = *base;
	unsigned int s;
	int rc;

	o.duration = 0.2;
	rc = measure(m, z, &o, r, e);
	if (rc < 0)
		return discard(r, rc);
	for (s = 0, *line = 0; s < r->n_streams; s++) {
		if (r->streams[s].active && r->streams[s].tx_pps > *line)
			*line = r->streams[s].tx_pps;
		*limited |= r->streams[s].active && r->streams[s].generator_limited;
	}
	fws_result_free(r);
	return 0;
}

/* One repetition: the longest loss-free burst, by bisection to 0.1 % of the maximum. */
static int
b2b_longest(struct fws_method *m, const struct fws_trial_opts *base, unsigned int z,
	    struct fws_result *r, struct fws_b2b_summary *b, uint64_t *longest, struct fws_err *e)
{
	uint64_t lo = 0, hi = b->max_frames + 1, burst = b->max_frames;
	unsigned int s;
	int rc;

	while (hi - lo > 1 && hi - lo > b->max_frames / 1000) {
		struct fws_trial_opts o = *base;
		uint64_t lost = 0;

		o.burst = burst;
		o.duration = m->cfg->sweep.b2b_seconds * 2 + 1;
		o.kind = FWS_RESULT_B2B;
		rc = measure(m, z, &o, r, e);
		if (rc < 0)
			return discard(r, rc);
		for (s = 0; s < r->n_streams; s++)
			lost += r->streams[s].rx.lost;
		b->trials++;
		fws_result_free(r);
		if (lost == 0)
			lo = burst;
		else
			hi = burst;
		burst = lo + (hi - lo) / 2;
	}
	*longest = lo;
	return 0;
}

static void
b2b_stats(struct fws_b2b_summary *b)
{
	double sum = 0, sq = 0;
	unsigned int i;

	b->min = b->n ? 1e300 : 0;
	for (i = 0; i < b->n; i++) {
		double v = (double)b->bursts[i];

		sum += v;
		sq += v * v;
		b->min = FWS_MIN(b->min, v);
		b->max = FWS_MAX(b->max, v);
	}
	if (b->n) {
		b->avg = sum / b->n;
		b->stddev = b->n > 1 ? sqrt(fmax(0, (sq - sum * sum / b->n) / (b->n - 1))) : 0;
	}
}

/*
 * Back-to-back (RFC 2544 26.4, RFC 9004): the longest burst at the rate that passes
 * without loss, found by bisection, repeated; average, minimum, maximum, deviation.
 */
static int
back_to_back(struct fws_method *m, const struct fws_trial_opts *base, unsigned int z,
	     struct fws_err *e)
{
	struct fws_b2b_summary *b = &m->run->b2b[m->run->n_b2b++];
	struct fws_result *r = calloc(1, sizeof(*r));
	double line = 0;
	unsigned int rep;
	int rc;

	if (r == NULL)
		return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
	snprintf(b->size, sizeof(b->size), "%s", m->cfg->sizes[z].name);
	b->dir = base->dir;
	rc = b2b_line_rate(m, base, z, r, &line, &b->generator_limited, e);
	b->max_frames = FWS_MAX((uint64_t)llround(line * m->cfg->sweep.b2b_seconds), 2ull);
	for (rep = 0; rc == 0 && rep < m->cfg->sweep.b2b_repeat && rep < FWS_RUN_MAX_B2B; rep++) {
		rc = b2b_longest(m, base, z, r, b, &b->bursts[b->n], e);
		if (rc < 0)
			break;
		if (m->log)
			fprintf(m->log, "back-to-back %s %s: repetition %u: %lu frames\n", b->size,
				fws_dir_name(b->dir), rep + 1, (unsigned long)b->bursts[b->n]);
		b->n++;
	}
	b2b_stats(b);
	free(r);
	return rc;
}

/* Streams of a sweep direction: upload or download ones, or all for bidir (custom: the
 * streams without a direction, swept as they are). */
static uint32_t
direction_mask(const struct fws_cfg *cfg, enum fws_dir dir)
{
	uint32_t mask = 0;
	unsigned int s;

	for (s = 0; s < cfg->n_streams; s++)
		if (dir == FWS_DIR_BIDIR || cfg->streams[s].dir == dir)
			mask |= 1u << s;
	return mask;
}

/* A sweep cell the earlier report completed (its "sweep_done"; a report from before that
 * list: any cell of it). */
static bool
cell_done(const struct fws_cells *done, enum fws_dir dir, const char *size)
{
	unsigned int i;

	if (done && done->has_done)
		return fws_cells_done(done, fws_dir_name(dir), size);
	for (i = 0; done && i < done->n; i++)
		if (!strcmp(done->c[i].direction, fws_dir_name(dir)) &&
		    !strcmp(done->c[i].size, size))
			return true;
	return false;
}

/* The sweep cell completed: every trial of it ran to its end. */
static void
mark_done(struct fws_run *run, enum fws_dir dir, const char *size)
{
	if (run->n_done >= run->cap_done)
		return;
	strlcpy(run->done[run->n_done].direction, fws_dir_name(dir),
		sizeof(run->done[0].direction));
	strlcpy(run->done[run->n_done++].size, size, sizeof(run->done[0].size));
}

/* The NDR of a cell's n searches (its repetitions) as the matrix publishes it: the median
 * load its trial offered (the load asked where none was measured) of those that found one;
 * false when none did. A generator short of the load asked (a lower bound) does not put the
 * latency points above the NDR published (issue 51, item 8). */
static bool
median_ndr(const struct fws_search_summary *sum, unsigned int n, double *load)
{
	double v[FWS_CFG_MAX_REPEAT];
	unsigned int i, k = 0;
	struct fws_stats st;

	for (i = 0; i < n && k < FWS_DIM(v); i++)
		if (sum[i].goal[FWS_SEARCH_NDR].found)
			v[k++] = sum[i].goal[FWS_SEARCH_NDR].offered > 0
					 ? sum[i].goal[FWS_SEARCH_NDR].offered
					 : sum[i].goal[FWS_SEARCH_NDR].load;
	if (k == 0)
		return false;
	fws_stats_of(v, k, &st);
	*load = st.median;
	return true;
}

/* Latency trials at fractions of the NDR just found (the median of the cell's repetitions),
 * each point sweep.latency_repeat times. */
static int
latency_points(struct fws_method *m, struct fws_trial_opts *o, unsigned int z,
	       const struct fws_search_summary *sum, unsigned int n, struct fws_err *e)
{
	const struct fws_cfg_sweep *w = &m->cfg->sweep;
	unsigned int l;
	double ndr;
	int rc = 0;

	if (!median_ndr(sum, n, &ndr))
		return 0;
	for (l = 0; rc == 0 && l < w->n_lat; l++) {
		o->rate_scale = ndr * w->lat[l];
		o->kind = FWS_RESULT_LAT;
		o->lat_frac = w->lat[l];
		rc = repeated(m, o, z, keep_trial, w->lat_repeat, false, e);
	}
	o->kind = FWS_RESULT_RUN;
	return rc;
}

/* One sweep cell: a frame-size entry in one direction, searched (or measured at the rate)
 * "repeat" times, then its latency points and back-to-back bursts. */
static int
sweep_cell(struct fws_method *m, unsigned int z, enum fws_dir dir, struct fws_err *e)
{
	const struct fws_cfg_sweep *w = &m->cfg->sweep;
	struct fws_trial_opts o = *m->base;
	unsigned int first = m->run->n_searches;
	int rc;

	o.streams = direction_mask(m->cfg, dir);
	o.dir = dir;
	rc = repeated(m, &o, z, w->search ? search_cell : keep_trial, FWS_MAX(m->cfg->repeat, 1u),
		      false, e);
	if (rc == 0 && w->search)
		rc = latency_points(m, &o, z, &m->run->searches[first], m->run->n_searches - first,
				    e);
	if (rc == 0 && w->b2b_repeat) {
		o.rate_scale = 0;
		rc = back_to_back(m, &o, z, e);
	}
	return rc;
}

/* fwstress sweep: frame sizes x directions; saved after every cell. */
static int
method_sweep(struct fws_method *m, struct fws_err *e)
{
	const struct fws_cfg_sweep *w = &m->cfg->sweep;
	const enum fws_dir as_is[] = {FWS_DIR_CUSTOM}; /* streams without a direction */
	const enum fws_dir *dirs = w->n_dirs ? w->dirs : as_is;
	unsigned int z, d, n_dirs = FWS_MAX(w->n_dirs, 1u);
	int rc = 0;

	for (z = 0; z < m->cfg->n_sizes && rc == 0; z++) {
		for (d = 0; d < n_dirs && rc == 0; d++) {
			if (cell_done(m->run->carried, dirs[d], m->cfg->sizes[z].name)) {
				if (m->log)
					fprintf(m->log,
						"sweep: %s %s: done in the report, skipped\n",
						fws_dir_name(dirs[d]), m->cfg->sizes[z].name);
				continue;
			}
			rc = sweep_cell(m, z, dirs[d], e);
			if (rc == 0 && !(m->base->stop && *m->base->stop)) {
				mark_done(m->run, dirs[d], m->cfg->sizes[z].name);
				saved(m);
			}
		}
	}
	return rc;
}

unsigned int
fws_method_cells_left(const struct fws_cfg *cfg, enum fws_method_mode mode,
		      const struct fws_cells *carried)
{
	const struct fws_cfg_sweep *w = &cfg->sweep;
	const enum fws_dir as_is[] = {FWS_DIR_CUSTOM};
	const enum fws_dir *dirs = w->n_dirs ? w->dirs : as_is;
	unsigned int z, d, k, n = 0, reps = FWS_MAX(cfg->repeat, 1u);

	for (z = 0; z < cfg->n_sizes; z++) {
		if (mode == FWS_METHOD_SWEEP) {
			for (d = 0; d < FWS_MAX(w->n_dirs, 1u); d++)
				n += !cell_done(carried, dirs[d], cfg->sizes[z].name);
			continue;
		}
		for (k = 0; k < reps && fws_cells_rep_done(carried, cfg->sizes[z].name, k + 1); k++)
			;
		n += k < reps;
	}
	return n;
}

static int (*const methods[])(struct fws_method *m, struct fws_err *e) = {
	[FWS_METHOD_RUN] = method_run,
	[FWS_METHOD_SEARCH] = method_search,
	[FWS_METHOD_SWEEP] = method_sweep,
};

int
fws_method_execute(struct fws_method *m, enum fws_method_mode mode, struct fws_err *e)
{
	if ((unsigned int)mode >= FWS_DIM(methods))
		return fws_err_set(e, FWS_ERR_FAULT, -EINVAL, "method: no mode %d", (int)mode);
	return methods[mode](m, e);
}
