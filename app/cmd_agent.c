/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwstress agent: a load client's side of a test across hosts. It reads requests on stdin
 * and answers on stdout (the control stream, fws_wire.h), normally through ssh from the
 * controller; it listens nowhere. Its ports are the config's that name its host; the seam's
 * operations run on them through the in-process agent (fws_agent.h). When its stdin ends,
 * whatever it was doing, it stops sending, releases its ports and exits: no generator left
 * flooding a lab after its controller is gone.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_version.h>

#include "fws_agent.h"
#include "fws_app.h"
#include "fws_compat.h"
#include "fws_config.h"
#include "fws_conntest.h"
#include "fws_host.h"
#include "fws_wire.h"

struct srv {
	int out;                  /* the control stream (stdout when started) */
	pthread_mutex_t out_lock; /* a line and its attachment go out whole */
	pthread_t beat;
	bool beating;
	volatile int quit_beat;
	/* A long operation (a connection test's iteration) runs: a line that arrives
	 * meanwhile, or the stream's end, is the controller's stop (the beat sees it). */
	volatile int busy, interrupt;
	const struct fws_wire_rd *rd;
	bool serving;      /* its servers answered segments in the last pass: poll again at once */
	int64_t next_live; /* while the workers run: the next live event, ms */
	struct fws_cfg *cfg;
	struct fws_agent *a;
	bool eal;
	bool running; /* workers launched, not yet stopped */
	bool bye;
	void *att; /* the answer's attachment (blob) */
	size_t att_len;
};

typedef int (*op_fn)(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e);

/* While the workers run: the live counts as an event this often (the controller's progress
 * line and --stats sum them; their rates are over this host's own interval). */
#define LIVE_MS 1000

static int64_t
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int
need_agent(struct srv *s, struct fws_err *e)
{
	return s->a ? 0 : fws_err_set(e, FWS_ERR_SETUP, -EINVAL, "not set up");
}

static int
op_hello(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	struct fws_host_info me;
	char layout[256];

	(void)s;
	(void)req;
	(void)e;
	fws_agent_info_self(&me);
	json_object_set_new(ans, "hostname", json_string(me.hostname));
	json_object_set_new(ans, "kernel", json_string(me.kernel));
	fws_wire_layout(layout, sizeof(layout));
	json_object_set_new(ans, "proto", json_pack("[i,i]", FWS_WIRE_MAJOR, FWS_WIRE_MINOR));
	json_object_set_new(ans, "fwstress", json_string(FWS_VERSION));
	json_object_set_new(ans, "dpdk", json_string(rte_version()));
	json_object_set_new(ans, "layout", json_string(layout));
	return 0;
}

static int
op_setup(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	char *txt = json_dumps(json_object_get(req, "config"), JSON_COMPACT), err[FWS_ERR_LEN];
	unsigned int host = (unsigned int)json_integer_value(json_object_get(req, "host"));
	uint64_t hz, hz_dpdk;

	if (s->cfg)
		return fws_err_set(e, FWS_ERR_SETUP, -EALREADY, "set up already");
	if (txt == NULL)
		return fws_err_set(e, FWS_ERR_CONFIG, -EINVAL, "setup: no config");
	s->cfg = fws_config_parse(txt, strlen(txt), err, sizeof(err));
	free(txt);
	if (s->cfg == NULL)
		return fws_err_set(e, FWS_ERR_CONFIG, -EINVAL, "%s", err);
	if (host == 0 || host > s->cfg->n_hosts)
		return fws_err_set(e, FWS_ERR_CONFIG, -EINVAL, "host %u: not in the config", host);
	if (json_integer_value(json_object_get(req, "n_ports")) != s->cfg->n_ports ||
	    json_integer_value(json_object_get(req, "n_streams")) != s->cfg->n_streams)
		return fws_err_set(e, FWS_ERR_CONFIG, -EINVAL,
				   "the config parsed here has %u ports and %u streams, the "
				   "controller's %d and %d",
				   s->cfg->n_ports, s->cfg->n_streams,
				   (int)json_integer_value(json_object_get(req, "n_ports")),
				   (int)json_integer_value(json_object_get(req, "n_streams")));
	if (app_eal_start(s->cfg, NULL, 0) < 0)
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL,
				   "EAL init failed (hugepages reserved, ports bound?)");
	s->eal = true;
	if ((s->a = fws_agent_local_part(s->cfg, host, e)) == NULL)
		return -EINVAL;
	s->a->ops->clock(s->a, &hz, &hz_dpdk);
	json_object_set_new(ans, "hz", json_integer((json_int_t)hz));
	json_object_set_new(ans, "hz_dpdk", json_integer((json_int_t)hz_dpdk));
	return 0;
}

/* The answer's attachment: a copy of n bytes at p, sent after its line. */
static int
blob(struct srv *s, const void *p, size_t n)
{
	free(s->att);
	if ((s->att = malloc(n ? n : 1)) == NULL)
		return -ENOMEM;
	memcpy(s->att, p, n);
	s->att_len = n;
	return 0;
}

static int
op_ports(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	struct fws_port_result p[FWS_CFG_MAX_PORTS];

	(void)ans;
	(void)req;
	memset(p, 0, sizeof(p));
	if (need_agent(s, e) < 0)
		return -EINVAL;
	s->a->ops->ports(s->a, p);
	return blob(s, p, sizeof(p));
}

/* First in its answer: the controller times the exchange around this reading. */
static int
op_tsc(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	(void)req;
	if (need_agent(s, e) < 0)
		return -EINVAL;
	return json_object_set_new(ans, "tsc", json_integer((json_int_t)s->a->ops->tsc(s->a)));
}

/* The clock under PTP: ptp4l's socket on this host is the controller's word (a path, for
 * pmc; nothing else runs), the answer one fws_ptp_point. */
static int
op_ptp(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	const char *sock = json_string_value(json_object_get(req, "socket"));
	json_int_t dom = json_integer_value(json_object_get(req, "domain"));
	struct fws_ptp_point p;

	(void)ans;
	if (need_agent(s, e) < 0)
		return -EINVAL;
	if (sock == NULL || sock[0] != '/')
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL, "ptp: a socket path is absolute");
	if (dom < 0 || dom > 255)
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL, "ptp: no PTP domain %lld",
				   (long long)dom);
	if (s->a->ops->ptp(s->a, sock, (unsigned int)dom, &p, e) < 0)
		return -EINVAL;
	return blob(s, &p, sizeof(p));
}

static int
op_hugepage_peak(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	(void)req;
	if (need_agent(s, e) < 0)
		return -EINVAL;
	return json_object_set_new(ans, "bytes",
				   json_integer((json_int_t)s->a->ops->hugepage_peak(s->a)));
}

static int
op_prepare(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	static volatile int never;
	json_int_t st = json_integer_value(json_object_get(req, "stage"));

	(void)ans;
	if (need_agent(s, e) < 0)
		return -EINVAL;
	if (st < 0 || st >= FWS_PREP_STAGES)
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL, "prepare: no stage %lld",
				   (long long)st);
	return s->a->ops->prepare(s->a, (enum fws_prep_stage)st,
				  (uint32_t)json_integer_value(json_object_get(req, "mask")),
				  &never, e);
}

static int
op_arm(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	struct fws_agent_plan p;

	(void)ans;
	if (need_agent(s, e) < 0)
		return -EINVAL;
	if (fws_wire_unblob(json_object_get(req, "b"), &p, sizeof(p)) < 0)
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL, "arm: a plan that does not fit");
	return s->a->ops->arm(s->a, &p, e);
}

static int
op_launch(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	int rc;

	(void)ans;
	if (need_agent(s, e) < 0)
		return -EINVAL;
	rc = s->a->ops->launch(
		s->a, (enum fws_phase)json_integer_value(json_object_get(req, "phase")), e);
	s->running = rc == 0;
	s->next_live = mono_ms() + LIVE_MS;
	return rc;
}

/* The phase at an instant of this host's clock ("at", 0: at once); the answer says how late
 * the request came. */
static int
op_phase(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	json_int_t ph = json_integer_value(json_object_get(req, "phase"));
	uint64_t at = (uint64_t)json_integer_value(json_object_get(req, "at"));

	if (need_agent(s, e) < 0)
		return -EINVAL;
	if (ph < FWS_PHASE_IDLE || ph > FWS_PHASE_STOP)
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL, "phase: no phase %lld",
				   (long long)ph);
	return json_object_set_new(ans, "late_ns",
				   json_real(s->a->ops->phase(s->a, (enum fws_phase)ph, at)));
}

static int
op_poll(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	struct fws_agent_poll p;

	(void)ans;
	(void)req;
	if (need_agent(s, e) < 0)
		return -EINVAL;
	s->a->ops->poll(s->a, &p);
	return blob(s, &p, sizeof(p));
}

static int
op_live(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	struct fws_agent_live l;

	(void)ans;
	if (need_agent(s, e) < 0)
		return -EINVAL;
	s->a->ops->live(s->a, json_is_true(json_object_get(req, "warm")), &l);
	return blob(s, &l, sizeof(l));
}

static int
op_stop(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	(void)ans;
	if (need_agent(s, e) < 0)
		return -EINVAL;
	if (s->running)
		s->a->ops->stop(s->a, json_is_true(json_object_get(req, "measured")));
	s->running = false;
	return 0;
}

/* A blob-sized answer from the heap: counts are large. */
static int
op_collect(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	struct fws_agent_counts *c;
	int rc;

	(void)ans;
	(void)req;
	if (need_agent(s, e) < 0)
		return -EINVAL;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return -ENOMEM;
	s->a->ops->collect(s->a, c);
	rc = blob(s, c, sizeof(*c));
	free(c);
	return rc;
}

static int
op_after(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	struct fws_agent_counts *c;
	int rc;

	(void)ans;
	if (need_agent(s, e) < 0)
		return -EINVAL;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return -ENOMEM;
	s->a->ops->after(s->a, json_is_true(json_object_get(req, "keep")) ? c : NULL);
	rc = blob(s, c, sizeof(*c));
	free(c);
	return rc;
}

/* A range of a stream's flows: checked against the config. */
static int
flow_range(struct srv *s, const json_t *req, unsigned int *st, uint32_t *lo, uint32_t *n,
	   struct fws_err *e)
{
	json_int_t x = json_integer_value(json_object_get(req, "s")),
		   l = json_integer_value(json_object_get(req, "lo")),
		   k = json_integer_value(json_object_get(req, "n"));

	if (need_agent(s, e) < 0)
		return -EINVAL;
	if (x < 0 || x >= (json_int_t)s->cfg->n_streams || l < 0 || k <= 0 || k > FWS_AGENT_CHUNK ||
	    l + k > (json_int_t)s->cfg->streams[x].flows.count)
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL, "flows out of range");
	*st = (unsigned int)x;
	*lo = (uint32_t)l;
	*n = (uint32_t)k;
	return 0;
}

static int
op_rx_flows(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	static struct fws_agent_rxflow f[FWS_AGENT_CHUNK];
	unsigned int st;
	uint32_t lo, n;

	(void)ans;
	if (flow_range(s, req, &st, &lo, &n, e) < 0)
		return -EINVAL;
	s->a->ops->rx_flows(s->a, st, lo, n, f);
	return blob(s, f, sizeof(f[0]) * n);
}

static int
op_tx_flows(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	static struct fws_agent_txflow f[FWS_AGENT_CHUNK];
	unsigned int st;
	uint32_t lo, n;

	(void)ans;
	if (flow_range(s, req, &st, &lo, &n, e) < 0)
		return -EINVAL;
	s->a->ops->tx_flows(s->a, st, lo, n, f);
	return blob(s, f, sizeof(f[0]) * n);
}

static int
op_aim(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	static struct fws_nat_tuple at[FWS_AGENT_CHUNK];
	unsigned int st;
	uint32_t lo, n;

	(void)ans;
	if (flow_range(s, req, &st, &lo, &n, e) < 0)
		return -EINVAL;
	if (fws_wire_unblob(json_object_get(req, "b"), at, sizeof(at[0]) * n) < 0)
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL, "aim: tuples that do not fit");
	return s->a->ops->aim(s->a, st, lo, n, at);
}

static int
op_retire(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	(void)req;
	(void)ans;
	if (need_agent(s, e) < 0)
		return -EINVAL;
	s->a->ops->retire(s->a);
	return 0;
}

static int
op_bye(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	(void)req;
	(void)ans;
	(void)e;
	s->bye = true;
	return 0;
}

/* An event line: what a long operation marks on its way. */
static void
send_event(struct srv *s, json_t *ev)
{
	pthread_mutex_lock(&s->out_lock);
	fws_wire_send(s->out, ev);
	pthread_mutex_unlock(&s->out_lock);
	json_decref(ev);
}

static void
ev_measure(void *arg, uint64_t n, double rate)
{
	send_event(arg,
		   json_pack("{s:s, s:I, s:f}", "ev", "measure", "n", (json_int_t)n, "rate", rate));
}

static void
ev_measured(void *arg, bool stopped, struct fws_conntrial *out)
{
	(void)out;
	send_event(arg, json_pack("{s:s, s:b}", "ev", "measured", "stopped", stopped));
}

/* One iteration of the connection test on this host's clients; the answer carries the
 * trial, then its two per-second series. */
static int
op_conn_trial(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	const struct fws_conntester_hooks hk = {
		.measure = ev_measure, .measured = ev_measured, .arg = s};
	double rate = json_number_value(json_object_get(req, "rate"));
	struct fws_conntrial t;
	size_t ne, nc;
	uint8_t *b;
	int rc;

	if (need_agent(s, e) < 0)
		return -EINVAL;
	if (!(rate > 0))
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL, "conn_trial: no rate");
	s->serving = false;
	s->interrupt = 0;
	s->busy = 1;
	rc = s->a->ops->conn_trial(
		s->a, rate, (uint32_t)json_integer_value(json_object_get(req, "nonce")),
		json_is_true(json_object_get(req, "progress")), &hk, &s->interrupt, &t, e);
	s->busy = 0;
	if (rc < 0)
		return rc;
	ne = t.st.est_per_s.n;
	nc = t.st.closed_per_s.n;
	if ((b = malloc(sizeof(t) + 8 * (ne + nc))) != NULL) {
		memcpy(b, &t, sizeof(t));
		memcpy(b + sizeof(t), t.st.est_per_s.v, 8 * ne);
		memcpy(b + sizeof(t) + 8 * ne, t.st.closed_per_s.v, 8 * nc);
		json_object_set_new(ans, "n_est", json_integer((json_int_t)ne));
		json_object_set_new(ans, "n_closed", json_integer((json_int_t)nc));
		rc = blob(s, b, sizeof(t) + 8 * (ne + nc));
	}
	free(b);
	free(t.st.est_per_s.v);
	free(t.st.closed_per_s.v);
	return b ? rc : -ENOMEM;
}

static int
op_conn_between(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	int rc;

	(void)req;
	(void)ans;
	if (need_agent(s, e) < 0)
		return -EINVAL;
	s->interrupt = 0;
	s->busy = 1;
	rc = s->a->ops->conn_between(s->a, &s->interrupt, e);
	s->busy = 0;
	return rc;
}

/* Its servers answer iteration "nonce" of another host's clients until told otherwise. */
static int
op_conn_serve(struct srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	int rc;

	(void)ans;
	if (need_agent(s, e) < 0)
		return -EINVAL;
	rc = s->a->ops->conn_serve(s->a,
				   (uint32_t)json_integer_value(json_object_get(req, "nonce")), e);
	s->serving = rc == 0;
	return rc;
}

static const struct {
	const char *name;
	op_fn fn;
} ops[] = {
	{"hello", op_hello},
	{"setup", op_setup},
	{"ports", op_ports},
	{"hugepage_peak", op_hugepage_peak},
	{"tsc", op_tsc},
	{"ptp", op_ptp},
	{"prepare", op_prepare},
	{"arm", op_arm},
	{"launch", op_launch},
	{"phase", op_phase},
	{"poll", op_poll},
	{"live", op_live},
	{"stop", op_stop},
	{"collect", op_collect},
	{"rx_flows", op_rx_flows},
	{"tx_flows", op_tx_flows},
	{"aim", op_aim},
	{"after", op_after},
	{"retire", op_retire},
	{"bye", op_bye},
	{"conn_trial", op_conn_trial},
	{"conn_between", op_conn_between},
	{"conn_serve", op_conn_serve},
};

static int
answer(struct srv *s, const json_t *req)
{
	const char *op = json_string_value(json_object_get(req, "op"));
	json_t *ans = json_object();
	struct fws_err e = {0};
	size_t i;
	int rc = -ENOSYS;

	json_object_set(ans, "id", json_object_get(req, "id"));
	for (i = 0; op && i < RTE_DIM(ops); i++)
		if (strcmp(ops[i].name, op) == 0)
			break;
	if (op && i < RTE_DIM(ops))
		rc = ops[i].fn(s, req, ans, &e);
	else
		fws_err_set(&e, FWS_ERR_SETUP, rc, "unknown operation \"%.40s\"", op ? op : "");
	json_object_set_new(ans, "rc", json_integer(rc < 0 ? rc : 0));
	if (rc < 0)
		json_object_set_new(ans, "err",
				    json_pack("{s:i, s:s}", "kind", (int)e.kind, "msg",
					      e.msg[0] ? e.msg : strerror(-rc)));
	pthread_mutex_lock(&s->out_lock);
	rc = s->att && rc >= 0 ? fws_wire_send_bin(s->out, ans, s->att, s->att_len)
			       : fws_wire_send(s->out, ans);
	pthread_mutex_unlock(&s->out_lock);
	free(s->att);
	s->att = NULL;
	json_decref(ans);
	return rc;
}

/*
 * The heartbeat: an event line every FWS_AGENT_BEAT_MS from its own thread, whatever the
 * main thread is doing (EAL's setup, a prepare's handshakes, a million flows' counts), so
 * that the controller tells a slow agent from a cut link in seconds. A beat that would
 * block (the controller not reading: between trials) is skipped, never queued: this
 * thread never holds the stream while waiting for the far end.
 */
static void *
beat_main(void *arg)
{
	struct srv *s = arg;
	unsigned long n = 0;
	char line[64];
	int len, ms;

	while (!s->quit_beat) {
		for (ms = 0; ms < FWS_AGENT_BEAT_MS && !s->quit_beat; ms += 50)
			nanosleep(&(struct timespec){.tv_nsec = 50000000}, NULL);
		if (s->quit_beat)
			break;
		if (s->busy &&
		    (s->rd->len > 0 ||
		     poll(&(struct pollfd){.fd = s->rd->fd, .events = POLLIN}, 1, 0) == 1))
			s->interrupt = 1; /* a line (the controller's stop) or the stream's end */
		len = snprintf(line, sizeof(line), "{\"ev\": \"beat\", \"n\": %lu}\n", ++n);
		pthread_mutex_lock(&s->out_lock);
		if (poll(&(struct pollfd){.fd = s->out, .events = POLLOUT}, 1, 0) == 1 &&
		    write(s->out, line, (size_t)len) < 0 && errno == EPIPE)
			s->quit_beat = 1;
		pthread_mutex_unlock(&s->out_lock);
	}
	return NULL;
}

static void
beat_start(struct srv *s)
{
	s->beating = pthread_create(&s->beat, NULL, beat_main, s) == 0;
	if (!s->beating)
		fprintf(stderr, "fwstress agent: no heartbeat thread: %s\n", strerror(errno));
}

static void
beat_stop(struct srv *s)
{
	if (!s->beating)
		return;
	s->quit_beat = 1;
	pthread_join(s->beat, NULL);
	s->beating = false;
}

static void
usage_agent(FILE *f)
{
	fprintf(f, "Usage: fwstress agent\n\n"
		   "The agent of a load client in a test across hosts: the controller (run,\n"
		   "search, sweep with a config whose \"hosts\" name this host) starts it, by\n"
		   "default over ssh (ssh -T -o BatchMode=yes HOST fwstress agent), and drives it\n"
		   "with JSON lines on its stdin and stdout; it owns the config's ports that name\n"
		   "its host. It listens on no port. When its stdin ends it stops sending,\n"
		   "releases its ports and exits. To restrict a key to it, in authorized_keys:\n"
		   "  restrict,command=\"fwstress agent\" ssh-ed25519 AAAA... controller\n"
		   "\nTo check a load client before a test, from the controller:\n"
		   "  fwstress hosts check CONFIG\n");
}

/* Set up, its workers stopped: its ports polled this often while it waits for a request
 * (TCP connections whose other end is on another host open and close meanwhile). */
#define IDLE_MS 1

/* Between requests: the ports polled (ARP, ND, the far end's TCP segments), or a pass of
 * the connection engine while its servers answer another host's clients. */
static void
idle(struct srv *s)
{
	s->serving = fws_agent_local_idle(s->a);
}

/* The live counts as an event (a line, then the counts as its attachment); skipped, as a
 * heartbeat is, when the stream has no room: the dead man must never wait on a write. */
static void
send_live(struct srv *s)
{
	struct fws_host *h = fws_agent_local_host(s->a);
	struct fws_agent_live l;
	json_t *ev;

	if (h == NULL)
		return;
	s->a->ops->live(s->a, fws_sync_phase(&h->sync, rte_rdtsc()) == FWS_PHASE_WARMUP, &l);
	ev = json_pack("{s:s}", "ev", "live");
	pthread_mutex_lock(&s->out_lock);
	if (poll(&(struct pollfd){.fd = s->out, .events = POLLOUT}, 1, 0) == 1)
		fws_wire_send_bin(s->out, ev, &l, sizeof(l));
	pthread_mutex_unlock(&s->out_lock);
	json_decref(ev);
}

/* How long to wait for the next request: while the workers run, until the dead man's
 * deadline or the next live event; while serving, not at all; between requests, a
 * millisecond (the ports polled meanwhile); before setup, as long as it takes. */
static int
wait_ms(const struct srv *s, int64_t last_req, int64_t now)
{
	int64_t until = RTE_MIN(last_req + FWS_AGENT_DEADMAN_MS, s->next_live);

	if (s->running)
		return until > now ? (int)(until - now) : 0;
	return s->serving ? 0 : s->a ? IDLE_MS : -1;
}

/* Requests until bye, the stream's end, a failed answer (*rc) or the dead man: why it
 * ended. */
static const char *
serve(struct srv *s, struct fws_wire_rd *rd, int *rc)
{
	int64_t last_req = mono_ms(), now;
	const char *why = "end of stream";
	json_t *req;

	while (!s->bye && *rc == 0) {
		now = mono_ms();
		if (s->running && now - last_req >= FWS_AGENT_DEADMAN_MS)
			return "no request in " RTE_STR(FWS_AGENT_DEADMAN_MS) " ms while sending "
									      "(dead man)";
		if (s->running && now >= s->next_live) {
			send_live(s);
			s->next_live = now + LIVE_MS;
		}
		req = fws_wire_recv(rd, wait_ms(s, last_req, now), -1, NULL, NULL, &why);
		if (req == NULL && strcmp(why, "timeout") == 0) {
			if (!s->running && s->a)
				idle(s);
			continue;
		}
		if (req == NULL)
			return why;
		last_req = mono_ms();
		if (json_object_get(req, "id")) /* else a notification: a stop come late */
			*rc = answer(s, req);
		json_decref(req);
	}
	return why;
}

/* Started by a key restricted to the agent (restrict,command="fwstress agent"), which runs
 * it whatever the client asked: a command that is not the agent (a campaign's setup sent
 * over that key) must fail saying so, not end as an agent whose stream closed. */
static bool
asked_other(void)
{
	const char *o = getenv("SSH_ORIGINAL_COMMAND");
	size_t n = o ? strlen(o) : 0;

	if (o == NULL || (n >= 5 && strcmp(o + n - 5, "agent") == 0))
		return false;
	fprintf(stderr,
		"fwstress agent: this ssh key runs only the agent, and was asked to run "
		"\"%.200s\": "
		"a host's setup or teardown needs a \"shell\" with another key\n",
		o);
	return true;
}

int
cmd_agent(int argc, char **argv)
{
	struct srv s = {.out = dup(1), .out_lock = PTHREAD_MUTEX_INITIALIZER};
	struct fws_wire_rd rd = {.fd = 0};
	const char *why;
	int rc = 0;

	if (app_help(argc, argv) || argc > 1) {
		usage_agent(argc > 1 && !app_help(argc, argv) ? stderr : stdout);
		return app_help(argc, argv) ? EXIT_OK : EXIT_USAGE;
	}
	if (asked_other())
		return EXIT_USAGE;
	if (isatty(0)) /* a person, not a controller: say what this is and what to run */
		fprintf(stderr,
			"fwstress agent %s: waiting for a controller's JSON requests on standard "
			"input (Ctrl-D ends it). A controller starts this over ssh itself: from "
			"the controller, fwstress hosts check CONFIG reaches it as a run would and "
			"says what is wrong.\n",
			FWS_VERSION);
	dup2(2, 1); /* anything printed goes to stderr, never into the control stream */
	signal(SIGPIPE, SIG_IGN); /* a closed stream is an error to write, then it stops */
	s.rd = &rd;
	beat_start(&s);
	why = serve(&s, &rd, &rc);
	if (!s.bye)
		fprintf(stderr, "fwstress agent: control stream: %s: stopping\n",
			rc < 0 ? strerror(-rc) : why);
	beat_stop(&s);
	if (s.a && s.running)
		s.a->ops->stop(s.a, false);
	if (s.a)
		s.a->ops->destroy(s.a);
	fws_config_free(s.cfg);
	fws_wire_rd_free(&rd);
	if (s.eal)
		rte_eal_cleanup();
	return s.bye ? EXIT_OK : fws_err_exit_code(FWS_ERR_FAULT);
}
