/* SPDX-License-Identifier: BSD-3-Clause */
/* The in-process agent: the seam's operations (fws_agent.h) over this process's host. */
#include <errno.h>
#include <stdlib.h>

#include "fws_compat.h"
#include "fws_host.h"

struct local {
	struct fws_agent a; /* first: the agent is the local */
	struct fws_host *h;
};

static struct fws_host *
host(struct fws_agent *a)
{
	return ((struct local *)a)->h;
}

static unsigned int
local_ports(struct fws_agent *a, struct fws_port_result *out)
{
	return fws_host_ports(host(a), out);
}

static void
local_clock(struct fws_agent *a, uint64_t *hz, uint64_t *hz_dpdk)
{
	fws_host_clock(host(a), hz, hz_dpdk);
}

static uint64_t
local_hugepage_peak(struct fws_agent *a)
{
	return fws_host_hugepage_peak(host(a));
}

static int
local_prepare(struct fws_agent *a, uint32_t mask, volatile int *stop, struct fws_err *e)
{
	return fws_host_features_prepare(host(a), mask, stop, e);
}

static int
local_arm(struct fws_agent *a, const struct fws_agent_plan *p, struct fws_err *e)
{
	return fws_host_arm(host(a), p, e);
}

static int
local_launch(struct fws_agent *a, enum fws_phase ph, struct fws_err *e)
{
	return fws_host_launch(host(a), ph, e);
}

static void
local_phase(struct fws_agent *a, enum fws_phase ph)
{
	fws_host_phase(host(a), ph);
}

static void
local_poll(struct fws_agent *a, struct fws_agent_poll *out)
{
	fws_host_poll(host(a), out);
}

static void
local_live(struct fws_agent *a, bool warm, struct fws_agent_live *out)
{
	fws_host_live(host(a), warm, out);
}

static void
local_stop(struct fws_agent *a, bool measured)
{
	fws_host_stop(host(a), measured);
}

static void
local_collect(struct fws_agent *a, struct fws_agent_counts *out)
{
	fws_host_collect(host(a), out);
}

static void
local_rx_flows(struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n,
	       struct fws_agent_rxflow *out)
{
	fws_host_rx_flows(host(a), s, lo, n, out);
}

static void
local_tx_flows(struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n,
	       struct fws_agent_txflow *out)
{
	fws_host_tx_flows(host(a), s, lo, n, out);
}

static int
local_aim(struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n,
	  const struct fws_nat_tuple *at)
{
	return fws_host_aim(host(a), s, lo, n, at);
}

static void
local_after(struct fws_agent *a, struct fws_agent_counts *out)
{
	fws_host_features_after(host(a), out);
}

static void
local_retire(struct fws_agent *a)
{
	struct fws_host *h = host(a);
	unsigned int i;

	for (i = 0; i < h->n_rx; i++)
		fws_rx_retire_cookies(h->rx[i]);
}

static void
local_destroy(struct fws_agent *a)
{
	fws_host_destroy(host(a));
	free(a);
}

static const struct fws_agent_ops local_ops = {
	.name = "local",
	.ports = local_ports,
	.clock = local_clock,
	.hugepage_peak = local_hugepage_peak,
	.prepare = local_prepare,
	.arm = local_arm,
	.launch = local_launch,
	.phase = local_phase,
	.poll = local_poll,
	.live = local_live,
	.stop = local_stop,
	.collect = local_collect,
	.rx_flows = local_rx_flows,
	.tx_flows = local_tx_flows,
	.aim = local_aim,
	.after = local_after,
	.retire = local_retire,
	.destroy = local_destroy,
};

struct fws_agent *
fws_agent_local(const struct fws_cfg *cfg, struct fws_err *e)
{
	struct local *l = calloc(1, sizeof(*l));
	unsigned int i;

	if (l == NULL) {
		fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	l->h = fws_host_create(cfg, e);
	if (l->h == NULL) {
		free(l);
		return NULL;
	}
	l->a.ops = &local_ops;
	strlcpy(l->a.name, "local", sizeof(l->a.name));
	for (i = 0; i < cfg->n_ports; i++)
		l->a.ports |= 1ull << i;
	for (i = 0; i < cfg->n_streams; i++)
		l->a.tx_streams |= 1ull << i;
	l->a.rx_streams = l->a.tx_streams;
	return &l->a;
}

struct fws_host *
fws_agent_local_host(struct fws_agent *a)
{
	return a && a->ops == &local_ops ? host(a) : NULL;
}
