/* SPDX-License-Identifier: BSD-3-Clause */
/* fwstress report and fwstress compare: reports read back, rendered, lined up. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fws_app.h"
#include "fws_cell.h"
#include "fws_err.h"
#include "fws_matrix.h"
#include "fws_report.h"

/* Read every report named; prints the error. Returns how many, or -1. */
static int
load_sets(char **paths, int n, struct fws_cells *sets)
{
	char err[600];
	int i;

	for (i = 0; i < n; i++) {
		if (fws_report_load_cells(paths[i], &sets[i], err, sizeof(err)) < 0) {
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
	printf("Usage: fwstress report [--format md|wiki|csv|html] [-o OUT] REPORT.json "
	       "[REPORT.json ...]\n\nRenders the cells of run, search, sweep or campaign reports "
	       "as a qualification matrix (rows: scenario, frame size, result; columns: "
	       "throughput and DUT load per direction). Several reports, one per appliance, "
	       "are laid side by side: a column group per appliance (DUT name, firmware, "
	       "date). Notes are derived from the measurements. html is one self-contained "
	       "page with SVG charts: throughput against frame size in Mpps and Mbit/s with "
	       "the theoretical line rate per port speed, the appliances' grouped bars, and "
	       "latency histograms.\n");
}

int
cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *out = NULL;
	struct fws_cells *sets;
	int fmt = FWS_MATRIX_MARKDOWN, c, rc, n, i;
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
			report_usage();
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	n = argc - optind;
	if (n < 1) {
		fprintf(stderr, "fwstress: report: give one or more report files\n");
		return EXIT_USAGE;
	}
	sets = calloc((size_t)n, sizeof(*sets));
	if (sets == NULL)
		return fws_err_exit_code(FWS_ERR_FAULT);
	if (load_sets(argv + optind, n, sets) < 0) {
		free(sets);
		return fws_err_exit_code(FWS_ERR_CONFIG);
	}
	if (out && (f = fopen(out, "w")) == NULL) {
		fprintf(stderr, "fwstress: report: %s: %s\n", out, strerror(errno));
		rc = -EIO;
	} else {
		rc = fws_matrix_render(f, sets, (unsigned int)n, (enum fws_matrix_format)fmt);
		if (rc < 0)
			fprintf(stderr, "fwstress: report: %s: %s\n", out ? out : "standard output",
				strerror(-rc));
		else if (app_out_close(f, "report", out ? out : "standard output", 0) < 0)
			rc = -EIO;
	}
	for (i = 0; i < n; i++)
		fws_cells_free(&sets[i]);
	free(sets);
	return rc < 0 ? EXIT_OUTPUT : EXIT_OK;
}

static const char *const verdict_names[] = {"same", "BETTER", "WORSE", "gone", "new"};

/* A cell's throughput in Mpps (a connection test's: its figure, with "c" after it); ">="
 * marks a generator-limited lower bound. */
static void
compare_value(const struct fws_cell *c)
{
	bool conn = c && fws_cell_is_conn(c->kind);

	if (c == NULL)
		printf("%14s ", "-");
	else
		printf("%s%*.*f%s ", c->generator_limited ? ">=" : "",
		       (c->generator_limited ? 12 : 14) - conn, conn ? 0 : 4,
		       fws_cell_figure(c) / (conn ? 1 : 1e6), conn ? "c" : "");
}

int
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
	unsigned int n, i, bounds = 0;
	char err[600], key[200], *end;
	int c, worse;

	optind = 1;
	while ((c = getopt_long(argc, argv, "t:h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			tol = strtod(optarg, &end) / 100;
			if (end == optarg || strcmp(end, "%") != 0 || !(tol >= 0 && tol < 1)) {
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
			       "or stayed (throughput in Mpps; a connection test's cell by its "
			       "figure, marked c). Exit 0 when none got worse by more than the "
			       "tolerance, "
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
	if (fws_report_load_cells(argv[optind], &a, err, sizeof(err)) < 0) {
		fprintf(stderr, "fwstress: compare: %s\n", err);
		return fws_err_exit_code(FWS_ERR_CONFIG);
	}
	if (fws_report_load_cells(argv[optind + 1], &b, err, sizeof(err)) < 0) {
		fprintf(stderr, "fwstress: compare: %s\n", err);
		fws_cells_free(&a);
		return fws_err_exit_code(FWS_ERR_CONFIG);
	}
	worse = fws_cell_compare(&a, &b, tol, &rows, &n);
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
	printf("%-52s %14s %14s %9s  %s\n", "cell (scenario/result/direction/stream/size)",
	       "old Mpps", "new Mpps", "change", "verdict");
	for (i = 0; i < n; i++) {
		const struct fws_cell *k = rows[i].old ? rows[i].old : rows[i].new_;
		bool bound = (rows[i].old && rows[i].old->generator_limited) ||
			     (rows[i].new_ && rows[i].new_->generator_limited);

		fws_cell_key(k, key, sizeof(key));
		printf("%-52s ", key);
		compare_value(rows[i].old);
		compare_value(rows[i].new_);
		if (rows[i].old && rows[i].new_)
			printf("%+8.2f%%  ", rows[i].change * 100);
		else
			printf("%9s  ", "");
		printf("%s%s\n", verdict_names[rows[i].verdict],
		       bound ? " (generator-limited: a lower bound, not the DUT's figure)" : "");
		bounds += bound;
	}
	printf("%d of %u cells worse than -%.1f %%", worse, n, tol * 100);
	if (bounds)
		printf("; %u involve generator-limited lower bounds", bounds);
	printf("\n");
	free(rows);
	fws_cells_free(&a);
	fws_cells_free(&b);
	return worse ? EXIT_WORSE : EXIT_OK;
}
