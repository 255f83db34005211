/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fws_compat.h"
#include "fws_dutload.h"
#include "fws_spawn.h"

#define MAX_TOKENS 64

static int
split(char *line, char **tok)
{
	int n = 0;
	char *save, *t;

	for (t = strtok_r(line, " \t\r", &save); t && n < MAX_TOKENS;
	     t = strtok_r(NULL, " \t\r", &save))
		tok[n++] = t;
	return n;
}

int
fws_dutload_parse(const char *text, struct fws_dutload *out)
{
	char *copy = strdup(text ? text : ""), *line, *save;
	char *tok[MAX_TOKENS];
	int cols = 0, us = -1, n, i;
	bool sample = false;

	memset(out, 0, sizeof(*out));
	if (copy == NULL) {
		snprintf(out->error, sizeof(out->error), "out of memory");
		return -ENOMEM;
	}
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char buf[1024];

		strlcpy(buf, line, sizeof(buf));
		n = split(buf, tok);
		/* A header: "... us sy id ..." (FreeBSD has another "sy" under faults). */
		for (i = 0; i + 2 < n; i++) {
			if (strcmp(tok[i], "us") == 0 && strcmp(tok[i + 1], "sy") == 0 &&
			    strcmp(tok[i + 2], "id") == 0) {
				us = i;
				cols = n;
				break;
			}
		}
		if (i + 2 < n)
			continue;
		/* A sample: as many columns as the header, numbers where us/sy/id are. */
		if (us >= 0 && n == cols) {
			char *e1, *e2, *e3;
			double a = strtod(tok[us], &e1), b = strtod(tok[us + 1], &e2),
			       c = strtod(tok[us + 2], &e3);

			if (*e1 == '\0' && *e2 == '\0' && *e3 == '\0' && a >= 0 && b >= 0 &&
			    c >= 0 && a <= 100 && b <= 100 && c <= 100) {
				out->us = a;
				out->sy = b;
				out->id = c;
				sample = true;
			}
		}
	}
	free(copy);
	if (us < 0) {
		snprintf(out->error, sizeof(out->error), "no vmstat header with us sy id columns");
		return -EINVAL;
	}
	if (!sample) {
		snprintf(out->error, sizeof(out->error), "a vmstat header but no sample line");
		return -EINVAL;
	}
	out->cpu = 100 - out->id;
	out->ok = true;
	return 0;
}

int
fws_dutload_start(struct fws_dutload_proc *p, const char *cmd_template, double seconds)
{
	const char *at = strstr(cmd_template, "{seconds}");
	char *argv[] = {"/bin/sh", "-c", p->cmd, NULL};
	struct fws_guard g;
	int fds[2];

	memset(p, 0, sizeof(*p));
	p->pid = -1;
	p->fd = -1;
	if (at)
		snprintf(p->cmd, sizeof(p->cmd), "%.*s%d%s", (int)(at - cmd_template), cmd_template,
			 seconds < 1 ? 1 : (int)seconds, at + strlen("{seconds}"));
	else
		strlcpy(p->cmd, cmd_template, sizeof(p->cmd));
	if (pipe(fds) < 0)
		return -errno;
	/* Its own process group under a guard: a hung probe ends with everything it started,
	 * also when fwstress itself is killed. */
	if (fws_spawn_guarded(argv, fds[1], 1000, false, &g) < 0) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	p->pid = g.pid;
	close(fds[1]);
	p->fd = fds[0];
	fcntl(p->fd, F_SETFL, O_NONBLOCK);
	return 0;
}

/* Read what the probe printed so far. The sample is at the end: when the buffer is full the
 * older half goes, so a chatty command never blocks on a full pipe. Returns 0 at EOF. */
int
fws_dutload_drain(struct fws_dutload_proc *p)
{
	ssize_t n;

	if (p->pid <= 0 || p->fd < 0)
		return 0;
	for (;;) {
		if (p->len >= sizeof(p->out) - 1) {
			size_t keep = (sizeof(p->out) - 1) / 2;

			memmove(p->out, p->out + p->len - keep, keep);
			p->len = keep;
		}
		n = read(p->fd, p->out + p->len, sizeof(p->out) - 1 - p->len);
		if (n > 0)
			p->len += (size_t)n;
		else if (n == 0)
			return 0;
		else
			return errno == EAGAIN || errno == EINTR ? 1 : 0;
	}
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
fws_dutload_finish(struct fws_dutload_proc *p, double timeout_s, struct fws_dutload *out)
{
	double end = now_s() + timeout_s;
	int status = 0;
	bool exited = false, killed = false;

	memset(out, 0, sizeof(*out));
	if (p->pid <= 0) {
		snprintf(out->error, sizeof(out->error), "probe did not start");
		return;
	}
	for (;;) {
		struct pollfd pfd = {.fd = p->fd, .events = POLLIN};
		bool open = true;

		if (poll(&pfd, 1, 100) > 0)
			open = fws_dutload_drain(p) != 0;
		if (!exited && waitpid(p->pid, &status, WNOHANG) == p->pid)
			exited = true;
		if (exited && (!open || !(pfd.revents & POLLIN)))
			break;
		if (!exited && now_s() > end) {
			kill(p->pid, SIGTERM); /* the guard ends sh and whatever it started */
			waitpid(p->pid, &status, 0);
			exited = killed = true;
		}
	}
	/* What it left running in the background went with it (the guard ends the group). */
	p->out[p->len] = '\0';
	close(p->fd);
	if (killed) {
		snprintf(out->error, sizeof(out->error), "\"%.80s\" still ran after %.0f s: killed",
			 p->cmd, timeout_s);
		return;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		const char *nl = strchr(p->out, '\n');

		snprintf(out->error, sizeof(out->error), "\"%.60s\" exited with status %d: %.*s",
			 p->cmd, WIFEXITED(status) ? WEXITSTATUS(status) : -1,
			 (int)(nl ? nl - p->out : 60), p->out);
		return;
	}
	if (fws_dutload_parse(p->out, out) < 0) {
		char why[160];

		strlcpy(why, out->error, sizeof(why));
		snprintf(out->error, sizeof(out->error), "\"%.60s\": %.90s", p->cmd, why);
	}
}
