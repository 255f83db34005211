/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Impairment fixture: a forwarder between two ring ports that drops every DROP_EVERY-th
 * frame, holds every SWAP_EVERY-th frame back until the next frame of its flow has passed
 * (one reordered frame each), sends every DUP_EVERY-th frame twice, and copies every
 * LATE_EVERY-th frame once more after LATE_BY further frames of its flow (a duplicate far
 * behind the flow's newest: beyond the 64 of the cache line, within the default window of
 * 1024). It counts what it did; the test passes when fwstress's report counts exactly the
 * same.
 *
 *   fwstress lan (ringpair:ia:a) -> fixture (ia:b -> ib:b) -> fwstress wan (ringpair:ib:a)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "fixture.h"
#include "fws_pkt.h"
#include "fws_sig.h"

#define DROP_EVERY 97
#define SWAP_EVERY 50
#define DUP_EVERY 31
#define LATE_EVERY 1009
#define LATE_BY 200
#define MAX_LATE 64
#define FLOWS 8

static const char cfg_json[] =
	"{\"ports\": [{\"name\": \"lan\", \"device\": \"ringpair:ia:a\"},"
	"             {\"name\": \"wan\", \"device\": \"ringpair:ib:a\"}],"
	" \"direction\": \"upload\","
	" \"flows\": {\"count\": 8, \"src_ip\": \"198.18.1.1-198.18.1.8\"},"
	" \"frame_size\": [64, \"imix\"], \"rate\": \"200kpps\","
	" \"duration\": 1.5, \"warmup\": 0, \"drain\": 0.5,"
	" \"lcores\": {\"tx\": [1], \"rx\": [1]}, \"output\": {\"json\": \"\"}}";

struct fixture {
	uint16_t in, out;
	volatile int quit;
	uint64_t seen, dropped, swapped, duplicated, late_copies, flushed, fwd;
	struct rte_mbuf *held[FLOWS];
	uint64_t flow_fwd[FLOWS]; /**< frames of the flow forwarded so far */
	unsigned int n_late;
	struct {
		struct rte_mbuf *m;
		uint32_t flow;
		uint64_t due; /**< when flow_fwd of its flow reaches this */
	} late[MAX_LATE];
};

static void
send_all(struct fixture *fx, struct rte_mbuf **m, uint16_t n)
{
	uint16_t done = 0;

	/* The fixture is not under test: it never drops what it means to forward. */
	while (done < n)
		done += rte_eth_tx_burst(fx->out, 0, m + done, (uint16_t)(n - done));
	fx->fwd += n;
}

static int
flow_of(struct rte_mbuf *m, uint32_t *flow)
{
	struct fws_pkt_view v;
	struct fws_sig s;

	if (fws_pkt_parse(rte_pktmbuf_mtod(m, uint8_t *), m->data_len, &v) != FWS_PKT_UDP ||
	    fws_sig_parse(v.payload, v.payload_len, 0, &s) == FWS_SIG_NONE || s.flow >= FLOWS)
		return -1;
	*flow = s.flow;
	return 0;
}

/* Late copies whose time has come (or all, when flushing) go out after out[0..k). */
static uint16_t
release_late(struct fixture *fx, struct rte_mbuf **out, uint16_t k, bool all)
{
	unsigned int i = 0;

	while (i < fx->n_late) {
		if (!all && fx->flow_fwd[fx->late[i].flow] < fx->late[i].due) {
			i++;
			continue;
		}
		out[k++] = fx->late[i].m;
		fx->late_copies++;
		fx->late[i] = fx->late[--fx->n_late];
	}
	return k;
}

static void
copy_late(struct fixture *fx, struct rte_mbuf *m, uint32_t f)
{
	struct rte_mbuf *c;

	if (fx->n_late == MAX_LATE || (c = rte_pktmbuf_copy(m, m->pool, 0, UINT32_MAX)) == NULL)
		return;
	fx->late[fx->n_late].m = c;
	fx->late[fx->n_late].flow = f;
	fx->late[fx->n_late++].due = fx->flow_fwd[f] + LATE_BY;
}

static int
fixture_main(void *arg)
{
	struct fixture *fx = arg;
	struct rte_mbuf *in[32], *out[128 + MAX_LATE];
	uint64_t idle_since = rte_rdtsc(), hz = rte_get_tsc_hz();
	uint16_t n, i, k;
	uint32_t f;

	while (!fx->quit) {
		n = rte_eth_rx_burst(fx->in, 0, in, 32);
		if (n == 0) {
			/* Idle for 2 ms: release held frames (their successors never came). */
			if (rte_rdtsc() - idle_since > hz / 500) {
				for (f = 0; f < FLOWS; f++) {
					if (fx->held[f]) {
						send_all(fx, &fx->held[f], 1);
						fx->held[f] = NULL;
						fx->flushed++;
					}
				}
				if ((k = release_late(fx, out, 0, true)) != 0)
					send_all(fx, out, k);
			}
			continue;
		}
		idle_since = rte_rdtsc();
		k = 0;
		for (i = 0; i < n; i++) {
			struct rte_mbuf *m = in[i];
			uint64_t idx = ++fx->seen;

			if (flow_of(m, &f) < 0) {
				out[k++] = m;
				continue;
			}
			if (idx % DROP_EVERY == 0) {
				rte_pktmbuf_free(m);
				fx->dropped++;
				continue;
			}
			fx->flow_fwd[f]++;
			if (idx % LATE_EVERY == 0)
				copy_late(fx, m, f);
			out[k++] = m;
			if (fx->held[f]) {
				/* m overtakes the held frame of its flow. */
				out[k++] = fx->held[f];
				fx->held[f] = NULL;
				fx->swapped++;
				continue;
			}
			if (idx % SWAP_EVERY == 0) {
				fx->held[f] = m;
				k--;
				continue;
			}
			if (idx % DUP_EVERY == 0) {
				struct rte_mbuf *c = rte_pktmbuf_copy(m, m->pool, 0, UINT32_MAX);

				if (c) {
					out[k++] = c;
					fx->duplicated++;
				}
			}
		}
		k = release_late(fx, out, k, false);
		if (k)
			send_all(fx, out, k);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct fixture_env e;
	struct fixture fx;
	struct fws_result res;
	struct fws_err fe = {0};
	int rc;
	unsigned int size;

	(void)argc;
	if ((rc = fixture_setup(argv[0], cfg_json, "ringpair:ia:b", "ringpair:ib:b", &e)) != 0)
		return rc;
	for (size = 0; size < e.cfg->n_sizes; size++) {
		const struct fws_stream_result *s;

		memset(&fx, 0, sizeof(fx));
		fx.in = e.in.port_id;
		fx.out = e.out.port_id;
		rte_eal_remote_launch(fixture_main, &fx, FIXTURE_LCORE);
		if (fws_trial_run(e.t, size, NULL, &res, &fe) < 0) {
			fprintf(stderr, "%s\n", fe.msg);
			return 1;
		}
		fx.quit = 1;
		rte_eal_wait_lcore(FIXTURE_LCORE);
		s = &res.streams[0];
		printf("trial %s: fixture saw %lu, dropped %lu, swapped %lu, duplicated %lu, "
		       "late copies %lu, released idle %lu\n",
		       res.size.name, (unsigned long)fx.seen, (unsigned long)fx.dropped,
		       (unsigned long)fx.swapped, (unsigned long)fx.duplicated,
		       (unsigned long)fx.late_copies, (unsigned long)fx.flushed);
		expect("frames sent reached the fixture", fx.seen, s->rx.tx);
		/* 200,000 fps for 1.5 s; a busy machine may not give the generator that: then the
		 * result must say so (and the fixture's counts below hold at any rate). */
		expect("sent > 200000 * 1.5 * 0.9, or generator-limited said",
		       s->rx.tx > 270000 || (s->generator_limited && s->rx.tx > 30000), 1);
		expect("fixture did something",
		       fx.dropped > 0 && fx.swapped > 0 && fx.duplicated > 0 && fx.late_copies > 0,
		       1);
		expect("lost == dropped", s->rx.lost, fx.dropped);
		expect("reordered == swapped", s->rx.reordered, fx.swapped);
		expect("duplicated == duplicated + late copies", s->rx.dup,
		       fx.duplicated + fx.late_copies);
		expect("distinct received == sent - dropped", s->rx.unique, s->rx.tx - fx.dropped);
		expect("received incl. duplicates", s->rx.rx, fx.fwd);
		expect("late", s->rx.late, 0);
		expect("latency samples == received", s->lat.count, s->rx.rx);
		expect("non-test / bad frames at wan",
		       res.ports[1].rx.bad_signature + res.ports[1].rx.non_test +
			       res.ports[1].rx.stale_frames,
		       0);
		fws_result_free(&res);
	}
	fixture_teardown(&e);
	return fixture_done();
}
