/* SPDX-License-Identifier: BSD-3-Clause */
/* What the seam does itself (fws_agent.h): what an agent owns of a config, and a plan from
 * outside checked before a host arms it. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "fws_agent.h"

/* A stream's rate in a plan: above any port's line rate (400 Gbit/s at 64 bytes: 595 Mpps),
 * below what a pacer's arithmetic holds. */
#define PLAN_PPS_MAX 1e10
/* A stream's frame limit: beyond a year at 400 Gbit/s line rate. */
#define PLAN_LIMIT_MAX (1ull << 54)

/* A bool read from bytes that came from outside: any nonzero byte is true. */
static void
bool_byte(bool *b)
{
	unsigned char c;

	memcpy(&c, b, 1);
	*b = c != 0;
}

int
fws_agent_plan_check(const struct fws_cfg *cfg, struct fws_agent_plan *p, struct fws_err *e)
{
	unsigned int s;

	bool_byte(&p->warmup);
	for (s = 0; s < FWS_CFG_MAX_STREAMS; s++)
		bool_byte(&p->clk[s].on);
	if (p->size_idx >= cfg->n_sizes)
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL,
				   "arm: frame size %u of a config with %u", p->size_idx,
				   cfg->n_sizes);
	if (cfg->n_streams < 32 && p->active >> cfg->n_streams)
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL,
				   "arm: streams 0x%x active of a config with %u", p->active,
				   cfg->n_streams);
	for (s = 0; s < FWS_CFG_MAX_STREAMS; s++) {
		if (!isfinite(p->pps[s]) || p->pps[s] < 0 || p->pps[s] > PLAN_PPS_MAX)
			return fws_err_set(e, FWS_ERR_SETUP, -EINVAL,
					   "arm: stream %u at %g frames/s (0 to 1e10)", s,
					   p->pps[s]);
		if (p->limit[s] > PLAN_LIMIT_MAX)
			return fws_err_set(e, FWS_ERR_SETUP, -EINVAL,
					   "arm: stream %u limited to %" PRIu64 " frames (at most "
					   "2^54)",
					   s, p->limit[s]);
	}
	return 0;
}

void
fws_agent_owns(struct fws_agent *a, const struct fws_cfg *cfg, unsigned int host)
{
	unsigned int i, j;

	a->ports = a->tx_streams = a->rx_streams = 0;
	a->host = host;
	for (i = 0; i < cfg->n_ports; i++)
		if (cfg->ports[i].host == host)
			a->ports |= 1ull << i;
	for (i = 0; i < cfg->n_streams; i++) {
		for (j = 0; j < cfg->streams[i].n_tx; j++)
			if (cfg->ports[cfg->streams[i].tx_ports[j]].host == host)
				a->tx_streams |= 1ull << i;
		if (cfg->ports[cfg->streams[i].rx_port].host == host)
			a->rx_streams |= 1ull << i;
	}
}
