/* SPDX-License-Identifier: BSD-3-Clause */
/* A closed-loop TCP endpoint (fws_tcpe.h): handshake, sender, receiver, timers (the
 * congestion controls: fws_tcpe_cc.c). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "fws_tcpe.h"
#include "fws_tcpe_int.h"

#define INIT_RTO_US 1000000u /* RFC 6298 2.1 */
#define MAX_RTO_US 60000000u /* RFC 6298 2.5 */
#define CLOCK_G_US 1000.0    /* the clock granularity term of the RTO */
#define MAX_BACKOFF 15       /* Linux's tcp_retries2 */
#define INIT_CWND_SEGS 10    /* RFC 6928 */
#define DUPTHRESH 3          /* RFC 5681, RFC 6675 */

/* ---- the bytes ---- */

static uint64_t
mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

void
fws_tcpe_fill(uint64_t seed, uint64_t off, uint8_t *buf, uint32_t len)
{
	uint64_t key = mix(seed); /* two seeds never share a word at nearby offsets */
	uint32_t i = 0;

	while (i < len) {
		uint64_t w = mix(key ^ ((off + i) >> 3));
		unsigned int b = (unsigned int)((off + i) & 7);

		for (; b < 8 && i < len; b++, i++)
			buf[i] = (uint8_t)(w >> (8 * b));
	}
}

/* Bytes of payload that differ from what the peer's generator gives at off. */
static uint64_t
mismatches(uint64_t seed, uint64_t off, const uint8_t *p, uint32_t len)
{
	uint8_t want[256];
	uint64_t bad = 0;
	uint32_t i, n;

	while (len) {
		n = min64(len, (uint32_t)sizeof(want));
		fws_tcpe_fill(seed, off, want, n);
		for (i = 0; i < n; i++)
			bad += want[i] != p[i];
		off += n;
		p += n;
		len -= n;
	}
	return bad;
}

/* ---- ranges (out-of-order arrivals, SACKed bytes): sorted, merged ---- */

/* Add [l, r) to a list of n ranges (at most FWS_TCPE_RANGES); false when it does not fit. */
static bool
range_add(struct fws_tcpe_range *a, unsigned int *n, uint64_t l, uint64_t r)
{
	unsigned int i, j;

	for (i = 0; i < *n && a[i].r < l; i++)
		;
	if (i == *n || r < a[i].l) { /* a range of its own at i */
		if (*n == FWS_TCPE_RANGES)
			return false;
		memmove(&a[i + 1], &a[i], (*n - i) * sizeof(*a));
		a[i] = (struct fws_tcpe_range){l, r};
		(*n)++;
		return true;
	}
	a[i].l = min64(a[i].l, l);
	a[i].r = max64(a[i].r, r);
	for (j = i + 1; j < *n && a[j].l <= a[i].r; j++) /* swallow the ones it reaches */
		a[i].r = max64(a[i].r, a[j].r);
	memmove(&a[i + 1], &a[j], (*n - j) * sizeof(*a));
	*n -= j - i - 1;
	return true;
}

/* Forget what lies below off. */
static void
range_trim(struct fws_tcpe_range *a, unsigned int *n, uint64_t off)
{
	unsigned int i = 0;

	while (i < *n && a[i].r <= off)
		i++;
	memmove(a, &a[i], (*n - i) * sizeof(*a));
	*n -= i;
	if (*n && a[0].l < off)
		a[0].l = off;
}

static uint64_t
range_bytes(const struct fws_tcpe_range *a, unsigned int n)
{
	uint64_t b = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		b += a[i].r - a[i].l;
	return b;
}

/* ---- numbers ---- */

static uint32_t
snd_seq(const struct fws_tcpe *e, uint64_t off)
{
	return e->p.isn + 1 + (uint32_t)off;
}

/* An offset of ours from a sequence number near snd_una. */
static uint64_t
snd_off(const struct fws_tcpe *e, uint32_t seq)
{
	return e->snd_una + (uint64_t)(int64_t)(int32_t)(seq - snd_seq(e, e->snd_una));
}

static uint32_t
rcv_seq(const struct fws_tcpe *e, uint64_t off)
{
	return e->peer_isn + 1 + (uint32_t)off;
}

/* An offset of the peer's from a sequence number near rcv_nxt. */
static uint64_t
rcv_off(const struct fws_tcpe *e, uint32_t seq)
{
	return e->rcv_nxt + (uint64_t)(int64_t)(int32_t)(seq - rcv_seq(e, e->rcv_nxt));
}

/* Where our bytes end: the FIN's offset. */
static uint64_t
data_end(const struct fws_tcpe *e)
{
	return e->closing ? e->snd_data_hi : e->p.send_bytes;
}

/* ---- output ---- */

/* A segment's common fields: the ACK of what we received, our window, our timestamps. */
static void
seg_base(const struct fws_tcpe *e, struct fws_tcpe_seg *s, uint64_t now)
{
	unsigned int i, first;

	memset(s, 0, sizeof(*s));
	s->wscale = -1;
	s->flags = FWS_TCPE_ACK;
	s->ack = rcv_seq(e, e->rcv_nxt) + (e->fin_rcvd ? 1 : 0);
	s->window = (uint16_t)min64(e->p.rcv_wnd >> e->rcv_wscale, 65535u);
	if (e->ts_ok) {
		s->has_ts = true;
		s->tsval = (uint32_t)now;
		s->tsecr = e->ts_recent;
	}
	if (!e->sack_ok || e->n_ooo == 0)
		return;
	/* the range holding the newest arrival first (RFC 2018 4), then the others from the
	 * left */
	for (i = 0; i < e->n_ooo && !(e->ooo[i].l <= e->last_in.l && e->last_in.l < e->ooo[i].r);
	     i++)
		;
	first = i < e->n_ooo ? i : 0;
	s->sack[0].l = rcv_seq(e, e->ooo[first].l);
	s->sack[0].r = rcv_seq(e, e->ooo[first].r);
	s->n_sack = 1;
	for (i = 0; i < e->n_ooo && s->n_sack < (e->ts_ok ? 3 : 4); i++)
		if (i != first) {
			s->sack[s->n_sack].l = rcv_seq(e, e->ooo[i].l);
			s->sack[s->n_sack++].r = rcv_seq(e, e->ooo[i].r);
		}
}

static void
send_seg(struct fws_tcpe *e, struct fws_tcpe_seg *s, fws_tcpe_emit_fn emit, void *arg)
{
	e->st.segs_out++;
	if (s->flags & FWS_TCPE_ACK) { /* it carries our ACK: none owed now */
		e->ack_now = false;
		e->unacked_segs = 0;
		e->delack_at = 0;
	}
	emit(arg, s);
}

static void
send_syn(struct fws_tcpe *e, uint64_t now, fws_tcpe_emit_fn emit, void *arg)
{
	struct fws_tcpe_seg s;

	seg_base(e, &s, now);
	s.seq = e->p.isn;
	s.flags = e->state == FWS_TCPE_SYN_RCVD ? FWS_TCPE_SYN | FWS_TCPE_ACK : FWS_TCPE_SYN;
	if (!(s.flags & FWS_TCPE_ACK))
		s.ack = 0;
	s.window = (uint16_t)min64(e->p.rcv_wnd, 65535u); /* a SYN's window is never scaled */
	s.mss = e->p.mss;
	s.wscale = (int8_t)e->rcv_wscale;
	s.sack_ok = true;
	s.has_ts = true;
	s.tsval = (uint32_t)now;
	s.tsecr = e->state == FWS_TCPE_SYN_RCVD ? e->ts_recent : 0;
	s.n_sack = 0;
	e->syn_sent++;
	e->rto_at = now + e->rto;
	send_seg(e, &s, emit, arg);
}

/* Data (or the FIN) from off: up to len bytes. */
static void
send_data(struct fws_tcpe *e, uint64_t off, uint32_t len, bool fin, uint64_t now,
	  fws_tcpe_emit_fn emit, void *arg)
{
	struct fws_tcpe_seg s;
	uint64_t end = off + len + (fin ? 1 : 0);

	seg_base(e, &s, now);
	s.seq = snd_seq(e, off);
	s.off = off;
	s.len = len;
	if (fin)
		s.flags |= FWS_TCPE_FIN;
	if (len && off + len == data_end(e))
		s.flags |= FWS_TCPE_PSH;
	if (off < e->snd_max) {
		e->st.retrans_segs++;
		e->st.retrans_bytes += min64(e->snd_max, off + len) - off;
	}
	e->snd_max = max64(e->snd_max, end);
	e->snd_data_hi = max64(e->snd_data_hi, off + len);
	if (fin)
		e->fin_sent = true;
	if (e->rto_at == 0)
		e->rto_at = now + e->rto;
	send_seg(e, &s, emit, arg);
}

/* Below it, un-SACKed bytes are lost: RFC 6675's IsLost, a byte with DupThresh
 * discontiguous SACKed ranges above it or more than (DupThresh - 1) segments' bytes SACKed
 * above it; without SACK the first segment is (NewReno). */
static uint64_t
lost_below(const struct fws_tcpe *e)
{
	uint64_t top = e->snd_una + e->mss, acc = 0, need = (DUPTHRESH - 1) * (uint64_t)e->mss;
	unsigned int k;

	if (e->n_sacked >= DUPTHRESH)
		top = e->sacked[e->n_sacked - DUPTHRESH].l;
	else if (e->n_sacked)
		top = e->snd_una;
	for (k = e->n_sacked; k-- > 0;) {
		const struct fws_tcpe_range *x = &e->sacked[k];

		if (acc + (x->r - x->l) > need) {
			top = max64(top, x->r - (need + 1 - acc));
			break;
		}
		acc += x->r - x->l;
	}
	return min64(top, e->snd_data_hi); /* bytes only: a lost FIN waits on the RTO */
}

/* The first hole at or above at to resend in this recovery: [*l, *r), false when none. */
static bool
hole_from(const struct fws_tcpe *e, uint64_t at, uint64_t *l, uint64_t *r)
{
	uint64_t top = lost_below(e);
	unsigned int i;

	for (i = 0; i < e->n_sacked && at < top; i++) {
		if (e->sacked[i].r <= at)
			continue;
		if (e->sacked[i].l > at) {
			*l = at;
			*r = min64(e->sacked[i].l, at + e->mss);
			return true;
		}
		at = e->sacked[i].r;
	}
	if (at >= top)
		return false;
	*l = at;
	*r = min64(top, at + e->mss);
	return true;
}

static bool
next_hole(const struct fws_tcpe *e, uint64_t *l, uint64_t *r)
{
	return hole_from(e, max64(e->snd_una, e->rexmit_hi), l, r);
}

/* Bytes in the network (RFC 6675's pipe): sent, not acknowledged, not SACKed, not lost
 * unless resent. Up to snd_nxt: after a timeout what lies above it counts as lost. */
static uint64_t
pipe(const struct fws_tcpe *e)
{
	uint64_t sacked = range_bytes(e->sacked, e->n_sacked), lost = 0;
	uint64_t out = e->snd_nxt - e->snd_una > sacked ? e->snd_nxt - e->snd_una - sacked : 0;
	uint64_t at = max64(e->snd_una, e->rexmit_hi), l, r;

	if (!e->in_recovery)
		return out;
	while (hole_from(e, at, &l, &r)) { /* the lost bytes not yet resent */
		lost += r - l;
		at = r;
	}
	return out > lost ? out - lost : 0;
}

static void
send_window(struct fws_tcpe *e, uint64_t now, fws_tcpe_emit_fn emit, void *arg)
{
	uint64_t l, r, end, wnd;
	unsigned int guard;

	for (guard = 0; guard < 64; guard++) { /* a burst at most per call */
		wnd = min64(e->cwnd, e->snd_wnd);
		if (pipe(e) >= wnd && !(e->snd_wnd == 0 && e->snd_una == e->snd_max))
			return;
		if (e->in_recovery && next_hole(e, &l, &r)) {
			send_data(e, l, (uint32_t)(r - l), false, now, emit, arg);
			e->rexmit_hi = r;
			continue;
		}
		end = data_end(e);
		if (e->snd_nxt < end) {
			/* new bytes (or, after a timeout, old ones again), within the peer's window */
			uint64_t room = e->snd_una + e->snd_wnd > e->snd_nxt
						? e->snd_una + e->snd_wnd - e->snd_nxt
						: 0;
			uint32_t len =
				(uint32_t)min64(min64((uint64_t)e->mss, end - e->snd_nxt), room);

			if (len ==
			    0) { /* the peer's window is full; a zero one: the persist timer */
				if (e->snd_wnd == 0 && e->rto_at == 0)
					e->rto_at = now + e->rto;
				return;
			}
			send_data(e, e->snd_nxt, len, false, now, emit, arg);
			e->snd_nxt += len;
			continue;
		}
		if (e->fin_queued && !e->fin_sent && e->snd_nxt == end) {
			send_data(e, end, 0, true, now, emit, arg);
			e->snd_nxt = end + 1;
			e->snd_end = end;
		}
		return;
	}
}

/* Queue our FIN when our bytes are all sent: at once for a sender, after the peer's FIN for
 * an endpoint with nothing to send. */
static void
maybe_fin(struct fws_tcpe *e)
{
	if (e->fin_queued || e->state != FWS_TCPE_ESTABLISHED)
		return;
	if (e->closing || (e->p.send_bytes != FWS_TCPE_FOREVER && e->snd_nxt >= e->p.send_bytes &&
			   (e->p.send_bytes > 0 || e->fin_rcvd)))
		e->fin_queued = true;
}

static void
check_done(struct fws_tcpe *e)
{
	if (e->state == FWS_TCPE_ESTABLISHED && e->fin_acked && e->fin_rcvd) {
		e->state = FWS_TCPE_DONE;
		e->rto_at = 0;
	}
}

static void
fail(struct fws_tcpe *e, enum fws_tcpe_fail why)
{
	e->state = FWS_TCPE_FAILED;
	e->st.fail_reason = (uint8_t)why;
	e->rto_at = e->delack_at = 0;
	e->ack_now = false;
}

/* ---- timers ---- */

static void
on_rto(struct fws_tcpe *e, uint64_t now, fws_tcpe_emit_fn emit, void *arg)
{
	e->rto_at = 0;
	if (e->state == FWS_TCPE_SYN_SENT || e->state == FWS_TCPE_SYN_RCVD) {
		if (e->syn_sent >= e->p.syn_tries) {
			fail(e, FWS_TCPE_FAIL_SYN);
			return;
		}
		e->rto = min64(e->rto * 2, MAX_RTO_US);
		send_syn(e, now, emit, arg);
		return;
	}
	if (e->state != FWS_TCPE_ESTABLISHED)
		return;
	if (e->snd_una == e->snd_max) { /* the persist timer: a zero window, probed a byte */
		if (e->snd_wnd == 0 && e->snd_nxt < data_end(e)) {
			send_data(e, e->snd_nxt, 1, false, now, emit, arg);
			e->snd_nxt++;
			e->rto = min64(e->rto * 2, MAX_RTO_US);
			e->rto_at = now + e->rto;
		}
		return;
	}
	if (++e->backoff > MAX_BACKOFF) {
		fail(e, FWS_TCPE_FAIL_RETRIES);
		return;
	}
	e->st.timeouts++;
	e->ssthresh = fws_tcpe_ccs[e->p.cc].loss(e, e->snd_nxt - e->snd_una, now);
	e->cwnd = e->mss; /* the loss window (RFC 5681 3.1) */
	e->in_recovery = false;
	e->dupacks = 0;
	e->n_sacked = 0; /* the peer may renege (RFC 2018 8): everything unacknowledged again */
	e->snd_nxt = e->snd_una;
	if (e->fin_sent && !e->fin_acked)
		e->fin_sent = false;
	e->rto = min64(e->rto * 2, MAX_RTO_US);
	send_window(e, now, emit, arg);
	if (e->rto_at == 0)
		e->rto_at = now + e->rto;
}

uint64_t
fws_tcpe_deadline(const struct fws_tcpe *e)
{
	if (e->rto_at && e->delack_at)
		return min64(e->rto_at, e->delack_at);
	return e->rto_at ? e->rto_at : e->delack_at;
}

/* ---- input ---- */

static void
rtt_sample(struct fws_tcpe *e, uint32_t tsecr, uint64_t now)
{
	double r = (double)(uint32_t)((uint32_t)now - tsecr);

	if (r > 60e6)
		return; /* a wrapped or forged echo */
	if (e->st.rtt_samples == 0) {
		e->srtt = r;
		e->rttvar = r / 2;
		e->st.rtt_min_us = e->st.rtt_max_us = (uint32_t)r;
	} else {
		e->rttvar = 0.75 * e->rttvar + 0.25 * fabs(e->srtt - r);
		e->srtt = 0.875 * e->srtt + 0.125 * r;
		e->st.rtt_min_us = (uint32_t)min64(e->st.rtt_min_us, (uint64_t)r);
		e->st.rtt_max_us = (uint32_t)max64(e->st.rtt_max_us, (uint64_t)r);
	}
	e->st.rtt_samples++;
	e->st.rtt_sum_us += r;
	e->rto = (uint32_t)mind(
		maxd((double)e->p.min_rto_us, e->srtt + maxd(CLOCK_G_US, 4 * e->rttvar)),
		(double)MAX_RTO_US);
}

/* The peer's SACK blocks into our scoreboard; whether they told anything new. */
static bool
take_sacks(struct fws_tcpe *e, const struct fws_tcpe_seg *s)
{
	uint64_t before = range_bytes(e->sacked, e->n_sacked);
	unsigned int i;

	for (i = 0; e->sack_ok && i < s->n_sack && i < FWS_TCPE_SACK_MAX; i++) {
		uint64_t l = snd_off(e, s->sack[i].l), r = snd_off(e, s->sack[i].r);

		if (l < r && l > e->snd_una && r <= e->snd_max)
			range_add(e->sacked, &e->n_sacked, l, r);
	}
	return range_bytes(e->sacked, e->n_sacked) != before;
}

static void
enter_recovery(struct fws_tcpe *e, uint64_t now)
{
	/* the flight: what was sent since the last timeout's go-back (snd_nxt), not all ever */
	e->ssthresh = fws_tcpe_ccs[e->p.cc].loss(e, e->snd_nxt - e->snd_una, now);
	e->cwnd = min64(e->ssthresh, max64(e->cwnd, 2ull * e->mss));
	e->in_recovery = true;
	e->recover = e->snd_max;
	e->rexmit_hi = e->snd_una;
	e->st.fast_recoveries++;
}

/* An ACK of our bytes. */
static void
take_ack(struct fws_tcpe *e, const struct fws_tcpe_seg *s, uint64_t now)
{
	uint64_t ack = snd_off(e, s->ack), acked, wnd = (uint64_t)s->window << e->snd_wscale;
	bool news = take_sacks(e, s), same_wnd = wnd == e->snd_wnd;

	if (ack > e->snd_max || ack < e->snd_una)
		return; /* not of anything we sent, or old */
	e->snd_wnd = wnd;
	if (ack == e->snd_una) {
		if (s->len == 0 && !(s->flags & (FWS_TCPE_SYN | FWS_TCPE_FIN)) &&
		    e->snd_max > e->snd_una && (same_wnd || news) && ++e->dupacks >= DUPTHRESH &&
		    !e->in_recovery)
			enter_recovery(e, now);
		return;
	}
	acked = ack - e->snd_una;
	if (e->fin_sent && ack == e->snd_end + 1) {
		e->fin_acked = true;
		acked--;
	}
	e->snd_una = ack;
	e->st.acked += acked;
	range_trim(e->sacked, &e->n_sacked, ack);
	e->dupacks = 0;
	if (e->ts_ok && s->has_ts && s->tsecr)
		rtt_sample(e, s->tsecr, now);
	e->backoff = 0;
	if (e->in_recovery && ack >= e->recover) {
		e->in_recovery = false; /* all of it: the window as set at its start */
		e->cwnd = e->ssthresh;
	} else if (e->in_recovery) {
		e->rexmit_hi = max64(e->rexmit_hi, ack); /* a partial ACK: the next hole */
		if (!e->n_sacked)
			e->rexmit_hi = ack;
	} else {
		fws_tcpe_ccs[e->p.cc].ack(e, acked, now);
	}
	if (e->snd_nxt < e->snd_una)
		e->snd_nxt = e->snd_una;
	e->rto_at = e->snd_una == e->snd_max ? 0 : now + e->rto;
}

/* The peer's bytes (and FIN) of a segment at offset off. */
static void
take_data(struct fws_tcpe *e, const struct fws_tcpe_seg *s, const uint8_t *payload)
{
	uint64_t off = rcv_off(e, s->seq), end = off + s->len, right = e->rcv_nxt + e->p.rcv_wnd;
	bool had_holes = e->n_ooo > 0;

	if (s->flags & FWS_TCPE_FIN)
		e->fin_off = end;
	if (s->len == 0)
		goto fin;
	if (end <= e->rcv_nxt) {
		e->st.dup_segs++;
		e->ack_now = true; /* a duplicate: our ACK may have been lost */
		return;
	}
	if (off >= right) {
		e->st.ooo_drops++;
		e->ack_now = true;
		return;
	}
	end = min64(end, right);
	if (off < e->rcv_nxt) { /* its start was here already */
		if (payload)
			payload += e->rcv_nxt - off;
		off = e->rcv_nxt;
	}
	if (payload)
		e->st.corrupt += mismatches(e->p.peer_seed, off, payload, (uint32_t)(end - off));
	if (off > e->rcv_nxt) {
		if (!range_add(e->ooo, &e->n_ooo, off, end)) {
			e->st.ooo_drops++;
		} else {
			unsigned int i;

			for (i = 0; i < e->n_ooo; i++)
				if (e->ooo[i].l <= off && e->ooo[i].r >= end)
					e->last_in = e->ooo[i];
		}
		e->ack_now = true; /* a hole: say so at once, with SACK */
		return;
	}
	e->st.delivered += end - e->rcv_nxt;
	e->rcv_nxt = end;
	while (e->n_ooo && e->ooo[0].l <= e->rcv_nxt) { /* the holes it filled */
		e->st.delivered += max64(e->ooo[0].r, e->rcv_nxt) - e->rcv_nxt;
		e->rcv_nxt = max64(e->ooo[0].r, e->rcv_nxt);
		range_trim(e->ooo, &e->n_ooo, e->rcv_nxt);
	}
	if (had_holes || ++e->unacked_segs >= 2 || s->len < e->mss)
		e->ack_now = true; /* every second full segment, a filled hole, a short one */
fin:
	if (e->fin_off != UINT64_MAX && e->rcv_nxt == e->fin_off && !e->fin_rcvd) {
		e->fin_rcvd = true;
		e->ack_now = true;
	}
}

/* PAWS (RFC 7323 5): a segment with an older timestamp is an old duplicate. */
static bool
paws_old(struct fws_tcpe *e, const struct fws_tcpe_seg *s)
{
	if (!e->ts_ok || !s->has_ts || !e->ts_recent_ok || (s->flags & FWS_TCPE_RST))
		return false;
	return (int32_t)(s->tsval - e->ts_recent) < 0;
}

static void
take_options(struct fws_tcpe *e, const struct fws_tcpe_seg *s)
{
	e->peer_isn = s->seq;
	e->mss = (uint16_t)(s->mss ? min64(s->mss, e->p.mss) : min64(536, e->p.mss));
	if (s->wscale < 0) { /* both or neither (RFC 7323 2.2) */
		e->rcv_wscale = 0;
		e->snd_wscale = 0;
	} else {
		e->snd_wscale = (uint8_t)min64(s->wscale, 14);
	}
	e->sack_ok = s->sack_ok;
	e->ts_ok = s->has_ts;
	if (s->has_ts) {
		e->ts_recent = s->tsval;
		e->ts_recent_ok = true;
	}
	e->snd_wnd = s->window; /* a SYN's window is never scaled */
}

static void
established(struct fws_tcpe *e, uint64_t now)
{
	e->state = FWS_TCPE_ESTABLISHED;
	e->cwnd = (uint64_t)INIT_CWND_SEGS * e->mss;
	e->ssthresh = UINT64_MAX;
	e->rto_at = 0;
	e->st.t_established = now;
	maybe_fin(e);
}

static void
input_handshake(struct fws_tcpe *e, const struct fws_tcpe_seg *s, uint64_t now,
		fws_tcpe_emit_fn emit, void *arg)
{
	if (e->state == FWS_TCPE_LISTEN && (s->flags & FWS_TCPE_SYN) &&
	    !(s->flags & FWS_TCPE_ACK)) {
		take_options(e, s);
		e->state = FWS_TCPE_SYN_RCVD;
		send_syn(e, now, emit, arg);
	} else if (e->state == FWS_TCPE_SYN_RCVD && (s->flags & FWS_TCPE_SYN)) {
		send_syn(e, now, emit, arg); /* our SYN-ACK was lost */
	} else if (e->state == FWS_TCPE_SYN_SENT &&
		   (s->flags & (FWS_TCPE_SYN | FWS_TCPE_ACK)) == (FWS_TCPE_SYN | FWS_TCPE_ACK) &&
		   s->ack == e->p.isn + 1) {
		take_options(e, s);
		if (e->ts_ok && s->tsecr)
			rtt_sample(e, s->tsecr, now);
		established(e, now);
		e->ack_now = true;
	}
}

void
fws_tcpe_input(struct fws_tcpe *e, const struct fws_tcpe_seg *s, const uint8_t *payload,
	       uint64_t now, fws_tcpe_emit_fn emit, void *arg)
{
	e->st.segs_in++;
	if (e->state == FWS_TCPE_FAILED || e->state == FWS_TCPE_CLOSED)
		return;
	if ((s->flags & FWS_TCPE_RST) && e->state != FWS_TCPE_LISTEN) {
		if (e->state == FWS_TCPE_SYN_SENT || rcv_off(e, s->seq) - e->rcv_nxt < e->p.rcv_wnd)
			fail(e, FWS_TCPE_FAIL_RST); /* in window (RFC 5961's check, short of its
						     * challenge ACK) */
		return;
	}
	if (e->state == FWS_TCPE_LISTEN || e->state == FWS_TCPE_SYN_SENT ||
	    (e->state == FWS_TCPE_SYN_RCVD && (s->flags & FWS_TCPE_SYN))) {
		input_handshake(e, s, now, emit, arg);
		fws_tcpe_output(e, now, emit, arg);
		return;
	}
	if (paws_old(e, s)) {
		e->st.paws_drops++;
		e->ack_now = true;
		fws_tcpe_output(e, now, emit, arg);
		return;
	}
	if (e->state == FWS_TCPE_SYN_RCVD) {
		if (!(s->flags & FWS_TCPE_ACK) || s->ack != e->p.isn + 1)
			return;
		if (e->ts_ok && s->has_ts && s->tsecr)
			rtt_sample(e, s->tsecr, now);
		established(e, now);
	}
	if (s->has_ts && e->ts_ok && rcv_off(e, s->seq) <= e->rcv_nxt) {
		e->ts_recent = s->tsval; /* RFC 7323 4.3: it covers what we acknowledge next */
		e->ts_recent_ok = true;
	}
	if (s->flags & FWS_TCPE_ACK)
		take_ack(e, s, now);
	take_data(e, s, payload);
	if (!e->ack_now && !e->delack_at && e->unacked_segs)
		e->delack_at = now + e->p.delack_us;
	maybe_fin(e);
	check_done(e);
	fws_tcpe_output(e, now, emit, arg);
}

void
fws_tcpe_output(struct fws_tcpe *e, uint64_t now, fws_tcpe_emit_fn emit, void *arg)
{
	struct fws_tcpe_seg s;
	uint64_t segs = e->st.segs_out;

	if (e->rto_at && now >= e->rto_at)
		on_rto(e, now, emit, arg);
	if (e->delack_at && now >= e->delack_at)
		e->ack_now = true;
	if (e->state != FWS_TCPE_ESTABLISHED && e->state != FWS_TCPE_DONE) {
		if (e->state != FWS_TCPE_SYN_SENT && e->state != FWS_TCPE_SYN_RCVD)
			return;
	}
	if (e->state == FWS_TCPE_ESTABLISHED) {
		maybe_fin(e);
		send_window(e, now, emit, arg);
		check_done(e);
	}
	if (e->ack_now && e->st.segs_out == segs &&
	    (e->state == FWS_TCPE_ESTABLISHED || e->state == FWS_TCPE_DONE)) {
		seg_base(e, &s, now);
		s.seq = snd_seq(e, e->snd_nxt);
		send_seg(e, &s, emit, arg);
	}
}

void
fws_tcpe_open(struct fws_tcpe *e, uint64_t now, fws_tcpe_emit_fn emit, void *arg)
{
	if (e->state != FWS_TCPE_CLOSED || e->p.server)
		return;
	e->state = FWS_TCPE_SYN_SENT;
	send_syn(e, now, emit, arg);
}

void
fws_tcpe_close(struct fws_tcpe *e)
{
	e->closing = true; /* its bytes end at the highest sent */
	maybe_fin(e);
}

int
fws_tcpe_init(struct fws_tcpe *e, const struct fws_tcpe_params *p)
{
	if (p->mss < 64 || p->mss > 9000 || p->rcv_wnd < p->mss || p->rcv_wnd > (1u << 30) ||
	    (unsigned int)p->cc >= FWS_TCPE_CC_N || p->min_rto_us < 1000 || p->delack_us > 500000 ||
	    p->syn_tries == 0)
		return -EINVAL;
	memset(e, 0, sizeof(*e));
	e->p = *p;
	while ((p->rcv_wnd >> e->rcv_wscale) > 65535)
		e->rcv_wscale++;
	e->state = p->server ? FWS_TCPE_LISTEN : FWS_TCPE_CLOSED;
	e->rto = INIT_RTO_US;
	e->mss = p->mss;
	e->fin_off = UINT64_MAX;
	return 0;
}
