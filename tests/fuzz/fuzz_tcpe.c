/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer: a closed-loop TCP connection (fws_tcpe) between two endpoints whose segments
 * pass through a queue the input rules: each 16-byte record of the input either delivers the
 * oldest queued segment (mutated: its number, ACK, flags, window, timestamps, SACK blocks and
 * length moved by the record's bytes) to its endpoint, drops it, forges one for either end,
 * or lets time pass and the timers run. Whatever arrives, the endpoints' state stays
 * consistent: their offsets ordered, their ranges sorted and bounded, every delivered byte
 * counted once (delivered equals the receive point), nothing sent beyond what was allowed.
 */
#include <stdlib.h>
#include <string.h>

#include "fws_tcpe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define QMAX 256

struct q {
	struct fws_tcpe_seg s[QMAX];
	int to[QMAX];
	unsigned int n;
};

static struct fws_tcpe e[2];
static struct q q;
static int from;

static void
emit(void *arg, const struct fws_tcpe_seg *s)
{
	(void)arg;
	if (q.n == QMAX)
		return; /* the link's queue is full: dropped */
	q.s[q.n] = *s;
	q.to[q.n++] = !from;
}

static void
check(const struct fws_tcpe *x)
{
	unsigned int i;

	if (x->snd_una > x->snd_max || x->snd_nxt > x->snd_max + 1 || x->n_ooo > FWS_TCPE_RANGES ||
	    x->n_sacked > FWS_TCPE_RANGES || x->st.delivered != x->rcv_nxt ||
	    x->snd_data_hi > x->p.send_bytes)
		abort();
	for (i = 0; i < x->n_ooo; i++)
		if (x->ooo[i].l >= x->ooo[i].r || x->ooo[i].l <= x->rcv_nxt ||
		    (i && x->ooo[i].l <= x->ooo[i - 1].r))
			abort();
	for (i = 0; i < x->n_sacked; i++)
		if (x->sacked[i].l >= x->sacked[i].r || x->sacked[i].l < x->snd_una ||
		    (i && x->sacked[i].l <= x->sacked[i - 1].r))
			abort();
}

static void
mutate(struct fws_tcpe_seg *s, const uint8_t *r)
{
	s->seq += (uint32_t)(int8_t)r[1] * 97u;
	s->ack += (uint32_t)(int8_t)r[2] * 89u;
	s->flags ^= r[3] & 0x1f;
	s->window ^= (uint16_t)(r[4] << 8);
	s->tsval += (uint32_t)(int8_t)r[5] << 16;
	s->n_sack = r[6] % (FWS_TCPE_SACK_MAX + 1);
	s->sack[0].l = s->ack + (uint32_t)r[7] * 1000u;
	s->sack[0].r = s->sack[0].l + (uint32_t)r[8] * 100u;
	s->sack[1] = s->sack[0];
	s->sack[1].r += (uint32_t)(int8_t)r[9] * 1000u;
	s->sack[2].l = s->sack[2].r = s->ack;
	s->sack[3] = s->sack[1];
	s->len = s->len ? (s->len + (uint32_t)r[10] * 16u) % 3000u : 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fws_tcpe_params c = {.isn = 0xffffff00u,
				    .seed = 1,
				    .peer_seed = 2,
				    .send_bytes = 200000,
				    .mss = 1448,
				    .rcv_wnd = 65536,
				    .cc = FWS_TCPE_CUBIC,
				    .min_rto_us = 200000,
				    .delack_us = 40000,
				    .syn_tries = 3};
	struct fws_tcpe_params s = c;
	uint64_t now = 0;
	size_t k;

	s.server = true;
	s.isn = 77;
	s.seed = 2;
	s.peer_seed = 1;
	s.send_bytes = 50000;
	c.cc = size && (data[0] & 1) ? FWS_TCPE_NEWRENO : FWS_TCPE_CUBIC;
	if (fws_tcpe_init(&e[0], &c) < 0 || fws_tcpe_init(&e[1], &s) < 0)
		abort();
	q.n = 0;
	from = 0;
	fws_tcpe_open(&e[0], now, emit, NULL);
	for (k = 0; k + 16 <= size; k += 16) {
		const uint8_t *r = data + k;
		struct fws_tcpe_seg seg;
		int to;

		now += (uint64_t)r[11] * 1000 + 1;
		switch (r[0] % 4) {
		case 0: /* the oldest segment, as mutated */
		case 1: /* or as sent */
			if (q.n == 0)
				break;
			seg = q.s[0];
			to = q.to[0];
			memmove(&q.s[0], &q.s[1], (q.n - 1) * sizeof(q.s[0]));
			memmove(&q.to[0], &q.to[1], (q.n - 1) * sizeof(q.to[0]));
			q.n--;
			if (r[0] % 4 == 0)
				mutate(&seg, r);
			from = to;
			fws_tcpe_input(&e[to], &seg, NULL, now, emit, NULL);
			break;
		case 2: /* dropped */
			if (q.n) {
				memmove(&q.s[0], &q.s[1], (q.n - 1) * sizeof(q.s[0]));
				memmove(&q.to[0], &q.to[1], (q.n - 1) * sizeof(q.to[0]));
				q.n--;
			}
			break;
		default: /* time passes: the timers of the end r[12] names */
			from = r[12] & 1;
			now += (uint64_t)r[13] << 14;
			fws_tcpe_output(&e[from], now, emit, NULL);
		}
		check(&e[0]);
		check(&e[1]);
	}
	return 0;
}
