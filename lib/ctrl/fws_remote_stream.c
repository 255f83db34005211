/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A remote agent's control stream (fws_remote_int.h): requests and answers, the events on
 * the way, and the agent's loss. A stream that ends, an answer that does not come, a
 * silence longer than the agent's heartbeat allows, or an answer out of order marks it
 * lost: every later operation is a no-op and the phase machine ends the trial. Its stderr is
 * passed on, each line prefixed with the host's name, and its last lines kept for the
 * message.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fws_compat.h"
#include "fws_conntest.h"
#include "fws_remote_int.h"
#include "fws_text.h"
#include "fws_util.h"

/* A connection test's iteration: as long as it takes (the heartbeat tells a cut link). */
#define CONN_MS (24 * 3600 * 1000)

/* One line of its stderr onto ours, named by its host; a control character (an escape
 * sequence, a bell, a carriage return) as \xNN: an agent's output never drives the
 * controller's terminal. */
static void
relay_line(const struct remote *r, const char *s, size_t n)
{
	char out[4 * sizeof(r->errline) + 1];

	fprintf(stderr, "[%s] %s\n", r->a.name, fws_text_safe(out, sizeof(out), s, n));
}

/* Its stderr: pass each line on, prefixed and escaped (a line longer than errline is cut,
 * the rest of it dropped), keep the last bytes. Linear in what arrives. */
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
		if (r->tail_len + 1 >= sizeof(r->tail)) {
			memmove(r->tail, r->tail + sizeof(r->tail) / 2, sizeof(r->tail) / 2);
			r->tail_len -= sizeof(r->tail) / 2;
		}
		r->tail[r->tail_len++] = buf[i];
		r->tail[r->tail_len] = '\0';
		if (buf[i] != '\n') {
			if (r->errlen + 1 < sizeof(r->errline))
				r->errline[r->errlen++] = buf[i];
			continue;
		}
		relay_line(r, r->errline, r->errlen);
		r->errlen = 0;
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

int
fws_remote_reap(struct remote *r, int wait_ms, bool *itself)
{
	siginfo_t si;
	int status = -1, ms;

	*itself = false;
	if (r->pid <= 0)
		return -1;
	for (ms = 0;; ms += 20) {
		/* Exited, not yet reaped: its process group id stays its own meanwhile. */
		si.si_pid = 0;
		if (waitid(P_PID, (id_t)r->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
			break;
		if (si.si_pid == r->pid) {
			*itself = true;
			break;
		}
		if (ms >= wait_ms)
			break;
		usleep(20000);
	}
	kill(-r->pid, SIGKILL); /* its group: itself if silent, what it left behind if not */
	if (waitpid(r->pid, &status, 0) != r->pid)
		status = -1;
	r->pid = -1;
	return status;
}

/* Why the agent is gone: its exit status or signal and its last word. */
void
fws_remote_lose(struct remote *r, const char *what)
{
	char line[256], safe[200], st[64] = "";
	bool itself;
	int status, i;

	if (r->lost)
		return;
	r->lost = true;
	pthread_mutex_lock(&r->wlock);
	close(r->to);
	r->to = -1;
	pthread_mutex_unlock(&r->wlock);
	/* It stops at the end of its stdin; silent, not gone (a dead link), it is killed (its
	 * own dead man stops the far end). */
	status = fws_remote_reap(r, 1000, &itself);
	if (itself && WIFEXITED(status))
		snprintf(st, sizeof(st), ", exit status %d", WEXITSTATUS(status));
	else if (itself && WIFSIGNALED(status))
		snprintf(st, sizeof(st), ", killed by signal %d", WTERMSIG(status));
	for (i = 0; r->err >= 0 && i < 10; i++)
		drain_err(r);
	/* Its last words say why it exited; one killed (here for its silence, or by a signal
	 * from elsewhere) said nothing about that: its last line is an old one (EAL's). */
	line[0] = safe[0] = '\0';
	if (itself && WIFEXITED(status))
		fws_text_safe(safe, sizeof(safe), last_err_line(r, line, sizeof(line)),
			      sizeof(line));
	snprintf(r->why, sizeof(r->why), "host %s: agent lost: %s%s%s%s", r->a.name, what, st,
		 safe[0] ? ": " : "", safe);
}

/* Send a request (args is taken); 0, or -EPIPE with the agent lost. */
int
fws_remote_send(struct remote *r, enum fws_agent_op op, json_t *args)
{
	json_t *req = args ? args : json_object();
	int rc;

	if (r->lost) {
		json_decref(req);
		return -EPIPE;
	}
	json_object_set_new(req, "id", json_integer((json_int_t)++r->id));
	json_object_set_new(req, "op", json_string(fws_agent_op_name(op)));
	pthread_mutex_lock(&r->wlock);
	r->long_call = r->hk != NULL || r->stop != NULL; /* no ping until its answer */
	rc = r->to >= 0 ? fws_wire_send(r->to, req) : -EPIPE;
	pthread_mutex_unlock(&r->wlock);
	json_decref(req);
	if (rc < 0)
		fws_remote_lose(r, "its control stream is closed");
	return rc < 0 ? -EPIPE : 0;
}

int64_t
fws_remote_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The agents of this run (a connection test's server agent is watched while its client
 * runs the iteration). The main thread alone adds, removes and reads them. */
static struct remote *peers[FWS_CFG_MAX_HOSTS];

void
fws_remote_join(struct remote *r)
{
	unsigned int i;

	for (i = 0; i < FWS_DIM(peers); i++)
		if (peers[i] == NULL) {
			peers[i] = r;
			return;
		}
}

void
fws_remote_leave(struct remote *r)
{
	unsigned int i;

	for (i = 0; i < FWS_DIM(peers); i++)
		if (peers[i] == r)
			peers[i] = NULL;
}

/* Another agent of the run lost (killed, cut off, silent) while r's long operation runs:
 * its outcome is no measurement then, and r is stopped as a Ctrl-C would stop it. */
static bool
peer_lost(const struct remote *r)
{
	unsigned int i;

	for (i = 0; i < FWS_DIM(peers); i++)
		if (peers[i] && peers[i] != r && fws_remote_lost(peers[i]))
			return true;
	return false;
}

/* While a long operation waits: the hooks' service, and a stop request passed on (a line
 * without an id: nothing answers it), the user's or a lost peer's. */
static void
meanwhile(struct remote *r)
{
	if (r->hk && r->hk->service)
		r->hk->service(r->hk->arg);
	if (r->stop && !r->stop_sent && (*r->stop || peer_lost(r))) {
		json_t *n = json_pack("{s:s}", "op", "interrupt");

		r->stop_sent = true;
		pthread_mutex_lock(&r->wlock);
		if (r->to >= 0)
			fws_wire_send(r->to, n);
		pthread_mutex_unlock(&r->wlock);
		json_decref(n);
	}
}

static volatile int *remote_stop;

void
fws_agent_remote_stop_on(volatile int *stop)
{
	remote_stop = stop;
}

/* A stop request ends this wait: while the agent starts the first, later a second. */
static bool
stop_asked(const struct remote *r)
{
	return remote_stop && (*remote_stop >= 2 || (r->starting && *remote_stop >= 1));
}

/* The next line within timeout_ms, or sooner NULL when an agent that beats has been silent
 * for FWS_AGENT_SILENT_MS (the link is cut, however long the operation may take), or a stop
 * request ends the wait; *why says which. Bytes of a line or attachment still arriving are
 * not silence. */
static json_t *
next_line(struct remote *r, int64_t deadline, const char **why)
{
	size_t had = r->rd.len;
	json_t *v;

	for (;;) {
		int64_t now = fws_remote_now_ms(), left = deadline - now,
			quiet = r->beating ? r->heard + FWS_AGENT_SILENT_MS - now : left,
			slice = r->hk || r->stop ? 100 : 200, wait = FWS_MIN(left, quiet);

		if (stop_asked(r)) {
			r->interrupted = true;
			*why = "interrupted";
			return NULL;
		}
		if (left <= 0 || quiet <= 0) {
			*why = left <= 0 ? "no answer in time"
					 : "no heartbeat for " FWS_STR(
						   FWS_AGENT_SILENT_MS) " ms (the link is cut?)";
			return NULL;
		}
		v = fws_wire_recv(&r->rd, (int)FWS_MIN(wait, slice), r->err, drain_err, r, why);
		if (v != NULL) {
			r->heard = fws_remote_now_ms();
			return v;
		}
		if (strcmp(*why, "timeout") != 0)
			return NULL;
		if (r->rd.len != had) { /* a long answer on its way */
			r->heard = fws_remote_now_ms();
			had = r->rd.len;
		}
		meanwhile(r);
	}
}

/* An event: a heartbeat, its live counts, or a long operation's mark of its measured
 * phase. */
static void
event(struct remote *r, const json_t *ev)
{
	const char *name = json_string_value(json_object_get(ev, "ev"));

	r->beating |= name != NULL;
	if (name && strcmp(name, "live") == 0 && r->rd.bin && r->rd.bin_len == sizeof(r->live)) {
		memcpy(&r->live, r->rd.bin, sizeof(r->live));
		r->live_at = fws_remote_now_ms();
		return;
	}
	if (name == NULL || r->hk == NULL)
		return;
	if (strcmp(name, "measure") == 0 && r->hk->measure)
		r->hk->measure(r->hk->arg, (uint64_t)json_integer_value(json_object_get(ev, "n")),
			       json_number_value(json_object_get(ev, "rate")));
	else if (strcmp(name, "measured") == 0 && r->hk->measured)
		r->hk->measured(r->hk->arg, json_is_true(json_object_get(ev, "stopped")),
				r->hk_out);
}

/* ans, its fields (an answer with rc 0) read into r->ans through the protocol's table; NULL
 * and the agent lost, the reason naming the field, when one is missing or out of range. */
static json_t *
checked(struct remote *r, enum fws_agent_op op, json_t *ans)
{
	struct fws_err e = {0};

	memset(&r->ans, 0, sizeof(r->ans));
	if (json_integer_value(json_object_get(ans, "rc")) != 0 ||
	    fws_agent_answer_read(op, ans, &r->ans, &e) == 0)
		return ans;
	json_decref(ans);
	fws_remote_lose(r, e.msg);
	return NULL;
}

/* The answer to the last request (NULL: the agent is lost, r->why says why). Events on the
 * way (heartbeats) say that it lives. */
json_t *
fws_remote_await(struct remote *r, enum fws_agent_op op, int timeout_ms)
{
	int64_t deadline = fws_remote_now_ms() + timeout_ms;
	const char *why = NULL;
	json_t *ans = NULL, *id;

	r->heard =
		fws_remote_now_ms(); /* silence counts while we listen: beats queued meanwhile come first */
	while (ans == NULL && !r->lost) {
		ans = next_line(r, deadline, &why);
		if (ans == NULL) {
			char msg[128];

			snprintf(msg, sizeof(msg), "%s waiting for its answer to %s", why,
				 fws_agent_op_name(op));
			fws_remote_lose(r, msg);
			return NULL;
		}
		id = json_object_get(ans, "id");
		if (id == NULL) { /* an event */
			event(r, ans);
			json_decref(ans);
			ans = NULL;
		} else if ((uint64_t)json_integer_value(id) != r->id) {
			json_decref(ans);
			fws_remote_lose(r, "an answer out of order");
			return NULL;
		}
	}
	return ans ? checked(r, op, ans) : NULL;
}

/* One request and its answer (NULL: the agent is lost, r->why says why). */
json_t *
fws_remote_call(struct remote *r, enum fws_agent_op op, json_t *args, int timeout_ms)
{
	return fws_remote_send(r, op, args) < 0 ? NULL : fws_remote_await(r, op, timeout_ms);
}

/* The answer's rc, its error into e. */
int
fws_remote_answer_rc(struct remote *r, json_t *ans, struct fws_err *e)
{
	int rc;

	if (ans == NULL) {
		if (e)
			fws_err_set(e, r->interrupted ? FWS_ERR_INTERRUPTED : FWS_ERR_SETUP,
				    r->interrupted ? -EINTR : -EPIPE, "%s", r->why);
		return r->interrupted ? -EINTR : -EPIPE;
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
void
fws_remote_call_blob_in(struct remote *r, enum fws_agent_op op, json_t *args, void *out, size_t n,
			int ms)
{
	json_t *ans = fws_remote_call(r, op, args, ms);

	if (ans && r->rd.bin_len == n && r->rd.bin)
		memcpy(out, r->rd.bin, n);
	else if (ans)
		fws_remote_lose(r, "an answer whose counts do not fit");
	if (ans == NULL || r->lost)
		memset(out, 0, n);
	json_decref(ans);
}

/* A long call: hk driven by its events, *stop passed on. */
json_t *
fws_remote_call_long(struct remote *r, enum fws_agent_op op, json_t *args,
		     const struct fws_conntester_hooks *hk, struct fws_conntrial *hk_out,
		     volatile int *stop)
{
	json_t *ans;

	r->hk = hk;
	r->hk_out = hk_out;
	r->stop = stop;
	r->stop_sent = false;
	ans = fws_remote_call(r, op, args, CONN_MS);
	r->hk = NULL;
	r->hk_out = NULL;
	r->stop = NULL;
	pthread_mutex_lock(&r->wlock);
	r->long_call = false;
	pthread_mutex_unlock(&r->wlock);
	return ans;
}

const char *
fws_remote_lost(struct remote *r)
{
	const char *why = "timeout";
	json_t *v;

	/* Between calls: what it sent meanwhile (heartbeats), its stream's end, or a silence
	 * longer than its heartbeat allows (a server agent of a connection test, say, that
	 * died or was cut off while another agent ran the iteration). */
	while (!r->lost && !r->setup_pending && r->to >= 0 &&
	       (v = fws_wire_recv(&r->rd, 0, r->err, drain_err, r, &why)) != NULL) {
		r->heard = fws_remote_now_ms();
		if (json_object_get(v, "id"))
			fws_remote_lose(r, "an answer nobody asked for");
		else
			event(r, v);
		json_decref(v);
	}
	if (!r->lost && !r->setup_pending && strcmp(why, "timeout") != 0)
		fws_remote_lose(r, why);
	else if (!r->lost && r->beating && fws_remote_now_ms() - r->heard > FWS_AGENT_SILENT_MS)
		fws_remote_lose(r, "no heartbeat for " FWS_STR(
					   FWS_AGENT_SILENT_MS) " ms (the link is cut?)");
	return r->lost ? r->why : NULL;
}

/* The keep-alive: a ping line every FWS_CTL_PING_MS while no long operation runs (the agent
 * takes any line then for its stop), from its own thread (fws_wire_ticker). */
static size_t
ping_line(void *arg, char *buf, size_t len, int *fd)
{
	static const char line[] = "{\"op\": \"ping\"}\n";
	struct remote *r = arg;

	if (r->long_call || r->to < 0 || len < sizeof(line))
		return 0;
	memcpy(buf, line, sizeof(line) - 1);
	*fd = r->to;
	return sizeof(line) - 1;
}

void
fws_remote_ping_start(struct remote *r)
{
	r->pinger = (struct fws_wire_ticker){
		.period_ms = FWS_CTL_PING_MS, .lock = &r->wlock, .line = ping_line, .arg = r};
	fws_wire_ticker_start(&r->pinger);
}

void
fws_remote_ping_stop(struct remote *r)
{
	fws_wire_ticker_stop(&r->pinger);
}
