/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A remote agent's control stream, as the controller holds it (fws_remote_stream.c): its
 * command's pipes, requests and their answers, events on the way (heartbeats, a long
 * operation's marks), and why it was lost. fws_agent_remote.c builds the seam's
 * operations on it.
 */
#ifndef FWS_REMOTE_INT_H
#define FWS_REMOTE_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#include "fws_agent.h"
#include "fws_err.h"
#include "fws_agent_ops.h"
#include "fws_wire.h"

struct remote {
	struct fws_agent a; /* first */
	pid_t pid;
	int to, from, err; /* its stdin, stdout, stderr */
	struct fws_wire_rd rd;
	uint64_t id;
	struct fws_agent_answer ans; /* the last answer's fields, checked (fws_agent_ops.h) */
	uint64_t hz, hz_dpdk, huge_peak;
	unsigned int n_ports;    /* the config's */
	struct fws_fd_layout fd; /* where its host features' count blocks sit (hello checks) */
	bool setup_pending;      /* its setup sent, the answer not yet read */
	bool beating;            /* it has sent a heartbeat: silence now means a cut link */
	bool starting;           /* hello and setup: a stop request (Ctrl-C) ends the wait */
	bool interrupted;        /* lost to a stop request */
	/* Writes to its stdin hold wlock: the main thread's requests and the keep-alive
	 * thread's pings (FWS_CTL_PING_MS), never while long_call (a long operation). */
	pthread_mutex_t wlock;
	struct fws_wire_ticker pinger; /* the keep-alive */
	bool long_call;
	int64_t heard; /* when its last line came, ms */
	/* A long operation (a connection test's iteration): its events drive hk, a stop
	 * request is passed on once. */
	const struct fws_conntester_hooks *hk;
	struct fws_conntrial *hk_out;
	volatile int *stop;
	bool stop_sent;
	/* Its live counts as its last event brought them (each second while it sends). */
	struct fws_agent_live live;
	int64_t live_at; /* when, ms (0: none) */
	bool lost;
	char why[FWS_ERR_LEN];
	char tail[512]; /* its stderr's last bytes */
	size_t tail_len;
	char errline[256];
	size_t errlen;
};

/** The agent is lost (its stream closed, its command's process group ended); why says
 * what. */
void fws_remote_lose(struct remote *r, const char *what);

/** Its command ended: given wait_ms to exit by itself (its stdin closed; *itself then),
 * then its process group killed; whatever else its group holds (ssh's helpers) killed too.
 * Its wait status, or -1 when it was reaped before. */
int fws_remote_reap(struct remote *r, int wait_ms, bool *itself);

/** The keep-alive thread started / stopped (before its stdin is closed). */
void fws_remote_ping_start(struct remote *r);
void fws_remote_ping_stop(struct remote *r);

/** Joins / leaves the run's agents: while one runs a long operation, the others are
 * watched, and one of them lost stops it (its outcome is no measurement then). */
void fws_remote_join(struct remote *r);
void fws_remote_leave(struct remote *r);

/** Send a request (args is taken). 0, or -EPIPE with the agent lost. */
int fws_remote_send(struct remote *r, enum fws_agent_op op, json_t *args);

/** The answer to the last request (NULL: the agent is lost, r->why says why). */
json_t *fws_remote_await(struct remote *r, enum fws_agent_op op, int timeout_ms);

/** One request and its answer (NULL: lost). */
json_t *fws_remote_call(struct remote *r, enum fws_agent_op op, json_t *args, int timeout_ms);

/** A call whose answer carries hk's events on the way and whose wait passes *stop on. */
json_t *fws_remote_call_long(struct remote *r, enum fws_agent_op op, json_t *args,
			     const struct fws_conntester_hooks *hk, struct fws_conntrial *hk_out,
			     volatile int *stop);

/** The answer's rc (the answer is taken), its error into e (NULL: none). */
int fws_remote_answer_rc(struct remote *r, json_t *ans, struct fws_err *e);

/** A call whose answer's attachment is n bytes into out (zeroed when lost). */
void fws_remote_call_blob_in(struct remote *r, enum fws_agent_op op, json_t *args, void *out,
			     size_t n, int ms);

/** The controller's clock for the stream's times, ms. */
int64_t fws_remote_now_ms(void);

/** Why it is lost, or NULL; what it sent since the last call is read first (its stream's
 * end, or a silence longer than its heartbeat allows, loses it). */
const char *fws_remote_lost(struct remote *r);

#endif /* FWS_REMOTE_INT_H */
