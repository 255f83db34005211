/* SPDX-License-Identifier: BSD-3-Clause */
/* rte_ip_frag_table_del_expired_entries is experimental in DPDK 22.11. */
#define ALLOW_EXPERIMENTAL_API
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ip_frag.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>
#include <rte_ring.h>

#include "fws_pkt.h"
#include "fws_rx.h"
#include "fws_sig.h"
#include "fws_tcp.h"

void
fws_rx_reset(struct fws_rx_lcore *c)
{
	unsigned int s;

	memset(c->port, 0, sizeof(c->port));
	memset(c->skewed, 0, sizeof(c->skewed));
	memset(c->skew_max, 0, sizeof(c->skew_max));
	c->live_frames = 0;
	c->live_bytes = 0;
	for (s = 0; s < c->nb_streams; s++) {
		struct fws_rx_stream *st = &c->streams[s];

		memset(st->flows, 0, sizeof(*st->flows) * st->nb_flows);
		if (c->rings)
			memset(c->ring[s].base, 0,
			       (size_t)st->nb_flows * ((c->ring[s].wmask + 1) / 8));
		if (c->natobs[s])
			memset(c->natobs[s], 0, sizeof(*c->natobs[s]) * st->nb_flows);
		if (c->tcphi[s])
			memset(c->tcphi[s], 0, sizeof(*c->tcphi[s]) * st->nb_flows);
		fws_hist_reset(st->hist);
		st->jitter16 = 0;
		st->last_lat = 0;
		st->have_last = false;
		st->reassembled = 0;
		st->given_up = 0;
		st->refused = 0;
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

/* A verified test frame waiting for its flow's cache line (prefetched in the first pass). */
struct pending {
	struct fws_rxflow *flow;
	struct fws_rx_stream *st;
	uint32_t stream; /**< st's index */
	uint32_t seq;
	uint32_t wire_len;
	uint32_t lat; /**< timestamp units; converted to ns once per run of equal values */
};

/* How a test frame arrived: its addresses (IPv6: the low 32 bits) and ports. */
static void
nat_see(struct fws_natobs *o, const struct fws_pkt_view *v)
{
	struct fws_nat_tuple t;
	unsigned int a = v->ipv6 ? 8 + 12 : 12, b = v->ipv6 ? 24 + 12 : 16;

	memcpy(&t.src, v->l3 + a, 4);
	memcpy(&t.dst, v->l3 + b, 4);
	memcpy(&t.sport, v->l4, 2);
	memcpy(&t.dport, v->l4 + 2, 2);
	fws_natobs_see(o, &t);
}

/* A TCP data segment of a flow: the newest sequence number it brings, for the ACKs. */
static void
tcp_see(struct fws_rx_tcphi *h, const struct fws_pkt_view *v)
{
	uint32_t seq, end;

	memcpy(&seq, v->l4 + 4, 4);
	end = rte_be_to_cpu_32(seq) + v->payload_len;
	if (!h->seen || fws_tcp_after(end, h->hi))
		__atomic_store_n(&h->hi, end, __ATOMIC_RELAXED);
	__atomic_store_n(&h->seen, 1, __ATOMIC_RELAXED);
}

/* First pass: what a frame is (its stage), counted where nothing more is done with it;
 * a test frame of this trial fills p. */
static __rte_always_inline enum fws_rx_kind
classify(struct fws_rx_lcore *c, struct fws_rx_counters *pc, uint8_t port_idx, const uint8_t *d,
	 uint32_t len, uint32_t wire_len, uint32_t ts_now, struct pending *p)
{
	struct fws_pkt_view v;
	struct fws_rx_stream *st;
	enum fws_pkt_kind kind;
	struct fws_sig s;
	int32_t units;

	switch (kind = fws_pkt_parse(d, len, &v)) {
	case FWS_PKT_UDP:
	case FWS_PKT_TCP:
		break;
	case FWS_PKT_OTHER:
		pc->non_test++;
		return FWS_RX_OTHER;
	case FWS_PKT_FRAGMENT:
		pc->fragments++;
		return c->frag && d != c->frag_buf ? FWS_RX_FRAGMENT : FWS_RX_OTHER;
	case FWS_PKT_ICMP_ERROR:
		pc->icmp_errors++;
		return c->icmp ? FWS_RX_ICMP : FWS_RX_OTHER;
	case FWS_PKT_CONTROL:
		return FWS_RX_CONTROL;
	case FWS_PKT_TRUNCATED:
		pc->truncated++;
		return FWS_RX_OTHER;
	}
	switch (fws_sig_parse(v.payload, v.payload_len, c->cookie, &s)) {
	case FWS_SIG_OK:
		break;
	case FWS_SIG_NONE:
		if (kind == FWS_PKT_TCP && c->tcp)
			return FWS_RX_SEGMENT;
		pc->non_test++;
		return FWS_RX_OTHER;
	case FWS_SIG_BADCHECK:
		classify_other(c, pc, v.payload);
		return FWS_RX_OTHER;
	}
	if (unlikely(s.stream >= c->nb_streams || s.flow >= c->streams[s.stream].nb_flows)) {
		pc->bad_stream++;
		return FWS_RX_OTHER;
	}
	st = &c->streams[s.stream];
	if (unlikely(st->rx_port != port_idx)) {
		pc->wrong_port++;
		return FWS_RX_OTHER;
	}
	units = (int32_t)(ts_now - s.ts);
	if (unlikely(units < 0)) {
		pc->clock_skew++;
		c->skewed[s.stream]++;
		c->skew_max[s.stream] = RTE_MAX(c->skew_max[s.stream], (uint32_t)-units);
		units = 0;
	}
	if (unlikely(c->nat) && c->natobs[s.stream])
		nat_see(&c->natobs[s.stream][s.flow], &v);
	if (kind == FWS_PKT_TCP && c->tcphi[s.stream])
		tcp_see(&c->tcphi[s.stream][s.flow], &v);
	p->flow = &st->flows[s.flow];
	p->st = st;
	p->stream = s.stream;
	p->seq = s.seq;
	p->wire_len = wire_len;
	p->lat = (uint32_t)units;
	rte_prefetch0(p->flow);
	return FWS_RX_TEST;
}

static inline uint64_t
units_ns(const struct fws_rx_lcore *c, uint64_t units)
{
	return (uint64_t)(((unsigned __int128)units * c->ns_mult) >> 32);
}

/*
 * A run of run_n frames with latency run_lat ends: histogram, and RFC 3550 jitter
 * J += (|D| - J) / 16 (kept x16 as in its appendix A.8) frame by frame: D is the step from
 * the previous run for the first frame and 0 for the others.
 */
static void
end_run(const struct fws_rx_lcore *c, struct fws_rx_stream *st)
{
	uint64_t j = st->jitter16, k;

	fws_hist_add_n(st->hist, units_ns(c, st->run_lat), st->run_n);
	if (st->have_last) {
		uint64_t d = st->run_lat > st->last_lat ? st->run_lat - st->last_lat
							: st->last_lat - st->run_lat;

		j += d - ((j + 8) >> 4);
	}
	for (k = 1; k < st->run_n && (j + 8) >> 4; k++)
		j -= (j + 8) >> 4;
	st->jitter16 = j;
	st->last_lat = st->run_lat;
	st->have_last = true;
	st->run_n = 0;
}

/* n more frames of latency lat into the stream's run. */
static inline void
run_add(const struct fws_rx_lcore *c, struct fws_rx_stream *st, uint32_t lat, uint32_t n)
{
	if (likely(lat == st->run_lat)) {
		st->run_n += n;
		return;
	}
	if (st->run_n)
		end_run(c, st);
	st->run_lat = lat;
	st->run_n = n;
}

/*
 * The run a burst is in, kept in registers: counted in the stream's memory, each frame's
 * increment waited for the one before it (a store-to-load chain through the loop). It goes
 * to the stream when the burst moves to another stream or latency, and at the burst's end.
 */
struct run {
	struct fws_rx_stream *st; /**< NULL: none */
	uint32_t lat, n;
};

static inline void
run_flush(const struct fws_rx_lcore *c, struct run *r)
{
	if (r->st)
		run_add(c, r->st, r->lat, r->n);
	r->st = NULL;
}

static inline void
run_step(const struct fws_rx_lcore *c, struct run *r, struct fws_rx_stream *st, uint32_t lat)
{
	if (likely(st == r->st && lat == r->lat)) {
		r->n++;
		return;
	}
	run_flush(c, r);
	*r = (struct run){.st = st, .lat = lat, .n = 1};
}

/* A test frame into its flow's state. */
static inline void
flow_update(const struct fws_rx_lcore *c, const struct pending *p, const bool rings)
{
	fws_rxstat_update(p->flow, rings ? &c->ring[p->stream] : NULL, p->seq, p->wire_len);
}

/* Second pass: flow state and latency run. */
static inline void
commit(const struct fws_rx_lcore *c, const struct pending *p, const bool rings, struct run *r)
{
	flow_update(c, p, rings);
	run_step(c, r, p->st, p->lat);
}

/* A reassembled packet, out of line (the caller sends its run to the stream first): inline,
 * the compiler merged it with the test frame's commit and so kept that frame's state in
 * memory (a store-forwarding stall a frame). */
static __rte_noinline void
commit_cold(const struct fws_rx_lcore *c, const struct pending *p, bool rings)
{
	flow_update(c, p, rings);
	run_add(c, p->st, p->lat, 1);
}

void
fws_rx_flush(struct fws_rx_lcore *c)
{
	unsigned int s;

	for (s = 0; s < c->nb_streams; s++)
		if (c->streams[s].run_n)
			end_run(c, &c->streams[s]);
}

/* Hand control frames to the main lcore. Returns how many it took; the rest stay in ctl
 * for the caller to free, counted as dropped. */
static uint32_t
pass_control(struct fws_rx_lcore *c, struct fws_rx_counters *pc, struct rte_mbuf **ctl,
	     uint32_t nctl)
{
	uint32_t sent = c->ctl ? rte_ring_enqueue_burst(c->ctl, (void **)ctl, nctl, NULL) : 0;

	pc->control += sent;
	pc->control_drop += nctl - sent;
	return sent;
}

/* A given-up fragment that is the first of a test packet of this trial: its signature in s,
 * true. */
static bool
dead_first(const struct fws_rx_lcore *c, const struct rte_mbuf *m, struct fws_sig *s)
{
	const uint8_t *pl;
	uint32_t n = fws_pkt_first_fragment(rte_pktmbuf_mtod(m, const uint8_t *), m->data_len, &pl);

	return n && fws_sig_parse(pl, n, c->cookie, s) == FWS_SIG_OK && s->stream < c->nb_streams &&
	       s->flow < c->streams[s->stream].nb_flows;
}

/*
 * Fragments the table gave up (its death row), counted on the port each came in on, then
 * freed. A first fragment names its packet: the stream counts it given up (once: a packet's
 * fragments, a first one twice included, enter the row one after another).
 */
static void
count_dead(struct fws_rx_lcore *c)
{
	struct fws_sig s, last = {.flow = UINT32_MAX};
	uint32_t i;
	unsigned int k;

	for (i = 0; i < c->frag_dr->cnt; i++) {
		for (k = 0; k < c->nb_queues; k++)
			if (c->queues[k].port_id == c->frag_dr->row[i]->port) {
				c->port[c->queues[k].port_idx].frag_dropped++;
				break;
			}
		if (dead_first(c, c->frag_dr->row[i], &s) &&
		    (s.stream != last.stream || s.flow != last.flow || s.seq != last.seq)) {
			c->streams[s.stream].given_up++;
			last = s;
		}
	}
	rte_ip_frag_free_death_row(c->frag_dr, 0);
}

/* A fragment the table refused, full: the tester's limit. Counted on the port and, when it
 * is the first of a test packet, on its stream. */
static void
refused(struct fws_rx_lcore *c, struct fws_rx_counters *pc, const struct rte_mbuf *f)
{
	struct fws_sig s;

	pc->frag_refused++;
	if (dead_first(c, f, &s))
		c->streams[s.stream].refused++;
}

/*
 * A fragment (*m) into this lcore's table: it keeps it (*m becomes NULL), or gives back the
 * whole packet (a chain in *m), read into frag_buf and classified as a frame; true and p
 * filled when it is a test packet. Given-up fragments are counted from the death row.
 */
static bool
reassemble(struct fws_rx_lcore *c, struct fws_rx_counters *pc, uint16_t port_id, uint8_t port_idx,
	   struct rte_mbuf **m, uint64_t now, uint32_t ts_now, struct pending *p)
{
	struct rte_mbuf *r = NULL, *f = *m;
	uint8_t *d = rte_pktmbuf_mtod(f, uint8_t *);
	uint16_t type;
	enum fws_rx_kind kind = FWS_RX_OTHER;

	f->port = port_id; /* net_ring leaves it unset; count_dead reads it */
	f->l2_len = RTE_ETHER_HDR_LEN;
	memcpy(&type, d + 12, 2);
	if (type == RTE_BE16(RTE_ETHER_TYPE_VLAN)) {
		f->l2_len += FWS_PKT_VLAN_LEN;
		memcpy(&type, d + 16, 2);
	}
	if (type == RTE_BE16(RTE_ETHER_TYPE_IPV4)) {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(d + f->l2_len);

		f->l3_len = rte_ipv4_hdr_len(ip);
		r = rte_ipv4_frag_reassemble_packet(c->frag, c->frag_dr, f, now, ip);
	} else {
		struct rte_ipv6_hdr *ip6 = (struct rte_ipv6_hdr *)(d + f->l2_len);
		struct rte_ipv6_fragment_ext *fh = rte_ipv6_frag_get_ipv6_fragment_header(ip6);

		/* Only a fragment header right after the base header is found: others are
		 * counted as fragments and given up. */
		f->l3_len = sizeof(*ip6) + sizeof(*fh);
		r = fh ? rte_ipv6_frag_reassemble_packet(c->frag, c->frag_dr, f, now, ip6, fh) : f;
		if (fh == NULL) {
			pc->frag_dropped++;
			rte_pktmbuf_free(f);
			r = NULL;
		}
	}
	*m = NULL;
	if (r == NULL && c->frag_dr->cnt == 1 && c->frag_dr->row[0] == f)
		refused(c, pc, f); /* alone to the death row: no room for a new packet */
	count_dead(c);
	if (r == NULL)
		return false;
	pc->reassembled++;
	if (r->pkt_len <= c->frag_buf_len) {
		const uint8_t *b = rte_pktmbuf_read(r, 0, r->pkt_len, c->frag_buf);

		if (b != c->frag_buf) /* contiguous after all: classify from the buffer */
			memcpy(c->frag_buf, b, r->pkt_len);
		kind = classify(c, pc, port_idx, c->frag_buf, r->pkt_len,
				r->pkt_len + RTE_ETHER_CRC_LEN, ts_now, p);
	} else {
		pc->truncated++;
	}
	if (kind == FWS_RX_TEST)
		p->st->reassembled++;
	rte_pktmbuf_free(r);
	return kind == FWS_RX_TEST;
}

void
fws_rx_frag_flush(struct fws_rx_lcore *c)
{
	uint32_t i;

	if (c->frag == NULL)
		return;
	/* Each call moves as many as the death row holds. */
	do {
		rte_ip_frag_table_del_expired_entries(c->frag, c->frag_dr, UINT64_MAX / 2);
		i = c->frag_dr->cnt;
		count_dead(c);
	} while (i);
}

/* ICMP errors to the main lcore (counted already as icmp_errors); what the ring does not
 * take is freed here and counted. */
static void
pass_icmp(struct fws_rx_lcore *c, struct fws_rx_counters *pc, struct rte_mbuf **m, uint32_t n)
{
	uint32_t sent = c->ctl ? rte_ring_enqueue_burst(c->ctl, (void **)m, n, NULL) : 0;

	pc->icmp_drop += n - sent;
	rte_pktmbuf_free_bulk(m + sent, n - sent);
}

/* Compact the burst: drop the slots handed on (NULL), then append the control frames the
 * ring did not take. */
static uint16_t
compact(struct rte_mbuf **m, uint16_t n, struct rte_mbuf **left, uint32_t nleft)
{
	uint16_t i, k = 0;

	for (i = 0; i < n; i++)
		if (m[i])
			m[k++] = m[i];
	for (i = 0; i < nleft; i++)
		m[k++] = left[i];
	return k;
}

/* The frames of a burst its stages handed on (their slots in the burst become NULL). */
struct rx_lists {
	uint32_t nctl, nicmp;
	uint32_t holes; /**< slots emptied by reassembly */
	struct rte_mbuf *ctl[FWS_RX_BURST], *icmp[FWS_RX_BURST];
};

/* A stage takes frame *m of its kind, received on q at now; true when it yields a test frame
 * in p (reassembly). Only frames that are not test frames come here: the burst loop keeps
 * its own state in registers. */
typedef bool (*rx_stage)(struct fws_rx_lcore *c, const struct fws_rx_queue *q, struct rte_mbuf **m,
			 uint64_t now, struct pending *p, struct rx_lists *l);

/* Control frames (ARP, ND, echo) and TCP segments of the main lcore's connections. */
static bool
to_main(struct fws_rx_lcore *c, const struct fws_rx_queue *q, struct rte_mbuf **m, uint64_t now,
	struct pending *p, struct rx_lists *l)
{
	(void)c;
	(void)now;
	(void)p;
	(*m)->port = q->port_id; /* net_ring leaves it unset */
	l->ctl[l->nctl++] = *m;
	*m = NULL;
	return false;
}

/* ICMP errors, which the main lcore matches to a stream. */
static bool
to_icmp(struct fws_rx_lcore *c, const struct fws_rx_queue *q, struct rte_mbuf **m, uint64_t now,
	struct pending *p, struct rx_lists *l)
{
	(void)c;
	(void)now;
	(void)p;
	(*m)->port = q->port_id;
	l->icmp[l->nicmp++] = *m;
	*m = NULL;
	return false;
}

/* Fragments: the table keeps the fragment, or the packet is done with. */
static bool
to_reassembly(struct fws_rx_lcore *c, const struct fws_rx_queue *q, struct rte_mbuf **m,
	      uint64_t now, struct pending *p, struct rx_lists *l)
{
	l->holes++;
	return reassemble(c, &c->port[q->port_idx], q->port_id, q->port_idx, m, now,
			  (uint32_t)(now >> FWS_SIG_TS_SHIFT), p);
}

/* What each kind of frame goes through after classify (NULL: nothing, it was counted). A
 * test frame is accounted inline in the burst loop. */
static const rx_stage stages[FWS_RX_KINDS_N] = {
	[FWS_RX_CONTROL] = to_main,
	[FWS_RX_SEGMENT] = to_main,
	[FWS_RX_ICMP] = to_icmp,
	[FWS_RX_FRAGMENT] = to_reassembly,
};

/* A frame's arrival, in timestamp units: the NIC's stamp on the TSC where it wrote one (nc:
 * the port's map, NULL where it stamps none), else the poll's. */
static __rte_always_inline uint32_t
arrival(const struct fws_rx_lcore *c, const struct fws_nicclock *nc, const struct rte_mbuf *m,
	uint32_t ts_now, bool *stamped)
{
	uint64_t tsc;

	if (likely(nc == NULL) || !(m->ol_flags & c->stamp_flag))
		return ts_now;
	tsc = fws_nicclock_tsc(nc, *RTE_MBUF_DYNFIELD(m, c->stamp_off, const uint64_t *));
	if (unlikely(c->skew.on))
		tsc = fws_affine_apply(&c->skew, tsc);
	*stamped = true;
	return (uint32_t)(tsc >> FWS_SIG_TS_SHIFT);
}

/*
 * One burst. With small flow tables (in cache) each frame is accounted as it is classified;
 * with large ones a first pass classifies the whole burst and prefetches each flow's line,
 * and a second pass updates them, so the cache misses overlap instead of queueing. stamps:
 * the queue's NIC stamps frames (its clock map); without, no frame is asked for a stamp.
 */
static __rte_always_inline uint16_t
burst(struct fws_rx_lcore *c, const struct fws_rx_queue *q, struct rte_mbuf **m, uint16_t n,
      uint64_t now, const bool two_pass, const bool rings, const bool stamps)
{
	struct rx_lists l; /* its frame lists stay unwritten until a stage uses them */
	struct pending pend[FWS_RX_BURST];
	struct run r = {.st = NULL};
	struct fws_rx_counters *pc = &c->port[q->port_idx];
	const struct fws_nicclock *nc = stamps ? fws_nicclock_read(q->nc) : NULL;
	uint32_t ts_now = (uint32_t)(now >> FWS_SIG_TS_SHIFT), k = 0, j, taken;
	uint64_t bytes = 0;
	enum fws_rx_kind kind;
	uint16_t i;

	l.nctl = l.nicmp = l.holes = 0;
	for (i = 0; i < n && i < 4; i++)
		rte_prefetch0(rte_pktmbuf_mtod(m[i], void *));
	for (i = 0; i < n; i++) {
		uint32_t wire_len = m[i]->pkt_len + RTE_ETHER_CRC_LEN;
		/* One pass: a test frame's pending state has no address a stage sees, so it
		 * stays in registers (through memory it cost a store-forwarding stall a frame). */
		struct pending one, *p = two_pass ? &pend[k] : &one, *sp;
		bool stamped = false;
		uint32_t at = stamps ? arrival(c, nc, m[i], ts_now, &stamped) : ts_now;

		if (i + 4 < n)
			rte_prefetch0(rte_pktmbuf_mtod(m[i + 4], void *));
		kind = classify(c, pc, q->port_idx, rte_pktmbuf_mtod(m[i], const uint8_t *),
				m[i]->data_len, wire_len, at, p);
		if (likely(kind == FWS_RX_TEST)) {
			if (stamps && unlikely(stamped))
				pc->nic_stamped++;
			bytes += wire_len;
			k++;
			if (!two_pass)
				commit(c, &one, rings, &r);
			continue;
		}
		sp = two_pass ? p : &pend[0];
		if (stages[kind] == NULL || !stages[kind](c, q, &m[i], now, sp, &l))
			continue;
		bytes += sp->wire_len; /* a reassembled packet */
		k++;
		if (!two_pass) {
			run_flush(c, &r);
			commit_cold(c, sp, rings);
		}
	}
	pc->rx_frames += n;
	pc->test_frames += k;
	if (two_pass)
		for (j = 0; j < k; j++)
			commit(c, &pend[j], rings, &r);
	run_flush(c, &r);
	fws_rx_flush(c);
	__atomic_store_n(&c->live_frames, c->live_frames + k, __ATOMIC_RELAXED);
	__atomic_store_n(&c->live_bytes, c->live_bytes + bytes, __ATOMIC_RELAXED);
	if (unlikely(l.nicmp))
		pass_icmp(c, pc, l.icmp, l.nicmp);
	if (likely(l.nctl == 0))
		return l.nicmp || l.holes ? compact(m, n, NULL, 0) : n;
	taken = pass_control(c, pc, l.ctl, l.nctl);
	return compact(m, n, l.ctl + taken, l.nctl - taken);
}

uint16_t
fws_rx_burst(struct fws_rx_lcore *c, const struct fws_rx_queue *q, struct rte_mbuf **pkts,
	     uint16_t n, uint64_t now)
{
	if (n == 0)
		return 0;
	/* Eight copies of the loop, each knowing its table size, window and whether its port's
	 * NIC stamps frames at compile time: a port without stamps pays nothing for them (issue
	 * 54, item 4). */
	if (q->nc == NULL) {
		if (c->rings)
			return c->two_pass ? burst(c, q, pkts, n, now, true, true, false)
					   : burst(c, q, pkts, n, now, false, true, false);
		return c->two_pass ? burst(c, q, pkts, n, now, true, false, false)
				   : burst(c, q, pkts, n, now, false, false, false);
	}
	if (c->rings)
		return c->two_pass ? burst(c, q, pkts, n, now, true, true, true)
				   : burst(c, q, pkts, n, now, false, true, true);
	return c->two_pass ? burst(c, q, pkts, n, now, true, false, true)
			   : burst(c, q, pkts, n, now, false, false, true);
}

/* Free a burst: straight back to the pool when every mbuf is a plain one of one pool. */
void
fws_rx_free(struct rte_mbuf **m, uint16_t n)
{
	struct rte_mempool *pool;
	uint16_t i;

	if (n == 0)
		return;
	pool = m[0]->pool;
	for (i = 0; i < n; i++) {
		if (unlikely(m[i]->pool != pool || m[i]->nb_segs != 1 || !RTE_MBUF_DIRECT(m[i]) ||
			     rte_mbuf_refcnt_read(m[i]) != 1)) {
			rte_pktmbuf_free_bulk(m, n);
			return;
		}
	}
	rte_mempool_put_bulk(pool, (void **)m, n);
}

unsigned int
fws_rx_poll(struct fws_rx_lcore *c, const struct fws_rx_queue *q)
{
	struct rte_mbuf *m[FWS_RX_BURST];
	uint16_t n = rte_eth_rx_burst(q->port_id, q->queue, m, FWS_RX_BURST);

	if (n == 0)
		return 0;
	fws_rx_free(m, fws_rx_burst(c, q, m, n,
				    unlikely(c->skew.on) ? fws_affine_apply(&c->skew, rte_rdtsc())
							 : rte_rdtsc()));
	return n;
}
