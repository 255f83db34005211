/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The remote agent: the seam's operations (fws_agent.h) carried over a control stream
 * (fws_wire.h, held by fws_remote_stream.c) to a fwstress agent on another load client,
 * started by the host's command (ssh by default). The controller never listens. An agent
 * that is lost (fws_remote_int.h) makes every later operation a no-op, and the phase machine
 * ends the trial (fws_agent_lost).
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fws_compat.h"
#include "fws_conntest.h"
#include "fws_agent_remote.h"
#include "fws_remote_int.h"
#include "fws_text.h"

#define ANSWER_MS 10000 /* an answer to a trial's operation */
/* An answer while the workers run: poll, live, phase. The other agents hear the pings
 * meanwhile (their dead man is for a gone controller); a cut link is lost sooner, to the
 * silence of its heartbeat. */
#define PULSE_MS 4000
#define START_MS 30000  /* hello: the command started, ssh connected, the agent answers */
#define SETUP_MS 120000 /* EAL, ports, gateways */

/* A request of op from its fields, as the protocol's table types them (fws_agent_ops.h):
 * REQ(prepare, .i[FWS_ARG_prepare_stage] = st, ...). */
#define REQ(op, ...) fws_agent_args_pack(FWS_OP_##op, &(struct fws_agent_args){__VA_ARGS__})

static struct remote *
R(struct fws_agent *a)
{
	return (struct remote *)a;
}

static void
call_blob(struct remote *r, enum fws_agent_op op, json_t *args, void *out, size_t n)
{
	fws_remote_call_blob_in(r, op, args, out, n, ANSWER_MS);
}

static unsigned int
remote_ports(struct fws_agent *a, struct fws_port_result *out)
{
	struct fws_port_result all[FWS_CFG_MAX_PORTS];
	unsigned int p;

	call_blob(R(a), FWS_OP_ports, NULL, all, sizeof(all));
	for (p = 0; p < R(a)->n_ports; p++)
		out[p] = all[p];
	return R(a)
		->n_ports; /* by config index, as the in-process agent: the caller picks its own */
}

static void
remote_clock(struct fws_agent *a, uint64_t *hz, uint64_t *hz_dpdk)
{
	*hz = R(a)->hz;
	*hz_dpdk = R(a)->hz_dpdk;
}

static uint64_t
remote_tsc(struct fws_agent *a)
{
	json_t *ans = fws_remote_call(R(a), FWS_OP_tsc, NULL, ANSWER_MS);
	uint64_t v = ans ? (uint64_t)R(a)->ans.i[FWS_ANS_tsc_tsc] : 0;

	json_decref(ans);
	return v;
}

static int
remote_ptp(struct fws_agent *a, const char *socket, unsigned int domain, struct fws_ptp_point *out,
	   struct fws_err *e)
{
	struct remote *r = R(a);
	json_t *ans = fws_remote_call(
		r, FWS_OP_ptp,
		REQ(ptp, .s[FWS_ARG_ptp_socket] = socket, .i[FWS_ARG_ptp_domain] = domain),
		SETUP_MS);

	memset(out, 0, sizeof(*out));
	if (ans && json_integer_value(json_object_get(ans, "rc")) == 0) {
		if (r->rd.bin_len != sizeof(*out) || r->rd.bin == NULL) {
			json_decref(ans);
			fws_remote_lose(r, "an answer whose clock does not fit");
			return fws_remote_answer_rc(r, NULL, e);
		}
		memcpy(out, r->rd.bin, sizeof(*out));
		out->st.gm[sizeof(out->st.gm) - 1] = '\0'; /* names printed and compared */
		out->st.identity[sizeof(out->st.identity) - 1] = '\0';
		out->st.port_state[sizeof(out->st.port_state) - 1] = '\0';
	}
	return fws_remote_answer_rc(r, ans, e);
}

static uint64_t
remote_hugepage_peak(struct fws_agent *a)
{
	json_t *ans = fws_remote_call(R(a), FWS_OP_hugepage_peak, NULL, ANSWER_MS);

	if (ans)
		R(a)->huge_peak = (uint64_t)R(a)->ans.i[FWS_ANS_hugepage_peak_bytes];
	json_decref(ans);
	return R(a)->huge_peak;
}

static int
remote_prepare(struct fws_agent *a, enum fws_prep_stage st, uint32_t mask, volatile int *stop,
	       struct fws_err *e)
{
	(void)stop;
	return fws_remote_answer_rc(R(a),
				    fws_remote_call(R(a), FWS_OP_prepare,
						    REQ(prepare, .i[FWS_ARG_prepare_stage] = st,
							.i[FWS_ARG_prepare_mask] = mask),
						    SETUP_MS),
				    e);
}

static int
remote_arm(struct fws_agent *a, const struct fws_agent_plan *p, struct fws_err *e)
{
	R(a)->live_at = 0; /* the last trial's counts are no longer live */
	return fws_remote_answer_rc(
		R(a),
		fws_remote_call(R(a), FWS_OP_arm,
				REQ(arm, .j[FWS_ARG_arm_b] = fws_wire_blob(p, sizeof(*p))),
				ANSWER_MS),
		e);
}

static int
remote_launch(struct fws_agent *a, enum fws_phase ph, struct fws_err *e)
{
	return fws_remote_answer_rc(R(a),
				    fws_remote_call(R(a), FWS_OP_launch,
						    REQ(launch, .i[FWS_ARG_launch_phase] = ph),
						    ANSWER_MS),
				    e);
}

static double
remote_phase(struct fws_agent *a, enum fws_phase ph, uint64_t at)
{
	json_t *ans = fws_remote_call(
		R(a), FWS_OP_phase,
		REQ(phase, .i[FWS_ARG_phase_phase] = ph, .i[FWS_ARG_phase_at] = (long long)at),
		PULSE_MS);
	double late = ans ? R(a)->ans.f[FWS_ANS_phase_late_ns] : 0;

	json_decref(ans);
	return late;
}

static void
remote_poll(struct fws_agent *a, struct fws_agent_poll *out)
{
	fws_remote_call_blob_in(R(a), FWS_OP_poll, NULL, out, sizeof(*out), PULSE_MS);
}

/* Its live counts: as its last event (each second while it sends) brought them, or asked for
 * when that one is older than two seconds or of the other phase. */
static void
remote_live(struct fws_agent *a, bool warm, struct fws_agent_live *out)
{
	struct remote *r = R(a);

	if (r->live_at && r->live.warm == warm && fws_remote_now_ms() - r->live_at < 2000) {
		*out = r->live;
		return;
	}
	fws_remote_call_blob_in(r, FWS_OP_live, REQ(live, .b[FWS_ARG_live_warm] = warm), out,
				sizeof(*out), PULSE_MS);
}

static void
remote_stop(struct fws_agent *a, bool measured)
{
	json_decref(fws_remote_call(R(a), FWS_OP_stop,
				    REQ(stop, .b[FWS_ARG_stop_measured] = measured), ANSWER_MS));
}

static void
remote_collect(struct fws_agent *a, struct fws_agent_counts *out)
{
	call_blob(R(a), FWS_OP_collect, NULL, out, sizeof(*out));
}

/* A range of stream s's flows for op, whose fields s, lo, n are first on (and its blob b,
 * NULL: none, after them). */
static json_t *
range(enum fws_agent_op op, enum fws_agent_arg first, unsigned int s, uint32_t lo, uint32_t n,
      json_t *b)
{
	struct fws_agent_args x = {0};

	x.i[first] = s;
	x.i[first + 1] = lo;
	x.i[first + 2] = n;
	if (b)
		x.j[first + 3] = b;
	return fws_agent_args_pack(op, &x);
}

static void
remote_rx_flows(struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n,
		struct fws_agent_rxflow *out)
{
	call_blob(R(a), FWS_OP_rx_flows, range(FWS_OP_rx_flows, FWS_ARG_rx_flows_s, s, lo, n, NULL),
		  out, sizeof(*out) * n);
}

static void
remote_tx_flows(struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n,
		struct fws_agent_txflow *out)
{
	call_blob(R(a), FWS_OP_tx_flows, range(FWS_OP_tx_flows, FWS_ARG_tx_flows_s, s, lo, n, NULL),
		  out, sizeof(*out) * n);
}

static int
remote_aim(struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n,
	   const struct fws_nat_tuple *at)
{
	json_t *args =
		range(FWS_OP_aim, FWS_ARG_aim_s, s, lo, n, fws_wire_blob(at, sizeof(*at) * n));

	return fws_remote_answer_rc(R(a), fws_remote_call(R(a), FWS_OP_aim, args, ANSWER_MS), NULL);
}

static void
remote_after(struct fws_agent *a, struct fws_agent_counts *out)
{
	struct fws_agent_counts *c = out ? NULL : malloc(sizeof(*c));

	call_blob(R(a), FWS_OP_after, REQ(after, .b[FWS_ARG_after_keep] = out != NULL),
		  out ? out : c, sizeof(*c));
	free(c);
}

static void
remote_retire(struct fws_agent *a)
{
	json_decref(fws_remote_call(R(a), FWS_OP_retire, NULL, ANSWER_MS));
}

/* The iteration's counts: the trial, then its two per-second series. */
static int
conn_counts(struct remote *r, json_t *ans, struct fws_conntrial *out, struct fws_err *e)
{
	long long ne = r->ans.i[FWS_ANS_conn_trial_n_est],
		  nc = r->ans.i[FWS_ANS_conn_trial_n_closed];
	size_t fixed = sizeof(*out);
	const uint8_t *b = r->rd.bin;

	if (ans == NULL || json_integer_value(json_object_get(ans, "rc")) < 0)
		return fws_remote_answer_rc(r, ans, e);
	if (b == NULL || r->rd.bin_len != fixed + 8 * (size_t)(ne + nc)) { /* ne, nc checked */
		json_decref(ans);
		fws_remote_lose(r, "an answer whose counts do not fit");
		return fws_remote_answer_rc(r, NULL, e);
	}
	memcpy(out, b, fixed);
	out->st.est_per_s = (struct fws_conn_series){.n = (uint32_t)ne, .cap = (uint32_t)ne};
	out->st.closed_per_s = (struct fws_conn_series){.n = (uint32_t)nc, .cap = (uint32_t)nc};
	out->st.est_per_s.v = ne ? malloc(8 * (size_t)ne) : NULL;
	out->st.closed_per_s.v = nc ? malloc(8 * (size_t)nc) : NULL;
	if ((ne && out->st.est_per_s.v == NULL) || (nc && out->st.closed_per_s.v == NULL)) {
		free(out->st.est_per_s.v);
		free(out->st.closed_per_s.v);
		memset(&out->st.est_per_s, 0, sizeof(out->st.est_per_s));
		memset(&out->st.closed_per_s, 0, sizeof(out->st.closed_per_s));
		json_decref(ans);
		return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "collect: out of memory");
	}
	if (ne)
		memcpy(out->st.est_per_s.v, b + fixed, 8 * (size_t)ne);
	if (nc)
		memcpy(out->st.closed_per_s.v, b + fixed + 8 * (size_t)ne, 8 * (size_t)nc);
	json_decref(ans);
	return 0;
}

static int
remote_conn_trial(struct fws_agent *a, double rate, uint32_t nonce, bool progress,
		  const struct fws_conntester_hooks *hk, volatile int *stop,
		  struct fws_conntrial *out, struct fws_err *e)
{
	struct fws_conntrial marks = {0}; /* what the hooks wrote at the end of the phase */
	json_t *ans = fws_remote_call_long(R(a), FWS_OP_conn_trial,
					   REQ(conn_trial, .f[FWS_ARG_conn_trial_rate] = rate,
					       .i[FWS_ARG_conn_trial_nonce] = nonce,
					       .b[FWS_ARG_conn_trial_progress] = progress),
					   hk, &marks, stop);
	int rc = conn_counts(R(a), ans, out, e);

	if (rc == 0) {
		out->dut_probed = marks.dut_probed;
		out->dut = marks.dut;
	}
	return rc;
}

static int
remote_conn_between(struct fws_agent *a, volatile int *stop, struct fws_err *e)
{
	return fws_remote_answer_rc(
		R(a), fws_remote_call_long(R(a), FWS_OP_conn_between, NULL, NULL, NULL, stop), e);
}

static int
remote_conn_serve(struct fws_agent *a, uint32_t nonce, struct fws_err *e)
{
	return fws_remote_answer_rc(
		R(a),
		fws_remote_call(R(a), FWS_OP_conn_serve,
				REQ(conn_serve, .i[FWS_ARG_conn_serve_nonce] = nonce), ANSWER_MS),
		e);
}

static const char *
remote_lost(struct fws_agent *a)
{
	return fws_remote_lost(R(a));
}

static void
remote_destroy(struct fws_agent *a)
{
	struct remote *r = R(a);
	bool itself;

	if (r->setup_pending && !r->lost)
		json_decref(fws_remote_await(r, FWS_OP_setup, SETUP_MS));
	if (!r->lost)
		json_decref(fws_remote_call(r, FWS_OP_bye, NULL, ANSWER_MS));
	fws_remote_ping_stop(r);
	fws_remote_leave(r);
	if (r->to >= 0)
		close(r->to); /* its stdin ends: it stops and releases its ports */
	fws_remote_reap(r, 5000, &itself);
	pthread_mutex_destroy(&r->wlock);
	if (r->err >= 0)
		close(r->err);
	close(r->from);
	fws_wire_rd_free(&r->rd);
	free(r);
}

static const struct fws_agent_ops remote_ops = {
	.name = "remote",
	.ports = remote_ports,
	.clock = remote_clock,
	.tsc = remote_tsc,
	.ptp = remote_ptp,
	.hugepage_peak = remote_hugepage_peak,
	.prepare = remote_prepare,
	.arm = remote_arm,
	.launch = remote_launch,
	.phase = remote_phase,
	.poll = remote_poll,
	.live = remote_live,
	.stop = remote_stop,
	.collect = remote_collect,
	.rx_flows = remote_rx_flows,
	.tx_flows = remote_tx_flows,
	.aim = remote_aim,
	.after = remote_after,
	.retire = remote_retire,
	.conn_trial = remote_conn_trial,
	.conn_between = remote_conn_between,
	.conn_serve = remote_conn_serve,
	.lost = remote_lost,
	.destroy = remote_destroy,
};

/* Start the host's command with its stdin, stdout and stderr on pipes. */
static int
spawn(struct remote *r, const struct fws_cfg_host *h)
{
	int in[2], out[2], err[2];

	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0)
		return -errno;
	r->pid = fork();
	if (r->pid < 0)
		return -errno;
	if (r->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		setpgid(0, 0); /* a Ctrl-C is the controller's: it stops the agent itself */
		execvp(h->argv[0], h->argv);
		fprintf(stderr, "cannot run %s: %s\n", h->argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(r->pid, r->pid); /* as the child does: its group is there for kill(-pid) at once */
	close(in[0]);
	close(out[1]);
	close(err[1]);
	r->to = in[1];
	r->from = out[0];
	r->err = err[0];
	fcntl(r->err, F_SETFL, fcntl(r->err, F_GETFL) | O_NONBLOCK); /* read what is there */
	r->rd.fd = r->from;
	signal(SIGPIPE, SIG_IGN); /* a closed stream is an error to read, not a death */
	return 0;
}

/* A string of the agent's hello: safe for the terminal and the report (fws_text_safe). */
static void
copy_str(char *dst, size_t n, const json_t *v)
{
	fws_text_safe(dst, n, json_is_string(v) ? json_string_value(v) : "?",
		      json_is_string(v) ? json_string_length(v) : 1);
}

/* Who answered hello, for the report ("?" where it did not say). */
static void
hello_info(struct remote *r, const json_t *ans)
{
	struct fws_host_info *in = &r->a.info;
	const json_t *pr = json_object_get(ans, "proto");

	copy_str(in->hostname, sizeof(in->hostname), json_object_get(ans, "hostname"));
	copy_str(in->kernel, sizeof(in->kernel), json_object_get(ans, "kernel"));
	copy_str(in->fwstress, sizeof(in->fwstress), json_object_get(ans, "fwstress"));
	copy_str(in->dpdk, sizeof(in->dpdk), json_object_get(ans, "dpdk"));
	in->proto[0] = (int)json_integer_value(json_array_get(pr, 0));
	in->proto[1] = (int)json_integer_value(json_array_get(pr, 1));
}

/* The command that reaches host h, as one line: its arguments joined by spaces. */
static void
via(const struct fws_cfg_host *h, char *out, size_t n)
{
	unsigned int i;

	out[0] = '\0';
	for (i = 0; i < h->n_argv; i++) {
		if (i)
			strlcat(out, " ", n);
		strlcat(out, h->argv[i], n);
	}
}

/* hello: the protocol's major version and the structures' layout must match. */
static int
hello(struct remote *r, struct fws_err *e)
{
	char layout[FWS_WIRE_LAYOUT_LEN];
	json_t *ans;
	const char *peer, *ver;
	int major;

	fws_wire_layout(layout, sizeof(layout), &r->fd);
	ans = fws_remote_call(
		r, FWS_OP_hello,
		REQ(hello,
		    .j[FWS_ARG_hello_proto] = json_pack("[i,i]", FWS_WIRE_MAJOR, FWS_WIRE_MINOR),
		    .j[FWS_ARG_hello_fwstress] = json_string(FWS_VERSION),
		    .j[FWS_ARG_hello_layout] = json_string(layout)),
		START_MS);
	if (ans == NULL && r->interrupted)
		return fws_err_set(e, FWS_ERR_INTERRUPTED, -EINTR, "%s", r->why);
	if (ans == NULL)
		return fws_err_set(e, FWS_ERR_SETUP, -EPIPE,
				   "%s (fwstress hosts check CONFIG tries the host's command)",
				   r->why);
	r->beating = true; /* it beats from its start: silence from now on is a cut link */
	if (json_object_get(ans, "op") || !json_is_integer(json_object_get(ans, "rc")) ||
	    !json_is_string(json_object_get(ans, "dpdk"))) { /* an echo, or not an agent */
		json_decref(ans);
		return fws_err_set(e, FWS_ERR_SETUP, -EPROTO,
				   "host %s: its command answered, but not as fwstress agent does "
				   "(check the host's command)",
				   r->a.name);
	}
	major = (int)json_integer_value(json_array_get(json_object_get(ans, "proto"), 0));
	peer = json_string_value(json_object_get(ans, "layout"));
	ver = json_string_value(json_object_get(ans, "fwstress"));
	if (major != FWS_WIRE_MAJOR || peer == NULL || strcmp(peer, layout) != 0) {
		char v[48]; /* its version from outside: safe, and short enough to keep the advice */

		fws_text_safe(v, sizeof(v), ver ? ver : "?", SIZE_MAX);
		fws_err_set(
			e, FWS_ERR_SETUP, -EPROTO,
			"host %s: its agent speaks protocol %d.%d of fwstress %s, this "
			"controller %d.%d of fwstress %s%s: install the same fwstress on both",
			r->a.name, major,
			(int)json_integer_value(json_array_get(json_object_get(ans, "proto"), 1)),
			v, FWS_WIRE_MAJOR, FWS_WIRE_MINOR, FWS_VERSION,
			major == FWS_WIRE_MAJOR ? " (another build)" : "");
		json_decref(ans);
		return -EPROTO;
	}
	hello_info(r, ans);
	json_decref(ans);
	return 0;
}

/* The config the agent sets up: this one, its EAL the host's, no files to read there. */
static json_t *
agent_config(const struct fws_cfg *cfg, const struct fws_cfg_host *h)
{
	json_t *j = fws_config_to_json(cfg), *st, *s;
	unsigned int i;
	size_t k;

	json_object_del(j, "blocklist"); /* the controller's verdict, not the agent's */
	json_object_del(j, "output");
	json_object_del(j, "dut");
	st = json_object_get(j, "streams");
	json_array_foreach(st, k, s)
	{
		const char *x = json_string_value(json_object_get(s, "expect"));

		if (x && strcmp(x, "blocklist") == 0)
			json_object_set_new(s, "expect", json_string("blocked"));
	}
	if (h->n_eal) {
		json_t *eal = json_array();

		for (i = 0; i < h->n_eal; i++)
			json_array_append_new(eal, json_string(h->eal[i]));
		json_object_set_new(j, "eal", eal);
	}
	return j;
}

/* Its setup is sent: EAL, ports and gateways there take their time while the controller
 * starts the other agents; fws_agent_remote_ready takes the answer. */
static int
send_setup(struct remote *r, const struct fws_cfg *cfg, unsigned int host, struct fws_err *e)
{
	if (fws_remote_send(
		    r, FWS_OP_setup,
		    REQ(setup, .j[FWS_ARG_setup_config] = agent_config(cfg, &cfg->hosts[host - 1]),
			.i[FWS_ARG_setup_host] = host, .i[FWS_ARG_setup_n_ports] = cfg->n_ports,
			.i[FWS_ARG_setup_n_streams] = cfg->n_streams)) < 0)
		return fws_err_set(e, FWS_ERR_SETUP, -EPIPE, "%s", r->why);
	r->setup_pending = true;
	return 0;
}

int
fws_agent_remote_ready(struct fws_agent *a, struct fws_err *e)
{
	struct remote *r;
	json_t *ans;

	if (a->ops != &remote_ops || !(r = R(a))->setup_pending)
		return 0;
	r->setup_pending = false;
	ans = fws_remote_await(r, FWS_OP_setup, SETUP_MS);
	r->starting = false;
	if (ans && json_integer_value(json_object_get(ans, "rc")) == 0) {
		r->hz = (uint64_t)r->ans.i[FWS_ANS_setup_hz];
		r->hz_dpdk = (uint64_t)r->ans.i[FWS_ANS_setup_hz_dpdk];
	}
	return fws_remote_answer_rc(r, ans, e);
}

struct fws_agent *
fws_agent_remote(const struct fws_cfg *cfg, unsigned int host, const struct fws_fd_layout *fd,
		 struct fws_err *e)
{
	struct remote *r = calloc(1, sizeof(*r));
	const struct fws_cfg_host *h = &cfg->hosts[host - 1];
	int rc;

	if (r == NULL) {
		fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
		return NULL;
	}
	if (fd)
		r->fd = *fd;
	r->a.ops = &remote_ops;
	r->to = r->from = r->err = -1;
	r->starting = true;
	pthread_mutex_init(&r->wlock, NULL);
	r->n_ports = cfg->n_ports;
	strlcpy(r->a.name, h->name, sizeof(r->a.name));
	via(h, r->a.info.via, sizeof(r->a.info.via));
	fws_agent_owns(&r->a, cfg, host);
	if ((rc = spawn(r, h)) < 0) {
		fws_err_set(e, FWS_ERR_SETUP, rc, "host %s: cannot start %s: %s", h->name,
			    h->argv[0], strerror(-rc));
		pthread_mutex_destroy(&r->wlock);
		free(r);
		return NULL;
	}
	fws_remote_ping_start(r);
	fws_remote_join(r);
	if (hello(r, e) < 0) {
		fws_remote_lose(r, "refused"); /* no bye to wait for: its stdin closed, ended */
		remote_destroy(&r->a);
		return NULL;
	}
	if (send_setup(r, cfg, host, e) < 0) {
		remote_destroy(&r->a);
		return NULL;
	}
	return &r->a;
}
