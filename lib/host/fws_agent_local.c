/* SPDX-License-Identifier: BSD-3-Clause */
/* The in-process agent: the seam's operations (fws_agent.h) over this process's host. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <rte_version.h>

#include "fws_compat.h"
#include "fws_conntester.h"
#include "fws_agent_local.h"
#include "fws_host.h"

#define PTP_READS 16 /* reads of the clock pair: the one with the smallest window */

static const struct fws_agent_ops local_ops;

struct local {
	struct fws_agent a; /* first: the agent is the local */
	struct fws_host *h;
	struct fws_cfg *part;        /* the config with other hosts' ports as placeholders */
	struct fws_conntester *conn; /* connection tests: made at the first iteration */
	bool serving;                /* its servers answer another host's clients */
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
local_tsc(struct fws_agent *a)
{
	return fws_host_tsc(host(a));
}

/* ptp4l's state, then the tightest of PTP_READS reads of CLOCK_REALTIME around the TSC. */
static int
local_ptp(struct fws_agent *a, const char *socket, unsigned int domain, struct fws_ptp_point *out,
	  struct fws_err *e)
{
	char msg[240];
	unsigned int i;

	memset(out, 0, sizeof(*out));
	if (fws_ptp_query(socket, domain, &out->st, &out->error_ns, msg, sizeof(msg)) < 0)
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL, "%s", msg);
	out->read_ns = INFINITY;
	for (i = 0; i < PTP_READS; i++) {
		struct timespec t1, t2;
		uint64_t x;
		double w;

		clock_gettime(CLOCK_REALTIME, &t1);
		x = local_tsc(a);
		clock_gettime(CLOCK_REALTIME, &t2);
		w = (double)(t2.tv_sec - t1.tv_sec) * 1e9 + (double)(t2.tv_nsec - t1.tv_nsec);
		if (w >= 0 && w < out->read_ns) {
			out->read_ns = w;
			out->tsc = x;
			out->realtime_ns =
				(int64_t)t1.tv_sec * 1000000000 + t1.tv_nsec + (int64_t)(w / 2);
		}
	}
	return isfinite(out->read_ns) ? 0
				      : fws_err_set(e, FWS_ERR_SETUP, -EIO,
						    "CLOCK_REALTIME went back in every read");
}

static uint64_t
local_hugepage_peak(struct fws_agent *a)
{
	return fws_host_hugepage_peak(host(a));
}

static int
local_prepare(struct fws_agent *a, enum fws_prep_stage st, uint32_t mask, volatile int *stop,
	      struct fws_err *e)
{
	return fws_host_features_prepare(host(a), st, mask, stop, e);
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

static double
local_phase(struct fws_agent *a, enum fws_phase ph, uint64_t at)
{
	return fws_host_phase(host(a), ph, at);
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

/* The connection engine over this host's ports, made once. */
static struct fws_conntester *
conntester(struct fws_agent *a, struct fws_err *e)
{
	struct local *l = (struct local *)a;

	if (l->conn == NULL)
		l->conn = fws_conntester_new(l->h, l->part, e);
	return l->conn;
}

static int
local_conn_trial(struct fws_agent *a, double rate, uint32_t nonce, bool progress,
		 const struct fws_conntester_hooks *hk, volatile int *stop,
		 struct fws_conntrial *out, struct fws_err *e)
{
	struct fws_conntester *x = conntester(a, e);

	if (x == NULL)
		return -ENOMEM;
	((struct local *)a)->serving = false;
	fws_conntester_progress(x, progress ? stderr : NULL);
	return fws_conntester_trial(x, rate, nonce, hk, stop, out);
}

static int
local_conn_between(struct fws_agent *a, volatile int *stop, struct fws_err *e)
{
	struct fws_conntester *x = conntester(a, e);

	return x ? fws_conntester_between(x, stop, e) : -ENOMEM;
}

static int
local_conn_serve(struct fws_agent *a, uint32_t nonce, struct fws_err *e)
{
	struct fws_conntester *x = conntester(a, e);

	if (x == NULL)
		return -ENOMEM;
	fws_conntester_serve(x, nonce);
	((struct local *)a)->serving = true;
	return 0;
}

bool
fws_agent_local_idle(struct fws_agent *a)
{
	struct local *l = (struct local *)a;

	if (a == NULL || a->ops != &local_ops)
		return false;
	if (l->serving)
		return fws_conntester_pass(l->conn) > 0;
	fws_host_idle(l->h);
	return false;
}

static void
local_destroy(struct fws_agent *a)
{
	fws_conntester_free(((struct local *)a)->conn);
	fws_host_destroy(host(a));
	free(((struct local *)a)->part);
	free(a);
}

static const struct fws_agent_ops local_ops = {
	.name = "local",
	.ports = local_ports,
	.clock = local_clock,
	.tsc = local_tsc,
	.ptp = local_ptp,
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
	.conn_trial = local_conn_trial,
	.conn_between = local_conn_between,
	.conn_serve = local_conn_serve,
	.destroy = local_destroy,
};

/*
 * The config as this host sets it up: each port another host owns becomes a placeholder
 * (a null device that receives nothing, no gateway to resolve) so that port and stream
 * indices stay the config's. A shallow copy: its strings are cfg's.
 */
static struct fws_cfg *
part_of(const struct fws_cfg *cfg, unsigned int host)
{
	struct fws_cfg *c = malloc(sizeof(*c));
	unsigned int p;

	if (c == NULL)
		return NULL;
	memcpy(c, cfg, sizeof(*c));
	for (p = 0; p < c->n_ports; p++) {
		struct fws_cfg_port *cp = &c->ports[p];

		if (cp->host == host)
			continue;
		snprintf(cp->device, sizeof(cp->device), "net_null_fwsaway%u,no-rx=1", p);
		cp->gateway = 0;
		cp->gateway6_set = false;
		cp->next_hop_set = true;
		memset(&cp->next_hop_mac, 0, sizeof(cp->next_hop_mac));
		cp->next_hop_mac.addr_bytes[0] = 0x02;
	}
	return c;
}

void
fws_agent_info_self(struct fws_host_info *out)
{
	struct utsname u;

	memset(out, 0, sizeof(*out));
	if (gethostname(out->hostname, sizeof(out->hostname) - 1) < 0)
		strlcpy(out->hostname, "?", sizeof(out->hostname));
	if (uname(&u) == 0) { /* "Linux 6.1.0-26-amd64 x86_64" */
		strlcpy(out->kernel, u.sysname, sizeof(out->kernel));
		strlcat(out->kernel, " ", sizeof(out->kernel));
		strlcat(out->kernel, u.release, sizeof(out->kernel));
		strlcat(out->kernel, " ", sizeof(out->kernel));
		strlcat(out->kernel, u.machine, sizeof(out->kernel));
	}
	strlcpy(out->fwstress, FWS_VERSION, sizeof(out->fwstress));
	strlcpy(out->dpdk, rte_version(), sizeof(out->dpdk));
	strlcpy(out->via, "in process", sizeof(out->via));
}

struct fws_agent *
fws_agent_local_part(const struct fws_cfg *cfg, unsigned int host, struct fws_err *e)
{
	struct local *l = calloc(1, sizeof(*l));

	if (l == NULL || (l->part = part_of(cfg, host)) == NULL) {
		free(l);
		fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	l->a.ops = &local_ops;
	fws_agent_info_self(&l->a.info);
	strlcpy(l->a.name, host ? cfg->hosts[host - 1].name : "local", sizeof(l->a.name));
	fws_agent_owns(&l->a, cfg, host);
	l->h = fws_host_create(l->part, l->a.ports, e);
	if (l->h == NULL) {
		free(l->part);
		free(l);
		return NULL;
	}
	return &l->a;
}

struct fws_agent *
fws_agent_local(const struct fws_cfg *cfg, struct fws_err *e)
{
	return fws_agent_local_part(cfg, 0, e);
}

struct fws_host *
fws_agent_local_host(struct fws_agent *a)
{
	return a && a->ops == &local_ops ? host(a) : NULL;
}
