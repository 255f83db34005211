/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwstress: DPDK firewall stress tester. Subcommands: run, validate.
 * Only this file exits; everything else returns errors to it.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "fws_compat.h"
#include "fws_cell.h"
#include "fws_config.h"
#include "fws_matrix.h"
#include "fws_port.h"
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
	EXIT_PATH = 6,        /* path check failed: no load was sent */
	EXIT_WORSE = 7,       /* compare: a cell got worse beyond the tolerance */
};

static volatile int stop_requests;

enum { MODE_RUN = 0, MODE_SEARCH, MODE_SWEEP };

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
		"  search [EAL ARGS --] [OPTIONS] [CONFIG]  find NDR and PDR throughput per frame\n"
		"                                        size (RFC 2544 26.1, MLRsearch-style)\n"
		"  sweep [EAL ARGS --] [OPTIONS] [CONFIG]   frame sizes x directions, searched or\n"
		"                                        fixed, latency at load, back-to-back;\n"
		"                                        --resume continues an interrupted one\n"
		"  validate [CONFIG]                     check a config, print it with defaults\n"
		"  ports [EAL ARGS --] [CONFIG]          list the ports DPDK sees (with the "
		"config's\n"
		"                                        EAL arguments and devices)\n"
		"  report [--format F] [-o OUT] REPORT   render a JSON report as a matrix: md, "
		"wiki,\n"
		"                                        csv or html (SVG charts)\n"
		"  compare [--tolerance P] OLD NEW       line up two reports' cells; exit 7 when\n"
		"                                        one got worse by more than P (3%%)\n"
		"\n"
		"Options: -h, --help (also after a subcommand), -V, --version\n"
		"\n"
		"Exit status:\n"
		"  0  run completed (read the report for loss)\n"
		"  1  bad command line\n"
		"  2  bad config (the message names the JSON path, value and line)\n"
		"  3  setup failed (EAL, hugepages, ports, lcores)\n"
		"  4  interrupted (SIGINT/SIGTERM): the report holds what was measured, partial\n"
		"  5  a trial failed: the report holds what was measured, partial\n"
		"  6  path check failed: a stream's probe did not arrive where it should; no load\n"
		"     was sent\n"
		"  7  compare: at least one cell got worse beyond the tolerance\n");
}

static void
usage_run(FILE *f)
{
	fprintf(f,
		"Usage: fwstress run [EAL ARGS --] [OPTIONS] [CONFIG]\n"
		"       fwstress search [EAL ARGS --] [OPTIONS] [CONFIG]\n"
		"\n"
		"search finds, per frame-size entry, the highest share of the config's rate whose\n"
		"loss stays at 0 (NDR) and at or under search.pdr (PDR, default 0.5 %%): short\n"
		"trials narrow the interval to search.width, then the result must hold in a trial\n"
		"of search.final seconds. The report holds every trial of the search and the two\n"
		"trials NDR and PDR stand on.\n"
		"\n"
		"Runs one trial per frame-size entry of CONFIG (JSON; see config/), prints a text\n"
		"report on stdout and writes the JSON report (output.json in the config, default\n"
		"fwstress-report.json). Without CONFIG the embedded loopback config runs.\n"
		"EAL arguments come from the command line before \"--\" when it has any, else "
		"from\n"
		"the config's \"eal\" list. Unless given, --in-memory is added (no shared files).\n"
		"\n"
		"Options:\n"
		"  -o, --json FILE      write the JSON report to FILE (\"\" for none)\n"
		"  -t, --text FILE      also write the text report to FILE\n"
		"  -d, --duration SEC   override the measured duration of each trial\n"
		"      --progress       print a progress line per second on stderr (default when\n"
		"                       stderr is a terminal)\n"
		"      --no-progress    never print progress lines\n"
		"  -q, --quiet          no text report on stdout\n"
		"      --short SEC      search: duration of narrowing trials (config "
		"search.short)\n"
		"      --final SEC      search: duration of confirming trials (config "
		"search.final,\n"
		"                       default 60 as RFC 2544 asks)\n"
		"      --resume         sweep: keep the cells of the existing JSON report and run\n"
		"                       only the ones it does not have\n"
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

static void
usage_ports(FILE *f)
{
	fprintf(f,
		"Usage: fwstress ports [EAL ARGS --] [CONFIG]\n"
		"\n"
		"Starts EAL (with CONFIG's \"eal\" list and the arguments before \"--\"), probes\n"
		"CONFIG's devices, and lists every port DPDK sees: name, driver, PCI address or\n"
		"vdev, MAC, link, NUMA socket, queues and offloads, to fill in a config.\n"
		"Without CONFIG only the EAL arguments count (e.g. -a 0000:01:00.0).\n");
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
	if (run->trial)
		run->n_ports = fws_trial_ports(run->trial, run->ports);
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

/* EAL argv: the command line's if it gives any, else the config's list; then defaults. */
static int
eal_start(const struct fws_cfg *cfg, char **cli_eal, int n_cli_eal)
{
	static char *argv[FWS_CFG_MAX_EAL * 2 + 8];
	static char level[] = "--log-level=notice", inmem[] = "--in-memory";
	int argc = 0, i;

	argv[argc++] = (char *)"fwstress";
	for (i = 0; cfg && n_cli_eal == 0 && i < (int)cfg->n_eal; i++)
		argv[argc++] = cfg->eal[i];
	for (i = 0; i < n_cli_eal && argc < (int)RTE_DIM(argv) - 4; i++)
		argv[argc++] = cli_eal[i];
	if (!has_arg(argv, argc, "--file-prefix") && !has_arg(argv, argc, "--in-memory") &&
	    !has_arg(argv, argc, "--proc-type"))
		argv[argc++] = inmem;
	if (!has_arg(argv, argc, "--log-level"))
		argv[argc++] = level;
	argv[argc] = NULL;
	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr,
			"fwstress: setup: EAL init failed: %s (EAL args from the config "
			"\"eal\" list and before \"--\")\n",
			rte_strerror(rte_errno));
		return -1;
	}
	return 0;
}

/* Split "SUBCOMMAND [EAL ARGS --] REST": EAL args out, argv/argc left with REST. */
static void
split_eal(int *argc, char ***argv, char ***cli_eal, int *n_cli_eal)
{
	int i;

	*cli_eal = NULL;
	*n_cli_eal = 0;
	for (i = 1; i < *argc; i++) {
		if (strcmp((*argv)[i], "--") == 0) {
			*cli_eal = &(*argv)[1];
			*n_cli_eal = i - 1;
			(*argv)[i] = (*argv)[0];
			*argv += i;
			*argc -= i;
			return;
		}
	}
}

static int
cmd_ports(int argc, char **argv)
{
	struct fws_cfg *cfg = NULL;
	char **cli_eal, err[512];
	int n_cli_eal, i, ids[FWS_CFG_MAX_PORTS];
	uint16_t pid;

	split_eal(&argc, &argv, &cli_eal, &n_cli_eal);
	if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		usage_ports(stdout);
		return EXIT_OK;
	}
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		usage_ports(stderr);
		return EXIT_USAGE;
	}
	if (argc == 2 && (cfg = load_config(argv[1])) == NULL)
		return EXIT_CONFIG;
	if (eal_start(cfg, cli_eal, n_cli_eal) < 0) {
		fws_config_free(cfg);
		return EXIT_SETUP;
	}
	for (i = 0; cfg && i < (int)cfg->n_ports; i++)
		if ((ids[i] = fws_port_resolve(cfg->ports[i].device, err, sizeof(err))) < 0)
			fprintf(stderr, "fwstress: ports[%d] (%s): %s\n", i, cfg->ports[i].name,
				err);
	if (rte_eth_dev_count_avail() == 0)
		printf("no ports: bind NICs to a DPDK driver (dpdk-devbind.py) or give vdevs\n");
	RTE_ETH_FOREACH_DEV(pid)
	{
		struct rte_eth_dev_info info;
		struct rte_ether_addr mac;
		struct rte_eth_link link;
		char name[RTE_ETH_NAME_MAX_LEN], macs[RTE_ETHER_ADDR_FMT_SIZE];

		if (rte_eth_dev_info_get(pid, &info) != 0)
			continue;
		rte_eth_dev_get_name_by_port(pid, name);
		rte_eth_macaddr_get(pid, &mac);
		rte_ether_format_addr(macs, sizeof(macs), &mac);
		memset(&link, 0, sizeof(link));
		rte_eth_link_get_nowait(pid, &link);
		printf("port %u: %s\n  driver %s, socket %d, MAC %s\n  link %s", pid, name,
		       info.driver_name, rte_eth_dev_socket_id(pid), macs,
		       link.link_status ? "up" : "down");
		if (link.link_status && link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN)
			printf(", %u Mbit/s %s-duplex", link.link_speed,
			       link.link_duplex ? "full" : "half");
		printf("\n");
		printf("  queues: %u RX, %u TX; descriptors RX %u-%u, TX %u-%u; max frame %u\n",
		       info.max_rx_queues, info.max_tx_queues, info.rx_desc_lim.nb_min,
		       info.rx_desc_lim.nb_max, info.tx_desc_lim.nb_min, info.tx_desc_lim.nb_max,
		       info.max_rx_pktlen);
		printf("  offloads: TX IPv4 checksum %s, UDP checksum %s, fast free %s; RSS %s\n",
		       info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM ? "yes" : "no",
		       info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_UDP_CKSUM ? "yes" : "no",
		       info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE ? "yes" : "no",
		       info.flow_type_rss_offloads ? "yes" : "no");
		for (i = 0; cfg && i < (int)cfg->n_ports; i++)
			if (ids[i] == (int)pid)
				printf("  config port \"%s\" (%s)\n", cfg->ports[i].name,
				       cfg->ports[i].device);
	}
	fws_config_free(cfg);
	rte_eal_cleanup();
	return EXIT_OK;
}

/* A trial failed or was cut short: the run's status and exit code. */
static int
trial_outcome(struct fws_run *run, int rc, const char *err, bool partial)
{
	if (rc < 0) {
		fprintf(stderr, "fwstress: %s\n", err);
		strlcpy(run->error, err, sizeof(run->error));
		run->status = "error";
		run->partial = true;
		return strncmp(err, "config:", 7) == 0 ? EXIT_CONFIG : EXIT_FAULT;
	}
	if (partial || stop_requests) {
		run->status = "interrupted";
		run->partial = true;
		return EXIT_INTERRUPTED;
	}
	return EXIT_OK;
}

/* Save what was measured so far: a later fault cannot take it with it. */
static void
save_progress(const struct fws_cfg *cfg, struct fws_run *run)
{
	if (!cfg->json_out[0])
		return;
	run->status = "running";
	run->partial = true;
	run->finished = time(NULL);
	run->hugepage_peak = fws_trial_hugepage_peak();
	fws_report_write_json(cfg->json_out, run);
}

/* fwstress run: one trial per frame-size mix. */
static int
do_trials(struct fws_trial *trial, struct fws_run *run, const struct fws_trial_opts *topts,
	  const struct fws_cfg *cfg)
{
	char err[600];
	unsigned int i;
	int rc, code;

	for (i = 0; i < cfg->n_sizes; i++) {
		struct fws_result *r = &run->results[run->n_results];

		rc = fws_trial_run(trial, i, topts, r, err, sizeof(err));
		if (rc == 0)
			run->n_results++;
		code = trial_outcome(run, rc, err, rc == 0 && r->partial);
		if (code != EXIT_OK)
			return code;
		if (i + 1 < cfg->n_sizes)
			save_progress(cfg, run);
	}
	return EXIT_OK;
}

/* Loss over all streams of a trial, and its offered load as a fraction of the maximum. */
static void
trial_totals(const struct fws_result *r, double load, double *offered, uint64_t *tx, uint64_t *lost)
{
	double sent_pps = 0, max_pps = 0;
	unsigned int s;

	*tx = *lost = 0;
	for (s = 0; s < r->n_streams; s++) {
		if (!r->streams[s].active)
			continue;
		*tx += r->streams[s].rx.tx;
		*lost += r->streams[s].rx.lost;
		sent_pps += r->streams[s].tx_pps;
		max_pps += r->streams[s].req_pps / load;
	}
	*offered = max_pps > 0 ? sent_pps / max_pps : 0;
}

/* Search NDR and PDR for one frame-size mix with the streams in mask (0: all); the trials
 * they stand on go into the report beside the search's trail. */
static int
search_cell(struct fws_trial *trial, struct fws_run *run, const struct fws_trial_opts *base,
	    const struct fws_cfg *cfg, unsigned int z, struct fws_search_summary *sum)
{
	const struct fws_cfg_search *sc = &cfg->search;
	struct fws_search_cfg scfg = {.min_load = sc->min_load,
				      .width = sc->width,
				      .pdr_loss = sc->pdr,
				      .short_s = sc->short_s,
				      .final_s = sc->final_s,
				      .max_trials = sc->max_trials};
	struct fws_result *all = calloc(FWS_SEARCH_MAX_TRIALS, sizeof(*all));
	struct fws_search *s = fws_search_new(&scfg);
	const struct fws_search_trial *tr;
	double load, duration;
	char err[600];
	unsigned int n, g, k;
	int rc, code = EXIT_OK;

	if (all == NULL || s == NULL) {
		free(all);
		fws_search_free(s);
		return trial_outcome(run, -EINVAL, "config: search: bad settings", false);
	}
	snprintf(sum->size, sizeof(sum->size), "%s%s%s", cfg->sizes[z].name,
		 base->direction ? " " : "", base->direction ? base->direction : "");
	sum->result[0] = sum->result[1] = -1;
	for (n = 0; fws_search_next(s, &load, &duration); n++) {
		struct fws_trial_opts o = *base;
		double offered;
		uint64_t tx, lost;

		o.rate_scale = load;
		o.duration = duration;
		o.progress = NULL;
		rc = fws_trial_run(trial, z, &o, &all[n], err, sizeof(err));
		code = trial_outcome(run, rc, err, rc == 0 && all[n].partial);
		if (code != EXIT_OK) {
			n += rc == 0;
			break;
		}
		trial_totals(&all[n], load, &offered, &tx, &lost);
		fws_search_record(s, offered, tx, lost);
		fprintf(stderr,
			"search %s: trial %u, load %.3f %% for %.1f s: offered %.3f %%, loss "
			"%.5f %%\n",
			sum->size, n + 1, load * 100, duration, offered * 100,
			tx ? (double)lost * 100 / (double)tx : 0);
	}
	for (g = 0; g < FWS_SEARCH_GOALS; g++) {
		fws_search_goal(s, (int)g, &sum->goal[g]);
		if (sum->goal[g].trial < 0 || sum->goal[g].trial >= (int)n)
			continue;
		if (g == FWS_SEARCH_PDR && sum->goal[g].trial == sum->goal[0].trial) {
			sum->result[g] = sum->result[0];
			continue;
		}
		/* The goal's trial moves into the report; its histograms go with it. */
		run->results[run->n_results] = all[sum->goal[g].trial];
		strlcpy(run->results[run->n_results].label, g ? "pdr" : "ndr",
			sizeof(run->results[0].label));
		for (k = 0; k < all[0].n_streams; k++)
			all[sum->goal[g].trial].streams[k].hist = NULL;
		sum->result[g] = (int)run->n_results++;
	}
	sum->n_trials = fws_search_trials(s, &tr);
	memcpy(sum->trials, tr, sum->n_trials * sizeof(*tr));
	for (g = 0; g < n; g++)
		fws_result_free(&all[g]);
	fws_search_free(s);
	free(all);
	return code;
}

/* fwstress search: NDR and PDR per frame-size mix. */
static int
do_search(struct fws_trial *trial, struct fws_run *run, const struct fws_trial_opts *base,
	  const struct fws_cfg *cfg)
{
	unsigned int z;
	int code = EXIT_OK;

	for (z = 0; z < cfg->n_sizes && code == EXIT_OK; z++) {
		code = search_cell(trial, run, base, cfg, z, &run->searches[run->n_searches++]);
		if (code == EXIT_OK && z + 1 < cfg->n_sizes)
			save_progress(cfg, run);
	}
	return code;
}

/* One labelled trial kept in the report. */
static int
keep_trial(struct fws_trial *trial, struct fws_run *run, const struct fws_trial_opts *o,
	   unsigned int z)
{
	struct fws_result *r = &run->results[run->n_results];
	char err[600];
	int rc = fws_trial_run(trial, z, o, r, err, sizeof(err));

	if (rc == 0)
		run->n_results++;
	return trial_outcome(run, rc, err, rc == 0 && r->partial);
}

/*
 * Back-to-back (RFC 2544 26.4, RFC 9004): the longest burst at the rate that passes
 * without loss, found by bisection, repeated; average, minimum, maximum, deviation.
 */
static int
back_to_back(struct fws_trial *trial, struct fws_run *run, const struct fws_trial_opts *base,
	     const struct fws_cfg *cfg, unsigned int z, struct fws_b2b_summary *b)
{
	struct fws_result *r = calloc(1, sizeof(*r));
	double line = 0, sum = 0, sq = 0;
	char err[600];
	unsigned int rep, s;
	int rc, code = EXIT_OK;

	if (r == NULL)
		return trial_outcome(run, -ENOMEM, "setup: out of memory", false);
	/* The stream's rate in frames/s: from a short probe at full rate. */
	{
		struct fws_trial_opts o = *base;

		o.duration = 0.2;
		o.progress = NULL;
		rc = fws_trial_run(trial, z, &o, r, err, sizeof(err));
		code = trial_outcome(run, rc, err, rc == 0 && r->partial);
		for (s = 0; rc == 0 && s < r->n_streams; s++)
			if (r->streams[s].active && r->streams[s].tx_pps > line)
				line = r->streams[s].tx_pps;
		if (rc == 0)
			fws_result_free(r);
	}
	snprintf(b->size, sizeof(b->size), "%s", cfg->sizes[z].name);
	snprintf(b->direction, sizeof(b->direction), "%s", base->direction ? base->direction : "");
	b->max_frames = (uint64_t)llround(line * cfg->sweep.b2b_seconds);
	if (b->max_frames < 2)
		b->max_frames = 2;
	b->min = 1e300;
	for (rep = 0; rep < cfg->sweep.b2b_repeat && code == EXIT_OK; rep++) {
		uint64_t lo = 0, hi = b->max_frames + 1, burst = b->max_frames;

		/* The longest burst: try the maximum, then bisect to 0.1 % of it. */
		while (code == EXIT_OK && hi - lo > 1 && hi - lo > b->max_frames / 1000) {
			struct fws_trial_opts o = *base;
			uint64_t lost = 0;

			o.burst = burst;
			o.duration = cfg->sweep.b2b_seconds * 2 + 1;
			o.progress = NULL;
			o.label = "b2b";
			rc = fws_trial_run(trial, z, &o, r, err, sizeof(err));
			code = trial_outcome(run, rc, err, rc == 0 && r->partial);
			if (rc < 0)
				break;
			for (s = 0; s < r->n_streams; s++)
				lost += r->streams[s].rx.lost;
			b->trials++;
			fws_result_free(r);
			if (lost == 0)
				lo = burst;
			else
				hi = burst;
			burst = lo + (hi - lo) / 2;
		}
		b->bursts[b->n++] = lo;
		sum += (double)lo;
		sq += (double)lo * (double)lo;
		b->min = (double)lo < b->min ? (double)lo : b->min;
		b->max = (double)lo > b->max ? (double)lo : b->max;
		fprintf(stderr, "back-to-back %s %s: repetition %u: %lu frames\n", b->size,
			b->direction, rep + 1, (unsigned long)lo);
	}
	if (b->n) {
		b->avg = sum / b->n;
		b->stddev = b->n > 1 ? sqrt((sq - sum * sum / b->n) / (b->n - 1)) : 0;
	}
	free(r);
	return code;
}

/* Streams of a sweep direction: upload or download ones, or all for bidir. */
static uint32_t
direction_mask(const struct fws_cfg *cfg, const char *dir)
{
	uint32_t m = 0;
	unsigned int s;

	for (s = 0; s < cfg->n_streams; s++)
		if (!strcmp(dir, "bidir") || !strcmp(cfg->streams[s].direction, dir))
			m |= 1u << s;
	return m;
}

static bool
cell_done(const struct fws_cells *done, const char *dir, const char *size)
{
	unsigned int i;

	for (i = 0; done && i < done->n; i++)
		if (!strcmp(done->c[i].direction, dir) && !strcmp(done->c[i].size, size))
			return true;
	return false;
}

/* fwstress sweep: frame sizes x directions, each searched (or one fixed trial), latency at
 * fractions of NDR, back-to-back bursts; saved after every cell. */
static int
do_sweep(struct fws_trial *trial, struct fws_run *run, const struct fws_trial_opts *base,
	 const struct fws_cfg *cfg)
{
	const struct fws_cfg_sweep *w = &cfg->sweep;
	unsigned int z, d, l;
	int code = EXIT_OK;

	for (z = 0; z < cfg->n_sizes && code == EXIT_OK; z++) {
		for (d = 0; d < w->n_dirs && code == EXIT_OK; d++) {
			struct fws_trial_opts o = *base;

			if (cell_done(run->carried, w->dirs[d], cfg->sizes[z].name)) {
				fprintf(stderr, "sweep: %s %s: done in the report, skipped\n",
					w->dirs[d], cfg->sizes[z].name);
				continue;
			}
			o.streams = direction_mask(cfg, w->dirs[d]);
			o.direction = w->dirs[d];
			o.progress = NULL;
			if (w->search) {
				struct fws_search_summary *sum = &run->searches[run->n_searches++];

				code = search_cell(trial, run, &o, cfg, z, sum);
				for (l = 0; code == EXIT_OK && l < w->n_lat; l++) {
					char label[16];

					if (!sum->goal[FWS_SEARCH_NDR].found)
						break;
					snprintf(label, sizeof(label), "lat%.0f", w->lat[l] * 100);
					o.rate_scale = sum->goal[FWS_SEARCH_NDR].load * w->lat[l];
					o.label = label;
					code = keep_trial(trial, run, &o, z);
				}
			} else {
				code = keep_trial(trial, run, &o, z);
			}
			if (code == EXIT_OK && w->b2b_repeat) {
				o.rate_scale = 0;
				o.label = NULL;
				code = back_to_back(trial, run, &o, cfg, z,
						    &run->b2b[run->n_b2b++]);
			}
			if (code == EXIT_OK)
				save_progress(cfg, run);
		}
	}
	return code;
}

static int
cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *out = NULL;
	struct fws_cells cells;
	char err[600];
	int fmt = FWS_MATRIX_MARKDOWN, c, rc;
	FILE *f = stdout;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			fmt = fws_matrix_format(optarg);
			if (fmt < 0) {
				fprintf(stderr,
					"fwstress: report: --format \"%s\": md, wiki, csv or "
					"html\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			printf("Usage: fwstress report [--format md|wiki|csv|html] [-o OUT] "
			       "REPORT.json\n\nRenders the cells of a run or search report as a "
			       "qualification matrix (rows: scenario, frame size, result; columns: "
			       "throughput and DUT load per direction). html is one self-contained "
			       "page with SVG charts: throughput against frame size with the "
			       "theoretical line rate, and latency histograms.\n");
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "fwstress: report: give one report file\n");
		return EXIT_USAGE;
	}
	if (fws_config_load_cells(argv[optind], &cells, err, sizeof(err)) < 0) {
		fprintf(stderr, "fwstress: %s\n", err);
		return EXIT_CONFIG;
	}
	if (out && (f = fopen(out, "w")) == NULL) {
		fprintf(stderr, "fwstress: report: %s: %s\n", out, strerror(errno));
		fws_cells_free(&cells);
		return EXIT_FAULT;
	}
	rc = fws_matrix_render(f, &cells, (enum fws_matrix_format)fmt);
	if (out && fclose(f) != 0)
		rc = -EIO;
	fws_cells_free(&cells);
	return rc < 0 ? EXIT_FAULT : EXIT_OK;
}

static const char *const verdict_names[] = {"same", "BETTER", "WORSE", "gone", "new"};

static int
cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{"tolerance", required_argument, NULL, 't'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct fws_cells a, b;
	struct fws_cell_cmp *rows;
	double tol = 0.03;
	unsigned int n, i;
	char err[600], key[200], *end;
	int c, worse;

	optind = 1;
	while ((c = getopt_long(argc, argv, "t:h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			tol = strtod(optarg, &end) / 100;
			if (strcmp(end, "%") != 0 || !(tol >= 0 && tol < 1)) {
				fprintf(stderr,
					"fwstress: compare: --tolerance \"%s\": give a "
					"percentage such as 3%%\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			printf("Usage: fwstress compare [--tolerance 3%%] OLD.json NEW.json\n\n"
			       "Lines up the cells of two reports by scenario, result kind, "
			       "direction, stream and frame size and prints which got worse, "
			       "better "
			       "or stayed. Exit 0 when none got worse by more than the tolerance, "
			       "7 "
			       "when one did, 2 when a report cannot be read.\n");
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "fwstress: compare: give OLD.json and NEW.json\n");
		return EXIT_USAGE;
	}
	if (fws_config_load_cells(argv[optind], &a, err, sizeof(err)) < 0) {
		fprintf(stderr, "fwstress: %s\n", err);
		return EXIT_CONFIG;
	}
	if (fws_config_load_cells(argv[optind + 1], &b, err, sizeof(err)) < 0) {
		fprintf(stderr, "fwstress: %s\n", err);
		fws_cells_free(&a);
		return EXIT_CONFIG;
	}
	worse = fws_cell_compare(&a, &b, tol, &rows, &n);
	if (worse < 0) {
		fws_cells_free(&a);
		fws_cells_free(&b);
		return EXIT_FAULT;
	}
	printf("%-52s %14s %14s %9s  %s\n", "cell (scenario/result/direction/stream/size)",
	       "old Mpps", "new Mpps", "change", "verdict");
	for (i = 0; i < n; i++) {
		const struct fws_cell *k = rows[i].old ? rows[i].old : rows[i].new_;

		fws_cell_key(k, key, sizeof(key));
		printf("%-52s ", key);
		if (rows[i].old)
			printf("%14.4f ", rows[i].old->pps / 1e6);
		else
			printf("%14s ", "-");
		if (rows[i].new_)
			printf("%14.4f ", rows[i].new_->pps / 1e6);
		else
			printf("%14s ", "-");
		if (rows[i].old && rows[i].new_)
			printf("%+8.2f%%  ", rows[i].change * 100);
		else
			printf("%9s  ", "");
		printf("%s\n", verdict_names[rows[i].verdict]);
	}
	printf("%d of %u cells worse than -%.1f %%\n", worse, n, tol * 100);
	free(rows);
	fws_cells_free(&a);
	fws_cells_free(&b);
	return worse ? EXIT_WORSE : EXIT_OK;
}

static int
cmd_run(int argc, char **argv, int mode)
{
	static const struct option opts[] = {
		{"json", required_argument, NULL, 'o'},
		{"text", required_argument, NULL, 't'},
		{"duration", required_argument, NULL, 'd'},
		{"progress", no_argument, NULL, 'P'},
		{"no-progress", no_argument, NULL, 'N'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{"final", required_argument, NULL, 'F'},
		{"short", required_argument, NULL, 'S'},
		{"resume", no_argument, NULL, 'R'},
		{NULL, 0, NULL, 0},
	};
	int n_cli_eal = 0, c, i, rc, exit_code = EXIT_OK;
	char **cli_eal = NULL, *json_path = NULL, *text_path = NULL, *end;
	int progress = -1;
	bool quiet = false;
	double duration = 0, final_s = 0, short_s = 0;
	struct fws_cells carried = {0};
	bool resume = false;
	struct fws_cfg *cfg;
	struct fws_trial *trial;
	struct fws_run run;
	char err[600];
	struct fws_trial_opts topts = {.stop = &stop_requests};

	split_eal(&argc, &argv, &cli_eal, &n_cli_eal);
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
		case 'F':
		case 'S':
			if (mode == MODE_RUN) {
				usage_run(stderr);
				return EXIT_USAGE;
			}
			*(c == 'F' ? &final_s : &short_s) = strtod(optarg, &end);
			if (*end || !(*(c == 'F' ? &final_s : &short_s) >= 0.1)) {
				fprintf(stderr,
					"fwstress: search: --%s \"%s\": give seconds, 0.1 or "
					"more\n",
					c == 'F' ? "final" : "short", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'R':
			if (mode != MODE_SWEEP) {
				usage_run(stderr);
				return EXIT_USAGE;
			}
			resume = true;
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
	if (final_s > 0)
		cfg->search.final_s = final_s;
	if (short_s > 0)
		cfg->search.short_s = short_s;
	if (cfg->search.final_s < cfg->search.short_s)
		cfg->search.final_s = cfg->search.short_s;
	if (progress < 0)
		progress = isatty(STDERR_FILENO);

	if (eal_start(cfg, cli_eal, n_cli_eal) < 0) {
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
	run.trial = trial;
	run.n_ports = fws_trial_ports(trial, run.ports);
	/* Per frame size: up to 3 directions x (NDR + PDR + 8 latency points). */
	run.results = calloc(cfg->n_sizes * 3 * 10, sizeof(*run.results));
	run.searches = mode != MODE_RUN ? calloc(cfg->n_sizes * 3, sizeof(*run.searches)) : NULL;
	run.b2b = mode == MODE_SWEEP ? calloc(cfg->n_sizes * 3, sizeof(*run.b2b)) : NULL;
	if (resume && access(cfg->json_out, R_OK) == 0) {
		if (fws_config_load_cells(cfg->json_out, &carried, err, sizeof(err)) < 0) {
			fprintf(stderr, "fwstress: sweep --resume: %s\n", err);
			fws_trial_destroy(trial);
			fws_config_free(cfg);
			rte_eal_cleanup();
			return EXIT_CONFIG;
		}
		run.carried = &carried;
	}
	if (run.results == NULL || (mode != MODE_RUN && run.searches == NULL) ||
	    (mode == MODE_SWEEP && run.b2b == NULL)) {
		fprintf(stderr, "fwstress: setup: out of memory\n");
		fws_trial_destroy(trial);
		fws_config_free(cfg);
		rte_eal_cleanup();
		return EXIT_SETUP;
	}
	if (progress) {
		topts.progress = progress_cb;
	}
	if (cfg->path_check) {
		rc = fws_trial_path_check(trial, &topts, run.paths, err, sizeof(err));
		run.n_paths = cfg->n_streams;
		while (run.n_paths && run.paths[run.n_paths - 1].stream[0] == '\0')
			run.n_paths--;
		if (rc < 0) {
			fprintf(stderr, "fwstress: %s\n", err);
			strlcpy(run.error, err, sizeof(run.error));
			run.status = rc == -EINTR ? "interrupted" : "path-check-failed";
			exit_code = rc == -EINTR ? EXIT_INTERRUPTED : EXIT_PATH;
			quiet = true;
		}
	}
	if (exit_code == EXIT_OK)
		exit_code = mode == MODE_SEARCH  ? do_search(trial, &run, &topts, cfg)
			    : mode == MODE_SWEEP ? do_sweep(trial, &run, &topts, cfg)
						 : do_trials(trial, &run, &topts, cfg);
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
	free(run.searches);
	free(run.b2b);
	fws_cells_free(&carried);
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
		return cmd_run(argc - 1, argv + 1, MODE_RUN);
	if (strcmp(argv[1], "search") == 0)
		return cmd_run(argc - 1, argv + 1, MODE_SEARCH);
	if (strcmp(argv[1], "sweep") == 0)
		return cmd_run(argc - 1, argv + 1, MODE_SWEEP);
	if (strcmp(argv[1], "validate") == 0)
		return cmd_validate(argc - 1, argv + 1);
	if (strcmp(argv[1], "ports") == 0)
		return cmd_ports(argc - 1, argv + 1);
	if (strcmp(argv[1], "report") == 0)
		return cmd_report(argc - 1, argv + 1);
	if (strcmp(argv[1], "compare") == 0)
		return cmd_compare(argc - 1, argv + 1);
	fprintf(stderr,
		"fwstress: unknown subcommand \"%s\" (run, search, validate, ports; see "
		"--help)\n",
		argv[1]);
	return EXIT_USAGE;
}
