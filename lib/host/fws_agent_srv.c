/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The agent's server (fws_agent_srv.h): one table of operations, each checking its fields
 * before the seam sees them (the connection test's in fws_agent_srv_conn.c); the heartbeat
 * thread; the loop that serves requests, polls the ports between them and stops the workers
 * when the controller falls silent.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_version.h>

#include "fws_feat.h"
#include "fws_agent_ops.h"
#include "fws_agent_srv.h"
#include "fws_agent_srv_int.h"
#include "fws_conntester.h"
#include "fws_agent_local.h"
#include "fws_host.h"

typedef int (*op_fn)(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e);

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

/* Set up: 0; else -EINVAL with e "not set up" (every op but hello, setup and bye: read_args). */
static int
srv_need_agent(struct fws_agent_srv *s, struct fws_err *e)
{
	return s->a ? 0 : fws_err_set(e, FWS_ERR_SETUP, -EINVAL, "not set up");
}

static int
op_hello(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	struct fws_host_info me;
	struct fws_fd_layout fd = {0};
	char layout[FWS_WIRE_LAYOUT_LEN];

	(void)s;
	(void)req;
	(void)e;
	fws_agent_info_self(&me);
	json_object_set_new(ans, "hostname", json_string(me.hostname));
	json_object_set_new(ans, "kernel", json_string(me.kernel));
	fws_feat_layout(&fd); /* as its host's counts will hold them */
	fws_wire_layout(layout, sizeof(layout), &fd);
	json_object_set_new(ans, "proto", json_pack("[i,i]", FWS_WIRE_MAJOR, FWS_WIRE_MINOR));
	json_object_set_new(ans, "fwstress", json_string(FWS_VERSION));
	json_object_set_new(ans, "dpdk", json_string(rte_version()));
	json_object_set_new(ans, "layout", json_string(layout));
	return 0;
}

/* The config as the controller normalised it, parsed here as a config file is: its host
 * index and its counts must agree with the controller's. */
static int
setup_config(struct fws_agent_srv *s, const json_t *req, unsigned int *host, struct fws_err *e)
{
	long long h = SRV_INT(s, setup_host), np = SRV_INT(s, setup_n_ports),
		  ns = SRV_INT(s, setup_n_streams);
	char *txt, err[FWS_ERR_LEN];
	unsigned int k;

	(void)req;
	if ((txt = json_dumps(SRV_JSON(s, setup_config), JSON_COMPACT)) == NULL)
		return fws_err_set(e, FWS_ERR_CONFIG, -ENOMEM, "setup: %s", strerror(ENOMEM));
	s->cfg = fws_config_parse(txt, strlen(txt), err, sizeof(err));
	free(txt);
	if (s->cfg == NULL)
		return fws_err_set(e, FWS_ERR_CONFIG, -EINVAL, "%s", err);
	if ((unsigned int)h > s->cfg->n_hosts)
		return fws_err_set(e, FWS_ERR_CONFIG, -EINVAL, "host %u: not in the config",
				   (unsigned int)h);
	if (np != s->cfg->n_ports || ns != s->cfg->n_streams)
		return fws_err_set(e, FWS_ERR_CONFIG, -EINVAL,
				   "the config parsed here has %u ports and %u streams, the "
				   "controller's %d and %d",
				   s->cfg->n_ports, s->cfg->n_streams, (int)np, (int)ns);
	*host = (unsigned int)h;
	for (k = 0; k < s->cfg->n_streams; k++)
		s->flows[k] = s->cfg->streams[k].flows.count;
	return 0;
}

static int
op_setup(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	unsigned int host;
	uint64_t hz, hz_dpdk;

	if (s->cfg)
		return fws_err_set(e, FWS_ERR_SETUP, -EALREADY, "set up already");
	if (setup_config(s, req, &host, e) < 0) {
		fws_config_free(s->cfg);
		s->cfg = NULL;
		return -EINVAL;
	}
	if (s->env.eal_start(s->cfg) < 0)
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL,
				   "EAL init failed (hugepages reserved, ports bound?)");
	s->eal = true;
	if ((s->a = s->env.part(s->cfg, host, e)) == NULL)
		return -EINVAL;
	s->a->ops->clock(s->a, &hz, &hz_dpdk);
	json_object_set_new(ans, "hz", json_integer((json_int_t)hz));
	json_object_set_new(ans, "hz_dpdk", json_integer((json_int_t)hz_dpdk));
	return 0;
}

/* The answer's attachment: a copy of n bytes at p, sent after its line. */
int
srv_blob(struct fws_agent_srv *s, const void *p, size_t n)
{
	free(s->att);
	if ((s->att = malloc(n ? n : 1)) == NULL)
		return -ENOMEM;
	memcpy(s->att, p, n);
	s->att_len = n;
	return 0;
}

static int
op_ports(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	struct fws_port_result p[FWS_CFG_MAX_PORTS];

	(void)ans;
	(void)req;
	(void)e;
	memset(p, 0, sizeof(p));
	s->a->ops->ports(s->a, p);
	return srv_blob(s, p, sizeof(p));
}

/* First in its answer: the controller times the exchange around this reading. */
static int
op_tsc(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	(void)req;
	(void)e;
	return json_object_set_new(ans, "tsc", json_integer((json_int_t)s->a->ops->tsc(s->a)));
}

/* The clock under PTP: ptp4l's socket on this host is the controller's word (an absolute
 * path a unix socket can have, for pmc; nothing else runs), the answer one fws_ptp_point. */
static int
op_ptp(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	struct fws_ptp_point p;

	(void)req;
	(void)ans;
	_Static_assert(FWS_AGENT_PATH_MAX == sizeof(((struct sockaddr_un *)NULL)->sun_path),
		       "a unix socket's path");
	if (s->a->ops->ptp(s->a, SRV_STR(s, ptp_socket), (unsigned int)SRV_INT(s, ptp_domain), &p,
			   e) < 0)
		return -EINVAL;
	return srv_blob(s, &p, sizeof(p));
}

static int
op_hugepage_peak(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	(void)req;
	(void)e;
	return json_object_set_new(ans, "bytes",
				   json_integer((json_int_t)s->a->ops->hugepage_peak(s->a)));
}

static int
op_prepare(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	static volatile int never;

	(void)req;
	(void)ans;
	return s->a->ops->prepare(s->a, (enum fws_prep_stage)SRV_INT(s, prepare_stage),
				  (uint32_t)SRV_INT(s, prepare_mask), &never, e);
}

static int
op_arm(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	struct fws_agent_plan p;

	(void)ans;
	(void)req;
	if (fws_wire_unblob(SRV_JSON(s, arm_b), &p, sizeof(p)) < 0)
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL, "arm: a plan that does not fit");
	if (fws_agent_plan_check(s->cfg, &p, e) < 0)
		return -EINVAL;
	return s->a->ops->arm(s->a, &p, e);
}

static int
op_launch(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	int rc;

	(void)req;
	(void)ans;
	rc = s->a->ops->launch(s->a, (enum fws_phase)SRV_INT(s, launch_phase), e);
	s->running = rc == 0;
	s->next_live = mono_ms() + LIVE_MS;
	return rc;
}

/* The phase at an instant of this host's clock ("at", 0: at once); the answer says how late
 * the request came. */
static int
op_phase(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	(void)req;
	(void)e;
	return json_object_set_new(
		ans, "late_ns",
		json_real(s->a->ops->phase(s->a, (enum fws_phase)SRV_INT(s, phase_phase),
					   (uint64_t)SRV_INT(s, phase_at))));
}

static int
op_poll(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	struct fws_agent_poll p;

	(void)ans;
	(void)req;
	(void)e;
	s->a->ops->poll(s->a, &p);
	return srv_blob(s, &p, sizeof(p));
}

static int
op_live(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	struct fws_agent_live l;

	(void)req;
	(void)ans;
	(void)e;
	s->a->ops->live(s->a, SRV_BOOL(s, live_warm), &l);
	return srv_blob(s, &l, sizeof(l));
}

static int
op_stop(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	(void)req;
	(void)ans;
	(void)e;
	if (s->running)
		s->a->ops->stop(s->a, SRV_BOOL(s, stop_measured));
	s->running = false;
	return 0;
}

/* A blob-sized answer from the heap: counts are large. */
static int
op_collect(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	struct fws_agent_counts *c;
	int rc;

	(void)ans;
	(void)req;
	(void)e;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return -ENOMEM;
	s->a->ops->collect(s->a, c);
	rc = srv_blob(s, c, sizeof(*c));
	free(c);
	return rc;
}

static int
op_after(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	struct fws_agent_counts *c;
	bool keep = SRV_BOOL(s, after_keep);
	int rc;

	(void)req;
	(void)ans;
	(void)e;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return -ENOMEM;
	if (s->running) /* after a trial: one still running ends first */
		s->a->ops->stop(s->a, false);
	s->running = false;
	s->a->ops->after(s->a, keep ? c : NULL);
	rc = srv_blob(s, c, sizeof(*c));
	free(c);
	return rc;
}

/* A range of a stream's flows [lo, lo + n) (the fields s, lo and n from first on, each in
 * range already): within the stream's flows. */
static int
flow_range(struct fws_agent_srv *s, enum fws_agent_arg first, const char *op, unsigned int *st,
	   uint32_t *lo, uint32_t *n, struct fws_err *e)
{
	long long x = s->args.i[first], l = s->args.i[first + 1], k = s->args.i[first + 2];

	if (k > (json_int_t)s->cfg->streams[x].flows.count - l)
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL,
				   "%s: flows %lld to %lld of stream %lld: it has %u", op,
				   (long long)l, (long long)(l + k - 1), (long long)x,
				   s->cfg->streams[x].flows.count);
	*st = (unsigned int)x;
	*lo = (uint32_t)l;
	*n = (uint32_t)k;
	return 0;
}

static int
op_rx_flows(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	static struct fws_agent_rxflow f[FWS_AGENT_CHUNK];
	unsigned int st = 0;
	uint32_t lo = 0, n = 0;

	(void)req;
	(void)ans;
	if (flow_range(s, FWS_ARG_rx_flows_s, "rx_flows", &st, &lo, &n, e) < 0)
		return -EINVAL;
	s->a->ops->rx_flows(s->a, st, lo, n, f);
	return srv_blob(s, f, sizeof(f[0]) * n);
}

static int
op_tx_flows(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	static struct fws_agent_txflow f[FWS_AGENT_CHUNK];
	unsigned int st = 0;
	uint32_t lo = 0, n = 0;

	(void)req;
	(void)ans;
	if (flow_range(s, FWS_ARG_tx_flows_s, "tx_flows", &st, &lo, &n, e) < 0)
		return -EINVAL;
	s->a->ops->tx_flows(s->a, st, lo, n, f);
	return srv_blob(s, f, sizeof(f[0]) * n);
}

static int
op_aim(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	static struct fws_nat_tuple at[FWS_AGENT_CHUNK];
	unsigned int st = 0;
	uint32_t lo = 0, n = 0;

	(void)req;
	(void)ans;
	if (flow_range(s, FWS_ARG_aim_s, "aim", &st, &lo, &n, e) < 0)
		return -EINVAL;
	if (fws_wire_unblob(SRV_JSON(s, aim_b), at, sizeof(at[0]) * n) < 0)
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL, "aim: tuples that do not fit");
	return s->a->ops->aim(s->a, st, lo, n, at);
}

static int
op_retire(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	(void)req;
	(void)ans;
	(void)e;
	s->a->ops->retire(s->a);
	return 0;
}

static int
op_bye(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	(void)req;
	(void)ans;
	(void)e;
	s->bye = true;
	return 0;
}

/* One handler per line of the protocol's table (fws_agent_ops.h). */
static const op_fn ops[] = {
#define OP(kind, n, ...) OP_##kind(n)
#define OP_CALL(n) [FWS_OP_##n] = op_##n,
#define OP_WIRE OP_CALL
#define OP_LOCAL(n)
	FWS_AGENT_OPS(OP)
#undef OP
};

/* The request's fields, every one checked against the protocol's table (its limits the
 * config's, once set up). */
static int
read_args(struct fws_agent_srv *s, enum fws_agent_op op, const json_t *req, struct fws_err *e)
{
	struct fws_agent_limits lim = {s->cfg ? s->cfg->n_streams : 0, s->flows};

	memset(&s->args, 0, sizeof(s->args));
	/* before setup only hello, setup and bye are served: the rest is "not set up" first */
	if (s->a == NULL && op != FWS_OP_hello && op != FWS_OP_setup && op != FWS_OP_bye)
		return srv_need_agent(s, e);
	return fws_agent_args_read(op, req, s->cfg ? &lim : NULL, &s->args, e);
}

int
fws_agent_srv_answer(struct fws_agent_srv *s, const json_t *req)
{
	const char *op = json_string_value(json_object_get(req, "op"));
	int k = fws_agent_op_of(op);
	json_t *ans = json_object();
	struct fws_err e = {0};
	int rc = -ENOSYS;

	json_object_set(ans, "id", json_object_get(req, "id"));
	if (k < 0)
		fws_err_set(&e, FWS_ERR_SETUP, rc, "unknown operation \"%.40s\"", op ? op : "");
	else if (fws_agent_op_stopped((enum fws_agent_op)k) && s->running)
		rc = fws_err_set(&e, FWS_ERR_SETUP, -EBUSY, "%s: the workers run (stop them first)",
				 op);
	else if ((rc = read_args(s, (enum fws_agent_op)k, req, &e)) == 0)
		rc = ops[k](s, req, ans, &e);
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
 * that the controller tells a slow agent from a cut link in seconds (skipped, never queued,
 * while the controller does not read: between trials). While a long operation runs, a line
 * from the controller (its stop) or the stream's end interrupts it.
 */
static size_t
beat_line(void *arg, char *buf, size_t len, int *fd)
{
	struct fws_agent_srv *s = arg;
	int n;

	if (s->busy && (s->rd->len > 0 ||
			poll(&(struct pollfd){.fd = s->rd->fd, .events = POLLIN}, 1, 0) == 1))
		s->interrupt = 1;
	n = snprintf(buf, len, "{\"ev\": \"beat\", \"n\": %lu}\n", ++s->beats);
	*fd = s->out;
	return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

static void
beat_start(struct fws_agent_srv *s)
{
	int rc;

	s->beat = (struct fws_wire_ticker){
		.period_ms = FWS_AGENT_BEAT_MS, .lock = &s->out_lock, .line = beat_line, .arg = s};
	if ((rc = fws_wire_ticker_start(&s->beat)) < 0) /* pthread_create leaves errno alone */
		fprintf(stderr, "fwstress agent: no heartbeat thread: %s\n", strerror(-rc));
}

/* Set up, its workers stopped: its ports polled this often while it waits for a request
 * (TCP connections whose other end is on another host open and close meanwhile). */
#define IDLE_MS 1
#define STOP_LOOK_MS 100 /* waiting for a first request: how often a stop signal is looked for */

/* Between requests: the ports polled (ARP, ND, the far end's TCP segments), or a pass of
 * the connection engine while its servers answer another host's clients. */
static void
idle(struct fws_agent_srv *s)
{
	s->serving = s->env.idle ? s->env.idle(s->a) : false;
}

/* The live counts as an event (a line, then the counts as its attachment); skipped, as a
 * heartbeat is, when the stream has no room: the dead man must never wait on a write. */
static void
send_live(struct fws_agent_srv *s)
{
	struct fws_agent_live l;
	json_t *ev;

	if (s->env.live == NULL)
		return;
	s->env.live(s->a, &l);
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
wait_ms(const struct fws_agent_srv *s, int64_t last_req, int64_t now)
{
	int64_t until = RTE_MIN(last_req + FWS_AGENT_DEADMAN_MS, s->next_live);

	if (s->running)
		return until > now ? (int)(until - now) : 0;
	if (s->serving || s->a)
		return s->serving ? 0 : IDLE_MS;
	return s->env.stop ? STOP_LOOK_MS : -1; /* a signal does not end the stream's poll */
}

static bool
stopped(const struct fws_agent_srv *s)
{
	return s->env.stop && *s->env.stop;
}

/* Set up and idle: how long it waits for a line (a request, the controller's ping) before
 * it takes the controller for gone. FWS_TEST_AGENT_IDLE_MS shortens it for a test. */
static int64_t
idle_deadman_ms(void)
{
	const char *t = getenv("FWS_TEST_AGENT_IDLE_MS");
	long v = t ? strtol(t, NULL, 10) : 0;

	return v > 0 && v < FWS_AGENT_IDLE_MS ? v : FWS_AGENT_IDLE_MS;
}

static const char *
serve(struct fws_agent_srv *s, struct fws_wire_rd *rd, int *rc)
{
	int64_t last_req = mono_ms(), now, idle_max = idle_deadman_ms();
	const char *why = "end of stream";
	json_t *req;

	while (!s->bye && *rc == 0) {
		if (stopped(s))
			return "interrupted by a signal (Ctrl-C, TERM or HUP)";
		now = mono_ms();
		if (s->running && now - last_req >= FWS_AGENT_DEADMAN_MS)
			return "no request in " RTE_STR(FWS_AGENT_DEADMAN_MS) " ms while sending "
									      "(dead man)";
		if (s->a && !s->running && now - last_req >= idle_max)
			return "no word from the controller while set up (idle dead man: its ping "
			       "comes every " RTE_STR(FWS_CTL_PING_MS) " ms)";
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
		if (json_object_get(req, "id")) /* else a ping, or a stop come late */
			*rc = fws_agent_srv_answer(s, req);
		json_decref(req);
		last_req = mono_ms(); /* after its answer: a long operation is no silence */
	}
	return why;
}

const char *
fws_agent_srv_serve(struct fws_agent_srv *s, struct fws_wire_rd *rd, int *rc)
{
	const char *why;

	s->rd = rd;
	beat_start(s);
	why = serve(s, rd, rc);
	fws_wire_ticker_stop(&s->beat);
	return why;
}

struct fws_agent_srv *
fws_agent_srv_new(int out, const struct fws_agent_srv_env *env)
{
	struct fws_agent_srv *s = calloc(1, sizeof(*s));

	if (s == NULL)
		return NULL;
	s->out = out;
	pthread_mutex_init(&s->out_lock, NULL);
	s->env = *env;
	return s;
}

bool
fws_agent_srv_bye(const struct fws_agent_srv *s)
{
	return s->bye;
}

void
fws_agent_srv_free(struct fws_agent_srv *s)
{
	if (s == NULL)
		return;
	if (s->a && s->running)
		s->a->ops->stop(s->a, false);
	if (s->a)
		s->a->ops->destroy(s->a);
	fws_config_free(s->cfg);
	if (s->eal && s->env.eal_stop)
		s->env.eal_stop();
	free(s->att);
	pthread_mutex_destroy(&s->out_lock);
	free(s);
}
