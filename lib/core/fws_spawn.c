/* SPDX-License-Identifier: BSD-3-Clause */
/* Guarded commands (fws_spawn.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fws_spawn.h"

#define STEP_MS 20
#define CAPTURE_MEM_MAX (2ull << 30) /* a captured helper's address space (ansible: ~300 MB) */

static volatile int *capture_stop; /* fws_spawn_stop_on's flag */

void
fws_spawn_stop_on(volatile int *stop)
{
	capture_stop = stop;
}

static bool
stop_asked(void)
{
	return capture_stop && *capture_stop;
}

static void
sleep_ms(unsigned int ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

/* Reap every child the guard has (the command, and as a subreaper its orphans). True once
 * the command itself has ended; *st is then its status. */
static bool
reap(pid_t cmd, int *st, bool *done)
{
	pid_t p;
	int s;

	while ((p = waitpid(-1, &s, WNOHANG)) > 0)
		if (p == cmd) {
			*st = s;
			*done = true;
		}
	return *done;
}

/* End the command's group: SIGTERM (and SIGCONT, for a stopped member), SIGKILL to what is
 * left after grace_ms; returns when the group is empty and reaped. */
static void
end_group(pid_t g, int *st, bool *done, unsigned int grace_ms)
{
	unsigned int waited = 0;

	kill(-g, SIGTERM);
	kill(-g, SIGCONT);
	for (;;) {
		reap(g, st, done);
		if (kill(-g, 0) < 0 && errno == ESRCH)
			break;
		if (waited >= grace_ms) {
			kill(-g, SIGKILL);
			grace_ms = UINT32_MAX; /* once */
		}
		sleep_ms(STEP_MS);
		waited += STEP_MS;
	}
	while (!*done && waitpid(g, st, 0) == g)
		*done = true;
}

/* The guard's status is the command's: the same exit code, or death by the same signal. */
static void __attribute__((noreturn)) exit_like(int st, const sigset_t *old)
{
	if (WIFSIGNALED(st)) {
		signal(WTERMSIG(st), SIG_DFL);
		sigprocmask(SIG_SETMASK, old, NULL);
		kill(getpid(), WTERMSIG(st));
	}
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + SIGTERM);
}

static void
command(char *const *argv, const sigset_t *old)
{
	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	sigprocmask(SIG_SETMASK, old, NULL);
	execvp(argv[0], argv);
	fprintf(stderr, "fwstress: %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Wait for the command; true when a stop signal came first. */
static bool
wait_command(const sigset_t *set, pid_t cmd, int *st, bool *done)
{
	for (;;) {
		struct timespec ts = {.tv_sec = 0, .tv_nsec = 100 * 1000000L};
		int sig = sigtimedwait(set, NULL, &ts);

		if (reap(cmd, st, done))
			return false;
		if (sig > 0 && sig != SIGCHLD)
			return true;
	}
}

static void
send_status(int fd, int st)
{
	if (write(fd, &st, sizeof(st)) != (ssize_t)sizeof(st))
		return; /* nobody reads it any more */
}

/* The command ended and its status went out: keep its group until asked to end it (or until
 * it empties by itself). */
static void
linger(const sigset_t *set, pid_t cmd, int *st, bool *done)
{
	for (;;) {
		struct timespec ts = {.tv_sec = 0, .tv_nsec = 200 * 1000000L};
		int sig = sigtimedwait(set, NULL, &ts);

		reap(cmd, st, done);
		if ((sig > 0 && sig != SIGCHLD) || (kill(-cmd, 0) < 0 && errno == ESRCH))
			return;
	}
}

static void
block_signals(sigset_t *set, sigset_t *old)
{
	sigemptyset(set);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGQUIT);
	sigaddset(set, SIGCHLD);
	sigprocmask(SIG_BLOCK, set, old);
}

static void
redirect(int in_fd, int out_fd)
{
	int in = in_fd >= 0 ? in_fd : open("/dev/null", O_RDONLY);

	if (in >= 0)
		dup2(in, STDIN_FILENO);
	if (out_fd >= 0) {
		dup2(out_fd, STDOUT_FILENO);
		dup2(out_fd, STDERR_FILENO);
	}
}

static void __attribute__((noreturn))
guard(char *const *argv, int in_fd, int out_fd, unsigned int grace_ms, int status_fd, pid_t parent)
{
	sigset_t set, old;
	int st = (128 + SIGTERM) << 8;
	bool done = false, lingering = status_fd >= 0;
	pid_t cmd;

	block_signals(&set, &old);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(128 + SIGTERM); /* fwstress is gone already: start nothing */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	redirect(in_fd, out_fd);
	cmd = fork();
	if (cmd < 0)
		_exit(127);
	if (cmd == 0)
		command(argv, &old);
	setpgid(cmd, cmd); /* also here: no race with the command's own call */
	if (!wait_command(&set, cmd, &st, &done) && status_fd >= 0) {
		send_status(status_fd, st);
		close(status_fd);
		status_fd = -1;
		linger(&set, cmd, &st, &done);
	}
	end_group(cmd, &st, &done, grace_ms);
	if (status_fd >= 0)
		send_status(status_fd, st); /* stopped before the command ended */
	if (lingering)
		_exit(0);
	exit_like(st, &old);
}

int
fws_spawn_guarded(char *const *argv, int out_fd, unsigned int grace_ms, bool linger_on,
		  struct fws_guard *g)
{
	return fws_spawn_guarded_in(argv, -1, out_fd, grace_ms, linger_on, g);
}

int
fws_spawn_guarded_in(char *const *argv, int in_fd, int out_fd, unsigned int grace_ms,
		     bool linger_on, struct fws_guard *g)
{
	pid_t parent = getpid();
	int fds[2] = {-1, -1};

	g->status_fd = -1;
	if (linger_on && pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	g->pid = fork();
	if (g->pid == 0) {
		if (fds[0] >= 0)
			close(fds[0]);
		guard(argv, in_fd, out_fd, grace_ms, fds[1], parent);
	}
	if (fds[1] >= 0)
		close(fds[1]);
	if (g->pid < 0) {
		if (fds[0] >= 0)
			close(fds[0]);
		return -1;
	}
	g->status_fd = fds[0];
	return 0;
}

int
fws_guard_status(struct fws_guard *g)
{
	int st;
	ssize_t n;

	do
		n = read(g->status_fd, &st, sizeof(st));
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(st) ? st : -1;
}

void
fws_guard_end(struct fws_guard *g)
{
	int st;

	if (g->pid <= 0)
		return;
	kill(g->pid, SIGTERM);
	while (waitpid(g->pid, &st, 0) < 0 && errno == EINTR)
		;
	if (g->status_fd >= 0)
		close(g->status_fd);
	g->pid = -1;
	g->status_fd = -1;
}

/* The capture's child: its own group, stdin and stderr on /dev/null, stdout on fd; its memory
 * bounded (an inventory of /dev/zero grew ansible-inventory to 16 GB) and its life too: it
 * dies with fwstress, whatever ends fwstress. */
static void __attribute__((noreturn)) capture_child(char *const *argv, int fd)
{
	const struct rlimit mem = {CAPTURE_MEM_MAX, CAPTURE_MEM_MAX};
	int null = open("/dev/null", O_RDWR);

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	setrlimit(RLIMIT_AS, &mem);
	dup2(fd, 1);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 2);
	}
	execvp(argv[0], argv);
	_exit(127);
}

/* Read fd into buf until it ends, the buffer fills, the deadline passes (*late) or a stop is
 * asked (*late too: the caller ends the group and says which). */
static size_t
capture_read(int fd, char *buf, size_t len, unsigned int timeout_ms, bool *late)
{
	struct timespec t0, now;
	size_t n = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		long left;
		ssize_t r;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = (long)timeout_ms - (long)((now.tv_sec - t0.tv_sec) * 1000 +
						 (now.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0 || stop_asked()) {
			*late = true;
			return n;
		}
		if (poll(&p, 1, (int)left) <= 0) /* a signal: stop_asked() looks */
			continue;
		if (n + 1 >= len || (r = read(fd, buf + n, len - 1 - n)) <= 0)
			return n;
		n += (size_t)r;
	}
}

int
fws_spawn_capture(char *const *argv, char *buf, size_t len, unsigned int timeout_ms, int *status)
{
	bool late = false, full;
	size_t n;
	int p[2];
	pid_t pid;

	if (len == 0 || pipe2(p, O_CLOEXEC) < 0)
		return -1;
	if ((pid = fork()) < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0)
		capture_child(argv, p[1]);
	close(p[1]);
	setpgid(pid, pid); /* also here: no race with the child's own call */
	n = capture_read(p[0], buf, len, timeout_ms, &late);
	close(p[0]);
	buf[n] = '\0';
	full = n + 1 >= len;
	if (full) /* buf is full: what more it writes is not read */
		kill(-pid, SIGKILL);
	/* Its output ended: a grace period to exit, then its group ends. */
	for (unsigned int ms = 0; !late && waitpid(pid, status, WNOHANG) == 0; ms += STEP_MS) {
		if (ms >= timeout_ms || stop_asked()) {
			late = true;
			break;
		}
		sleep_ms(STEP_MS);
	}
	kill(-pid, SIGKILL); /* with what it left running in its group */
	if (late) {
		while (waitpid(pid, status, 0) < 0 && errno == EINTR)
			;
		errno = stop_asked() ? EINTR : ETIMEDOUT;
		return -1;
	}
	if (full) { /* killed for what it wrote: its answer is cut, not its own exit status */
		errno = EMSGSIZE;
		return -1;
	}
	return 0;
}
