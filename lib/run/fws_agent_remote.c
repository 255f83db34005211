/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The remote agent: the seam's operations (fws_agent.h) carried over a control stream
 * (fws_wire.h) to a fwstress agent on another load client, started by the host's command
 * (ssh by default). The controller never listens. A stream that ends, an answer that does
 * not come, or an agent that refuses marks the agent lost: every later operation is a no-op
 * and the phase machine ends the trial (fws_agent_lost). Its stderr is passed on, each line
 * prefixed with the host's name, and its last lines kept for the message.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_version.h>

#include "fws_compat.h"
#include "fws_host.h"
#include "fws_wire.h"

#define ANSWER_MS 10000 /* an answer to a trial's operation */
#define PULSE_MS                                                                                   \
	2000            /* an answer while the workers run: poll, live, phase (agents stop
			 * by themselves after FWS_AGENT_DEADMAN_MS without a request) */
#define SETUP_MS 120000 /* EAL, ports, gateways */

struct remote {
	struct fws_agent a; /* first */
	pid_t pid;
	int to, from, err; /* its stdin, stdout, stderr */
	struct fws_wire_rd rd;
	uint64_t id;
	uint64_t hz, hz_dpdk, huge_peak;
	unsigned int n_ports; /* the config's */
	bool setup_pending;   /* its setup sent, the answer not yet read */
	bool lost;
	char why[FWS_ERR_LEN];
	char tail[512]; /* its stderr's last bytes */
	char errline[256];
	size_t errlen;
};

static struct remote *
R(struct fws_agent *a)
{
	return (struct remote *)a;
}

/* Its stderr: pass each line on, prefixed, keep the last ones. */
static void
drain_err(void *arg)
{
	struct remote *r = arg;
	char buf[4096];
	ssize_t n = read(r->err, buf, sizeof(buf));
	ssize_t i;

	if (n <= 0) {
		if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
			close(r->err);
			r->err = -1;
		}
		return;
	}
	for (i = 0; i < n; i++) {
		size_t t = strlen(r->tail);

		if (t + 1 >= sizeof(r->tail))
			memmove(r->tail, r->tail + sizeof(r->tail) / 2, sizeof(r->tail) / 2);
		t = strlen(r->tail);
		r->tail[t] = buf[i];
		r->tail[t + 1] = '\0';
		if (buf[i] != '\n' && r->errlen + 1 < sizeof(r->errline)) {
			r->errline[r->errlen++] = buf[i];
			continue;
		}
		r->errline[r->errlen] = '\0';
		if (buf[i] == '\n') {
			fprintf(stderr, "[%s] %s\n", r->a.name, r->errline);
			r->errlen = 0;
		}
	}
}

/* The last non-empty line of its stderr ("" if none). */
static const char *
last_err_line(struct remote *r, char *buf, size_t len)
{
	char *end = r->tail + strlen(r->tail), *start;

	while (end > r->tail && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	start = end;
	while (start > r->tail && start[-1] != '\n')
		start--;
	snprintf(buf, len, "%.*s", (int)(end - start), start);
	return buf;
}

/* Why the agent is gone: its exit status or signal and its last word. */
static void
lose(struct remote *r, const char *what)
{
	char line[256], st[64] = "";
	int status, i;

	if (r->lost)
		return;
	r->lost = true;
	close(r->to);
	r->to = -1;
	for (i = 0; i < 50 && r->pid > 0; i++) { /* it stops at the end of its stdin */
		if (waitpid(r->pid, &status, WNOHANG) == r->pid) {
			if (WIFEXITED(status))
				snprintf(st, sizeof(st), ", exit status %d", WEXITSTATUS(status));
			else if (WIFSIGNALED(status))
				snprintf(st, sizeof(st), ", killed by signal %d", WTERMSIG(status));
			r->pid = -1;
			break;
		}
		usleep(20000);
	}
	if (r->pid > 0) { /* silent, not gone (a dead link): its own dead man stops the far end */
		kill(r->pid, SIGKILL);
		waitpid(r->pid, &status, 0);
		r->pid = -1;
	}
	for (i = 0; r->err >= 0 && i < 10; i++)
		drain_err(r);
	last_err_line(r, line, sizeof(line));
	snprintf(r->why, sizeof(r->why), "host %s: agent lost: %s%s%s%s", r->a.name, what, st,
		 line[0] ? ": " : "", line);
}

/* Send a request (args is taken); 0, or -EPIPE with the agent lost. */
static int
send_req(struct remote *r, const char *op, json_t *args)
{
	json_t *req = args ? args : json_object();
	int rc;

	if (r->lost) {
		json_decref(req);
		return -EPIPE;
	}
	json_object_set_new(req, "id", json_integer((json_int_t)++r->id));
	json_object_set_new(req, "op", json_string(op));
	rc = fws_wire_send(r->to, req);
	json_decref(req);
	if (rc < 0)
		lose(r, "its control stream is closed");
	return rc < 0 ? -EPIPE : 0;
}

/* The answer to the last request (NULL: the agent is lost, r->why says why). */
static json_t *
await_answer(struct remote *r, const char *op, int timeout_ms)
{
	const char *why = NULL;
	json_t *ans = NULL, *id;

	while (ans == NULL && !r->lost) {
		ans = fws_wire_recv(&r->rd, timeout_ms, r->err, drain_err, r, &why);
		if (ans == NULL) {
			char msg[96];

			snprintf(msg, sizeof(msg), "%s waiting for its answer to %s",
				 strcmp(why, "timeout") == 0 ? "no answer in time" : why, op);
			lose(r, msg);
			return NULL;
		}
		id = json_object_get(ans, "id");
		if (id == NULL) { /* an event: nothing of it is used yet but that it lives */
			json_decref(ans);
			ans = NULL;
		} else if ((uint64_t)json_integer_value(id) != r->id) {
			json_decref(ans);
			lose(r, "an answer out of order");
			return NULL;
		}
	}
	return ans;
}

/* One request and its answer (NULL: the agent is lost, r->why says why). */
static json_t *
call(struct remote *r, const char *op, json_t *args, int timeout_ms)
{
	return send_req(r, op, args) < 0 ? NULL : await_answer(r, op, timeout_ms);
}

/* The answer's rc, its error into e. */
static int
answer_rc(struct remote *r, json_t *ans, struct fws_err *e)
{
	int rc;

	if (ans == NULL) {
		if (e)
			fws_err_set(e, FWS_ERR_SETUP, -EPIPE, "%s", r->why);
		return -EPIPE;
	}
	rc = (int)json_integer_value(json_object_get(ans, "rc"));
	if (rc < 0 && e) {
		const json_t *x = json_object_get(ans, "err");

		fws_err_set(e, (enum fws_err_kind)json_integer_value(json_object_get(x, "kind")),
			    rc, "host %s: %s", r->a.name,
			    json_string_value(json_object_get(x, "msg"))
				    ? json_string_value(json_object_get(x, "msg"))
				    : "failed");
	}
	json_decref(ans);
	return rc;
}

/* A call whose answer carries one blob of n bytes into out (zeroed when lost). */
static void
call_blob_in(struct remote *r, const char *op, json_t *args, void *out, size_t n, int ms)
{
	json_t *ans = call(r, op, args, ms);

	if (ans && r->rd.bin_len == n && r->rd.bin)
		memcpy(out, r->rd.bin, n);
	else if (ans)
		lose(r, "an answer whose counts do not fit");
	if (ans == NULL || r->lost)
		memset(out, 0, n);
	json_decref(ans);
}

static void
call_blob(struct remote *r, const char *op, json_t *args, void *out, size_t n)
{
	call_blob_in(r, op, args, out, n, ANSWER_MS);
}

static unsigned int
remote_ports(struct fws_agent *a, struct fws_port_result *out)
{
	struct fws_port_result all[FWS_CFG_MAX_PORTS];
	unsigned int p;

	call_blob(R(a), "ports", NULL, all, sizeof(all));
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
	json_t *ans = call(R(a), "tsc", NULL, ANSWER_MS);
	uint64_t v = ans ? (uint64_t)json_integer_value(json_object_get(ans, "tsc")) : 0;

	json_decref(ans);
	return v;
}

static int
remote_ptp(struct fws_agent *a, const char *socket, unsigned int domain, struct fws_ptp_point *out,
	   struct fws_err *e)
{
	struct remote *r = R(a);
	json_t *ans = call(r, "ptp",
			   json_pack("{s:s, s:I}", "socket", socket, "domain", (json_int_t)domain),
			   SETUP_MS);

	memset(out, 0, sizeof(*out));
	if (ans && json_integer_value(json_object_get(ans, "rc")) == 0) {
		if (r->rd.bin_len != sizeof(*out) || r->rd.bin == NULL) {
			json_decref(ans);
			lose(r, "an answer whose clock does not fit");
			return answer_rc(r, NULL, e);
		}
		memcpy(out, r->rd.bin, sizeof(*out));
		out->st.gm[sizeof(out->st.gm) - 1] = '\0'; /* names printed and compared */
		out->st.identity[sizeof(out->st.identity) - 1] = '\0';
		out->st.port_state[sizeof(out->st.port_state) - 1] = '\0';
	}
	return answer_rc(r, ans, e);
}

static uint64_t
remote_hugepage_peak(struct fws_agent *a)
{
	json_t *ans = call(R(a), "hugepage_peak", NULL, ANSWER_MS);

	if (ans)
		R(a)->huge_peak = (uint64_t)json_integer_value(json_object_get(ans, "bytes"));
	json_decref(ans);
	return R(a)->huge_peak;
}

static int
remote_prepare(struct fws_agent *a, enum fws_prep_stage st, uint32_t mask, volatile int *stop,
	       struct fws_err *e)
{
	(void)stop;
	return answer_rc(R(a),
			 call(R(a), "prepare",
			      json_pack("{s:I, s:i}", "mask", (json_int_t)mask, "stage", (int)st),
			      SETUP_MS),
			 e);
}

static int
remote_arm(struct fws_agent *a, const struct fws_agent_plan *p, struct fws_err *e)
{
	return answer_rc(
		R(a),
		call(R(a), "arm", json_pack("{s:o}", "b", fws_wire_blob(p, sizeof(*p))), ANSWER_MS),
		e);
}

static int
remote_launch(struct fws_agent *a, enum fws_phase ph, struct fws_err *e)
{
	return answer_rc(R(a),
			 call(R(a), "launch", json_pack("{s:i}", "phase", (int)ph), ANSWER_MS), e);
}

static void
remote_phase(struct fws_agent *a, enum fws_phase ph)
{
	json_decref(call(R(a), "phase", json_pack("{s:i}", "phase", (int)ph), PULSE_MS));
}

static void
remote_poll(struct fws_agent *a, struct fws_agent_poll *out)
{
	call_blob_in(R(a), "poll", NULL, out, sizeof(*out), PULSE_MS);
}

static void
remote_live(struct fws_agent *a, bool warm, struct fws_agent_live *out)
{
	call_blob_in(R(a), "live", json_pack("{s:b}", "warm", warm), out, sizeof(*out), PULSE_MS);
}

static void
remote_stop(struct fws_agent *a, bool measured)
{
	json_decref(call(R(a), "stop", json_pack("{s:b}", "measured", measured), ANSWER_MS));
}

static void
remote_collect(struct fws_agent *a, struct fws_agent_counts *out)
{
	call_blob(R(a), "collect", NULL, out, sizeof(*out));
}

static json_t *
range(unsigned int s, uint32_t lo, uint32_t n)
{
	return json_pack("{s:i, s:I, s:I}", "s", (int)s, "lo", (json_int_t)lo, "n", (json_int_t)n);
}

static void
remote_rx_flows(struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n,
		struct fws_agent_rxflow *out)
{
	call_blob(R(a), "rx_flows", range(s, lo, n), out, sizeof(*out) * n);
}

static void
remote_tx_flows(struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n,
		struct fws_agent_txflow *out)
{
	call_blob(R(a), "tx_flows", range(s, lo, n), out, sizeof(*out) * n);
}

static int
remote_aim(struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n,
	   const struct fws_nat_tuple *at)
{
	json_t *args = range(s, lo, n);

	json_object_set_new(args, "b", fws_wire_blob(at, sizeof(*at) * n));
	return answer_rc(R(a), call(R(a), "aim", args, ANSWER_MS), NULL);
}

static void
remote_after(struct fws_agent *a, struct fws_agent_counts *out)
{
	struct fws_agent_counts *c = out ? NULL : malloc(sizeof(*c));

	call_blob(R(a), "after", json_pack("{s:b}", "keep", out != NULL), out ? out : c,
		  sizeof(*c));
	free(c);
}

static void
remote_retire(struct fws_agent *a)
{
	json_decref(call(R(a), "retire", NULL, ANSWER_MS));
}

static const char *
remote_lost(struct fws_agent *a)
{
	return R(a)->lost ? R(a)->why : NULL;
}

static void
remote_destroy(struct fws_agent *a)
{
	struct remote *r = R(a);
	int i, status;

	if (r->setup_pending && !r->lost)
		json_decref(await_answer(r, "setup", SETUP_MS));
	if (!r->lost)
		json_decref(call(r, "bye", NULL, ANSWER_MS));
	if (r->to >= 0)
		close(r->to); /* its stdin ends: it stops and releases its ports */
	for (i = 0; r->pid > 0 && i < 250; i++) {
		if (waitpid(r->pid, &status, WNOHANG) == r->pid)
			r->pid = -1;
		else
			usleep(20000);
	}
	if (r->pid > 0) {
		kill(r->pid, SIGKILL);
		waitpid(r->pid, &status, 0);
	}
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

static void
copy_str(char *dst, size_t n, const json_t *v)
{
	strlcpy(dst, json_is_string(v) ? json_string_value(v) : "?", n);
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
	char layout[256];
	json_t *ans;
	const char *peer, *ver;
	int major;

	fws_wire_layout(layout, sizeof(layout));
	ans = call(r, "hello",
		   json_pack("{s:[i,i], s:s, s:s}", "proto", FWS_WIRE_MAJOR, FWS_WIRE_MINOR,
			     "fwstress", FWS_VERSION, "layout", layout),
		   SETUP_MS);
	if (ans == NULL)
		return fws_err_set(e, FWS_ERR_SETUP, -EPIPE, "%s", r->why);
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
		fws_err_set(
			e, FWS_ERR_SETUP, -EPROTO,
			"host %s: its agent speaks protocol %d.%d of fwstress %s, this "
			"controller %d.%d of fwstress %s%s: install the same fwstress on both",
			r->a.name, major,
			(int)json_integer_value(json_array_get(json_object_get(ans, "proto"), 1)),
			ver ? ver : "?", FWS_WIRE_MAJOR, FWS_WIRE_MINOR, FWS_VERSION,
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
	if (send_req(r, "setup",
		     json_pack("{s:o, s:i, s:i, s:i}", "config",
			       agent_config(cfg, &cfg->hosts[host - 1]), "host", (int)host,
			       "n_ports", (int)cfg->n_ports, "n_streams", (int)cfg->n_streams)) < 0)
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
	ans = await_answer(r, "setup", SETUP_MS);
	if (ans && json_integer_value(json_object_get(ans, "rc")) == 0) {
		r->hz = (uint64_t)json_integer_value(json_object_get(ans, "hz"));
		r->hz_dpdk = (uint64_t)json_integer_value(json_object_get(ans, "hz_dpdk"));
	}
	return answer_rc(r, ans, e);
}

struct fws_agent *
fws_agent_remote(const struct fws_cfg *cfg, unsigned int host, struct fws_err *e)
{
	struct remote *r = calloc(1, sizeof(*r));
	const struct fws_cfg_host *h = &cfg->hosts[host - 1];
	int rc;

	if (r == NULL) {
		fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
		return NULL;
	}
	r->a.ops = &remote_ops;
	r->to = r->from = r->err = -1;
	r->n_ports = cfg->n_ports;
	strlcpy(r->a.name, h->name, sizeof(r->a.name));
	via(h, r->a.info.via, sizeof(r->a.info.via));
	fws_agent_owns(&r->a, cfg, host);
	if ((rc = spawn(r, h)) < 0) {
		fws_err_set(e, FWS_ERR_SETUP, rc, "host %s: cannot start %s: %s", h->name,
			    h->argv[0], strerror(-rc));
		free(r);
		return NULL;
	}
	if (hello(r, e) < 0 || send_setup(r, cfg, host, e) < 0) {
		remote_destroy(&r->a);
		return NULL;
	}
	return &r->a;
}
