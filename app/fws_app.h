/* SPDX-License-Identifier: BSD-3-Clause */
/* The command line: shared helpers and the subcommands (one function each). Only app/
 * exits; the exit status of an error comes from its kind (fws_err_exit_code). */
#ifndef FWS_APP_H
#define FWS_APP_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "fws_config.h"
#include "fws_err.h"

enum {
	EXIT_OK = 0,    /* completed (loss or not: read the report) */
	EXIT_USAGE = 1, /* bad command line */
	EXIT_WORSE = 7, /* compare: a cell got worse beyond the tolerance */
	/* completed, but the DUT did not do what the config expects (NAT, blocking) */
	EXIT_EXPECT = 8,
	/* an output asked for (stdout, report -o, --stats) could not be written; each is named
	 * on stderr (a run's JSON report that cannot be written is 5: the measurement is lost) */
	EXIT_OUTPUT = 9,
	/* compare: no cell worse, but a change beyond the tolerance that the repetitions
	 * cannot tell from noise */
	EXIT_INCONCLUSIVE = 10,
	/* compare: a cell worse beyond the tolerance, but measured once on each side (no noise
	 * measured): unconfirmed; 7 with --single-ok */
	EXIT_WORSE_SINGLE = 11,
	/* compare: none worse or inconclusive, but not every old cell was weighed (not
	 * compared, or gone from the new report): the check did not cover them */
	EXIT_INCOMPLETE = 12,
};

/** After a write to an output the user asked for: keep the first failure's errno in *err. */
void app_out_check(FILE *f, int *err);

/**
 * Close f (stdout is flushed, not closed); when it or any earlier write failed (err, or the
 * stream's error flag) print one line "fwstress: WHAT NAME: cannot write: REASON".
 * Returns 0 or -1.
 */
int app_out_close(FILE *f, const char *what, const char *name, int err);

/** Live statistics (live.c): NDJSON lines on f (NULL: none) and the telemetry snapshot. */
struct app_live {
	const struct fws_cfg *cfg;
	FILE *f;
	unsigned int trial; /**< results so far */
	int err;            /**< the first failed write to f (errno), 0: none */
};

/** One progress callback's worth: a line per second, a result line after each trial. */
struct fws_progress;
void app_live_progress(struct app_live *l, const struct fws_progress *p);

/** Register /fwstress/streams with DPDK telemetry (after EAL init). */
void app_live_register(void);

/** Parse path, or the embedded default when NULL; prints the error (or that a stop signal
 * came meanwhile: app_config_exit()). */
struct fws_cfg *app_load_config(const char *path);

/** The same, for a command that runs the config here: its PCI devices must be on this host. */
struct fws_cfg *app_load_local_config(const char *path);

/**
 * Result folders: "{time}" (the UTC start, 20261206-012345) and "{command}" in the config's
 * report paths are filled in, and the folders made (e.g. -o 'results/{time}-{command}/
 * report.json' keeps every run's report). 0, or -1 said.
 */
int app_expand_outputs(struct fws_cfg *cfg, const char *command);

/** Split "SUBCOMMAND [EAL ARGS --] REST": EAL args out, argv/argc left with REST. */
void app_split_eal(int *argc, char ***argv, char ***cli_eal, int *n_cli_eal);

/**
 * An option of command cmd (shortopts, opts: its getopt lists) given before "--", where
 * EAL's arguments go: said in one line, naming the option and where it goes; true. Short
 * options EAL has too (-d, -h) are EAL's there.
 */
bool app_eal_misplaced(const char *cmd, char **eal, int n, const char *shortopts,
		       const struct option *opts);

/** Start EAL with the config's EAL args and then the command line's (appended to cfg's list,
 * so that its report records them); prints the error. */
int app_eal_start(struct fws_cfg *cfg, char **cli_eal, int n_cli_eal);

/** The exit status of a command whose config did not load: interrupted (4) when a stop signal
 * came while it was read, else a config error (2). */
int app_config_exit(void);

/** Set by SIGINT, SIGTERM and SIGHUP once app_catch_stop_signals ran: stop, report partial. */
extern volatile int app_stop_requests;
void app_catch_stop_signals(void);

/** argv[1] is -h or --help. */
bool app_help(int argc, char **argv);

struct option;

/**
 * getopt_long for subcommand cmd, with one line for a bad option instead of getopt's and a
 * usage: "unknown option "--jsn"; did you mean "--json"?", or "option "-o" needs a value".
 * Returns what getopt_long does ('?' for both errors, already said).
 */
int app_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
	       const struct option *opts);

/** --repeat's value for subcommand cmd: a count, 1 to FWS_CFG_MAX_REPEAT. 0, or -1 with one
 * line said. */
int app_repeat_arg(const char *cmd, const char *val, unsigned int *out);

/**
 * The default report file (no -o, no output.json) left by an earlier run is kept under a
 * dated name (its own time) before this run writes its own: said in one line. Not on
 * --resume, which continues it.
 */
void app_keep_earlier_report(const struct fws_cfg *cfg, const char *cli_json, bool resume);

struct fws_estimate;
/** cells cells of estimate e as "N to M trials, A to B" (one figure where both agree). */
char *app_estimate_text(char *buf, size_t len, const struct fws_estimate *e, unsigned int cells);

int cmd_run(int argc, char **argv);
int cmd_search(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_ports(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_campaign(int argc, char **argv);
int cmd_connections(int argc, char **argv);
int cmd_agent(int argc, char **argv);
int cmd_hosts(int argc, char **argv);

/* Each command's long options (getopt tables, NULL-terminated): the commands parse with
 * them, and fwstress help --bash-completion and --man list them. */
extern const struct option app_run_only_opts[], app_run_opts[], app_conn_opts[],
	app_campaign_opts[], app_report_opts[], app_compare_opts[], app_hosts_opts[],
	app_validate_opts[], app_help_opts[];

/** A subcommand: its function, synopsis, one-line doc and long options (fwstress.c). */
struct app_subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *synopsis;
	const char *doc;
	const struct option *opts;
};
extern const struct app_subcommand app_subcommands[];
extern const unsigned int app_n_subcommands;

/** The exit statuses, as --help and the man page give them. */
extern const char app_exit_statuses[];

/** fwstress --help: the subcommands and the exit statuses. */
void app_usage_main(FILE *f);

/** fwstress help [--man | --bash-completion]: usage, a man page or a bash completion, made
 * from the subcommand table and the commands' option tables. */
int cmd_help(int argc, char **argv);

#endif /* FWS_APP_H */
