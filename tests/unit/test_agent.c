/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The seam (fws_agent.h) with a second implementation: two model agents, one per site, each
 * owning one port, driven by the real controller (fws_trial_run: plan, arm, phases, collect,
 * per-flow merge, NAT learning). No EAL: the agents are models whose receive side builds
 * each flow's state with the real fws_rxstat code from the frames it "received". What is
 * checked is the controller's: loss from the sender's sequence counts against the
 * receiver's distinct frames, each count taken from the agent that owns it, learned
 * translations handed from the receiving site to the sending one. Then the agent's server
 * (fws_agent_srv) over the same model: requests in as a controller writes them, answers
 * read back from the stream, every operation of the protocol's table answered.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fd_icmp.h"
#include "fd_nat.h"
#include "fws_compat.h"
#include "fws_feat.h"
#include "fws_agent_ops.h"
#include "fws_agent_srv.h"
#include "fws_hostclock.h"
#include "fws_trial_agents.h"
#include "fws_util.h"
#include "unit.h"

#define FRAMES 100 /* per flow and trial */
#define FLOWS 16

struct model {
	struct fws_agent a;
	const struct fws_cfg *cfg;
	unsigned int id; /* 0: site with port 0 (lan), 1: site with port 1 (wan) */
	uint64_t hz;
	unsigned int arms, launches, stops, collects, retires;
	enum fws_phase phase;
	/* Its clock (the arming test): ticks = controller ns x hz / 1e9 + off. A phase armed
	 * for at holds once its clock reads at; each change's instant in controller ns. */
	int64_t off;
	enum fws_phase armed;
	uint64_t armed_at;
	unsigned int n_changes;
	double change_ns[8];
	enum fws_phase change_ph[8];
	struct fws_agent_plan plan;
	/* Aims received, per stream and flow. */
	struct fws_nat_tuple aimed[FWS_CFG_MAX_STREAMS][FLOWS];
	uint32_t n_aimed[FWS_CFG_MAX_STREAMS];
};

static struct model *
model(struct fws_agent *a)
{
	return (struct model *)a;
}

static unsigned int
m_ports(struct fws_agent *a, struct fws_port_result *out)
{
	struct model *m = model(a);
	unsigned int p;

	for (p = 0; p < m->cfg->n_ports; p++) {
		memset(&out[p], 0, sizeof(out[p]));
		snprintf(out[p].name, sizeof(out[p].name), "%s", m->cfg->ports[p].name);
		snprintf(out[p].driver, sizeof(out[p].driver), "model-site%u", m->id + 1);
		out[p].link_speed_mbps = 10000;
	}
	return m->cfg->n_ports;
}

static void
m_clock(struct fws_agent *a, uint64_t *hz, uint64_t *hz_dpdk)
{
	*hz = *hz_dpdk = model(a)->hz;
}

static uint64_t
m_hugepage_peak(struct fws_agent *a)
{
	return 1000u * (model(a)->id + 1);
}

static int
m_prepare(struct fws_agent *a, enum fws_prep_stage st, uint32_t mask, volatile int *stop,
	  struct fws_err *e)
{
	(void)st;
	(void)a;
	(void)mask;
	(void)stop;
	(void)e;
	return 0;
}

static int
m_arm(struct fws_agent *a, const struct fws_agent_plan *p, struct fws_err *e)
{
	(void)e;
	model(a)->plan = *p;
	model(a)->arms++;
	return 0;
}

static int
m_launch(struct fws_agent *a, enum fws_phase ph, struct fws_err *e)
{
	(void)e;
	model(a)->launches++;
	model(a)->phase = ph;
	return 0;
}

/* The controller's clock (CLOCK_MONOTONIC, as lib/ctrl's fws_trial_now_ns reads it). */
static uint64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t
m_tsc(struct fws_agent *a)
{
	struct model *m = model(a);

	return (uint64_t)((double)mono_ns() * (double)m->hz / 1e9) + (uint64_t)m->off;
}

static double
m_phase(struct fws_agent *a, enum fws_phase ph, uint64_t at)
{
	struct model *m = model(a);

	if (m->n_changes < 8) {
		m->change_ph[m->n_changes] = ph;
		m->change_ns[m->n_changes++] =
			at ? (double)(int64_t)(at - (uint64_t)m->off) * 1e9 / (double)m->hz : -1;
	}
	if (at == 0)
		m->phase = ph;
	m->armed = ph;
	m->armed_at = at ? at : 1;
	return 0;
}

static void
m_poll(struct fws_agent *a, struct fws_agent_poll *out)
{
	struct model *m = model(a);

	if (m->armed_at && m_tsc(a) >= m->armed_at) {
		m->phase = m->armed;
		m->armed_at = 0;
	}
	out->tx_stopped = m->phase >= FWS_PHASE_STOP;
	out->bursts_sent = true;
}

static void
m_live(struct fws_agent *a, bool warm, struct fws_agent_live *out)
{
	(void)a;
	(void)warm;
	memset(out, 0, sizeof(*out));
}

static void
m_stop(struct fws_agent *a, bool measured)
{
	(void)measured;
	model(a)->stops++;
	model(a)->phase = FWS_PHASE_IDLE;
}

static bool
sends(const struct model *m, unsigned int s)
{
	return (m->a.tx_streams >> s) & 1;
}

static bool
active(const struct model *m, unsigned int s)
{
	return (m->plan.active >> s) & 1;
}

/* Frames a flow sent: a probe's limit spread over the flows, else FRAMES. */
static uint64_t
sent_per_flow(const struct model *m, unsigned int s)
{
	return m->plan.limit[s] ? m->plan.limit[s] / FLOWS : FRAMES;
}

/* A feature's data through the real merge: each site writes, per stream, its id and the
 * roles it plays into its count block; the merge records what it was given. */
struct roles_block {
	uint32_t from_tx, from_rx; /* 1 + the site merged in as sender, as receiver */
	uint32_t merged;           /* count blocks merged */
	uint32_t finished;
};

static void
roles_merge(void *result, const void *count, unsigned int roles)
{
	struct roles_block *r = result;
	const struct roles_block *c = count;

	if (roles & FWS_FD_TX)
		r->from_tx = c->from_tx;
	if (roles & FWS_FD_RX)
		r->from_rx = c->from_rx;
	r->merged++;
}

static void
roles_finish(void *result)
{
	((struct roles_block *)result)->finished++;
}

static void
roles_json(const void *result, json_t *o)
{
	const struct roles_block *r = result;

	json_object_set_new(o, "roles",
			    json_pack("{s:i, s:i}", "tx", r->from_tx, "rx", r->from_rx));
}

static const struct fws_featdata roles_data = {
	.name = "roles",
	.count_size = sizeof(struct roles_block),
	.result_size = sizeof(struct roles_block),
	.merge = roles_merge,
	.finish = roles_finish,
	.json = roles_json,
};

/* The sites' layout of count blocks (NULL: they write none). */
static const struct fws_fd_layout *model_fd;

/* The layout the sites write by: a test's own, or the features' table (as fwstress's). */
static const struct fws_fd_layout *
sites_fd(void)
{
	static struct fws_fd_layout table;

	if (model_fd)
		return model_fd;
	if (table.n == 0)
		ck_assert_int_eq(fws_feat_layout(&table), 0);
	return &table;
}

static void
m_collect(struct fws_agent *a, struct fws_agent_counts *out)
{
	struct model *m = model(a);
	struct fws_icmp_trial *tr;
	unsigned int s, p;

	memset(out, 0, sizeof(*out));
	m->collects++;
	out->tsc_hz = (double)m->hz;
	for (s = 0; s < m->cfg->n_streams; s++) {
		struct fws_agent_stream *as = &out->streams[s];
		struct roles_block *rb =
			model_fd ? fws_fd_count(model_fd, &roles_data, as->fd) : NULL;
		struct fws_nat_count *nc;
		unsigned int k;

		fws_hist_reset(&as->hist);
		if (rb)
			*rb = (struct roles_block){.from_tx = m->id + 1, .from_rx = m->id + 1};
		if (!active(m, s))
			continue;
		/* Written on both sites: the merge must take each side from its owner. */
		as->tx_frames = sends(m, s) ? sent_per_flow(m, s) * FLOWS : 999;
		as->tx_bytes = as->tx_frames * 128;
		as->duration = 1;
		as->active = true;
		/* the NAT feature's count block: the merge must take it from the sender */
		if ((nc = fws_fd_count(sites_fd(), &fws_fd_nat, as->fd)) != NULL)
			nc->aimed = sends(m, s) ? m->n_aimed[s] : 77;
		for (k = 0; k < 10 && !sends(m, s); k++)
			fws_hist_add_n(&as->hist, 1000 * (k + 1) + 100 * m->id, 1);
	}
	for (p = 0; p < m->cfg->n_ports; p++)
		snprintf(out->ports[p].driver, sizeof(out->ports[p].driver), "model-site%u",
			 m->id + 1);
	/* Site 2's wan port missed one frame in its NIC (the tester's loss, written by the
	 * owner only: site 1's copy of the port says 5). */
	out->ports[1].nic_imissed = m->id == 1 ? 1 : 5;
	/* ICMP errors about no stream: a trial block of the features' table, every site's. */
	if ((tr = fws_fd_trial_count(sites_fd(), &fws_fd_icmp, out->fd_trial)) != NULL)
		tr->unmatched = m->id + 1;
}

/* Flow i of a stream received here: every FRAMES-th frame of flow 0 and every tenth flow
 * lost once, flow 3 one frame twice; translated to 198.19.200.x:40000+i. */
static void
m_rx_flows(struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n,
	   struct fws_agent_rxflow *out)
{
	struct model *m = model(a);
	uint64_t q, frames = sent_per_flow(m, s);
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint32_t f = lo + i;

		memset(&out[i], 0, sizeof(out[i]));
		if (!active(m, s))
			continue;
		for (q = 0; q < frames; q++)
			if (!(f % 10 == 0 && q == frames / 2))
				fws_rxstat_update(&out[i].rx, NULL, (uint32_t)q, 128);
		if (f == 3)
			fws_rxstat_update(&out[i].rx, NULL, (uint32_t)(frames - 3), 128);
		out[i].lcores = 1;
		out[i].nat.seen = 1;
		out[i].nat.last.src = htonl(0xc613c800u + f);
		out[i].nat.last.sport = htons((uint16_t)(40000 + f));
	}
}

static void
m_tx_flows(struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n,
	   struct fws_agent_txflow *out)
{
	struct model *m = model(a);
	uint32_t i;

	for (i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].seq = active(m, s) ? sent_per_flow(m, s) : 0;
		out[i].sent.src = htonl(0xc6120100u + lo + i);
	}
}

static int
m_aim(struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n, const struct fws_nat_tuple *at)
{
	struct model *m = model(a);
	uint32_t i;

	if (lo + n > FLOWS)
		return -EINVAL;
	if (lo == 0)
		m->n_aimed[s] = 0;
	for (i = 0; i < n; i++) {
		m->aimed[s][lo + i] = at[i];
		m->n_aimed[s] += at[i].dst != 0;
	}
	return 0;
}

static void
m_after(struct fws_agent *a, struct fws_agent_counts *out)
{
	(void)a;
	(void)out;
}

static void
m_retire(struct fws_agent *a)
{
	model(a)->retires++;
}

static void
m_destroy(struct fws_agent *a)
{
	(void)a; /* static in the test */
}

static const struct fws_agent_ops model_ops = {
	.name = "model",
	.ports = m_ports,
	.clock = m_clock,
	.hugepage_peak = m_hugepage_peak,
	.prepare = m_prepare,
	.arm = m_arm,
	.launch = m_launch,
	.phase = m_phase,
	.poll = m_poll,
	.live = m_live,
	.stop = m_stop,
	.collect = m_collect,
	.rx_flows = m_rx_flows,
	.tx_flows = m_tx_flows,
	.aim = m_aim,
	.after = m_after,
	.retire = m_retire,
	.destroy = m_destroy,
};

/* The same with a clock: the controller arms each phase change for one instant, and a
 * server answers tsc. */
static const struct fws_agent_ops *
clocked_ops(void)
{
	static struct fws_agent_ops o;

	o = model_ops;
	o.tsc = m_tsc;
	return &o;
}

static const char cfg_routed[] =
	"{\"ports\": [{\"name\": \"lan\", \"device\": \"ringpair:m:a\"},"
	" {\"name\": \"wan\", \"device\": \"ringpair:m:b\"}],"
	" \"direction\": \"bidir\", \"rate\": \"1kpps\", \"frame_size\": [128],"
	" \"flows\": {\"count\": 16, \"src_ip\": \"198.18.1.0-198.18.1.15\","
	" \"dst_ip\": \"198.19.1.1\"},"
	" \"duration\": 0.02, \"warmup\": 0, \"drain\": 0}";

static const char cfg_nat[] =
	"{\"ports\": [{\"name\": \"lan\", \"device\": \"ringpair:m:a\"},"
	" {\"name\": \"wan\", \"device\": \"ringpair:m:b\"}],"
	" \"direction\": \"bidir\", \"rate\": \"1kpps\", \"frame_size\": [128],"
	" \"flows\": {\"count\": 16, \"src_ip\": \"198.18.1.0-198.18.1.15\","
	" \"dst_ip\": \"198.19.1.1\"},"
	" \"duration\": 0.02, \"warmup\": 0, \"drain\": 0, \"nat\": \"masquerade\"}";

static struct fws_cfg *cfg;
static struct model sites[2];
static struct fws_trial *trial;

/* Site 1 owns lan and the streams that leave from it; site 2 owns wan. */
static void
start_fd(const char *json, const struct fws_fd_layout *fd)
{
	struct fws_agent *agents[2] = {&sites[0].a, &sites[1].a};
	uint64_t hz = fws_clock_calibrate(20);
	char err[256];
	struct fws_err e;
	unsigned int k, s;

	cfg = fws_config_parse(json, strlen(json), err, sizeof(err));
	ck_assert_msg(cfg != NULL, "%s", err);
	memset(sites, 0, sizeof(sites));
	for (k = 0; k < 2; k++) {
		sites[k] = (struct model){.a = {.ops = &model_ops}, .cfg = cfg, .id = k, .hz = hz};
		sites[k].a.ports = 1u << k;
		for (s = 0; s < cfg->n_streams; s++) {
			if (cfg->streams[s].tx_port == k)
				sites[k].a.tx_streams |= 1u << s;
			if (cfg->streams[s].rx_port == k)
				sites[k].a.rx_streams |= 1u << s;
		}
	}
	model_fd = fd;
	trial = fws_trial_create_agents(cfg, agents, 2, fd, &e);
	ck_assert_msg(trial != NULL, "%s", e.msg);
}

static void
start(const char *json)
{
	start_fd(json, NULL);
}

static void
finish(void)
{
	fws_trial_destroy(trial);
	fws_config_free(cfg);
}

static unsigned int
stream_of(enum fws_dir dir)
{
	unsigned int s;

	for (s = 0; s < cfg->n_streams; s++)
		if (cfg->streams[s].dir == dir && !cfg->streams[s].learn_only)
			return s;
	ck_abort_msg("no %s stream", fws_dir_name(dir));
	return 0;
}

START_TEST(test_agent_counts_from_owners)
{
	struct fws_trial_opts o = {0};
	struct fws_result res;
	struct fws_err e;
	unsigned int up, down;

	start(cfg_routed);
	up = stream_of(FWS_DIR_UPLOAD);
	down = stream_of(FWS_DIR_DOWNLOAD);
	ck_assert_int_eq(fws_trial_run(trial, 0, &o, &res, &e), 0);
	/* Every site armed, launched, stopped and collected once; cookies retired. */
	ck_assert_uint_eq(sites[0].arms + sites[1].arms, 2);
	ck_assert_uint_eq(sites[1].launches, 1);
	ck_assert_uint_eq(sites[0].stops + sites[1].stops, 2);
	ck_assert_uint_eq(sites[0].retires, 1);
	ck_assert_uint_eq(sites[0].plan.cookie, res.cookie);
	/* The sender's TX, never the 999 the receiving site wrote for the same stream. */
	ck_assert_uint_eq(res.streams[up].tx_frames, FRAMES * FLOWS);
	ck_assert_uint_eq(res.streams[down].tx_frames, FRAMES * FLOWS);
	/* Loss per flow: sender's sequence count minus the receiver's distinct frames. */
	ck_assert_uint_eq(res.streams[up].rx.tx, FRAMES * FLOWS);
	ck_assert_uint_eq(res.streams[up].rx.lost, 2); /* flows 0 and 10 */
	ck_assert_uint_eq(res.streams[up].rx.flows_lossy, 2);
	ck_assert_uint_eq(res.streams[up].rx.dup, 1);
	ck_assert_uint_eq(res.streams[up].rx.unique, FRAMES * FLOWS - 2);
	ck_assert_double_eq_tol(res.streams[up].loss_pct, 2 * 100.0 / (FRAMES * FLOWS), 1e-9);
	/* The receiving port's own miss is the tester's: of 2 lost, at least 1 the DUT's; the
	 * download stream's port (lan) missed nothing. */
	ck_assert_uint_eq(res.streams[up].rx_missed, 1);
	ck_assert_uint_eq(res.streams[up].lost_dut_min, 1);
	ck_assert_uint_eq(res.streams[down].rx_missed, 0);
	ck_assert_uint_eq(res.streams[down].lost_dut_min, res.streams[down].rx.lost_min);
	/* Latency from the receiving site only: upload arrives at site 2 (+100 ns). */
	ck_assert_uint_eq(res.streams[up].lat.count, 10);
	ck_assert_uint_eq(res.streams[up].lat.min, 1100);
	ck_assert_uint_eq(res.streams[down].lat.min, 1000);
	/* Each port's counts from the site that owns it; counters that are per site add. */
	ck_assert_str_eq(res.ports[0].driver, "model-site1");
	ck_assert_str_eq(res.ports[1].driver, "model-site2");
	ck_assert_uint_eq(((const struct fws_icmp_trial *)fws_fd_trial_result_c(
				   &res.fd, &fws_fd_icmp, res.fd_trial))
				  ->unmatched,
			  3);
	ck_assert_uint_eq(fws_trial_hugepage_peak(trial), 2000);
	fws_result_free(&res);
	finish();
}
END_TEST

/* A host feature's count blocks: each stream's sending side from its sender, its receiving
 * side from its receiver, every owner merged once, finished once; the result's layout goes
 * with the result, and the report's JSON comes from the feature's hook. */
START_TEST(test_agent_feature_data_by_roles)
{
	struct fws_fd_layout fd = {0};
	struct fws_trial_opts o = {0};
	const struct roles_block *rb;
	struct fws_result res;
	struct fws_err e;
	unsigned int up, down;
	json_t *j;

	ck_assert_int_eq(fws_fd_layout_add(&fd, &roles_data), 0);
	start_fd(cfg_routed, &fd);
	up = stream_of(FWS_DIR_UPLOAD);
	down = stream_of(FWS_DIR_DOWNLOAD);
	ck_assert_int_eq(fws_trial_run(trial, 0, &o, &res, &e), 0);
	ck_assert_ptr_eq(res.fd.d[0], &roles_data);
	rb = fws_fd_result_c(&res.fd, &roles_data, res.streams[up].fd);
	ck_assert_uint_eq(rb->from_tx, 1); /* upload: lan (site 1) sends, wan (site 2) receives */
	ck_assert_uint_eq(rb->from_rx, 2);
	ck_assert_uint_eq(rb->merged, 2);
	ck_assert_uint_eq(rb->finished, 1);
	rb = fws_fd_result_c(&res.fd, &roles_data, res.streams[down].fd);
	ck_assert_uint_eq(rb->from_tx, 2);
	ck_assert_uint_eq(rb->from_rx, 1);
	j = json_object();
	fws_fd_json(&res.fd, res.streams[down].fd, j);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(j, "roles"), "tx")), 2);
	json_decref(j);
	fws_result_free(&res);
	finish();
	model_fd = NULL;
}
END_TEST

/* The layout: blocks 8-byte aligned in order, refused past their areas. */
START_TEST(test_agent_feature_layout)
{
	static const struct fws_featdata odd = {.name = "odd", .count_size = 5, .result_size = 3};
	static const struct fws_featdata big = {.name = "big", .count_size = FWS_FD_COUNT_BYTES};
	struct fws_fd_layout fd = {0};
	unsigned char area[FWS_FD_COUNT_BYTES];

	ck_assert_int_eq(fws_fd_layout_add(&fd, &odd), 0);
	ck_assert_int_eq(fws_fd_layout_add(&fd, NULL), 0);
	ck_assert_int_eq(fws_fd_layout_add(&fd, &roles_data), 0);
	ck_assert_uint_eq(fd.n, 2);
	ck_assert_ptr_eq(fws_fd_count(&fd, &roles_data, area), area + 8);
	ck_assert_ptr_eq(fws_fd_result(&fd, &roles_data, area), area + 8);
	ck_assert_int_eq(fws_fd_layout_add(&fd, &big), -ENOSPC);
	ck_assert_uint_eq(fd.n, 2);
	ck_assert_ptr_null(fws_fd_count(&fd, &big, area));
	ck_assert_int_eq(fws_fd_find(&fd, &odd), 0);
}
END_TEST

START_TEST(test_agent_nat_learned_reaches_sender)
{
	struct fws_trial_opts o = {0};
	struct fws_result res;
	const struct fws_nat_result *nr;
	struct fws_err e;
	unsigned int down, i;

	start(cfg_nat);
	down = stream_of(FWS_DIR_DOWNLOAD);
	ck_assert_int_ge(cfg->streams[down].learner, 0);
	ck_assert_int_eq(fws_trial_run(trial, 0, &o, &res, &e), 0);
	/* The learner's translations, seen at site 2 (wan), aimed the download's sender, which
	 * is site 2 too; site 1 was never asked. */
	ck_assert_uint_eq(sites[1].n_aimed[down], FLOWS);
	ck_assert_uint_eq(sites[0].n_aimed[down], 0);
	for (i = 0; i < FLOWS; i++) {
		ck_assert_uint_eq(ntohl(sites[1].aimed[down][i].dst), 0xc613c800u + i);
		ck_assert_uint_eq(ntohs(sites[1].aimed[down][i].dport), 40000 + i);
	}
	/* The verdict's learned count is the sender's, not the 77 the other site wrote. */
	nr = fws_fd_result_c(&res.fd, &fws_fd_nat, res.streams[down].fd);
	ck_assert_ptr_nonnull(nr);
	ck_assert(nr->has_learn);
	ck_assert_uint_eq(nr->learned, FLOWS);
	/* Two arms per site: the learn probe, then the trial. */
	ck_assert_uint_eq(sites[0].arms, 2);
	fws_result_free(&res);
	finish();
}
END_TEST

START_TEST(test_agent_unowned_refused)
{
	struct fws_agent *agents[1] = {&sites[0].a};
	char err[256];
	struct fws_err e;

	cfg = fws_config_parse(cfg_routed, strlen(cfg_routed), err, sizeof(err));
	ck_assert_msg(cfg != NULL, "%s", err);
	sites[0] = (struct model){.a = {.ops = &model_ops, .ports = 1, .tx_streams = 3},
				  .cfg = cfg,
				  .hz = 1000000000};
	ck_assert_ptr_null(fws_trial_create_agents(cfg, agents, 1, NULL, &e));
	ck_assert_str_eq(e.msg, "config: ports[1] (wan): no host owns it");
	fws_config_free(cfg);
}
END_TEST

/* Two agents whose clocks are 3 ms apart (and one 5 ms behind the controller's) change
 * phase at one instant of the controller's time, each told its own reading of it; the
 * measured phase is the configured duration on both, from deadline to deadline. */
START_TEST(test_agent_phases_armed_for_one_instant)
{
	static const char json[] =
		"{\"ports\": [{\"name\": \"lan\", \"device\": \"ringpair:m:a\"},"
		" {\"name\": \"wan\", \"device\": \"ringpair:m:b\"}],"
		" \"direction\": \"bidir\", \"rate\": \"1kpps\", \"frame_size\": [128],"
		" \"flows\": {\"count\": 16}, \"clocks\": \"none\","
		" \"duration\": 0.2, \"warmup\": 0.05, \"drain\": 0.01}";
	struct fws_trial_opts o = {0};
	struct fws_result res;
	struct fws_err e;
	unsigned int i;

	start(json);
	sites[0].a.ops = sites[1].a.ops = clocked_ops();
	sites[0].off = 3000000;
	sites[1].off = -(int64_t)sites[1].hz / 200;
	ck_assert_int_eq(fws_trial_run(trial, 0, &o, &res, &e), 0);
	/* Warm-up, measure, stop: each armed on both, for one instant. */
	ck_assert_uint_eq(sites[0].n_changes, 3);
	ck_assert_uint_eq(sites[1].n_changes, 3);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(sites[0].change_ph[i], FWS_PHASE_WARMUP + i);
		ck_assert_int_eq(sites[1].change_ph[i], FWS_PHASE_WARMUP + i);
		ck_assert_double_gt(sites[0].change_ns[i], 0);
		ck_assert_double_eq_tol(sites[0].change_ns[i], sites[1].change_ns[i],
					FWS_MAX(res.phase_sync_ns, 1.0) + 2);
	}
	/* Warm-up and measured phase each as long as asked, to within two probes' errors. */
	ck_assert_double_eq_tol((sites[0].change_ns[1] - sites[0].change_ns[0]), 0.05e9,
				2 * res.phase_sync_ns + 2);
	ck_assert_double_eq_tol((sites[1].change_ns[2] - sites[1].change_ns[1]), 0.2e9,
				2 * res.phase_sync_ns + 2);
	ck_assert_uint_eq(res.phase_hosts, 2);
	ck_assert_double_gt(res.phase_sync_ns, 0);
	ck_assert_double_lt(res.phase_sync_ns, 1e6);
	fws_result_free(&res);
	finish();
}
END_TEST

/*
 * The agent's server over the model: a host of one config (host "a", both ports), its
 * answers read from the stream as the controller reads them.
 */
static const char srv_config[] =
	"{\"hosts\": [{\"name\": \"a\", \"command\": [\"true\"]}],"
	" \"ports\": [{\"name\": \"lan\", \"device\": \"ringpair:s:a\", \"host\": \"a\"},"
	"  {\"name\": \"wan\", \"device\": \"ringpair:s:b\", \"host\": \"a\"}],"
	" \"direction\": \"bidir\", \"flows\": {\"count\": 300}, \"frame_size\": [64]}";

static struct model srv_model;
static int srv_eal_starts;

static int
srv_eal(struct fws_cfg *c)
{
	(void)c;
	srv_eal_starts++;
	return 0;
}

static struct fws_agent *
srv_part(const struct fws_cfg *c, unsigned int host, struct fws_err *e)
{
	(void)e;
	ck_assert_uint_eq(host, 1);
	srv_model = (struct model){.a = {.ops = clocked_ops()}, .cfg = c, .hz = 1000000000};
	return &srv_model.a;
}

static const struct fws_agent_srv_env srv_env = {.eal_start = srv_eal, .part = srv_part};

struct srv {
	struct fws_agent_srv *s;
	int fd[2];
	struct fws_wire_rd rd;
	json_int_t id;
};

static void
srv_open(struct srv *v)
{
	memset(v, 0, sizeof(*v));
	ck_assert_int_eq(pipe(v->fd), 0);
	v->s = fws_agent_srv_new(v->fd[1], &srv_env);
	ck_assert_ptr_nonnull(v->s);
	v->rd.fd = v->fd[0];
	srv_eal_starts = 0;
}

static void
srv_close(struct srv *v)
{
	fws_agent_srv_free(v->s);
	fws_wire_rd_free(&v->rd);
	close(v->fd[0]);
	close(v->fd[1]);
}

struct srv_call {
	struct srv *v;
	json_t *req;
	int rc;
};

static void *
srv_answer(void *arg)
{
	struct srv_call *c = arg;

	c->rc = fws_agent_srv_answer(c->v->s, c->req);
	return NULL;
}

/* Request op (args taken, may be NULL) and its answer; the attachment in v->rd. The server
 * answers from a thread of its own: an answer's counts are larger than a pipe holds. */
static json_t *
srv_ask(struct srv *v, const char *op, json_t *args)
{
	struct srv_call c = {.v = v, .req = args ? args : json_object()};
	const char *why = NULL;
	pthread_t t;
	json_t *ans;

	json_object_set_new(c.req, "id", json_integer(++v->id));
	json_object_set_new(c.req, "op", json_string(op));
	ck_assert_int_eq(pthread_create(&t, NULL, srv_answer, &c), 0);
	ans = fws_wire_recv(&v->rd, 5000, -1, NULL, NULL, &why);
	pthread_join(t, NULL);
	ck_assert_int_eq(c.rc, 0);
	json_decref(c.req);
	ck_assert_msg(ans != NULL, "%s: no answer: %s", op, why ? why : "");
	ck_assert_int_eq(json_integer_value(json_object_get(ans, "id")), v->id);
	return ans;
}

static int
rc_of(const json_t *ans)
{
	return (int)json_integer_value(json_object_get(ans, "rc"));
}

static const char *
msg_of(const json_t *ans)
{
	const char *m = json_string_value(json_object_get(json_object_get(ans, "err"), "msg"));

	return m ? m : "";
}

/* The answer's rc is want and its message holds text (NULL: any). */
static void
srv_expect(struct srv *v, const char *op, json_t *args, int want, const char *text)
{
	json_t *ans = srv_ask(v, op, args);

	ck_assert_msg(rc_of(ans) == want, "%s: rc %d (%s), expected %d", op, rc_of(ans),
		      msg_of(ans), want);
	if (text)
		ck_assert_msg(strstr(msg_of(ans), text) != NULL, "%s: \"%s\" lacks \"%s\"", op,
			      msg_of(ans), text);
	json_decref(ans);
}

static void
srv_setup(struct srv *v)
{
	json_t *ans =
		srv_ask(v, "setup",
			json_pack("{s:o, s:i, s:i, s:i}", "config", json_loads(srv_config, 0, NULL),
				  "host", 1, "n_ports", 2, "n_streams", 2));

	ck_assert_msg(rc_of(ans) == 0, "setup: %s", msg_of(ans));
	ck_assert_int_eq(json_integer_value(json_object_get(ans, "hz")), 1000000000);
	json_decref(ans);
}

/* Every operation of the table has its handler: none is unknown to the server, and before
 * setup each that needs the host says so (hello and bye need none). */
START_TEST(test_srv_every_op_answered)
{
	struct srv v;
	unsigned int i;
	json_t *ans;

	srv_open(&v);
	for (i = 0; i < FWS_AGENT_N_OPS; i++) {
		const char *op = fws_agent_op_name((enum fws_agent_op)i);

		ck_assert_int_eq(fws_agent_op_of(op), (int)i);
		if (strcmp(op, "bye") == 0)
			continue;
		ans = srv_ask(&v, op, NULL);
		ck_assert_msg(rc_of(ans) != -ENOSYS, "%s: unknown to the server", op);
		if (strcmp(op, "hello") == 0)
			ck_assert_msg(rc_of(ans) == 0 &&
					      json_is_string(json_object_get(ans, "dpdk")),
				      "hello: %s", msg_of(ans));
		else if (strcmp(op, "setup") == 0)
			ck_assert_str_eq(msg_of(ans), "setup: no \"config\"");
		else
			ck_assert_msg(strcmp(msg_of(ans), "not set up") == 0, "%s: %s", op,
				      msg_of(ans));
		json_decref(ans);
	}
	srv_expect(&v, "frobnicate", NULL, -ENOSYS, "unknown operation \"frobnicate\"");
	ck_assert_int_eq(fws_agent_op_of("frobnicate"), -1);
	ck_assert_int_eq(srv_eal_starts, 0);
	srv_expect(&v, "bye", NULL, 0, NULL);
	ck_assert(fws_agent_srv_bye(v.s));
	srv_close(&v);
}
END_TEST

/* setup checks the controller's word against the config it parses: the host's index, the
 * counts; once set up, a second setup is refused. */
START_TEST(test_srv_setup_checked)
{
	struct srv v;

	srv_open(&v);
	srv_expect(&v, "setup",
		   json_pack("{s:o, s:i, s:i, s:i}", "config", json_loads(srv_config, 0, NULL),
			     "host", 2, "n_ports", 2, "n_streams", 2),
		   -EINVAL, "host 2: not in the config");
	srv_expect(&v, "setup",
		   json_pack("{s:o, s:i, s:i, s:i}", "config", json_loads(srv_config, 0, NULL),
			     "host", 1, "n_ports", 2, "n_streams", 3),
		   -EINVAL, "has 2 ports and 2 streams, the controller's 2 and 3");
	srv_expect(&v, "setup",
		   json_pack("{s:{s:[]}, s:i, s:i, s:i}", "config", "ports", "host", 1, "n_ports",
			     2, "n_streams", 2),
		   -EINVAL, "ports");
	ck_assert_int_eq(srv_eal_starts, 0);
	srv_setup(&v);
	ck_assert_int_eq(srv_eal_starts, 1);
	srv_expect(&v, "setup",
		   json_pack("{s:o, s:i, s:i, s:i}", "config", json_loads(srv_config, 0, NULL),
			     "host", 1, "n_ports", 2, "n_streams", 2),
		   -EALREADY, "set up already");
	srv_expect(&v, "setup", NULL, -EINVAL, "setup: no \"config\""); /* checked first */
	srv_close(&v);
}
END_TEST

/* The table's "stopped" operations are refused while the workers run, and served once they
 * stop; the others are served meanwhile. Fields are checked before the model sees them. */
START_TEST(test_srv_running_and_fields)
{
	char stopped[256] = "";
	struct srv v;
	json_t *ans;
	unsigned int i;

	srv_open(&v);
	srv_setup(&v);
	srv_expect(&v, "launch", json_pack("{s:i}", "phase", 99), -EINVAL, "\"phase\"");
	ck_assert_uint_eq(srv_model.launches, 0);
	srv_expect(&v, "launch", json_pack("{s:i}", "phase", FWS_PHASE_WARMUP), 0, NULL);
	ck_assert_uint_eq(srv_model.launches, 1);
	for (i = 0; i < FWS_AGENT_N_OPS; i++) {
		const char *op = fws_agent_op_name((enum fws_agent_op)i);

		if (!fws_agent_op_stopped((enum fws_agent_op)i))
			continue;
		srv_expect(&v, op, NULL, -EBUSY, "the workers run");
		strlcat(stopped, " ", sizeof(stopped));
		strlcat(stopped, op, sizeof(stopped));
	}
	/* What would race the workers: reloading their plan, aims or connection state. */
	ck_assert_str_eq(stopped, " prepare arm launch aim conn_trial conn_between conn_serve");
	ck_assert_uint_eq(srv_model.launches, 1);
	ans = srv_ask(&v, "tsc", NULL); /* not a stopped operation: served */
	ck_assert_int_eq(rc_of(ans), 0);
	ck_assert(json_integer_value(json_object_get(ans, "tsc")) > 0);
	json_decref(ans);
	/* A phase at an instant of a TSC that has run for years (2^62 ticks): any uint64 the
	 * controller can send as a JSON integer is taken; a negative one is not. */
	srv_expect(&v, "phase",
		   json_pack("{s:i, s:I}", "phase", FWS_PHASE_MEASURE, "at", 1ll << 62), 0, NULL);
	srv_expect(&v, "phase",
		   json_pack("{s:i, s:I}", "phase", FWS_PHASE_MEASURE, "at", INT64_MAX), 0, NULL);
	srv_expect(&v, "phase", json_pack("{s:i, s:I}", "phase", FWS_PHASE_MEASURE, "at", -1ll),
		   -EINVAL, "\"at\" is not an integer from 0");
	srv_expect(&v, "stop", json_pack("{s:s}", "measured", "yes"), -EINVAL,
		   "\"measured\" is not true or false");
	ck_assert_uint_eq(srv_model.stops, 0);
	srv_expect(&v, "stop", json_pack("{s:b}", "measured", 1), 0, NULL);
	ck_assert_uint_eq(srv_model.stops, 1);
	srv_expect(&v, "prepare", json_pack("{s:i, s:i}", "stage", 0, "mask", 4), -EINVAL,
		   "\"mask\" is not an integer from 0 to 3");
	srv_expect(&v, "prepare", json_pack("{s:i, s:i}", "stage", 0, "mask", 3), 0, NULL);
	srv_expect(&v, "arm", json_pack("{s:s}", "b", "AAAA"), -EINVAL, "a plan that does not fit");
	ck_assert_uint_eq(srv_model.arms, 0);
	srv_expect(&v, "ptp", json_pack("{s:s, s:i}", "socket", "relative", "domain", 0), -EINVAL,
		   "absolute");
	srv_close(&v);
}
END_TEST

/* Flow ranges: within the stream's flows and a chunk, the answer's attachment n records. */
START_TEST(test_srv_flow_ranges)
{
	struct srv v;
	json_t *ans;

	srv_open(&v);
	srv_setup(&v);
	srv_expect(&v, "rx_flows", json_pack("{s:i, s:i, s:i}", "s", 2, "lo", 0, "n", 1), -EINVAL,
		   "\"s\" is not an integer from 0 to 1");
	srv_expect(&v, "rx_flows", json_pack("{s:i, s:i, s:i}", "s", 0, "lo", 299, "n", 2), -EINVAL,
		   "flows 299 to 300 of stream 0: it has 300");
	srv_expect(&v, "tx_flows", json_pack("{s:i, s:i, s:i}", "s", 0, "lo", 0, "n", 0), -EINVAL,
		   "\"n\" is not an integer from 1");
	ans = srv_ask(&v, "rx_flows", json_pack("{s:i, s:i, s:i}", "s", 1, "lo", 10, "n", 16));
	ck_assert_msg(rc_of(ans) == 0, "%s", msg_of(ans));
	ck_assert_uint_eq(v.rd.bin_len, 16 * sizeof(struct fws_agent_rxflow));
	json_decref(ans);
	ans = srv_ask(&v, "collect", NULL);
	ck_assert_int_eq(rc_of(ans), 0);
	ck_assert_uint_eq(v.rd.bin_len, sizeof(struct fws_agent_counts));
	ck_assert_uint_eq(srv_model.collects, 1);
	json_decref(ans);
	srv_close(&v);
}
END_TEST

static Suite *
suite_agent(void)
{
	Suite *s = suite_create("agent");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_agent_counts_from_owners);
	tcase_add_test(tc, test_agent_feature_data_by_roles);
	tcase_add_test(tc, test_agent_feature_layout);
	tcase_add_test(tc, test_agent_nat_learned_reaches_sender);
	tcase_add_test(tc, test_agent_unowned_refused);
	tcase_add_test(tc, test_agent_phases_armed_for_one_instant);
	suite_add_tcase(s, tc);
	tc = tcase_create("server");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_srv_every_op_answered);
	tcase_add_test(tc, test_srv_setup_checked);
	tcase_add_test(tc, test_srv_running_and_fields);
	tcase_add_test(tc, test_srv_flow_ranges);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_agent)
