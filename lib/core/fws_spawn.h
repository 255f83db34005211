/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Commands the user gave (a campaign's setup and teardown) run in a process group of their
 * own under a guard: a small process of ours that starts the command, waits for it and then
 * ends its group, so nothing the command started outlives it. The guard dies with fwstress
 * (PR_SET_PDEATHSIG) and ends the group then too, also when fwstress was killed with SIGKILL.
 * Ending the group is SIGTERM, then SIGKILL after the grace period.
 */
#ifndef FWS_SPAWN_H
#define FWS_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/** A guarded command. */
struct fws_guard {
	pid_t pid;     /**< the guard's */
	int status_fd; /**< linger: the command's wait status arrives here (an int); else -1 */
};

/**
 * Start argv (execvp) under a guard, stdin from /dev/null, stdout and stderr on out_fd.
 * Without linger the guard ends the group as soon as the command ends and exits with the
 * command's status (wait for g->pid). With linger what the command left running (a daemon a
 * setup started) lives on: the command's status arrives on g->status_fd and the group ends
 * with fws_guard_end() or with fwstress. kill(g->pid, SIGTERM) asks the guard to end the
 * group at once. Returns 0, or -1 with errno.
 */
int fws_spawn_guarded(char *const *argv, int out_fd, unsigned int grace_ms, bool linger,
		      struct fws_guard *g);

/** As fws_spawn_guarded, stdin from in_fd (-1: /dev/null): a session fed commands. */
int fws_spawn_guarded_in(char *const *argv, int in_fd, int out_fd, unsigned int grace_ms,
			 bool linger_on, struct fws_guard *g);

/** The command's wait status from a lingering guard; -1 when the guard died first. */
int fws_guard_status(struct fws_guard *g);

/** End the group of g (SIGTERM, SIGKILL after the grace period) and reap the guard. */
void fws_guard_end(struct fws_guard *g);

/**
 * Run argv (execvp) in a process group of its own, stdin and stderr on /dev/null, and
 * capture its standard output into buf (NUL-terminated, at most len - 1 bytes; one that
 * writes more is killed then). After
 * timeout_ms its group is killed. Returns 0 with its wait status in *status (127: it could
 * not be started), or -1 with errno (ETIMEDOUT: it did not end in time; EMSGSIZE: it wrote
 * len - 1 bytes or more and was killed for it, buf holding the first of them; EINTR: a stop
 * was asked through fws_spawn_stop_on's flag, and its group killed).
 */
int fws_spawn_capture(char *const *argv, char *buf, size_t len, unsigned int timeout_ms,
		      int *status);

/** While *stop is non-zero (a signal handler's count; NULL: never), fws_spawn_capture ends
 * its command's group and returns EINTR: Ctrl-C during an inventory's answer. The handler
 * must interrupt poll (no SA_RESTART needed: poll is never restarted). */
void fws_spawn_stop_on(volatile int *stop);

#endif
