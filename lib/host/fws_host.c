/* SPDX-License-Identifier: BSD-3-Clause */
/* The host's setup and teardown (fws_host.h): lcore roles, ports, control plane, transmit
 * tasks, receive lcores, then the host features; where download flows are aimed. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_random.h>
#include <rte_ring.h>

#include "fws_hostclock.h"
#include "fws_compat.h"
#include "fws_engine.h"
#include "fws_flow.h"
#include "fws_host.h"

#define TX_POOL_MBUFS 16383

/* Which lcores transmit and which receive, and the queue each TX lcore uses per port. */
struct plan {
	unsigned int tx[FWS_CFG_MAX_LCORES], rx[FWS_CFG_MAX_LCORES], n_tx, n_rx;
	uint16_t nb_txq[FWS_CFG_MAX_PORTS];
	uint16_t queue_of[FWS_CFG_MAX_LCORES][FWS_CFG_MAX_PORTS];
};

void
fws_host_sample_hugepages(struct fws_host *t)
{
	struct rte_malloc_socket_stats st;
	uint64_t total = 0;
	unsigned int i;

	for (i = 0; i < rte_socket_count(); i++) {
		int sock = rte_socket_id_by_idx(i);

		if (sock >= 0 && rte_malloc_get_socket_stats(sock, &st) == 0)
			total += st.heap_allocsz_bytes;
	}
	if (total > t->hugepage_peak)
		t->hugepage_peak = total;
}

uint64_t
fws_host_hugepage_peak(struct fws_host *t)
{
	fws_host_sample_hugepages(t);
	return t->hugepage_peak;
}

uint64_t
fws_host_tsc(const struct fws_host *t)
{
	return t->skew.on ? fws_affine_apply(&t->skew, rte_rdtsc()) : rte_rdtsc();
}

void
fws_host_clock(const struct fws_host *t, uint64_t *hz, uint64_t *hz_dpdk)
{
	*hz = t->hz;
	*hz_dpdk = t->hz_dpdk;
}

static bool
lcore_usable(unsigned int lcore)
{
	return lcore < RTE_MAX_LCORE && rte_lcore_is_enabled(lcore) &&
	       lcore != rte_get_main_lcore();
}

static int
check_lcores(const unsigned int *l, unsigned int n, const char *key, struct fws_err *e)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!lcore_usable(l[i]))
			return fws_err_set(e, FWS_ERR_CONFIG, -EINVAL,
					   "config: lcores.%s: lcore %u is not a worker lcore of "
					   "this EAL (enabled with -l, and not the main lcore %u)",
					   key, l[i], rte_get_main_lcore());
	return 0;
}

/* TX and RX lcores: from the config, or all workers split in halves (one does both). */
static int
plan_lcores(const struct fws_cfg *cfg, struct plan *pl, struct fws_err *e)
{
	unsigned int all[FWS_CFG_MAX_LCORES], n = 0, lc;

	if (cfg->n_tx_lcores) {
		if (check_lcores(cfg->tx_lcores, cfg->n_tx_lcores, "tx", e) < 0 ||
		    check_lcores(cfg->rx_lcores, cfg->n_rx_lcores, "rx", e) < 0)
			return -EINVAL;
		memcpy(pl->tx, cfg->tx_lcores, cfg->n_tx_lcores * sizeof(pl->tx[0]));
		memcpy(pl->rx, cfg->rx_lcores, cfg->n_rx_lcores * sizeof(pl->rx[0]));
		pl->n_tx = cfg->n_tx_lcores;
		pl->n_rx = cfg->n_rx_lcores;
		return 0;
	}
	RTE_LCORE_FOREACH_WORKER(lc)
	{
		if (n < FWS_CFG_MAX_LCORES)
			all[n++] = lc;
	}
	if (n == 0)
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL,
				   "setup: no worker lcore: give EAL at least two lcores "
				   "(e.g. -l 0-1), the main lcore only controls");
	pl->n_tx = n == 1 ? 1 : (n + 1) / 2;
	pl->n_rx = n == 1 ? 1 : n - pl->n_tx;
	memcpy(pl->tx, all, pl->n_tx * sizeof(pl->tx[0]));
	memcpy(pl->rx, n == 1 ? all : all + pl->n_tx, pl->n_rx * sizeof(pl->rx[0]));
	return 0;
}

/* Flows [lo, hi) of a stream that TX lcore k of n sends: contiguous shares. */
static void
share(uint32_t count, unsigned int k, unsigned int n, uint32_t *lo, uint32_t *hi)
{
	*lo = (uint32_t)((uint64_t)count * k / n);
	*hi = (uint32_t)((uint64_t)count * (k + 1) / n);
}

/* Flows [lo, hi) of stream s that TX lcore k of n sends from its sender j: contiguous
 * shares of the sender's share. */
static void
sender_share(const struct fws_cfg_stream *cs, unsigned int j, unsigned int k, unsigned int n,
	     uint32_t *lo, uint32_t *hi)
{
	uint32_t a, b;

	fws_cfg_sender_flows(cs, j, &a, &b);
	share(b - a, k, n, lo, hi);
	*lo += a;
	*hi += a;
}

/* The streams with a sender among the ports of mask. */
static uint64_t
sent_from(const struct fws_cfg *cfg, uint64_t port_mask)
{
	uint64_t m = 0;
	unsigned int s, j;

	for (s = 0; s < cfg->n_streams; s++)
		for (j = 0; j < cfg->streams[s].n_tx; j++)
			if ((port_mask >> cfg->streams[s].tx_ports[j]) & 1)
				m |= 1ull << s;
	return m;
}

/* Transmit queues: one per (TX lcore, port of this host it sends on). */
static void
plan_queues(const struct fws_host *t, struct plan *pl)
{
	bool used[FWS_CFG_MAX_LCORES][FWS_CFG_MAX_PORTS] = {{false}};
	const struct fws_cfg *cfg = t->cfg;
	unsigned int k, s, j, p;
	uint32_t lo, hi;

	for (k = 0; k < pl->n_tx; k++) {
		for (s = 0; s < cfg->n_streams; s++) {
			for (j = 0; j < cfg->streams[s].n_tx; j++) {
				p = cfg->streams[s].tx_ports[j];
				sender_share(&cfg->streams[s], j, k, pl->n_tx, &lo, &hi);
				if (!((t->port_mask >> p) & 1) || lo == hi || used[k][p])
					continue;
				used[k][p] = true;
				pl->queue_of[k][p] = pl->nb_txq[p]++;
			}
		}
	}
}

static int
setup_ports(struct fws_host *t, const struct plan *pl, struct fws_err *e)
{
	const struct fws_cfg *cfg = t->cfg;
	unsigned int p, i;
	int rc;

	for (p = 0; p < cfg->n_ports; p++) {
		struct fws_port_req req = {
			.nb_rxq = (uint16_t)pl->n_rx,
			.nb_txq = RTE_MAX(pl->nb_txq[p], (uint16_t)1),
			.rx_desc = cfg->ports[p].rx_desc,
			.tx_desc = cfg->ports[p].tx_desc,
			.max_frame = t->max_frame,
			.rx_pool_extra = pl->n_rx * FWS_RX_BURST * 2,
			.rx_stamp_nic = cfg->ports[p].rx_stamp == FWS_RX_STAMP_AUTO,
		};

		rc = fws_port_resolve(cfg->ports[p].device, e->msg, sizeof(e->msg));
		if (rc < 0) {
			e->kind = FWS_ERR_SETUP;
			return rc;
		}
		for (i = 0; i < p; i++)
			if (t->port[i].port_id == rc)
				return fws_err_set(e, FWS_ERR_CONFIG, -EINVAL,
						   "config: ports[%u].device: \"%s\" is the same "
						   "DPDK port as ports[%u]",
						   p, cfg->ports[p].device, i);
		rc = fws_port_setup((uint16_t)rc, &req, &t->port[p], e->msg, sizeof(e->msg));
		if (rc < 0) {
			e->kind = FWS_ERR_SETUP;
			return rc;
		}
	}
	t->nb_rxq = (uint16_t)pl->n_rx;
	return 0;
}

static int
setup_ctl(struct fws_host *t, struct fws_err *e)
{
	uint16_t ids[FWS_CFG_MAX_PORTS];
	struct rte_ether_addr macs[FWS_CFG_MAX_PORTS];
	unsigned int p;
	int rc;

	for (p = 0; p < t->cfg->n_ports; p++) {
		ids[p] = t->port[p].port_id;
		macs[p] = t->cfg->ports[p].mac_set ? fws_rte_mac(&t->cfg->ports[p].mac)
						   : t->port[p].mac;
	}
	rc = fws_ctlio_init(&t->ctl, t->cfg, ids, macs, t->nb_rxq, e);
	return rc < 0 ? rc : fws_ctlio_resolve(&t->ctl, e);
}

static struct fws_worker *
worker_of(struct fws_host *t, unsigned int lcore)
{
	struct fws_worker *w;
	unsigned int i;

	for (i = 0; i < t->n_workers; i++)
		if (t->workers[i].lcore == lcore)
			return &t->workers[i];
	w = &t->workers[t->n_workers++];
	w->lcore = lcore;
	w->sync = &t->sync;
	return w;
}

static int
nomem(struct fws_err *e, const struct fws_cfg *cfg)
{
	return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM,
			   "setup: out of memory for the flow tables (%u streams); %s, or use "
			   "fewer flows",
			   cfg->n_streams, fws_port_mem_hint());
}

/* Flows [lo, hi) of stream s, as its sender port sends them (hdr). The table holds every
 * flow of the stream, indexed as the receiver counts them; a flow another sender sends stays
 * zero here (its counts merge from that sender). */
static int
build_flows(struct fws_host *t, unsigned int s, const struct fws_pkt_hdr *hdr, uint32_t lo,
	    uint32_t hi, struct fws_err *e)
{
	const struct fws_cfg_stream *cs = &t->cfg->streams[s];
	struct fws_flow_tuple tup;
	uint32_t i;

	if (t->txflows[s] == NULL)
		t->txflows[s] = rte_zmalloc_socket(
			"fws_txflows", sizeof(struct fws_pkt_flow) * cs->flows.count,
			RTE_CACHE_LINE_SIZE, t->port[cs->tx_port].socket);
	if (t->txflows[s] == NULL)
		return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM,
				   "setup: stream %s: no hugepage memory for %u flows", cs->name,
				   cs->flows.count);
	for (i = lo; i < hi; i++) {
		if (fws_flow_tuple(&cs->flows, i, &tup) < 0)
			return fws_err_set(e, FWS_ERR_CONFIG, -EINVAL,
					   "config: stream %s: flow %u has no tuple", cs->name, i);
		fws_pkt_flow_init(&t->txflows[s][i], hdr, &tup, i);
	}
	return 0;
}

/* The worker that sends on a port's queue 0 also sends its control replies. */
static int
attach_ctl(struct fws_host *t, struct fws_worker *w, const struct fws_tx_task *task)
{
	struct fws_worker_ctlq *q;

	if (task->queue != 0 || t->ctl.tx_ring[task->port_idx])
		return 0;
	q = &w->ctl[w->n_ctl];
	q->ring = fws_ctlio_tx_ring(&t->ctl, task->port_idx, t->port[task->port_idx].socket);
	if (q->ring == NULL)
		return -ENOMEM;
	q->port_id = task->port_id;
	q->port_idx = task->port_idx;
	w->n_ctl++;
	return 0;
}

/* Stream s's transmit tasks from its sender j (port p, this host's): each TX lcore takes a
 * contiguous share of the sender's flows. */
static int
setup_tasks(struct fws_host *t, const struct plan *pl, unsigned int s, unsigned int j,
	    struct fws_err *e)
{
	const struct fws_cfg_stream *cs = &t->cfg->streams[s];
	const struct fws_engine *eng = fws_engine_find(fws_l4_name(cs->l4));
	unsigned int k, p = cs->tx_ports[j];
	struct fws_pkt_hdr hdr;
	uint32_t lo, hi;
	int rc;

	fws_host_sender_hdr(t, s, p, &hdr);
	fws_cfg_sender_flows(cs, j, &lo, &hi);
	rc = build_flows(t, s, &hdr, lo, hi, e);
	for (k = 0; k < pl->n_tx && rc == 0; k++) {
		struct fws_tx_task *task;
		struct fws_worker *w;
		char name[RTE_MEMPOOL_NAMESIZE];

		sender_share(cs, j, k, pl->n_tx, &lo, &hi);
		if (lo == hi)
			continue;
		task = &t->tasks[t->n_tasks++];
		task->flows = &t->txflows[s][lo];
		task->nb_flows = hi - lo;
		task->port_id = t->port[p].port_id;
		task->port_idx = (uint8_t)p;
		task->queue = pl->queue_of[k][p];
		task->burst = t->cfg->burst;
		/* The offload for the stream's own L4: the NIC writes the checksum where
		 * that protocol keeps it. */
		task->hw_cksum = hdr.tcp ? t->port[p].hw_tcp_cksum : t->port[p].hw_cksum;
		snprintf(name, sizeof(name), "fws_tx_%u_%u_%u", s, j, pl->tx[k]);
		rc = fws_engine_setup(eng, task, name, TX_POOL_MBUFS, t->max_frame,
				      t->port[p].socket, &hdr);
		if (rc < 0)
			return fws_err_set(e, FWS_ERR_SETUP, rc,
					   "setup: stream %s: cannot create a transmit pool of %u "
					   "mbufs: %s (%s)",
					   cs->name, TX_POOL_MBUFS, rte_strerror(-rc),
					   fws_port_mem_hint());
		w = worker_of(t, pl->tx[k]);
		w->tx[w->n_tx++] = task;
		if (attach_ctl(t, w, task) < 0)
			return nomem(e, t->cfg);
	}
	return rc;
}

static int
rx_streams(struct fws_host *t, struct fws_rx_lcore *c)
{
	const struct fws_cfg *cfg = t->cfg;
	uint64_t total = 0;
	unsigned int s;

	c->nb_streams = cfg->n_streams;
	for (s = 0; s < cfg->n_streams; s++) {
		struct fws_rx_stream *st = &c->streams[s];
		int socket = t->port[cfg->streams[s].rx_port].socket;

		st->nb_flows = cfg->streams[s].flows.count;
		st->rx_port = cfg->streams[s].rx_port;
		total += st->nb_flows;
		st->flows = rte_zmalloc_socket("fws_rxflows", sizeof(*st->flows) * st->nb_flows,
					       RTE_CACHE_LINE_SIZE, socket);
		c->ring[s] =
			(struct fws_rxring){.flows = st->flows,
					    .wmask = cfg->seq_window - 1,
					    .shift = (uint32_t)rte_log2_u32(cfg->seq_window / 64)};
		if (cfg->seq_window > FWS_RXSTAT_WINDOW &&
		    (c->ring[s].base = rte_malloc_socket("fws_rxrings",
							 (size_t)st->nb_flows * cfg->seq_window / 8,
							 RTE_CACHE_LINE_SIZE, socket)) == NULL)
			return -ENOMEM;
		st->hist = rte_zmalloc_socket("fws_hist", sizeof(*st->hist), RTE_CACHE_LINE_SIZE,
					      socket);
		if (st->flows == NULL || st->hist == NULL)
			return -ENOMEM;
		if (cfg->nat.mode != FWS_NAT_UNSET &&
		    (c->natobs[s] = rte_zmalloc_socket("fws_natobs",
						       sizeof(struct fws_natobs) * st->nb_flows,
						       RTE_CACHE_LINE_SIZE, socket)) == NULL)
			return -ENOMEM;
	}
	c->nat = cfg->nat.mode != FWS_NAT_UNSET;
	c->two_pass = total > FWS_RX_CACHED_FLOWS;
	c->rings = cfg->seq_window > FWS_RXSTAT_WINDOW;
	return 0;
}

/* Receive lcores: each polls one queue of every port and has its own flow tables. */
static int
setup_rx(struct fws_host *t, const struct plan *pl, struct fws_err *e)
{
	unsigned int k, p;

	for (k = 0; k < pl->n_rx; k++) {
		struct fws_rx_lcore *c = rte_zmalloc("fws_rx", sizeof(*c), RTE_CACHE_LINE_SIZE);

		if (c == NULL)
			return nomem(e, t->cfg);
		t->rx[t->n_rx++] = c;
		for (p = 0; p < t->cfg->n_ports; p++) {
			c->queues[c->nb_queues].port_id = t->port[p].port_id;
			c->queues[c->nb_queues].queue = (uint16_t)k;
			c->queues[c->nb_queues].port_idx = (uint8_t)p;
			c->nb_queues++;
		}
		c->ctl = fws_ctlio_rx_ring(&t->ctl, k);
		if (c->ctl == NULL || rx_streams(t, c) < 0)
			return nomem(e, t->cfg);
		c->ns_per_unit = 1e9 * (double)(1u << FWS_SIG_TS_SHIFT) / (double)t->hz;
		c->ns_mult = (uint64_t)(c->ns_per_unit * 4294967296.0);
		c->skew = t->skew;
		worker_of(t, pl->rx[k])->rx = c;
	}
	return 0;
}

/* Zeroed memory on cache-line boundaries: what the workers poll (the phase word in
 * fws_host.sync, each fws_worker) shares no line with what the main lcore writes as it
 * polls, wherever the heap puts it (calloc's 16 bytes made throughput depend on that). */
static void *
zalloc_lines(size_t n)
{
	void *p = NULL;

	if (posix_memalign(&p, RTE_CACHE_LINE_SIZE, n) != 0)
		return NULL;
	return memset(p, 0, n);
}

static int
setup(struct fws_host *t, struct fws_err *e)
{
	const struct fws_cfg *cfg = t->cfg;
	struct plan pl;
	unsigned int i, j;
	int rc;

	memset(&pl, 0, sizeof(pl));
	rc = plan_lcores(cfg, &pl, e);
	if (rc < 0)
		return rc;
	t->workers = zalloc_lines((pl.n_tx + pl.n_rx) * sizeof(*t->workers));
	t->tasks = rte_zmalloc("fws_tasks",
			       sizeof(*t->tasks) * cfg->n_streams * pl.n_tx * FWS_CFG_MAX_PORTS,
			       RTE_CACHE_LINE_SIZE);
	if (t->workers == NULL || t->tasks == NULL)
		return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
	for (i = 0; i < cfg->n_sizes; i++)
		t->max_frame = RTE_MAX(t->max_frame, fws_size_max(&cfg->sizes[i]));
	plan_queues(t, &pl);
	rc = setup_ports(t, &pl, e);
	if (rc == 0)
		rc = setup_ctl(t, e);
	for (i = 0; i < cfg->n_streams && rc == 0; i++)
		for (j = 0; j < cfg->streams[i].n_tx && rc == 0; j++)
			if ((t->port_mask >> cfg->streams[i].tx_ports[j]) & 1)
				rc = setup_tasks(t, &pl, i, j, e);
	if (rc == 0)
		rc = setup_rx(t, &pl, e);
	if (rc == 0 && (t->cur = calloc(1, sizeof(*t->cur))) == NULL)
		rc = fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
	if (rc == 0)
		rc = fws_host_features_setup(t, e);
	return rc;
}

struct fws_host *
fws_host_create(const struct fws_cfg *cfg, uint64_t port_mask, struct fws_err *e)
{
	struct fws_host *t = zalloc_lines(sizeof(*t));
	int rc;

	if (t == NULL) {
		fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	t->cfg = cfg;
	t->port_mask = port_mask;
	t->tx_mask = sent_from(cfg, port_mask);
	/* The TSC rate as the kernel's clock measures it, not DPDK's rounded estimate. */
	t->hz_dpdk = rte_get_tsc_hz();
	t->hz = fws_clock_calibrate(200);
	if (t->hz == 0 || fabs(fws_clock_ppm((double)t->hz, (double)t->hz_dpdk)) > 50000) {
		FWS_LOG(WARNING,
			"TSC calibration against CLOCK_MONOTONIC_RAW failed or is off "
			"by more than 5 %%: using DPDK's %" PRIu64 " Hz",
			t->hz_dpdk);
		t->hz = t->hz_dpdk;
	}
	t->sync.hz = t->hz;
	fws_sync_set(&t->sync, FWS_PHASE_IDLE);
	if (fws_affine_test_clock(getenv("FWS_TEST_CLOCK"), t->hz, rte_rdtsc(), &t->skew) < 0) {
		fws_err_set(e, FWS_ERR_CONFIG, -EINVAL,
			    "FWS_TEST_CLOCK: expected OFFSET_NS,PPM (a test-only clock)");
		free(t);
		errno = EINVAL;
		return NULL;
	}
	if (t->skew.on)
		FWS_LOG(WARNING,
			"FWS_TEST_CLOCK=%s: this host's clock is offset on purpose (tests only)",
			getenv("FWS_TEST_CLOCK"));
	t->fill_seed = rte_rand(); /* "random" fill: the same bytes for the whole run */
	rc = setup(t, e);
	if (rc < 0) {
		fws_host_destroy(t);
		errno = -rc;
		return NULL;
	}
	fws_host_sample_hugepages(t);
	return t;
}

void
fws_host_destroy(struct fws_host *t)
{
	unsigned int i, s;

	if (t == NULL)
		return;
	fws_host_features_destroy(t);
	/* The ports stop first: a NIC's driver frees the mbufs left in its rings as it stops,
	 * into the transmit pools the engines free below. */
	for (i = 0; i < t->cfg->n_ports; i++)
		if (t->port[i].rx_pool)
			fws_port_close(&t->port[i]);
	for (i = 0; t->tasks && i < t->n_tasks; i++)
		fws_engine_destroy(&t->tasks[i]);
	rte_free(t->tasks);
	for (i = 0; i < t->n_rx; i++) {
		for (s = 0; s < t->rx[i]->nb_streams; s++) {
			rte_free(t->rx[i]->streams[s].flows);
			rte_free(t->rx[i]->ring[s].base);
			rte_free(t->rx[i]->streams[s].hist);
			rte_free(t->rx[i]->natobs[s]);
		}
		rte_free(t->rx[i]);
	}
	for (s = 0; s < FWS_CFG_MAX_STREAMS; s++)
		rte_free(t->txflows[s]);
	fws_ctlio_free(&t->ctl);
	free(t->workers);
	free(t->cur);
	free(t);
}
