/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Host feature "rxq": after each trial, each port of this host's receive queues: the frames
 * each receive lcore took from it (receive lcore i polls queue i of every port) and the
 * NIC's own per-queue count over the trial (from the statistics the host read when it armed
 * the trial), into the port's block (lib/feat/fd_rxq.h).
 */
#include <rte_ethdev.h>

#include "fd_rxq.h"
#include "fws_host.h"

static void
rxq_port(const struct fws_host *t, unsigned int p, struct fws_fd_rxq *x)
{
	const struct rte_eth_stats *before = &t->before[p];
	struct rte_eth_stats now;
	unsigned int q;

	x->n = (uint16_t)t->nb_rxq;
	x->rss = t->port[p].rss;
	for (q = 0; q < t->n_rx && q < FWS_FD_RXQ_MAX; q++)
		x->frames[q] = t->rx[q]->port[p].rx_frames;
	if (rte_eth_stats_get(t->port[p].port_id, &now) != 0)
		return;
	for (q = 0; q < FWS_FD_RXQ_MAX && q < RTE_ETHDEV_QUEUE_STAT_CNTRS; q++) {
		x->nic[q] = now.q_ipackets[q] - before->q_ipackets[q];
		x->nic_counted |= x->nic[q] > 0;
	}
}

static void
rxq_collect(struct fws_host *t, void *state, struct fws_agent_counts *c, uint64_t now)
{
	unsigned int p;

	(void)state;
	(void)now;
	for (p = 0; p < t->cfg->n_ports; p++)
		if ((t->port_mask >> p) & 1)
			rxq_port(t, p, fws_host_port_block(t, &fws_fd_rxq, c, p));
}

const struct fws_host_feature fws_feature_rxq = {
	.name = "rxq",
	.on = {[FWS_FEATURE_COLLECT] = rxq_collect},
};
