/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The controller's trial (fws_trial_int.h): its agents, the controller features, where the
 * features' data sits. What it reads from its agents is fws_trial_io.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fws_compat.h"
#include "fws_feat.h"
#include "fws_trial_int.h"
#include "fws_util.h"

/* Every port has an agent, every stream a sender and a receiver. */
static int
check_owners(const struct fws_trial *t, struct fws_err *e)
{
	uint64_t ports = 0, tx = 0, rx = 0;
	const struct fws_agent *a;
	unsigned int k, i;

	FWS_TRIAL_FOREACH_AGENT(t, k, a)
	{
		ports |= a->ports;
		tx |= a->tx_streams;
		rx |= a->rx_streams;
	}
	for (i = 0; i < t->cfg->n_ports; i++)
		if (!((ports >> i) & 1))
			return fws_err_set(e, FWS_ERR_CONFIG, -EINVAL,
					   "config: ports[%u] (%s): no host owns it", i,
					   t->cfg->ports[i].name);
	for (i = 0; i < t->cfg->n_streams; i++)
		if (!((tx >> i) & 1) || !((rx >> i) & 1))
			return fws_err_set(
				e, FWS_ERR_CONFIG, -EINVAL, "config: stream %s: no host %s it",
				t->cfg->streams[i].name, (tx >> i) & 1 ? "receives" : "sends");
	return 0;
}

static int
setup(struct fws_trial *t, struct fws_err *e)
{
	struct fws_agent *a;
	unsigned int k;
	int rc = check_owners(t, e);

	if (rc < 0)
		return rc;
	t->agents[0]->ops->clock(t->agents[0], &t->hz, &t->hz_dpdk);
	FWS_TRIAL_FOREACH_AGENT(t, k, a)
	{
		struct fws_port_result ports[FWS_CFG_MAX_PORTS];
		unsigned int p, n = a->ops->ports(a, ports);

		for (p = 0; p < n; p++)
			if ((a->ports >> p) & 1)
				t->port[p] = ports[p];
	}
	return fws_features_setup(t, e);
}

struct fws_trial *
fws_trial_create_agents(const struct fws_cfg *cfg, struct fws_agent *const *agents, unsigned int n,
			const struct fws_fd_layout *fd, struct fws_err *e)
{
	struct fws_trial *t = calloc(1, sizeof(*t));
	unsigned int k;
	int rc;

	if (t == NULL || n == 0 || n > FWS_TRIAL_MAX_AGENTS) {
		for (k = 0; k < n; k++)
			agents[k]->ops->destroy(agents[k]);
		if (t == NULL)
			fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
		else
			fws_err_set(e, FWS_ERR_SETUP, -EINVAL, "setup: %u agents (1 to %u)", n,
				    FWS_TRIAL_MAX_AGENTS);
		errno = t ? EINVAL : ENOMEM;
		free(t);
		return NULL;
	}
	t->cfg = cfg;
	for (k = 0; k < n; k++)
		t->agents[t->n_agents++] = agents[k];
	t->run_probe = fws_trial_run_probe;
	if (fd)
		t->fd = *fd;
	if (fd == NULL && fws_feat_layout(&t->fd) < 0)
		rc = fws_err_set(e, FWS_ERR_SETUP, -ENOSPC,
				 "setup: the features' blocks exceed their areas");
	else
		rc = setup(t, e);
	if (rc < 0) {
		fws_trial_destroy(t);
		errno = -rc;
		return NULL;
	}
	return t;
}

bool
fws_config_local_ports(const struct fws_cfg *cfg)
{
	unsigned int p;

	for (p = 0; p < cfg->n_ports; p++)
		if (cfg->ports[p].host == 0)
			return true;
	return false;
}

void
fws_trial_destroy(struct fws_trial *t)
{
	struct fws_agent *a;
	unsigned int i;

	if (t == NULL)
		return;
	fws_features_destroy(t);
	FWS_TRIAL_FOREACH_AGENT(t, i, a)
	{
		a->ops->destroy(a);
	}
	free(t);
}

uint64_t
fws_trial_hugepage_peak(struct fws_trial *t)
{
	struct fws_agent *a;
	uint64_t peak = 0;
	unsigned int i;

	FWS_TRIAL_FOREACH_AGENT(t, i, a)
	{
		peak = FWS_MAX(peak, a->ops->hugepage_peak(a));
	}
	return peak;
}

void
fws_trial_clock(const struct fws_trial *t, uint64_t *hz, uint64_t *hz_dpdk)
{
	*hz = t->hz;
	*hz_dpdk = t->hz_dpdk;
}

unsigned int
fws_trial_hosts(const struct fws_trial *t, struct fws_host_info *out, unsigned int max)
{
	struct fws_agent *a;
	unsigned int i;

	FWS_TRIAL_FOREACH_AGENT(t, i, a)
	{
		if (i == max)
			break;
		out[i] = a->info;
		strlcpy(out[i].name, a->name, sizeof(out[i].name));
		a->ops->clock(a, &out[i].tsc_hz, &(uint64_t){0});
		out[i].ports = a->ports;
		out[i].tx_streams = a->tx_streams;
		out[i].rx_streams = a->rx_streams;
	}
	return i;
}

unsigned int
fws_trial_ports(const struct fws_trial *t, struct fws_port_result *out)
{
	struct fws_port_result ports[FWS_CFG_MAX_PORTS];
	struct fws_agent *a;
	unsigned int i, p, n;

	FWS_TRIAL_FOREACH_AGENT(t, i, a)
	{
		n = a->ops->ports(a, ports);
		for (p = 0; p < n; p++)
			if ((a->ports >> p) & 1)
				out[p] = ports[p];
	}
	return t->cfg->n_ports;
}
