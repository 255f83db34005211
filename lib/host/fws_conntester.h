/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The connection test's engine on a host's ports (fws_conntester.c): the iterations an agent
 * runs for the controller's method (fws_conntest.h), answered as fws_conntrial.
 */
#ifndef FWS_CONNTESTER_H
#define FWS_CONNTESTER_H

#include <stdint.h>
#include <stdio.h>

#include "fws_config.h"
#include "fws_conntrial.h"
#include "fws_err.h"

struct fws_conntester;
struct fws_host;

/** The engine over h's ports for cfg's streams: the clients on their tx_port, the servers
 * on their rx_port. NULL with the error in e. */
struct fws_conntester *fws_conntester_new(struct fws_host *h, const struct fws_cfg *cfg,
					  struct fws_err *e);
void fws_conntester_free(struct fws_conntester *x);

/** One iteration numbered nonce at rate (opens, teardown: closes, per second) into out,
 * until every connection is answered or failed, or *stop. 0. */
int fws_conntester_trial(struct fws_conntester *x, double rate, uint32_t nonce,
			 const struct fws_conntester_hooks *hk, volatile int *stop,
			 struct fws_conntrial *out);

/** Between iterations: capacity's hold, RST every attempted connection, the aging wait.
 * 0, or -EINTR with e set when *stop ended it. */
int fws_conntester_between(struct fws_conntester *x, volatile int *stop, struct fws_err *e);

/** Its servers answer iteration nonce's clients (on another host) from now on. */
void fws_conntester_serve(struct fws_conntester *x, uint32_t nonce);

/** One pass: receive, answer, timers, send. The frames it received. */
uint64_t fws_conntester_pass(struct fws_conntester *x);

/** A progress line per second of each iteration on f (NULL: none). */
void fws_conntester_progress(struct fws_conntester *x, FILE *f);

#endif /* FWS_CONNTESTER_H */
