/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trial feature "linkwatch": the main lcore looks at every port's link each pass of its phase
 * loop (5 ms) and records each time one goes down and comes back, with the test frames the
 * streams to and from it sent meanwhile. A link down at the start is an event at 0 s.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "fd_links.h"
#include "fws_host.h"

struct fws_linkwatch {
	uint64_t start;                    /**< TSC at the start of the trial */
	bool up[FWS_CFG_MAX_PORTS];        /**< as last seen */
	int open[FWS_CFG_MAX_PORTS];       /**< the event of a port that is down, or -1 */
	uint64_t sent0[FWS_CFG_MAX_PORTS]; /**< its frames sent when it went down */
};

/* Test frames sent so far in this trial (warm-up and measured) by streams to or from port p. */
static uint64_t
sent_via(const struct fws_host *t, unsigned int p)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < t->n_tasks; i++) {
		const struct fws_tx_task *task = &t->tasks[i];
		const struct fws_cfg_stream *cs = &t->cfg->streams[task->stream];

		if (task->port_idx != p && cs->rx_port != p)
			continue;
		n += __atomic_load_n(&task->cnt.tx_frames, __ATOMIC_RELAXED) +
		     __atomic_load_n(&task->cnt.warmup_tx, __ATOMIC_RELAXED);
	}
	return n;
}

static double
since(const struct fws_linkwatch *lw, const struct fws_host *t, uint64_t now)
{
	return (double)(now - lw->start) / (double)t->hz;
}

static void
went_down(struct fws_linkwatch *lw, const struct fws_host *t, unsigned int p, uint64_t now,
	  struct fws_link_events *res)
{
	struct fws_link_event *ev;

	FWS_LOG(WARNING, "port %s: link down at %.3f s into the trial", t->cfg->ports[p].name,
		since(lw, t, now));
	if (res->n == FWS_LINK_EVENTS_MAX) {
		res->dropped++;
		return;
	}
	ev = &res->ev[res->n];
	memset(ev, 0, sizeof(*ev));
	strlcpy(ev->port, t->cfg->ports[p].name, sizeof(ev->port));
	ev->down_s = since(lw, t, now);
	ev->up_s = -1;
	lw->open[p] = (int)res->n++;
	lw->sent0[p] = sent_via(t, p);
}

static void
came_up(struct fws_linkwatch *lw, const struct fws_host *t, unsigned int p, uint64_t now,
	struct fws_link_events *res)
{
	struct fws_link_event *ev;

	FWS_LOG(WARNING, "port %s: link up again at %.3f s", t->cfg->ports[p].name,
		since(lw, t, now));
	if (lw->open[p] < 0)
		return;
	ev = &res->ev[lw->open[p]];
	ev->up_s = since(lw, t, now);
	ev->sent_down = sent_via(t, p) - lw->sent0[p];
	lw->open[p] = -1;
}

static void
lw_service(struct fws_host *t, void *state, struct fws_agent_counts *c, uint64_t now)
{
	struct fws_link_events *ev = fws_host_trial_block(t, &fws_fd_links, c);
	struct fws_linkwatch *lw = state;
	unsigned int p;

	for (p = 0; p < t->cfg->n_ports; p++) {
		bool up = fws_port_link_now(&t->port[p]) != 0;

		if (up == lw->up[p])
			continue;
		lw->up[p] = up;
		if (up)
			came_up(lw, t, p, now, ev);
		else
			went_down(lw, t, p, now, ev);
	}
}

static void
lw_start(struct fws_host *t, void *state, struct fws_agent_counts *c, uint64_t now)
{
	struct fws_linkwatch *lw = state;
	unsigned int p;

	lw->start = now;
	for (p = 0; p < t->cfg->n_ports; p++) {
		lw->up[p] = true;
		lw->open[p] = -1;
	}
	lw_service(t, state, c, now);
}

/* Close the events of links still down at the end of the trial. */
static void
lw_finish(struct fws_host *t, void *state, struct fws_agent_counts *c, uint64_t now)
{
	struct fws_link_events *ev = fws_host_trial_block(t, &fws_fd_links, c);
	struct fws_linkwatch *lw = state;
	unsigned int p;

	(void)now;
	for (p = 0; p < t->cfg->n_ports; p++)
		if (lw->open[p] >= 0) {
			ev->ev[lw->open[p]].sent_down = sent_via(t, p) - lw->sent0[p];
			lw->open[p] = -1;
		}
}

static int
lw_setup(struct fws_host *t, void **state, struct fws_err *e)
{
	(void)t;
	*state = calloc(1, sizeof(struct fws_linkwatch));
	return *state ? 0 : fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
}

static void
lw_destroy(struct fws_host *t, void *state)
{
	(void)t;
	free(state);
}

const struct fws_host_feature fws_feature_linkwatch = {
	.name = "linkwatch",
	.setup = lw_setup,
	.on = {[FWS_FEATURE_START] = lw_start,
	       [FWS_FEATURE_SERVICE] = lw_service,
	       [FWS_FEATURE_FINISH] = lw_finish},
	.destroy = lw_destroy,
};
