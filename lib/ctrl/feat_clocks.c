/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trial feature "clocks": one-way latency across hosts (RFC 7679 3.7-3.8). A stream sent
 * from one agent and received on another is stamped by the sender's TSC and read against
 * the receiver's; their TSCs differ by an offset and drift. Before each trial the
 * controller probes every agent's TSC over the control link, NTP-style: of several
 * exchanges, the one with the smallest round trip, its reading taken as the round trip's
 * middle, half the round trip its error. From two such points per agent (setup and now)
 * comes each TSC's rate in the controller's time, and from them per stream the map of the
 * sender's ticks into the receiver's, which the sender applies to its stamps. Each
 * clock's rate is the least-squares slope of all its probes (before the first trial the
 * controller probes for RATE_SPAN_NS, ten times a second, to have one). After the trial a
 * second probe shows how far the map drifted: the bound of every one-way figure of the
 * stream is the two probes' errors plus that residual.
 *
 * With "clocks": "ptp" the hosts' CLOCK_REALTIME are one time (PTP disciplines them to a
 * grandmaster): a point is then an agent's own reading of its TSC beside CLOCK_REALTIME,
 * its error half the reads' window plus ptp4l's last offset from the master, and the rest is
 * as above with that time for the controller's. Every agent must follow one grandmaster (or
 * be it), checked at each point. With "none" nothing is aligned: one-way figures stay
 * relative.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fd_clocks.h"
#include "fws_compat.h"
#include "fws_feature.h"
#include "fws_ptp.h"
#include "fws_trial_int.h"
#include "fws_util.h"

#define PROBES 8          /* exchanges per probe: the one with the smallest round trip */
#define POINTS 64         /* probes per agent the rate is fitted over */
#define RATE_SPAN_NS 15e8 /* the rate is fitted over at least this span */
#define RATE_STEP_NS 1e8  /* probes while building that span */

struct clocks {
	struct fws_tsc_point pts[FWS_TRIAL_MAX_AGENTS][POINTS]; /* a ring, oldest first from n */
	unsigned int n[FWS_TRIAL_MAX_AGENTS];
	struct fws_tsc_point pre[FWS_TRIAL_MAX_AGENTS];
	double own_hz[FWS_TRIAL_MAX_AGENTS];
	uint32_t tx_of[FWS_CFG_MAX_STREAMS]; /* bit k: agent k sends (a share of) the stream */
	int rx_of[FWS_CFG_MAX_STREAMS];      /* the agent that receives it, -1 */
	/* receiver minus sender, at the last map: per sending agent */
	double offset_ns[FWS_TRIAL_MAX_AGENTS][FWS_CFG_MAX_STREAMS];
	/* "ptp": the grandmaster all follow, the time's origin */
	double ptp_ns[FWS_TRIAL_MAX_AGENTS]; /* its last point's offset from the master */
	char gm[FWS_PTP_ID_LEN];
	int64_t epoch_ns;
	/* Per sending agent and stream between two hosts: its stamps' map into the receiver's
	 * ticks, for each plan. */
	struct fws_affine map[FWS_TRIAL_MAX_AGENTS][FWS_CFG_MAX_STREAMS];
};

/* A stream's clocks in the report: how its two ends were aligned, the bound it leaves. */

/* Agent k's clock under PTP now: its point on CLOCK_REALTIME since the first. */
static int
ptp_point(struct fws_trial *t, struct clocks *c, unsigned int k, struct fws_tsc_point *out,
	  struct fws_err *e)
{
	struct fws_agent *a = t->agents[k];
	struct fws_ptp_point p;

	if (a->ops->ptp == NULL)
		return fws_err_set(e, FWS_ERR_SETUP, -ENOTSUP, "host %s: no PTP clock to read",
				   a->name);
	if (a->ops->ptp(a, fws_config_ptp_socket(t->cfg, a->host), t->cfg->ptp_domain, &p, e) < 0) {
		if (a->host == 0) { /* a remote agent's error names its host already */
			char m[FWS_ERR_LEN];

			strlcpy(m, e->msg, sizeof(m));
			fws_err_set(e, FWS_ERR_SETUP, -EINVAL, "this host: %s", m);
		}
		return -EINVAL;
	}
	if (c->gm[0] == '\0') {
		strlcpy(c->gm, p.st.gm, sizeof(c->gm));
		c->epoch_ns = p.realtime_ns;
	} else if (strcmp(c->gm, p.st.gm) != 0) {
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL,
				   "host %s follows grandmaster %s, another host %s: their clocks "
				   "are not one time",
				   a->name, p.st.gm, c->gm);
	}
	c->ptp_ns[k] = p.error_ns;
	*out = (struct fws_tsc_point){.c = (double)(p.realtime_ns - c->epoch_ns),
				      .a = p.tsc,
				      .e = p.read_ns / 2 + p.error_ns};
	return 0;
}

/* Agent k's point: probed over the control link, or read under PTP. */
static int
point(struct fws_trial *t, struct clocks *c, unsigned int k, struct fws_tsc_point *out,
      struct fws_err *e)
{
	if (t->cfg->clock_sync == FWS_CLOCK_SYNC_PTP)
		return ptp_point(t, c, k, out, e);
	*out = fws_trial_tsc_point(t->agents[k], PROBES);
	return 0;
}

/* A new point of every agent into pts. */
static int
points(struct fws_trial *t, struct clocks *c, struct fws_tsc_point *pts, struct fws_err *e)
{
	unsigned int k;

	for (k = 0; k < t->n_agents; k++)
		if (point(t, c, k, &pts[k], e) < 0)
			return -EINVAL;
	return 0;
}

static void
add_point(struct clocks *c, unsigned int k, const struct fws_tsc_point *p)
{
	c->pts[k][c->n[k]++ % POINTS] = *p;
}

/* The span of agent k's points, ns. */
static double
span(const struct clocks *c, unsigned int k)
{
	unsigned int n = FWS_MIN(c->n[k], (unsigned int)POINTS);
	double lo = INFINITY, hi = -INFINITY;
	unsigned int i;

	for (i = 0; i < n; i++) {
		lo = FWS_MIN(lo, c->pts[k][i].c);
		hi = FWS_MAX(hi, c->pts[k][i].c);
	}
	return n > 1 ? hi - lo : 0;
}

/* Ticks per controller ns of agent k: the least-squares slope of its points over at least
 * RATE_SPAN_NS, else its own calibration against its kernel clock. */
static double
rate(const struct clocks *c, unsigned int k)
{
	unsigned int n = FWS_MIN(c->n[k], (unsigned int)POINTS), i;
	const struct fws_tsc_point *p0 = &c->pts[k][0];
	double sx = 0, sy = 0, sxx = 0, sxy = 0, x, y;

	if (span(c, k) < RATE_SPAN_NS)
		return c->own_hz[k] / 1e9;
	for (i = 0; i < n; i++) {
		x = c->pts[k][i].c - p0->c;
		y = (double)(int64_t)(c->pts[k][i].a - p0->a);
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
	}
	return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

/* The sender x's ticks into the receiver y's, from their points px, py. */
static struct fws_affine
map(const struct clocks *c, unsigned int x, unsigned int y, const struct fws_tsc_point *px,
    const struct fws_tsc_point *py)
{
	double rx = rate(c, x), ry = rate(c, y);
	/* y's ticks at the controller time of x's reading */
	double y_at = (double)(int64_t)(py->a - px->a) + (px->c - py->c) * ry;

	return (struct fws_affine){.on = true,
				   .base = px->a,
				   .off = (int64_t)llround(y_at),
				   .q = (int64_t)llround((ry / rx - 1) * 4294967296.0)};
}

/* Which agent sends and which receives each stream: false when none crosses hosts. */
static bool
roles(struct fws_trial *t, struct clocks *c)
{
	struct fws_agent *a;
	unsigned int s, k;
	bool cross = false;

	for (s = 0; s < t->cfg->n_streams; s++) {
		c->tx_of[s] = 0;
		c->rx_of[s] = -1;
		FWS_TRIAL_FOREACH_AGENT(t, k, a)
		{
			if ((a->tx_streams >> s) & 1)
				c->tx_of[s] |= 1u << k;
			if (c->rx_of[s] < 0 && ((a->rx_streams >> s) & 1))
				c->rx_of[s] = (int)k;
		}
		cross |= c->rx_of[s] >= 0 && (c->tx_of[s] & ~(1u << c->rx_of[s])) != 0;
	}
	return cross;
}

static int
clocks_setup(struct fws_trial *t, void **state, struct fws_err *e)
{
	struct clocks *c;
	struct fws_agent *a;
	unsigned int k;

	if (t->n_agents < 2 || t->cfg->clock_sync == FWS_CLOCK_SYNC_NONE)
		return 0;
	FWS_TRIAL_FOREACH_AGENT(t, k, a)
	{
		if (a->ops->tsc == NULL) /* one that cannot be probed: figures stay relative */
			return 0;
	}
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return -ENOMEM;
	if (!roles(t, c)) {
		free(c);
		return 0;
	}
	FWS_TRIAL_FOREACH_AGENT(t, k, a)
	{
		uint64_t hz, hz_dpdk;

		a->ops->clock(a, &hz, &hz_dpdk);
		c->own_hz[k] = (double)hz;
	}
	if (points(t, c, c->pre, e) < 0) { /* under PTP: not in sync is refused before traffic */
		free(c);
		return -EINVAL;
	}
	for (k = 0; k < t->n_agents; k++)
		add_point(c, k, &c->pre[k]);
	*state = c;
	return 0;
}

static int
clocks_prepare(struct fws_trial *t, void *state, const struct fws_trial_opts *o, uint32_t mask,
	       unsigned int size_idx, struct fws_err *e)
{
	struct clocks *c = state;
	unsigned int s, k;

	(void)o;
	(void)mask;
	(void)size_idx;
	if (c == NULL) /* every stream within one host */
		return 0;
	for (;;) {
		bool short_span = false;

		if (points(t, c, c->pre, e) < 0)
			return -EINVAL;
		for (k = 0; k < t->n_agents; k++) {
			add_point(c, k, &c->pre[k]);
			short_span |= span(c, k) < RATE_SPAN_NS;
		}
		if (!short_span)
			break;
		nanosleep(&(struct timespec){.tv_nsec = (long)RATE_STEP_NS}, NULL);
	}
	for (s = 0; s < t->cfg->n_streams; s++) {
		int y = c->rx_of[s];

		for (k = 0; k < t->n_agents && y >= 0; k++) {
			if (!((c->tx_of[s] >> k) & 1) || k == (unsigned int)y)
				continue;
			c->map[k][s] = map(c, k, (unsigned int)y, &c->pre[k], &c->pre[y]);
			c->offset_ns[k][s] = (double)c->map[k][s].off / rate(c, (unsigned int)y);
		}
	}
	return 0;
}

/* A one-way figure's alignment: the offset found, how far the map drifted, the bound. */
struct fig {
	double offset_ns, residual_ns, bound_ns, ptp_ns;
};

/* The figures of stream s as agent tx sent it, after the trial, from the points after it. */
static struct fig
sender_bound(struct fws_trial *t, struct clocks *c, unsigned int s, unsigned int tx,
	     const struct fws_tsc_point *post)
{
	int rx = c->rx_of[s];
	double ry = rate(c, (unsigned int)rx);
	double predicted =
		(double)(int64_t)(fws_affine_apply(&c->map[tx][s], post[tx].a) - post[rx].a);
	double actual = (post[tx].c - post[rx].c) * ry;
	struct fig f = {.offset_ns = c->offset_ns[tx][s], .residual_ns = (predicted - actual) / ry};

	f.bound_ns = c->pre[tx].e + c->pre[rx].e + post[tx].e + post[rx].e + fabs(f.residual_ns);
	f.ptp_ns = t->cfg->clock_sync == FWS_CLOCK_SYNC_PTP ? c->ptp_ns[tx] + c->ptp_ns[rx] : 0;
	return f;
}

/* Stream s's figures: those of its sender on another host with the widest bound (a stream
 * split over several senders mixes their frames in one histogram). */
static void
stream_bound(struct fws_trial *t, struct clocks *c, unsigned int s,
	     const struct fws_tsc_point *post, struct fws_fd_clocks *sr)
{
	struct fig f;
	unsigned int k;

	for (k = 0; k < t->n_agents; k++) {
		if (!((c->tx_of[s] >> k) & 1) || k == (unsigned int)c->rx_of[s])
			continue;
		f = sender_bound(t, c, s, k, post);
		if (sr->aligned && f.bound_ns <= sr->bound_ns)
			continue;
		sr->aligned = 1;
		sr->offset_ns = f.offset_ns;
		sr->residual_ns = f.residual_ns;
		sr->bound_ns = f.bound_ns;
		sr->ptp_ns = f.ptp_ns;
	}
}

/* What every stream's result says, aligned or not: whether it crossed hosts, how its
 * clocks were to be aligned, which latency figures the bound exceeds 10 % of, its skew. */
static void
stream_head(struct fws_trial *t, unsigned int s, const struct fws_stream_result *sr,
	    struct fws_fd_clocks *x)
{
	const double v[] = {(double)sr->lat.min, sr->lat.avg, (double)sr->lat.p50,
			    (double)sr->lat.p99, (double)sr->lat.max};
	struct fws_agent *a;
	unsigned int k;

	_Static_assert(FWS_DIM(v) == FWS_FD_CLOCK_FIGS, "one value per figure");
	FWS_TRIAL_FOREACH_AGENT(t, k, a)
	{
		x->cross_host |= ((a->tx_streams ^ a->rx_streams) >> s) & 1;
	}
	x->sync = (uint8_t)t->cfg->clock_sync;
	x->skewed = sr->lat.skewed;
	x->skew_max_ns = sr->lat.skew_max_ns;
	for (k = 0; x->aligned && sr->lat.count && k < FWS_DIM(v); k++)
		if (x->bound_ns > 0.1 * v[k])
			x->uncertain |= (uint8_t)(1u << k);
}

/* After the trial: how far the map drifted; the bound of the stream's one-way figures. A
 * clock that cannot be read now (PTP lost its master) leaves the trial's figures relative,
 * said on stderr and in the report. */
static void
clocks_collect(struct fws_trial *t, void *state, const struct fws_step *x)
{
	struct fws_tsc_point post[FWS_TRIAL_MAX_AGENTS];
	struct clocks *c = state;
	struct fws_err e = {0};
	unsigned int s, k;
	bool bound = c != NULL && !x->probe;

	if (bound && points(t, c, post, &e) < 0) {
		fprintf(stderr,
			"fwstress: clocks after the trial: %s: its one-way figures are relative\n",
			e.msg);
		bound = false;
	}
	for (s = 0; s < t->cfg->n_streams; s++) {
		struct fws_fd_clocks *r = fws_trial_block(t, &fws_fd_clocks, x->res, s);

		if (r == NULL) /* a test's own layout without it */
			continue;

		if (bound && c->rx_of[s] >= 0)
			stream_bound(t, c, s, post, r);
		stream_head(t, s, &x->res->streams[s], r);
	}
	for (k = 0; bound && k < t->n_agents; k++) /* the next trial's rates fit over them too */
		add_point(c, k, &post[k]);
}

static void
clocks_plan(struct fws_trial *t, void *state, unsigned int k, struct fws_agent_plan *p)
{
	const struct clocks *c = state;

	(void)t;
	if (c)
		memcpy(p->clk, c->map[k], sizeof(p->clk));
}

static void
clocks_destroy(struct fws_trial *t, void *state)
{
	(void)t;
	free(state);
}

const struct fws_feature fws_feature_clocks = {
	.name = "clocks",
	.setup = clocks_setup,
	.prepare = clocks_prepare,
	.plan = clocks_plan,
	.on = {[FWS_FEATURE_COLLECT] = clocks_collect},
	.destroy = clocks_destroy,
};
