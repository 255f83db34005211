/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Host feature "nicstamps": receive timestamps from the NIC. On a port whose NIC stamps every
 * received frame (fws_port_info.stamp_rx_on: RX timestamp offload on, its clock mapped onto
 * the TSC at setup), the receive lcores take each frame's arrival from its stamp through a
 * map this feature owns and shares with them; the main lcore re-anchors the map on the NIC's
 * clock at each trial's start and once a second in it, so the rate's baseline grows over the
 * run and the offset follows drift. A clock that stops answering keeps the last map, said
 * once per port.
 */
#include <errno.h>
#include <stdlib.h>

#include <rte_malloc.h>

#include "fd_nicstamps.h"
#include "fws_host.h"

struct fws_nicstamps {
	struct fws_nicclock_pub *pub[FWS_CFG_MAX_PORTS]; /**< NULL: the port's NIC stamps none */
	struct fws_nicclock map[FWS_CFG_MAX_PORTS];      /**< the writer's copy */
	uint64_t last[FWS_CFG_MAX_PORTS];                /**< TSC of its last anchor */
	bool failed[FWS_CFG_MAX_PORTS];                  /**< a read failed (said) */
};

static void
anchor(struct fws_nicstamps *ns, const struct fws_host *t, unsigned int p, uint64_t now)
{
	uint64_t nic, tsc;
	int rc = fws_port_clock_pair(t->port[p].port_id, &nic, &tsc);

	ns->last[p] = now;
	if (rc != 0 || !fws_nicclock_anchor(&ns->map[p], nic, tsc, t->hz)) {
		if (!ns->failed[p])
			FWS_LOG(WARNING,
				"port %s: re-anchoring the NIC's clock failed (%s): its receive "
				"stamps keep the last map",
				t->cfg->ports[p].name, rc ? rte_strerror(-rc) : "it went back");
		ns->failed[p] = true;
		return;
	}
	fws_nicclock_publish(ns->pub[p], &ns->map[p]);
}

/* Re-anchor every port whose last anchor is at least age TSC ticks old. */
static void
anchor_due(struct fws_nicstamps *ns, const struct fws_host *t, uint64_t now, uint64_t age)
{
	unsigned int p;

	for (p = 0; p < t->cfg->n_ports; p++)
		if (ns->pub[p] && now - ns->last[p] >= age)
			anchor(ns, t, p, now);
}

static void
ns_start(struct fws_host *t, void *state, struct fws_agent_counts *c, uint64_t now)
{
	(void)c;
	anchor_due(state, t, now, 0);
}

static void
ns_service(struct fws_host *t, void *state, struct fws_agent_counts *c, uint64_t now)
{
	(void)c;
	anchor_due(state, t, now, t->hz);
}

/* Port p's receive queues on every receive lcore take their arrivals from pub. */
static void
share(struct fws_host *t, unsigned int p, const struct fws_nicclock_pub *pub)
{
	unsigned int k, j;

	for (k = 0; k < t->n_rx; k++) {
		struct fws_rx_lcore *c = t->rx[k];

		for (j = 0; j < c->nb_queues; j++) {
			if (c->queues[j].port_idx != p)
				continue;
			c->queues[j].nc = pub;
			c->stamp_off = t->port[p].stamp_off;
			c->stamp_flag = t->port[p].stamp_flag;
		}
	}
}

static int
ns_setup(struct fws_host *t, void **state, struct fws_err *e)
{
	struct fws_nicstamps *ns = calloc(1, sizeof(*ns));
	unsigned int p;

	if (ns == NULL)
		return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
	*state = ns;
	for (p = 0; p < t->cfg->n_ports; p++) {
		if (!(t->port_mask >> p & 1) || !t->port[p].stamp_rx_on)
			continue;
		ns->pub[p] = rte_zmalloc_socket("fws_nicclock", sizeof(*ns->pub[p]),
						RTE_CACHE_LINE_SIZE, t->port[p].socket);
		if (ns->pub[p] == NULL)
			return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM,
					   "setup: port %s: no memory for its clock map (%s)",
					   t->cfg->ports[p].name, fws_port_mem_hint());
		ns->map[p] = t->port[p].clock;
		fws_nicclock_publish(ns->pub[p], &ns->map[p]);
		share(t, p, ns->pub[p]);
	}
	return 0;
}

static void
ns_destroy(struct fws_host *t, void *state)
{
	struct fws_nicstamps *ns = state;
	unsigned int p;

	(void)t; /* the workers have stopped: no queue reads a map any more */
	if (ns == NULL)
		return;
	for (p = 0; p < FWS_CFG_MAX_PORTS; p++)
		rte_free(ns->pub[p]);
	free(ns);
}

/* What the port's NIC offers and what is used, in its facts (lib/feat/fd_nicstamps.h). */
static void
ns_port_facts(const struct fws_host *t, const void *state, unsigned int p,
	      struct fws_port_result *out)
{
	struct fws_fd_nicstamps *x = fws_host_port_fact(t, &fws_fd_nicstamps, out);

	(void)state;
	if (x)
		*x = (struct fws_fd_nicstamps){.filled = true,
					       .physical = t->port[p].physical,
					       .rx_all = t->port[p].stamp_rx_all,
					       .ptp = t->port[p].stamp_ptp,
					       .rx_used = t->port[p].stamp_rx_on};
}

const struct fws_host_feature fws_feature_nicstamps = {
	.name = "nicstamps",
	.setup = ns_setup,
	.port_facts = ns_port_facts,
	.on = {[FWS_FEATURE_START] = ns_start, [FWS_FEATURE_SERVICE] = ns_service},
	.destroy = ns_destroy,
};
