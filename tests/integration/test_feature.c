/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A new measuring feature through its hooks alone (issue 38): feat_probe.c, compiled only
 * into this test, fills the host table's test slot; nothing else in fwstress names it. A
 * fixture forwards two streams from lan to wan (every frame, in order); after a trial the
 * report's JSON has each stream's "probe" (the frames its receive lcores took a latency of,
 * equal to latency_ns.count and to the distinct frames received; one receive lcore) and the
 * text report its line.
 *
 *   fwstress lan (ringpair:pa:a) -> fixture (pa:b -> pb:b) -> fwstress wan (ringpair:pb:a)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_mbuf.h>

#include <jansson.h>

#include "fixture.h"
#include "fws_report.h"

/* clang-format off */
static const char cfg_json[] =
	"{\"ports\": [{\"name\": \"lan\", \"device\": \"ringpair:pa:a\"},"
	"             {\"name\": \"wan\", \"device\": \"ringpair:pb:a\"}],"
	" \"streams\": ["
	"  {\"name\": \"one\", \"tx_port\": \"lan\", \"rx_port\": \"wan\","
	"   \"flows\": {\"count\": 4, \"dst_port\": 5001}},"
	"  {\"name\": \"two\", \"tx_port\": \"lan\", \"rx_port\": \"wan\","
	"   \"flows\": {\"count\": 8, \"dst_port\": 5002}}],"
	" \"frame_size\": 128, \"rate\": \"400pps\", \"duration\": 1, \"warmup\": 0,"
	" \"drain\": 0.3, \"path_check\": false, \"lcores\": {\"tx\": [1], \"rx\": [1]},"
	" \"output\": {\"json\": \"\"}}";
/* clang-format on */

struct fixture {
	uint16_t in, out;
	volatile int quit;
};

/* Forward every frame from in to out. */
static int
fixture_main(void *arg)
{
	struct fixture *fx = arg;
	struct rte_mbuf *m[32];
	uint16_t n, sent;

	while (!fx->quit) {
		n = rte_eth_rx_burst(fx->in, 0, m, 32);
		for (sent = 0; sent < n;)
			sent += rte_eth_tx_burst(fx->out, 0, m + sent, n - sent);
	}
	return 0;
}

static uint64_t
num(const json_t *o, const char *a, const char *b)
{
	return (uint64_t)json_integer_value(json_object_get(json_object_get(o, a), b));
}

static void
check(const struct fws_cfg *cfg, struct fws_result *res)
{
	struct fws_run run = {
		.cfg = cfg, .status = FWS_RUN_COMPLETED, .n_results = 1, .results = res};
	json_t *j = fws_report_json(&run);
	json_t *st = json_object_get(json_array_get(json_object_get(j, "trials"), 0), "streams");
	char *text = NULL, what[96], line[160];
	size_t len = 0, s;
	FILE *f = open_memstream(&text, &len);

	fws_report_text(f, &run);
	fclose(f);
	for (s = 0; s < json_array_size(st); s++) {
		const json_t *o = json_array_get(st, s);
		const char *name = json_string_value(json_object_get(o, "name"));
		uint64_t frames = num(o, "probe", "frames");

		snprintf(what, sizeof(what), "%s: probe.frames, the latencies taken", name);
		expect(what, frames, num(o, "latency_ns", "count"));
		snprintf(what, sizeof(what), "%s: ... the distinct frames received", name);
		expect(what, frames, num(o, "received", "distinct_frames"));
		snprintf(what, sizeof(what), "%s: ... some (about 400)", name);
		expect(what, frames > 300, 1);
		snprintf(what, sizeof(what), "%s: probe.lcores", name);
		expect(what, num(o, "probe", "lcores"), 1);
		snprintf(line, sizeof(line), "  probe: %s: %lu frames on 1 receive lcores\n", name,
			 (unsigned long)frames);
		snprintf(what, sizeof(what), "%s: the text report's line", name);
		expect(what, text && strstr(text, line) != NULL, 1);
	}
	expect("two streams reported", json_array_size(st), 2);
	free(text);
	json_decref(j);
}

int
main(int argc, char **argv)
{
	struct fixture_env e;
	static struct fixture fx;
	struct fws_result res;
	struct fws_err fe = {0};
	int rc;

	(void)argc;
	if ((rc = fixture_setup(argv[0], cfg_json, "ringpair:pa:b", "ringpair:pb:b", &e)) != 0)
		return rc;
	fx.in = e.in.port_id;
	fx.out = e.out.port_id;
	rte_eal_remote_launch(fixture_main, &fx, FIXTURE_LCORE);
	rc = fws_trial_run(e.t, 0, NULL, &res, &fe);
	fx.quit = 1;
	rte_eal_wait_lcore(FIXTURE_LCORE);
	if (rc < 0) {
		fprintf(stderr, "%s\n", fe.msg);
		return 1;
	}
	check(e.cfg, &res);
	fws_result_free(&res);
	fixture_teardown(&e);
	return fixture_done();
}
