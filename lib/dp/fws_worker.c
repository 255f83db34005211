/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "fws_engine.h"
#include "fws_rx.h"
#include "fws_tx.h"
#include "fws_worker.h"

static void
send_ctl(struct fws_worker_ctlq *q)
{
	struct rte_mbuf *m[32];
	unsigned int n = rte_ring_dequeue_burst(q->ring, (void **)m, 32, NULL);
	uint16_t sent = n ? rte_eth_tx_burst(q->port_id, 0, m, (uint16_t)n) : 0;

	if (sent < n) {
		rte_pktmbuf_free_bulk(m + sent, n - sent);
		q->tx_drop += n - sent;
	}
}

/* The phase word changed from seen to ph. */
static void
phase_change(struct fws_worker *w, uint32_t seen, uint32_t ph, uint64_t now, uint64_t loops)
{
	uint64_t armed = __atomic_load_n(&w->sync->arm_at, __ATOMIC_ACQUIRE);
	unsigned int i;

	if (armed && ph == w->sync->arm_ph && now >= armed) /* how late it switched */
		w->arm_late = RTE_MAX(w->arm_late, now - armed);
	if (ph == FWS_PHASE_MEASURE) {
		w->loops = loops;
		w->loop_ticks = now;
	}
	if (ph >= FWS_PHASE_STOP && seen == FWS_PHASE_MEASURE) {
		w->loops = loops - w->loops;
		w->loop_ticks = now - w->loop_ticks;
	}
	if (ph == FWS_PHASE_MEASURE && seen == FWS_PHASE_WARMUP)
		for (i = 0; i < w->n_tx; i++)
			fws_engine_start(w->tx[i], w->sync->cookie, now, w->sync->hz);
	/* From idle (launched, or waiting for an armed instant) the first sending phase paces
	 * and measures its span from its own start, not from the arming: no catch-up burst. */
	if (seen == FWS_PHASE_IDLE && (ph == FWS_PHASE_WARMUP || ph == FWS_PHASE_MEASURE))
		for (i = 0; i < w->n_tx; i++)
			fws_engine_start(w->tx[i], w->tx[i]->cookie, now, w->sync->hz);
	if (ph >= FWS_PHASE_STOP && seen <= FWS_PHASE_MEASURE) {
		for (i = 0; i < w->n_tx; i++)
			w->tx[i]->t_stop = now;
		__atomic_store_n(&w->tx_stopped, 1, __ATOMIC_RELEASE);
	}
}

/* At quit: what already reached its queues is received, not lost. A worker descheduled
 * during the drain (a busy load client) leaves frames in its rings that arrived in time;
 * it reads them, up to SWEEP_BURSTS bursts a queue (a port that never falls silent). */
#define SWEEP_BURSTS 1024

static void
sweep(struct fws_worker *w)
{
	unsigned int q, k, nq = w->rx ? w->rx->nb_queues : 0;

	for (q = 0; q < nq; q++)
		for (k = 0; k < SWEEP_BURSTS && fws_rx_poll(w->rx, &w->rx->queues[q]) > 0; k++)
			;
}

int
fws_worker_main(void *arg)
{
	struct fws_worker *w = arg;
	uint32_t seen = fws_sync_phase(w->sync, rte_rdtsc());
	uint64_t loops = 0;
	unsigned int i, k, tx0 = 0, rx0 = 0, nq = w->rx ? w->rx->nb_queues : 0;

	for (;;) {
		uint64_t now = rte_rdtsc();
		uint32_t ph = fws_sync_phase(w->sync, now);

		if (unlikely(ph != seen)) {
			phase_change(w, seen, ph, now, loops);
			seen = ph;
			if (ph == FWS_PHASE_QUIT) {
				sweep(w);
				break;
			}
		}
		/* Each task stamps from a reading taken after the task before it sent. Which task
		 * and which queue go first turns every loop: a frame waits for the work after
		 * its own send and before its own poll, and no stream may always wait least. */
		if (ph == FWS_PHASE_WARMUP || ph == FWS_PHASE_MEASURE)
			for (k = 0, i = tx0; k < w->n_tx; k++, i = i + 1 == w->n_tx ? 0 : i + 1)
				if (w->tx[i]->active)
					w->tx[i]->engine->tx_burst(w->tx[i], k ? rte_rdtsc() : now,
								   ph == FWS_PHASE_MEASURE);
		for (k = 0, i = rx0; k < nq; k++, i = i + 1 == nq ? 0 : i + 1)
			fws_rx_poll(w->rx, &w->rx->queues[i]);
		tx0 = tx0 + 1 >= w->n_tx ? 0 : tx0 + 1;
		rx0 = rx0 + 1 >= nq ? 0 : rx0 + 1;
		/* Control replies wait at most 64 loops (tens of microseconds). */
		if (unlikely((++loops & 63) == 0))
			for (i = 0; i < w->n_ctl; i++)
				if (!rte_ring_empty(w->ctl[i].ring))
					send_ctl(&w->ctl[i]);
	}
	for (i = 0; i < w->n_ctl; i++)
		send_ctl(&w->ctl[i]);
	return 0;
}

void
fws_sync_set(struct fws_sync *s, enum fws_phase phase)
{
	__atomic_store_n(&s->phase, (uint32_t)phase, __ATOMIC_RELEASE);
	__atomic_store_n(&s->at, UINT64_MAX, __ATOMIC_RELEASE);
	s->arm_at = 0;
}

/* A change armed earlier becomes the phase word first (a worker reading at cleared reads the
 * phase it became); then next before at: a worker that sees at passed reads the next it was
 * armed with, never the one before. */
void
fws_sync_arm(struct fws_sync *s, enum fws_phase phase, uint64_t at)
{
	if (s->at != UINT64_MAX) {
		__atomic_store_n(&s->phase, s->next, __ATOMIC_RELEASE);
		__atomic_store_n(&s->at, UINT64_MAX, __ATOMIC_RELEASE);
	}
	s->arm_ph = (uint32_t)phase;
	__atomic_store_n(&s->arm_at, at, __ATOMIC_RELEASE);
	__atomic_store_n(&s->next, (uint32_t)phase, __ATOMIC_RELAXED);
	__atomic_store_n(&s->at, at, __ATOMIC_RELEASE);
}

/* The phase word before at: a worker that reads at cleared reads the phase it became. */
enum fws_phase
fws_sync_settle(struct fws_sync *s, uint64_t now)
{
	if (s->at != UINT64_MAX && now >= s->at) {
		__atomic_store_n(&s->phase, s->next, __ATOMIC_RELEASE);
		__atomic_store_n(&s->at, UINT64_MAX, __ATOMIC_RELEASE);
	}
	return (enum fws_phase)fws_sync_phase(s, now);
}

int
fws_workers_launch(struct fws_sync *s, struct fws_worker *w, unsigned int n, struct fws_err *e)
{
	unsigned int i;
	int rc;

	for (i = 0; i < n; i++) {
		w[i].tx_stopped = 0;
		w[i].loops = 0;
		w[i].loop_ticks = 0;
		w[i].arm_late = 0;
		rc = rte_eal_remote_launch(fws_worker_main, &w[i], w[i].lcore);
		if (rc != 0) {
			fws_sync_set(s, FWS_PHASE_QUIT);
			fws_workers_wait(w, i);
			return fws_err_set(e, FWS_ERR_SETUP, rc < 0 ? rc : -EBUSY,
					   "setup: cannot launch lcore %u: %s", w[i].lcore,
					   strerror(rc < 0 ? -rc : EBUSY));
		}
	}
	return 0;
}

bool
fws_workers_tx_stopped(struct fws_worker *w, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!__atomic_load_n(&w[i].tx_stopped, __ATOMIC_ACQUIRE))
			return false;
	return true;
}

void
fws_workers_wait(struct fws_worker *w, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		rte_eal_wait_lcore(w[i].lcore);
}
