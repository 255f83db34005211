/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwstress campaign PLAN.json: the qualification matrix in one command. Per scenario: its
 * setup command, a fwstress child measuring its config (EAL starts once per process, and a
 * scenario may use other ports), its teardown; the campaign report is written after every
 * scenario and holds every cell measured so far. --resume skips the scenarios done.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fws_estimate.h"
#include "fws_app.h"
#include "fws_campaign.h"
#include "fws_cell.h"
#include "fws_compat.h"
#include "fws_pace.h"
#include "fws_report.h"
#include "fws_spawn.h"
#include "fws_util.h"

static volatile sig_atomic_t stop;

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* The campaign's state between scenarios. */
/* A setup or teardown command asked to stop gets this long before SIGKILL. */
#define FWS_CAMPAIGN_GRACE_MS 5000

/* Where a setup or teardown runs: the command that runs shell text on its host; n 0: here,
 * through /bin/sh -c. */
struct where {
	char host[FWS_CFG_NAME_LEN];
	unsigned int n;
	char *argv[FWS_CFG_MAX_ARGV];
};

struct campaign {
	struct fws_campaign p;
	struct where on[FWS_CAMPAIGN_MAX_SCENARIOS][2]; /**< its setup's, its teardown's */
	struct fws_cells cells[FWS_CAMPAIGN_MAX_SCENARIOS];
	struct fws_estimate e[FWS_CAMPAIGN_MAX_SCENARIOS]; /**< from the configs */
	double est[FWS_CAMPAIGN_MAX_SCENARIOS];            /**< seconds, at most */
	double done_est, done_s; /**< estimate and time of the scenarios measured here */
	char started[32];
	char exe[FWS_CFG_PATH_LEN];
	bool tty;
	unsigned int repeat; /**< --repeat: every scenario measures each cell so often */
	char repeat_arg[16];
};

static void
iso_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A file of scenario i in the work directory: NN-NAME.suffix. */
static void
work_file(const struct campaign *c, unsigned int i, const char *suffix, char *buf, size_t len)
{
	/* The work directory is at most FWS_CFG_PATH_LEN - 1 long, buf has room beyond that. */
	if (snprintf(buf, len, "%s/%02u-%s.%s", c->p.workdir, i + 1, c->p.s[i].name, suffix) >=
	    (int)len)
		buf[0] = '\0';
}

/* Start argv with stdout and stderr into out; the child dies with us. Returns the pid. */
static pid_t
spawn(char *const *argv, const char *out)
{
	pid_t pid = fork();
	int fd;

	if (pid != 0)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	fd = open(out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
	}
	execvp(argv[0], argv);
	fprintf(stderr, "fwstress: campaign: %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Wait for pid; a stop request is passed on once. Returns the wait status. */
static int
reap(pid_t pid, void (*tick)(void *arg), void *arg)
{
	bool passed = false;
	int st;

	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			return st;
		if (r < 0 && errno != EINTR)
			return -1;
		if (stop && !passed) {
			kill(pid, SIGTERM);
			passed = true;
		}
		if (tick)
			tick(arg);
		usleep(200000);
	}
}

/* The last line of a log, for a one-line reason. */
static void
last_line(const char *path, char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '\n')
			strlcpy(buf, line, len);
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* The status of a lingering guard's command; a stop request is passed on once. */
static int
reap_status(struct fws_guard *g)
{
	bool passed = false;

	for (;;) {
		struct pollfd p = {.fd = g->status_fd, .events = POLLIN};

		if (poll(&p, 1, 200) > 0)
			return fws_guard_status(g);
		if (stop && !passed) {
			kill(g->pid, SIGTERM);
			passed = true;
		}
	}
}

/* A setup or teardown command through the shell, in its own process group under a guard:
 * nothing it started outlives it. With keep (a setup) what it left running (a daemon) lives
 * until fws_guard_end(keep), after the teardown. 0, or its status with the reason. */
static int
shell(struct campaign *c, unsigned int i, const char *what, const char *cmd, struct fws_guard *keep,
      char *reason, size_t len)
{
	const struct where *w = &c->on[i][strcmp(what, "setup") != 0];
	char *argv[FWS_CFG_MAX_ARGV + 3], log[FWS_CFG_PATH_LEN + 32], tail[200];
	struct fws_guard g;
	unsigned int k = 0;
	int st, n, fd, rc;

	if (!cmd[0])
		return 0;
	if (w->n == 0) {
		argv[k++] = "/bin/sh";
		argv[k++] = "-c";
	}
	for (; k < w->n; k++)
		argv[k] = w->argv[k];
	argv[k++] = (char *)cmd;
	argv[k] = NULL;
	work_file(c, i, what, log, sizeof(log));
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	rc = fws_spawn_guarded(argv, fd, FWS_CAMPAIGN_GRACE_MS, keep != NULL, keep ? keep : &g);
	if (fd >= 0)
		close(fd);
	if (rc < 0)
		st = -1;
	else if (keep)
		st = reap_status(keep);
	else
		st = reap(g.pid, NULL, NULL);
	if (st == 0)
		return 0;
	last_line(log, tail, sizeof(tail));
	n = snprintf(reason, len, "%s%s%s \"%s\" %s %d%s%s (log: %s)", what, w->n ? " on " : "",
		     w->host, cmd, WIFSIGNALED(st) ? "killed by signal" : "exited with status",
		     WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st), tail[0] ? ": " : "", tail,
		     log);
	(void)n; /* a long reason is cut, not an error */
	return st ? st : -1;
}

/* The progress of the scenario being measured, from its child's --stats lines. */
struct progress {
	struct campaign *c;
	unsigned int i;
	double t0, last_print;
	const char *stats_path;
	FILE *stats;
	unsigned int trials_done;
	struct fws_pace pace; /**< its cells as they begin */
	struct fws_live_brief last;
	int printed; /**< the trial whose start was printed; -1 none */
};

/* New complete lines of the child's --stats file: trials ended, the latest line. */
static void
read_stats(struct progress *g)
{
	char line[1 << 16], key[96];

	if (g->stats == NULL && (g->stats = fopen(g->stats_path, "r")) == NULL)
		return;
	for (;;) {
		long at = ftell(g->stats);
		struct fws_live_brief b;
		size_t n;

		if (fgets(line, sizeof(line), g->stats) == NULL)
			break;
		n = strlen(line);
		if (n == 0 || line[n - 1] != '\n') {
			fseek(g->stats, at, SEEK_SET); /* the child is still writing it */
			break;
		}
		if (fws_campaign_live_brief(line, n, &b) < 0)
			continue;
		snprintf(key, sizeof(key), "%s %s", b.frame_size, b.direction);
		fws_pace_trial(&g->pace, key, g->trials_done, now_s());
		g->trials_done += b.result;
		g->last = b;
	}
	clearerr(g->stats);
}

/* Seconds left for the whole campaign: the scenario's own pace once a cell of it finished,
 * else its estimate scaled by how long the scenarios measured here took against theirs; the
 * scenarios after it so scaled (or by the scenario's own pace when none finished yet). */
static double
left_s(const struct progress *g, double elapsed)
{
	const struct campaign *c = g->c;
	double ratio = 1, left;
	unsigned int j;

	if (c->done_est > 0)
		ratio = c->done_s / c->done_est;
	if (g->pace.begun > 1 || c->done_est <= 0)
		left = fws_pace_left(&g->pace, now_s(), false);
	else
		left = FWS_MAX(c->est[g->i] * ratio - elapsed, 0.0);
	if (c->done_est <= 0 && g->pace.begun > 1 && c->est[g->i] > 0)
		ratio = (elapsed + left) / c->est[g->i];
	for (j = g->i + 1; j < c->p.n; j++)
		if (c->p.s[j].status != FWS_CAMPAIGN_ST_DONE &&
		    c->p.s[j].status != FWS_CAMPAIGN_ST_EXPECT_FAILED)
			left += c->est[j] * ratio;
	return left;
}

static void
print_progress(struct progress *g, bool line_end)
{
	const struct campaign *c = g->c;
	double elapsed = now_s() - g->t0, left = left_s(g, elapsed);
	char detail[96] = "", t[32];

	if (g->last.phase[0] && !g->last.result)
		snprintf(detail, sizeof(detail), " (%.24s%s%.15s, %.15s)", g->last.frame_size,
			 g->last.direction[0] ? " " : "", g->last.direction, g->last.phase);
	fprintf(stderr, "%scampaign %u/%u %s: trial %u of ~%u%s, %.0f s in; about %s left%s",
		c->tty ? "\r\033[K" : "", g->i + 1, c->p.n, c->p.s[g->i].name, g->trials_done + 1,
		fws_pace_trials(&g->pace, g->trials_done), detail, elapsed,
		fws_pace_fmt(t, sizeof(t), left), line_end ? "\n" : "");
	g->last_print = now_s();
}

static void
tick(void *arg)
{
	struct progress *g = arg;
	bool started;

	read_stats(g);
	/* A terminal gets the line redrawn each second; a log a line per trial, at its start. */
	started = g->last.phase[0] && !g->last.result && g->last.trial != g->printed;
	if (g->c->tty ? now_s() - g->last_print >= 1 : started)
		print_progress(g, !g->c->tty);
	if (started)
		g->printed = g->last.trial;
}

static enum fws_campaign_status
status_of(int st)
{
	if (st < 0)
		return FWS_CAMPAIGN_ST_FAILED;
	if (WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) == 4) || stop)
		return FWS_CAMPAIGN_ST_INTERRUPTED;
	if (WEXITSTATUS(st) == 0)
		return FWS_CAMPAIGN_ST_DONE;
	if (WEXITSTATUS(st) == EXIT_EXPECT)
		return FWS_CAMPAIGN_ST_EXPECT_FAILED;
	return FWS_CAMPAIGN_ST_FAILED;
}

/* The child's command line: [WRAP...] fwstress CMD -q -o REPORT --stats FILE [--repeat N]
 * [--resume] CONFIG. */
static void
child_argv(struct campaign *c, unsigned int i, char **argv, char *config, char *stats, bool resume)
{
	struct fws_campaign_scenario *s = &c->p.s[i];
	unsigned int n = 0, k;

	for (k = 0; k < c->p.n_wrap; k++)
		argv[n++] = c->p.wrap[k];
	argv[n++] = c->exe;
	argv[n++] = (char *)fws_campaign_cmd_name(s->cmd);
	argv[n++] = "-q";
	argv[n++] = "-o";
	argv[n++] = s->report;
	argv[n++] = "--stats";
	argv[n++] = stats;
	if (c->repeat) {
		argv[n++] = "--repeat";
		argv[n++] = c->repeat_arg;
	}
	if (resume)
		argv[n++] = "--resume";
	argv[n++] = config;
	argv[n] = NULL;
}

/* Measure scenario i; its cells go into c->cells[i]. */
static void
measure(struct campaign *c, unsigned int i, bool resume)
{
	struct fws_campaign_scenario *s = &c->p.s[i];
	char config[FWS_CFG_PATH_LEN + 32], log[FWS_CFG_PATH_LEN + 32], err[600];
	char stats[FWS_CFG_PATH_LEN + 32];
	char *argv[FWS_CAMPAIGN_MAX_WRAP + 16];
	struct progress g = {.c = c, .i = i, .t0 = now_s(), .stats_path = stats, .printed = -1};

	fws_pace_start(&g.pace, c->e[i].cells, c->e[i].cell_min_s, c->e[i].cell_s,
		       c->e[i].cell_trials);
	int st;

	work_file(c, i, "config.json", config, sizeof(config));
	work_file(c, i, "log", log, sizeof(log));
	work_file(c, i, "stats.ndjson", stats, sizeof(stats));
	resume = resume && s->cmd != FWS_CAMPAIGN_CONNECTIONS && access(s->report, R_OK) == 0;
	if (!resume)
		unlink(s->report);
	child_argv(c, i, argv, config, stats, resume);
	unlink(stats);
	st = reap(spawn(argv, log), tick, &g);
	if (g.stats)
		fclose(g.stats);
	if (c->tty)
		fputc('\n', stderr);
	s->seconds = now_s() - g.t0;
	s->exit_code = st < 0 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	s->status = status_of(st);
	if (s->status == FWS_CAMPAIGN_ST_FAILED || s->status == FWS_CAMPAIGN_ST_INTERRUPTED)
		last_line(log, s->reason, sizeof(s->reason));
	fws_cells_free(&c->cells[i]);
	if (access(s->report, R_OK) == 0 &&
	    fws_report_load_cells(s->report, &c->cells[i], err, sizeof(err)) < 0) {
		s->status = FWS_CAMPAIGN_ST_FAILED;
		strlcpy(s->reason, err, sizeof(s->reason));
	}
	if (s->status == FWS_CAMPAIGN_ST_DONE || s->status == FWS_CAMPAIGN_ST_EXPECT_FAILED) {
		c->done_est += c->est[i];
		c->done_s += s->seconds;
	}
}

/* What the scenario's command would refuse of its config, as it would say it. */
static bool
refused(const struct fws_cfg *cfg, enum fws_campaign_cmd cmd, char *err, size_t len)
{
	if (cmd == FWS_CAMPAIGN_CONNECTIONS && cfg->conn.test == FWS_CONN_NONE)
		snprintf(err, len,
			 "config: connections: the config has no \"connections\" section "
			 "(test, rate, ...)");
	else if (cmd == FWS_CAMPAIGN_CONNECTIONS &&
		 fws_config_conn_ends(cfg, &(unsigned int){0}, &(unsigned int){0}, err, len) < 0)
		return true;
	else
		return false;
	return true;
}

/* Where scenario i's setup (k 0) or teardown (1) runs: on the host of cfg it names. 0, or
 * -1 with the reason in err. */
static int
resolve(struct campaign *c, unsigned int i, unsigned int k, const struct fws_cfg *cfg, char *err,
	size_t len)
{
	const char *host = k ? c->p.s[i].teardown_host : c->p.s[i].setup_host;
	const char *argv[FWS_CFG_MAX_ARGV];
	struct where *w = &c->on[i][k];
	unsigned int h, n, j;

	if (!host[0])
		return 0;
	for (h = 0; h < cfg->n_hosts && strcmp(cfg->hosts[h].name, host) != 0; h++)
		;
	if (h == cfg->n_hosts) {
		snprintf(err, len, "%s: host \"%s\" is not one of the config's \"hosts\"",
			 k ? "teardown" : "setup", host);
		return -1;
	}
	n = fws_config_host_shell(&cfg->hosts[h], argv, FWS_CFG_MAX_ARGV);
	if (n == 0) {
		snprintf(
			err, len,
			"%s: host \"%s\" is reached by a \"command\": give it a \"shell\" (what "
			"runs shell text there, e.g. [\"ip\", \"netns\", \"exec\", \"NS\", \"sh\", "
			"\"-c\"])",
			k ? "teardown" : "setup", host);
		return -1;
	}
	strlcpy(w->host, host, sizeof(w->host));
	for (j = 0; j < n; j++, w->n++)
		if ((w->argv[j] = strdup(argv[j])) == NULL) {
			snprintf(err, len, "out of memory");
			return -1;
		}
	return 0;
}

/* Write every scenario's config into the work directory and estimate its length. A config
 * that does not validate, or that its command would refuse, stops the campaign before
 * anything runs (exit 2, the scenario named). */
static int
prepare(struct campaign *c, bool dry)
{
	char err[FWS_ERR_LEN], path[FWS_CFG_PATH_LEN + 32];
	unsigned int i;

	if (!dry && mkdir(c->p.workdir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "fwstress: campaign: %s: %s\n", c->p.workdir, strerror(errno));
		return -1;
	}
	for (i = 0; i < c->p.n; i++) {
		char *text = fws_campaign_config_text(&c->p, i, err, sizeof(err));
		struct fws_cfg *cfg;
		FILE *f;

		if (text == NULL) {
			fprintf(stderr, "fwstress: campaign: %s\n", err);
			return -1;
		}
		work_file(c, i, "config.json", path, sizeof(path));
		work_file(c, i, "json", c->p.s[i].report, sizeof(c->p.s[i].report));
		f = dry ? NULL : fopen(path, "w");
		if (!dry && (f == NULL || fputs(text, f) < 0 || fclose(f) != 0)) {
			fprintf(stderr, "fwstress: campaign: %s: %s\n", path, strerror(errno));
			free(text);
			return -1;
		}
		cfg = fws_config_parse(text, strlen(text), err, sizeof(err));
		free(text);
		if (cfg == NULL || refused(cfg, c->p.s[i].cmd, err, sizeof(err)) ||
		    resolve(c, i, 0, cfg, err, sizeof(err)) < 0 ||
		    resolve(c, i, 1, cfg, err, sizeof(err)) < 0) {
			fprintf(stderr, "fwstress: campaign: scenario %s: %s\n", c->p.s[i].name,
				err);
			fws_config_free(cfg);
			return -1;
		}
		if (c->repeat)
			cfg->repeat = c->repeat;
		fws_estimate_cells(cfg, c->p.s[i].cmd, &c->e[i]);
		c->est[i] = c->e[i].fixed_s + c->e[i].cells * c->e[i].cell_s;
		fws_config_free(cfg);
		c->p.s[i].exit_code = -1;
	}
	return 0;
}

/* --resume: the scenarios the earlier campaign report says are done keep their cells. */
static int
take_done(struct campaign *c)
{
	char err[FWS_ERR_LEN];
	unsigned int i;
	int rc = fws_campaign_resume(&c->p, c->p.output, err, sizeof(err));

	if (rc == -ENOENT) {
		fprintf(stderr,
			"fwstress: campaign --resume: no %s yet: starting from the first "
			"scenario\n",
			c->p.output);
		return 0;
	}
	if (rc < 0) {
		fprintf(stderr, "fwstress: %s\n", err);
		return -1;
	}
	for (i = 0; i < c->p.n; i++) {
		struct fws_campaign_scenario *s = &c->p.s[i];

		if (s->status != FWS_CAMPAIGN_ST_DONE && s->status != FWS_CAMPAIGN_ST_EXPECT_FAILED)
			continue;
		if (fws_report_load_cells(s->report, &c->cells[i], err, sizeof(err)) < 0) {
			fprintf(stderr, "fwstress: campaign --resume: scenario %s again: %s\n",
				s->name, err);
			s->status = FWS_CAMPAIGN_ST_PENDING;
		}
	}
	return 0;
}

static int
save(struct campaign *c, bool partial)
{
	int rc = fws_report_campaign(c->p.output, &c->p, c->cells, c->started, partial);

	if (rc < 0)
		fprintf(stderr, "fwstress: campaign: %s: %s\n", c->p.output, strerror(-rc));
	return rc;
}

/* One scenario: setup, measure, teardown (also after a failed setup: it may have done half).
 * Returns -1 when the campaign must stop. */
static int
scenario(struct campaign *c, unsigned int i, bool resume)
{
	struct fws_campaign_scenario *s = &c->p.s[i];
	struct fws_guard setup = {.pid = -1, .status_fd = -1};
	char reason[sizeof(s->reason)];

	s->reason[0] = '\0';
	if (shell(c, i, "setup", s->setup, &setup, s->reason, sizeof(s->reason)) != 0) {
		s->status = stop ? FWS_CAMPAIGN_ST_INTERRUPTED : FWS_CAMPAIGN_ST_SETUP_FAILED;
		shell(c, i, "teardown", s->teardown, NULL, reason, sizeof(reason));
		fws_guard_end(&setup);
		fprintf(stderr, "fwstress: campaign: scenario %s: %s\n", s->name, s->reason);
		return -1;
	}
	measure(c, i, resume);
	if (shell(c, i, "teardown", s->teardown, NULL, reason, sizeof(reason)) != 0)
		fprintf(stderr, "fwstress: campaign: scenario %s: %s\n", s->name, reason);
	fws_guard_end(&setup); /* what the setup left running ends with its scenario */
	if (s->status == FWS_CAMPAIGN_ST_FAILED)
		fprintf(stderr, "fwstress: campaign: scenario %s failed (exit %d): %s\n", s->name,
			s->exit_code, s->reason);
	return stop ? -1 : 0;
}

static bool
all_done(const struct campaign *c)
{
	unsigned int i;

	for (i = 0; i < c->p.n; i++)
		if (c->p.s[i].status != FWS_CAMPAIGN_ST_DONE &&
		    c->p.s[i].status != FWS_CAMPAIGN_ST_EXPECT_FAILED)
			return false;
	return true;
}

static int
summary(const struct campaign *c)
{
	bool expect = false, failed = false, interrupted = stop != 0, setup = false;
	unsigned int i;

	printf("%-32s %-26s %6s %9s\n", "scenario", "status", "cells", "seconds");
	for (i = 0; i < c->p.n; i++) {
		const struct fws_campaign_scenario *s = &c->p.s[i];

		printf("%-32s %-26s %6u %9.1f\n", s->name, fws_campaign_status_name(s->status),
		       c->cells[i].n, s->seconds);
		expect |= s->status == FWS_CAMPAIGN_ST_EXPECT_FAILED;
		failed |= s->status == FWS_CAMPAIGN_ST_FAILED;
		setup |= s->status == FWS_CAMPAIGN_ST_SETUP_FAILED;
		interrupted |= s->status == FWS_CAMPAIGN_ST_INTERRUPTED;
	}
	printf("report: %s (render it: fwstress report --format wiki %s)\n", c->p.output,
	       c->p.output);
	if (setup)
		return fws_err_exit_code(FWS_ERR_SETUP);
	if (interrupted)
		return fws_err_exit_code(FWS_ERR_INTERRUPTED);
	if (failed)
		return fws_err_exit_code(FWS_ERR_FAULT);
	return expect ? EXIT_EXPECT : EXIT_OK;
}

static void
usage_campaign(FILE *f)
{
	fprintf(f,
		"Usage: fwstress campaign [--resume] [--dry-run] [--repeat N] [-o REPORT] "
		"PLAN.json\n\n"
		"Measures every scenario of the plan in order: its setup command, a fwstress\n"
		"run, search or sweep of its config (a file, or the plan's base config with\n"
		"overrides), its teardown command. The campaign report (-o, or the plan's\n"
		"\"output\") is written after every scenario and holds every cell so far, each\n"
		"named by its scenario; REPORT.d/ keeps each scenario's config, report, log and\n"
		"live statistics. A failed setup stops the campaign (the cells so far stay).\n"
		"\n"
		"Options:\n"
		"  -o, --output REPORT  the campaign report (default: the plan's \"output\")\n"
		"      --resume         skip the scenarios done, continue an interrupted one\n"
		"                       (a sweep's cells, a run's or search's repetitions kept)\n"
		"      --repeat N       every scenario measures each cell N times (the matrix\n"
		"                       gives each cell's median and spread)\n"
		"  -n, --dry-run        check every scenario (as the campaign does before it\n"
		"                       starts) and print what would run and for how long;\n"
		"                       nothing is run or written (also: fwstress validate PLAN)\n"
		"  -h, --help           this help\n"
		"\n"
		"Plan keys (config/campaign-lab.json is one for the namespace lab):\n"
		"  dut        {name, firmware, load_command, telemetry}: over each config\n"
		"  output     the campaign report (default fwstress-campaign.json)\n"
		"  base       a config file the scenarios start from\n"
		"  wrap       a command the measuring fwstress runs under, e.g. [\"tools/lab\",\n"
		"             \"exec\"] for the lab's tester namespace\n"
		"  scenarios  the list; each: name (the matrix row), config (a file; default\n"
		"             base), overrides (config keys merged in), command (run, search,\n"
		"             sweep (default) or connections), setup and teardown (shell text,\n"
		"             or {host, command}: on a load client of the config)\n"
		"\n"
		"Example: fwstress campaign --dry-run config/campaign-lab.json\n");
}

/* --dry-run: what each scenario would run and how long the campaign should take. */
static void
dry_run(const struct campaign *c)
{
	double lo = 0, hi = 0;
	char a[32], b[32], t[120];
	unsigned int i;

	for (i = 0; i < c->p.n; i++) {
		lo += c->e[i].fixed_s + c->e[i].cells * c->e[i].cell_min_s;
		hi += c->est[i];
	}
	printf("campaign: %u scenarios, %s to %s (an estimate); report %s (each scenario's "
	       "files in %s/)\n",
	       c->p.n, fws_pace_fmt(a, sizeof(a), lo), fws_pace_fmt(b, sizeof(b), hi), c->p.output,
	       c->p.workdir);
	for (i = 0; i < c->p.n; i++) {
		const struct fws_campaign_scenario *s = &c->p.s[i];
		const struct fws_estimate *e = &c->e[i];

		printf("%2u. %-20s fwstress %-11s %s%s: %s\n", i + 1, s->name,
		       fws_campaign_cmd_name(s->cmd), s->config,
		       s->overrides ? " (with overrides)" : "",
		       app_estimate_text(t, sizeof(t), e, e->cells));
		if (s->setup[0])
			printf("    setup%s%s: %s\n", s->setup_host[0] ? " on " : "", s->setup_host,
			       s->setup);
		if (s->teardown[0])
			printf("    teardown%s%s: %s\n", s->teardown_host[0] ? " on " : "",
			       s->teardown_host, s->teardown);
	}
}

/* campaign's options. */
const struct option app_campaign_opts[] = {
	{"resume", no_argument, NULL, 'R'},  {"output", required_argument, NULL, 'o'},
	{"dry-run", no_argument, NULL, 'n'}, {"repeat", required_argument, NULL, 'r'},
	{"help", no_argument, NULL, 'h'},    {NULL, 0, NULL, 0},
};

static int
parse_args(int argc, char **argv, const char **out, bool *resume, bool *dry, unsigned int *repeat)
{
	int c;

	optind = 1;
	while ((c = app_getopt("campaign", argc, argv, "o:nh", app_campaign_opts)) != -1) {
		if (c == 'r') {
			if (app_repeat_arg("campaign", optarg, repeat) < 0)
				return -1;
		} else if (c == 'R') {
			*resume = true;
		} else if (c == 'n') {
			*dry = true;
		} else if (c == 'o') {
			*out = optarg;
		} else if (c == 'h') {
			usage_campaign(stdout);
			return 1;
		} else {
			return -1; /* said */
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "fwstress: campaign: give one PLAN.json\n");
		return -1;
	}
	return 0;
}

/* The plan, with -o over its output; the fwstress binary the children run. */
static int
load(struct campaign *c, const char *path, const char *out)
{
	char err[FWS_ERR_LEN];
	ssize_t n;

	if (fws_campaign_load(path, &c->p, err, sizeof(err)) < 0) {
		fprintf(stderr, "fwstress: %s\n", err);
		return -1;
	}
	if (out && (strlcpy(c->p.output, out, sizeof(c->p.output)) + 3 > sizeof(c->p.output))) {
		fprintf(stderr, "fwstress: campaign: -o \"%s\": too long\n", out);
		return -1;
	}
	snprintf(c->p.workdir, sizeof(c->p.workdir), "%.*s.d", (int)sizeof(c->p.workdir) - 3,
		 c->p.output);
	n = readlink("/proc/self/exe", c->exe, sizeof(c->exe) - 1);
	if (n <= 0 || (size_t)n >= sizeof(c->exe) - 1) {
		fprintf(stderr, "fwstress: campaign: cannot find my own binary\n");
		return -1;
	}
	c->exe[n] = '\0';
	c->tty = isatty(STDERR_FILENO);
	return 0;
}

static void
campaign_free(struct campaign *c)
{
	unsigned int i, j, k;

	for (i = 0; i < c->p.n; i++) {
		fws_cells_free(&c->cells[i]);
		for (k = 0; k < 2; k++)
			for (j = 0; j < c->on[i][k].n; j++)
				free(c->on[i][k].argv[j]);
	}
	fws_campaign_free(&c->p);
	free(c);
}

int
cmd_campaign(int argc, char **argv)
{
	struct campaign *c = calloc(1, sizeof(*c));
	const char *out = NULL;
	bool resume = false, dry = false;
	unsigned int i;
	int rc;

	if (c == NULL)
		return fws_err_exit_code(FWS_ERR_FAULT);
	rc = parse_args(argc, argv, &out, &resume, &dry, &c->repeat);
	snprintf(c->repeat_arg, sizeof(c->repeat_arg), "%u", c->repeat);
	if (rc != 0) {
		free(c);
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	}
	if (load(c, argv[optind], out) < 0 || prepare(c, dry) < 0 ||
	    (resume && !dry && take_done(c) < 0)) {
		campaign_free(c);
		return fws_err_exit_code(FWS_ERR_CONFIG);
	}
	if (dry) {
		dry_run(c);
		campaign_free(c);
		return EXIT_OK;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	iso_now(c->started, sizeof(c->started));
	save(c, true);
	for (i = 0; i < c->p.n && !stop; i++) {
		if (c->p.s[i].status == FWS_CAMPAIGN_ST_DONE ||
		    c->p.s[i].status == FWS_CAMPAIGN_ST_EXPECT_FAILED)
			continue;
		rc = scenario(c, i, resume);
		save(c, true);
		if (rc < 0)
			break;
	}
	save(c, !all_done(c));
	rc = summary(c);
	campaign_free(c);
	return rc;
}
