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

enum fws_phase {
	FWS_PHASE_IDLE = 0, /**< launched, receiving, not sending yet */
	FWS_PHASE_WARMUP,
	FWS_PHASE_MEASURE,
	FWS_PHASE_STOP,
	FWS_PHASE_QUIT,
};

struct rte_ring;
struct fws_rx_lcore;
struct fws_tx_task;

/** What every worker reads: written by the main lcore only. */
struct fws_sync {
	uint32_t phase;  /**< enum fws_phase */
	uint32_t cookie; /**< the measured phase's, for tasks restarted at measure */
	uint64_t hz;
};

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
} __rte_cache_aligned;

/** The lcore function (rte_eal_remote_launch). */
int fws_worker_main(void *arg);

/** Move every worker to phase. */
void fws_sync_set(struct fws_sync *s, enum fws_phase phase);

/** Launch n workers; on failure the ones started are told to quit and waited for. */
int fws_workers_launch(struct fws_sync *s, struct fws_worker *w, unsigned int n, struct fws_err *e);

/** True once every worker has stopped transmitting. */
bool fws_workers_tx_stopped(struct fws_worker *w, unsigned int n);

/** Wait for our own workers (other lcores may belong to the caller). */
void fws_workers_wait(struct fws_worker *w, unsigned int n);

#endif /* FWS_WORKER_H */
