/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Feature "rxq", its data: a port's receive queues in one trial, what each received (its
 * receive lcore's count) and the NIC's own count of it where the driver keeps one; filled
 * by the host that owns the port (lib/host/feat_rxq.c).
 */
#ifndef FWS_FD_RXQ_H
#define FWS_FD_RXQ_H

#include <stdbool.h>
#include <stdint.h>

#include "fws_featdata.h"

/** Receive queues a port's block counts one by one (DPDK's per-queue NIC counters are 16). */
#define FWS_FD_RXQ_MAX 16

/** A port's. */
struct fws_fd_rxq {
	uint16_t n;       /**< its receive queues (one per receive lcore) */
	bool rss;         /**< RSS spreads flows over them */
	bool nic_counted; /**< the driver keeps per-queue counts (some queue's was not 0) */
	uint64_t frames[FWS_FD_RXQ_MAX]; /**< what queue q's lcore received in the trial */
	uint64_t nic[FWS_FD_RXQ_MAX];    /**< the NIC's q_ipackets over the trial */
};

extern const struct fws_featdata fws_fd_rxq;

#endif /* FWS_FD_RXQ_H */
