/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Traffic engine "tcp": the data segments of connections the main lcore opened before the
 * trial (lib/host/feat_tcp.c). Frames come from the stream's template pool as for UDP;
 * per frame the connection's sequence number advances by the payload, and a connection
 * whose next segment would pass the receiver's window edge waits (the next connection
 * sends instead, counted as tcp_window_full). No retransmission: a lost segment is loss.
 * Stamps are taken at the hand-over (no wire model). IPv4 and IPv6.
 */
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "fws_engine.h"
#include "fws_tcp.h"
#include "fws_tx.h"

/* The next connection from f on with room for plen bytes, or UINT32_MAX when none has. */
static inline uint32_t
next_open(struct fws_tx_task *t, uint32_t f, uint32_t plen)
{
	uint32_t tried;

	for (tried = 0; tried < t->nb_flows; tried++) {
		const struct fws_tcp_txflow *tf = &t->tcp[f];

		if (!fws_tcp_after(tf->seq + plen, __atomic_load_n(&tf->limit, __ATOMIC_ACQUIRE)))
			return f;
		t->cnt.tcp_window_full++;
		if (++f == t->nb_flows)
			f = 0;
	}
	return UINT32_MAX;
}

/* Take back the frames the queue refused, newest first: their numbers are sent again. */
static uint64_t
take_back(struct fws_tx_task *t, struct rte_mbuf **m, uint32_t sent, uint32_t n, const uint32_t *fi,
	  const uint16_t *pz)
{
	uint64_t bytes = 0;
	uint32_t k;

	for (k = n; k > sent; k--) {
		const struct fws_pkt_size *sz = &t->pattern[pz[k - 1]];

		t->flows[fi[k - 1]].seq--;
		t->tcp[fi[k - 1]].seq -= fws_tcp_payload_len(sz, t->l3, t->ipv6);
		bytes += sz->frame;
	}
	t->cur_flow = fi[sent];
	t->pat_cur = pz[sent];
	rte_pktmbuf_free_bulk(m + sent, n - sent);
	t->cnt.tx_refused += n - sent;
	return bytes;
}

static __rte_always_inline unsigned int
burst(struct fws_tx_task *t, uint64_t now, bool measured, const bool ipv6)
{
	struct rte_mbuf *m[FWS_TX_MAX_BURST];
	uint32_t fi[FWS_TX_MAX_BURST], n, i, sent, f = t->cur_flow;
	uint16_t pz[FWS_TX_MAX_BURST], pi = t->pat_cur;
	uint32_t ts = (uint32_t)(now >> FWS_SIG_TS_SHIFT), ts_sum = fws_pkt_halves(ts);
	uint64_t bytes = 0;

	n = fws_pacer_due(&t->pacer, now, t->burst);
	if (unlikely(t->limit) && measured)
		n = RTE_MIN(n, (uint32_t)(t->limit - t->cnt.tx_frames));
	if (n == 0 || unlikely(rte_mempool_get_bulk(t->pool, (void **)m, n) != 0)) {
		t->cnt.alloc_fail += n != 0;
		return 0;
	}
	for (i = 0; i < n; i++) {
		const struct fws_pkt_size *sz = &t->pattern[pi];
		uint32_t plen = fws_tcp_payload_len(sz, t->l3, ipv6);

		if ((f = next_open(t, f, plen)) == UINT32_MAX)
			break;
		m[i]->data_len = sz->data_len;
		m[i]->pkt_len = sz->data_len;
		fws_tcp_fill(rte_pktmbuf_mtod_offset(m[i], uint8_t *, t->l3), sz, &t->flows[f],
			     &t->tcp[f], t->w0, t->cookie, (uint32_t)t->flows[f].seq, ts, ts_sum,
			     t->hw_cksum, ipv6);
		t->flows[f].seq++;
		t->tcp[f].seq += plen;
		fi[i] = f;
		pz[i] = pi;
		bytes += sz->frame;
		if (unlikely(++f == t->nb_flows))
			f = 0;
		if (unlikely(++pi == t->pat_len))
			pi = 0;
	}
	if (i < n) /* every window full: the rest go back untouched */
		rte_mempool_put_bulk(t->pool, (void **)(m + i), n - i);
	if (f == UINT32_MAX)
		f = t->cur_flow;
	n = i;
	t->cur_flow = f;
	t->pat_cur = pi;
	sent = n ? rte_eth_tx_burst(t->port_id, t->queue, m, (uint16_t)n) : 0;
	if (unlikely(sent < n))
		bytes -= take_back(t, m, sent, n, fi, pz);
	fws_pacer_sent(&t->pacer, sent);
	fws_tx_count(t, sent, bytes, measured);
	return sent;
}

/* One copy of the loop per address family. */
static unsigned int
tcp_burst(struct fws_tx_task *t, uint64_t now, bool measured)
{
	return t->ipv6 ? burst(t, now, measured, true) : burst(t, now, measured, false);
}

/* The template pool, sizes and start of the defaults; TCP's own burst. */
const struct fws_engine fws_engine_tcp = {
	.name = "tcp",
	.handover_stamps = true,
	.tx_burst = tcp_burst,
};

/* A SYN flood: the same engine over SYN templates; every flow's window is open. */
const struct fws_engine fws_engine_syn = {
	.name = "syn",
	.tx_burst = tcp_burst,
};
