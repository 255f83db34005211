/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Receive classification and accounting through fws_rx_burst, the function the worker
 * calls, fed mbufs built on the heap (no EAL, no port, no pool: fws_rx_burst frees nothing).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_ring.h>

#include "fws_pkt.h"
#include "fws_rx.h"
#include "unit.h"

#define FLOWS 16
#define COOKIE 0x11111111u
#define WARM 0x22222222u

static struct fws_rx_lcore *c;
static uint8_t tmpl[2048], frame[2048];
static struct fws_pkt_size sz;
static struct fws_pkt_flow flows[FLOWS + 1];

#define BURST_MAX 64
static uint8_t bufs[BURST_MAX][2048];
static struct rte_mbuf mbufs[BURST_MAX];
static struct rte_mbuf *burst_m[BURST_MAX];
static unsigned int burst_n;

/* Queue a frame into the pending burst (a heap mbuf over its own buffer). */
static void
queue_frame(const uint8_t *p, uint32_t len)
{
	struct rte_mbuf *m = &mbufs[burst_n];

	memset(m, 0, sizeof(*m));
	memcpy(bufs[burst_n], p, len);
	m->buf_addr = bufs[burst_n];
	m->buf_len = sizeof(bufs[0]);
	m->data_off = 0;
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	m->nb_segs = 1;
	burst_m[burst_n++] = m;
}

/* Hand the pending burst to fws_rx_burst on port's queue; returns what it left to free. */
static uint16_t
deliver(uint8_t port, uint64_t now)
{
	struct fws_rx_queue q = {.port_id = port, .queue = 0, .port_idx = port};
	uint16_t left = fws_rx_burst(c, &q, burst_m, (uint16_t)burst_n, now);

	burst_n = 0;
	return left;
}

/* One frame as a burst of its own. */
static void
rx_one(uint8_t port, const uint8_t *p, uint32_t len, uint64_t now)
{
	queue_frame(p, len);
	ck_assert_uint_eq(deliver(port, now), 1);
}

static void
setup(void)
{
	struct fws_pkt_hdr h = {.stream = 0};
	struct fws_flow_tuple t = {
		.src_ip = 0xc6120101, .dst_ip = 0xc6130101, .src_port = 1, .dst_port = 2};
	unsigned int i;

	c = aligned_alloc(64, sizeof(*c));
	memset(c, 0, sizeof(*c));
	c->nb_streams = 1;
	c->streams[0].nb_flows = FLOWS;
	c->streams[0].rx_port = 0;
	c->streams[0].flows = aligned_alloc(64, sizeof(struct fws_rxflow) * FLOWS);
	c->streams[0].hist = malloc(sizeof(struct fws_hist));
	c->ns_mult = 1ull << 32; /* 1 ns per timestamp unit */
	c->ns_per_unit = 1;
	fws_rx_reset(c);
	c->cookie = COOKIE;
	c->warm_cookie = WARM;
	fws_pkt_template(tmpl, sizeof(tmpl), &h);
	fws_pkt_size_init(&sz, tmpl, &h, 64);
	for (i = 0; i <= FLOWS; i++) {
		t.src_ip++;
		fws_pkt_flow_init(&flows[i], &h, &t, i);
	}
}

static void
teardown(void)
{
	free(c->ring[0].base);
	free(c->streams[0].flows);
	free(c->streams[0].hist);
	free(c);
}

/* Build the test frame of stream/flow/seq stamped at ts into frame. */
static void
build(uint8_t stream, uint32_t flow, uint32_t cookie, uint32_t seq, uint32_t ts)
{
	uint32_t w0 = fws_sig_word0(stream);

	memcpy(frame, tmpl, sizeof(frame));
	memcpy(frame + FWS_PKT_SIG_OFF, &w0, 4);
	fws_pkt_fill(frame + FWS_PKT_L3_OFF, &sz, &flows[flow], fws_sig_word0(stream), cookie, seq,
		     ts, fws_pkt_halves(ts), false, false);
}

/* Feed one frame of stream/flow/seq stamped at ts, arriving at unit time now_units. */
static void
feed(uint8_t port, uint8_t stream, uint32_t flow, uint32_t cookie, uint32_t seq, uint32_t ts,
     uint32_t now_units)
{
	build(stream, flow, cookie, seq, ts);
	rx_one(port, frame, sz.data_len, (uint64_t)now_units << FWS_SIG_TS_SHIFT);
}

START_TEST(test_rx_classify)
{
	const struct fws_rx_counters *pc = &c->port[0];

	feed(0, 0, 3, COOKIE, 0, 100, 150);
	feed(0, 0, 3, COOKIE, 1, 100, 150);
	ck_assert_uint_eq(pc->test_frames, 2);
	ck_assert_uint_eq(c->streams[0].flows[3].rx, 2);
	feed(0, 0, 3, WARM, 7, 100, 150);
	ck_assert_uint_eq(pc->warmup_rx, 1);
	feed(0, 0, 3, 0x33333333, 7, 100, 150);
	ck_assert_uint_eq(pc->bad_signature, 1);
	/* After the trial its cookies are stale; a new trial's frames count. */
	fws_rx_retire_cookies(c);
	c->cookie = 0x44444444;
	c->warm_cookie = 0x55555555;
	feed(0, 0, 3, COOKIE, 2, 100, 150);
	feed(0, 0, 3, WARM, 2, 100, 150);
	ck_assert_uint_eq(pc->stale_frames, 2);
	feed(0, 5, 3, 0x44444444, 0, 100, 150);     /* no stream 5 */
	feed(0, 0, FLOWS, 0x44444444, 0, 100, 150); /* no such flow */
	ck_assert_uint_eq(pc->bad_stream, 2);
	feed(1, 0, 3, 0x44444444, 0, 100, 150); /* stream 0 belongs on port 0 */
	ck_assert_uint_eq(c->port[1].wrong_port, 1);
	feed(0, 0, 4, 0x44444444, 0, 200, 150); /* stamped in the future */
	ck_assert_uint_eq(pc->clock_skew, 1);
	feed(0, 0, 4, 0x44444444, 1, 180, 150); /* less so: the stream keeps the deepest */
	ck_assert_uint_eq(pc->clock_skew, 2);
	ck_assert_uint_eq(c->skewed[0], 2);
	ck_assert_uint_eq(c->skew_max[0], 50);
	/* Truncated and foreign frames. */
	rx_one(0, frame, 30, 0);
	ck_assert_uint_eq(pc->truncated, 1);
	frame[12] = 0x88;
	frame[13] = 0xcc; /* LLDP */
	rx_one(0, frame, 60, 0);
	ck_assert_uint_eq(pc->non_test, 1);
	frame[12] = 0x08;
	frame[13] = 0x06;        /* ARP: for the control plane */
	rx_one(0, frame, 60, 0); /* no control ring here: counted as dropped, left to free */
	ck_assert_uint_eq(pc->control_drop, 1);
	ck_assert_uint_eq(pc->rx_frames, 13);
	ck_assert_uint_eq(pc->test_frames, 4);
	ck_assert_uint_eq(c->live_frames, 4); /* none of the wrong port's */
	fws_rx_flush(c);
	ck_assert_uint_eq(c->streams[0].hist->count, 4);
	ck_assert_uint_eq(c->streams[0].hist->min, 0);
	ck_assert_uint_eq(c->streams[0].hist->max, 50);
}
END_TEST

/* Latencies arrive in runs; jitter must equal RFC 3550's frame-by-frame formula. */
START_TEST(test_rx_jitter_runs)
{
	static const uint32_t lat[] = {100,  100,  100,  140,  140,  90,   90,   90,
				       90,   90,   90,   3000, 3000, 3000, 3000, 3000,
				       3000, 3000, 3000, 100,  100,  100,  100,  100,
				       100,  100,  100,  100,  100,  100,  100,  120};
	uint64_t ref = 0, last = 0, sum = 0;
	unsigned int i;

	for (i = 0; i < sizeof(lat) / sizeof(lat[0]); i++) {
		feed(0, 0, i % FLOWS, COOKIE, i / FLOWS, 1000, 1000 + lat[i]);
		if (i) {
			uint64_t d = lat[i] > last ? lat[i] - last : last - lat[i];

			ref += d - ((ref + 8) >> 4);
		}
		last = lat[i];
		sum += lat[i];
		if (i == 10)
			fws_rx_flush(c); /* a poll boundary inside a run changes nothing */
	}
	fws_rx_flush(c);
	ck_assert_uint_eq(c->streams[0].jitter16, ref);
	ck_assert_uint_eq(c->streams[0].hist->count, sizeof(lat) / sizeof(lat[0]));
	ck_assert_uint_eq(c->streams[0].hist->sum, sum);
	ck_assert_uint_eq(c->streams[0].hist->max, 3000);
}
END_TEST

/* One burst of many frames: the same counts in one pass and in two (prefetch) passes. */
static void
mixed_burst(void)
{
	unsigned int i;

	for (i = 0; i < 40; i++) {
		build(0, i % FLOWS, COOKIE, i / FLOWS, 100);
		queue_frame(frame, sz.data_len);
	}
	build(0, 2, WARM, 0, 100);
	queue_frame(frame, sz.data_len);
	build(0, 2, COOKIE, 0, 100); /* a duplicate of flow 2's first frame */
	queue_frame(frame, sz.data_len);
	ck_assert_uint_eq(deliver(0, 130ull << FWS_SIG_TS_SHIFT), 42);
	ck_assert_uint_eq(c->port[0].rx_frames, 42);
	ck_assert_uint_eq(c->port[0].test_frames, 41);
	ck_assert_uint_eq(c->port[0].warmup_rx, 1);
	ck_assert_uint_eq(c->streams[0].flows[2].rx, 4);
	ck_assert_uint_eq(c->streams[0].flows[2].dup, 1);
	ck_assert_uint_eq(c->streams[0].flows[9].rx, 2);
	ck_assert_uint_eq(c->streams[0].hist->count, 41);
	ck_assert_uint_eq(c->streams[0].hist->max, 30);
	ck_assert_uint_eq(c->live_frames, 41);
}

/*
 * The NIC's receive stamps (a queue with a clock map, RX timestamp offload): each frame's
 * latency from its own stamp on the TSC, not from the poll's; a frame without the stamp flag
 * takes the poll's time. The NIC's clock here: ns, 1000 ns before the TSC's unit 0 scaled
 * by 2 (2 TSC ticks per ns), so NIC time x is TSC 2 (x - 1000).
 */
START_TEST(test_rx_nic_stamps)
{
	static struct fws_nicclock_pub pub;
	const uint32_t shift = 1u << FWS_SIG_TS_SHIFT; /* TSC ticks per timestamp unit */
	struct fws_rx_queue q = {.port_id = 0, .queue = 0, .port_idx = 0, .nc = &pub};
	struct fws_nicclock map;
	unsigned int i;

	ck_assert(fws_nicclock_init(&map, 1000, 0, 2.0));
	fws_nicclock_publish(&pub, &map);
	/* 8-byte aligned, as DPDK registers the timestamp field. */
	c->stamp_off = (int)RTE_ALIGN_CEIL(offsetof(struct rte_mbuf, dynfield1), 8);
	c->stamp_flag = 1ull << 47;
	/* Four frames sent at unit 100: the NIC saw them arrive 10, 20, 30 and 40 units later;
	 * the fifth has no stamp. The poll is at unit 5000. */
	for (i = 0; i < 5; i++) {
		uint64_t tsc = (uint64_t)(100 + 10 * (i + 1)) * shift;

		build(0, i, COOKIE, 0, 100);
		queue_frame(frame, sz.data_len);
		if (i < 4) {
			mbufs[i].ol_flags |= c->stamp_flag;
			*RTE_MBUF_DYNFIELD(&mbufs[i], c->stamp_off, uint64_t *) = 1000 + tsc / 2;
		}
	}
	ck_assert_uint_eq(fws_rx_burst(c, &q, burst_m, (uint16_t)burst_n, 5000ull * shift), 5);
	burst_n = 0;
	fws_rx_flush(c);
	ck_assert_uint_eq(c->port[0].test_frames, 5);
	ck_assert_uint_eq(c->port[0].nic_stamped, 4);
	ck_assert_uint_eq(c->streams[0].hist->count, 5);
	ck_assert_uint_eq(c->streams[0].hist->min, 10);
	ck_assert_uint_eq(c->streams[0].hist->sum, 10 + 20 + 30 + 40 + 4900);
	ck_assert_uint_eq(c->port[0].clock_skew, 0);
}
END_TEST

START_TEST(test_rx_burst_one_pass)
{
	c->two_pass = false;
	mixed_burst();
}
END_TEST

START_TEST(test_rx_burst_two_pass)
{
	c->two_pass = true;
	mixed_burst();
}
END_TEST

/* Control frames go to the main lcore's ring and leave the burst; the rest stay to free. */
START_TEST(test_rx_control_ring)
{
	size_t sz_ring = rte_ring_get_memsize(4);
	struct rte_ring *r = aligned_alloc(64, (sz_ring + 63) / 64 * 64);
	struct rte_mbuf *got[8];
	unsigned int i;

	ck_assert_int_eq(rte_ring_init(r, "test_ctl", 4, RING_F_SP_ENQ | RING_F_SC_DEQ), 0);
	c->ctl = r;
	for (i = 0; i < 6; i++) {
		build(0, 1, COOKIE, i, 100);
		frame[12] = 0x08;
		frame[13] = i < 5 ? 0x06 : 0x00; /* five ARP frames, one IPv4 test frame */
		queue_frame(frame, 60);
	}
	/* The ring holds 3 (a ring of 4 keeps one slot free): 3 taken, 2 dropped, 1 test. */
	ck_assert_uint_eq(deliver(0, 0), 3);
	ck_assert_uint_eq(c->port[0].control, 3);
	ck_assert_uint_eq(c->port[0].control_drop, 2);
	ck_assert_uint_eq(c->port[0].rx_frames, 6);
	ck_assert_uint_eq(rte_ring_dequeue_burst(r, (void **)got, 8, NULL), 3);
	ck_assert_ptr_eq(got[0], &mbufs[0]);
	/* Left to free: the test frame, then the two control frames the ring refused. */
	ck_assert_ptr_eq(burst_m[0], &mbufs[5]);
	ck_assert_ptr_eq(burst_m[1], &mbufs[3]);
	ck_assert_ptr_eq(burst_m[2], &mbufs[4]);
	c->ctl = NULL;
	free(r);
}
END_TEST

/* A duplicate 200 frames late: with rings of 1024 it is a duplicate, never distinct; with
 * the cache line's 64 it is late, never distinct either. */
START_TEST(test_rx_late_duplicate)
{
	unsigned int w;

	for (w = 64; w <= 1024; w *= 16) {
		const struct fws_rxflow *f = &c->streams[0].flows[5];
		uint32_t seq;

		free(c->ring[0].base);
		c->ring[0] = (struct fws_rxring){.base = w > 64 ? malloc(FLOWS * w / 8) : NULL,
						 .flows = c->streams[0].flows,
						 .wmask = w - 1,
						 .shift = w > 64 ? 4 : 0};
		c->rings = w > 64;
		fws_rx_reset(c);
		for (seq = 0; seq < 300; seq++)
			feed(0, 0, 5, COOKIE, seq, 100, 150);
		feed(0, 0, 5, COOKIE, 90, 100, 150);
		ck_assert_uint_eq(f->rx, 301);
		ck_assert_uint_eq(fws_rxstat_unique(f), 300);
		ck_assert_uint_eq(f->dup, w > 64 ? 1 : 0);
		ck_assert_uint_eq(f->late, w > 64 ? 0 : 1);
		ck_assert_uint_eq(f->bytes, 300 * 64);
	}
}
END_TEST

static Suite *
suite_rx(void)
{
	Suite *s = suite_create("rx");
	TCase *tc = tcase_create("classify");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_rx_classify);
	tcase_add_test(tc, test_rx_jitter_runs);
	tcase_add_test(tc, test_rx_nic_stamps);
	tcase_add_test(tc, test_rx_burst_one_pass);
	tcase_add_test(tc, test_rx_burst_two_pass);
	tcase_add_test(tc, test_rx_control_ring);
	tcase_add_test(tc, test_rx_late_duplicate);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_rx)
