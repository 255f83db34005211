/* SPDX-License-Identifier: BSD-3-Clause */
/* Link watch during a trial (fws_trial_int.h): when a port's link went down and came back. */
#include <string.h>

#include <rte_cycles.h>

#include "fws_trial_int.h"

/* Test frames sent so far in this trial (warm-up and measured) by streams to or from port p. */
static uint64_t
sent_via(const struct fws_trial *t, unsigned int p)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < t->n_tasks; i++) {
		const struct fws_tx_task *task = &t->tasks[i];
		const struct fws_cfg_stream *cs = &t->cfg->streams[task->stream];

		if (cs->tx_port != p && cs->rx_port != p)
			continue;
		n += __atomic_load_n(&task->cnt.tx_frames, __ATOMIC_RELAXED) +
		     __atomic_load_n(&task->cnt.warmup_tx, __ATOMIC_RELAXED);
	}
	return n;
}

static double
since(const struct fws_linkwatch *lw, const struct fws_trial *t, uint64_t now)
{
	return (double)(now - lw->start) / (double)t->hz;
}

static void
went_down(struct fws_linkwatch *lw, const struct fws_trial *t, unsigned int p, uint64_t now,
	  struct fws_result *res)
{
	struct fws_link_event *ev;

	FWS_LOG(WARNING, "port %s: link down at %.3f s into the trial", t->cfg->ports[p].name,
		since(lw, t, now));
	if (res->n_link_events == FWS_LINK_EVENTS_MAX) {
		res->link_events_dropped++;
		return;
	}
	ev = &res->link_events[res->n_link_events];
	memset(ev, 0, sizeof(*ev));
	ev->port = p;
	ev->down_s = since(lw, t, now);
	ev->up_s = -1;
	lw->open[p] = (int)res->n_link_events++;
	lw->sent0[p] = sent_via(t, p);
}

static void
came_up(struct fws_linkwatch *lw, const struct fws_trial *t, unsigned int p, uint64_t now,
	struct fws_result *res)
{
	struct fws_link_event *ev;

	FWS_LOG(WARNING, "port %s: link up again at %.3f s", t->cfg->ports[p].name,
		since(lw, t, now));
	if (lw->open[p] < 0)
		return;
	ev = &res->link_events[lw->open[p]];
	ev->up_s = since(lw, t, now);
	ev->sent_down = sent_via(t, p) - lw->sent0[p];
	lw->open[p] = -1;
}

void
fws_linkwatch_start(struct fws_linkwatch *lw, const struct fws_trial *t, uint64_t start,
		    struct fws_result *res)
{
	unsigned int p;

	lw->start = start;
	for (p = 0; p < t->cfg->n_ports; p++) {
		lw->up[p] = true;
		lw->open[p] = -1;
	}
	fws_linkwatch_poll(lw, t, start, res);
}

void
fws_linkwatch_poll(struct fws_linkwatch *lw, const struct fws_trial *t, uint64_t now,
		   struct fws_result *res)
{
	unsigned int p;

	for (p = 0; p < t->cfg->n_ports; p++) {
		bool up = fws_port_link_now(&t->port[p]) != 0;

		if (up == lw->up[p])
			continue;
		lw->up[p] = up;
		if (up)
			came_up(lw, t, p, now, res);
		else
			went_down(lw, t, p, now, res);
	}
}

void
fws_linkwatch_end(struct fws_linkwatch *lw, const struct fws_trial *t, struct fws_result *res)
{
	unsigned int p;

	for (p = 0; p < t->cfg->n_ports; p++)
		if (lw->open[p] >= 0) {
			res->link_events[lw->open[p]].sent_down = sent_via(t, p) - lw->sent0[p];
			lw->open[p] = -1;
		}
}
