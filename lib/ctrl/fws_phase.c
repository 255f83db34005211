/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One trial, as the controller runs it over its agents (fws_agent.h): decide the plan
 * (rates, cookies, limits) and arm every agent with it, launch, then the phases of the table
 * below in order, each with its entry action and its end condition, while every agent is
 * polled and the progress printed; then stop, collect every agent's counts and merge them
 * (fws_merge.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fws_compat.h"
#include "fws_trial_int.h"
#include "fws_util.h"

/* A trial in progress. */
struct trial_run {
	struct fws_trial *t;
	const struct fws_trial_opts *o;
	const struct fws_probe *pr;
	struct fws_result *res;
	double warmup, duration, drain;
	double req_pps[FWS_CFG_MAX_STREAMS];
	struct fws_agent_plan plan;
	uint64_t start, deadline;
	uint64_t due;       /**< the phase that ended ended by its deadline: the next starts then */
	enum fws_phase cur; /**< the workers' phase, as last set */
	bool armed;         /**< several agents: each change armed for one instant */
	double lead_ns;     /**< how long before a deadline the next change is armed */
	double ticks_per_ns[FWS_TRIAL_MAX_AGENTS];
	bool measuring, interrupted;
	const char *lost;             /**< why an agent was lost: the trial is invalid */
	bool tx_stopped, bursts_sent; /**< every agent's, at the last poll */
	struct fws_agent_live live, one;
	struct fws_agent_counts *counts[FWS_TRIAL_MAX_AGENTS];
	uint64_t next_progress; /**< the progress line's next second */
};

/* The controller's own clock for phase deadlines (ns): no agent's TSC, so that it runs
 * where no port is. */
#define CTL_HZ 1e9
static uint64_t
ctl_now(void)
{
	return fws_trial_now_ns();
}

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

/*
 * Phases across load clients. Each change is armed for one instant of the controller's
 * clock, given to every agent as its own clock's reading of it: its TSC read against the
 * controller's just before (of SYNC_PROBES exchanges the shortest; its error half that
 * round trip), so that a split stream's senders start and stop together and every host's
 * measured phase is the same span. The instant leaves time to reach every agent; one that
 * hears it late changes at once, and the trial says by how much (phase_late_ns: that, or a
 * worker that switched late, as the workers measure it; phase_sync_ns adds the probes).
 */
#define SYNC_PROBES 3
#define SYNC_MIN_NS 2e6 /* the least time between arming and the instant */
#define SYNC_LEAD_NS 2e7

/* Arm ph on every agent for controller time want, or as soon as every agent can hear of it;
 * the instant it was armed for. */
static uint64_t
agents_arm(struct trial_run *r, enum fws_phase ph, uint64_t want)
{
	struct fws_tsc_point pt[FWS_TRIAL_MAX_AGENTS];
	double rtt = 0, e1 = 0, e2 = 0, late = 0, t0 = (double)ctl_now(), margin;
	struct fws_agent *a;
	uint64_t at;
	unsigned int k;

	FWS_TRIAL_FOREACH_AGENT(r->t, k, a)
	{
		pt[k] = fws_trial_tsc_point(a, SYNC_PROBES);
		rtt += 2 * pt[k].e;
		if (pt[k].e > e1) { /* the two widest */
			e2 = e1;
			e1 = pt[k].e;
		} else if (pt[k].e > e2) {
			e2 = pt[k].e;
		}
	}
	margin = SYNC_MIN_NS + 4 * rtt;
	at = FWS_MAX(want, ctl_now() + (uint64_t)margin);
	FWS_TRIAL_FOREACH_AGENT(r->t, k, a)
	{
		double d = ((double)at - pt[k].c) * r->ticks_per_ns[k];

		late = FWS_MAX(late, a->ops->phase(a, ph, pt[k].a + (uint64_t)(int64_t)d));
	}
	/* The next change is armed this long before its deadline: this one's work, its margin
	 * and a pass of the controller's loop. */
	r->lead_ns = FWS_MAX(SYNC_LEAD_NS, 2 * ((double)ctl_now() - t0) + margin + 5e6);
	r->res->phase_sync_ns = FWS_MAX(r->res->phase_sync_ns, e1 + e2);
	r->res->phase_late_ns = FWS_MAX(r->res->phase_late_ns, late);
	return at;
}

/* Move every agent to ph: at once with one agent, armed for one instant with several (at
 * want if it is still ahead). The controller time the phase begins. */
static uint64_t
agents_phase(struct trial_run *r, enum fws_phase ph, uint64_t want)
{
	struct fws_agent *a;
	unsigned int k;

	r->cur = ph;
	if (r->armed)
		return agents_arm(r, ph, want);
	FWS_TRIAL_FOREACH_AGENT(r->t, k, a)
	{
		a->ops->phase(a, ph, 0);
	}
	return ctl_now();
}

/* Several agents that can all be read are armed; the rate of each one's clock. */
static void
arming(struct trial_run *r)
{
	struct fws_agent *a;
	unsigned int k;

	r->armed = r->t->n_agents > 1;
	FWS_TRIAL_FOREACH_AGENT(r->t, k, a)
	{
		uint64_t hz, hz_dpdk;

		r->armed &= a->ops->tsc != NULL;
		a->ops->clock(a, &hz, &hz_dpdk);
		r->ticks_per_ns[k] = (double)hz / 1e9;
	}
	r->lead_ns = r->armed ? SYNC_LEAD_NS : 0;
	r->res->phase_hosts = r->armed ? r->t->n_agents : 0;
}

static void
agents_poll(struct trial_run *r)
{
	struct fws_agent_poll st;
	struct fws_agent *a;
	unsigned int k;

	r->tx_stopped = r->bursts_sent = true;
	FWS_TRIAL_FOREACH_AGENT(r->t, k, a)
	{
		a->ops->poll(a, &st);
		r->tx_stopped &= st.tx_stopped;
		r->bursts_sent &= st.bursts_sent;
		if (r->lost == NULL)
			r->lost = fws_agent_lost(a);
	}
}

/* An agent lost: the trial is invalid (never half merged). 0 while all live. */
static int
lost_check(struct trial_run *r, struct fws_err *e)
{
	struct fws_agent *a;
	unsigned int k;

	FWS_TRIAL_FOREACH_AGENT(r->t, k, a)
	{
		if (r->lost == NULL)
			r->lost = fws_agent_lost(a);
	}
	return r->lost ? fws_err_set(e, FWS_ERR_FAULT, -EPIPE,
				     "%s; the trial is invalid (its counts are not merged)",
				     r->lost)
		       : 0;
}

/* A stream's live counts of one host into the sum over hosts. */
static void
live_stream_add(struct fws_live_stream *d, const struct fws_live_stream *x)
{
	d->tx_frames += x->tx_frames;
	d->tx_bytes += x->tx_bytes;
	d->rx_frames += x->rx_frames;
	d->lat_min = d->lat_count == 0 ? x->lat_min
		     : x->lat_count    ? FWS_MIN(d->lat_min, x->lat_min)
				       : d->lat_min;
	d->lat_count += x->lat_count;
	d->lat_sum += x->lat_sum;
	d->lat_max = FWS_MAX(d->lat_max, x->lat_max);
	d->tx_pps += x->tx_pps;
	d->rx_pps += x->rx_pps;
	d->tx_Bps += x->tx_Bps;
}

/* Every agent's live totals and per-second rates (each over its own last interval, by its
 * own clock), summed into r->live. */
static void
agents_live(struct trial_run *r, bool warm)
{
	struct fws_agent_live *l = &r->live, *o = &r->one;
	struct fws_agent *a;
	unsigned int k, s;

	memset(l, 0, sizeof(*l));
	l->rates = true;
	FWS_TRIAL_FOREACH_AGENT(r->t, k, a)
	{
		a->ops->live(a, warm, o);
		l->tx_frames += o->tx_frames;
		l->tx_bytes += o->tx_bytes;
		l->rx_frames += o->rx_frames;
		l->rx_bytes += o->rx_bytes;
		l->tx_pps += o->tx_pps;
		l->rx_pps += o->rx_pps;
		l->tx_Bps += o->tx_Bps;
		l->rx_Bps += o->rx_Bps;
		l->rates &= o->rates;
		for (s = 0; s < r->t->cfg->n_streams; s++)
			live_stream_add(&l->streams[s], &o->streams[s]);
	}
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
after(uint64_t now, double seconds)
{
	return now + (uint64_t)(seconds * CTL_HZ);
}

static bool
deadline_done(struct trial_run *r, uint64_t now)
{
	return now >= r->deadline;
}

/* The deadline is near enough to arm the next change for it (with one agent: reached). */
static bool
ahead_done(struct trial_run *r, uint64_t now)
{
	if ((double)now + r->lead_ns < (double)r->deadline)
		return false;
	r->due = r->deadline;
	return true;
}

static bool
want_warmup(const struct trial_run *r)
{
	return r->warmup > 0;
}

static void
enter_warmup(struct trial_run *r, uint64_t now)
{
	r->deadline = after(now, r->warmup);
	agents_live(r, true); /* each host's rates start from here */
	r->next_progress = after(now, 1);
}

static bool
want_measure(const struct trial_run *r)
{
	return !r->interrupted;
}

static void
enter_measure(struct trial_run *r, uint64_t now)
{
	r->measuring = true;
	r->deadline = after(now, r->duration);
	agents_live(r, false); /* each host's rates start from here */
	r->next_progress = after(now, 1);
	features_on(r, FWS_FEATURE_MEASURE, now);
}

static bool
measure_done(struct trial_run *r, uint64_t now)
{
	return ahead_done(r, now) || ((r->pr || (r->o && r->o->burst)) && r->bursts_sent);
}

static bool
stop_done(struct trial_run *r, uint64_t now)
{
	(void)now;
	return r->tx_stopped;
}

static void
enter_drain(struct trial_run *r, uint64_t now)
{
	r->deadline = after(now, r->drain);
}

/* The trial's phases, in order. Stop waits until every transmitter has seen it. */
static const struct phase phases[] = {
	{"warm-up", FWS_PHASE_WARMUP, 1, want_warmup, enter_warmup, ahead_done},
	{"measure", FWS_PHASE_MEASURE, 1, want_measure, enter_measure, measure_done},
	{"stop", FWS_PHASE_STOP, 0, NULL, NULL, stop_done},
	{"drain", FWS_PHASE_STOP, 2, NULL, enter_drain, deadline_done},
};

/* L1 bit/s of the progress line (the layer the tables and the matrix lead with): from the
 * L2 bytes per second counted, or in the warm-up, which counts frames only, the trial's
 * average frame. */
static double
l1_bps(double pps, double Bps, double avg_frame)
{
	return (Bps > 0 ? Bps : pps * avg_frame) * 8 + pps * FWS_RATE_L1_OVERHEAD * 8;
}

/* One second of the measured phase, as the live line has it, kept in the result. */
static void
keep_second(struct trial_run *r)
{
	struct fws_result *res = r->res;
	struct fws_second *n;
	unsigned int cap;

	if (!r->measuring || !r->live.rates)
		return;
	if (res->n_seconds == res->cap_seconds) {
		cap = res->cap_seconds ? res->cap_seconds * 2 : 64;
		if ((n = realloc(res->seconds, cap * sizeof(*n))) == NULL) {
			res->seconds_dropped++;
			return;
		}
		res->seconds = n;
		res->cap_seconds = cap;
	}
	res->seconds[res->n_seconds++] = (struct fws_second){r->live.tx_pps, r->live.rx_pps};
}

/* The live line: the totals and each host's rates over its last second, summed. */
static void
progress(struct trial_run *r, const struct phase *ph, uint64_t now)
{
	struct fws_progress p = {.phase = ph->name};

	if (!r->o || !r->o->progress)
		return;
	p.tx_frames = r->live.tx_frames;
	p.tx_bytes = r->live.tx_bytes;
	p.rx_frames = r->live.rx_frames;
	p.rx_bytes = r->live.rx_bytes;
	p.n_streams = r->t->cfg->n_streams;
	p.streams = r->live.streams;
	p.frame_size = r->res->size.name;
	p.direction = r->o->dir ? fws_dir_name(r->o->dir) : NULL;
	p.elapsed = (double)(now - r->start) / CTL_HZ;
	p.total = r->warmup + r->duration;
	p.rates = r->live.rates;
	p.tx_pps = r->live.tx_pps;
	p.rx_pps = r->live.rx_pps;
	p.tx_bps = l1_bps(p.tx_pps, r->live.tx_Bps, r->res->avg_frame);
	p.rx_bps = l1_bps(p.rx_pps, r->live.rx_Bps, r->res->avg_frame);
	r->o->progress(r->o->progress_arg, &p);
}

/* Once a second of warm-up and measured phase (on the phase's own second marks; a second
 * the controller overslept is not made up): each host's live counts, the measured phase's
 * seconds kept, the live line. A probe has neither. */
static void
each_second(struct trial_run *r, const struct phase *ph, uint64_t now)
{
	if (r->pr || ph->workers > FWS_PHASE_MEASURE || now < r->next_progress)
		return;
	agents_live(r, !r->measuring);
	keep_second(r);
	progress(r, ph, now);
	r->next_progress = after(r->next_progress, 1);
	if (r->next_progress <= now)
		r->next_progress = after(now, 1);
}

/* Phase ph, begun (or armed to begin) at controller time at. */
static void
run_phase(struct trial_run *r, const struct phase *ph, uint64_t at)
{
	uint64_t now = ctl_now();

	r->due = 0;
	if (ph->enter)
		ph->enter(r, at);
	agents_poll(r);
	while (!ph->done(r, now) && r->lost == NULL) {
		if (stopped(r, ph->stop_level)) {
			r->interrupted = true;
			return;
		}
		sleep_ms(5);
		agents_poll(r);
		now = ctl_now();
		features_on(r, FWS_FEATURE_SERVICE, now);
		each_second(r, ph, now);
	}
}

/* Launch every agent idle (receiving, not sending), then move them all to phase ph (at
 * *at): no sender starts before every receiver polls (an agent not yet launched would take
 * the first frames in its idle loop, as idle_frames). On a failure the ones launched are
 * stopped. */
static int
launch(struct trial_run *r, enum fws_phase ph, uint64_t *at, struct fws_err *e)
{
	struct fws_agent *a;
	unsigned int k, j;
	int rc;

	FWS_TRIAL_FOREACH_AGENT(r->t, k, a)
	{
		if ((rc = a->ops->launch(a, FWS_PHASE_IDLE, e)) < 0) {
			for (j = 0; j < k; j++)
				r->t->agents[j]->ops->stop(r->t->agents[j], false);
			return rc;
		}
	}
	*at = agents_phase(r, ph, 0);
	return 0;
}

static int
run_phases(struct trial_run *r, struct fws_err *e)
{
	struct fws_agent *a;
	bool first = true;
	unsigned int i;
	uint64_t at;
	int rc;

	arming(r);
	for (i = 0; i < FWS_DIM(phases); i++) {
		if (phases[i].wanted && !phases[i].wanted(r))
			continue;
		/* The workers start in the first phase wanted; a change after a phase that ran
		 * to its deadline is armed for that deadline. */
		if (first && (rc = launch(r, phases[i].workers, &at, e)) < 0)
			return rc;
		if (!first)
			at = phases[i].workers == r->cur
				     ? ctl_now()
				     : agents_phase(r, phases[i].workers,
						    r->interrupted || r->lost ? 0 : r->due);
		run_phase(r, &phases[i], at);
		first = false;
	}
	FWS_TRIAL_FOREACH_AGENT(r->t, i, a)
	{
		a->ops->stop(a, r->measuring);
	}
	return lost_check(r, e);
}

/* The controller's own random source (libbsd): it runs without EAL (over model agents in the
 * unit tests), and there 24.11's rte_rand (its state an lcore variable since 24.11) gave 0
 * for ever, so this loop never ended. */
static uint32_t
new_cookie(const struct fws_trial *t)
{
	uint32_t c;

	do {
		c = arc4random();
	} while (c == 0 || c == t->cookie || c == t->warm_cookie);
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
		uint64_t link_bps = fws_trial_tx_link_mbps(r->t, s) * 1000000ull;
		char ports[FWS_CFG_SENDERS_NAME_LEN];

		r->req_pps[s] = r->pr ? (s == r->pr->stream ? r->pr->pps : 0)
				      : fws_rate_pps(&cs->rate, link_bps, avg) * scale;
		if (r->req_pps[s] < 0)
			return fws_err_set(
				e, FWS_ERR_CONFIG, -EINVAL,
				"config: stream %s: a rate in %% of the link needs the "
				"link speed of port %s, which the driver does not report",
				cs->name, fws_cfg_senders_name(cfg, cs, ports, sizeof(ports)));
		if (r->req_pps[s] == 0 && scale < 1)
			return fws_err_set(e, FWS_ERR_CONFIG, -EINVAL,
					   "config: stream %s: \"line\" on port %s has no known "
					   "link speed to take a share of; give the rate in pps or "
					   "bit/s",
					   cs->name,
					   fws_cfg_senders_name(cfg, cs, ports, sizeof(ports)));
	}
	return 0;
}

/* A stream sent as fast as it goes: "max" at full scale, and "line" at full scale where the
 * link sets the pace (a NIC) or no speed is known. A virtual port with a reported speed
 * (net_ring says 10 Gbit/s) is paced to it: "line" never sends above its own link rate. */
static bool
unpaced(const struct trial_run *r, unsigned int s, double scale)
{
	const struct fws_cfg_stream *cs = &r->t->cfg->streams[s];
	bool physical = false;
	unsigned int j;

	if (r->pr || scale < 1)
		return false;
	for (j = 0; j < cs->n_tx; j++)
		physical |= r->t->port[cs->tx_ports[j]].physical;
	return cs->rate.kind == FWS_RATE_MAX ||
	       (cs->rate.kind == FWS_RATE_LINE &&
		(physical || fws_trial_tx_link_mbps(r->t, s) == 0));
}

/* The plan every agent is armed with: each stream's rate, which streams send, their frame
 * limits. */
static void
plan(struct trial_run *r, unsigned int size_idx, double scale)
{
	const struct fws_trial_opts *o = r->o;
	struct fws_agent_plan *p = &r->plan;
	unsigned int s;

	memset(p, 0, sizeof(*p));
	p->size_idx = size_idx;
	p->cookie = r->t->cookie;
	p->warm_cookie = r->t->warm_cookie;
	p->warmup = r->warmup > 0;
	for (s = 0; s < r->t->cfg->n_streams; s++) {
		const struct fws_cfg_stream *cs = &r->t->cfg->streams[s];
		bool on = r->pr ? s == r->pr->stream
				: !cs->learn_only && (!o || !o->streams || (o->streams >> s) & 1);

		p->active |= (uint32_t)on << s;
		p->pps[s] = unpaced(r, s, scale) ? 0 : r->req_pps[s];
		p->limit[s] = !on ? 0 : r->pr ? r->pr->frames : o && o->burst ? o->burst : 0;
	}
}

static int
arm(struct trial_run *r, struct fws_err *e)
{
	struct fws_agent *a;
	unsigned int k;
	int rc;

	FWS_TRIAL_FOREACH_AGENT(r->t, k, a)
	{
		/* What the features add to its plan (the clocks': its own stamps' map into
		 * each stream's receiver's clock). */
		fws_features_plan(r->t, k, &r->plan);
		if ((rc = a->ops->arm(a, &r->plan, e)) < 0)
			return rc;
	}
	r->start = ctl_now();
	features_on(r, FWS_FEATURE_START, r->start);
	return 0;
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

/* Collect every agent's counts and merge them into the result. */
static int
collect(struct trial_run *r, struct fws_err *e)
{
	struct fws_agent *a;
	unsigned int k;
	int rc;

	FWS_TRIAL_FOREACH_AGENT(r->t, k, a)
	{
		if ((r->counts[k] = malloc(sizeof(*r->counts[k]))) == NULL)
			return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "collect: out of memory");
		a->ops->collect(a, r->counts[k]);
	}
	if ((rc = lost_check(r, e)) < 0)
		return rc;
	rc = fws_trial_merge(r->t, r->req_pps, r->counts, r->res);
	if (r->res->phase_hosts) /* the probes' part, then the switches' lateness */
		r->res->phase_sync_ns += r->res->phase_late_ns;
	if (rc < 0)
		fws_err_set(e, FWS_ERR_SETUP, rc, "collect: out of memory");
	if (rc == 0 && (rc = lost_check(r, e)) < 0) /* lost while its flows were read */
		return rc;
	if (rc == 0) {
		const struct fws_step x = {.o = r->o,
					   .probe = r->pr != NULL,
					   .interrupted = r->interrupted,
					   .duration = r->duration,
					   .now = ctl_now(),
					   .res = r->res,
					   .counts = r->counts};

		fws_features_on(r->t, FWS_FEATURE_COLLECT, &x);
	}
	FWS_TRIAL_FOREACH_AGENT(r->t, k, a)
	{
		a->ops->retire(a);
	}
	return rc;
}

/* The kept seconds against the band, the generator's share told by what the plan asked of
 * the sending streams (an unpaced one: no second is the generator's). */
static void
steadiness(struct trial_run *r)
{
	double asked = 0;
	bool paced = true;
	unsigned int s;

	for (s = 0; s < r->t->cfg->n_streams; s++) {
		if (!((r->plan.active >> s) & 1))
			continue;
		asked += r->plan.pps[s];
		paced &= r->plan.pps[s] > 0;
	}
	fws_steady_of(r->res->seconds, r->res->n_seconds, paced ? asked : 0, r->t->cfg->steady_band,
		      &r->res->steady);
}

static int
finish(struct trial_run *r, struct fws_err *e)
{
	unsigned int k;
	int rc;

	r->res->partial = r->interrupted || !r->measuring;
	features_on(r, FWS_FEATURE_FINISH, ctl_now());
	rc = collect(r, e);
	for (k = 0; k < r->t->n_agents; k++)
		free(r->counts[k]);
	if (rc < 0)
		return rc;
	if (!r->pr) /* as the progress lines and --stats number it */
		r->res->number = ++r->t->n_runs;
	steadiness(r);
	if (r->o && r->o->progress && !r->pr) {
		struct fws_progress p = {.phase = "result",
					 .result = r->res,
					 .frame_size = r->res->size.name,
					 .direction = r->o->dir ? fws_dir_name(r->o->dir) : NULL};

		r->o->progress(r->o->progress_arg, &p);
	}
	return 0;
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
	t->cookie = new_cookie(t);
	t->warm_cookie = new_cookie(t);
	res->cookie = t->cookie;
	if (rc == 0) {
		plan(r, size_idx, scale);
		rc = arm(r, e);
	}
	if (rc == 0)
		rc = run_phases(r, e);
	if (rc == 0)
		rc = finish(r, e);
	/* A trial that failed (an agent lost mid-trial) is not a result: what it had put in res
	 * so far (the seconds kept, merged histograms, telemetry) goes, and res is left empty,
	 * as the callers expect of an error. */
	if (rc < 0)
		fws_result_free(res);
	free(r);
	return rc;
}

int
fws_trial_run_streams(struct fws_trial *t, unsigned int size_idx, const struct fws_trial_opts *o,
		      uint32_t mask, const struct fws_probe *pr, struct fws_result *res,
		      struct fws_err *e)
{
	struct fws_agent_counts *c = calloc(1, sizeof(*c));
	struct fws_agent *a;
	unsigned int k, s, st;
	int rc = fws_features_prepare(t, o, mask, size_idx, e);

	for (st = 0; st < FWS_PREP_STAGES; st++)
		FWS_TRIAL_FOREACH_AGENT(t, k, a)
		{
			if (rc == 0)
				rc = a->ops->prepare(a, (enum fws_prep_stage)st, mask,
						     o ? o->stop : NULL, e);
		}
	if (rc == 0)
		rc = fws_trial_run_probe(t, size_idx, o, pr, res, e);
	fws_features_after(t, rc == 0 && !pr ? res : NULL);
	/* The features' blocks filled in the after call (TCP's connections, closed now): each
	 * host's own, summed over the hosts. */
	for (s = 0; rc == 0 && !pr && s < res->n_streams; s++)
		fws_fd_zero(&t->fd, FWS_FD_AT_AFTER, NULL, res->streams[s].fd);
	FWS_TRIAL_FOREACH_AGENT(t, k, a)
	{
		for (s = 0; c && s < t->cfg->n_streams; s++)
			fws_fd_zero(&t->fd, FWS_FD_AT_AFTER, c->streams[s].fd, NULL);
		a->ops->after(a, rc == 0 && !pr ? c : NULL);
		for (s = 0; c && rc == 0 && !pr && s < res->n_streams; s++)
			fws_fd_merge(&t->fd, FWS_FD_AT_AFTER, res->streams[s].fd, c->streams[s].fd,
				     fws_trial_roles(t, k, s));
	}
	free(c);
	return rc;
}

int
fws_trial_run(struct fws_trial *t, unsigned int size_idx, const struct fws_trial_opts *o,
	      struct fws_result *res, struct fws_err *e)
{
	return fws_trial_run_streams(t, size_idx, o, o ? o->streams : 0, NULL, res, e);
}
