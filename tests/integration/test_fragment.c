/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fragmentation fixture: a forwarder between two ring ports that cuts every IPv4 test
 * frame into fragments, a way per stream (the stream's destination port picks it):
 *   5001 in order (2 pieces)        5002 reversed (4 pieces)     5003 one piece twice
 *   5004 the last piece missing     5005 9 pieces (the table allows 8)
 *   5006 two pieces that overlap    5007 not cut                 5008 the first piece twice
 * fwstress reassembles on receive (rte_ip_frag, a table per receive lcore): a reassembled
 * test packet is counted once, as received and as reassembled; a packet whose pieces never
 * complete is lost, its pieces counted as given up (frag_dropped), as is a piece that comes
 * again after its packet was whole; the stream counts each such packet given up once, by
 * its first fragment (never the late copy of a middle piece). The first trial runs at 800
 * packets/s a stream: the streams that leave packets open for 1 s keep about 3200 of the
 * table's 4096 busy. The second at 3200/s: the table fills, refuses new packets, and every
 * packet of the streams cut in order that it refused is counted so, as the tester's limit. The fixture counts what
 * it sent; the test passes when the report says exactly that.
 *
 *   fwstress lan (ringpair:fa:a) -> fixture (fa:b -> fb:b) -> fwstress wan (ringpair:fb:a)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include <jansson.h>

#include "fixture.h"
#include "fws_pkt.h"
#include "fws_report.h"

#define STREAMS 8
#define STREAM_JSON(n, port)                                                                       \
	"{\"name\": \"" n                                                                          \
	"\", \"tx_port\": \"lan\", \"rx_port\": \"wan\", \"flows\": {\"count\": "                  \
	"4, \"src_ip\": \"198.18.1.1-198.18.1.4\", \"dst_port\": " port "}}"

/* clang-format off */
static const char cfg_json[] =
	"{\"ports\": [{\"name\": \"lan\", \"device\": \"ringpair:fa:a\"},"
	"             {\"name\": \"wan\", \"device\": \"ringpair:fb:a\"}],"
	" \"streams\": ["
	STREAM_JSON("order", "5001") "," STREAM_JSON("reversed", "5002") ","
	STREAM_JSON("twice", "5003") "," STREAM_JSON("nolast", "5004") ","
	STREAM_JSON("nine", "5005") "," STREAM_JSON("overlap", "5006") ","
	STREAM_JSON("whole", "5007") "," STREAM_JSON("first2", "5008") "],"
	" \"frame_size\": 1000, \"rate\": \"3200pps\", \"duration\": 1, \"warmup\": 0,"
	" \"drain\": 0.5, \"path_check\": false, \"lcores\": {\"tx\": [1], \"rx\": [1]},"
	" \"output\": {\"json\": \"\"}}";
/* clang-format on */

/* How each stream's frames are cut: pieces, their order, and what is done wrong. */
static const struct way {
	unsigned int pieces;
	bool reverse, twice, drop_last, overlap;
	bool completes;   /**< the receiver should get the packet back */
	bool first_twice; /**< the first piece again right after it */
} ways[STREAMS] = {
	{2, false, false, false, false, true},  {4, true, false, false, false, true},
	{3, false, true, false, false, true},   {3, false, false, true, false, false},
	{9, false, false, false, false, false}, {2, false, false, false, true, false},
	{1, false, false, false, false, true},  {3, false, false, false, false, false, true},
};

struct fixture {
	uint16_t in, out;
	struct rte_mempool *pool; /**< its own: fwstress's transmit pools hold templates */
	volatile int quit;
	uint64_t packets[STREAMS], pieces[STREAMS];
};

/* Piece k of n of frame m's IP payload (8-byte units; with overlap the second piece starts
 * 8 bytes early). */
static struct rte_mbuf *
piece(struct rte_mempool *pool, struct rte_mbuf *m, unsigned int k, unsigned int n, bool overlap)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(d + RTE_ETHER_HDR_LEN);
	uint32_t hl = rte_ipv4_hdr_len(ip), pl = rte_be_to_cpu_16(ip->total_length) - hl;
	uint32_t unit = (pl / n) & ~7u, off = k * unit, len = k + 1 == n ? pl - off : unit;
	struct rte_mbuf *f = rte_pktmbuf_alloc(pool);
	struct rte_ipv4_hdr *fip;
	uint8_t *p;

	if (f == NULL)
		abort(); /* the fixture is not under test: it never runs out */
	if (overlap && k > 0) {
		off -= 8;
		len += 8;
	}
	p = (uint8_t *)rte_pktmbuf_append(f, (uint16_t)(RTE_ETHER_HDR_LEN + hl + len));
	memcpy(p, d, RTE_ETHER_HDR_LEN + hl);
	memcpy(p + RTE_ETHER_HDR_LEN + hl, d + RTE_ETHER_HDR_LEN + hl + off, len);
	fip = (struct rte_ipv4_hdr *)(p + RTE_ETHER_HDR_LEN);
	fip->total_length = rte_cpu_to_be_16((uint16_t)(hl + len));
	fip->fragment_offset =
		rte_cpu_to_be_16((uint16_t)(off / 8) | (k + 1 < n ? RTE_IPV4_HDR_MF_FLAG : 0));
	fip->hdr_checksum = 0;
	fip->hdr_checksum = rte_ipv4_cksum(fip);
	return f;
}

/* The stream of a test frame by its destination port, or -1. */
static int
stream_of(struct rte_mbuf *m)
{
	struct fws_pkt_view v;
	uint16_t dport;

	if (fws_pkt_parse(rte_pktmbuf_mtod(m, uint8_t *), m->data_len, &v) != FWS_PKT_UDP)
		return -1;
	dport = (uint16_t)(v.l4[2] << 8 | v.l4[3]);
	return dport >= 5001 && dport < 5001 + STREAMS ? dport - 5001 : -1;
}

static void
cut(struct fixture *fx, struct rte_mbuf *m, int s)
{
	const struct way *w = &ways[s];
	struct rte_mbuf *out[16];
	unsigned int k, n = 0, sent = 0;

	fx->packets[s]++;
	if (w->pieces == 1) {
		out[n++] = m;
	} else {
		for (k = 0; k < w->pieces; k++)
			if (!(w->drop_last && k + 1 == w->pieces)) {
				out[n++] = piece(fx->pool, m, w->reverse ? w->pieces - 1 - k : k,
						 w->pieces, w->overlap);
				if (w->first_twice && k == 0)
					out[n++] = piece(fx->pool, m, 0, w->pieces, false);
			}
		if (w->twice)
			out[n++] = piece(fx->pool, m, 1, w->pieces, false);
		rte_pktmbuf_free(m);
	}
	fx->pieces[s] += n;
	while (sent < n)
		sent += rte_eth_tx_burst(fx->out, 0, out + sent, (uint16_t)(n - sent));
}

static int
fixture_main(void *arg)
{
	struct fixture *fx = arg;
	struct rte_mbuf *in[32];
	uint16_t n, i;
	int s;

	while (!fx->quit) {
		n = rte_eth_rx_burst(fx->in, 0, in, 32);
		for (i = 0; i < n; i++) {
			if ((s = stream_of(in[i])) < 0) {
				while (rte_eth_tx_burst(fx->out, 0, &in[i], 1) == 0)
					;
				continue;
			}
			cut(fx, in[i], s);
		}
	}
	return 0;
}

static const char *const names[STREAMS] = {"in order", "reversed", "one twice",      "last missing",
					   "nine",     "overlap",  "not fragmented", "first twice"};

/* A stream's count of the reassembly feature, as the report writes it (the feature's own
 * block through its JSON hook: "received"."reassembled", ...). */
static uint64_t
frag(const struct fws_result *res, int s, const char *key)
{
	json_t *o = json_pack("{s:{}}", "received");
	uint64_t v;

	fws_fd_json(&res->fd, res->streams[s].fd, o);
	v = (uint64_t)json_integer_value(json_object_get(json_object_get(o, "received"), key));
	json_decref(o);
	return v;
}

/* Room in the table: every count exact. */
static void
check_exact(const struct fixture *fx, const struct fws_result *res)
{
	uint64_t want_dropped = 0, want_frags = 0;
	char what[128];
	int s;

	for (s = 0; s < STREAMS; s++) {
		const struct fws_stream_result *x = &res->streams[s];
		bool ok = ways[s].completes;

		snprintf(what, sizeof(what), "%s: every frame reached the fixture", names[s]);
		expect(what, fx->packets[s], x->rx.tx);
		snprintf(what, sizeof(what), "%s: received once each%s", names[s],
			 ok ? "" : " (none: lost)");
		expect(what, x->rx.unique, ok ? x->rx.tx : 0);
		expect("  ... and none twice", x->rx.dup, 0);
		snprintf(what, sizeof(what), "%s: counted as reassembled", names[s]);
		expect(what, frag(res, s, "reassembled"), ok && ways[s].pieces > 1 ? x->rx.tx : 0);
		snprintf(what, sizeof(what), "%s: given up with its first fragment", names[s]);
		expect(what, frag(res, s, "reassembly_given_up"), ok ? 0 : x->rx.tx);
		expect("  ... none refused", frag(res, s, "reassembly_refused"), 0);
		if (ways[s].pieces > 1)
			want_frags += fx->pieces[s];
		if (!ok) /* every piece of a packet that never completes is given up */
			want_dropped += fx->pieces[s];
		if (ways[s].twice) /* and a piece again after its packet completed */
			want_dropped += fx->packets[s];
	}
	expect("fragments counted at wan: every piece sent", res->ports[1].rx.fragments,
	       want_frags);
	expect("pieces given up: of packets never completed, and late copies",
	       res->ports[1].rx.frag_dropped, want_dropped);
	expect("packets reassembled at wan", res->ports[1].rx.reassembled,
	       res->streams[0].rx.tx + res->streams[1].rx.tx + res->streams[2].rx.tx);
	expect("sent > 700 per stream", res->streams[0].rx.tx > 700, 1);
}

/* The table full: what it refused is told apart. Cut in order (first piece first), a packet
 * is lost only when its first piece was refused; reversed, it is given up either way. */
static void
check_full(const struct fws_result *res)
{
	const struct fws_stream_result *x;
	uint64_t refused = 0;
	char what[128];
	int s;

	for (s = 0; s < STREAMS; s++)
		refused += frag(res, s, "reassembly_refused");
	expect("table full: fragments refused at wan (some)", res->ports[1].rx.frag_refused > 0, 1);
	expect("  ... the first ones counted on their streams, no more than refused",
	       refused > 0 && refused <= res->ports[1].rx.frag_refused, 1);
	for (s = 0; s < 3; s++) {
		x = &res->streams[s];
		snprintf(what, sizeof(what), "table full: %s: every lost packet given up",
			 names[s]);
		expect(what, frag(res, s, "reassembly_given_up"), x->rx.lost);
		if (s == 1)
			continue;
		snprintf(what, sizeof(what), "table full: %s: every lost packet refused", names[s]);
		expect(what, frag(res, s, "reassembly_refused"), x->rx.lost);
	}
	expect("table full: the first stream lost some", res->streams[0].rx.lost > 0, 1);
	expect("table full: not fragmented: none lost", res->streams[6].rx.lost, 0);
}

/* The reports say it: JSON per stream, and the text's TESTER-LIMITED line. */
static void
check_report(const struct fws_cfg *cfg, struct fws_result *res)
{
	struct fws_run run = {
		.cfg = cfg, .status = FWS_RUN_COMPLETED, .n_results = 1, .results = res};
	json_t *j = fws_report_json(&run), *rx;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	rx = json_object_get(
		json_array_get(
			json_object_get(json_array_get(json_object_get(j, "trials"), 0), "streams"),
			0),
		"received");
	expect("report: the first stream's reassembly_refused: its lost packets",
	       (uint64_t)json_integer_value(json_object_get(rx, "reassembly_refused")),
	       res->streams[0].rx.lost);
	expect("report: and its reassembly_given_up",
	       (uint64_t)json_integer_value(json_object_get(rx, "reassembly_given_up")),
	       res->streams[0].rx.lost);
	fws_report_text(f, &run);
	fclose(f);
	expect("report: the text says the table refused them (TESTER-LIMITED)",
	       text && strstr(text, "fragmented: order: TESTER-LIMITED: ") != NULL, 1);
	free(text);
	json_decref(j);
}

int
main(int argc, char **argv)
{
	struct fws_trial_opts slow = {.rate_scale = 0.25};
	struct fixture_env e;
	static struct fixture fx;
	struct fws_result res;
	struct fws_err fe = {0};
	int rc;

	(void)argc;
	if ((rc = fixture_setup(argv[0], cfg_json, "ringpair:fa:b", "ringpair:fb:b", &e)) != 0)
		return rc;
	fx.in = e.in.port_id;
	fx.out = e.out.port_id;
	fx.pool = rte_pktmbuf_pool_create("frag_fixture", 65535, 256, 0, 2048 + 128,
					  (int)rte_socket_id());
	if (fx.pool == NULL) {
		fprintf(stderr, "fixture: no pool\n");
		return 1;
	}
	rte_eal_remote_launch(fixture_main, &fx, FIXTURE_LCORE);
	if (fws_trial_run(e.t, 0, &slow, &res, &fe) < 0) {
		fprintf(stderr, "%s\n", fe.msg);
		return 1;
	}
	check_exact(&fx, &res);
	fws_result_free(&res);
	if (fws_trial_run(e.t, 0, NULL, &res, &fe) < 0) {
		fprintf(stderr, "%s\n", fe.msg);
		return 1;
	}
	fx.quit = 1;
	rte_eal_wait_lcore(FIXTURE_LCORE);
	check_full(&res);
	check_report(e.cfg, &res);
	fws_result_free(&res);
	fixture_teardown(&e);
	return fixture_done();
}
