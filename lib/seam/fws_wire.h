/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control stream between a controller and a remote agent (fwstress agent): JSON lines,
 * one object a line. A request is {"id": N, "op": NAME, ...}; its answer {"id": N, "rc": 0
 * or -errno, "err": {kind, msg}, ...}. The seam's structures (fws_agent.h) travel in a
 * request as "b": base64 of their bytes; an answer carries them as an attachment:
 * "bin": N in its line, then N raw bytes (a million flows' counters, 150 MB, without a
 * text encoding's cost). A line without an id is an event: the agent's heartbeat. The
 * first exchange ("hello") compares protocol major versions and the layout of those
 * structures, so both ends must run the same fwstress build (the hello names both when they
 * do not).
 */
#ifndef FWS_WIRE_H
#define FWS_WIRE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "fws_featdata.h"

#define FWS_WIRE_MAJOR 2
#define FWS_WIRE_MINOR 3

/** An agent whose workers run and that hears no request for this long stops them and
 * exits: the controller polls every few milliseconds while they run, so silence means its
 * control stream is cut (a dead link leaves ssh's connection open for minutes). */
#define FWS_AGENT_DEADMAN_MS 3000

/** An agent sends a heartbeat event ({"ev": "beat", "n": N}) this often from its start,
 * whatever it is doing; a controller that has heard one and then hears nothing for
 * FWS_AGENT_SILENT_MS takes the link for cut. */
#define FWS_AGENT_BEAT_MS 1000
#define FWS_AGENT_SILENT_MS 5000

/** The controller's keep-alive: a line without an id ({"op": "ping"}) this often from its
 * own thread, whatever its main thread waits for, except while a long operation runs (the
 * agent then takes any line for its stop). An agent that is set up and idle and hears no
 * line for FWS_AGENT_IDLE_MS stops and exits (its idle dead man): a controller gone or a cut
 * link never leaves its EAL, ports and file prefix held. */
#define FWS_CTL_PING_MS 500
#define FWS_AGENT_IDLE_MS 10000

/** Base64 of n bytes as a JSON string. */
json_t *fws_wire_blob(const void *p, size_t n);
/** The bytes of a blob into p: exactly n or -EINVAL. */
int fws_wire_unblob(const json_t *v, void *p, size_t n);

/** The layout of the structures that cross the stream, as one string: their sizes and the
 * host features' count blocks (fd: where they sit in the counts; NULL: none). */
#define FWS_WIRE_LAYOUT_LEN 512
void fws_wire_layout(char *buf, size_t len, const struct fws_fd_layout *fd);

/** A buffered reader of lines (and their attachments) from a file descriptor. */
struct fws_wire_rd {
	int fd;
	char *buf;
	size_t len, cap;
	int eof;
	size_t scanned;  /**< of buf, the bytes known to hold no newline */
	json_t *pending; /**< a line whose attachment is still arriving */
	size_t need;     /**< its length */
	void *bin;       /**< the last line's attachment (malloc'd; NULL: none) */
	size_t bin_len;
};

/** Write msg as one line to fd (all of it, EINTR retried); 0 or -errno. msg is not freed. */
int fws_wire_send(int fd, const json_t *msg);

/** Write msg with "bin": n and then the n bytes of bin. 0 or -errno. */
int fws_wire_send_bin(int fd, json_t *msg, const void *bin, size_t n);

/** The next line as a JSON object (its attachment, if any, in rd->bin and rd->bin_len until
 * the next call), waiting up to timeout_ms (< 0: forever); NULL with
 * *why: "end of stream", "timeout", or a parse error. extra_fd (>= 0) is polled beside
 * and on_extra called when it is readable. */
json_t *fws_wire_recv(struct fws_wire_rd *rd, int timeout_ms, int extra_fd,
		      void (*on_extra)(void *arg), void *arg, const char **why);

void fws_wire_rd_free(struct fws_wire_rd *rd);

/**
 * A line every period_ms from a thread of its own, whatever the caller's thread is doing:
 * the controller's ping and the agent's heartbeat. Each tick takes *lock (a line and an
 * answer never interleave), asks line() for the line (its length; 0 skips this tick) and
 * the descriptor, and writes it only when the stream takes it at once: a tick that would
 * block (the far end not reading) is skipped, never queued, so the ticker never holds the
 * stream while waiting for the far end. A closed stream (EPIPE) ends it.
 */
struct fws_wire_ticker {
	unsigned int period_ms;
	pthread_mutex_t *lock;
	size_t (*line)(void *arg, char *buf, size_t len, int *fd);
	void *arg;
	/* Its own. */
	pthread_t thread;
	volatile int quit;
	bool running;
};

/** Start it (the fields above set); 0, or -errno with no thread. */
int fws_wire_ticker_start(struct fws_wire_ticker *k);
/** Stop it and wait for its thread (nothing when it did not start). */
void fws_wire_ticker_stop(struct fws_wire_ticker *k);

#endif /* FWS_WIRE_H */
