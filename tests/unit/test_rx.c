/* SPDX-License-Identifier: BSD-3-Clause */
/* Receive classification and accounting, fed frames directly (no EAL, no port). */
#include <stdlib.h>
#include <string.h>

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
	free(c->streams[0].flows);
	free(c->streams[0].hist);
	free(c);
}

/* Feed one frame of stream/flow/seq stamped at ts, arriving at unit time now_units. */
static void
feed(uint8_t port, uint8_t stream, uint32_t flow, uint32_t cookie, uint32_t seq, uint32_t ts,
     uint32_t now_units)
{
	uint32_t w0 = fws_sig_word0(stream);

	memcpy(frame, tmpl, sizeof(frame));
	memcpy(frame + FWS_PKT_SIG_OFF, &w0, 4);
	fws_pkt_fill(frame + FWS_PKT_L3_OFF, &sz, &flows[flow], fws_sig_word0(stream), cookie, seq,
		     ts, fws_pkt_halves(ts), false, false);
	fws_rx_frame(c, port, frame, sz.data_len, sz.frame,
		     (uint64_t)now_units << FWS_SIG_TS_SHIFT);
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
	/* Truncated and foreign frames. */
	fws_rx_frame(c, 0, frame, 30, 34, 0);
	ck_assert_uint_eq(pc->truncated, 1);
	frame[12] = 0x88;
	frame[13] = 0xcc; /* LLDP */
	fws_rx_frame(c, 0, frame, 60, 64, 0);
	ck_assert_uint_eq(pc->non_test, 1);
	frame[12] = 0x08;
	frame[13] = 0x06; /* ARP: for the control plane */
	fws_rx_frame(c, 0, frame, 60, 64, 0);
	ck_assert_uint_eq(pc->control, 1);
	ck_assert_uint_eq(pc->rx_frames, 12);
	ck_assert_uint_eq(pc->test_frames, 3);
	ck_assert_uint_eq(c->live_frames, 3); /* none of the wrong port's */
	fws_rx_flush(c);
	ck_assert_uint_eq(c->streams[0].hist->count, 3);
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

static Suite *
suite_rx(void)
{
	Suite *s = suite_create("rx");
	TCase *tc = tcase_create("classify");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_rx_classify);
	tcase_add_test(tc, test_rx_jitter_runs);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_rx)
