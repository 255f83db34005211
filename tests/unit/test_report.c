/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reports from a run built by hand (no EAL): which trials become cells and with which
 * figures, the cell schema read back equal to what was written, carried cells, the text
 * report, and atomic writes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "fws_cell.h"
#include "fd_dutload.h"
#include "fd_links.h"
#include "fws_config.h"
#include "fws_feat.h"
#include "fws_hist.h"
#include "fws_report.h"
#include "unit.h"

static const char cfg_json[] = "{\"ports\": [{\"name\": \"lan\", \"device\": \"ringpair:r:a\"},"
			       " {\"name\": \"wan\", \"device\": \"ringpair:r:b\"}],"
			       " \"direction\": \"upload\", \"scenario\": \"firewall\","
			       " \"frame_size\": [64, 1518]}";

struct fixture {
	struct fws_cfg *cfg;
	struct fws_run run;
	struct fws_result res[4];
	struct fws_cell_bucket hist[2]; /**< a result keeps its histogram's non-empty buckets */
	char path[64];
};

static void
stream(struct fws_result *r, const char *name, double tx_pps, double rx_pps,
       struct fws_cell_bucket *h)
{
	struct fws_stream_result *x = &r->streams[r->n_streams++];

	strcpy(x->name, name);
	strcpy(x->tx_port, "lan");
	strcpy(x->rx_port, "wan");
	x->dir = FWS_DIR_UPLOAD;
	x->active = true;
	x->tx_pps = tx_pps;
	x->rx_pps = rx_pps;
	x->tx_l1_bps = tx_pps * 84 * 8;
	x->rx_l1_bps = rx_pps * 84 * 8;
	x->tx_l2_bps = tx_pps * 64 * 8;
	x->rx_l2_bps = rx_pps * 64 * 8;
	x->loss_pct = 100 * (1 - rx_pps / tx_pps);
	x->lat.p50 = 12000;
	x->lat.p99 = 25000;
	x->hist = h;
	x->n_hist = h ? 2 : 0;
}

/* A run of four results: a fixed-rate trial, an NDR goal, a partial trial, a burst. */
static void
fixture_init(struct fixture *fx)
{
	struct fws_fd_dutload *dut;
	char err[256];
	unsigned int i;

	memset(fx, 0, sizeof(*fx));
	fx->cfg = fws_config_parse(cfg_json, strlen(cfg_json), err, sizeof(err));
	ck_assert_msg(fx->cfg != NULL, "%s", err);
	fx->hist[0] = (struct fws_cell_bucket){fws_hist_bucket_lo(fws_hist_index(12000)),
					       fws_hist_bucket_width(fws_hist_index(12000)), 2};
	fx->hist[1] = (struct fws_cell_bucket){fws_hist_bucket_lo(fws_hist_index(25000)),
					       fws_hist_bucket_width(fws_hist_index(25000)), 1};
	fx->run.cfg = fx->cfg;
	fx->run.status = FWS_RUN_COMPLETED;
	fx->run.n_ports = 2;
	strcpy(fx->run.ports[0].name, "lan");
	strcpy(fx->run.ports[1].name, "wan");
	fx->run.ports[0].link_speed_mbps = 1000;
	for (i = 0; i < 4; i++) {
		struct fws_result *r = &fx->res[i];

		r->size = fx->cfg->sizes[0];
		r->avg_frame = 64;
		r->n_ports = 2;
		ck_assert_int_eq(fws_feat_layout(&r->fd), 0); /* the features' blocks, as a trial */
		strcpy(r->ports[0].name, "lan");
		strcpy(r->ports[1].name, "wan");
		stream(r, "upload", 1e6, i == 0 ? 9e5 : 1e6, i == 1 ? fx->hist : NULL);
	}
	fx->res[1].kind = FWS_RESULT_NDR;
	dut = fws_fd_trial_result(&fx->res[1].fd, &fws_fd_dutload, fx->res[1].fd_trial);
	dut->probed = true;
	dut->v.ok = true;
	dut->v.cpu = 42.5;
	fx->res[2].partial = true;
	fx->res[3].kind = FWS_RESULT_B2B;
	fx->run.results = fx->res;
	fx->run.n_results = fx->run.cap_results = 4;
	snprintf(fx->path, sizeof(fx->path), "/tmp/fws-test-report-%d.json", (int)getpid());
}

static void
fixture_fini(struct fixture *fx)
{
	unlink(fx->path);
	fws_config_free(fx->cfg);
}

static const json_t *
cell_at(const json_t *root, size_t i)
{
	return json_array_get(json_object_get(root, "cells"), i);
}

static double
num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

START_TEST(test_report_cells)
{
	struct fixture fx;
	json_t *root;
	const json_t *c;

	fixture_init(&fx);
	root = fws_report_json(&fx.run);
	/* The partial trial and the burst give no cell. */
	ck_assert_uint_eq(json_array_size(json_object_get(root, "cells")), 2);
	ck_assert_uint_eq(json_array_size(json_object_get(root, "trials")), 4);
	c = cell_at(root, 0);
	ck_assert_str_eq(json_string_value(json_object_get(c, "kind")), "run");
	ck_assert_str_eq(json_string_value(json_object_get(c, "scenario")), "firewall");
	ck_assert_str_eq(json_string_value(json_object_get(c, "direction")), "upload");
	/* A fixed-rate trial's throughput is what arrived; a goal's is what was offered. */
	ck_assert_double_eq(num(c, "pps"), 9e5);
	ck_assert_double_eq_tol(num(c, "loss_pct"), 10, 1e-9);
	ck_assert(json_is_null(json_object_get(c, "dut_cpu_pct")));
	/* 1 Gbit/s at 64 bytes: 1488095 frames per second. */
	ck_assert_double_eq_tol(num(c, "line_pps"), 1e9 / (84 * 8), 1e-6);
	c = cell_at(root, 1);
	ck_assert_str_eq(json_string_value(json_object_get(c, "kind")), "ndr");
	ck_assert_double_eq(num(c, "pps"), 1e6);
	ck_assert_double_eq(num(c, "dut_cpu_pct"), 42.5);
	ck_assert_double_eq(num(c, "latency_p99_ns"), 25000);
	ck_assert_uint_eq(json_array_size(json_object_get(c, "latency_histogram")), 2);
	ck_assert_str_eq(
		json_string_value(json_object_get(
			json_array_get(json_object_get(root, "trials"), 1), "search_goal")),
		"ndr");
	json_decref(root);
	fixture_fini(&fx);
}
END_TEST

/* What the report writes, the cell reader reads back: every field of the schema. */
START_TEST(test_report_cells_round_trip)
{
	struct fixture fx;
	struct fws_cells cells, again;
	char err[256];
	json_t *root;
	FILE *f;

	fixture_init(&fx);
	ck_assert_int_eq(fws_report_write_json(fx.path, &fx.run), 0);
	ck_assert_int_eq(fws_report_load_cells(fx.path, &cells, err, sizeof(err)), 0);
	ck_assert_uint_eq(cells.n, 2);
	ck_assert_str_eq(cells.c[1].kind, "ndr");
	ck_assert_str_eq(cells.c[1].size, "64");
	ck_assert_double_eq(cells.c[1].pps, 1e6);
	ck_assert_double_eq(cells.c[1].dut_cpu, 42.5);
	ck_assert_double_lt(cells.c[0].dut_cpu, 0);
	ck_assert_uint_eq(cells.c[1].n_hist, 2);
	ck_assert_uint_eq(cells.c[1].hist[0].count + cells.c[1].hist[1].count, 3);

	/* Carried into a run with no trials of its own (sweep --resume): the same cells. */
	fx.run.n_results = 0;
	fx.run.carried = &cells;
	root = fws_report_json(&fx.run);
	ck_assert_uint_eq(json_array_size(json_object_get(root, "cells")), 2);
	ck_assert(json_is_true(json_object_get(cell_at(root, 1), "carried")));
	f = fopen(fx.path, "w");
	ck_assert_ptr_nonnull(f);
	json_dumpf(root, f, 0);
	fclose(f);
	json_decref(root);
	ck_assert_int_eq(fws_report_load_cells(fx.path, &again, err, sizeof(err)), 0);
	ck_assert_uint_eq(again.n, 2);
#define SAME_STR(m, key, req) ck_assert_str_eq(again.c[1].m, cells.c[1].m);
#define SAME_NUM(m, key, dflt, lo, hi) ck_assert_double_eq(again.c[1].m, cells.c[1].m);
	FWS_CELL_STRINGS(SAME_STR)
	FWS_CELL_NUMBERS(SAME_NUM)
#undef SAME_STR
#undef SAME_NUM
	ck_assert_uint_eq(again.c[1].n_hist, cells.c[1].n_hist);
	fws_cells_free(&again);
	fws_cells_free(&cells);
	fixture_fini(&fx);
}
END_TEST

START_TEST(test_report_text)
{
	struct fixture fx;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fixture_init(&fx);
	fws_report_text(f, &fx.run);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "Trial 2, search result ndr: frame size 64"));
	ck_assert_ptr_nonnull(strstr(buf, "PARTIAL"));
	ck_assert_ptr_nonnull(strstr(buf, "DUT load: 42.5 % CPU"));
	free(buf);
	fixture_fini(&fx);
}
END_TEST

/* Senders that stalled: one line for the trial naming them, the furthest behind, not the same
 * line per stream (issue 51, item 9). */
START_TEST(test_report_stalled_once)
{
	struct fixture fx;
	char *buf = NULL, *p;
	size_t len = 0;
	FILE *f;
	unsigned int k;

	fixture_init(&fx);
	stream(&fx.res[0], "download", 1e6, 1e6, NULL);
	for (k = 0; k < 2; k++) {
		fx.res[0].streams[k].req_pps = 1e6;
		fx.res[0].streams[k].tx_behind = k ? 5000 : 2000;
	}
	f = open_memstream(&buf, &len);
	fws_report_text(f, &fx.run);
	fclose(f);
	ck_assert_ptr_nonnull(
		p = strstr(buf, "note: GENERATOR STALLED (upload, download): fell behind the "
				"schedule by up to 5000 frames (5.0 ms at the rate asked)"));
	ck_assert_ptr_null(strstr(p + strlen("note: GENERATOR STALLED"), "GENERATOR STALLED"));
	free(buf);
	fixture_fini(&fx);
}
END_TEST

/* A report that cannot be written says why and leaves nothing half-written behind. */
/* Links seen down: listed in JSON (null up for one still down) and in the text report. */
START_TEST(test_report_link_events)
{
	struct fws_link_events *lk;
	struct fixture fx;
	const json_t *ev;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	json_t *root;

	fixture_init(&fx);
	lk = fws_fd_trial_result(&fx.res[0].fd, &fws_fd_links, fx.res[0].fd_trial);
	ck_assert_ptr_nonnull(lk);
	lk->n = 2;
	lk->ev[0] = (struct fws_link_event){"wan", 1.5, 2.75, 1234};
	lk->ev[1] = (struct fws_link_event){"lan", 4.0, -1, 99};
	lk->dropped = 3;
	ck_assert_int_eq(fws_report_write_json(fx.path, &fx.run), 0);
	root = json_load_file(fx.path, 0, NULL);
	ck_assert_ptr_nonnull(root);
	ev = json_object_get(json_array_get(json_object_get(root, "trials"), 0), "link_events");
	ck_assert_int_eq(json_array_size(ev), 2);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(ev, 0), "port")), "wan");
	ck_assert_double_eq_tol(num(json_array_get(ev, 0), "down_for_s"), 1.25, 1e-9);
	ck_assert_int_eq(num(json_array_get(ev, 0), "frames_sent_while_down"), 1234);
	ck_assert(json_is_null(json_object_get(json_array_get(ev, 1), "up_s")));
	ck_assert_int_eq(
		num(json_array_get(json_object_get(root, "trials"), 0), "link_events_dropped"), 3);
	ck_assert_int_eq(
		json_array_size(json_object_get(json_array_get(json_object_get(root, "trials"), 1),
						"link_events")),
		0);
	json_decref(root);
	f = open_memstream(&buf, &len);
	fws_report_text(f, &fx.run);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "LINK DOWN: port wan at 1.500 s into the trial, up again "
					  "after 1.250 s; 1234 test frames"));
	ck_assert_ptr_nonnull(strstr(buf, "LINK DOWN: port lan at 4.000 s into the trial, still "
					  "down at the end; 99 test frames"));
	ck_assert_ptr_nonnull(strstr(buf, "LINK DOWN: 3 more times"));
	free(buf);
	fixture_fini(&fx);
}
END_TEST

START_TEST(test_report_write_fails_cleanly)
{
	struct fixture fx;

	fixture_init(&fx);
	ck_assert_int_eq(fws_report_write_json("/nonexistent-dir/r.json", &fx.run), -ENOENT);
	ck_assert_int_eq(fws_report_write_text(fx.path, &fx.run), 0);
	ck_assert_int_eq(access(fx.path, R_OK), 0);
	fixture_fini(&fx);
}
END_TEST

/* Found by fuzz_cells: a cell that is not an object, in a report read from a buffer. */
START_TEST(test_report_cells_not_object)
{
	static const char js[] = "{\"schema\": \"fwstress-report/1\", \"cells\": [0]}";
	struct fws_cells cells;
	char err[600];

	ck_assert_int_eq(fws_report_parse_cells(js, strlen(js), "r.json", &cells, err, sizeof(err)),
			 -EINVAL);
	ck_assert_str_eq(err,
			 "report: r.json: cells[0]: expected an object, got an integer (line 1)");
}
END_TEST

/* A report another lab sent, its strings hostile (issue 53, item 1): the DUT's name and
 * firmware, the tool's version reach the terminal (report, compare) as \xNN, never raw. */
START_TEST(test_report_cells_hostile_strings)
{
	static const char js[] =
		"{\"schema\": \"fwstress-report/1\", \"tool\": {\"name\": \"fwstress\", "
		"\"version\": "
		"\"0.1\\u001b[2J\"}, \"config\": {\"dut\": {\"name\": "
		"\"fw\\u001b]0;t\\u0007\\nWORSE 99 %\", "
		"\"firmware\": \"24.7\\r\"}}, \"status\": \"completed\\u001b[31m\", \"cells\": []}";
	struct fws_cells cells;
	char err[600];

	memset(&cells, 0, sizeof(cells));
	ck_assert_int_eq(fws_report_parse_cells(js, strlen(js), "r.json", &cells, err, sizeof(err)),
			 0);
	ck_assert_str_eq(cells.dut, "fw\\x1b]0;t\\x07\\x0aWORSE 99 %");
	ck_assert_str_eq(cells.firmware, "24.7\\x0d");
	ck_assert_str_eq(cells.tool, "fwstress 0.1\\x1b[2J");
	ck_assert_str_eq(cells.status, "completed\\x1b[31m");
	fws_cells_free(&cells);
}
END_TEST

/* Reports edited by hand (issue 53, item 2): each refused in one line naming what. */
#define CELL(rep, hist)                                                                            \
	"{\"scenario\": \"routing\", \"kind\": \"run\", \"direction\": \"upload\", \"stream\": "   \
	"\"up\", \"frame_size\": \"64\", \"pps\": 1000" rep hist "}"
static const struct {
	const char *js;
	const char *err;
} edited[] = {
	{"{\"schema\": \"fwstress-report/1\", \"cells\": [" CELL(
		 ", \"repetition\": 1", "") ", " CELL(", \"repetition\": 2",
						      "") ", " CELL(", \"repetition\": 1", "") "]}",
	 "report: r.json: cells[2]: the same cell as cells[0] (routing/run/upload/up/64, "
	 "repetition 1): a report edited or merged by hand?"},
	{"{\"schema\": \"fwstress-report/1\", \"cells\": [" CELL("", "") ", " CELL("", "") "]}",
	 "report: r.json: cells[1]: the same cell as cells[0] (routing/run/upload/up/64, "
	 "repetition 1): a report edited or merged by hand?"},
	{"{\"schema\": \"fwstress-report/1\", \"sweep_done\": [{\"direction\": \"upload\", "
	 "\"frame_size\": \"64\"}, {\"direction\": \"download\", \"frame_size\": \"64\"}], "
	 "\"cells\": [" CELL("", "") "]}",
	 "report: r.json: sweep_done: download 64 is done, but no cell of it is in the report: a "
	 "report edited by hand?"},
	{"{\"schema\": \"fwstress-report/1\", \"sweep_done\": [{\"direction\": \"\", "
	 "\"frame_size\": \"64\", \"repetition\": 3}], \"cells\": [" CELL(", \"repetition\": 1",
									  "") "]}",
	 "report: r.json: sweep_done:  64, repetition 3 is done, but no cell of it is in the "
	 "report: a report edited by hand?"},
	{"{\"schema\": \"fwstress-report/1\", \"cells\": [" CELL(
		 "", ", \"latency_histogram\": [[1000, 0, 5]]") "]}",
	 "report: r.json: cells[0].latency_histogram[0]: a bucket [1000, 0, ...]: its width is "
	 "outside 1..1100000000000 ns or its start beyond 1125899906842624 ns (not a histogram "
	 "fwstress writes) (line 1)"},
	{"{\"schema\": \"fwstress-report/1\", \"cells\": [" CELL(
		 "", ", \"latency_histogram\": [[0, 4611686018427387904, 5]]") "]}",
	 "report: r.json: cells[0].latency_histogram[0]: a bucket [0, 4611686018427387904, ...]: "
	 "its width is outside 1..1100000000000 ns or its start beyond 1125899906842624 ns (not a "
	 "histogram fwstress writes) (line 1)"},
};

START_TEST(test_report_cells_edited_by_hand)
{
	struct fws_cells cells;
	char err[600];

	for (size_t i = 0; i < sizeof(edited) / sizeof(edited[0]); i++) {
		ck_assert_int_eq(fws_report_parse_cells(edited[i].js, strlen(edited[i].js),
							"r.json", &cells, err, sizeof(err)),
				 -EINVAL);
		ck_assert_msg(strcmp(err, edited[i].err) == 0, "case %zu: %s", i, err);
	}
	/* The same cells, told apart by repetition or by done entries that have them: read. */
	static const char good[] =
		"{\"schema\": \"fwstress-report/1\", \"sweep_done\": [{\"direction\": \"upload\", "
		"\"frame_size\": \"64\"}], \"cells\": [" CELL(", \"repetition\": 1", "") ", " CELL(
			", \"repetition\": 2", ", \"latency_histogram\": [[1000, 8, 5]]") "]}";
	ck_assert_int_eq(
		fws_report_parse_cells(good, strlen(good), "r.json", &cells, err, sizeof(err)), 0);
	ck_assert_uint_eq(cells.n, 2);
	fws_cells_free(&cells);
}
END_TEST

static Suite *
suite_report(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("report");

	tcase_add_test(tc, test_report_cells);
	tcase_add_test(tc, test_report_cells_round_trip);
	tcase_add_test(tc, test_report_cells_not_object);
	tcase_add_test(tc, test_report_cells_hostile_strings);
	tcase_add_test(tc, test_report_cells_edited_by_hand);
	tcase_add_test(tc, test_report_text);
	tcase_add_test(tc, test_report_stalled_once);
	tcase_add_test(tc, test_report_link_events);
	tcase_add_test(tc, test_report_write_fails_cleanly);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_report)
