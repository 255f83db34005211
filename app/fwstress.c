/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwstress: DPDK firewall stress tester. Subcommands: run, validate.
 * Only this file exits; everything else returns errors to it.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "fws_report.h"
#include "fws_trial.h"

/* Exit codes, documented in --help and README.md. */
enum {
	EXIT_OK = 0,          /* run completed (loss or not: read the report) */
	EXIT_USAGE = 1,       /* bad command line */
	EXIT_CONFIG = 2,      /* bad config */
	EXIT_SETUP = 3,       /* EAL, ports, memory */
	EXIT_INTERRUPTED = 4, /* stopped by a signal; partial report written */
	EXIT_FAULT = 5,       /* failed during a trial; partial report written */
};

static volatile int stop_requests;

static void
on_signal(int sig)
{
	(void)sig;
	stop_requests++;
}

static void
usage_main(FILE *f)
{
	fprintf(f,
		"Usage: fwstress SUBCOMMAND [ARGS]\n"
		"\n"
		"DPDK firewall stress tester: sends test traffic through a device under test and\n"
		"measures throughput, loss, reordering, duplicates and latency per flow.\n"
		"\n"
		"Subcommands:\n"
		"  run [EAL ARGS --] [OPTIONS] [CONFIG]  run the trials of a config (default: the\n"
		"                                        embedded loopback config, no NIC needed)\n"
		"  validate [CONFIG]                     check a config, print it with defaults\n"
		"\n"
		"Options: -h, --help (also after a subcommand), -V, --version\n"
		"\n"
		"Exit status:\n"
		"  0  run completed (read the report for loss)\n"
		"  1  bad command line\n"
		"  2  bad config (the message names the JSON path, value and line)\n"
		"  3  setup failed (EAL, hugepages, ports, lcores)\n"
		"  4  interrupted (SIGINT/SIGTERM): the report holds what was measured, partial\n"
		"  5  a trial failed: the report holds what was measured, partial\n");
}

static void
usage_run(FILE *f)
{
	fprintf(f,
		"Usage: fwstress run [EAL ARGS --] [OPTIONS] [CONFIG]\n"
		"\n"
		"Runs one trial per frame-size entry of CONFIG (JSON; see config/), prints a text\n"
		"report on stdout and writes the JSON report (output.json in the config, default\n"
		"fwstress-report.json). Without CONFIG the embedded loopback config runs.\n"
		"EAL arguments come from the config's \"eal\" list, then from the command line\n"
		"before \"--\". Unless given, --in-memory is added (no shared files).\n"
		"\n"
		"Options:\n"
		"  -o, --json FILE      write the JSON report to FILE (\"\" for none)\n"
		"  -t, --text FILE      also write the text report to FILE\n"
		"  -d, --duration SEC   override the measured duration of each trial\n"
		"      --progress       print a progress line per second on stderr (default when\n"
		"                       stderr is a terminal)\n"
		"      --no-progress    never print progress lines\n"
		"  -q, --quiet          no text report on stdout\n"
		"  -h, --help           this help\n"
		"\n"
		"Ctrl-C ends the trial early (a second one skips the drain); the report is still\n"
		"written and marked partial. Exit status: see fwstress --help.\n");
}

static void
usage_validate(FILE *f)
{
	fprintf(f,
		"Usage: fwstress validate [CONFIG]\n"
		"\n"
		"Parses CONFIG strictly and prints the normalised config (every default filled\n"
		"in) as JSON. Without CONFIG, the embedded default. Exit 0 when valid, 2 with a\n"
		"one-line error naming the JSON path, value and line when not.\n");
}

static struct fws_cfg *
load_config(const char *path)
{
	char err[600];
	struct fws_cfg *cfg;

	if (path)
		cfg = fws_config_load(path, err, sizeof(err));
	else
		cfg = fws_config_parse(fws_config_default, strlen(fws_config_default), err,
				       sizeof(err));
	if (cfg == NULL)
		fprintf(stderr, "fwstress: %s\n", err);
	return cfg;
}

static int
cmd_validate(int argc, char **argv)
{
	struct fws_cfg *cfg;
	json_t *j;
	char *s;

	if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		usage_validate(stdout);
		return EXIT_OK;
	}
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		usage_validate(stderr);
		return EXIT_USAGE;
	}
	cfg = load_config(argc == 2 ? argv[1] : NULL);
	if (cfg == NULL)
		return EXIT_CONFIG;
	j = fws_config_to_json(cfg);
	s = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
	printf("%s\n", s);
	free(s);
	json_decref(j);
	fws_config_free(cfg);
	return EXIT_OK;
}

static bool
has_arg(char **v, int n, const char *prefix)
{
	int i;

	for (i = 0; i < n; i++)
		if (strncmp(v[i], prefix, strlen(prefix)) == 0)
			return true;
	return false;
}

static void
progress_cb(void *arg, const struct fws_progress *p)
{
	(void)arg;
	fws_report_progress(stderr, p);
}

static int
write_reports(const struct fws_cfg *cfg, struct fws_run *run, bool quiet)
{
	int rc = 0, r;

	run->finished = time(NULL);
	run->hugepage_peak = fws_trial_hugepage_peak();
	if (cfg->json_out[0] && (r = fws_report_write_json(cfg->json_out, run)) < 0) {
		fprintf(stderr, "fwstress: report: cannot write %s: %s\n", cfg->json_out,
			strerror(-r));
		rc = r;
	}
	if (cfg->text_out[0] && (r = fws_report_write_text(cfg->text_out, run)) < 0) {
		fprintf(stderr, "fwstress: report: cannot write %s: %s\n", cfg->text_out,
			strerror(-r));
		rc = r;
	}
	if (!quiet) {
		fws_report_text(stdout, run);
		fflush(stdout);
	}
	return rc;
}

static int
cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{"json", required_argument, NULL, 'o'},     {"text", required_argument, NULL, 't'},
		{"duration", required_argument, NULL, 'd'}, {"progress", no_argument, NULL, 'P'},
		{"no-progress", no_argument, NULL, 'N'},    {"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
	};
	char *eal_argv[FWS_CFG_MAX_EAL * 2 + 8];
	int eal_argc = 0, n_cli_eal = 0, c, i, rc, exit_code = EXIT_OK;
	char **cli_eal = NULL, *json_path = NULL, *text_path = NULL, *end;
	int progress = -1;
	bool quiet = false;
	double duration = 0;
	struct fws_cfg *cfg;
	struct fws_trial *trial;
	struct fws_run run;
	char err[600], prefix[64];
	struct fws_trial_opts topts = {.stop = &stop_requests};

	/* EAL arguments: between "run" and "--". */
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			cli_eal = &argv[1];
			n_cli_eal = i - 1;
			argv[i] = argv[0];
			argv += i;
			argc -= i;
			break;
		}
	}
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:t:d:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			json_path = optarg;
			break;
		case 't':
			text_path = optarg;
			break;
		case 'd':
			duration = strtod(optarg, &end);
			if (*end || !(duration >= 0.01 && duration <= 86400)) {
				fprintf(stderr,
					"fwstress: run: --duration \"%s\": give seconds, "
					"0.01-86400\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'P':
			progress = 1;
			break;
		case 'N':
			progress = 0;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			usage_run(stdout);
			return EXIT_OK;
		default:
			usage_run(stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "fwstress: run: one config file, got %d arguments\n",
			argc - optind);
		return EXIT_USAGE;
	}
	cfg = load_config(optind < argc ? argv[optind] : NULL);
	if (cfg == NULL)
		return EXIT_CONFIG;
	if (json_path)
		strlcpy(cfg->json_out, json_path, sizeof(cfg->json_out));
	if (text_path)
		strlcpy(cfg->text_out, text_path, sizeof(cfg->text_out));
	if (duration > 0)
		cfg->duration = duration;
	if (progress < 0)
		progress = isatty(STDERR_FILENO);

	eal_argv[eal_argc++] = (char *)"fwstress";
	for (i = 0; i < (int)cfg->n_eal; i++)
		eal_argv[eal_argc++] = cfg->eal[i];
	for (i = 0; i < n_cli_eal && eal_argc < (int)RTE_DIM(eal_argv) - 4; i++)
		eal_argv[eal_argc++] = cli_eal[i];
	if (!has_arg(eal_argv, eal_argc, "--file-prefix") &&
	    !has_arg(eal_argv, eal_argc, "--in-memory") &&
	    !has_arg(eal_argv, eal_argc, "--proc-type"))
		eal_argv[eal_argc++] = (char *)"--in-memory";
	if (!has_arg(eal_argv, eal_argc, "--log-level")) {
		snprintf(prefix, sizeof(prefix), "--log-level=notice");
		eal_argv[eal_argc++] = prefix;
	}
	eal_argv[eal_argc] = NULL;
	rc = rte_eal_init(eal_argc, eal_argv);
	if (rc < 0) {
		fprintf(stderr,
			"fwstress: setup: EAL init failed: %s (EAL args from the config "
			"\"eal\" list and before \"--\")\n",
			rte_strerror(rte_errno));
		fws_config_free(cfg);
		return EXIT_SETUP;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	trial = fws_trial_create(cfg, err, sizeof(err));
	if (trial == NULL) {
		fprintf(stderr, "fwstress: %s\n", err);
		fws_config_free(cfg);
		rte_eal_cleanup();
		return strncmp(err, "config:", 7) == 0 ? EXIT_CONFIG : EXIT_SETUP;
	}
	memset(&run, 0, sizeof(run));
	run.cfg = cfg;
	run.started = time(NULL);
	run.status = "running";
	run.n_ports = fws_trial_ports(trial, run.ports);
	run.results = calloc(cfg->n_sizes, sizeof(*run.results));
	if (run.results == NULL) {
		fprintf(stderr, "fwstress: setup: out of memory\n");
		fws_trial_destroy(trial);
		fws_config_free(cfg);
		rte_eal_cleanup();
		return EXIT_SETUP;
	}
	if (progress) {
		topts.progress = progress_cb;
	}
	for (i = 0; i < (int)cfg->n_sizes; i++) {
		struct fws_result *r = &run.results[run.n_results];

		rc = fws_trial_run(trial, (unsigned int)i, &topts, r, err, sizeof(err));
		if (rc < 0) {
			fprintf(stderr, "fwstress: %s\n", err);
			strlcpy(run.error, err, sizeof(run.error));
			run.status = "error";
			run.partial = true;
			exit_code = strncmp(err, "config:", 7) == 0 ? EXIT_CONFIG : EXIT_FAULT;
			break;
		}
		run.n_results++;
		if (r->partial || stop_requests) {
			run.status = "interrupted";
			run.partial = true;
			exit_code = EXIT_INTERRUPTED;
			break;
		}
		/* Save after every trial: a later fault cannot take this one with it. */
		if (i + 1 < (int)cfg->n_sizes && cfg->json_out[0]) {
			run.status = "running";
			run.partial = true;
			run.finished = time(NULL);
			run.hugepage_peak = fws_trial_hugepage_peak();
			fws_report_write_json(cfg->json_out, &run);
		}
	}
	if (exit_code == EXIT_OK) {
		run.status = "completed";
		run.partial = false;
	}
	if (write_reports(cfg, &run, quiet) < 0 && exit_code == EXIT_OK)
		exit_code = EXIT_FAULT;
	if (exit_code == EXIT_INTERRUPTED)
		fprintf(stderr, "fwstress: interrupted: the report is partial\n");
	for (i = 0; i < (int)run.n_results; i++)
		fws_result_free(&run.results[i]);
	free(run.results);
	fws_trial_destroy(trial);
	fws_config_free(cfg);
	rte_eal_cleanup();
	return exit_code;
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		usage_main(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage_main(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("fwstress %s\n", FWS_VERSION);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "run") == 0)
		return cmd_run(argc - 1, argv + 1);
	if (strcmp(argv[1], "validate") == 0)
		return cmd_validate(argc - 1, argv + 1);
	fprintf(stderr, "fwstress: unknown subcommand \"%s\" (run, validate; see --help)\n",
		argv[1]);
	return EXIT_USAGE;
}
