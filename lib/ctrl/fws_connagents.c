/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Connection tests over the controller's agents (fwstress connections). Each iteration runs
 * on the agent that owns the clients (every stream's tx_port); the agent that owns the
 * servers (every rx_port), when it is another load client, is first told which iteration to
 * answer. The DUT load probe runs here, over the measured phase the clients' agent marks
 * (opening; teardown: closing). One host or two, in this process or over ssh: the same
 * calls through the seam (fws_agent.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fws_compat.h"
#include "fws_conntest.h"
#include "fws_trial_int.h"
#include "fws_util.h"

struct fws_connagents {
	const struct fws_cfg *cfg;
	struct fws_agent *client, *server;
	volatile int *stop;
	bool progress;
	uint32_t nonce;
	/* The DUT load probe ("dut.load_command") over the measured phase. */
	struct fws_dutload_proc dl;
	bool dl_on, probed;
	char dl_err[sizeof(((struct fws_dutload *)0)->error)];
};

static void
probe_measure(void *arg, uint64_t n, double rate)
{
	struct fws_connagents *x = arg;
	const char *cmd = x->cfg->dut.load_cmd;
	int rc;

	if (!cmd[0] || x->dl_on)
		return;
	x->probed = true;
	rc = fws_dutload_start(&x->dl, cmd, FWS_MAX(1.0, (double)n / rate));
	x->dl_on = rc == 0;
	if (rc < 0)
		snprintf(x->dl_err, sizeof(x->dl_err), "cannot start \"%.80s\": %s", cmd,
			 strerror(-rc));
}

static void
probe_service(void *arg)
{
	struct fws_connagents *x = arg;

	if (x->dl_on)
		fws_dutload_drain(&x->dl); /* a chatty probe never blocks on its pipe */
}

static void
probe_measured(void *arg, bool stopped, struct fws_conntrial *out)
{
	struct fws_connagents *x = arg;

	out->dut_probed = x->probed;
	if (x->dl_on)
		fws_dutload_finish(&x->dl, stopped ? 1 : 15, &out->dut);
	else if (x->dl_err[0])
		strlcpy(out->dut.error, x->dl_err, sizeof(out->dut.error));
	x->dl_on = x->probed = false;
	x->dl_err[0] = '\0';
}

/* A lost agent makes the iteration invalid: its counts are not the DUT's. */
static int
lost(struct fws_connagents *x, int rc, struct fws_err *e)
{
	const char *why = fws_agent_lost(x->client);

	if (why == NULL)
		why = fws_agent_lost(x->server);
	if (why)
		return fws_err_set(e, FWS_ERR_FAULT, -EPIPE,
				   "%s; the iteration is invalid (its counts are not kept)", why);
	return rc;
}

static int
trial(void *arg, double rate, struct fws_conntrial *out, struct fws_err *e)
{
	struct fws_connagents *x = arg;
	const struct fws_conntester_hooks hk = {
		.measure = probe_measure,
		.service = probe_service,
		.measured = probe_measured,
		.arg = x,
	};
	int rc = 0;

	x->nonce++;
	if (x->server != x->client)
		rc = x->server->ops->conn_serve(x->server, x->nonce, e);
	if (rc == 0)
		rc = x->client->ops->conn_trial(x->client, rate, x->nonce, x->progress, &hk,
						x->stop, out, e);
	if (x->dl_on) { /* the agent ended without marking the end */
		fws_dutload_finish(&x->dl, 1, &out->dut);
		x->dl_on = false;
	}
	return lost(x, rc, e);
}

static int
between(void *arg, struct fws_err *e)
{
	struct fws_connagents *x = arg;

	return lost(x, x->client->ops->conn_between(x->client, x->stop, e), e);
}

/* The agent that owns config host h's ports. */
static struct fws_agent *
agent_of(struct fws_trial *t, unsigned int h)
{
	struct fws_agent *a;
	unsigned int k;

	FWS_TRIAL_FOREACH_AGENT(t, k, a)
	{
		if (a->host == h)
			return a;
	}
	return NULL;
}

struct fws_connagents *
fws_connagents_new(struct fws_trial *t, const struct fws_cfg *cfg, volatile int *stop,
		   bool progress, struct fws_err *e)
{
	struct fws_connagents *x;
	unsigned int c, v;
	char err[FWS_ERR_LEN];

	if (fws_config_conn_ends(cfg, &c, &v, err, sizeof(err)) < 0) {
		fws_err_set(e, FWS_ERR_CONFIG, -EINVAL, "%s", err);
		return NULL;
	}
	if ((x = calloc(1, sizeof(*x))) == NULL) {
		fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
		return NULL;
	}
	x->cfg = cfg;
	x->stop = stop;
	x->progress = progress;
	x->client = agent_of(t, c);
	x->server = agent_of(t, v);
	if (x->client == NULL || x->server == NULL || x->client->ops->conn_trial == NULL ||
	    x->server->ops->conn_serve == NULL) {
		fws_err_set(e, FWS_ERR_SETUP, -ENOTSUP,
			    "connections: host %s cannot run connection tests",
			    x->client && x->client->ops->conn_trial ? x->server->name
			    : x->client                             ? x->client->name
								    : "?");
		free(x);
		return NULL;
	}
	return x;
}

void
fws_connagents_free(struct fws_connagents *x)
{
	if (x && x->dl_on)
		fws_dutload_finish(&x->dl, 1, &(struct fws_dutload){0});
	free(x);
}

void
fws_connagents_ops(struct fws_connagents *x, struct fws_connops *ops)
{
	ops->trial = trial;
	ops->between = between;
	ops->arg = x;
}
