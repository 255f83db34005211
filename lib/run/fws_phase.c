/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One trial: prepare (rates, tasks, cookies), launch the workers, then the phases of the
 * table below in order, each with its entry action and its end condition, while the main
 * lcore answers control frames and prints progress; then collect.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_random.h>

#include "fws_clock.h"
#include "fws_compat.h"
#include "fws_engine.h"
#include "fws_trial_int.h"

/* A trial in progress. */
struct trial_run {
	struct fws_trial *t;
	const struct fws_trial_opts *o;
	const struct fws_probe *pr;
	struct fws_result *res;
	double warmup, duration, drain;
	double req_pps[FWS_CFG_MAX_STREAMS];
	struct rte_eth_stats before[FWS_CFG_MAX_PORTS];
	uint64_t start, deadline;
	bool measuring, interrupted;
	struct fws_clock_pair clk0; /**< at the start of the measured phase */
	struct fws_live_stream live[FWS_CFG_MAX_STREAMS];
	/* Progress line: totals at the last line. */
	uint64_t next_progress, last_t, last_tx, last_rx, last_txb, last_rxb;
};

struct phase {
	const char *name;
	enum fws_phase workers; /**< the phase word the workers follow meanwhile */
	int stop_level;         /**< a stop request of this level ends it (0: none) */
	bool (*wanted)(const struct trial_run *r);
	void (*enter)(struct trial_run *r, uint64_t now); /**< NULL: nothing to do */
	bool (*done)(struct trial_run *r, uint64_t now);
};

/* What the features' hooks see of the trial at now. */
static void
features_on(struct trial_run *r, enum fws_feature_event ev, uint64_t now)
{
	const struct fws_step x = {.o = r->o,
				   .probe = r->pr != NULL,
				   .interrupted = r->interrupted,
				   .duration = r->duration,
				   .now = now,
				   .res = r->res};

	fws_features_on(r->t, ev, &x);
}

static bool
stopped(const struct trial_run *r, int level)
{
	return level && r->o && r->o->stop && *r->o->stop >= level;
}

static void
sleep_ms(unsigned int ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

static uint64_t
after(const struct trial_run *r, uint64_t now, double seconds)
{
	return now + (uint64_t)(seconds * (double)r->t->hz);
}

static bool
deadline_done(struct trial_run *r, uint64_t now)
{
	return now >= r->deadline;
}

static bool
want_warmup(const struct trial_run *r)
{
	return r->warmup > 0;
}

static void
enter_warmup(struct trial_run *r, uint64_t now)
{
	r->deadline = after(r, r->start, r->warmup);
	r->next_progress = after(r, now, 1);
	r->last_t = now;
}

static bool
want_measure(const struct trial_run *r)
{
	return !r->interrupted;
}

static void
enter_measure(struct trial_run *r, uint64_t now)
{
	unsigned int i;

	fws_clock_read(&r->clk0);
	r->measuring = true;
	r->deadline = after(r, now, r->duration);
	r->last_tx = r->last_txb = r->last_rxb = r->last_rx = 0;
	for (i = 0; i < r->t->n_rx; i++)
		r->last_rx += __atomic_load_n(&r->t->rx[i]->live_frames, __ATOMIC_RELAXED);
	r->last_t = now;
	r->next_progress = after(r, now, 1);
	features_on(r, FWS_FEATURE_MEASURE, now);
}

/* A back-to-back trial is over when every active task sent its share. */
static bool
bursts_sent(const struct fws_trial *t)
{
	unsigned int i;

	for (i = 0; i < t->n_tasks; i++)
		if (t->tasks[i].active && t->tasks[i].limit &&
		    __atomic_load_n(&t->tasks[i].cnt.tx_frames, __ATOMIC_RELAXED) <
			    t->tasks[i].limit)
			return false;
	return true;
}

static bool
measure_done(struct trial_run *r, uint64_t now)
{
	return now >= r->deadline || ((r->pr || (r->o && r->o->burst)) && bursts_sent(r->t));
}

static bool
stop_done(struct trial_run *r, uint64_t now)
{
	(void)now;
	return fws_workers_tx_stopped(r->t->workers, r->t->n_workers);
}

static void
enter_drain(struct trial_run *r, uint64_t now)
{
	r->deadline = after(r, now, r->drain);
}

/* The trial's phases, in order. Stop waits until every transmitter has seen it. */
static const struct phase phases[] = {
	{"warm-up", FWS_PHASE_WARMUP, 1, want_warmup, enter_warmup, deadline_done},
	{"measure", FWS_PHASE_MEASURE, 1, want_measure, enter_measure, measure_done},
	{"stop", FWS_PHASE_STOP, 0, NULL, NULL, stop_done},
	{"drain", FWS_PHASE_STOP, 2, NULL, enter_drain, deadline_done},
};

static void
progress(struct trial_run *r, const struct phase *ph, uint64_t now)
{
	struct fws_progress p = {.phase = ph->name};
	double dt = (double)(now - r->last_t) / (double)r->t->hz;

	if (!r->o || !r->o->progress || r->pr || ph->workers > FWS_PHASE_MEASURE ||
	    now < r->next_progress)
		return;
	fws_trial_live(r->t, !r->measuring, &p);
	fws_trial_live_streams(r->t, !r->measuring, r->live);
	p.n_streams = r->t->cfg->n_streams;
	p.streams = r->live;
	p.frame_size = r->res->size.name;
	p.direction = r->o->dir ? fws_dir_name(r->o->dir) : NULL;
	p.elapsed = (double)(now - r->start) / (double)r->t->hz;
	p.total = r->warmup + r->duration;
	p.tx_pps = (double)(p.tx_frames - RTE_MIN(r->last_tx, p.tx_frames)) / dt;
	p.rx_pps = (double)(p.rx_frames - RTE_MIN(r->last_rx, p.rx_frames)) / dt;
	p.tx_bps = (double)(p.tx_bytes - RTE_MIN(r->last_txb, p.tx_bytes)) * 8 / dt;
	p.rx_bps = (double)(p.rx_bytes - RTE_MIN(r->last_rxb, p.rx_bytes)) * 8 / dt;
	r->last_tx = p.tx_frames;
	r->last_rx = p.rx_frames;
	r->last_txb = p.tx_bytes;
	r->last_rxb = p.rx_bytes;
	r->last_t = now;
	r->o->progress(r->o->progress_arg, &p);
	r->next_progress = after(r, now, 1);
}

static void
run_phase(struct trial_run *r, const struct phase *ph, bool first)
{
	uint64_t now = rte_rdtsc();

	if (!first)
		fws_sync_set(&r->t->sync, ph->workers);
	if (ph->enter)
		ph->enter(r, now);
	while (!ph->done(r, now)) {
		if (stopped(r, ph->stop_level)) {
			r->interrupted = true;
			return;
		}
		sleep_ms(5);
		fws_ctlio_service(&r->t->ctl);
		now = rte_rdtsc();
		features_on(r, FWS_FEATURE_SERVICE, now);
		progress(r, ph, now);
		fws_trial_sample_hugepages(r->t);
	}
}

static int
run_phases(struct trial_run *r, struct fws_err *e)
{
	struct fws_trial *t = r->t;
	bool first = true;
	unsigned int i;
	int rc;

	for (i = 0; i < RTE_DIM(phases); i++) {
		if (phases[i].wanted && !phases[i].wanted(r))
			continue;
		if (first) {
			/* The workers start in the first phase wanted. */
			fws_ctlio_poll_idle(&t->ctl);
			fws_sync_set(&t->sync, phases[i].workers);
			t->ctl.running = true;
			rc = fws_workers_launch(&t->sync, t->workers, t->n_workers, e);
			if (rc < 0) {
				t->ctl.running = false;
				return rc;
			}
		}
		run_phase(r, &phases[i], first);
		first = false;
	}
	fws_sync_set(&t->sync, FWS_PHASE_QUIT);
	fws_workers_wait(t->workers, t->n_workers);
	t->ctl.running = false;
	fws_ctlio_service(&t->ctl);
	fws_sync_set(&t->sync, FWS_PHASE_IDLE);
	return 0;
}

static uint32_t
new_cookie(const struct fws_trial *t)
{
	uint32_t c;

	do {
		c = (uint32_t)rte_rand();
	} while (c == 0 || c == t->sync.cookie || c == t->warm_cookie);
	return c;
}

/* Each stream's requested rate in frames/s at this trial's scale. */
static int
stream_rates(struct trial_run *r, double scale, double avg, struct fws_err *e)
{
	const struct fws_cfg *cfg = r->t->cfg;
	unsigned int s;

	for (s = 0; s < cfg->n_streams; s++) {
		const struct fws_cfg_stream *cs = &cfg->streams[s];
		uint64_t link_bps = (uint64_t)r->t->port[cs->tx_port].link_speed_mbps * 1000000ull;

		r->req_pps[s] = r->pr ? (s == r->pr->stream ? r->pr->pps : 0)
				      : fws_rate_pps(&cs->rate, link_bps, avg) * scale;
		if (r->req_pps[s] < 0)
			return fws_err_set(
				e, FWS_ERR_CONFIG, -EINVAL,
				"config: stream %s: a rate in %% of the link needs the "
				"link speed of port %s, which the driver does not report",
				cs->name, cfg->ports[cs->tx_port].name);
		if (r->req_pps[s] == 0 && scale < 1)
			return fws_err_set(e, FWS_ERR_CONFIG, -EINVAL,
					   "config: stream %s: \"line\" on port %s has no known "
					   "link speed to take a share of; give the rate in pps or "
					   "bit/s",
					   cs->name, cfg->ports[cs->tx_port].name);
	}
	return 0;
}

/* A burst's frames split over each stream's tasks by flow share; the rounding remainder
 * goes to the stream's first active task. */
static void
burst_limits(struct fws_trial *t, uint64_t burst)
{
	unsigned int s, i;

	for (s = 0; s < t->cfg->n_streams; s++) {
		struct fws_tx_task *head = NULL;
		uint64_t sum = 0;

		for (i = 0; i < t->n_tasks; i++) {
			struct fws_tx_task *task = &t->tasks[i];

			if (task->stream != s || !task->active)
				continue;
			task->limit = burst * task->nb_flows / t->cfg->streams[s].flows.count;
			sum += task->limit;
			head = head ? head : task;
		}
		if (head)
			head->limit += burst - sum;
	}
}

static int
prepare_tasks(struct trial_run *r, const struct fws_size_mix *mix, double scale, struct fws_err *e)
{
	struct fws_trial *t = r->t;
	const struct fws_trial_opts *o = r->o;
	unsigned int i;

	for (i = 0; i < t->n_tasks; i++) {
		struct fws_tx_task *task = &t->tasks[i];
		const struct fws_cfg_stream *cs = &t->cfg->streams[task->stream];

		if (fws_engine_sizes(task, mix) < 0)
			return fws_err_set(e, FWS_ERR_SETUP, -EINVAL,
					   "setup: frame size mix %s does not fit the buffers",
					   mix->name);
		memset(&task->cnt, 0, sizeof(task->cnt));
		task->active = r->pr ? task->stream == r->pr->stream
				     : !cs->learn_only && (!o || !o->streams ||
							   (o->streams >> task->stream) & 1);
		task->limit = 0;
		/* Line rate at full scale is unpaced: the NIC sets the pace. */
		task->pps = cs->rate.kind == FWS_RATE_LINE && !r->pr && scale >= 1
				    ? 0
				    : r->req_pps[task->stream] * task->nb_flows / cs->flows.count;
	}
	if (r->pr)
		burst_limits(t, r->pr->frames);
	else if (o && o->burst)
		burst_limits(t, o->burst);
	return 0;
}

static void
prepare_counters(struct trial_run *r)
{
	struct fws_trial *t = r->t;
	unsigned int i;

	for (i = 0; i < t->n_rx; i++) {
		fws_rx_reset(t->rx[i]);
		t->rx[i]->cookie = t->sync.cookie;
		t->rx[i]->warm_cookie = t->warm_cookie;
	}
	for (i = 0; i < t->cfg->n_ports; i++)
		if (rte_eth_stats_get(t->port[i].port_id, &r->before[i]) != 0)
			memset(&r->before[i], 0, sizeof(r->before[i]));
	r->start = rte_rdtsc();
	features_on(r, FWS_FEATURE_START, r->start);
	for (i = 0; i < t->n_tasks; i++)
		fws_engine_start(&t->tasks[i], r->warmup > 0 ? t->warm_cookie : t->sync.cookie,
				 r->start, t->hz);
}

static void
result_head(struct trial_run *r, unsigned int size_idx)
{
	const struct fws_size_mix *mix = &r->t->cfg->sizes[size_idx];
	struct fws_result *res = r->res;

	memset(res, 0, sizeof(*res));
	res->size_idx = size_idx;
	res->size = *mix;
	if (r->o) {
		res->kind = r->o->kind;
		res->lat_frac = r->o->lat_frac;
		res->dir = r->o->dir;
	}
	res->avg_frame = fws_size_avg(mix);
	fws_size_rfc6985(mix, res->rfc6985, sizeof(res->rfc6985));
	res->warmup = r->warmup;
	res->drain = r->drain;
	res->started = time(NULL);
}

static void
finish(struct trial_run *r)
{
	struct fws_clock_pair clk1;
	struct fws_trial *t = r->t;
	unsigned int s, i;

	r->res->partial = r->interrupted || !r->measuring;
	if (r->measuring && fws_clock_read(&clk1) == 0)
		r->res->tsc_hz = fws_clock_hz(&r->clk0, &clk1);
	if (!r->measuring) /* Stopped in warm-up: the sequence counts are warm-up frames. */
		for (s = 0; s < t->cfg->n_streams; s++)
			for (i = 0; i < t->cfg->streams[s].flows.count; i++)
				t->txflows[s][i].seq = 0;
	features_on(r, FWS_FEATURE_FINISH, rte_rdtsc());
	fws_trial_collect(t, r->req_pps, r->before, r->res);
	features_on(r, FWS_FEATURE_COLLECT, rte_rdtsc());
	for (i = 0; i < t->n_rx; i++)
		fws_rx_retire_cookies(t->rx[i]);
	if (r->o && r->o->progress && !r->pr) {
		struct fws_progress p = {.phase = "result", .result = r->res};

		r->o->progress(r->o->progress_arg, &p);
	}
	fws_trial_sample_hugepages(t);
}

int
fws_trial_run_probe(struct fws_trial *t, unsigned int size_idx, const struct fws_trial_opts *o,
		    const struct fws_probe *pr, struct fws_result *res, struct fws_err *e)
{
	struct trial_run *r = calloc(1, sizeof(*r));
	double scale = !pr && o && o->rate_scale > 0 ? o->rate_scale : 1;
	int rc;

	if (r == NULL)
		return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
	r->t = t;
	r->o = o;
	r->pr = pr;
	r->res = res;
	r->warmup = pr || (o && o->burst) ? 0 : t->cfg->warmup;
	r->duration = pr ? pr->duration : o && o->duration > 0 ? o->duration : t->cfg->duration;
	r->drain = pr ? pr->drain : t->cfg->drain;
	result_head(r, size_idx);
	rc = stream_rates(r, scale, res->avg_frame, e);
	t->sync.cookie = new_cookie(t);
	t->warm_cookie = new_cookie(t);
	res->cookie = t->sync.cookie;
	if (rc == 0)
		rc = prepare_tasks(r, &t->cfg->sizes[size_idx], scale, e);
	if (rc == 0) {
		prepare_counters(r);
		rc = run_phases(r, e);
	}
	if (rc == 0)
		finish(r);
	free(r);
	return rc;
}

int
fws_trial_run_streams(struct fws_trial *t, unsigned int size_idx, const struct fws_trial_opts *o,
		      uint32_t mask, const struct fws_probe *pr, struct fws_result *res,
		      struct fws_err *e)
{
	int rc = fws_features_prepare(t, o, mask, size_idx, e);

	if (rc == 0)
		rc = fws_trial_run_probe(t, size_idx, o, pr, res, e);
	fws_features_after(t, rc == 0 && !pr ? res : NULL);
	return rc;
}

int
fws_trial_run(struct fws_trial *t, unsigned int size_idx, const struct fws_trial_opts *o,
	      struct fws_result *res, struct fws_err *e)
{
	return fws_trial_run_streams(t, size_idx, o, o ? o->streams : 0, NULL, res, e);
}
