/* SPDX-License-Identifier: BSD-3-Clause */
/* fwstress connections: a config's "connections" test over its ports (this process's, or
 * load clients' with "hosts"), and its report. The method is lib/ctrl/fws_connmethod.c, the
 * trials over the agents lib/ctrl/fws_connagents.c, each agent's engine
 * lib/host/fws_conntester.c. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_eal.h>

#include "fws_agents.h"
#include "fws_app.h"
#include "fws_compat.h"
#include "fws_conn.h"
#include "fws_conntest.h"
#include "fws_report.h"

static void
usage_conn(FILE *f)
{
	fprintf(f,
		"Usage: fwstress connections [EAL ARGS --] [OPTIONS] CONFIG\n"
		"\n"
		"The config's \"connections\" test. Every flow of every stream (\"l4\": \"tcp\") "
		"is\n"
		"one connection: SYN, SYN-ACK, ACK with a request of \"data\" bytes, a response "
		"of\n"
		"as many, then FIN (rate) or held (capacity, teardown).\n"
		"  rate      the highest connection rate at which no connection is impaired\n"
		"            (failed, unfinished, or had to send anything twice): the NDR search\n"
		"  capacity  open at \"rate\" until the first connection fails: how many the DUT\n"
		"            held then, and why the first failed\n"
		"  teardown  open at \"open_rate\", hold, then close: the highest close rate\n"
		"Every iteration attempts the same connections; between iterations each is reset\n"
		"(RST) and the DUT's aging time (\"aging\") waited (RFC 3511).\n"
		"\n"
		"Options:\n"
		"  -o, --json FILE   the JSON report (default: the config's output.json)\n"
		"      --at RATE     one iteration at RATE per second instead of the search\n"
		"      --repeat N    the whole test N times (config repeat; a search anew each\n"
		"                    time): a cell per repetition, the report their spread\n"
		"      --stats FILE  one JSON object per iteration (NDJSON) on FILE (\"-\": "
		"stdout)\n"
		"      --progress    a progress line per second on stderr (default when stderr is\n"
		"                    a terminal)\n"
		"      --no-progress never print progress lines\n"
		"  -q, --quiet       no text report on stdout\n"
		"  -h, --help        this help\n");
}

struct conn_args {
	char **cli_eal;
	int n_cli_eal;
	const char *config, *json, *stats;
	double at;
	unsigned int repeat; /**< --repeat; 0: the config's */
	int progress;        /**< -1: when stderr is a terminal */
	bool quiet;
};

/* What is saved after each iteration: the report so far, a line of live statistics. */
struct saver {
	const struct fws_cfg *cfg;
	FILE *stats;
	int *stats_err; /**< the first failed --stats write */
	time_t t0;
};

/* connections' options */
#define CONN_SHORTOPTS "o:qh"
const struct option app_conn_opts[] = {
	{"json", required_argument, NULL, 'o'},
	{"at", required_argument, NULL, 'A'},
	{"stats", required_argument, NULL, 's'},
	{"progress", no_argument, NULL, 'P'},
	{"no-progress", no_argument, NULL, 'N'},
	{"quiet", no_argument, NULL, 'q'},
	{"repeat", required_argument, NULL, 'r'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static int
parse_conn_args(int argc, char **argv, struct conn_args *a, int *code)
{
	char *end;
	int c;

	*code = EXIT_USAGE;
	optind = 1;
	while ((c = app_getopt("connections", argc, argv, CONN_SHORTOPTS, app_conn_opts)) != -1) {
		switch (c) {
		case 'o':
			a->json = optarg;
			break;
		case 'A':
			a->at = strtod(optarg, &end);
			if (*end || !(a->at >= 1 && a->at <= 1e8)) {
				fprintf(stderr,
					"fwstress: --at \"%s\": give a rate, 1-1e8 per second\n",
					optarg);
				return -1;
			}
			break;
		case 's':
			a->stats = optarg;
			break;
		case 'r':
			if (app_repeat_arg("connections", optarg, &a->repeat) < 0)
				return -1;
			break;
		case 'P':
		case 'N':
			a->progress = c == 'P';
			break;
		case 'q':
			a->quiet = true;
			break;
		case 'h':
			usage_conn(stdout);
			*code = EXIT_OK;
			return -1;
		default: /* said */
			return -1;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "fwstress: connections: give one config file\n");
		return -1;
	}
	a->config = argv[optind];
	return 0;
}

static void
save(void *arg, const struct fws_connrun *run)
{
	const struct saver *v = arg;
	const struct fws_conntrial *t = &run->trials[run->n_trials - 1];
	struct fws_connrun r = *run;

	if (v->stats) {
		fprintf(v->stats,
			"{\"t\": %ld, \"trial\": %u, \"phase\": \"result\", \"frame_size\": "
			"\"connections\", \"test\": \"%s\", \"rate\": %.1f, \"achieved\": %.1f, "
			"\"attempted\": %lu, \"established\": %lu, \"closed\": %lu, \"held\": %lu, "
			"\"failed\": %lu, \"impaired\": %lu}\n",
			(long)(time(NULL) - v->t0), run->n_trials - 1,
			fws_conn_test_name(run->test), t->rate, t->achieved,
			(unsigned long)t->st.attempted, (unsigned long)t->st.established,
			(unsigned long)t->st.closed, (unsigned long)t->st.held,
			(unsigned long)fws_conn_failed(&t->st), (unsigned long)t->impaired);
		app_out_check(v->stats, v->stats_err);
	}
	if (!v->cfg->json_out[0])
		return;
	r.partial = true; /* a later trial may still come */
	r.running = true;
	r.finished = time(NULL);
	fws_report_conn_write_json(v->cfg->json_out, &r);
}

/* EAL up where this process owns ports: the agents, the method over them, the report. */
static int
conn_with_agents(const struct fws_cfg *cfg, const struct conn_args *a, FILE *stats, int *stats_err)
{
	struct fws_connrun run = {.cfg = cfg, .started = time(NULL), .fixed_rate = a->at};
	struct saver v = {.cfg = cfg, .stats = stats, .stats_err = stats_err, .t0 = run.started};
	struct fws_connops ops = {.saved = save, .saved_arg = &v, .log = stderr};
	struct fws_connagents *x = NULL;
	struct fws_trial *t;
	struct fws_err e = {0};
	int code = EXIT_OK, rc;

	if ((t = fws_trial_create(cfg, &e)) == NULL ||
	    (x = fws_connagents_new(t, cfg, &app_stop_requests, a->progress, &e)) == NULL) {
		fprintf(stderr, "fwstress: %s\n", e.msg);
		fws_trial_destroy(t);
		return fws_err_exit_code(e.kind);
	}
	fws_connagents_ops(x, &ops);
	run.count = 0;
	for (unsigned int s = 0; s < cfg->n_streams; s++)
		run.count += cfg->streams[s].flows.count;
	run.state_bytes = fws_conns_state_size();
	rc = fws_conntest_execute(&run, &ops, &e);
	run.memory_bytes = run.n_trials ? run.trials[run.n_trials - 1].engine_bytes : 0;
	run.finished = time(NULL);
	run.n_ports = fws_trial_ports(t, run.ports);
	if (cfg->n_hosts)
		run.n_hosts = fws_trial_hosts(t, run.hosts, FWS_CFG_MAX_HOSTS + 1);
	if (rc < 0) {
		run.partial = true;
		code = fws_err_exit_code(e.kind);
		if (e.kind != FWS_ERR_INTERRUPTED) {
			fprintf(stderr, "fwstress: %s\n", e.msg);
			strlcpy(run.error, e.msg, sizeof(run.error));
		} else {
			fprintf(stderr, "fwstress: interrupted: the report is partial\n");
		}
	}
	if (cfg->json_out[0] && (rc = fws_report_conn_write_json(cfg->json_out, &run)) < 0) {
		fprintf(stderr, "fwstress: report: cannot write %s: %s\n", cfg->json_out,
			strerror(-rc));
		if (code == EXIT_OK)
			code = fws_err_exit_code(FWS_ERR_FAULT);
	}
	if (!a->quiet)
		fws_report_conn_text(stdout, &run);
	fws_connrun_free(&run);
	fws_connagents_free(x);
	fws_trial_destroy(t);
	return code;
}

int
cmd_connections(int argc, char **argv)
{
	struct conn_args a = {.progress = -1};
	char err[FWS_ERR_LEN];
	struct fws_cfg *cfg;
	FILE *stats = NULL;
	int stats_err = 0;
	bool eal;
	int code;

	app_split_eal(&argc, &argv, &a.cli_eal, &a.n_cli_eal);
	if (app_eal_misplaced("connections", a.cli_eal, a.n_cli_eal, CONN_SHORTOPTS, app_conn_opts))
		return EXIT_USAGE;
	if (parse_conn_args(argc, argv, &a, &code) < 0)
		return code;
	if ((cfg = app_load_local_config(a.config)) == NULL)
		return app_config_exit();
	if (cfg->conn.test == FWS_CONN_NONE) {
		fprintf(stderr,
			"fwstress: connections: %s has no \"connections\" section (see "
			"fwstress validate --help)\n",
			a.config);
		fws_config_free(cfg);
		return fws_err_exit_code(FWS_ERR_CONFIG);
	}
	if (a.repeat > 0)
		cfg->repeat = a.repeat;
	if (cfg->dut.telemetry[0]) /* said, not silently left out */
		fprintf(stderr, "fwstress: connections: dut.telemetry is not sampled in connection "
				"tests (run, search and sweep only); dut.load_command is\n");
	if (a.json &&
	    strlcpy(cfg->json_out, a.json, sizeof(cfg->json_out)) >= sizeof(cfg->json_out)) {
		fprintf(stderr, "fwstress: -o: the path is too long\n");
		fws_config_free(cfg);
		return fws_err_exit_code(FWS_ERR_CONFIG);
	}
	if (app_expand_outputs(cfg, "connections") < 0) {
		fws_config_free(cfg);
		return fws_err_exit_code(FWS_ERR_CONFIG);
	}
	if (cfg->json_out[0] && (code = fws_report_check_path(cfg->json_out)) < 0) {
		fprintf(stderr, "fwstress: report: cannot write %s: %s\n", cfg->json_out,
			strerror(-code));
		fws_config_free(cfg);
		return fws_err_exit_code(FWS_ERR_CONFIG);
	}
	if (a.stats && (stats = strcmp(a.stats, "-") ? fopen(a.stats, "w") : stdout) == NULL) {
		fprintf(stderr, "fwstress: --stats %s: %s\n", a.stats, strerror(errno));
		fws_config_free(cfg);
		return fws_err_exit_code(FWS_ERR_CONFIG);
	}
	if (fws_config_conn_ends(cfg, &(unsigned int){0}, &(unsigned int){0}, err, sizeof(err)) <
	    0) {
		fprintf(stderr, "fwstress: %s\n", err);
		fws_config_free(cfg);
		return fws_err_exit_code(FWS_ERR_CONFIG);
	}
	if (a.progress < 0)
		a.progress = isatty(STDERR_FILENO);
	app_keep_earlier_report(cfg, a.json, false);
	app_catch_stop_signals();
	/* A controller whose ports are all its agents' runs no EAL. */
	eal = fws_config_local_ports(cfg);
	if (eal && app_eal_start(cfg, a.cli_eal, a.n_cli_eal) < 0) {
		eal = false;
		code = fws_err_exit_code(FWS_ERR_SETUP);
	} else {
		code = conn_with_agents(cfg, &a, stats, &stats_err);
	}
	if (stats && app_out_close(stats, "--stats", a.stats, stats_err) < 0 &&
	    (code == EXIT_OK || code == EXIT_EXPECT))
		code = EXIT_OUTPUT;
	fws_config_free(cfg);
	if (eal)
		rte_eal_cleanup();
	return code;
}
