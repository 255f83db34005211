/* SPDX-License-Identifier: BSD-3-Clause */
/* Inside the agent's server (fws_agent_srv.c, fws_agent_srv_conn.c): its state, the field
 * checks every operation makes, and the operations kept in a file of their own. */
#ifndef FWS_AGENT_SRV_INT_H
#define FWS_AGENT_SRV_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "fws_agent_ops.h"
#include "fws_agent_srv.h"

struct fws_agent_srv {
	int out;                     /* the control stream */
	pthread_mutex_t out_lock;    /* a line and its attachment go out whole */
	struct fws_wire_ticker beat; /* the heartbeat */
	unsigned long beats;
	/* A long operation (a connection test's iteration) runs: a line that arrives
	 * meanwhile, or the stream's end, is the controller's stop (the beat sees it). */
	volatile int busy, interrupt;
	const struct fws_wire_rd *rd;
	bool serving;      /* its servers answered segments in the last pass: poll again at once */
	int64_t next_live; /* while the workers run: the next live event, ms */
	struct fws_agent_srv_env env;
	struct fws_cfg *cfg;
	struct fws_agent *a;
	bool eal;
	bool running; /* workers launched, not yet stopped */
	bool bye;
	void *att; /* the answer's attachment (blob) */
	size_t att_len;
	/* The request's fields, read and checked by the protocol's table before its handler
	 * (fws_agent_args_read), and the config's limits they are checked against. */
	struct fws_agent_args args;
	uint32_t flows[FWS_CFG_MAX_STREAMS];
};

/** Field key of the request being answered (FWS_ARG_op_key), as its table read it. */
#define SRV_INT(s, k) ((s)->args.i[FWS_ARG_##k])
#define SRV_BOOL(s, k) ((s)->args.b[FWS_ARG_##k])
#define SRV_NUM(s, k) ((s)->args.f[FWS_ARG_##k])
#define SRV_STR(s, k) ((s)->args.s[FWS_ARG_##k])
#define SRV_JSON(s, k) ((const json_t *)(s)->args.j[FWS_ARG_##k])
/** The answer's attachment: a copy of n bytes at p, sent after its line. */
int srv_blob(struct fws_agent_srv *s, const void *p, size_t n);

/* The connection test's operations (fws_agent_srv_conn.c). */
int op_conn_trial(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e);
int op_conn_between(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e);
int op_conn_serve(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e);

#endif /* FWS_AGENT_SRV_INT_H */
