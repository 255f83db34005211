/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers every subcommand uses: config loading, EAL start. */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_log.h>

#include "fws_estimate.h"
#include "fws_agent.h"
#include "fws_agent_remote.h"
#include "fws_app.h"
#include "fws_campaign.h"
#include "fws_compat.h"
#include "fws_log.h"
#include "fws_names.h"
#include "fws_pace.h"
#include "fws_spawn.h"

bool
app_help(int argc, char **argv)
{
	return argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0);
}

/* Standard output's first failure, whoever wrote: told once, at the end. */
static int stdout_err;
static bool stdout_told;

void
app_out_check(FILE *f, int *err)
{
	errno = 0;
	if ((fflush(f) != 0 || ferror(f)) && *err == 0)
		*err = errno ? errno : EIO;
	if (f == stdout && *err && stdout_err == 0)
		stdout_err = *err;
}

int
app_out_close(FILE *f, const char *what, const char *name, int err)
{
	app_out_check(f, &err);
	if (f == stdout) {
		if (stdout_told)
			return err ? -1 : 0;
		err = stdout_err ? stdout_err : err;
		stdout_told = err != 0;
	} else {
		errno = 0;
		if (fclose(f) != 0 && err == 0)
			err = errno ? errno : EIO;
	}
	if (err == 0)
		return 0;
	fprintf(stderr, "fwstress: %s%s%s: cannot write: %s\n", what, what[0] ? " " : "", name,
		strerror(err));
	return -1;
}

volatile int app_stop_requests;

static void
on_stop_signal(int sig)
{
	(void)sig;
	app_stop_requests++;
}

static void catch_signals(struct sigaction *old);
static void restore_signals(const struct sigaction *old);

/* Ctrl-C while the config is read (an inventory's ansible-inventory can take seconds, or
 * hang): the helper's group ended, one line, and app_config_exit() says interrupted. */
struct fws_cfg *
app_load_config(const char *path)
{
	struct sigaction old[3];
	struct fws_cfg *cfg;
	char err[600];

	catch_signals(old);
	if (path)
		cfg = fws_config_load(path, err, sizeof(err));
	else
		cfg = fws_config_parse(fws_config_default, strlen(fws_config_default), err,
				       sizeof(err));
	restore_signals(old);
	if (app_stop_requests) {
		fprintf(stderr, "fwstress: interrupted while the config was read%s%s\n",
			cfg ? "" : ": ", cfg ? "" : err);
		fws_config_free(cfg);
		return NULL;
	}
	if (cfg == NULL)
		fprintf(stderr, "fwstress: %s\n", err);
	return cfg;
}

int
app_config_exit(void)
{
	return fws_err_exit_code(app_stop_requests ? FWS_ERR_INTERRUPTED : FWS_ERR_CONFIG);
}

struct fws_cfg *
app_load_local_config(const char *path)
{
	struct fws_cfg *cfg = app_load_config(path);
	char err[700];

	if (cfg && fws_config_local_devices(cfg, err, sizeof(err)) < 0) {
		fprintf(stderr, "fwstress: config: %s: %s\n", path ? path : "(embedded)", err);
		fws_config_free(cfg);
		return NULL;
	}
	return cfg;
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

/* Without a file prefix, a run leaves nothing in /dev/hugepages or /var/run/dpdk and runs
 * beside another: --in-memory, or with --no-huge (whose legacy memory --in-memory refuses)
 * --no-shconf. A file prefix (for dpdk-telemetry.py) keeps its hugepage files after a clean
 * exit unless they are unlinked once mapped: no secondary process attaches to fwstress. */
static int
eal_defaults(char **argv, int argc)
{
	static char inmem[] = "--in-memory", noshconf[] = "--no-shconf", unlink[] = "--huge-unlink";
	bool nohuge = has_arg(argv, argc, "--no-huge");

	if (has_arg(argv, argc, "--in-memory") || has_arg(argv, argc, "--proc-type"))
		return argc;
	if (!has_arg(argv, argc, "--file-prefix")) {
		if (!nohuge)
			argv[argc++] = inmem;
		else if (!has_arg(argv, argc, "--no-shconf"))
			argv[argc++] = noshconf;
	} else if (!nohuge && !has_arg(argv, argc, "--huge-unlink")) {
		argv[argc++] = unlink;
	}
	return argc;
}

/* fwstress's log lines (fws_log.h) into DPDK's log, one log type per module registered on its
 * first line: EAL's --log-level fws.trial:debug (the patterns EAL keeps) and --syslog apply.
 * Lines are rare (setup, warnings), so one lock keeps the table whole across lcores. */
static void
log_to_dpdk(const char *mod, enum fws_log_level level, const char *line)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static struct {
		char mod[32];
		int type;
	} types[16];
	uint32_t type = RTE_LOGTYPE_USER1;
	unsigned int k;

	pthread_mutex_lock(&lock);
	for (k = 0; k < RTE_DIM(types) && types[k].mod[0] && strcmp(types[k].mod, mod) != 0; k++)
		;
	if (k < RTE_DIM(types) && !types[k].mod[0]) {
		strlcpy(types[k].mod, mod, sizeof(types[k].mod));
		types[k].type = rte_log_register_type_and_pick_level(mod, RTE_LOG_NOTICE);
	}
	if (k < RTE_DIM(types) && types[k].type >= 0)
		type = (uint32_t)types[k].type;
	pthread_mutex_unlock(&lock);
	rte_log((uint32_t)level, type, "%s", line);
}

int
app_eal_start(struct fws_cfg *cfg, char **cli_eal, int n_cli_eal)
{
	static char *argv[FWS_CFG_MAX_EAL * 2 + 8];
	static char level[] = "--log-level=notice";
	/* Telemetry's socket stays (/fwstress/streams); its WARNING that no legacy callback is
	 * registered, on every command, goes (DPDK 22.11-24.11: log type lib.telemetry). */
	static char telemetry_level[] = "--log-level=lib.telemetry:error";
	int argc = 0, i;
	char err[200];

	if (cfg &&
	    fws_config_eal_merge(cfg, cli_eal, (unsigned int)n_cli_eal, err, sizeof(err)) < 0) {
		fprintf(stderr, "fwstress: %s\n", err);
		return -1;
	}
	argv[argc++] = (char *)"fwstress";
	for (i = 0; cfg && i < (int)cfg->n_eal; i++)
		argv[argc++] = cfg->eal[i];
	for (i = 0; !cfg && i < n_cli_eal && argc < (int)RTE_DIM(argv) - 4; i++)
		argv[argc++] = cli_eal[i];
	for (i = 1; i < argc; i++) {
		const char *why =
			fws_config_eal_refused(argv[i], i + 1 < argc ? argv[i + 1] : NULL);

		if (why) {
			fprintf(stderr, "fwstress: EAL argument \"%s\": %s\n", argv[i], why);
			return -1;
		}
	}
	argc = eal_defaults(argv, argc);
	if (!has_arg(argv, argc, "--log-level")) {
		argv[argc++] = level;
		argv[argc++] = telemetry_level;
	}
	argv[argc] = NULL;
	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr,
			"fwstress: setup: EAL init failed: %s (EAL args from the config "
			"\"eal\" list and before \"--\")\n",
			rte_strerror(rte_errno));
		return -1;
	}
	fws_log_set_sink(log_to_dpdk);
	return 0;
}

void
app_split_eal(int *argc, char ***argv, char ***cli_eal, int *n_cli_eal)
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

/* Whether arg is one of opts' long options ("--name" or "--name=value"). */
static bool
long_opt(const char *arg, const struct option *opts)
{
	size_t n = strcspn(arg + 2, "=");

	for (; opts->name; opts++)
		if (strlen(opts->name) == n && strncmp(arg + 2, opts->name, n) == 0)
			return true;
	return false;
}

bool
app_eal_misplaced(const char *cmd, char **eal, int n, const char *shortopts,
		  const struct option *opts)
{
	static const char eal_short[] = "abcdhlmnrsv"; /* EAL's own: they stay EAL's */
	int i;

	for (i = 0; i < n; i++) {
		const char *a = eal[i];
		bool mine = a[0] == '-' && a[1] == '-' && a[2] ? long_opt(a, opts)
			    : a[0] == '-' && a[1] && a[1] != '-' && a[1] != ':'
				    ? strchr(shortopts, a[1]) && !strchr(eal_short, a[1])
				    : false;

		if (mine) {
			fprintf(stderr,
				"fwstress: %s: \"%s\" is an option of fwstress %s: give it after "
				"\"--\" (before it go DPDK's EAL arguments: fwstress %s [EAL ARGS "
				"--] [OPTIONS] [CONFIG])\n",
				cmd, a, cmd, cmd);
			return true;
		}
	}
	return false;
}

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};

/* The stop signals counted in app_stop_requests; their handlers before into old (NULL: not
 * kept). */
static void
catch_signals(struct sigaction *old)
{
	struct sigaction sa;
	unsigned int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &sa, old ? &old[i] : NULL);
	fws_spawn_stop_on(&app_stop_requests); /* a helper's answer waited for ends too */
}

static void
restore_signals(const struct sigaction *old)
{
	unsigned int i;

	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &old[i], NULL);
}

/* INT, TERM and HUP all end a run the same way: stop, write what was measured, partial. */
void
app_catch_stop_signals(void)
{
	catch_signals(NULL);
	fws_agent_remote_stop_on(&app_stop_requests); /* a wait for an agent ends too */
}

/* The option argv[optind - 1] names, without a value given with "=". */
static void
bad_option_name(char **argv, char *buf, size_t len)
{
	const char *a = argv[optind - 1];

	if (optopt && strncmp(a, "--", 2) != 0)
		snprintf(buf, len, "-%c", optopt);
	else
		snprintf(buf, len, "%.*s", (int)strcspn(a, "="), a);
}

int
app_repeat_arg(const char *cmd, const char *val, unsigned int *out)
{
	char *end;
	unsigned long n = strtoul(val, &end, 10);

	if (*end || *val == '-' || n < 1 || n > FWS_CFG_MAX_REPEAT) {
		fprintf(stderr, "fwstress %s: --repeat \"%s\": give a count, 1-%d\n", cmd, val,
			FWS_CFG_MAX_REPEAT);
		return -1;
	}
	*out = (unsigned int)n;
	return 0;
}

int
app_getopt(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *opts)
{
	const char *names[64];
	char bad[64], want[80];
	size_t n = 0;
	int c;

	opterr = 0;
	snprintf(want, sizeof(want), ":%s", shortopts);
	c = getopt_long(argc, argv, want, opts, NULL);
	if (c != '?' && c != ':')
		return c;
	bad_option_name(argv, bad, sizeof(bad));
	if (c == ':') {
		fprintf(stderr, "fwstress %s: option \"%s\" needs a value (fwstress %s --help)\n",
			cmd, bad, cmd);
		return '?';
	}
	for (; opts && opts[n].name && n < RTE_DIM(names); n++)
		names[n] = opts[n].name;
	if (strncmp(bad, "--", 2) == 0 && fws_names_nearest(bad + 2, names, n))
		fprintf(stderr,
			"fwstress %s: unknown option \"%s\"; did you mean \"--%s\"? (fwstress %s "
			"--help lists the options)\n",
			cmd, bad, fws_names_nearest(bad + 2, names, n), cmd);
	else
		fprintf(stderr,
			"fwstress %s: unknown option \"%s\" (fwstress %s --help lists the "
			"options)\n",
			cmd, bad, cmd);
	return '?';
}

/* Replace "{time}" (UTC start, 20261206-012345) and "{command}" in path; true when one was. */
static bool
expand(char *path, size_t len, const char *command, const char *when)
{
	static const char *const keys[] = {"{time}", "{command}"};
	const char *vals[] = {when, command};
	char out[FWS_CFG_PATH_LEN], *p;
	bool any = false;
	unsigned int k;

	for (k = 0; k < 2; k++)
		while ((p = strstr(path, keys[k])) != NULL) {
			snprintf(out, sizeof(out), "%.*s%s%s", (int)(p - path), path, vals[k],
				 p + strlen(keys[k]));
			strlcpy(path, out, len);
			any = true;
		}
	return any;
}

/* mkdir -p of the directory path is in. */
static int
make_parents(const char *path)
{
	char dir[FWS_CFG_PATH_LEN], *s;

	strlcpy(dir, path, sizeof(dir));
	for (s = strchr(dir + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	return 0;
}

int
app_expand_outputs(struct fws_cfg *cfg, const char *command)
{
	char *paths[] = {cfg->json_out, cfg->text_out};
	char when[32];
	time_t now = time(NULL);
	unsigned int i;
	struct tm tm;
	int rc;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	for (i = 0; i < 2; i++) {
		if (!expand(paths[i], FWS_CFG_PATH_LEN, command, when))
			continue;
		if ((rc = make_parents(paths[i])) < 0) {
			fprintf(stderr, "fwstress: report: cannot make the folder of %s: %s\n",
				paths[i], strerror(-rc));
			return -1;
		}
	}
	return 0;
}

void
app_keep_earlier_report(const struct fws_cfg *cfg, const char *cli_json, bool resume)
{
	char kept[FWS_CFG_PATH_LEN + 48], when[32];
	const char *dflt = FWS_CFG_JSON_DEFAULT;
	struct stat st;
	unsigned int i;
	struct tm tm;

	if (resume || cli_json || strcmp(cfg->json_out, dflt) != 0 || stat(dflt, &st) < 0)
		return;
	gmtime_r(&st.st_mtime, &tm);
	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	/* "fwstress-report.json" -> "fwstress-report.WHEN.json", then WHEN-2, ... */
	snprintf(kept, sizeof(kept), "%.*s.%s.json", (int)(strlen(dflt) - 5), dflt, when);
	for (i = 2; access(kept, F_OK) == 0 && i < 100; i++)
		snprintf(kept, sizeof(kept), "%.*s.%s-%u.json", (int)(strlen(dflt) - 5), dflt, when,
			 i);
	if (access(kept, F_OK) == 0 || rename(dflt, kept) < 0) {
		fprintf(stderr,
			"fwstress: note: %s of an earlier run will be overwritten (%s; give -o to "
			"keep it)\n",
			dflt, access(kept, F_OK) == 0 ? "no free dated name" : strerror(errno));
		return;
	}
	fprintf(stderr,
		"fwstress: note: %s of an earlier run kept as %s (-o FILE chooses this run's "
		"report)\n",
		dflt, kept);
}

char *
app_estimate_text(char *buf, size_t len, const struct fws_estimate *e, unsigned int cells)
{
	unsigned int n = cells * e->cell_min_trials, m = cells * e->cell_trials;
	char lo[32], hi[32], trials[48];

	fws_pace_fmt(lo, sizeof(lo), e->fixed_s + cells * e->cell_min_s);
	fws_pace_fmt(hi, sizeof(hi), e->fixed_s + cells * e->cell_s);
	if (n == m)
		snprintf(trials, sizeof(trials), "%u trial%s", n, n == 1 ? "" : "s");
	else
		snprintf(trials, sizeof(trials), "%u to %u trials", n, m);
	if (strcmp(lo, hi) == 0)
		snprintf(buf, len, "%s, %s", trials, lo);
	else
		snprintf(buf, len, "%s, %s to %s", trials, lo, hi);
	return buf;
}
