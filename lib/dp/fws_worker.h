/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Worker lcores and their phase machine. The main lcore moves one phase word (idle,
 * warm-up, measure, stop, quit); each worker follows it: transmit tasks send while the
 * phase is warm-up or measure (restarted with the measured cookie when measure begins),
 * receive queues are polled until quit, and the control replies the main lcore queued for a
 * port whose TX queue 0 this worker owns go out from here (a queue has one writer).
 */
#ifndef FWS_WORKER_H
#define FWS_WORKER_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>

#include "fws_config.h"
#include "fws_err.h"
#include "fws_phase.h"

struct rte_ring;
struct fws_rx_lcore;
struct fws_tx_task;

/** What every worker reads: written by the main lcore only. A phase may be armed for an
 * instant: from TSC at on, the workers follow next (so that the hosts of a test across load
 * clients change phase at one instant, each at its own clock's reading of it). */
struct fws_sync {
	uint32_t phase;  /**< enum fws_phase */
	uint32_t next;   /**< the phase armed for at */
	uint64_t at;     /**< TSC from which next holds; UINT64_MAX: none armed */
	uint32_t cookie; /**< the measured phase's, for tasks restarted at measure */
	uint64_t hz;
	/* The last change armed (kept when it is settled; 0: none), for the workers to say how
	 * long after its instant each of them switched. */
	uint64_t arm_at;
	uint32_t arm_ph;
} __rte_cache_aligned; /* every worker reads it each pass: a line of its own */

/** The phase the workers follow at TSC now. */
static inline uint32_t
fws_sync_phase(const struct fws_sync *s, uint64_t now)
{
	if (__builtin_expect(now >= __atomic_load_n(&s->at, __ATOMIC_ACQUIRE), 0))
		return __atomic_load_n(&s->next, __ATOMIC_RELAXED);
	return __atomic_load_n(&s->phase, __ATOMIC_ACQUIRE);
}

/** Control replies for one port's TX queue 0. */
struct fws_worker_ctlq {
	uint16_t port_id;
	uint8_t port_idx;
	struct rte_ring *ring;
	uint64_t tx_drop; /**< replies the queue refused (freed): written by the worker */
};

struct fws_worker {
	unsigned int lcore;
	const struct fws_sync *sync;
	unsigned int n_ctl;
	struct fws_worker_ctlq ctl[FWS_CFG_MAX_PORTS];
	unsigned int n_tx;
	struct fws_tx_task *tx[FWS_CFG_MAX_STREAMS];
	struct fws_rx_lcore *rx;
	uint32_t tx_stopped; /**< set once the worker has seen stop */
	/* Loop passes over the measured phase and its TSC ticks (at its start: their values
	 * then): receive stamps are taken once per poll, one pass apart on average. */
	uint64_t loops, loop_ticks;
	uint64_t arm_late; /**< the longest from an armed instant to this worker's switch, ticks */
} __rte_cache_aligned;

/** The lcore function (rte_eal_remote_launch). */
int fws_worker_main(void *arg);

/** Move every worker to phase now (any phase armed is dropped). */
void fws_sync_set(struct fws_sync *s, enum fws_phase phase);

/** Move every worker to phase at TSC at (at or before now: at once). */
void fws_sync_arm(struct fws_sync *s, enum fws_phase phase, uint64_t at);

/** The phase armed, once its instant has passed, becomes the phase word (the main lcore
 * calls this as it polls). The phase the workers follow now. */
enum fws_phase fws_sync_settle(struct fws_sync *s, uint64_t now);

/** Launch n workers; on failure the ones started are told to quit and waited for. */
int fws_workers_launch(struct fws_sync *s, struct fws_worker *w, unsigned int n, struct fws_err *e);

/** True once every worker has stopped transmitting. */
bool fws_workers_tx_stopped(struct fws_worker *w, unsigned int n);

/** Wait for our own workers (other lcores may belong to the caller). */
void fws_workers_wait(struct fws_worker *w, unsigned int n);

#endif /* FWS_WORKER_H */
