/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trial feature "telemetry" (config dut.telemetry, fws_telem.h): one session to the DUT per
 * trial, a POSIX sh on its end (e.g. "ssh root@fw sh"; nothing installed there), given the
 * sampling script once and asked for a snapshot every second from the trial's start, at the
 * measured phase's start and end, and once after the drain: a second is of the phase the
 * snapshot that opens it began (warm-up, measure from the start's, drain from the end's). A snapshot's time is when its
 * answer began to arrive (to the 5 ms of the controller's loop): a slow login delays the
 * first, never misdates it. The seconds between snapshots
 * are marked by phase; the result keeps them and the measured phase's
 * summary. A session that dies, hangs or prints garbage is reported in the result and never
 * stops the measurement: a request waits for the answer to the one before, so a slow DUT
 * gives longer seconds, never a pile of requests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fd_telem.h"
#include "fws_feature.h"
#include "fws_spawn.h"
#include "fws_telem.h"
#include "fws_text.h"
#include "fws_trial_int.h"

#define ANSWER_MAX (512 * 1024) /* a snapshot larger than this is dropped */
#define LATE_S 3.0              /* an answer not there after this is late (counted) */
#define LAST_WAIT_S 2.0         /* at the end: how long to wait for the last snapshot */
#define BOUNDARY_NEAR_S 0.1     /* a snapshot this close before the measured phase marks it */

struct telem {
	struct fws_guard g;
	int in, out;
	bool running, eof;
	char *buf;
	size_t len;
	uint64_t t0;      /* the trial's start, ns of the controller's clock */
	double m0, m1;    /* the measured phase, s since t0 (INFINITY: not yet) */
	unsigned int seq; /* the last request's number */
	bool pending;     /* its answer has not come */
	bool begun;       /* its answer has begun to come */
	bool late_counted;
	double t_req;   /* when it was asked */
	double t_begin; /* when its answer began (the snapshot's time, to the 5 ms poll) */
	double next;    /* the next regular request */
	bool boundary;  /* one is wanted at once (the measured phase began or ended) */
	bool have_prev;
	double t_prev;
	uint8_t ph_now;  /* the phase a request made now opens */
	uint8_t ph_req;  /* the pending request's */
	uint8_t ph_prev; /* the last answered one's: the phase of the second it opened */
	struct fws_telem_raw *prev, *cur;
	struct fws_telem *tm; /* the trial's; moves into the result */
};

static double
since(const struct telem *s, uint64_t now)
{
	return now > s->t0 ? (double)(now - s->t0) / 1e9 : 0;
}

static void
fail(struct telem *s, const char *fmt, const char *arg)
{
	if (s->tm && !s->tm->error[0])
		snprintf(s->tm->error, sizeof(s->tm->error), fmt, arg);
}

/* Write all of text to the session, or give up (a full pipe: the session hangs). */
static bool
say(struct telem *s, const char *text)
{
	size_t n = strlen(text), off = 0;
	ssize_t w;

	while (off < n) {
		w = write(s->in, text + off, n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			fail(s, "the DUT session does not read what it is sent (%s)",
			     w < 0 ? strerror(errno) : "closed");
			return false;
		}
		off += (size_t)w;
	}
	return true;
}

static void
request(struct telem *s, double t)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "echo '@fws begin %u'; fws_s; echo '@fws end %u'\n", s->seq + 1,
		 s->seq + 1);
	if (!say(s, cmd))
		return;
	s->seq++;
	s->ph_req = s->ph_now;
	s->pending = true;
	s->begun = false;
	s->late_counted = false;
	s->t_req = t;
}

static int
start(struct telem *s, const char *cmd, uint64_t now)
{
	char *argv[] = {"/bin/sh", "-c", (char *)cmd, NULL};
	int in[2], out[2];

	if (pipe2(in, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(out, O_CLOEXEC) < 0) {
		close(in[0]);
		close(in[1]);
		return -errno;
	}
	if (fws_spawn_guarded_in(argv, in[0], out[1], 1000, false, &s->g) < 0) {
		int rc = -errno;

		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		return rc;
	}
	close(in[0]);
	close(out[1]);
	s->in = in[1];
	s->out = out[0];
	fcntl(s->in, F_SETFL, O_NONBLOCK);
	fcntl(s->out, F_SETFL, O_NONBLOCK);
	signal(SIGPIPE, SIG_IGN); /* a session gone is an error in the result, not our death */
	s->running = true;
	s->eof = false;
	s->len = 0;
	s->buf[0] = '\0'; /* searched before anything is read */
	s->seq = 0;
	s->pending = s->have_prev = s->boundary = false;
	s->ph_now = s->ph_req = s->ph_prev = FWS_TELEM_WARMUP;
	s->t0 = now;
	s->m0 = s->m1 = INFINITY;
	s->next = 1;
	say(s, fws_telem_script());
	request(s, 0);
	return 0;
}

/* The session's first line that is not ours: what ssh or the shell said when it failed. */
static void
first_words(const struct telem *s, char *out, size_t len)
{
	const char *p = s->buf, *e;

	out[0] = '\0';
	while (p && p < s->buf + s->len) {
		e = memchr(p, '\n', (size_t)(s->buf + s->len - p));
		if (strncmp(p, "@fws ", 5) != 0 && (e ? e : s->buf + s->len) > p) {
			snprintf(out, len, "%.*s", (int)((e ? e : s->buf + s->len) - p), p);
			return;
		}
		p = e ? e + 1 : NULL;
	}
}

/* The n bytes at p as the session's text, in place; returns how many are left. A NUL the DUT
 * printed would hide what follows it, what it names goes into the report's JSON, which takes
 * UTF-8 only, and onto the tester's terminal, where an escape sequence would act: bytes
 * outside printable ASCII but newline and tab read as '?' (the tools' output is ASCII; one
 * byte for one, so the parsers' fields stay where they were). A carriage return goes: a
 * session over a pty (ssh -t) ends its lines with CRLF. */
static size_t
text_of(char *p, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (p[i] == '\r')
			continue;
		p[k++] = fws_text_printable((unsigned char)p[i]) || p[i] == '\n' || p[i] == '\t'
				 ? p[i]
				 : '?';
	}
	return k;
}

static void
read_more(struct telem *s)
{
	ssize_t n;

	while (s->running && !s->eof) {
		if (s->len >= ANSWER_MAX) {
			fail(s, "a DUT snapshot larger than %s: dropped", "512 KiB");
			s->len = 0;
			s->buf[0] = '\0';
		}
		n = read(s->out, s->buf + s->len, ANSWER_MAX - s->len);
		if (n > 0) {
			s->len += text_of(s->buf + s->len, (size_t)n);
			s->buf[s->len] = '\0';
		} else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
			char why[120];

			s->eof = true;
			first_words(s, why, sizeof(why));
			fail(s, "the DUT session ended: %s", why[0] ? why : "without a word");
		} else {
			return;
		}
	}
}

/* "@fws uname NAME": the platform. */
static void
take_uname(struct telem *s)
{
	char *p = strstr(s->buf, "@fws uname "), *e;

	if (s->tm->platform[0] || p == NULL || (e = strchr(p, '\n')) == NULL)
		return;
	p += strlen("@fws uname ");
	snprintf(s->tm->platform, sizeof(s->tm->platform), "%.*s", (int)(e - p), p);
	s->tm->os = fws_telem_os_of(s->tm->platform);
	if (s->tm->os == FWS_TELEM_OS_UNKNOWN)
		fail(s, "the DUT answers uname \"%s\": neither FreeBSD nor Linux, no telemetry",
		     s->tm->platform);
}

/* The answer to the pending request: the time it began (its first section, the CPU's, is
 * read right after) and, when it is complete, a snapshot and its second. */
static void
take_answer(struct telem *s, double t)
{
	char mark[32], *end, *begin;
	struct fws_telem_raw *x;

	snprintf(mark, sizeof(mark), "@fws begin %u\n", s->seq);
	if (s->pending && !s->begun && strstr(s->buf, mark)) {
		s->begun = true;
		s->t_begin = t;
	}
	snprintf(mark, sizeof(mark), "@fws end %u\n", s->seq);
	if (!s->pending || (end = strstr(s->buf, mark)) == NULL)
		return;
	snprintf(mark, sizeof(mark), "@fws begin %u\n", s->seq);
	begin = strstr(s->buf, mark);
	*end = '\0';
	fws_telem_parse(s->tm->os, begin ? begin : s->buf, s->cur);
	fws_telem_saw(s->tm, s->cur);
	if (s->have_prev &&
	    fws_telem_add(s->tm, s->prev, s->t_prev, s->cur, s->t_begin, s->ph_prev) < 0)
		fail(s, "out of memory for the DUT's seconds%s", "");
	x = s->prev;
	s->prev = s->cur;
	s->cur = x;
	s->t_prev = s->t_begin;
	s->ph_prev = s->ph_req;
	s->have_prev = true;
	s->pending = false;
	end += strlen("@fws end ");
	end += strcspn(end, "\n") + 1;
	s->len -= (size_t)(end - s->buf);
	memmove(s->buf, end, s->len + 1);
}

/* Read, take what is complete, ask again when due. */
static void
service(struct telem *s, double t)
{
	if (!s->running)
		return;
	read_more(s);
	take_uname(s);
	take_answer(s, t);
	if (s->pending && !s->late_counted && t - s->t_req > LATE_S) {
		s->tm->late++; /* a slow login is late once, not an error */
		s->late_counted = true;
	}
	if (s->pending || s->eof || s->tm->os == FWS_TELEM_OS_UNKNOWN)
		return;
	if (t >= s->m1 && s->ph_now == FWS_TELEM_MEASURE) { /* the measured phase's end */
		s->ph_now = FWS_TELEM_DRAIN;
		s->boundary = true;
	}
	if (s->boundary || t >= s->next) {
		/* A regular one moves the schedule on; one at a boundary keeps it (the measured
		 * phase's schedule starts at its start). */
		if (!s->boundary || t >= s->next)
			s->next = s->next + 1 > t ? s->next + 1 : t + 1;
		request(s, t);
		s->boundary = false;
	}
}

static void
stop(struct telem *s)
{
	if (!s->running)
		return;
	close(s->in);
	kill(s->g.pid, SIGTERM); /* the guard ends the session's group */
	waitpid(s->g.pid, NULL, 0);
	close(s->out);
	s->running = false;
}

static int
tel_setup(struct fws_trial *t, void **state, struct fws_err *e)
{
	struct telem *s;

	if (!t->cfg->dut.telemetry[0])
		return 0;
	s = calloc(1, sizeof(*s));
	if (s)
		s->buf = malloc(ANSWER_MAX + 1);
	if (s)
		s->prev = malloc(sizeof(*s->prev));
	if (s)
		s->cur = malloc(sizeof(*s->cur));
	*state = s;
	if (s == NULL || s->buf == NULL || s->prev == NULL || s->cur == NULL)
		return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
	return 0;
}

static void
tel_start(struct fws_trial *t, void *state, const struct fws_step *x)
{
	struct telem *s = state;
	int rc;

	if (s == NULL || x->probe)
		return;
	stop(s);
	free(s->tm);
	if ((s->tm = calloc(1, sizeof(*s->tm))) == NULL)
		return;
	if ((rc = start(s, t->cfg->dut.telemetry, x->now)) < 0)
		snprintf(s->tm->error, sizeof(s->tm->error), "cannot start \"%.80s\": %s",
			 t->cfg->dut.telemetry, strerror(-rc));
}

static void
tel_measure(struct fws_trial *t, void *state, const struct fws_step *x)
{
	struct telem *s = state;

	(void)t;
	if (s == NULL || s->tm == NULL || x->probe)
		return;
	s->m0 = since(s, x->now);
	s->m1 = s->m0 + x->duration;
	/* The seconds from here are the measured phase's: a snapshot now, unless one was asked
	 * for just before (its answer still on its way): that one marks the start. */
	s->ph_now = FWS_TELEM_MEASURE;
	if (s->pending && s->m0 - s->t_req < BOUNDARY_NEAR_S)
		s->ph_req = FWS_TELEM_MEASURE; /* the one just asked for opens it */
	else
		s->boundary = true;
	s->next = s->m0 + 1;
	service(s, s->m0);
}

static void
tel_service(struct fws_trial *t, void *state, const struct fws_step *x)
{
	struct telem *s = state;

	(void)t;
	if (s && s->tm && !x->probe)
		service(s, since(s, x->now));
}

/* After the drain: the last snapshot, then the session ends; the result takes the seconds. */
static void
tel_finish(struct fws_trial *t, void *state, const struct fws_step *x)
{
	struct telem *s = state;
	struct fws_fd_telem *b;
	double t_end, until;

	if (s == NULL || s->tm == NULL || x->probe)
		return;
	t_end = since(s, x->now);
	if (x->interrupted && s->m1 > t_end)
		s->m1 = t_end;
	if (s->ph_now == FWS_TELEM_MEASURE) /* ended before its end's snapshot: now */
		s->ph_now = FWS_TELEM_DRAIN;
	for (until = t_end + LAST_WAIT_S; s->running && !s->eof;) {
		double now = since(s, fws_trial_now_ns());

		if (!s->pending && s->t_prev >= t_end)
			break;
		if (!s->pending)
			s->boundary = true;
		service(s, now);
		if (now > until) {
			s->tm->late++;
			break;
		}
		poll(&(struct pollfd){.fd = s->out, .events = POLLIN}, 1, 20);
	}
	stop(s);
	if (!s->tm->platform[0])
		fail(s, "the DUT session gave no answer (%s)",
		     s->eof ? "it ended" : "a hung session? nothing in the whole trial");
	fws_telem_summarize(s->tm);
	if (s->tm->error[0])
		FWS_LOG(WARNING, "DUT telemetry: %s", s->tm->error);
	if (x->res && (b = fws_trial_trial_block(t, &fws_fd_telem, x->res)) != NULL) {
		if (b->tm)
			fws_telem_free(b->tm);
		free(b->tm);
		b->tm = s->tm;
		s->tm = NULL;
	}
}

/* After the merge: the frames the trial lost, beside the DUT's own drops. */
static void
tel_collect(struct fws_trial *t, void *state, const struct fws_step *x)
{
	struct fws_fd_telem *b = fws_trial_trial_block(t, &fws_fd_telem, x->res);
	unsigned int s;

	(void)state;
	for (s = 0; b && s < x->res->n_streams; s++)
		b->lost += x->res->streams[s].rx.lost;
}

static void
tel_destroy(struct fws_trial *t, void *state)
{
	struct telem *s = state;

	(void)t;
	if (s == NULL)
		return;
	stop(s);
	if (s->tm)
		fws_telem_free(s->tm);
	free(s->tm);
	free(s->buf);
	free(s->prev);
	free(s->cur);
	free(s);
}

const struct fws_feature fws_feature_telemetry = {
	.name = "telemetry",
	.setup = tel_setup,
	.on = {[FWS_FEATURE_START] = tel_start,
	       [FWS_FEATURE_MEASURE] = tel_measure,
	       [FWS_FEATURE_SERVICE] = tel_service,
	       [FWS_FEATURE_FINISH] = tel_finish,
	       [FWS_FEATURE_COLLECT] = tel_collect},
	.destroy = tel_destroy,
};
