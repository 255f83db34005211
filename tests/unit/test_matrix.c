/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Matrix renderers over hand-made cells: rows and columns, summed throughput per direction,
 * the line-rate note, CSV quoting, HTML escaping of what a report file says, and cells that
 * do not fit the table counted rather than dropped silently.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fws_cell.h"
#include "fws_matrix.h"
#include "unit.h"

static struct fws_cell
cell(const char *scenario, const char *kind, const char *dir, const char *stream, double pps)
{
	struct fws_cell c;

	memset(&c, 0, sizeof(c));
	strcpy(c.scenario, scenario);
	strcpy(c.kind, kind);
	strcpy(c.direction, dir);
	strcpy(c.stream, stream);
	strcpy(c.size, "64");
	c.avg_frame = 64;
	c.pps = pps;
	c.l1_bps = pps * 84 * 8;
	c.goodput_bps = fws_goodput_derived(c.l1_bps); /* as the report reader derives it */
	c.l2_bps = pps * 64 * 8;
	c.line_pps = 1488095.2;
	c.dut_cpu = -1;
	c.attack_frames = c.attack_leaked = c.blocked_leaked = -1; /* as read: no such stream */
	c.connections = c.conn_failed = c.flood_pps = c.flood_passed = -1;
	c.unsteady = c.worst_second = -1; /* as read: no full second measured */
	c.dut_core = c.dut_states = c.dut_drops = -1;
	return c;
}

/* (not inlined: GCC 12 then takes the memstream's buffer for the local that names it) */
static __attribute__((noinline)) char *
render_n(const struct fws_cells *sets, unsigned int n, enum fws_matrix_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	/* The columns these cases were written for; loss and latency are then notes. The
	 * default set is test_matrix_columns's. */
	ck_assert_int_eq(fws_matrix_render_columns(f, sets, n, fmt, "l1,mpps,iperf,cpu"), 0);
	fclose(f);
	return buf;
}

static char *
render(const struct fws_cells *cells, enum fws_matrix_format fmt)
{
	return render_n(cells, 1, fmt);
}

/* Where what first stands in s; -1: nowhere. */
static long
place(const char *s, const char *what)
{
	const char *p = strstr(s, what);

	return p ? (long)(p - s) : -1;
}

static unsigned int
count(const char *s, const char *what)
{
	unsigned int n = 0;

	for (; (s = strstr(s, what)) != NULL; s += strlen(what))
		n++;
	return n;
}

START_TEST(test_matrix_formats)
{
	ck_assert_int_eq(fws_matrix_format("md"), FWS_MATRIX_MARKDOWN);
	ck_assert_int_eq(fws_matrix_format("mediawiki"), FWS_MATRIX_MEDIAWIKI);
	ck_assert_int_eq(fws_matrix_format("csv"), FWS_MATRIX_CSV);
	ck_assert_int_eq(fws_matrix_format("html"), FWS_MATRIX_HTML);
	ck_assert_int_eq(fws_matrix_format("pdf"), -EINVAL);
}
END_TEST

/* Two streams of one direction add up in one row; the line-rate note comes from the sum. */
START_TEST(test_matrix_markdown)
{
	struct fws_cell c[] = {cell("firewall", "ndr", "upload", "upload", 700000),
			       cell("firewall", "ndr", "upload", "upload6", 790000),
			       cell("firewall", "ndr", "download", "download", 500000),
			       cell("firewall", "run", "upload", "upload", 100000)};
	struct fws_cells cells = {.n = 4, .c = c};
	char *md;

	c[1].line_pps = 0; /* its port's speed unknown: the row's line rate is the first's */
	c[2].dut_cpu = 97;
	md = render(&cells, FWS_MATRIX_MARKDOWN);
	ck_assert_ptr_nonnull(strstr(md, "| Scenario | Frame size | Result | upload Mbit/s (L1) | "
					 "upload Mpps | upload iperf Mbit/s* | upload DUT CPU | "
					 "download Mbit/s (L1)"));
	/* iperf goodput derived from L1 only for MTU-size frames: "-" at 64 bytes (issue 51, item 4) */
	/* Two upload streams in one column: summed, and the note says so (issue 51, item 8). */
	ck_assert_ptr_nonnull(strstr(md, "| firewall | 64 | NDR (0 loss) | 1001.3 | 1.4900 | - | "
					 "- | 336.0 | 0.5000 | - | 97 % | upload: 2 streams summed "
					 "(upload, upload6); loss and latency the worst stream's, "
					 "line rate reached; download: DUT CPU above 95 % |"));
	ck_assert_ptr_nonnull(
		strstr(md, "| firewall | 64 | fixed rate | 67.2 | 0.1000 | - | - | | | | | upload: "
			   "loss 0 % |"));
	ck_assert_ptr_nonnull(strstr(md, "\n* iperf Mbit/s: the TCP goodput iperf reports at MTU "
					 "1500 for that L1 rate, derived (not measured): L1 x "
					 "1448 / 1538"));
	ck_assert_uint_eq(count(md, "\n"), 8); /* caption, blank, head, rule, 2 rows, blank, note */
	ck_assert_ptr_nonnull(
		strstr(md, "Appliance: report 1 (firmware not given, date not given)."));
	free(md);
	md = render(&cells, FWS_MATRIX_MEDIAWIKI);
	ck_assert_ptr_nonnull(strstr(md, "{| class=\"wikitable\"\n"));
	ck_assert_uint_eq(count(md, "|-\n"), 2);
	ck_assert_ptr_nonnull(strstr(md, "|}\n"));
	free(md);
}
END_TEST

/* Connection tests' cells: their own table, none in the throughput table. */
START_TEST(test_matrix_connections)
{
	struct fws_cell c[] = {cell("firewall", "ndr", "upload", "upload", 1000),
			       cell("firewall", "sessions", "upload", "upload", 0),
			       cell("firewall", "cps", "upload", "upload", 0)};
	struct fws_cells cells = {.dut = "box", .n = 3, .c = c};
	char *md;

	strcpy(c[1].size, "64 B each way");
	strcpy(c[2].size, "64 B each way");
	c[1].connections = 20000;
	c[1].conn_failed = 4000;
	c[2].connections = 1756;
	c[2].conn_failed = 0;
	c[2].generator_limited = 1;
	md = render(&cells, FWS_MATRIX_MARKDOWN);
	ck_assert_ptr_nonnull(strstr(md, "\nConnections (fwstress connections):\n\n"
					 "| Scenario | Data | Test | upload | failed |\n"));
	ck_assert_ptr_nonnull(strstr(
		md, "| firewall | 64 B each way | concurrent connections held | 20000 | 4000 |\n"));
	ck_assert_ptr_nonnull(strstr(md, "| firewall | 64 B each way | connections/s, none "
					 "impaired (NDR) | >= 1756 | 0 |\n"));
	ck_assert_ptr_null(
		strstr(md, "| firewall | 64 B each way | concurrent connections held | 0."));
	ck_assert_uint_eq(count(md, "| firewall | 64 |"), 1); /* the throughput row only */
	free(md);
	md = render(&cells, FWS_MATRIX_HTML);
	ck_assert_ptr_nonnull(strstr(md, "<h2>Connections</h2>"));
	ck_assert_ptr_nonnull(
		strstr(md, "<td>concurrent connections held</td><td>20000</td><td>4000</td>"));
	free(md);
}
END_TEST

START_TEST(test_matrix_csv)
{
	struct fws_cell c[] = {cell("fw, nat", "ndr", "upload", "up\"1\"", 1000),
			       cell("routing", "pdr", "upload", "upload", 2000)};
	struct fws_cells cells = {.dut = "opn \"a\"", .firmware = "24.7, b", .n = 2, .c = c};
	char *csv;

	c[1].dut_cpu = 12.5;
	csv = render(&cells, FWS_MATRIX_CSV);
	ck_assert_ptr_nonnull(strstr(
		csv,
		"dut,firmware,started,partial,scenario,kind,direction,stream,frame_size,"
		"stream_direction,verdict,avg_frame,pps,l1_bps,l2_bps,goodput_derived_bps,"
		"loss_pct,latency_p50_ns,latency_p99_ns,line_pps,dut_cpu_pct,generator_limited,"
		"attack_frames,attack_leaked,blocked_leaked,goodput_measured,connections,"
		"connections_failed,syn_flood_pps,syn_flood_passed,above_link,receiver_missed,"
		"unsteady,worst_second_pct,dut_busiest_core_pct,dut_states,dut_drops,"
		"capped_by_config,repetitions,"
		"values,"
		"median,min,max,mean,ci95,cov_pct,p1,"
		"p99,"
		"latency_p50_cov_pct,b2b_frames_avg,b2b_frames_min,b2b_frames_max,"
		"b2b_frames_tried,below_rfc\n"));
	ck_assert_ptr_nonnull(strstr(csv,
				     "\n\"opn \"\"a\"\"\",\"24.7, b\",,0,\"fw, nat\",ndr,upload,"
				     "\"up\"\"1\"\"\",64,,,64,1000,672000,512000,632676.2029,0,"
				     "0,0,1488095.2,,0,,,,0,,,,,0,0,,,,,,0,1,,,,,,,,,,,,,,,\n"));
	ck_assert_ptr_nonnull(strstr(csv, ",12.5,0,,,,0,,,,,0,0,,,,,,0,1,,,,,,,,,,,,,,,\n"));
	ck_assert_uint_eq(count(csv, "\n"), 3);
	free(csv);
	/* A back-to-back result: a row of kind b2b, its bursts in frames (issue 51, item 5). */
	{
		struct fws_cell_b2b b = {.scenario = "routing",
					 .size = "64",
					 .direction = "upload",
					 .avg = 1500,
					 .min = 1000,
					 .max = 2000,
					 .max_frames = 2000,
					 .trials = 3};

		cells.b2b = &b;
		cells.n_b2b = 1;
		strcpy(cells.below_rfc, "back-to-back: 3 repetitions");
		csv = render(&cells, FWS_MATRIX_CSV);
		ck_assert_ptr_nonnull(strstr(csv,
					     "\n\"opn \"\"a\"\"\",\"24.7, b\",,0,routing,b2b,"
					     "upload,,64,,,,,,,,,,,,,0,,,,,,,,,,,,,,,,0,3,,,,,,,,,,"
					     ",1500,1000,2000,2000,back-to-back: 3 repetitions\n"));
		ck_assert_uint_eq(count(csv, "\n"), 4);
		free(csv);
		cells.n_b2b = 0;
	}
}
END_TEST

/* A generator-limited search result is shown as a lower bound, with the reason. */
START_TEST(test_matrix_lower_bound)
{
	struct fws_cell c[] = {cell("routing", "ndr", "upload", "upload", 1000000),
			       cell("routing", "ndr", "download", "download", 500000)};
	struct fws_cells cells = {.n = 2, .c = c};
	char *md;

	c[0].generator_limited = 1;
	md = render(&cells, FWS_MATRIX_MARKDOWN);
	ck_assert_ptr_nonnull(strstr(md, "| >= 672.0 | >= 1.0000 | - | - | 336.0 | "
					 "0.5000 | - | - | upload: generator-limited, a lower "
					 "bound (no trial lost frames) |"));
	free(md);
	md = render(&cells, FWS_MATRIX_HTML);
	ck_assert_ptr_nonnull(strstr(md, "&ge; 1.0000 <small>Mpps</small>"));
	/* The note under the table, the cell its number; the charts' point an arrow up. */
	ck_assert_ptr_nonnull(strstr(md, "<li id=\"note-1\">generator-limited, a lower bound"));
	ck_assert_uint_eq(count(md, "<a href=\"#note-1\">1</a>"), 1);
	ck_assert_uint_eq(count(md, "data-lower=\"1\""), 2);
	ck_assert_uint_eq(count(md, "class=\"lower\""), 2);
	ck_assert_ptr_nonnull(strstr(md, "<title>upload ndr 64: at least 1.0000 Mpps</title>"));
	free(md);
}
END_TEST

/* What is no result reads as none (issue 34): a bidir trial's halves get a column each (a
 * bidir cell of an older report, naming no half, a labelled sum); a verdict takes the
 * figures' place; a rate above the link is marked, never "line rate reached"; a partial
 * report has its banner; CSV numbers never switch to scientific notation. */
START_TEST(test_matrix_truth)
{
	struct fws_cell c[] = {cell("routing", "run", "bidir", "upload", 1000000),
			       cell("routing", "run", "bidir", "download", 500000),
			       cell("fw", "run", "upload", "upload", 1400000),
			       cell("ips", "ndr", "upload", "upload", 3000000),
			       cell("old", "run", "bidir", "x", 1000)};
	struct fws_cells cells = {.n = 5, .c = c, .dut = "box", .partial = true};
	char *out;

	strcpy(c[0].stream_dir, "upload");
	strcpy(c[1].stream_dir, "download");
	strcpy(c[2].verdict, "expectation failed: stream upload: NAT: 16 of 16 flows");
	strcpy(c[3].verdict, "ok");
	c[3].l1_bps = 4.797629198e+11;
	out = render(&cells, FWS_MATRIX_MARKDOWN);
	ck_assert_ptr_nonnull(
		strstr(out, "**PARTIAL REPORT: box ended before its end (interrupted)"));
	ck_assert_ptr_nonnull(strstr(out, "| bidir upload Mbit/s (L1) |"));
	ck_assert_ptr_nonnull(strstr(out, "| bidir download Mbit/s (L1) |"));
	ck_assert_ptr_nonnull(strstr(out, "| bidir (both directions summed) Mbit/s (L1) |"));
	/* Columns in the fixed order, whatever order the cells came in (issue 51, item 8). */
	ck_assert_ptr_nonnull(strstr(out, "| Result | upload Mbit/s (L1) | upload Mpps | upload "
					  "iperf Mbit/s* | upload DUT CPU | bidir upload Mbit/s"));
	ck_assert_ptr_nonnull(strstr(out, "| fw | 64 | fixed rate | expectation failed | - | - | - "
					  "| | | | | | | | | | | | |"));
	ck_assert_ptr_nonnull(strstr(out,
				     "upload: expectation failed: stream upload: NAT: 16 of 16 "
				     "flows: NOT A RESULT"));
	ck_assert_ptr_nonnull(strstr(out, "479762.9 (above link)"));
	ck_assert_ptr_nonnull(strstr(out, "ABOVE LINK SPEED (1.4881 Mpps at most)"));
	ck_assert_ptr_null(strstr(out, "line rate reached"));
	free(out);
	out = render(&cells, FWS_MATRIX_HTML);
	ck_assert_ptr_nonnull(strstr(out, "<p class=\"partial\"><strong>PARTIAL REPORT"));
	ck_assert_ptr_nonnull(strstr(out, "<td class=\"verdict\">expectation failed <sup "
					  "class=\"refs\"><a href=\"#note-"));
	ck_assert_ptr_nonnull(strstr(out, "flows: NOT A RESULT</li>"));
	ck_assert_uint_eq(count(out, "class=\"pt\""), 4); /* every cell but the failed one */
	free(out);
	out = render(&cells, FWS_MATRIX_CSV);
	ck_assert_ptr_nonnull(strstr(out, ",479762919800,"));
	ck_assert_ptr_null(strstr(out, "e+"));
	ck_assert_uint_eq(count(out, "\nbox,,,1,"), 5);
	free(out);
}
END_TEST

/* The tester's own loss: a run cell whose receiver missed frames is a lower bound, said so. */
START_TEST(test_matrix_tester_limited)
{
	struct fws_cell c[] = {cell("routing", "run", "upload", "upload", 100000)};
	struct fws_cells cells = {.n = 1, .c = c};
	char *md;

	c[0].rx_missed = 78;
	c[0].loss_pct = 0.1;
	md = render(&cells, FWS_MATRIX_MARKDOWN);
	ck_assert_ptr_nonnull(strstr(md, "| routing | 64 | fixed rate | >= 67.2 | >= 0.1000 |"));
	ck_assert_ptr_nonnull(strstr(md,
				     "upload: loss 0.1 %, TESTER-LIMITED: the receiver missed 78 "
				     "frames (its loss, not the DUT's) |"));
	free(md);
}
END_TEST

/* The default figures give loss and latency columns (issue 34): the notes then leave them out;
 * --columns picks and orders them; a list it does not know is refused; the caption names the
 * appliance and what measured it; the HTML page stacks a direction's figures in one cell. */
START_TEST(test_matrix_columns)
{
	struct fws_cell c[] = {cell("routing", "run", "upload", "upload", 100000)};
	struct fws_cells cells = {.n = 1,
				  .c = c,
				  .dut = "DEC740",
				  .firmware = "24.7",
				  .started = "2026-12-01",
				  .tool = "fwstress 0.1.0 (commit abc, DPDK 24.11.3)"};
	char *out = NULL, err[200];
	size_t len = 0;
	FILE *f;

	c[0].loss_pct = 0.25;
	c[0].p50_ns = 5000;
	c[0].p99_ns = 12345;
	f = open_memstream(&out, &len);
	ck_assert_int_eq(fws_matrix_render(f, &cells, 1, FWS_MATRIX_MARKDOWN), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(out, "Appliance: DEC740 (firmware 24.7, 2026-12-01, measured "
					  "by fwstress 0.1.0 (commit abc, DPDK 24.11.3))."));
	ck_assert_ptr_nonnull(strstr(out,
				     "| upload Mbit/s (L1) | upload Mpps | upload iperf Mbit/s* "
				     "| upload loss % | upload p99 us | upload DUT CPU | Notes |"));
	ck_assert_ptr_nonnull(strstr(out, "| routing | 64 | fixed rate | 67.2 | 0.1000 | - | 0.25 "
					  "| 12.3 | - |  |"));
	free(out);
	f = open_memstream(&out, &len);
	ck_assert_int_eq(fws_matrix_render_columns(f, &cells, 1, FWS_MATRIX_MEDIAWIKI, "p50,l1"),
			 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(out, "! Scenario !! Frame size !! Result !! upload p50 us !! "
					  "upload Mbit/s (L1) !! Notes\n"));
	ck_assert_ptr_nonnull(strstr(out, "| routing || 64 || fixed rate || 5.0 || 67.2 || upload: "
					  "loss 0.25 %\n"));
	ck_assert_ptr_null(strstr(out, "iperf Mbit/s: the TCP goodput"));
	free(out);
	f = open_memstream(&out, &len);
	ck_assert_int_eq(fws_matrix_render(f, &cells, 1, FWS_MATRIX_HTML), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(out, "<th>upload</th></tr>"));
	ck_assert_ptr_nonnull(
		strstr(out, "<span class=\"fig fig-p99\">12.3 <small>us p99</small>"));
	free(out);
	ck_assert_int_eq(fws_matrix_columns("l1,bogus", err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "--columns: \"bogus\" is not a column (l1, mpps, iperf, loss, p50, "
			      "p99, cpu; up to 8)");
	ck_assert_int_eq(fws_matrix_columns("", err, sizeof(err)), -EINVAL);
}
END_TEST

/* A histogram's axis spans the 99.9th percentile and a decade more: a lone outlier a
 * thousand times slower is one bar of its own at the right end, said, not the axis' end. Its
 * heading names the direction. */
START_TEST(test_matrix_latency_outlier)
{
	struct fws_cell c[] = {cell("routing", "run", "bidir", "upload", 1000)};
	struct fws_cell_bucket b[] = {{.lo = 1000, .width = 16, .count = 5000},
				      {.lo = 1200, .width = 32, .count = 4000},
				      {.lo = 1048576, .width = 65536, .count = 1}};
	struct fws_cells cells = {.n = 1, .c = c};
	char *out;

	strcpy(c[0].stream_dir, "upload");
	c[0].hist = b;
	c[0].n_hist = 3;
	out = render(&cells, FWS_MATRIX_HTML);
	ck_assert_ptr_nonnull(
		strstr(out, "<h3>Latency: bidir upload, frame size 64, fixed rate</h3>"));
	/* Decade ticks as a reader writes them (issue 51, item 13). */
	ck_assert_ptr_nonnull(strstr(out, "data-ns=\"1000\">1 us</text>"));
	ck_assert_uint_eq(count(out, "class=\"bar\""), 2);
	ck_assert_ptr_nonnull(strstr(out, "class=\"bar beyond\""));
	ck_assert_ptr_nonnull(strstr(out, ">1 beyond, up to 1114.1 us</text>"));
	free(out);
}
END_TEST

/* 0.1 % buckets are drawn 32 to a power of two: a thousand thin buckets of one frame each
 * between 1 and 2 ms are 32 bars of 32 frames, every frame in one. */
START_TEST(test_matrix_latency_bars)
{
	struct fws_cell c[] = {cell("routing", "run", "upload", "upload", 1000)};
	struct fws_cell_bucket *b = calloc(1024, sizeof(*b));
	struct fws_cells cells = {.n = 1, .c = c};
	unsigned int i, bars = 0, frames = 0;
	const char *p;
	char *out;

	for (i = 0; i < 1024; i++)
		b[i] = (struct fws_cell_bucket){
			.lo = (1u << 20) + 1024 * i, .width = 1024, .count = 1};
	strcpy(c[0].stream_dir, "upload");
	c[0].hist = b;
	c[0].n_hist = 1024;
	c[0].p50_ns = 1.5e6;
	c[0].p99_ns = 2.08e6;
	out = render(&cells, FWS_MATRIX_HTML);
	for (p = out; (p = strstr(p, "class=\"bar\"")) != NULL; p++, bars++)
		frames += (unsigned int)atoi(strstr(p, "data-count=\"") + 12);
	ck_assert_uint_eq(bars, 32);
	ck_assert_uint_eq(frames, 1024);
	ck_assert_ptr_nonnull(strstr(out, "data-lo=\"1048576\" data-count=\"32\""));
	free(out);
	free(b);
}
END_TEST

/* report --only and --directions (issue 51, item 13): the rows and directions asked for stay,
 * with their back-to-back results and DUT timelines; a list with a word it does not know is
 * refused naming it. */
START_TEST(test_matrix_pick)
{
	struct fws_cell *c = calloc(5, sizeof(*c));
	struct fws_cell_b2b *b = calloc(2, sizeof(*b));
	struct fws_timeline *tl = calloc(2, sizeof(*tl));
	struct fws_cells cells = {
		.n = 5, .c = c, .n_b2b = 2, .b2b = b, .n_timelines = 2, .timelines = tl};
	char err[200];

	c[0] = cell("routing", "ndr", "upload", "upload", 1000);
	c[1] = cell("routing", "lat50", "upload", "upload", 500);
	c[2] = cell("routing", "ndr", "bidir", "upload", 900);
	c[3] = cell("routing", "ndr", "bidir", "download", 900);
	c[4] = cell("routing", "pdr", "download", "download", 1100);
	strcpy(b[0].direction, "upload");
	strcpy(b[1].direction, "bidir");
	strcpy(tl[0].direction, "bidir");
	strcpy(tl[0].kind, "ndr");
	strcpy(tl[1].direction, "upload");
	strcpy(tl[1].kind, "lat50");
	ck_assert_int_eq(fws_cells_pick_check("ndr,lat", "bidir,upload", err, sizeof(err)), 0);
	ck_assert_int_eq(fws_cells_pick_check("lat90,b2b,cps-fixed", NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(fws_cells_pick_check("ndr,nrd", NULL, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "--only: \"nrd\" is none of ndr, pdr, lat, latNN, run, b2b, cps, "
			      "cps-fixed, sessions, teardown, teardown-fixed");
	ck_assert_int_eq(fws_cells_pick_check("lat0", NULL, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(fws_cells_pick_check("lat101", NULL, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(fws_cells_pick_check(NULL, "up", err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "--directions: \"up\" is none of upload, download, bidir, custom");
	ck_assert_int_eq(fws_cells_pick_check("ndr,", NULL, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(fws_cells_pick_check(NULL, "", err, sizeof(err)), -EINVAL);
	fws_cells_pick(&cells, "ndr,lat", "bidir");
	ck_assert_uint_eq(cells.n, 2); /* both halves of the bidir NDR */
	ck_assert_str_eq(cells.c[0].stream, "upload");
	ck_assert_str_eq(cells.c[1].stream, "download");
	ck_assert_uint_eq(cells.n_b2b, 0); /* b2b not asked for */
	ck_assert_uint_eq(cells.n_timelines, 1);
	ck_assert_str_eq(cells.timelines[0].kind, "ndr");
	fws_cells_free(&cells);
}
END_TEST

/* A DUT timeline's heading names its trial's direction and what it measured. */
START_TEST(test_matrix_timeline_heading)
{
	struct fws_cell c[] = {cell("routing", "lat50", "download", "download", 1000)};
	double t[] = {0, 1}, dt[] = {1, 1}, cpu[] = {10, 20};
	struct fws_timeline tl = {.trial = 2, .n = 2, .t = t, .dt = dt, .cpu = cpu, .m0 = -1};
	struct fws_cells cells = {.n = 1, .c = c, .n_timelines = 1, .timelines = &tl};
	char *out;

	strcpy(tl.size, "64");
	strcpy(tl.direction, "download");
	strcpy(tl.kind, "lat50");
	out = render(&cells, FWS_MATRIX_HTML);
	ck_assert_ptr_nonnull(strstr(out, "<h3>DUT timeline: trial 3, frame size 64, download, "
					  "latency at 50 % of NDR</h3>"));
	free(out);
}
END_TEST

/* The matrix's order is fixed whatever order the cells came in (a resumed sweep appends):
 * scenarios as the report gives them, sizes ascending, NDR, PDR, latency points by load,
 * fixed rate; columns upload, download, bidir's halves (issue 51, item 8). */
START_TEST(test_matrix_order)
{
	struct fws_cell c[] = {cell("routing", "lat90", "download", "download", 900),
			       cell("routing", "ndr", "download", "download", 1000),
			       cell("routing", "lat10", "upload", "upload", 100),
			       cell("routing", "ndr", "bidir", "upload", 1000),
			       cell("routing", "ndr", "upload", "upload", 1000),
			       cell("firewall", "ndr", "upload", "upload", 1000)};
	struct fws_cells cells = {.n = 6, .c = c};
	const char *want[] = {
		"| routing | 64 | NDR (0 loss) |", "| routing | 64 | latency at 10 % of NDR |",
		"| routing | 1518 | latency at 90 % of NDR |", "| firewall | 64 | NDR (0 loss) |"};
	long at, prev = -1;
	unsigned int i;
	char *md;

	strcpy(c[3].stream_dir, "upload");
	strcpy(c[0].size, "1518"); /* the first cell: the last row of its scenario */
	c[0].avg_frame = 1518;
	md = render(&cells, FWS_MATRIX_MARKDOWN);
	ck_assert_ptr_nonnull(strstr(md,
				     "| Result | upload Mbit/s (L1) | upload Mpps | upload "
				     "iperf Mbit/s* | upload DUT CPU | download Mbit/s (L1) |"));
	ck_assert_ptr_nonnull(strstr(md, "| download DUT CPU | bidir upload Mbit/s (L1) |"));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++, prev = at) {
		at = place(md, want[i]);
		ck_assert_msg(at > prev, "row %u (%s) missing or out of order", i, want[i]);
	}
	free(md);
}
END_TEST

/* The HdrHistogram log: a line per cell with 0.1 % buckets, tagged after its appliance when
 * there are several (no space, no comma in a tag); a cell of an older report (3.1 % buckets)
 * named in a comment, not exported; no histogram at all is an error. */
START_TEST(test_matrix_hdr)
{
	struct fws_cell a[] = {cell("routing", "run", "bidir", "upload", 1000)},
			o[] = {cell("routing", "run", "bidir", "upload", 1000)},
			none[] = {cell("routing", "run", "bidir", "upload", 1000)};
	struct fws_cell_bucket fine[] = {{.lo = 2000, .width = 1, .count = 5},
					 {.lo = 4096, .width = 4, .count = 7}};
	struct fws_cell_bucket coarse[] = {{.lo = 4096, .width = 128, .count = 7}};
	struct fws_cells sets[2] = {{.n = 1, .c = a}, {.n = 1, .c = o}},
			 empty = {.n = 1, .c = none};
	char *out = NULL, err[200];
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	strcpy(sets[0].dut, "dec740");
	strcpy(sets[0].firmware, "24.7");
	strcpy(sets[1].dut, "dec 850");
	a[0].hist = fine;
	a[0].n_hist = 2;
	o[0].hist = coarse;
	o[0].n_hist = 1;
	ck_assert_int_eq(fws_matrix_hdr(f, sets, 2, err, sizeof(err)), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(out, "#[Histogram log format version 1.3]\n"));
	ck_assert_ptr_nonnull(strstr(out,
				     "\nTag=dec740@24.7/routing/run/bidir/upload/64,0.000,0.000,"
				     "0.004099,HISTFAAAA"));
	ck_assert_ptr_nonnull(strstr(out, "\n#fwstress: not exported: dec_850/routing/run/bidir/"
					  "upload/64: its buckets are not 0.1 % wide"));
	ck_assert_uint_eq(count(out, "\nTag="), 1);
	free(out);
	f = open_memstream(&out, &len);
	ck_assert_int_eq(fws_matrix_hdr(f, &empty, 1, err, sizeof(err)), -ENODATA);
	fclose(f);
	ck_assert_str_eq(err, "no cell with a 0.1 % latency histogram in this report");
	free(out);
	/* Two reports of one DUT and firmware: their place tells their tags apart; a label
	 * names its report's. */
	strcpy(sets[1].dut, "dec740");
	strcpy(sets[1].firmware, "24.7");
	o[0].hist = fine;
	o[0].n_hist = 2;
	f = open_memstream(&out, &len);
	ck_assert_int_eq(fws_matrix_hdr(f, sets, 2, err, sizeof(err)), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(out, "\nTag=dec740@24.7(report1)/routing/"));
	ck_assert_ptr_nonnull(strstr(out, "\nTag=dec740@24.7(report2)/routing/"));
	free(out);
	strcpy(sets[1].label, "after");
	f = open_memstream(&out, &len);
	ck_assert_int_eq(fws_matrix_hdr(f, sets, 2, err, sizeof(err)), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(out, "\nTag=dec740@24.7/routing/"));
	ck_assert_ptr_nonnull(strstr(out, "\nTag=after/routing/"));
	free(out);
}
END_TEST

/* Rates so small the tick step underflows (a report's denormals, issue 39): the page ends,
 * with a handful of ticks, not 17 GB of identical ones. */
START_TEST(test_matrix_denormal_rates)
{
	struct fws_cell c[] = {cell("routing", "run", "upload", "upload", 4.9e-324)};
	struct fws_cells cells = {.n = 1, .c = c};
	char *out;

	c[0].l1_bps = 1e-320;
	c[0].line_pps = 0;
	out = render(&cells, FWS_MATRIX_HTML);
	ck_assert_uint_lt(strlen(out), 200000);
	ck_assert_uint_le(count(out, "class=\"ytick\""), 3 * 10);
	free(out);
}
END_TEST

/* Names with the table's own syntax stay in their cell. */
START_TEST(test_matrix_table_escapes)
{
	struct fws_cell c[] = {cell("fw|nat", "ndr", "up|load", "s", 1000)};
	struct fws_cells cells = {.n = 1, .c = c};
	char *md = render(&cells, FWS_MATRIX_MARKDOWN);

	ck_assert_ptr_nonnull(strstr(md, "| fw\\|nat | 64 |"));
	ck_assert_ptr_nonnull(strstr(md, " up\\|load Mpps "));
	free(md);
	md = render(&cells, FWS_MATRIX_MEDIAWIKI);
	ck_assert_ptr_nonnull(strstr(md, "| fw&#124;nat || 64 ||"));
	free(md);
}
END_TEST

/* A report file is input: its strings never become markup. */
START_TEST(test_matrix_html_escapes)
{
	struct fws_cell c[] = {cell("<script>x</script>", "ndr", "up\"load", "s&t", 1000)};
	struct fws_cells cells = {.n = 1, .c = c};
	struct fws_cell_bucket b[] = {{.lo = 1000, .width = 100, .count = 5}};
	char *html;

	strcpy(cells.started, "<b>");
	strcpy(c[0].size, "<i>");
	c[0].hist = b;
	c[0].n_hist = 1;
	html = render(&cells, FWS_MATRIX_HTML);
	ck_assert_ptr_null(strstr(html, "<script>"));
	ck_assert_ptr_null(strstr(html, "<b>"));
	ck_assert_ptr_null(strstr(html, "<i>"));
	ck_assert_ptr_null(strstr(html, "up\"load"));
	ck_assert_ptr_nonnull(strstr(html, "&lt;script&gt;"));
	ck_assert_ptr_nonnull(strstr(html, "data-series=\"up&quot;load ndr\""));
	ck_assert_uint_eq(count(html, "class=\"bar\""), 1);
	free(html);
}
END_TEST

/* More directions than columns: the table says how many cells it left out. */
START_TEST(test_matrix_left_out)
{
	struct fws_cell c[20];
	struct fws_cells cells = {.n = 20, .c = c};
	char dir[16], *md;
	unsigned int i;

	for (i = 0; i < 20; i++) {
		snprintf(dir, sizeof(dir), "dir%u", i);
		c[i] = cell("routing", "run", dir, dir, 1000);
	}
	md = render(&cells, FWS_MATRIX_MARKDOWN);
	ck_assert_ptr_nonnull(strstr(md, "dir15 Mpps"));
	ck_assert_ptr_null(strstr(md, "dir16"));
	ck_assert_ptr_nonnull(strstr(md, "\n4 cells beyond the first 16 columns"));
	free(md);
	md = render(&cells, FWS_MATRIX_CSV);
	ck_assert_uint_eq(count(md, "\n"), 21);
	free(md);
}
END_TEST

/* Two appliances: a column group each, in every format, rows shared by scenario. */
START_TEST(test_matrix_appliances)
{
	struct fws_cell a[] = {cell("routing", "run", "upload", "upload", 100000),
			       cell("routing", "run", "download", "download", 90000),
			       cell("firewall", "run", "upload", "upload", 50000)};
	struct fws_cell b[] = {cell("routing", "run", "upload", "upload", 200000),
			       cell("ips", "run", "upload", "upload", 30000)};
	struct fws_cells sets[] = {
		{.dut = "DEC740", .firmware = "24.7", .started = "2026-11-01", .n = 3, .c = a},
		{.dut = "DEC4280", .firmware = "25.1", .started = "2026-11-30", .n = 2, .c = b}};
	char *out;

	out = render_n(sets, 2, FWS_MATRIX_MARKDOWN);
	ck_assert_ptr_nonnull(strstr(out, "Appliances: DEC740 (firmware 24.7, 2026-11-01); DEC4280 "
					  "(firmware 25.1, 2026-11-30).\n"));
	ck_assert_ptr_nonnull(strstr(out, "| DEC740 upload Mbit/s (L1) | DEC740 upload Mpps | "));
	ck_assert_ptr_nonnull(
		strstr(out, "| DEC740 download DUT CPU | DEC4280 upload Mbit/s (L1)"));
	/* routing: both appliances on one row; ips only the second's. */
	ck_assert_ptr_nonnull(strstr(out, "| routing | 64 | fixed rate | 67.2 | 0.1000 | - | - | "
					  "60.5 | 0.0900 | - | - | 134.4 | 0.2000 | - | - |"));
	ck_assert_ptr_nonnull(strstr(out, "| ips | 64 | fixed rate | | | | | | | | | 20.2 |"));
	ck_assert_uint_eq(count(out, "| routing |"), 1);
	free(out);
	out = render_n(sets, 2, FWS_MATRIX_MEDIAWIKI);
	ck_assert_ptr_nonnull(
		strstr(out, "! colspan=\"3\" | !! colspan=\"8\" | DEC740, 24.7, "
			    "2026-11-01 !! colspan=\"4\" | DEC4280, 25.1, 2026-11-30 !!\n"));
	ck_assert_uint_eq(count(out, "|-\n"), 1 + 3);
	free(out);
	out = render_n(sets, 2, FWS_MATRIX_CSV);
	ck_assert_ptr_nonnull(strstr(out, "\nDEC740,24.7,2026-11-01,0,firewall,run,upload,"));
	ck_assert_ptr_nonnull(strstr(out, "\nDEC4280,25.1,2026-11-30,0,ips,run,upload,"));
	ck_assert_uint_eq(count(out, "\n"), 1 + 5);
	free(out);
	out = render_n(sets, 2, FWS_MATRIX_HTML);
	/* A row per appliance under each scenario, size and result; a column per direction
	 * (issue 51, item 13: the width does not grow with the appliances). */
	ck_assert_ptr_nonnull(strstr(out,
				     "<th>Scenario</th><th>Frame size</th><th>Result</th>"
				     "<th>Appliance</th><th>upload</th><th>download</th></tr>"));
	ck_assert_ptr_nonnull(strstr(out, "<tr class=\"first\"><td rowspan=\"2\">routing</td>"));
	ck_assert_uint_eq(count(out, "<td class=\"appliance\">DEC740</td>"), 2);
	ck_assert_uint_eq(count(out, "<td class=\"appliance\">DEC4280</td>"), 2);
	ck_assert_ptr_nonnull(strstr(out, "<svg id=\"appliances\""));
	ck_assert_uint_eq(count(out, "class=\"gbar\""), 5);
	free(out);
}
END_TEST

/* One appliance before and after a firmware upgrade: the column groups are headed by what
 * tells the reports apart (issue 51, item 2): the firmware, else the date, else their place;
 * a label the user gives heads its group instead. */
START_TEST(test_matrix_same_dut)
{
	struct fws_cell a[] = {cell("firewall", "run", "upload", "upload", 100000)};
	struct fws_cell b[] = {cell("firewall", "run", "upload", "upload", 90000)};
	struct fws_cells sets[] = {{.dut = "netns firewall",
				    .firmware = "24.7",
				    .started = "2026-11-01",
				    .n = 1,
				    .c = a},
				   {.dut = "netns firewall",
				    .firmware = "25.1",
				    .started = "2026-11-30",
				    .n = 1,
				    .c = b}};
	char *out;

	out = render_n(sets, 2, FWS_MATRIX_MARKDOWN);
	ck_assert_ptr_nonnull(strstr(out, "| netns firewall 24.7 upload Mbit/s (L1) |"));
	ck_assert_ptr_nonnull(strstr(out, "| netns firewall 25.1 upload Mbit/s (L1) |"));
	free(out);
	strcpy(sets[1].firmware, "24.7");
	out = render_n(sets, 2, FWS_MATRIX_HTML);
	ck_assert_ptr_nonnull(strstr(out, ">netns firewall 2026-11-01</td>"));
	ck_assert_ptr_nonnull(strstr(out, ">netns firewall 2026-11-30</td>"));
	free(out);
	strcpy(sets[1].started, "2026-11-01");
	out = render_n(sets, 2, FWS_MATRIX_MARKDOWN);
	ck_assert_ptr_nonnull(strstr(out, "| netns firewall (report 1) upload Mpps |"));
	ck_assert_ptr_nonnull(strstr(out, "| netns firewall (report 2) upload Mpps |"));
	free(out);
	strcpy(sets[0].label, "before");
	strcpy(sets[1].label, "after");
	out = render_n(sets, 2, FWS_MATRIX_MARKDOWN);
	ck_assert_ptr_nonnull(strstr(out, "| before upload Mpps |"));
	ck_assert_ptr_nonnull(strstr(out, "| after upload Mpps |"));
	ck_assert_ptr_nonnull(strstr(out, "Appliances: before (firmware 24.7"));
	free(out);
}
END_TEST

/* Notes appear exactly where their conditions hold. */
START_TEST(test_matrix_notes)
{
	static const struct {
		const char *scenario;
		double pps, cpu, attack, attack_leaked, blocked_leaked;
		const char *notes;
	} cases[] = {
		{"routing", 1000, -1, -1, -1, -1, "upload: loss 0 %"},
		{"routing", 1480000, -1, -1, -1, -1, "upload: loss 0 %, line rate reached"},
		{"routing", 1470000, -1, -1, -1, -1,
		 "upload: loss 0 %"}, /* 98.8 %: not within 1 % */
		{"routing", 1000, 95, -1, -1, -1, "upload: loss 0 %"},
		{"routing", 1000, 95.5, -1, -1, -1, "upload: loss 0 %, DUT CPU above 95 %"},
		{"firewall", 1000, -1, -1, -1, 0, "upload: loss 0 %"},
		{"firewall", 1000, -1, -1, -1, 7,
		 "upload: loss 0 %, 7 frames leaked to destinations expected "
		 "blocked"},
		{"ips", 1000, -1, 500, 0, -1, "upload: loss 0 %"},
		{"ips", 1000, -1, 500, 3, -1,
		 "upload: loss 0 %, IPS leaked 3 of 500 attack frames"},
		{"ips", 1000, -1, -1, -1, -1,
		 "upload: loss 0 %, inspection not proven (no attack frames in the "
		 "trial)"},
		{"ids", 1000, -1, 500, -1, -1,
		 "upload: loss 0 %, inspection not proven (attack frames pass by "
		 "design: see the DUT's alerts)"},
		{"appcontrol", 1000, -1, 0, -1, -1,
		 "upload: loss 0 %, inspection not proven (no attack frames "
		 "in the trial)"},
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fws_cell c =
			cell(cases[i].scenario, "run", "upload", "upload", cases[i].pps);
		struct fws_cells cells = {.n = 1, .c = &c};
		char want[300], *md;

		c.dut_cpu = cases[i].cpu;
		c.attack_frames = cases[i].attack;
		c.attack_leaked = cases[i].attack_leaked;
		c.blocked_leaked = cases[i].blocked_leaked;
		md = render(&cells, FWS_MATRIX_MARKDOWN);
		snprintf(want, sizeof(want), " | %s |\n", cases[i].notes);
		ck_assert_msg(strstr(md, want) != NULL, "case %u: want \"%s\" in %s", i, want, md);
		free(md);
	}
}
END_TEST

/* A latency point is named for its load; its loss and latency are in the notes. */
START_TEST(test_matrix_latency_point)
{
	struct fws_cell c = cell("routing", "lat50", "upload", "upload", 100000);
	struct fws_cells cells = {.n = 1, .c = &c};
	char *md;

	c.loss_pct = 0.125;
	c.p50_ns = 1500;
	c.p99_ns = 12340;
	md = render(&cells, FWS_MATRIX_MARKDOWN);
	ck_assert_msg(strstr(md,
			     "| routing | 64 | latency at 50 % of NDR | 67.2 | 0.1000 | - | "
			     "- | upload: loss 0.125 %, latency p50 1.5 / p99 12.3 us |") != NULL,
		      "%s", md);
	free(md);
}
END_TEST

/* A TCP stream's cell: its measured payload rate in the goodput column, and a note. */
START_TEST(test_matrix_tcp_goodput)
{
	struct fws_cell c[] = {cell("firewall", "run", "upload", "upload", 100000),
			       cell("firewall", "run", "download", "download", 100000)};
	struct fws_cells cells = {.n = 2, .c = c};
	char *md;

	c[0].goodput_bps = 100000 * 22 * 8; /* 88-byte segments: 22 payload bytes */
	c[0].goodput_measured = 1;
	md = render(&cells, FWS_MATRIX_MARKDOWN);
	ck_assert_ptr_nonnull(strstr(md,
				     "| firewall | 64 | fixed rate | 67.2 | 0.1000 | 17.6 | - | "
				     "67.2 | 0.1000 | - | - | upload: loss 0 %, TCP goodput "
				     "measured, not derived; download: loss 0 % |"));
	free(md);
}
END_TEST

/* The derived iperf column where it means something (issue 51, item 4): an MTU-size row (1518
 * bytes: 812,743.8 frames/s at 10 Gbit/s L1) gives L1 x 1448 / 1538 = 9414.8 Mbit/s, as
 * iperf shows at 10 GbE; a 64-byte row "-". */
START_TEST(test_matrix_iperf_mtu)
{
	struct fws_cell c[2] = {cell("routing", "ndr", "upload", "upload", 1000000),
				cell("routing", "ndr", "upload", "upload", 812743.8)};
	struct fws_cells cells = {.n = 2, .c = c};
	char *md;

	strcpy(c[1].size, "1518");
	c[1].avg_frame = 1518;
	c[1].l1_bps = 812743.8 * 1538 * 8;
	c[1].goodput_bps = fws_goodput_derived(c[1].l1_bps);
	md = render(&cells, FWS_MATRIX_MARKDOWN);
	ck_assert_msg(strstr(md, "| routing | 1518 | NDR (0 loss) | 10000.0 | 0.8127 | 9414.8 |") &&
			      strstr(md, "| routing | 64 | NDR (0 loss) | 672.0 | 1.0000 | - |"),
		      "%s", md);
	free(md);
}
END_TEST

static Suite *
suite_matrix(void)
{
	Suite *s = suite_create("matrix");
	TCase *tc = tcase_create("matrix");

	tcase_add_test(tc, test_matrix_formats);
	tcase_add_test(tc, test_matrix_markdown);
	tcase_add_test(tc, test_matrix_iperf_mtu);
	tcase_add_test(tc, test_matrix_csv);
	tcase_add_test(tc, test_matrix_connections);
	tcase_add_test(tc, test_matrix_html_escapes);
	tcase_add_test(tc, test_matrix_left_out);
	tcase_add_test(tc, test_matrix_appliances);
	tcase_add_test(tc, test_matrix_same_dut);
	tcase_add_test(tc, test_matrix_notes);
	tcase_add_test(tc, test_matrix_tcp_goodput);
	tcase_add_test(tc, test_matrix_latency_point);
	tcase_add_test(tc, test_matrix_lower_bound);
	tcase_add_test(tc, test_matrix_table_escapes);
	tcase_add_test(tc, test_matrix_truth);
	tcase_add_test(tc, test_matrix_tester_limited);
	tcase_add_test(tc, test_matrix_columns);
	tcase_add_test(tc, test_matrix_latency_outlier);
	tcase_add_test(tc, test_matrix_latency_bars);
	tcase_add_test(tc, test_matrix_hdr);
	tcase_add_test(tc, test_matrix_pick);
	tcase_add_test(tc, test_matrix_order);
	tcase_add_test(tc, test_matrix_timeline_heading);
	tcase_add_test(tc, test_matrix_denormal_rates);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_matrix)
