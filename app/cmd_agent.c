/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwstress agent: a load client's side of a test across hosts. It reads requests on stdin
 * and answers on stdout (the control stream, fws_wire.h), normally through ssh from the
 * controller; it listens nowhere. Its ports are the config's that name its host; the server
 * (fws_agent_srv.h) checks each request and runs the seam's operations on them through the
 * in-process agent (fws_agent.h). When its stdin ends,
 * whatever it was doing, it stops sending, releases its ports and exits: no generator left
 * flooding a lab after its controller is gone.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>

#include "fws_agent_local.h"
#include "fws_agent_ops.h"
#include "fws_agent_srv.h"
#include "fws_app.h"
#include "fws_host.h"

/* This process as the server's host: EAL for the config's ports as run starts it, the
 * in-process agent over them. */
static int
eal_start(struct fws_cfg *cfg)
{
	return app_eal_start(cfg, NULL, 0);
}

static void
eal_stop(void)
{
	rte_eal_cleanup();
}

static void
live(struct fws_agent *a, struct fws_agent_live *out)
{
	struct fws_host *h = fws_agent_local_host(a);

	a->ops->live(a, h && fws_sync_phase(&h->sync, rte_rdtsc()) == FWS_PHASE_WARMUP, out);
}

static const struct fws_agent_srv_env env = {
	.eal_start = eal_start,
	.eal_stop = eal_stop,
	.part = fws_agent_local_part,
	.idle = fws_agent_local_idle,
	.live = live,
	.stop = &app_stop_requests,
};

static void
usage_agent(FILE *f)
{
	fprintf(f, "Usage: fwstress agent [--doc]\n\n"
		   "The agent of a load client in a test across hosts: the controller (run,\n"
		   "search, sweep with a config whose \"hosts\" name this host) starts it, by\n"
		   "default over ssh (ssh -T -o BatchMode=yes HOST fwstress agent), and drives it\n"
		   "with JSON lines on its stdin and stdout; it owns the config's ports that name\n"
		   "its host. It listens on no port. When its stdin ends it stops sending,\n"
		   "releases its ports and exits. To restrict a key to it, in authorized_keys:\n"
		   "  restrict,command=\"fwstress agent\" ssh-ed25519 AAAA... controller\n"
		   "\nTo check a load client before a test, from the controller:\n"
		   "  fwstress hosts check CONFIG\n"
		   "\nOptions:\n"
		   "      --doc            the control protocol's reference in Markdown\n"
		   "                       (docs/reference/agent-protocol.md)\n"
		   "  -h, --help           this help\n");
}

/* Started by a key restricted to the agent (restrict,command="fwstress agent"), which runs
 * it whatever the client asked: a command that is not the agent (a campaign's setup sent
 * over that key) must fail saying so, not end as an agent whose stream closed. */
static bool
asked_other(void)
{
	const char *o = getenv("SSH_ORIGINAL_COMMAND");
	size_t n = o ? strlen(o) : 0;

	if (o == NULL || (n >= 5 && strcmp(o + n - 5, "agent") == 0))
		return false;
	fprintf(stderr,
		"fwstress agent: this ssh key runs only the agent, and was asked to run "
		"\"%.200s\": "
		"a host's setup or teardown needs a \"shell\" with another key\n",
		o);
	return true;
}

int
cmd_agent(int argc, char **argv)
{
	struct fws_wire_rd rd = {.fd = 0};
	struct fws_agent_srv *s;
	const char *why;
	bool bye;
	int rc = 0;

	if (argc == 2 && strcmp(argv[1], "--doc") == 0) {
		fws_agent_protocol_doc(stdout);
		return EXIT_OK;
	}
	if (app_help(argc, argv) || argc > 1) {
		usage_agent(argc > 1 && !app_help(argc, argv) ? stderr : stdout);
		return app_help(argc, argv) ? EXIT_OK : EXIT_USAGE;
	}
	if (asked_other())
		return EXIT_USAGE;
	if (isatty(0)) /* a person, not a controller: say what this is and what to run */
		fprintf(stderr,
			"fwstress agent %s: waiting for a controller's JSON requests on standard "
			"input (Ctrl-D ends it). A controller starts this over ssh itself: from "
			"the controller, fwstress hosts check CONFIG reaches it as a run would and "
			"says what is wrong.\n",
			FWS_VERSION);
	if ((s = fws_agent_srv_new(dup(1), &env)) == NULL) {
		fprintf(stderr, "fwstress agent: %s\n", strerror(ENOMEM));
		return fws_err_exit_code(FWS_ERR_FAULT);
	}
	dup2(2, 1); /* anything printed goes to stderr, never into the control stream */
	signal(SIGPIPE, SIG_IGN); /* a closed stream is an error to write, then it stops */
	/* Ctrl-C on an agent started by hand (or TERM, HUP): it stops sending, releases its
	 * ports and exits 4 with one line, as a run does. */
	app_catch_stop_signals();
	why = fws_agent_srv_serve(s, &rd, &rc);
	bye = fws_agent_srv_bye(s);
	if (!bye && app_stop_requests)
		fprintf(stderr, "fwstress agent: %s: stopped sending, ports released\n", why);
	else if (!bye)
		fprintf(stderr, "fwstress agent: control stream: %s: stopping\n",
			rc < 0 ? strerror(-rc) : why);
	fws_agent_srv_free(s);
	fws_wire_rd_free(&rd);
	return bye                 ? EXIT_OK
	       : app_stop_requests ? fws_err_exit_code(FWS_ERR_INTERRUPTED)
				   : fws_err_exit_code(FWS_ERR_FAULT);
}
