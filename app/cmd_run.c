/* SPDX-License-Identifier: BSD-3-Clause */
/* fwstress run, search and sweep: options, EAL, the trial, the path check, the method,
 * the reports. The methodology itself is lib/ctrl/fws_method. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <rte_common.h>
#include <rte_eal.h>

#include "fws_estimate.h"
#include "fws_agents.h"
#include "fws_app.h"
#include "fws_campaign.h"
#include "fws_cell.h"
#include "fws_compat.h"
#include "fws_method.h"
#include "fws_pace.h"
#include "fws_featdata.h"
#include "fws_report.h"

/* Per command: what it does, its own options, the config sections it reads beyond the
 * common ones (every command reads ports, streams, flows, rate, frame_size, duration,
 * warmup, drain, dut, scenario, eal, hosts, output). */
static const struct {
	const char *what, *options, *sections, *examples;
} k_usage[] = {
	[FWS_METHOD_RUN] =
		{"Runs one trial per frame-size entry of CONFIG at the configured rate: the loss,\n"
		 "latency and throughput at that load.\n",
		 "", "nat, expect, blocklist, payload, tunnel, tcp",
		 "  fwstress run                               the embedded loopback, no NIC\n"
		 "  fwstress run -d 10 config/lab-routing.json 10 s trials through the lab\n"
		 "  fwstress run -a 0000:03:00.0 -a 0000:03:00.1 -- config/hw-two-port.json\n"},
	[FWS_METHOD_SEARCH] =
		{"Finds, per frame-size entry, the highest share of the configured rate whose "
		 "loss\n"
		 "stays at 0 (NDR) and at or under search.pdr (PDR, default 0.5 %): short trials\n"
		 "narrow the interval to search.width, then the result must hold in a trial of\n"
		 "search.final seconds (RFC 2544 section 24: 60). The report holds every trial of\n"
		 "the search and the two trials NDR and PDR stand on.\n",
		 "      --short SEC      duration of narrowing trials (config search.short, 1)\n"
		 "      --final SEC      duration of confirming trials (config search.final, 60)\n",
		 "search {short, final, width, pdr, min, max_trials}; as run: nat, expect, "
		 "blocklist, payload, tunnel, tcp",
		 "  fwstress search --final 10 config/hw-two-port.json\n"
		 "  fwstress search -o 'results/{time}-{command}/report.json' CONFIG\n"},
	[FWS_METHOD_SWEEP] =
		{"Measures the qualification matrix: every frame size (\"frame_size\": "
		 "\"rfc2544\"\n"
		 "gives 64...1518) in each of sweep.directions (upload, download, bidir), "
		 "searched\n"
		 "(sweep.mode \"search\", the default: NDR and PDR as search finds them) or at "
		 "the\n"
		 "configured rate (\"fixed\"); then a latency trial at each sweep.latency_at "
		 "share\n"
		 "of the NDR (e.g. [0.5, 0.9]) and sweep.back_to_back bursts ({repeat, seconds}:\n"
		 "the longest loss-free burst, repeated, with avg/min/max/stddev).\n",
		 "      --short SEC      duration of narrowing trials (config search.short, 1)\n"
		 "      --final SEC      duration of confirming trials (config search.final, 60)\n",
		 "sweep {directions, mode, latency_at, back_to_back}, search; as run: nat, "
		 "expect, blocklist, payload, tunnel, tcp",
		 "  fwstress sweep -o dec740.json config/hw-two-port.json\n"
		 "  fwstress sweep --resume -o dec740.json config/hw-two-port.json   after "
		 "Ctrl-C\n"},
};

static const char *mode_name(enum fws_method_mode mode);

static void
usage_run(FILE *f, enum fws_method_mode mode)
{
	const char *name = mode_name(mode);

	fprintf(f, "Usage: fwstress %s [EAL ARGS --] [OPTIONS] [CONFIG]\n\n", name);
	fputs(k_usage[mode].what, f);
	fprintf(f,
		"\nCONFIG is JSON (see config/ and docs/reference/configuration.md); without\n"
		"it the embedded loopback config runs. It prints a text report on stdout and\n"
		"writes the JSON report (output.json in the config, default\n"
		"fwstress-report.json; \"{time}\" and \"{command}\" in a report path make a\n"
		"folder per run). EAL arguments are the config's \"eal\" list followed by those\n"
		"before \"--\" (the report records both).\n"
		"Unless given, --in-memory is added (no shared files).\n"
		"\n"
		"Options:\n"
		"  -o, --json FILE      write the JSON report to FILE (\"\" for none)\n"
		"  -t, --text FILE      also write the text report to FILE\n"
		"  -d, --duration SEC   override the measured duration of each trial\n"
		"      --repeat N       measure each cell N times (config repeat): the report\n"
		"                       gives each cell's spread\n"
		"      --resume         keep what the existing JSON report completed (sweep: its\n"
		"                       cells; run, search: each frame size's repetitions) and\n"
		"                       run only the rest\n"
		"      --progress       print a progress line per second on stderr (default when\n"
		"                       stderr is a terminal)\n"
		"      --no-progress    never print progress lines\n"
		"      --stats FILE     one JSON object per second (NDJSON) on FILE (\"-\": "
		"stdout),\n"
		"                       and one per trial with its totals; also on DPDK's "
		"telemetry\n"
		"                       socket as /fwstress/streams (dpdk-telemetry.py)\n"
		"  -q, --quiet          no text report on stdout\n");
	fputs(k_usage[mode].options, f);
	fprintf(f,
		"  -h, --help           this help\n"
		"\n"
		"Config sections %s reads beyond the common ones (ports, streams or direction,\n"
		"flows, rate, frame_size, duration, warmup, drain, dut, scenario, eal, hosts,\n"
		"output, lcores): %s.\n"
		"\n"
		"Ctrl-C ends the trial early (a second one skips the drain); the report is still\n"
		"written and marked partial. Exit status: see fwstress --help.\n"
		"\nExamples:\n%s",
		name, k_usage[mode].sections, k_usage[mode].examples);
}

/* What the progress callback drives: the line on stderr and the live statistics. */
struct progress_ctx {
	bool line;
	struct app_live live;
	struct fws_pace pace; /**< the time left, cell by cell */
};

static double
mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
progress_cb(void *arg, const struct fws_progress *p)
{
	struct progress_ctx *x = arg;
	char key[96];

	snprintf(key, sizeof(key), "%s %s", p->frame_size ? p->frame_size : "",
		 p->direction ? p->direction : "");
	fws_pace_trial(&x->pace, key, x->live.trial, mono_s());
	if (x->line)
		fws_report_progress(stderr, p, x->live.trial + 1,
				    fws_pace_trials(&x->pace, x->live.trial),
				    fws_pace_left(&x->pace, mono_s(), true),
				    fws_pace_left(&x->pace, mono_s(), false));
	app_live_progress(&x->live, p);
}

/* Before a search or sweep: its cells, and how long they take at least and at most. */
static void
say_estimate(const struct fws_estimate *e, unsigned int cells, const char *cmd)
{
	char t[120];

	fprintf(stderr,
		"fwstress %s: %u cell%s, %s (an estimate; once a cell is measured, from its "
		"time)\n",
		cmd, cells, cells == 1 ? "" : "s", app_estimate_text(t, sizeof(t), e, cells));
}

/* The command line of run, search and sweep. */
struct run_args {
	enum fws_method_mode mode;
	char **cli_eal;
	int n_cli_eal;
	const char *config, *json, *text, *stats;
	FILE *stats_f;
	int stats_err; /**< the first failed --stats write */
	double duration, final_s, short_s;
	unsigned int repeat; /**< --repeat; 0: the config's */
	int progress;        /**< -1: when stderr is a terminal */
	bool quiet, resume;
};

static int
seconds_arg(const char *opt, const char *val, double lo, double hi, double *out)
{
	char *end;

	*out = strtod(val, &end);
	if (*end || !(*out >= lo && *out <= hi)) {
		fprintf(stderr, "fwstress: --%s \"%s\": give seconds, %g-%g\n", opt, val, lo, hi);
		return -1;
	}
	return 0;
}

static const char *
mode_name(enum fws_method_mode mode)
{
	static const char *const names[] = {
#define MODE_NAME(name, cmd, doc) [FWS_METHOD_##name] = cmd,
		FWS_METHOD_MODES(MODE_NAME)
#undef MODE_NAME
	};

	return names[mode];
}

/* An option of another of the three commands. */
static int
not_here(enum fws_method_mode mode, const char *opt)
{
	fprintf(stderr, "fwstress %s: --%s is an option of search and sweep\n", mode_name(mode),
		opt);
	return -1;
}

/* run, search and sweep's options (fwstress help --bash-completion lists them too); run
 * parses search's too, to say they are search's and sweep's. */
#define RUN_SHORTOPTS "o:t:d:qh"
/* clang-format off */
#define RUN_OPTS                                                                                   \
	{"json", required_argument, NULL, 'o'},      {"text", required_argument, NULL, 't'},       \
	{"duration", required_argument, NULL, 'd'},  {"progress", no_argument, NULL, 'P'},         \
	{"no-progress", no_argument, NULL, 'N'},     {"quiet", no_argument, NULL, 'q'},            \
	{"help", no_argument, NULL, 'h'},            {"resume", no_argument, NULL, 'R'},           \
	{"stats", required_argument, NULL, 's'},     {"repeat", required_argument, NULL, 'r'}
/* clang-format on */
const struct option app_run_only_opts[] = {RUN_OPTS, {NULL, 0, NULL, 0}};
const struct option app_run_opts[] = {RUN_OPTS,
				      {"final", required_argument, NULL, 'F'},
				      {"short", required_argument, NULL, 'S'},
				      {NULL, 0, NULL, 0}};

/* Parse options into a; returns -1 to exit with *code. */
static int
parse_run_args(int argc, char **argv, struct run_args *a, int *code)
{
	int c, rc = 0;

	*code = EXIT_USAGE;
	optind = 1;
	while (rc == 0 && (c = app_getopt(mode_name(a->mode), argc, argv, RUN_SHORTOPTS,
					  app_run_opts)) != -1) {
		switch (c) {
		case 'o':
			a->json = optarg;
			break;
		case 't':
			a->text = optarg;
			break;
		case 'd':
			rc = seconds_arg("duration", optarg, 0.01, 86400, &a->duration);
			break;
		case 'F':
			rc = a->mode == FWS_METHOD_RUN
				     ? not_here(a->mode, "final")
				     : seconds_arg("final", optarg, 0.1, 86400, &a->final_s);
			break;
		case 'S':
			rc = a->mode == FWS_METHOD_RUN
				     ? not_here(a->mode, "short")
				     : seconds_arg("short", optarg, 0.1, 86400, &a->short_s);
			break;
		case 'R':
			a->resume = true;
			break;
		case 's':
			a->stats = optarg;
			break;
		case 'r':
			rc = app_repeat_arg(mode_name(a->mode), optarg, &a->repeat);
			break;
		case 'P':
			a->progress = 1;
			break;
		case 'N':
			a->progress = 0;
			break;
		case 'q':
			a->quiet = true;
			break;
		case 'h':
			usage_run(stdout, a->mode);
			*code = EXIT_OK;
			return -1;
		default: /* said */
			return -1;
		}
	}
	if (rc == 0 && argc - optind > 1) {
		fprintf(stderr,
			"fwstress %s: one config file, got %d arguments (fwstress %s --help)\n",
			mode_name(a->mode), argc - optind, mode_name(a->mode));
		return -1;
	}
	if (rc < 0)
		return -1;
	a->config = optind < argc ? argv[optind] : NULL;
	return 0;
}

/* The command line's overrides of the config. */
static int
apply_args(struct fws_cfg *cfg, const struct run_args *a)
{
	if ((a->json &&
	     strlcpy(cfg->json_out, a->json, sizeof(cfg->json_out)) >= sizeof(cfg->json_out)) ||
	    (a->text &&
	     strlcpy(cfg->text_out, a->text, sizeof(cfg->text_out)) >= sizeof(cfg->text_out))) {
		fprintf(stderr, "fwstress: an output path is longer than %zu characters\n",
			sizeof(cfg->json_out) - 1);
		return -1;
	}
	if (a->duration > 0)
		cfg->duration = a->duration;
	if (a->repeat > 0)
		cfg->repeat = a->repeat;
	if (a->final_s > 0)
		cfg->search.final_s = a->final_s;
	if (a->short_s > 0)
		cfg->search.short_s = a->short_s;
	if (cfg->search.final_s < cfg->search.short_s)
		cfg->search.final_s = cfg->search.short_s;
	return 0;
}

/* Report files must be writable before any load is sent, not found out after the run. */
static int
check_outputs(const struct fws_cfg *cfg)
{
	const char *paths[] = {cfg->json_out, cfg->text_out};
	unsigned int i;
	int rc;

	for (i = 0; i < 2; i++) {
		if (!paths[i][0] || (rc = fws_report_check_path(paths[i])) == 0)
			continue;
		fprintf(stderr, "fwstress: report: cannot write %s: %s\n", paths[i], strerror(-rc));
		return -1;
	}
	return 0;
}

static int
write_reports(const struct fws_cfg *cfg, struct fws_run *run, bool quiet)
{
	int rc = 0, r;

	run->finished = time(NULL);
	if (run->trial) {
		run->hugepage_peak = fws_trial_hugepage_peak(run->trial);
		run->n_ports = fws_trial_ports(run->trial, run->ports);
	}
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
		int err = 0;

		fws_report_text(stdout, run);
		app_out_check(stdout, &err); /* told at the end, with its errno */
	}
	return rc;
}

/* Save what was measured so far: a later fault cannot take it with it. */
static void
save_progress(void *arg, struct fws_run *run)
{
	const struct fws_cfg *cfg = arg;

	if (!cfg->json_out[0])
		return;
	run->status = FWS_RUN_RUNNING;
	run->partial = true;
	run->finished = time(NULL);
	run->hugepage_peak = fws_trial_hugepage_peak(run->trial);
	fws_report_write_json(cfg->json_out, run);
}

/* The path check, then the method; the run's status and error from what failed. */
static int
measure_run(struct fws_run *run, const struct run_args *a, const struct fws_trial_opts *topts,
	    struct fws_err *e)
{
	struct fws_method m = {.cfg = run->cfg,
			       .run = run,
			       .measure = fws_method_measure_trial,
			       .measure_arg = run->trial,
			       .base = topts,
			       .saved = save_progress,
			       .saved_arg = (void *)run->cfg,
			       .log = stderr};
	int rc = 0;

	if (run->cfg->path_check) {
		rc = fws_trial_path_check(run->trial, topts, run->paths, e);
		for (run->n_paths = run->cfg->n_streams;
		     run->n_paths && run->paths[run->n_paths - 1].stream[0] == '\0';)
			run->n_paths--;
	}
	if (rc == 0)
		rc = fws_method_execute(&m, a->mode, e);
	if (rc == 0 && app_stop_requests)
		rc = fws_err_set(e, FWS_ERR_INTERRUPTED, -EINTR, "interrupted");
	if (rc < 0) {
		run->partial = true;
		run->status = e->kind == FWS_ERR_INTERRUPTED ? FWS_RUN_INTERRUPTED
			      : e->kind == FWS_ERR_PATH      ? FWS_RUN_PATH_FAILED
							     : FWS_RUN_ERROR;
		if (e->kind != FWS_ERR_INTERRUPTED) {
			fprintf(stderr, "fwstress: %s\n", e->msg);
			strlcpy(run->error, e->msg, sizeof(run->error));
		}
		return rc;
	}
	run->status = FWS_RUN_COMPLETED;
	run->partial = false;
	return 0;
}

/* Expectations the DUT missed (NAT, flows to block: the features' failed hooks), the first
 * said on stderr: EXIT_EXPECT, or EXIT_OK. */
static int
expectations(const struct fws_run *run)
{
	unsigned int i, s, failed = 0;
	char why[256];

	for (i = 0; i < run->n_results; i++)
		for (s = 0; s < run->results[i].n_streams; s++) {
			const struct fws_stream_result *x = &run->results[i].streams[s];

			if (fws_fd_failed(&run->results[i].fd, x->fd, why, sizeof(why)) &&
			    failed++ == 0)
				fprintf(stderr, "fwstress: expectation failed: stream %s: %s\n",
					x->name, why);
		}
	if (failed > 1)
		fprintf(stderr,
			"fwstress: expectations failed in %u streams' results in all (see the "
			"report)\n",
			failed);
	return failed ? EXIT_EXPECT : EXIT_OK;
}

/* Why mode cannot continue the report whose cells are c (NULL: it can): a sweep continues a
 * sweep's cells, run and search each their own command's repetitions. */
static const char *
not_continuable(const struct fws_cells *c, enum fws_method_mode mode)
{
	const char *kind = mode == FWS_METHOD_RUN ? "run" : "ndr";
	unsigned int i, reps = 0;

	for (i = 0; i < c->n_done; i++)
		reps += c->done[i].repetition > 0;
	if (mode == FWS_METHOD_SWEEP)
		return reps ? "it is a run's or search's report, not a sweep's" : NULL;
	if (reps == 0 || reps < c->n_done)
		return "it records no finished repetitions of a run or search (a sweep's report, "
		       "or "
		       "one from an older fwstress)";
	for (i = 0; i < c->n; i++)
		if (strcmp(c->c[i].kind, kind) &&
		    (mode == FWS_METHOD_RUN || strcmp(c->c[i].kind, "pdr")))
			return mode == FWS_METHOD_RUN ? "its cells are a search's, not a run's"
						      : "its cells are a run's, not a search's";
	return NULL;
}

/*
 * What of the measurement the report at path was made with differs from cfg's (issue 51, item
 * 7: resumed repetitions at 10 kpps and one at 20 kpps would be one median): NULL when
 * nothing does, else why in buf, naming the first key that differs and both values. The
 * repetitions and a sweep's directions may differ (resume adds them); everything a cell's
 * figure depends on may not.
 */
static const char *
config_differs(const char *path, const struct fws_cfg *cfg, char *buf, size_t len)
{
	static const char *const keys[] = {"streams", "frame_size", "duration",   "warmup",
					   "drain",   "rate_layer", "burst",      "l4",
					   "search",  "sweep",      "seq_window", "dut"};
	json_t *rep = json_load_file(path, 0, NULL), *now = fws_config_to_json(cfg);
	json_t *was = json_object_get(rep, "config");
	const char *why = NULL;
	char a[96], b[96], at[128];
	unsigned int i;

	for (i = 0; was && now && why == NULL && i < sizeof(keys) / sizeof(keys[0]); i++)
		if (fws_report_config_diff(was, now, keys[i], "directions", at, sizeof(at), a, b,
					   sizeof(a))) { /* resume may add directions */
			snprintf(buf, len,
				 "it was measured with \"%s\": %s, this config has %s: resume with "
				 "the config it was measured with",
				 at, a, b);
			why = buf;
		}
	json_decref(rep);
	json_decref(now);
	return why;
}

/* A default sweep leaves out the directions its streams do not go (issue 51, item 15): one
 * line says which, and what would sweep them. */
static void
say_skipped_dirs(const struct fws_cfg *cfg)
{
	static const enum fws_dir dirs[] = {FWS_DIR_UPLOAD, FWS_DIR_DOWNLOAD, FWS_DIR_BIDIR};
	char list[64] = "";
	unsigned int i;

	for (i = 0; i < RTE_DIM(dirs); i++)
		if (cfg->sweep.dirs_skipped & (1u << dirs[i]))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 list[0] ? " and " : "", fws_dir_name(dirs[i]));
	fprintf(stderr,
		"fwstress sweep: %s not swept: no stream goes that way (streams each way, or "
		"\"direction\": \"bidir\", sweep them)\n",
		list);
}

/* With EAL up: the trial, the run, the reports. Returns the exit status. */
static int
run_with_eal(struct fws_cfg *cfg, struct run_args *a)
{
	static const enum fws_campaign_cmd as_cmd[] = {[FWS_METHOD_RUN] = FWS_CAMPAIGN_RUN,
						       [FWS_METHOD_SEARCH] = FWS_CAMPAIGN_SEARCH,
						       [FWS_METHOD_SWEEP] = FWS_CAMPAIGN_SWEEP};
	struct progress_ctx pctx = {.line = a->progress > 0, .live = {.cfg = cfg, .f = a->stats_f}};
	struct fws_trial_opts topts = {.stop = &app_stop_requests, .progress_arg = &pctx};
	struct fws_cells carried = {0};
	struct fws_run run = {.cfg = cfg, .started = time(NULL), .status = FWS_RUN_RUNNING};
	struct fws_err e = {0};
	struct fws_estimate est;
	char err[FWS_ERR_LEN];
	unsigned int cells;
	const char *why;
	int code = EXIT_OK;

	if (a->mode == FWS_METHOD_SWEEP && cfg->sweep.dirs_skipped)
		say_skipped_dirs(cfg);
	run.trial = fws_trial_create(cfg, &e);
	if (run.trial == NULL) {
		fprintf(stderr, "fwstress: %s\n", e.msg);
		return fws_err_exit_code(e.kind);
	}
	fws_trial_clock(run.trial, &run.tsc_hz, &run.tsc_hz_dpdk);
	if (cfg->n_hosts)
		run.n_hosts = fws_trial_hosts(run.trial, run.hosts, FWS_CFG_MAX_HOSTS + 1);
	if (a->resume && access(cfg->json_out, R_OK) == 0) {
		if (fws_report_load_cells(cfg->json_out, &carried, err, sizeof(err)) < 0) {
			fprintf(stderr, "fwstress: %s --resume: %s\n", mode_name(a->mode), err);
			fws_trial_destroy(run.trial);
			return fws_err_exit_code(FWS_ERR_CONFIG);
		}
		if ((why = not_continuable(&carried, a->mode)) != NULL) {
			fprintf(stderr,
				"fwstress: %s --resume: %s: %s; remove it or give another -o\n",
				mode_name(a->mode), cfg->json_out, why);
			fws_cells_free(&carried);
			fws_trial_destroy(run.trial);
			return fws_err_exit_code(FWS_ERR_CONFIG);
		}
		run.carried = &carried;
		run.carried_json =
			fws_report_carried_json(cfg->json_out, &carried, err, sizeof(err));
		if (run.carried_json == NULL) {
			fprintf(stderr, "fwstress: %s --resume: %s\n", mode_name(a->mode), err);
			fws_cells_free(&carried);
			fws_trial_destroy(run.trial);
			return fws_err_exit_code(FWS_ERR_CONFIG);
		}
		if ((why = config_differs(cfg->json_out, cfg, err, sizeof(err))) != NULL) {
			fprintf(stderr,
				"fwstress: %s --resume: %s: %s; remove it or give another -o\n",
				mode_name(a->mode), cfg->json_out, why);
			json_decref(run.carried_json);
			fws_cells_free(&carried);
			fws_trial_destroy(run.trial);
			return fws_err_exit_code(FWS_ERR_CONFIG);
		}
	}
	fws_estimate_cells(cfg, as_cmd[a->mode], &est);
	cells = fws_method_cells_left(cfg, a->mode, run.carried);
	fws_pace_start(&pctx.pace, cells, est.cell_min_s, est.cell_s, est.cell_trials);
	if (pctx.line && a->mode != FWS_METHOD_RUN)
		say_estimate(&est, cells, mode_name(a->mode));
	run.n_ports = fws_trial_ports(run.trial, run.ports);
	fws_report_above_link(stderr, "fwstress: WARNING: ", &run);
	app_keep_earlier_report(cfg, a->json, a->resume);
	if (fws_run_alloc(&run, cfg, a->mode) < 0) {
		fprintf(stderr, "fwstress: setup: out of memory\n");
		code = fws_err_exit_code(FWS_ERR_SETUP);
	} else {
		topts.progress = progress_cb; /* the live statistics need it even when quiet */
		if (measure_run(&run, a, &topts, &e) < 0)
			code = fws_err_exit_code(e.kind);
		if (write_reports(cfg, &run, a->quiet || e.kind == FWS_ERR_PATH) < 0 &&
		    code == EXIT_OK)
			code = fws_err_exit_code(FWS_ERR_FAULT);
		if (e.kind == FWS_ERR_INTERRUPTED) /* and how to go on (issue 51, item 15) */
			fprintf(stderr,
				"fwstress: interrupted: the report is partial; fwstress %s "
				"--resume "
				"-o %s%s%s (with the same options) continues it\n",
				mode_name(a->mode), cfg->json_out, a->config ? " " : "",
				a->config ? a->config : "");
		if (code == EXIT_OK)
			code = expectations(&run);
	}
	a->stats_err = pctx.live.err;
	fws_run_free(&run);
	fws_cells_free(&carried);
	json_decref(run.carried_json);
	fws_trial_destroy(run.trial);
	return code;
}

/* --stats FILE ("-": stdout), opened before any load so a bad path costs nothing. */
static int
open_stats(struct run_args *a)
{
	if (a->stats == NULL)
		return 0;
	a->stats_f = strcmp(a->stats, "-") == 0 ? stdout : fopen(a->stats, "w");
	if (a->stats_f == NULL) {
		fprintf(stderr, "fwstress: --stats %s: %s\n", a->stats, strerror(errno));
		return -1;
	}
	return 0;
}

static int
run_mode(int argc, char **argv, enum fws_method_mode mode)
{
	struct run_args a = {.mode = mode, .progress = -1};
	struct fws_cfg *cfg;
	bool eal;
	int code;

	app_split_eal(&argc, &argv, &a.cli_eal, &a.n_cli_eal);
	if (app_eal_misplaced(mode_name(mode), a.cli_eal, a.n_cli_eal, RUN_SHORTOPTS, app_run_opts))
		return EXIT_USAGE;
	if (parse_run_args(argc, argv, &a, &code) < 0)
		return code;
	cfg = app_load_local_config(a.config);
	if (cfg == NULL)
		return app_config_exit();
	if (apply_args(cfg, &a) < 0 || app_expand_outputs(cfg, mode_name(a.mode)) < 0 ||
	    check_outputs(cfg) < 0 || open_stats(&a) < 0) {
		fws_config_free(cfg);
		return fws_err_exit_code(FWS_ERR_CONFIG);
	}
	if (a.progress < 0)
		a.progress = isatty(STDERR_FILENO);
	/* Before EAL: a signal during its setup ends the run with a report too. */
	app_catch_stop_signals();
	/* A controller whose ports are all its agents' runs no EAL (it may be a laptop). */
	eal = fws_config_local_ports(cfg);
	if (eal && app_eal_start(cfg, a.cli_eal, a.n_cli_eal) < 0) {
		fws_config_free(cfg);
		return fws_err_exit_code(FWS_ERR_SETUP);
	}
	if (eal)
		app_live_register();
	code = run_with_eal(cfg, &a);
	/* A failed --stats write is told at the end; the measurement is in the report. */
	if (a.stats_f && app_out_close(a.stats_f, "--stats", a.stats, a.stats_err) < 0 &&
	    (code == EXIT_OK || code == EXIT_EXPECT))
		code = EXIT_OUTPUT;
	fws_config_free(cfg);
	if (eal)
		rte_eal_cleanup();
	return code;
}

int
cmd_run(int argc, char **argv)
{
	return run_mode(argc, argv, FWS_METHOD_RUN);
}

int
cmd_search(int argc, char **argv)
{
	return run_mode(argc, argv, FWS_METHOD_SEARCH);
}

int
cmd_sweep(int argc, char **argv)
{
	return run_mode(argc, argv, FWS_METHOD_SWEEP);
}
