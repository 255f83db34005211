/* SPDX-License-Identifier: BSD-3-Clause */
/* The report's cells: one per measured stream of a trial, with the trial's proof of
 * inspection, and the carried cells of a resumed sweep. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "fd_blocked.h"
#include "fd_dutload.h"
#include "fd_synflood.h"
#include "fd_telem.h"
#include "fws_cell.h"
#include "fws_compat.h"
#include "fws_frame.h"
#include "fws_rate.h"
#include "fws_report.h"
#include "fws_util.h"
#include "report_int.h"

/* A cell as the report holds it: the schema of fws_cell.h. */
json_t *
fws_report_cell_json(const struct fws_cell *c)
{
	json_t *o = json_object(), *h = json_array();
	unsigned int i;

#define CELL_STR(m, key, req) json_object_set_new(o, key, json_string(c->m));
#define CELL_NUM(m, key, dflt, lo, hi)                                                             \
	json_object_set_new(o, key, (dflt) < 0 && c->m < 0 ? json_null() : json_real(c->m));
	FWS_CELL_STRINGS(CELL_STR)
	FWS_CELL_NUMBERS(CELL_NUM)
#undef CELL_STR
#undef CELL_NUM
	if (c->repetition >= 1)
		json_object_set_new(o, FWS_CELL_REP_KEY, json_integer((json_int_t)c->repetition));
	for (i = 0; i < c->n_hist; i++)
		json_array_append_new(h, json_pack("[I, I, I]", (json_int_t)c->hist[i].lo,
						   (json_int_t)c->hist[i].width,
						   (json_int_t)c->hist[i].count));
	json_object_set_new(o, FWS_CELL_HIST_KEY, h);
	return o;
}

/* The trial's direction: the sweep cell's, else bidir when streams of both directions sent
 * at once (a run of a bidir config), else the stream's own. A column of the matrix is one
 * direction's streams; a bidir trial's cells are told apart by their stream's direction. */
static enum fws_dir
trial_dir(const struct fws_cfg *cfg, const struct fws_result *r, const struct fws_stream_result *x)
{
	bool up = false, down = false;
	unsigned int s;

	if (r->dir != FWS_DIR_NONE)
		return r->dir;
	for (s = 0; s < r->n_streams && s < cfg->n_streams; s++) {
		bool measured = r->streams[s].active && !cfg->streams[s].learn_only;

		up |= measured && r->streams[s].dir == FWS_DIR_UPLOAD;
		down |= measured && r->streams[s].dir == FWS_DIR_DOWNLOAD;
	}
	return up && down ? FWS_DIR_BIDIR : x->dir;
}

double
fws_report_line_pps(const struct fws_run *run, const struct fws_cfg_stream *cs, double avg_frame)
{
	uint64_t link = 0;
	unsigned int j;

	for (j = 0; j < cs->n_tx; j++) { /* a stream split over ports: their links add */
		uint32_t l = run->ports[cs->tx_ports[j]].link_speed_mbps;

		if (l == 0)
			return 0;
		link += l;
	}
	return link ? fws_rate_line_pps(link * 1000000ull, avg_frame) : 0;
}

void
fws_report_goal_figs(const struct fws_run *run, const struct fws_search_summary *s, int g,
		     struct fws_goal_figs *out)
{
	const struct fws_search_goal *x = &s->goal[g];
	const struct fws_result *r;
	unsigned int i;
	bool line = true;

	memset(out, 0, sizeof(*out));
	if (s->result[g] < 0 || (unsigned int)s->result[g] >= run->n_results)
		return;
	r = &run->results[s->result[g]];
	out->have = true;
	out->avg_frame = r->avg_frame;
	for (i = 0; i < r->n_streams && i < run->cfg->n_streams; i++) {
		double l;

		if (!r->streams[i].active)
			continue;
		out->pps += r->streams[i].tx_pps;
		out->l1_bps += r->streams[i].tx_l1_bps;
		l = fws_report_line_pps(run, &run->cfg->streams[i], r->avg_frame);
		line &= l > 0;
		out->line_pps += l;
	}
	if (!line)
		out->line_pps = 0;
	out->asked_pps = x->load * s->max_pps;
	out->upper_pps = !x->generator_limited && x->upper < 1 ? x->upper * s->max_pps : 0;
}

/* The cell of one stream of a trial (its histogram the result's). */
static void
cell_of(const struct fws_run *run, const struct fws_result *r, const struct fws_stream_result *x,
	const struct fws_cfg_stream *cs, struct fws_cell *c)
{
	bool goal = r->kind == FWS_RESULT_NDR || r->kind == FWS_RESULT_PDR;

	memset(c, 0, sizeof(*c));
	c->connections = c->conn_failed = c->flood_pps = c->flood_passed = -1;
	strlcpy(c->scenario, run->cfg->scenario, sizeof(c->scenario));
	fws_result_label(r->kind, r->lat_frac, c->kind, sizeof(c->kind));
	strlcpy(c->direction, fws_dir_name(trial_dir(run->cfg, r, x)), sizeof(c->direction));
	strlcpy(c->stream_dir, fws_dir_name(x->dir), sizeof(c->stream_dir));
	strlcpy(c->stream, x->name, sizeof(c->stream));
	strlcpy(c->verdict, "ok", sizeof(c->verdict));
	strlcpy(c->size, r->size.name, sizeof(c->size));
	c->avg_frame = r->avg_frame;
	c->pps = goal ? x->tx_pps : x->rx_pps;
	c->l1_bps = goal ? x->tx_l1_bps : x->rx_l1_bps;
	c->goodput_bps = fws_goodput_derived(c->l1_bps);
	if (cs->l4 == FWS_L4_TCP) {
		/* Measured: the TCP payload of the data segments (signature included). */
		uint32_t hdr = FWS_PKT_FCS + FWS_ETHER_HDR_LEN +
			       (run->cfg->ports[cs->tx_port].vlan ? FWS_PKT_VLAN_LEN : 0) +
			       (cs->flows.ipv6 ? FWS_PKT_IPV6_LEN : FWS_PKT_IPV4_LEN) +
			       FWS_PKT_TCP_LEN;

		c->goodput_bps = c->pps * FWS_MAX(r->avg_frame - hdr, 0.0) * 8;
		c->goodput_measured = 1;
	}
	c->l2_bps = goal ? x->tx_l2_bps : x->rx_l2_bps;
	c->loss_pct = x->loss_pct;
	c->p50_ns = (double)x->lat.p50;
	c->p99_ns = (double)x->lat.p99;
	c->line_pps = fws_report_line_pps(run, cs, r->avg_frame);
	c->above_link = c->line_pps > 0 && c->pps > 1.01 * c->line_pps;
	/* The tester's own loss where it made the cell: a fixed-rate cell's stream lost frames
	 * while its receiver missed some, a goal stood below a failure the receiver explains. */
	c->rx_missed = goal ? (double)r->tester_missed : x->rx.lost ? (double)x->rx_missed : 0;
	c->dut_cpu = fws_fd_dut_cpu(&r->fd, r->fd_trial);
	c->repetition = r->repetition ? (double)r->repetition : -1;
	c->unsteady = r->steady.n ? r->steady.unsteady : -1;
	c->worst_second = r->steady.n ? fabs(r->steady.worst_dev) * 100 : -1;
	c->capped = goal && r->capped ? 1 : 0;
	c->generator_limited =
		(goal ? r->lower_bound && !r->tester_missed : x->generator_limited) ? 1 : 0;
	c->hist = x->hist;
	c->n_hist = x->n_hist;
}

/* The DUT's own figures over the measured phase (dut.telemetry); its CPU column from them
 * when no load command gave one. */
static void
cell_telem(const struct fws_result *r, struct fws_cell *c)
{
	const struct fws_telem *tm = fws_fd_telem_of(&r->fd, r->fd_trial);
	const struct fws_telem_sum *u = tm ? &tm->sum : NULL;

	c->dut_core = c->dut_states = c->dut_drops = -1;
	if (u == NULL || u->n == 0)
		return;
	if ((u->have >> FWS_TELEM_CPU) & 1) {
		c->dut_core = u->busiest_pct;
		if (c->dut_cpu < 0)
			c->dut_cpu = u->cpu_mean;
	}
	if (u->states)
		c->dut_states = (double)u->states_end;
	if ((u->have >> FWS_TELEM_DROPS) & 1)
		c->dut_drops = (double)u->drops;
}

/* What proves inspection in a trial, for every cell of it: attack frames sent and leaked,
 * frames leaked to other flows expected blocked (-1: no such stream). */
static void
cell_proof(const struct fws_result *r, struct fws_cell *c)
{
	unsigned int s;

	bool blocked_proof = false;

	c->attack_frames = c->attack_leaked = c->blocked_leaked = -1;
	for (s = 0; s < r->n_streams; s++)
		blocked_proof |= r->streams[s].active && r->streams[s].proof &&
				 fws_fd_blocked_of(&r->fd, r->streams[s].fd)->flows;
	for (s = 0; s < r->n_streams; s++) {
		const struct fws_stream_result *x = &r->streams[s];
		const struct fws_fd_blocked *b = fws_fd_blocked_of(&r->fd, x->fd);

		if (!x->active)
			continue;
		/* Where some must be blocked (IPS, a blocked application), those count. */
		if (x->proof && (!blocked_proof || b->flows))
			c->attack_frames = FWS_MAX(c->attack_frames, 0.0) + (double)x->tx_frames;
		if (x->proof && b->flows)
			c->attack_leaked = FWS_MAX(c->attack_leaked, 0.0) + (double)b->leaked;
		else if (b->flows)
			c->blocked_leaked = FWS_MAX(c->blocked_leaked, 0.0) + (double)b->leaked;
	}
}

/* An expectation the DUT missed in the trial (NAT, flows it should block) makes every cell of
 * it not the scenario's result: the first such, in words. */
static void
cell_verdict(const struct fws_result *r, struct fws_cell *c)
{
	unsigned int s;
	char why[256];

	for (s = 0; s < r->n_streams; s++) {
		const struct fws_stream_result *x = &r->streams[s];

		/* (the verdict is a cell's words: a reason past 130 characters is cut; the trial
		 * keeps it whole) */
		if (fws_fd_failed(&r->fd, x->fd, why, sizeof(why))) {
			snprintf(c->verdict, sizeof(c->verdict),
				 "expectation failed: stream %.32s: %.130s", x->name, why);
			return;
		}
	}
}

/* Stream s's SYN flood figures, or NULL when it is no SYN flood. */
static const struct fws_fd_synflood *
flood_of(const struct fws_result *r, unsigned int s)
{
	const struct fws_fd_synflood *f =
		fws_fd_result_c(&r->fd, &fws_fd_synflood, r->streams[s].fd);

	return f && f->on ? f : NULL;
}

/* A SYN flood in the trial: its rate and the SYNs that passed. */
static void
cell_flood(const struct fws_result *r, struct fws_cell *c)
{
	const struct fws_fd_synflood *f;
	unsigned int s;

	for (s = 0; s < r->n_streams; s++) {
		if ((f = flood_of(r, s)) == NULL || !f->active)
			continue;
		c->flood_pps = FWS_MAX(c->flood_pps, 0.0) + f->pps;
		c->flood_passed = FWS_MAX(c->flood_passed, 0.0) + (double)f->passed;
	}
}

/* Every flow of stream s is one the DUT should block. */
static bool
all_blocked(const struct fws_result *r, unsigned int s)
{
	uint32_t n = fws_fd_blocked_of(&r->fd, r->streams[s].fd)->flows;

	return n && n == r->streams[s].flows;
}

/* The matrix cells of one trial: one per active stream (not a SYN flood) that has flows
 * expected to pass
 * (a blocked stream has no throughput) and no payload (an attack stream is proof of
 * inspection, not throughput); back-to-back trials have none. */
static void
cells_of(const struct fws_run *run, const struct fws_result *r, json_t *a)
{
	struct fws_cell c;
	unsigned int s;

	for (s = 0; s < r->n_streams && r->kind != FWS_RESULT_B2B; s++) {
		if (!r->streams[s].active || r->streams[s].proof || flood_of(r, s) ||
		    all_blocked(r, s))
			continue;
		cell_of(run, r, &r->streams[s], &run->cfg->streams[s], &c);
		cell_proof(r, &c);
		cell_telem(r, &c);
		cell_flood(r, &c);
		cell_verdict(r, &c);
		json_array_append_new(a, fws_report_cell_json(&c));
	}
}

/* A cell of an earlier report (sweep --resume), written back as it was read. */
static json_t *
carried_cell(const struct fws_cell *c)
{
	json_t *o = fws_report_cell_json(c);

	json_object_set_new(o, "carried", json_true());
	return o;
}

json_t *
fws_report_cells(const struct fws_run *run)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < run->n_results; i++)
		if (!run->results[i].partial)
			cells_of(run, &run->results[i], a);
	for (i = 0; run->carried && i < run->carried->n; i++)
		json_array_append_new(a, carried_cell(&run->carried->c[i]));
	return a;
}
