/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwstress: DPDK firewall stress tester. A table of subcommands, each a thin function in
 * cmd_*.c over lib/. Only app/ exits.
 */
#include <stdio.h>
#include <string.h>

#include <rte_version.h>

#include "fws_app.h"
#include "fws_build.h"
#include "fws_names.h"

const struct option app_validate_opts[] = {
	{"doc", no_argument, NULL, 'D'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
const struct option app_help_opts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
static const struct option main_help_opts[] = {{"man", no_argument, NULL, 'M'},
					       {"bash-completion", no_argument, NULL, 'B'},
					       {"help", no_argument, NULL, 'h'},
					       {NULL, 0, NULL, 0}};

const struct app_subcommand app_subcommands[] = {
	{"run", cmd_run, "run [EAL ARGS --] [OPTIONS] [CONFIG]",
	 "run the trials of a config (default: the embedded loopback config, no NIC needed)",
	 app_run_only_opts},
	{"search", cmd_search, "search [EAL ARGS --] [OPTIONS] [CONFIG]",
	 "find NDR and PDR throughput per frame size (RFC 2544 26.1, MLRsearch-style)",
	 app_run_opts},
	{"sweep", cmd_sweep, "sweep [EAL ARGS --] [OPTIONS] [CONFIG]",
	 "frame sizes x directions, searched or fixed, latency at load, back-to-back; "
	 "--resume continues an interrupted one",
	 app_run_opts},
	{"validate", cmd_validate, "validate [CONFIG | PLAN]",
	 "check a config (or a campaign plan), print it with defaults", app_validate_opts},
	{"ports", cmd_ports, "ports [EAL ARGS --] [CONFIG]",
	 "list the ports DPDK sees (with the config's EAL arguments and devices)", app_help_opts},
	{"connections", cmd_connections, "connections [EAL ARGS --] [OPTIONS] CONFIG",
	 "connection tests: establishment rate, concurrent capacity, tear-down rate (RFC 3511, "
	 "RFC 9411)",
	 app_conn_opts},
	{"campaign", cmd_campaign, "campaign [--resume] [--dry-run] [-o REPORT] PLAN",
	 "the qualification matrix: every scenario of a plan (setup, measure, teardown), one "
	 "report",
	 app_campaign_opts},
	{"report", cmd_report, "report [OPTIONS] REPORT...",
	 "render reports as a matrix, appliances side by side: md, wiki, csv or html",
	 app_report_opts},
	{"compare", cmd_compare,
	 "compare [--tolerance P] [--latency-tolerance P] [--loss-tolerance P] [--single-ok] "
	 "OLD NEW",
	 "line up two reports' cells; exit 7 when one got worse by more than P (3%), 11 when only "
	 "single trials did",
	 app_compare_opts},
	{"agent", cmd_agent, "agent [--doc]",
	 "a load client's agent in a test across hosts (the controller starts it, over ssh)",
	 app_validate_opts}, /* --doc and --help, as validate */
	{"hosts", cmd_hosts, "hosts check [EAL ARGS --] CONFIG",
	 "before a test across load clients: reach each agent as a run would, list what it is "
	 "and owns, links and clock probes; no traffic",
	 app_hosts_opts},
	{"help", cmd_help, "help [--man | --bash-completion]",
	 "this usage; a man page or a bash completion made from the same tables", main_help_opts},
};
const unsigned int app_n_subcommands = sizeof(app_subcommands) / sizeof(app_subcommands[0]);

const char app_exit_statuses[] =
	"  0  run completed (read the report for loss)\n"
	"  1  bad command line\n"
	"  2  bad config (the message names the JSON path, value and line)\n"
	"  3  setup failed (EAL, hugepages, ports, lcores)\n"
	"  4  interrupted (SIGINT/SIGTERM): the report holds what was measured, partial\n"
	"  5  a trial failed: the report holds what was measured, partial (or the report\n"
	"     itself could not be written: the message names it)\n"
	"  6  path check failed: a stream's probe did not arrive where it should; no load\n"
	"     was sent\n"
	"  7  compare: at least one cell got worse beyond the tolerance\n"
	"  8  completed, but the DUT did not do what the config expects: NAT (\"nat\"),\n"
	"     flows it must block (\"expect\", a blocklist, an IPS's attack stream, an\n"
	"     application control's blocked application); the cells say so\n"
	"  9  an output could not be written (stdout, report -o, --stats; each named on\n"
	"     stderr): the measurement is in the JSON report\n"
	"  10 compare: none worse, but a cell moved beyond the tolerance within its\n"
	"     repetitions' noise: inconclusive, run the repetitions it names\n"
	"  11 compare: worse beyond the tolerance, but each side measured once (no noise\n"
	"     measured): unconfirmed, repeat (--single-ok makes it 7)\n"
	"  12 compare: none worse or inconclusive, but not every old cell was weighed (not\n"
	"     compared, or gone from the new report): the check does not cover them\n";

void
app_usage_main(FILE *f)
{
	unsigned int i;

	fprintf(f, "Usage: fwstress SUBCOMMAND [ARGS]\n\n"
		   "DPDK firewall stress tester: sends test traffic through a device under test "
		   "and\nmeasures throughput, loss, reordering, duplicates and latency per "
		   "flow.\n\nSubcommands:\n");
	for (i = 0; i < app_n_subcommands; i++)
		fprintf(f, "  %s\n      %s\n", app_subcommands[i].synopsis, app_subcommands[i].doc);
	fprintf(f,
		"\nOptions: -h, --help (also after a subcommand), -V, --version\n"
		"\nExit status:\n%s",
		app_exit_statuses);
}

/* One line: the subcommand is not one, and the one meant if it is a typo. */
static void
unknown_subcommand(const char *word)
{
	const char *names[32];
	const char *near;
	unsigned int i;

	for (i = 0; i < app_n_subcommands && i < 32; i++)
		names[i] = app_subcommands[i].name;
	near = fws_names_nearest(word, names, i);
	if (near)
		fprintf(stderr,
			"fwstress: unknown subcommand \"%s\"; did you mean \"%s\"? (fwstress "
			"--help "
			"lists them)\n",
			word, near);
	else
		fprintf(stderr,
			"fwstress: unknown subcommand \"%s\" (fwstress --help lists them)\n", word);
}

/* What a command printed on stdout must have reached it (a full disk, a closed pipe): one
 * line and exit 9 when not, unless the command failed already. */
static int
stdout_done(int code)
{
	if (app_out_close(stdout, "", "standard output", 0) < 0 && code == EXIT_OK)
		return EXIT_OUTPUT;
	return code;
}

int
main(int argc, char **argv)
{
	unsigned int i;

	if (argc < 2) {
		app_usage_main(stderr);
		return EXIT_USAGE;
	}
	if (app_help(argc, argv)) {
		app_usage_main(stdout);
		return stdout_done(EXIT_OK);
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		/* The DPDK it was built against, and the one it runs with (a shared library). */
		printf("fwstress %s%s), built with DPDK %d.%02d.%d, running %s\n", FWS_VERSION,
		       FWS_COMMIT_NOTE, RTE_VER_YEAR, RTE_VER_MONTH, RTE_VER_MINOR, rte_version());
		return stdout_done(EXIT_OK);
	}
	for (i = 0; i < app_n_subcommands; i++)
		if (strcmp(argv[1], app_subcommands[i].name) == 0)
			return stdout_done(app_subcommands[i].fn(argc - 1, argv + 1));
	unknown_subcommand(argv[1]);
	return EXIT_USAGE;
}
