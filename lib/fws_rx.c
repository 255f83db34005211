/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "fws_pkt.h"
#include "fws_rx.h"
#include "fws_sig.h"

void
fws_rx_reset(struct fws_rx_lcore *c)
{
	unsigned int s;

	memset(c->port, 0, sizeof(c->port));
	c->live_frames = 0;
	c->live_bytes = 0;
	for (s = 0; s < c->nb_streams; s++) {
		struct fws_rx_stream *st = &c->streams[s];

		memset(st->flows, 0, sizeof(*st->flows) * st->nb_flows);
		fws_hist_reset(st->hist);
		st->jitter16 = 0;
		st->last_lat = 0;
		st->have_last = false;
	}
}

static void
retire(struct fws_rx_lcore *c, uint32_t cookie)
{
	if (c->nb_old < FWS_RX_OLD_COOKIES)
		c->nb_old++;
	memmove(&c->old[1], &c->old[0], (c->nb_old - 1) * sizeof(c->old[0]));
	c->old[0] = cookie;
}

void
fws_rx_retire_cookies(struct fws_rx_lcore *c)
{
	retire(c, c->warm_cookie);
	retire(c, c->cookie);
}

/* A signature whose check failed for the current cookie: warm-up, stale, or damaged. */
static void
classify_other(struct fws_rx_lcore *c, struct fws_rx_counters *pc, const uint8_t *sig)
{
	unsigned int i;

	if (fws_sig_matches(sig, c->warm_cookie)) {
		pc->warmup_rx++;
		return;
	}
	for (i = 0; i < c->nb_old; i++) {
		if (fws_sig_matches(sig, c->old[i])) {
			pc->stale_frames++;
			return;
		}
	}
	pc->bad_signature++;
}

static inline void
account(struct fws_rx_lcore *c, uint8_t port_idx, const uint8_t *p, uint32_t len,
	uint32_t wire_len, uint64_t now, uint32_t ts_now, uint64_t *frames, uint64_t *bytes)
{
	struct fws_rx_counters *pc = &c->port[port_idx];
	struct fws_pkt_view v;
	struct fws_rx_stream *st;
	struct fws_sig s;
	uint64_t lat, d;
	int32_t units;

	pc->rx_frames++;
	switch (fws_pkt_parse(p, len, &v)) {
	case FWS_PKT_UDP:
		break;
	case FWS_PKT_OTHER:
		pc->non_test++;
		return;
	case FWS_PKT_FRAGMENT:
		pc->fragments++;
		return;
	case FWS_PKT_TRUNCATED:
		pc->truncated++;
		return;
	}
	switch (fws_sig_parse(v.payload, v.payload_len, c->cookie, &s)) {
	case FWS_SIG_OK:
		break;
	case FWS_SIG_NONE:
		pc->non_test++;
		return;
	case FWS_SIG_BADCHECK:
		classify_other(c, pc, v.payload);
		return;
	}
	if (unlikely(s.stream >= c->nb_streams || s.flow >= c->streams[s.stream].nb_flows)) {
		pc->bad_stream++;
		return;
	}
	st = &c->streams[s.stream];
	if (unlikely(st->rx_port != port_idx)) {
		pc->wrong_port++;
		return;
	}
	pc->test_frames++;
	fws_rxstat_update(&st->flows[s.flow], s.seq, wire_len, now);
	units = (int32_t)(ts_now - s.ts);
	if (unlikely(units < 0)) {
		pc->clock_skew++;
		units = 0;
	}
	lat = (uint64_t)(((unsigned __int128)(uint32_t)units * c->ns_mult) >> 32);
	fws_hist_add(st->hist, lat);
	/* RFC 3550 6.4.1: J += (|D| - J) / 16, kept x16 as in its appendix A.8. */
	if (st->have_last) {
		d = lat > st->last_lat ? lat - st->last_lat : st->last_lat - lat;
		st->jitter16 += d - ((st->jitter16 + 8) >> 4);
	}
	st->last_lat = lat;
	st->have_last = true;
	(*frames)++;
	*bytes += wire_len;
}

void
fws_rx_frame(struct fws_rx_lcore *c, uint8_t port_idx, const uint8_t *p, uint32_t len,
	     uint32_t wire_len, uint64_t now)
{
	uint64_t frames = 0, bytes = 0;

	account(c, port_idx, p, len, wire_len, now, (uint32_t)(now >> FWS_SIG_TS_SHIFT), &frames,
		&bytes);
	c->live_frames += frames;
	c->live_bytes += bytes;
}

unsigned int
fws_rx_poll(struct fws_rx_lcore *c, const struct fws_rx_queue *q)
{
	struct rte_mbuf *m[FWS_RX_BURST];
	uint64_t now, frames = 0, bytes = 0;
	uint32_t ts_now;
	uint16_t n, i;

	n = rte_eth_rx_burst(q->port_id, q->queue, m, FWS_RX_BURST);
	if (n == 0)
		return 0;
	now = rte_rdtsc();
	ts_now = (uint32_t)(now >> FWS_SIG_TS_SHIFT);
	for (i = 0; i < n && i < 4; i++)
		rte_prefetch0(rte_pktmbuf_mtod(m[i], void *));
	for (i = 0; i < n; i++) {
		if (i + 4 < n)
			rte_prefetch0(rte_pktmbuf_mtod(m[i + 4], void *));
		account(c, q->port_idx, rte_pktmbuf_mtod(m[i], const uint8_t *), m[i]->data_len,
			m[i]->pkt_len + RTE_ETHER_CRC_LEN, now, ts_now, &frames, &bytes);
	}
	rte_pktmbuf_free_bulk(m, n);
	__atomic_store_n(&c->live_frames, c->live_frames + frames, __ATOMIC_RELAXED);
	__atomic_store_n(&c->live_bytes, c->live_bytes + bytes, __ATOMIC_RELAXED);
	return n;
}
