/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The agent's server, its connection-test operations (fws_agent_ops.h: conn_trial,
 * conn_between, conn_serve): an iteration on this host's clients with its marks sent as
 * events on the way, the wait between iterations, its servers answering another host's.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fws_agent_srv_int.h"
#include "fws_conntester.h"

/* An event line: what a long operation marks on its way. */
static void
send_event(struct fws_agent_srv *s, json_t *ev)
{
	pthread_mutex_lock(&s->out_lock);
	fws_wire_send(s->out, ev);
	pthread_mutex_unlock(&s->out_lock);
	json_decref(ev);
}

static void
ev_measure(void *arg, uint64_t n, double rate)
{
	send_event(arg,
		   json_pack("{s:s, s:I, s:f}", "ev", "measure", "n", (json_int_t)n, "rate", rate));
}

static void
ev_measured(void *arg, bool stopped, struct fws_conntrial *out)
{
	(void)out;
	send_event(arg, json_pack("{s:s, s:b}", "ev", "measured", "stopped", stopped));
}

/* The trial and its two per-second series, as one attachment. */
static int
conn_blob(struct fws_agent_srv *s, struct fws_conntrial *t, json_t *ans)
{
	size_t ne = t->st.est_per_s.n, nc = t->st.closed_per_s.n;
	uint8_t *b = malloc(sizeof(*t) + 8 * (ne + nc));
	int rc = -ENOMEM;

	if (b != NULL) {
		memcpy(b, t, sizeof(*t));
		if (ne) /* an empty series may have no array */
			memcpy(b + sizeof(*t), t->st.est_per_s.v, 8 * ne);
		if (nc)
			memcpy(b + sizeof(*t) + 8 * ne, t->st.closed_per_s.v, 8 * nc);
		json_object_set_new(ans, "n_est", json_integer((json_int_t)ne));
		json_object_set_new(ans, "n_closed", json_integer((json_int_t)nc));
		rc = srv_blob(s, b, sizeof(*t) + 8 * (ne + nc));
	}
	free(b);
	free(t->st.est_per_s.v);
	free(t->st.closed_per_s.v);
	return rc;
}

/* One iteration of the connection test on this host's clients; the answer carries the
 * trial, then its two per-second series. */
int
op_conn_trial(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	const struct fws_conntester_hooks hk = {
		.measure = ev_measure, .measured = ev_measured, .arg = s};
	double rate = SRV_NUM(s, conn_trial_rate);
	uint32_t nonce = (uint32_t)SRV_INT(s, conn_trial_nonce);
	bool progress = SRV_BOOL(s, conn_trial_progress);
	struct fws_conntrial t;
	int rc;

	(void)req;
	s->serving = false;
	s->interrupt = 0;
	s->busy = 1;
	rc = s->a->ops->conn_trial(s->a, rate, nonce, progress, &hk, &s->interrupt, &t, e);
	s->busy = 0;
	return rc < 0 ? rc : conn_blob(s, &t, ans);
}

int
op_conn_between(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	int rc;

	(void)req;
	(void)ans;
	s->interrupt = 0;
	s->busy = 1;
	rc = s->a->ops->conn_between(s->a, &s->interrupt, e);
	s->busy = 0;
	return rc;
}

/* Its servers answer iteration "nonce" of another host's clients until told otherwise. */
int
op_conn_serve(struct fws_agent_srv *s, const json_t *req, json_t *ans, struct fws_err *e)
{
	int rc;

	(void)req;
	(void)ans;
	rc = s->a->ops->conn_serve(s->a, (uint32_t)SRV_INT(s, conn_serve_nonce), e);
	s->serving = rc == 0;
	return rc;
}
