/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "fws_tx.h"

struct tmpl_arg {
	const uint8_t *tmpl;
	uint32_t room;
	bool hw_cksum;
	bool ipv6;
	bool tcp;
	uint16_t l3;
};

static void
fill_mbuf(struct rte_mempool *mp, void *arg, void *obj, unsigned int idx)
{
	const struct tmpl_arg *a = arg;
	struct rte_mbuf *m = obj;

	RTE_SET_USED(mp);
	RTE_SET_USED(idx);
	memcpy(rte_pktmbuf_mtod(m, uint8_t *), a->tmpl, a->room);
	if (a->hw_cksum) {
		/* Constant per stream; rte_pktmbuf_free does not clear them. The L4 flag
		 * names the stream's protocol: the NIC writes the checksum at its offset. */
		uint64_t l4 = a->tcp ? RTE_MBUF_F_TX_TCP_CKSUM : RTE_MBUF_F_TX_UDP_CKSUM;

		m->ol_flags = a->ipv6 ? RTE_MBUF_F_TX_IPV6 | l4
				      : RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | l4;
		m->l2_len = a->l3;
		m->l3_len = a->ipv6 ? FWS_PKT_IPV6_LEN : FWS_PKT_IPV4_LEN;
	}
}

int
fws_tx_task_init(struct fws_tx_task *t, const char *pool_name, unsigned int n_mbufs,
		 uint16_t max_frame, int socket, const struct fws_pkt_hdr *hdr)
{
	uint32_t room = RTE_MAX((uint32_t)max_frame, 2048u);
	struct fws_pkt_layout l;
	struct tmpl_arg a;

	t->tmpl = rte_zmalloc_socket("fws_tmpl", room, RTE_CACHE_LINE_SIZE, socket);
	if (t->tmpl == NULL)
		return -ENOMEM;
	t->tmpl_room = room;
	fws_pkt_template(t->tmpl, room, hdr);
	t->w0 = fws_sig_word0(hdr->stream);
	t->stream = hdr->stream;
	t->hdr = *hdr;
	t->min_frame = hdr->payload_len ? (uint16_t)(fws_pkt_min_frame(hdr->vlan != 0, hdr->ipv6) +
						     hdr->payload_len)
					: 0;
	fws_pkt_layout(hdr, &l);
	t->l3 = l.l3;
	t->ipv6 = hdr->ipv6;
	t->pool = rte_mempool_lookup(pool_name);
	if (t->pool == NULL)
		t->pool = rte_pktmbuf_pool_create(pool_name, n_mbufs, 256, 0,
						  (uint16_t)(room + RTE_PKTMBUF_HEADROOM), socket);
	if (t->pool == NULL)
		return -rte_errno;
	a.tmpl = t->tmpl;
	a.room = room;
	a.hw_cksum = t->hw_cksum;
	a.ipv6 = t->ipv6;
	a.tcp = hdr->tcp;
	a.l3 = t->l3;
	rte_mempool_obj_iter(t->pool, fill_mbuf, &a);
	return 0;
}

int
fws_tx_task_sizes(struct fws_tx_task *t, const struct fws_size_mix *mix)
{
	uint16_t seq[FWS_SIZE_MAX_SEQ];
	int n, i;

	n = fws_size_sequence(mix, seq, FWS_SIZE_MAX_SEQ);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		seq[i] = RTE_MAX(seq[i], t->min_frame); /* the payload always fits whole */
		if (seq[i] > t->tmpl_room + FWS_PKT_FCS)
			return -EINVAL;
		fws_pkt_size_init(&t->pattern[i], t->tmpl, &t->hdr, seq[i]);
	}
	t->pat_len = (uint16_t)n;
	t->pat_cur = 0;
	return 0;
}

/* Serialization time of each pattern entry at the wire model's speed (preamble and gap
 * included): 64-byte frames at 10 Gbit/s take 67.2 ns. */
static void
wire_times(struct fws_tx_task *t, uint64_t hz)
{
	uint32_t i;

	t->wire = t->wire_mbps != 0;
	for (i = 0; i < t->pat_len; i++) {
		double bits = (double)(t->pattern[i].frame + FWS_RATE_L1_OVERHEAD) * 8.0;

		t->wire_fp[i] =
			t->wire ? (uint64_t)(bits * (double)hz * 65536.0 / (t->wire_mbps * 1e6) +
					     0.5)
				: 0;
	}
}

void
fws_tx_task_lead_reset(struct fws_tx_task *t)
{
	t->lead_fp = UINT32_MAX;
	t->lead_min = UINT32_MAX;
	t->lead_n = 0;
}

/* Called at the warm-up's start and again at the measured phase's: the build time learnt in
 * the warm-up is kept (restarting it made the measured phase's first stamps follow a single
 * sample, which could be slow, and stamp frames after their own hand-over). */
void
fws_tx_task_start(struct fws_tx_task *t, uint32_t cookie, uint64_t now, uint64_t hz)
{
	uint32_t i;

	wire_times(t, hz);
	t->lag_sum = 0;
	t->lag_min = INT64_MAX;
	t->lag_max = INT64_MIN;
	t->lag_bursts = 0;
	t->lag_late = 0;

	t->cookie = cookie;
	for (i = 0; i < t->nb_flows; i++)
		t->flows[i].seq = 0;
	t->cur_flow = 0;
	t->pat_cur = 0;
	fws_pacer_init(&t->pacer, t->pps, hz, now);
	t->t_first = now;
	t->t_stop = now;
}

/*
 * What a sampled burst of n frames teaches the stamps' lead: build is the time from its start
 * to the end of building, span to the end of its hand-over (TSC ticks). The lead is the
 * fastest build per frame of a full burst so far, added once FWS_TX_LEAD_SAMPLES were taken
 * (one sample may be slow: an interrupt in the build). Only full bursts teach it: a burst
 * costs a fixed part plus a part per frame, so the per-frame cost of the largest burst, times
 * n, never exceeds the build of a burst of n <= t->burst frames (a lead learnt from small
 * paced bursts stamped the rare large catch-up burst after its own hand-over). Builds of full
 * bursts still vary by a fifth (caches, the pool), and a paced stream has few full bursts to
 * learn from, so the stamps add three quarters of that fastest build: they may be early by a
 * quarter of the build time (the report gives it), they must not be late. A burst whose
 * hand-over ended before its stamp anyway (a small paced burst of a few hot mbufs can be
 * faster per frame than any full one, and a virtual CPU's speed moves with its host's load)
 * lowers the lead at once to three quarters of that burst's whole span per frame.
 */
void
fws_tx_lead_learn(struct fws_tx_task *t, uint32_t n, uint64_t build, uint64_t span)
{
	if (n == t->burst) {
		uint64_t fp = (build << 8) / n;

		if (fp < t->lead_min)
			t->lead_min = (uint32_t)fp;
		t->lead_n++;
	}
	if (t->lead_fp != UINT32_MAX && span < (((uint64_t)t->lead_fp * n) >> 8))
		t->lead_min = RTE_MIN(t->lead_min, (uint32_t)((span << 8) / n));
	if (t->lead_n >= FWS_TX_LEAD_SAMPLES)
		t->lead_fp = t->lead_min - t->lead_min / 4;
}

/* After a sampled burst: the lead learnt, and in the measured phase the signed lag from this
 * burst's stamp to the end of its hand-over. */
static void
stamp_account(struct fws_tx_task *t, uint32_t n, uint64_t t0, uint64_t stamp, uint64_t tb,
	      bool measured)
{
	uint64_t t1 = rte_rdtsc();
	int64_t lag = (int64_t)(t1 - stamp);

	fws_tx_lead_learn(t, n, tb - t0, t1 - t0);
	if (!measured)
		return;
	t->lag_sum += lag;
	t->lag_min = RTE_MIN(t->lag_min, lag);
	t->lag_max = RTE_MAX(t->lag_max, lag);
	t->lag_late += lag < 0;
	t->lag_bursts++;
}

/* Always inlined: each of the four callers gets a loop that knows its family and model. */
static __rte_always_inline unsigned int
burst(struct fws_tx_task *t, uint64_t now, bool measured, const bool ipv6, const bool wire)
{
	struct rte_mbuf *m[FWS_TX_MAX_BURST];
	uint32_t n, i, sent, f = t->cur_flow, ts, ts_sum;
	uint16_t pi = t->pat_cur;
	uint64_t bytes = 0, tb = 0, stamp, sig, off = 0;
	const bool sample = (++t->bursts & (FWS_TX_STAMP_SAMPLE - 1)) == 0;
	/* The task's fields the frame loop reads, in locals: the frames' stores go through
	 * byte pointers, which may alias the task, and each would reload them. */
	const struct fws_pkt_size *pat = t->pattern;
	struct fws_pkt_flow *flows = t->flows;
	const uint32_t nb_flows = t->nb_flows, w0 = t->w0, cookie = t->cookie;
	const uint16_t pat_len = t->pat_len, l3 = t->l3;
	const bool hw_cksum = t->hw_cksum;

	n = fws_pacer_due(&t->pacer, now, t->burst);
	if (unlikely(t->limit) && measured) {
		uint64_t left = t->limit - t->cnt.tx_frames;

		n = left < n ? (uint32_t)left : n;
	}
	if (n == 0)
		return 0;
	if (unlikely(rte_mempool_get_bulk(t->pool, (void **)m, n) != 0)) {
		t->cnt.alloc_fail++;
		return 0;
	}
	stamp = now + (t->lead_fp == UINT32_MAX ? 0 : ((uint64_t)t->lead_fp * n) >> 8);
	sig = unlikely(t->clk_on) ? fws_affine_apply(&t->clk, stamp) : stamp;
	ts = (uint32_t)(sig >> FWS_SIG_TS_SHIFT);
	ts_sum = fws_pkt_halves(ts);
	for (i = 0; i < n; i++) {
		const struct fws_pkt_size *sz = &pat[pi];
		struct fws_pkt_flow *fl = &flows[f];

		if (wire) {
			ts = (uint32_t)((sig + (off >> 16)) >> FWS_SIG_TS_SHIFT);
			ts_sum = fws_pkt_halves(ts);
			off += t->wire_fp[pi];
		}
		m[i]->data_len = sz->data_len;
		m[i]->pkt_len = sz->data_len;
		fws_pkt_fill(rte_pktmbuf_mtod_offset(m[i], uint8_t *, l3), sz, fl, w0, cookie,
			     (uint32_t)fl->seq, ts, ts_sum, hw_cksum, ipv6);
		fl->seq++;
		bytes += sz->frame;
		if (unlikely(++f == nb_flows))
			f = 0;
		if (unlikely(++pi == pat_len))
			pi = 0;
	}
	if (unlikely(sample))
		tb = rte_rdtsc();
	sent = rte_eth_tx_burst(t->port_id, t->queue, m, (uint16_t)n);
	if (unlikely(sample))
		stamp_account(t, n, now, stamp, tb, measured);
	if (unlikely(sent < n)) {
		uint32_t k;

		/* Walk back over the refused tail: they are the newest frames of their flows. */
		for (k = n; k > sent; k--) {
			f = f ? f - 1 : t->nb_flows - 1;
			pi = pi ? pi - 1 : (uint16_t)(t->pat_len - 1);
			t->flows[f].seq--;
			bytes -= t->pattern[pi].frame;
		}
		rte_pktmbuf_free_bulk(m + sent, n - sent);
		t->cnt.tx_refused += n - sent;
	}
	t->cur_flow = f;
	t->pat_cur = pi;
	fws_pacer_sent(&t->pacer, sent);
	fws_tx_count(t, sent, bytes, measured);
	return sent;
}

unsigned int
fws_tx_burst(struct fws_tx_task *t, uint64_t now, bool measured)
{
	if (t->wire)
		return t->ipv6 ? burst(t, now, measured, true, true)
			       : burst(t, now, measured, false, true);
	return t->ipv6 ? burst(t, now, measured, true, false)
		       : burst(t, now, measured, false, false);
}

void
fws_tx_task_free(struct fws_tx_task *t)
{
	rte_mempool_free(t->pool);
	t->pool = NULL;
	rte_free(t->tmpl);
	t->tmpl = NULL;
}
