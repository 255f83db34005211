/* SPDX-License-Identifier: BSD-3-Clause */
/* The TCP endpoint's congestion controls (fws_tcpe.h), one line of a table each: NewReno
 * (RFC 5681) and CUBIC (RFC 9438), slow start shared. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "fws_tcpe.h"
#include "fws_tcpe_int.h"
#include "fws_util.h"

/* Slow start (RFC 5681, RFC 3465's L = 2 SMSS): both controls share it. */
static bool
slow_start(struct fws_tcpe *e, uint64_t acked)
{
	if (e->cwnd >= e->ssthresh)
		return false;
	e->cwnd += min64(acked, 2ull * e->mss);
	return true;
}

static void
reno_ack(struct fws_tcpe *e, uint64_t acked, uint64_t now)
{
	(void)now;
	if (!slow_start(e, acked)) /* congestion avoidance: one segment per window */
		e->cwnd += max64(1ull, (uint64_t)e->mss * min64(acked, (uint64_t)e->mss) / e->cwnd);
}

static uint64_t
reno_loss(struct fws_tcpe *e, uint64_t flight, uint64_t now)
{
	(void)now;
	return max64(flight / 2, 2ull * e->mss);
}

/* CUBIC (RFC 9438): C = 0.4, beta = 0.7, fast convergence, the Reno-friendly region; no
 * HyStart (slow start is Reno's). Windows in segments, time in seconds. */
#define CUBIC_C 0.4
#define CUBIC_BETA 0.7

static void
cubic_ack(struct fws_tcpe *e, uint64_t acked, uint64_t now)
{
	double cwnd = (double)e->cwnd / e->mss, t, target, w_cubic;
	double alpha = 3 * (1 - CUBIC_BETA) / (1 + CUBIC_BETA);

	if (slow_start(e, acked))
		return;
	if (e->cubic.epoch_us == 0) { /* a new epoch: the first ACK after a loss or slow start */
		e->cubic.epoch_us = now;
		if (e->cubic.w_max < cwnd)
			e->cubic.w_max = cwnd;
		e->cubic.k = cbrt((e->cubic.w_max - cwnd) / CUBIC_C);
		e->cubic.w_est = cwnd;
	}
	t = (double)(now - e->cubic.epoch_us) / 1e6 + e->srtt / 1e6;
	w_cubic = CUBIC_C * pow(t - e->cubic.k, 3) + e->cubic.w_max;
	e->cubic.w_est += alpha * ((double)acked / e->mss) / cwnd;
	target = maxd(w_cubic, e->cubic.w_est);
	if (target > cwnd)
		cwnd += mind(target - cwnd, cwnd / 2) / cwnd * ((double)acked / e->mss);
	e->cwnd = max64(e->cwnd, (uint64_t)(cwnd * e->mss));
}

static uint64_t
cubic_loss(struct fws_tcpe *e, uint64_t flight, uint64_t now)
{
	double cwnd = (double)e->cwnd / e->mss;

	(void)flight;
	(void)now;
	/* fast convergence: a flow below its last maximum releases bandwidth */
	e->cubic.w_max = cwnd < e->cubic.w_max ? cwnd * (1 + CUBIC_BETA) / 2 : cwnd;
	e->cubic.epoch_us = 0;
	return max64((uint64_t)(cwnd * CUBIC_BETA * e->mss), 2ull * e->mss);
}

_Static_assert(FWS_TCPE_CUBIC + 1 == FWS_TCPE_CC_N, "a line per congestion control");

const struct fws_tcpe_cc_ops fws_tcpe_ccs[FWS_TCPE_CC_N] = {
	[FWS_TCPE_NEWRENO] = {"newreno", reno_ack, reno_loss},
	[FWS_TCPE_CUBIC] = {"cubic", cubic_ack, cubic_loss},
};

int
fws_tcpe_cc_of(const char *name, enum fws_tcpe_cc_kind *out)
{
	unsigned int i;

	for (i = 0; name && i < FWS_DIM(fws_tcpe_ccs); i++)
		if (strcmp(fws_tcpe_ccs[i].name, name) == 0) {
			*out = (enum fws_tcpe_cc_kind)i;
			return 0;
		}
	return -EINVAL;
}

const char *
fws_tcpe_cc_name(enum fws_tcpe_cc_kind cc)
{
	return (unsigned int)cc < FWS_DIM(fws_tcpe_ccs) ? fws_tcpe_ccs[cc].name : "?";
}
