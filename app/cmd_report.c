/* SPDX-License-Identifier: BSD-3-Clause */
/* fwstress report and fwstress compare: reports read back, rendered, lined up. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fws_app.h"
#include "fws_cell.h"
#include "fws_compat.h"
#include "fws_err.h"
#include "fws_matrix.h"
#include "fws_cells_io.h"

/* A report's cells, each cell's repetitions as one (fws_cells_collapse). 0, or -1 with the
 * reason in err. */
static int
load_one(const char *path, struct fws_cells *cells, char *err, size_t len)
{
	if (fws_report_load_cells(path, cells, err, len) < 0)
		return -1;
	if (fws_cells_collapse(cells) < 0) {
		snprintf(err, len, "report: %s: out of memory", path);
		fws_cells_free(cells);
		return -1;
	}
	return 0;
}

/* Read every report named; prints the error. Returns how many, or -1. */
static int
load_sets(char **paths, int n, struct fws_cells *sets)
{
	char err[600];
	int i;

	for (i = 0; i < n; i++) {
		if (load_one(paths[i], &sets[i], err, sizeof(err)) < 0) {
			fprintf(stderr, "fwstress: %s\n", err);
			while (i-- > 0)
				fws_cells_free(&sets[i]);
			return -1;
		}
	}
	return n;
}

static void
report_usage(void)
{
	printf("Usage: fwstress report [OPTIONS] REPORT.json [REPORT.json ...]\n\n"
	       "Renders the cells of run, search, sweep or campaign reports as a qualification\n"
	       "matrix: rows by scenario, frame size and result, per direction the figures\n"
	       "--columns chooses. Several reports, one per appliance, are laid side by side.\n"
	       "Notes are derived from the measurements. html is one self-contained page with\n"
	       "SVG charts: throughput against frame size in Mpps and Mbit/s with the\n"
	       "theoretical line rate per port speed, the appliances' grouped bars, latency\n"
	       "histograms.\n\n"
	       "Options:\n"
	       "  -f, --format FMT     md (default), wiki, csv, html, or hdr: the cells' latency\n"
	       "                       histograms as a HdrHistogram log (format 1.3, ns, 0.1 %%\n"
	       "                       buckets), a line per cell tagged\n"
	       "                       scenario/kind/direction/stream/size\n"
	       "      --columns LIST   each direction's figures: l1 (Mbit/s at L1), mpps, iperf\n"
	       "                       (the TCP goodput iperf would report), loss (%%), p50 and\n"
	       "                       p99 (latency, us), cpu (the DUT's); default %s\n"
	       "      --only KINDS     the rows, a comma list: ndr, pdr, lat (every latency\n"
	       "                       point) or latNN, run, b2b, cps, cps-fixed, sessions,\n"
	       "                       teardown, teardown-fixed\n"
	       "      --directions DIRS  the directions, a comma list: upload, download, bidir,\n"
	       "                       custom\n"
	       "      --label NAME     heads a report's column group, one per report in their\n"
	       "                       order (else its DUT name; two of one DUT by what tells\n"
	       "                       them apart: firmware, else date)\n"
	       "  -o, --output FILE    write to FILE instead of stdout\n"
	       "  -h, --help           this help\n\n"
	       "Examples:\n"
	       "  fwstress report --format html -o matrix.html dec740.json dec4280.json\n"
	       "  fwstress report --columns l1,loss,p99 lab-campaign.json\n"
	       "  fwstress report --format html --only ndr,lat50 --directions upload,download "
	       "-o ndr.html dec740.json dec4280.json\n"
	       "  fwstress report --format hdr -o latency.hlog dec740.json\n",
	       FWS_MATRIX_COLUMNS);
}

/* report's options. */
const struct option app_report_opts[] = {
	{"format", required_argument, NULL, 'f'}, {"columns", required_argument, NULL, 'c'},
	{"label", required_argument, NULL, 'L'},  {"output", required_argument, NULL, 'o'},
	{"only", required_argument, NULL, 'O'},   {"directions", required_argument, NULL, 'D'},
	{"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
};

/* --only and --directions: each report keeps the rows and directions asked for; true (and
 * said) when none is left of any. */
static bool
picked_none(struct fws_cells *sets, int n, const char *only, const char *dirs)
{
	unsigned int left = 0;
	int i;

	if (only == NULL && dirs == NULL)
		return false;
	for (i = 0; i < n; i++) {
		fws_cells_pick(&sets[i], only, dirs);
		left += sets[i].n + sets[i].n_b2b;
	}
	if (left == 0)
		fprintf(stderr,
			"fwstress: report: nothing to show: no cell of the report%s is "
			"of%s%s%s%s\n",
			n == 1 ? "" : "s", only ? " --only " : "", only ? only : "",
			dirs ? " --directions " : "", dirs ? dirs : "");
	return left == 0;
}

/* report's command line. */
struct report_args {
	const char *out, *columns, *only, *dirs;
	int fmt;
	bool hdr;
	const char *labels[64];
	unsigned int n_labels;
};

/* One option of report's into a: 0, or -1 to exit with *code. */
static int
report_opt(int c, struct report_args *a, int *code)
{
	char err[200];

	*code = EXIT_USAGE;
	switch (c) {
	case 'c':
		if (fws_matrix_columns(optarg, err, sizeof(err)) < 0) {
			fprintf(stderr, "fwstress: report: %s\n", err);
			return -1;
		}
		a->columns = optarg;
		return 0;
	case 'f':
		a->hdr = !strcmp(optarg, "hdr") || !strcmp(optarg, "hlog");
		a->fmt = a->hdr ? FWS_MATRIX_MARKDOWN : fws_matrix_format(optarg);
		if (a->fmt < 0) {
			fprintf(stderr,
				"fwstress: report: --format \"%s\": md, wiki, csv, html or hdr\n",
				optarg);
			return -1;
		}
		return 0;
	case 'o':
		a->out = optarg;
		return 0;
	case 'O':
		a->only = optarg;
		return 0;
	case 'D':
		a->dirs = optarg;
		return 0;
	case 'L':
		if (a->n_labels == sizeof(a->labels) / sizeof(a->labels[0]) ||
		    strlen(optarg) >= sizeof(((struct fws_cells *)NULL)->label) || !optarg[0]) {
			fprintf(stderr,
				"fwstress: report: --label \"%s\": 1 to 63 characters, at most 64 "
				"labels\n",
				optarg);
			return -1;
		}
		a->labels[a->n_labels++] = optarg;
		return 0;
	case 'h':
		report_usage();
		*code = EXIT_OK;
		return -1;
	default:
		return -1;
	}
}

/* report's options and how many reports follow them (*n): 0, or -1 to exit with *code. */
static int
report_args(int argc, char **argv, struct report_args *a, int *n, int *code)
{
	char err[200];
	int c;

	optind = 1;
	while ((c = app_getopt("report", argc, argv, "f:o:h", app_report_opts)) != -1)
		if (report_opt(c, a, code) < 0)
			return -1;
	*code = EXIT_USAGE;
	*n = argc - optind;
	if (*n < 1) {
		fprintf(stderr, "fwstress: report: give one or more report files\n");
		return -1;
	}
	if (fws_cells_pick_check(a->only, a->dirs, err, sizeof(err)) < 0) {
		fprintf(stderr, "fwstress: report: %s\n", err);
		return -1;
	}
	if (a->n_labels > (unsigned int)*n) {
		fprintf(stderr,
			"fwstress: report: %u labels for %d report%s: one --label per report, "
			"in their order\n",
			a->n_labels, *n, *n == 1 ? "" : "s");
		return -1;
	}
	return 0;
}

int
cmd_report(int argc, char **argv)
{
	struct report_args a = {.fmt = FWS_MATRIX_MARKDOWN};
	const char *out;
	char err[200];
	struct fws_cells *sets;
	int rc, n, i;
	FILE *f = stdout;

	if (report_args(argc, argv, &a, &n, &rc) < 0)
		return rc;
	out = a.out;
	sets = calloc((size_t)n, sizeof(*sets));
	if (sets == NULL)
		return fws_err_exit_code(FWS_ERR_FAULT);
	if (load_sets(argv + optind, n, sets) < 0) {
		free(sets);
		return fws_err_exit_code(FWS_ERR_CONFIG);
	}
	for (i = 0; i < (int)a.n_labels; i++)
		strlcpy(sets[i].label, a.labels[i], sizeof(sets[i].label));
	if (picked_none(sets, n, a.only, a.dirs)) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (out && (f = fopen(out, "w")) == NULL) {
		fprintf(stderr, "fwstress: report: %s: %s\n", out, strerror(errno));
		rc = -EIO;
	} else if (a.hdr && (rc = fws_matrix_hdr(f, sets, (unsigned int)n, err, sizeof(err))) < 0) {
		fprintf(stderr, "fwstress: report: %s\n", err);
		if (out)
			fclose(f);
	} else {
		rc = a.hdr ? 0
			   : fws_matrix_render_columns(f, sets, (unsigned int)n,
						       (enum fws_matrix_format)a.fmt, a.columns);
		if (rc < 0)
			fprintf(stderr, "fwstress: report: %s: %s\n", out ? out : "standard output",
				strerror(-rc));
		else if (app_out_close(f, "report", out ? out : "standard output", 0) < 0)
			rc = -EIO;
	}
	rc = rc < 0 ? EXIT_OUTPUT : EXIT_OK;
out:
	for (i = 0; i < n; i++)
		fws_cells_free(&sets[i]);
	free(sets);
	return rc;
}

static const char *const verdict_names[] = {
	[FWS_CELL_SAME] = "same",
	[FWS_CELL_BETTER] = "BETTER",
	[FWS_CELL_WORSE] = "WORSE",
	[FWS_CELL_ONLY_OLD] = "gone",
	[FWS_CELL_ONLY_NEW] = "new",
	[FWS_CELL_SKIPPED] = "not compared",
	[FWS_CELL_INCONCLUSIVE] = "INCONCLUSIVE",
};

/* The verdict's word: one measured once on each side is weaker, and says so. */
static void
compare_verdict(const struct fws_cell_cmp *r)
{
	printf("%s", verdict_names[r->verdict]);
	if (r->single && (r->verdict == FWS_CELL_WORSE || r->verdict == FWS_CELL_BETTER))
		printf(" (unconfirmed)");
	if (r->loss_worse)
		printf(": loss %+.4f points", r->loss_change);
	if (r->why)
		printf(": %s", r->why);
	if (r->verdict == FWS_CELL_INCONCLUSIVE && r->reps_needed > 1000)
		printf(": the change sits on the tolerance, more than 1000 repetitions would not "
		       "settle it");
	else if (r->verdict == FWS_CELL_INCONCLUSIVE)
		printf(": about %u repetitions on each side would resolve it at this noise",
		       r->reps_needed);
}

/* How a weighed row was decided: the repetitions and the change's 95 % bound, or one
 * measurement on each side. */
static void
compare_basis(const struct fws_cell_cmp *r)
{
	if (!r->old || !r->new_ || r->verdict == FWS_CELL_SKIPPED)
		return;
	if (r->single)
		printf(" (single-trial: no noise measured; --repeat 3 or more on both sides tells "
		       "a change from noise)");
	else
		printf(" (%u and %u measurements; spread %.1f %% and %.1f %%; means' change known "
		       "to +-%.1f %%)",
		       r->old->reps > 1 ? r->old->reps : 1, r->new_->reps > 1 ? r->new_->reps : 1,
		       r->old->spread.cov * 100, r->new_->spread.cov * 100, r->half * 100);
}

/* A cell's figure in its measure's unit (throughput Mpps, connections "c", latency p99
 * "us"); ">=" marks a generator-limited lower bound. */
static void
compare_value(const struct fws_cell *c)
{
	const struct fws_cell_measure *m;
	char v[40];

	if (c == NULL) {
		printf("%16s ", "-");
		return;
	}
	m = fws_cell_measure(c);
	snprintf(v, sizeof(v), "%s%.*f %s",
		 c->generator_limited > 0 || c->rx_missed > 0 ? ">=" : "",
		 m->scale == 1     ? 0
		 : m->scale == 1e3 ? 1
				   : 4,
		 m->get(c) / m->scale, m->unit);
	printf("%16s ", v);
}

/* Which appliance and firmware a report measured, and when. */
static void
compare_side(const char *label, const char *path, const struct fws_cells *x)
{
	printf("%s: %s: %s, firmware %s, started %s%s\n", label, path,
	       x->dut[0] ? x->dut : "(no DUT name)", x->firmware[0] ? x->firmware : "not given",
	       x->started[0] ? x->started : "?", x->partial ? " (PARTIAL report)" : "");
}

/* "3%": a fraction in [0, 1), or -1 with one line naming the option. */
static int
percent_arg(const char *opt, const char *arg, double *out)
{
	char *end;
	double v = strtod(arg, &end) / 100;

	if (end == arg || strcmp(end, "%") != 0 || !(v >= 0 && v < 1)) {
		fprintf(stderr, "fwstress: compare: %s \"%s\": give a percentage such as 3%%\n",
			opt, arg);
		return -1;
	}
	*out = v;
	return 0;
}

static void
usage_compare(void)
{
	printf("Usage: fwstress compare [OPTIONS] OLD.json NEW.json\n\n"
	       "Lines up the cells of two reports by scenario, result kind, direction, stream\n"
	       "and frame size and weighs each by its own figure: throughput (Mpps) for run,\n"
	       "NDR and PDR cells, a connection test's figure (marked c), the 99th percentile\n"
	       "of latency (us) for a latency point (higher is worse). A cell that is no result\n"
	       "(an expectation failed, an interrupted scenario), above the link speed, or\n"
	       "generator-limited in the new report is not compared, and says why. With\n"
	       "repetitions (repeat) on a side, a change is WORSE or BETTER when it is beyond\n"
	       "the tolerance with 95 %% confidence (Welch's t, one-sided: unchanged firmware is\n"
	       "called worse at most 5 %% of the time), INCONCLUSIVE when beyond it without (the\n"
	       "line says how many repetitions would resolve it), same within it. Measured once\n"
	       "on each side, the tolerance alone decides and the verdict is marked\n"
	       "single-trial, unconfirmed.\n\n"
	       "Options:\n"
	       "  -t, --tolerance PCT  a throughput or connection figure's change that is\n"
	       "                       the same (default 3%%)\n"
	       "  -l, --latency-tolerance PCT  a latency point's p99 change that is the same\n"
	       "                       (default 10%%)\n"
	       "  -L, --loss-tolerance PCT  a fixed-rate cell whose loss rose by more\n"
	       "                       (percentage points) is worse (default 0.01%%)\n"
	       "  -s, --single-ok      a WORSE of cells measured once on each side exits 7,\n"
	       "                       not 11\n"
	       "  -h, --help           this help\n\n"
	       "Exit 0 when every old cell was weighed and none got worse, 7 when one did, 11\n"
	       "when only cells measured once did (7 with --single-ok), 10 when none did but\n"
	       "one is inconclusive, 12 when none did but an old cell was not compared or is\n"
	       "gone, 2 when a report cannot be read.\n\n"
	       "Example: fwstress compare before.json after.json\n");
}

/* The rows, one line each, and the tally; returns how many are inconclusive, in *single how
 * many of the worse ones were measured once on each side, in *unweighed how many old cells
 * were not weighed (not compared, or gone). */
static unsigned int
compare_rows(const struct fws_cell_cmp *rows, unsigned int n, int worse,
	     const struct fws_cell_tolerance *tol, unsigned int *single, unsigned int *unweighed)
{
	unsigned int i, skipped = 0, unsure = 0, gone = 0;
	char key[200];

	printf("%-52s %16s %16s %9s  %s\n", "cell (scenario/result/direction/stream/size)", "old",
	       "new", "change", "verdict");
	for (i = 0; i < n; i++) {
		fws_cell_key(rows[i].old ? rows[i].old : rows[i].new_, key, sizeof(key));
		printf("%-52s ", key);
		compare_value(rows[i].old);
		compare_value(rows[i].new_);
		if (rows[i].old && rows[i].new_)
			printf("%+8.2f%%  ", rows[i].change * 100);
		else
			printf("%9s  ", "");
		compare_verdict(&rows[i]);
		compare_basis(&rows[i]);
		printf("\n");
		skipped += rows[i].verdict == FWS_CELL_SKIPPED;
		unsure += rows[i].verdict == FWS_CELL_INCONCLUSIVE;
		gone += rows[i].verdict == FWS_CELL_ONLY_OLD;
		*single += rows[i].verdict == FWS_CELL_WORSE && rows[i].single;
	}
	*unweighed = skipped + gone;
	printf("%d of %u cells worse than -%.1f %% (latency: +%.1f %%; loss at a fixed rate: "
	       "+%.3g points)",
	       worse, n, tol->tolerance * 100, tol->latency * 100, tol->loss * 100);
	if (*single)
		printf("; %u of them measured once on each side (unconfirmed)", *single);
	if (skipped)
		printf("; %u not compared (no result, above the link, tester-limited or capped by "
		       "the config)",
		       skipped);
	if (gone)
		printf("; %u gone (in the old report only: not checked)", gone);
	if (unsure)
		printf("; %u inconclusive (the change may be noise: run more repetitions)", unsure);
	printf("\n");
	return unsure;
}

/* compare's options. */
const struct option app_compare_opts[] = {
	{"tolerance", required_argument, NULL, 't'},
	{"latency-tolerance", required_argument, NULL, 'l'},
	{"loss-tolerance", required_argument, NULL, 'L'},
	{"single-ok", no_argument, NULL, 's'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

/* Whether the two reports measured alike (issue 51, item 1): a line for each section of their
 * configs that differs (the first place in it), since a figure that depends on it is not like
 * for like: a cap of 2 Gbit/s against one of 1.84 is no regression. */
static void
compare_configs(const char *old_path, const char *new_path)
{
	static const char *const keys[] = {"streams", "frame_size", "duration",  "warmup",
					   "drain",   "rate_layer", "burst",     "l4",
					   "search",  "sweep",      "seq_window"};
	json_t *o = json_load_file(old_path, 0, NULL), *x = json_load_file(new_path, 0, NULL);
	const json_t *co = json_object_get(o, "config"), *cx = json_object_get(x, "config");
	char at[160], a[96], b[96];
	unsigned int i;

	if (json_object_get(o, "campaign") || json_object_get(x, "campaign"))
		printf("configs: not compared (a campaign report: its scenarios' configs are "
		       "files)\n");
	else if (co == NULL || cx == NULL)
		printf("configs: not compared (%s keeps no config)\n", co ? new_path : old_path);
	for (i = 0; co && cx && i < sizeof(keys) / sizeof(keys[0]); i++)
		if (fws_report_config_diff(
			    co, cx, keys[i], strcmp(keys[i], "sweep") ? NULL : "directions", at,
			    sizeof(at), a, b, sizeof(a))) /* which cells, not their figures */
			printf("WARNING: the configs differ in \"%s\": old %s, new %s (a figure "
			       "that depends on it is not like for like)\n",
			       at, a, b);
	json_decref(o);
	json_decref(x);
}

int
cmd_compare(int argc, char **argv)
{
	struct fws_cells a, b;
	struct fws_cell_cmp *rows;
	struct fws_cell_tolerance tol = {.tolerance = 0.03, .latency = 0.10, .loss = 0.0001};
	unsigned int n, i, unsure, single = 0, unweighed = 0;
	bool single_ok = false;
	char err[600];
	int c, worse;

	optind = 1;
	while ((c = app_getopt("compare", argc, argv, "t:l:L:sh", app_compare_opts)) != -1) {
		switch (c) {
		case 't':
		case 'l':
		case 'L':
			if (percent_arg(c == 't'   ? "--tolerance"
					: c == 'l' ? "--latency-tolerance"
						   : "--loss-tolerance",
					optarg,
					c == 't'   ? &tol.tolerance
					: c == 'l' ? &tol.latency
						   : &tol.loss) < 0)
				return EXIT_USAGE;
			break;
		case 's':
			single_ok = true;
			break;
		case 'h':
			usage_compare();
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "fwstress: compare: give OLD.json and NEW.json\n");
		return EXIT_USAGE;
	}
	if (load_one(argv[optind], &a, err, sizeof(err)) < 0) {
		fprintf(stderr, "fwstress: compare: %s\n", err);
		return fws_err_exit_code(FWS_ERR_CONFIG);
	}
	if (load_one(argv[optind + 1], &b, err, sizeof(err)) < 0) {
		fprintf(stderr, "fwstress: compare: %s\n", err);
		fws_cells_free(&a);
		return fws_err_exit_code(FWS_ERR_CONFIG);
	}
	worse = fws_cell_compare(&a, &b, &tol, &rows, &n);
	if (worse < 0) {
		fws_cells_free(&a);
		fws_cells_free(&b);
		return fws_err_exit_code(FWS_ERR_FAULT);
	}
	for (i = 0; i < n && (!rows[i].old || !rows[i].new_); i++)
		;
	if (i == n) {
		/* Nothing to compare is not "nothing got worse". */
		fprintf(stderr,
			"fwstress: compare: no cell of %s lines up with one of %s (same scenario, "
			"result, direction, stream and frame size)\n",
			argv[optind], argv[optind + 1]);
		free(rows);
		fws_cells_free(&a);
		fws_cells_free(&b);
		return fws_err_exit_code(FWS_ERR_CONFIG);
	}
	compare_side("old", argv[optind], &a);
	compare_side("new", argv[optind + 1], &b);
	compare_configs(argv[optind], argv[optind + 1]);
	unsure = compare_rows(rows, n, worse, &tol, &single, &unweighed);
	free(rows);
	fws_cells_free(&a);
	fws_cells_free(&b);
	if (worse && (single_ok || (unsigned int)worse > single))
		return EXIT_WORSE;
	return worse       ? EXIT_WORSE_SINGLE
	       : unsure    ? EXIT_INCONCLUSIVE
	       : unweighed ? EXIT_INCOMPLETE
			   : EXIT_OK;
}
