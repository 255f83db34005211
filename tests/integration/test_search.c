/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * End-to-end throughput search through a rate-limited path: a fixture forwards between two
 * ring ports through a token-bucket policer of POLICE_PPS (bucket BUCKET frames) and drops
 * the rest. The search, with the real trial engine, must find NDR within its width of the
 * policer's rate. The bucket fills by the frames' own transmit timestamps (the time they
 * would reach a wire policer), so the fixture's own scheduling on a busy machine does not
 * turn into loss. The generator's does: descheduled, it falls behind and catches up with a
 * burst that overflows the bucket. The trial says so (tx_behind, "GENERATOR STALLED"), and
 * then an NDR below the window is the tester's, said, not a failure of the search.
 */
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_mbuf.h>

#include "fixture.h"
#include "fws_pkt.h"
#include "fws_search.h"
#include "fws_sig.h"

#define POLICE_PPS 150000.0
#define BUCKET 2000.0
#define MAX_PPS 400000.0

static const char cfg_json[] =
	"{\"ports\": [{\"name\": \"lan\", \"device\": \"ringpair:sa:a\"},"
	"             {\"name\": \"wan\", \"device\": \"ringpair:sb:a\"}],"
	" \"direction\": \"upload\", \"flows\": {\"count\": 32}, \"frame_size\": 64,"
	" \"rate\": \"400kpps\", \"warmup\": 0, \"drain\": 0.3,"
	" \"lcores\": {\"tx\": [1], \"rx\": [1]}, \"output\": {\"json\": \"\"}}";

struct policer {
	uint16_t in, out;
	volatile int quit;
	uint64_t passed, dropped;
};

/* Transmit time of a test frame, in TSC cycles (modulo 2^34), or 0 for other frames. */
static uint64_t
sent_at(struct rte_mbuf *m)
{
	struct fws_pkt_view v;
	struct fws_sig sig;

	if (fws_pkt_parse(rte_pktmbuf_mtod(m, uint8_t *), m->data_len, &v) != FWS_PKT_UDP ||
	    fws_sig_parse(v.payload, v.payload_len, 0, &sig) == FWS_SIG_NONE)
		return 0;
	return (uint64_t)sig.ts << FWS_SIG_TS_SHIFT;
}

static int
police(void *arg)
{
	struct policer *p = arg;
	struct rte_mbuf *m[32];
	double hz = (double)rte_get_tsc_hz(), tokens = BUCKET;
	uint64_t last = 0;
	uint16_t n, i, k, done;

	while (!p->quit) {
		n = rte_eth_rx_burst(p->in, 0, m, 32);
		for (i = 0, k = 0; i < n; i++) {
			uint64_t ts = sent_at(m[i]);

			if (ts && last) {
				/* Timestamps wrap at 2^34 cycles: take the difference modulo. */
				uint64_t d = (ts - last) & ((1ull << 34) - 1);

				if (d < (1ull << 33)) {
					tokens += (double)d / hz * POLICE_PPS;
					last = ts;
				}
			} else if (ts) {
				last = ts;
			}
			if (tokens > BUCKET)
				tokens = BUCKET;
			if (tokens >= 1) {
				tokens -= 1;
				m[k++] = m[i];
			} else {
				rte_pktmbuf_free(m[i]);
				p->dropped++;
			}
		}
		for (done = 0; done < k;)
			done += rte_eth_tx_burst(p->out, 0, m + done, (uint16_t)(k - done));
		p->passed += k;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct fws_search_cfg scfg = {.min_load = 0.01,
				      .width = 0.01,
				      .pdr_loss = 0.005,
				      .short_s = 0.5,
				      .final_s = 1.5,
				      .max_trials = 40};
	struct fws_search_goal ndr, pdr;
	struct fixture_env e;
	struct policer pol;
	struct fws_search *s;
	struct fws_result res;
	double load, duration, lo, hi;
	struct fws_err fe = {0};
	int rc;
	int failed = 0, n = 0;
	uint64_t stall = 0; /* the largest catch-up burst of a trial that lost frames */

	(void)argc;
	if ((rc = fixture_setup(argv[0], cfg_json, "ringpair:sa:b", "ringpair:sb:b", &e)) != 0)
		return rc;
	memset(&pol, 0, sizeof(pol));
	pol.in = e.in.port_id;
	pol.out = e.out.port_id;
	rte_eal_remote_launch(police, &pol, FIXTURE_LCORE);
	s = fws_search_new(&scfg);
	while (fws_search_next(s, &load, &duration)) {
		struct fws_trial_opts o = {.rate_scale = load, .duration = duration};
		const struct fws_stream_result *sr;

		if (fws_trial_run(e.t, 0, &o, &res, &fe) < 0) {
			fprintf(stderr, "%s\n", fe.msg);
			return 1;
		}
		sr = &res.streams[0];
		printf("trial %2d: load %.4f (%.0f fps) %.1f s: sent %lu, lost %lu\n", ++n, load,
		       load * MAX_PPS, duration, (unsigned long)sr->rx.tx,
		       (unsigned long)sr->rx.lost);
		fws_search_record(s, sr->tx_pps / MAX_PPS, sr->rx.tx, sr->rx.lost);
		if (sr->rx.lost && sr->tx_behind > stall)
			stall = sr->tx_behind;
		fws_result_free(&res);
	}
	pol.quit = 1;
	rte_eal_wait_lcore(FIXTURE_LCORE);
	fws_search_goal(s, FWS_SEARCH_NDR, &ndr);
	fws_search_goal(s, FWS_SEARCH_PDR, &pdr);
	/* The policer passes POLICE_PPS plus its bucket once per trial. */
	lo = (POLICE_PPS - 2 * scfg.width * MAX_PPS) / MAX_PPS;
	hi = (POLICE_PPS + BUCKET / scfg.final_s + scfg.width * MAX_PPS) / MAX_PPS;
	printf("NDR %.4f (%.0f fps), PDR %.4f (%.0f fps), policer %.0f fps: want NDR in "
	       "[%.4f, %.4f]\n",
	       ndr.load, ndr.load * MAX_PPS, pdr.load, pdr.load * MAX_PPS, POLICE_PPS, lo, hi);
	if (stall > BUCKET)
		printf("note: the generator stalled: a trial that lost frames caught up with a "
		       "burst of %lu frames, above the bucket's %.0f: loads below the policer's "
		       "may fail (the tester's burst, as the trial reports)\n",
		       (unsigned long)stall, BUCKET);
	/* A stalled generator leaves only the upper ends: nothing above the policer passed. */
	if (stall > BUCKET ? ndr.load > hi : !ndr.found || ndr.load < lo || ndr.load > hi) {
		printf("FAIL NDR outside the policer's rate +- the search width\n");
		failed++;
	}
	if (stall > BUCKET ? pdr.load > hi * 1.01
			   : !pdr.found || pdr.load < ndr.load || pdr.load > hi * 1.01) {
		printf("FAIL PDR below NDR or far above the policer\n");
		failed++;
	}
	if (n > (int)scfg.max_trials) {
		printf("FAIL more trials than allowed\n");
		failed++;
	}
	fws_search_free(s);
	fixture_teardown(&e);
	printf("%d passed, %d failed\n", 3 - failed, failed);
	return failed ? 1 : 0;
}
