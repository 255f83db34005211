/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arpa/inet.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_random.h>
#include <rte_ring.h>

#include "fws_compat.h"
#include "fws_ctl.h"
#include "fws_flow.h"
#include "fws_port.h"
#include "fws_rx.h"
#include "fws_trial.h"
#include "fws_tx.h"

#define FWS_LOGTYPE fws_logtype_trial
#include "fws_log.h"
RTE_LOG_REGISTER(fws_logtype_trial, fws.trial, NOTICE);

#define MAX_TASKS (FWS_CFG_MAX_STREAMS * FWS_CFG_MAX_LCORES)
#define TX_POOL_MBUFS 16383

enum phase {
	PH_IDLE = 0,
	PH_WARMUP,
	PH_MEASURE,
	PH_STOP,
	PH_QUIT,
};

/* A port's queue 0 that this worker transmits on: it also sends the control frames the
 * main lcore queues for that port (a TX queue has one writer). */
struct ctl_txq {
	uint16_t port_id;
	struct rte_ring *ring;
};

struct worker {
	unsigned int lcore;
	unsigned int n_ctl;
	struct ctl_txq ctl[FWS_CFG_MAX_PORTS];
	uint64_t ctl_tx_drop;
	unsigned int n_tx;
	struct fws_tx_task *tx[FWS_CFG_MAX_STREAMS];
	struct fws_rx_lcore *rx;
	struct fws_trial *t;
	uint32_t tx_stopped;
} __rte_cache_aligned;

struct fws_trial {
	const struct fws_cfg *cfg;
	uint64_t hz;
	uint16_t max_frame;
	struct fws_port_info port[FWS_CFG_MAX_PORTS];
	unsigned int n_workers;
	struct worker *workers;
	unsigned int n_tasks;
	struct fws_tx_task *tasks;
	struct fws_pkt_flow *txflows[FWS_CFG_MAX_STREAMS];
	unsigned int n_rx;
	struct fws_rx_lcore *rx[FWS_CFG_MAX_LCORES];
	uint32_t phase;
	uint32_t cookie, warm_cookie;
	/* Control plane: per port state, a pool for frames we originate, a ring of replies
	 * when a worker owns the port's queue 0 (else the main lcore sends directly). */
	struct fws_ctl_port ctl[FWS_CFG_MAX_PORTS];
	struct rte_mempool *ctl_pool;
	struct rte_ring *ctl_tx[FWS_CFG_MAX_PORTS];
	int port_of_id[RTE_MAX_ETHPORTS];
	bool running;
	/* Every frame each port received and sent since setup, whatever the phase: what the
	 * DUT's own interface counters must show too. */
	uint64_t rx_total[FWS_CFG_MAX_PORTS], tx_total[FWS_CFG_MAX_PORTS];
	uint16_t nb_rxq; /**< receive queues of every port */
};

static uint64_t hugepage_peak;

static void
sample_hugepages(void)
{
	struct rte_malloc_socket_stats st;
	uint64_t total = 0;
	unsigned int i;

	for (i = 0; i < rte_socket_count(); i++) {
		int sock = rte_socket_id_by_idx(i);

		if (sock >= 0 && rte_malloc_get_socket_stats(sock, &st) == 0)
			total += st.heap_allocsz_bytes;
	}
	if (total > hugepage_peak)
		hugepage_peak = total;
}

uint64_t
fws_trial_hugepage_peak(void)
{
	sample_hugepages();
	return hugepage_peak;
}

static void
send_ctl_ring(struct worker *w, struct ctl_txq *q)
{
	struct rte_mbuf *m[32];
	unsigned int n = rte_ring_dequeue_burst(q->ring, (void **)m, 32, NULL);
	uint16_t sent = n ? rte_eth_tx_burst(q->port_id, 0, m, (uint16_t)n) : 0;

	if (sent < n) {
		rte_pktmbuf_free_bulk(m + sent, n - sent);
		w->ctl_tx_drop += n - sent;
	}
}

static int
worker_main(void *arg)
{
	struct worker *w = arg;
	struct fws_trial *t = w->t;
	uint32_t seen = __atomic_load_n(&t->phase, __ATOMIC_ACQUIRE), loops = 0;
	unsigned int i;

	for (;;) {
		uint32_t ph = __atomic_load_n(&t->phase, __ATOMIC_ACQUIRE);
		uint64_t now = rte_rdtsc();

		if (unlikely(ph != seen)) {
			if (ph == PH_MEASURE && seen == PH_WARMUP)
				for (i = 0; i < w->n_tx; i++)
					fws_tx_task_start(w->tx[i], t->cookie, now, t->hz);
			if (ph >= PH_STOP && seen <= PH_MEASURE) {
				for (i = 0; i < w->n_tx; i++)
					w->tx[i]->t_stop = now;
				__atomic_store_n(&w->tx_stopped, 1, __ATOMIC_RELEASE);
			}
			seen = ph;
			if (ph == PH_QUIT)
				break;
		}
		if (ph <= PH_MEASURE)
			for (i = 0; i < w->n_tx; i++)
				if (w->tx[i]->active)
					fws_tx_burst(w->tx[i], now, ph == PH_MEASURE);
		if (w->rx)
			for (i = 0; i < w->rx->nb_queues; i++)
				fws_rx_poll(w->rx, &w->rx->queues[i]);
		/* Control replies wait at most 64 loops (tens of microseconds). */
		if (unlikely((++loops & 63) == 0))
			for (i = 0; i < w->n_ctl; i++)
				if (!rte_ring_empty(w->ctl[i].ring))
					send_ctl_ring(w, &w->ctl[i]);
	}
	for (i = 0; i < w->n_ctl; i++)
		send_ctl_ring(w, &w->ctl[i]);
	return 0;
}

static bool
lcore_usable(unsigned int lcore)
{
	return lcore < RTE_MAX_LCORE && rte_lcore_is_enabled(lcore) &&
	       lcore != rte_get_main_lcore();
}

/* Decide TX and RX lcores: from the config, or all workers (one worker does both). */
static int
plan_lcores(const struct fws_cfg *cfg, unsigned int *tx, unsigned int *n_tx, unsigned int *rx,
	    unsigned int *n_rx, char *err, unsigned int errlen)
{
	unsigned int all[FWS_CFG_MAX_LCORES], n = 0, i, lc;

	if (cfg->n_tx_lcores) {
		for (i = 0; i < cfg->n_tx_lcores; i++)
			if (!lcore_usable(cfg->tx_lcores[i]))
				goto bad_tx;
		for (i = 0; i < cfg->n_rx_lcores; i++)
			if (!lcore_usable(cfg->rx_lcores[i]))
				goto bad_rx;
		memcpy(tx, cfg->tx_lcores, cfg->n_tx_lcores * sizeof(*tx));
		memcpy(rx, cfg->rx_lcores, cfg->n_rx_lcores * sizeof(*rx));
		*n_tx = cfg->n_tx_lcores;
		*n_rx = cfg->n_rx_lcores;
		return 0;
	}
	RTE_LCORE_FOREACH_WORKER(lc)
	{
		if (n < FWS_CFG_MAX_LCORES)
			all[n++] = lc;
	}
	if (n == 0) {
		snprintf(err, errlen,
			 "setup: no worker lcore: give EAL at least two lcores "
			 "(e.g. -l 0-1), the main lcore only controls");
		return -EINVAL;
	}
	if (n == 1) {
		tx[0] = rx[0] = all[0];
		*n_tx = *n_rx = 1;
		return 0;
	}
	*n_tx = (n + 1) / 2;
	*n_rx = n - *n_tx;
	memcpy(tx, all, *n_tx * sizeof(*tx));
	memcpy(rx, all + *n_tx, *n_rx * sizeof(*rx));
	return 0;
bad_tx:
	snprintf(err, errlen,
		 "config: lcores.tx: lcore %u is not a worker lcore of this EAL "
		 "(enabled with -l, and not the main lcore %u)",
		 cfg->tx_lcores[i], rte_get_main_lcore());
	return -EINVAL;
bad_rx:
	snprintf(err, errlen,
		 "config: lcores.rx: lcore %u is not a worker lcore of this EAL "
		 "(enabled with -l, and not the main lcore %u)",
		 cfg->rx_lcores[i], rte_get_main_lcore());
	return -EINVAL;
}

static struct worker *
worker_of(struct fws_trial *t, unsigned int lcore)
{
	unsigned int i;

	for (i = 0; i < t->n_workers; i++)
		if (t->workers[i].lcore == lcore)
			return &t->workers[i];
	t->workers[t->n_workers].lcore = lcore;
	t->workers[t->n_workers].t = t;
	return &t->workers[t->n_workers++];
}

static int
build_flows(struct fws_trial *t, unsigned int s, const struct fws_pkt_hdr *hdr, char *err,
	    unsigned int errlen)
{
	const struct fws_cfg_stream *cs = &t->cfg->streams[s];
	int socket = t->port[cs->tx_port].socket;
	struct fws_flow_tuple tup;
	uint32_t i;

	t->txflows[s] =
		rte_zmalloc_socket("fws_txflows", sizeof(struct fws_pkt_flow) * cs->flows.count,
				   RTE_CACHE_LINE_SIZE, socket);
	if (t->txflows[s] == NULL) {
		snprintf(err, errlen, "setup: stream %s: no hugepage memory for %u flows", cs->name,
			 cs->flows.count);
		return -ENOMEM;
	}
	for (i = 0; i < cs->flows.count; i++) {
		if (fws_flow_tuple(&cs->flows, i, &tup) < 0) {
			snprintf(err, errlen, "setup: stream %s: flow %u has no tuple", cs->name,
				 i);
			return -EINVAL;
		}
		fws_pkt_flow_init(&t->txflows[s][i], hdr, &tup, i);
	}
	return 0;
}

/* Destination MAC of a stream's frames: resolved gateway, static next hop, or the receiving
 * port (a cable or a loopback). */
static struct rte_ether_addr
stream_next_hop(const struct fws_trial *t, const struct fws_cfg_stream *cs)
{
	const struct fws_cfg_port *tp = &t->cfg->ports[cs->tx_port];
	const struct fws_ctl_port *cp = &t->ctl[cs->tx_port];

	if (cs->flows.ipv6 && cp->gw6_known)
		return cp->gw6_mac;
	if (!cs->flows.ipv6 && cp->gw4_known)
		return cp->gw4_mac;
	if (tp->next_hop_set)
		return tp->next_hop_mac;
	return t->ctl[cs->rx_port].mac;
}

/* Send a control frame on port p: through the worker that owns queue 0 while workers run,
 * directly otherwise. */
static void
ctl_send(struct fws_trial *t, unsigned int p, struct rte_mbuf *m)
{
	if (t->running && t->ctl_tx[p]) {
		if (rte_ring_enqueue(t->ctl_tx[p], m) == 0) {
			t->ctl[p].cnt.sent++;
			return;
		}
	} else if (rte_eth_tx_burst(t->port[p].port_id, 0, &m, 1) == 1) {
		t->ctl[p].cnt.sent++;
		return;
	}
	t->ctl[p].cnt.send_fail++;
	rte_pktmbuf_free(m);
}

/* Control frames that went out (counted by ctl_send) belong in the port's total too; the
 * workers' ring sends are counted when queued: a refusal there shows as ctl_tx_drop. */

static void
ctl_handle(struct fws_trial *t, struct rte_mbuf *m)
{
	int p = m->port < RTE_MAX_ETHPORTS ? t->port_of_id[m->port] : -1;
	uint32_t len = m->data_len;

	if (p < 0 || m->nb_segs != 1) {
		rte_pktmbuf_free(m);
		return;
	}
	if (fws_ctl_input(&t->ctl[p], rte_pktmbuf_mtod(m, uint8_t *), &len,
			  (uint32_t)(m->buf_len - m->data_off))) {
		m->data_len = (uint16_t)len;
		m->pkt_len = len;
		m->ol_flags = 0;
		ctl_send(t, (unsigned int)p, m);
	} else {
		rte_pktmbuf_free(m);
	}
}

/* Control frames the receive lcores passed on while the workers run. */
static void
ctl_service(struct fws_trial *t)
{
	struct rte_mbuf *m[32];
	unsigned int i, j, n;

	for (i = 0; i < t->n_rx; i++)
		while ((n = rte_ring_dequeue_burst(t->rx[i]->ctl, (void **)m, 32, NULL)) > 0)
			for (j = 0; j < n; j++)
				ctl_handle(t, m[j]);
}

/* With the workers stopped, the main lcore polls every queue itself. */
static void
ctl_poll_idle(struct fws_trial *t)
{
	struct rte_mbuf *m[32];
	struct fws_pkt_view v;
	unsigned int p, q, j, n;

	for (p = 0; p < t->cfg->n_ports; p++) {
		for (q = 0; q < t->nb_rxq; q++) {
			n = rte_eth_rx_burst(t->port[p].port_id, (uint16_t)q, m, 32);
			t->rx_total[p] += n;
			for (j = 0; j < n; j++) {
				if (fws_pkt_parse(rte_pktmbuf_mtod(m[j], const uint8_t *),
						  m[j]->data_len, &v) == FWS_PKT_CONTROL) {
					ctl_handle(t, m[j]);
				} else {
					t->ctl[p].cnt.idle_frames++;
					rte_pktmbuf_free(m[j]);
				}
			}
		}
	}
}

/* Send a control frame built into m (len bytes). */
static void
ctl_originate(struct fws_trial *t, unsigned int p, uint32_t len_of_built, struct rte_mbuf *m)
{
	m->data_len = (uint16_t)len_of_built;
	m->pkt_len = len_of_built;
	ctl_send(t, p, m);
}

static void
ctl_announce_and_ask(struct fws_trial *t, bool announce)
{
	unsigned int p;

	for (p = 0; p < t->cfg->n_ports; p++) {
		struct fws_ctl_port *cp = &t->ctl[p];
		struct rte_mbuf *m;

		if (announce && cp->ipv4 && (m = rte_pktmbuf_alloc(t->ctl_pool)))
			ctl_originate(
				t, p,
				fws_ctl_arp_request(cp, cp->ipv4, rte_pktmbuf_mtod(m, uint8_t *)),
				m);
		if (announce && cp->has_ipv6 && (m = rte_pktmbuf_alloc(t->ctl_pool)))
			ctl_originate(t, p,
				      fws_ctl_unsolicited_na(cp, cp->ipv6,
							     rte_pktmbuf_mtod(m, uint8_t *)),
				      m);
		if (cp->gw4 && !cp->gw4_known && (m = rte_pktmbuf_alloc(t->ctl_pool)))
			ctl_originate(
				t, p,
				fws_ctl_arp_request(cp, cp->gw4, rte_pktmbuf_mtod(m, uint8_t *)),
				m);
		if (cp->gw6_set && !cp->gw6_known && (m = rte_pktmbuf_alloc(t->ctl_pool)))
			ctl_originate(t, p, fws_ctl_ns(cp, cp->gw6, rte_pktmbuf_mtod(m, uint8_t *)),
				      m);
	}
}

static bool
ctl_resolved(const struct fws_trial *t)
{
	unsigned int p;

	for (p = 0; p < t->cfg->n_ports; p++)
		if ((t->ctl[p].gw4 && !t->ctl[p].gw4_known) ||
		    (t->ctl[p].gw6_set && !t->ctl[p].gw6_known))
			return false;
	return true;
}

#define RESOLVE_TRIES 5

/* Announce our addresses, then ask for the gateways once a second, up to 5 times. */
static int
ctl_resolve(struct fws_trial *t, char *err, unsigned int errlen)
{
	unsigned int try, ms, p;
	char ip[INET6_ADDRSTRLEN];

	for (try = 0; try < RESOLVE_TRIES && !ctl_resolved(t); try++) {
		ctl_announce_and_ask(t, try == 0);
		for (ms = 0; ms < 1000 && !ctl_resolved(t); ms++) {
			ctl_poll_idle(t);
			rte_delay_us_sleep(1000);
		}
	}
	if (try == 0) /* nothing to resolve: still announce ourselves */
		ctl_announce_and_ask(t, true);
	for (p = 0; p < t->cfg->n_ports; p++) {
		const struct fws_ctl_port *cp = &t->ctl[p];

		if (cp->gw4 && !cp->gw4_known) {
			struct in_addr a = {.s_addr = htonl(cp->gw4)};

			inet_ntop(AF_INET, &a, ip, sizeof(ip));
			snprintf(err, errlen,
				 "setup: port %s: gateway %s did not answer %d ARP "
				 "requests",
				 t->cfg->ports[p].name, ip, RESOLVE_TRIES);
			return -EHOSTUNREACH;
		}
		if (cp->gw6_set && !cp->gw6_known) {
			inet_ntop(AF_INET6, cp->gw6, ip, sizeof(ip));
			snprintf(err, errlen,
				 "setup: port %s: gateway %s did not answer %d "
				 "neighbour solicitations",
				 t->cfg->ports[p].name, ip, RESOLVE_TRIES);
			return -EHOSTUNREACH;
		}
	}
	return 0;
}

/* The addresses a port answers for: its own, its streams' sources (it sends from them) and
 * its streams' destinations (it receives for them). */
static int
ctl_init(struct fws_trial *t, char *err, unsigned int errlen)
{
	const struct fws_cfg *cfg = t->cfg;
	unsigned int p, s, i;
	int rc = 0;

	for (i = 0; i < RTE_MAX_ETHPORTS; i++)
		t->port_of_id[i] = -1;
	t->ctl_pool = rte_pktmbuf_pool_create("fws_ctl", 1023, 32, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
					      (int)rte_socket_id());
	if (t->ctl_pool == NULL) {
		snprintf(err, errlen, "setup: cannot create the control pool: %s",
			 rte_strerror(rte_errno));
		return -ENOMEM;
	}
	for (p = 0; p < cfg->n_ports; p++) {
		const struct fws_cfg_port *cp = &cfg->ports[p];
		struct fws_ctl_port *c = &t->ctl[p];

		t->port_of_id[t->port[p].port_id] = (int)p;
		c->mac = cp->mac_set ? cp->mac : t->port[p].mac;
		c->vlan = cp->vlan;
		c->ipv4 = cp->n_ipv4 ? cp->ipv4[0] : 0;
		c->has_ipv6 = cp->n_ipv6 > 0;
		if (c->has_ipv6)
			memcpy(c->ipv6, cp->ipv6[0], 16);
		c->gw4 = cp->gateway;
		c->gw6_set = cp->gateway6_set;
		memcpy(c->gw6, cp->gateway6, 16);
		for (i = 0; i < cp->n_ipv4 && rc == 0; i++)
			rc = fws_ctl_add_range(c, false, NULL, cp->ipv4[i], cp->ipv4[i]);
		for (i = 0; i < cp->n_ipv6 && rc == 0; i++) {
			uint32_t lo;

			memcpy(&lo, cp->ipv6[i] + 12, 4);
			rc = fws_ctl_add_range(c, true, cp->ipv6[i], ntohl(lo), ntohl(lo));
		}
		for (s = 0; s < cfg->n_streams && rc == 0; s++) {
			const struct fws_flow_spec *f = &cfg->streams[s].flows;

			if (cfg->streams[s].tx_port == p)
				rc = fws_ctl_add_range(c, f->ipv6, f->src6, f->src_ip_lo,
						       f->src_ip_hi);
			if (rc == 0 && cfg->streams[s].rx_port == p)
				rc = fws_ctl_add_range(c, f->ipv6, f->dst6, f->dst_ip_lo,
						       f->dst_ip_hi);
		}
		if (rc < 0) {
			snprintf(err, errlen,
				 "setup: port %s: more than %d address ranges to answer "
				 "for",
				 cp->name, FWS_CTL_MAX_RANGES);
			return rc;
		}
	}
	return ctl_resolve(t, err, errlen);
}

struct fws_trial *
fws_trial_create(const struct fws_cfg *cfg, char *err, unsigned int errlen)
{
	unsigned int tx_lc[FWS_CFG_MAX_LCORES], rx_lc[FWS_CFG_MAX_LCORES], n_tx, n_rx;
	uint16_t nb_txq[FWS_CFG_MAX_PORTS] = {0};
	uint16_t queue_of[FWS_CFG_MAX_LCORES][FWS_CFG_MAX_PORTS];
	unsigned int tasks_on[FWS_CFG_MAX_LCORES][FWS_CFG_MAX_PORTS] = {{0}};
	struct fws_trial *t;
	unsigned int i, s, k, p;
	int rc;

	t = calloc(1, sizeof(*t));
	if (t == NULL)
		goto nomem;
	t->cfg = cfg;
	t->hz = rte_get_tsc_hz();
	t->workers = calloc(FWS_CFG_MAX_LCORES * 2, sizeof(*t->workers));
	t->tasks = rte_zmalloc("fws_tasks", sizeof(*t->tasks) * MAX_TASKS, RTE_CACHE_LINE_SIZE);
	if (t->workers == NULL || t->tasks == NULL)
		goto nomem;
	rc = plan_lcores(cfg, tx_lc, &n_tx, rx_lc, &n_rx, err, errlen);
	if (rc < 0)
		goto fail_rc;
	for (i = 0; i < cfg->n_sizes; i++)
		t->max_frame = RTE_MAX(t->max_frame, fws_size_max(&cfg->sizes[i]));

	/* Transmit queues: one per (TX lcore, port it sends on). */
	for (k = 0; k < n_tx; k++) {
		for (s = 0; s < cfg->n_streams; s++) {
			p = cfg->streams[s].tx_port;
			if (cfg->streams[s].flows.count * (uint64_t)k / n_tx ==
			    cfg->streams[s].flows.count * (uint64_t)(k + 1) / n_tx)
				continue; /* no flows for this lcore */
			if (tasks_on[k][p]++ == 0)
				queue_of[k][p] = nb_txq[p]++;
		}
	}

	/* Ports. */
	for (p = 0; p < cfg->n_ports; p++) {
		struct fws_port_req req = {
			.nb_rxq = (uint16_t)n_rx,
			.nb_txq = RTE_MAX(nb_txq[p], (uint16_t)1),
			.rx_desc = cfg->ports[p].rx_desc,
			.tx_desc = cfg->ports[p].tx_desc,
			.max_frame = t->max_frame,
			.rx_pool_extra = n_rx * FWS_RX_BURST * 2,
		};

		rc = fws_port_resolve(cfg->ports[p].device, err, errlen);
		if (rc < 0)
			goto fail_rc;
		for (i = 0; i < p; i++) {
			if (t->port[i].port_id == rc) {
				snprintf(err, errlen,
					 "config: ports[%u].device: \"%s\" is the same "
					 "DPDK port as ports[%u]",
					 p, cfg->ports[p].device, i);
				rc = -EINVAL;
				goto fail_rc;
			}
		}
		rc = fws_port_setup((uint16_t)rc, &req, &t->port[p], err, errlen);
		if (rc < 0)
			goto fail_rc;
	}
	t->nb_rxq = (uint16_t)n_rx;
	rc = ctl_init(t, err, errlen);
	if (rc < 0)
		goto fail_rc;

	/* Flow tables and transmit tasks: each TX lcore takes a contiguous share of flows. */
	for (s = 0; s < cfg->n_streams; s++) {
		const struct fws_cfg_stream *cs = &cfg->streams[s];
		struct fws_pkt_hdr hdr = {.stream = (uint8_t)s, .ttl = 64};
		const struct fws_cfg_port *tp = &cfg->ports[cs->tx_port];

		hdr.src = tp->mac_set ? tp->mac : t->port[cs->tx_port].mac;
		hdr.dst = stream_next_hop(t, cs);
		hdr.vlan = tp->vlan;
		hdr.ipv6 = cs->flows.ipv6;
		memcpy(hdr.src6, cs->flows.src6, sizeof(hdr.src6));
		memcpy(hdr.dst6, cs->flows.dst6, sizeof(hdr.dst6));
		rc = build_flows(t, s, &hdr, err, errlen);
		if (rc < 0)
			goto fail_rc;
		for (k = 0; k < n_tx; k++) {
			uint32_t lo = (uint32_t)(cs->flows.count * (uint64_t)k / n_tx);
			uint32_t hi = (uint32_t)(cs->flows.count * (uint64_t)(k + 1) / n_tx);
			struct fws_tx_task *task;
			struct worker *w;
			char name[RTE_MEMPOOL_NAMESIZE];

			if (lo == hi)
				continue;
			task = &t->tasks[t->n_tasks++];
			task->flows = &t->txflows[s][lo];
			task->nb_flows = hi - lo;
			task->port_id = t->port[cs->tx_port].port_id;
			task->port_idx = cs->tx_port;
			task->queue = queue_of[k][cs->tx_port];
			task->burst = cfg->burst;
			task->hw_cksum = t->port[cs->tx_port].hw_cksum;
			snprintf(name, sizeof(name), "fws_tx_%u_%u", s, tx_lc[k]);
			rc = fws_tx_task_init(task, name, TX_POOL_MBUFS, t->max_frame,
					      t->port[cs->tx_port].socket, &hdr);
			if (rc < 0) {
				snprintf(err, errlen,
					 "setup: stream %s: cannot create a transmit "
					 "pool of %u mbufs: %s (hugepages reserved?)",
					 cs->name, TX_POOL_MBUFS, rte_strerror(-rc));
				goto fail_rc;
			}
			w = worker_of(t, tx_lc[k]);
			w->tx[w->n_tx++] = task;
			if (task->queue == 0 && t->ctl_tx[cs->tx_port] == NULL) {
				snprintf(name, sizeof(name), "fws_ctl_tx_%u", cs->tx_port);
				t->ctl_tx[cs->tx_port] =
					rte_ring_create(name, 256, t->port[cs->tx_port].socket,
							RING_F_SP_ENQ | RING_F_SC_DEQ);
				if (t->ctl_tx[cs->tx_port] == NULL)
					goto nomem_rte;
				w->ctl[w->n_ctl].port_id = task->port_id;
				w->ctl[w->n_ctl++].ring = t->ctl_tx[cs->tx_port];
			}
		}
	}

	/* Receive lcores: each polls one queue of every port, and has its own flow tables. */
	for (k = 0; k < n_rx; k++) {
		struct fws_rx_lcore *c;
		struct worker *w;
		uint64_t total;

		c = rte_zmalloc("fws_rx", sizeof(*c), RTE_CACHE_LINE_SIZE);
		if (c == NULL)
			goto nomem_rte;
		t->rx[t->n_rx++] = c;
		for (p = 0; p < cfg->n_ports; p++) {
			c->queues[c->nb_queues].port_id = t->port[p].port_id;
			c->queues[c->nb_queues].queue = (uint16_t)k;
			c->queues[c->nb_queues].port_idx = (uint8_t)p;
			c->nb_queues++;
		}
		c->nb_streams = cfg->n_streams;
		for (s = 0, total = 0; s < cfg->n_streams; s++)
			total += cfg->streams[s].flows.count;
		c->two_pass = total > FWS_RX_CACHED_FLOWS;
		for (s = 0; s < cfg->n_streams; s++) {
			struct fws_rx_stream *st = &c->streams[s];
			int socket = t->port[cfg->streams[s].rx_port].socket;

			st->nb_flows = cfg->streams[s].flows.count;
			st->rx_port = cfg->streams[s].rx_port;
			st->flows =
				rte_zmalloc_socket("fws_rxflows", sizeof(*st->flows) * st->nb_flows,
						   RTE_CACHE_LINE_SIZE, socket);
			st->hist = rte_zmalloc_socket("fws_hist", sizeof(*st->hist),
						      RTE_CACHE_LINE_SIZE, socket);
			if (st->flows == NULL || st->hist == NULL)
				goto nomem_rte;
		}
		{
			char name[RTE_RING_NAMESIZE];

			snprintf(name, sizeof(name), "fws_ctl_rx_%u", k);
			c->ctl = rte_ring_create(name, 1024, (int)rte_socket_id(),
						 RING_F_SP_ENQ | RING_F_SC_DEQ);
			if (c->ctl == NULL)
				goto nomem_rte;
		}
		c->ns_per_unit = 1e9 * (double)(1u << FWS_SIG_TS_SHIFT) / (double)t->hz;
		c->ns_mult = (uint64_t)(c->ns_per_unit * 4294967296.0);
		w = worker_of(t, rx_lc[k]);
		w->rx = c;
	}
	sample_hugepages();
	return t;

nomem_rte:
	snprintf(err, errlen,
		 "setup: out of hugepage memory for the flow tables (%u streams); "
		 "reserve more hugepages or use fewer flows",
		 cfg->n_streams);
	rc = -ENOMEM;
	goto fail_rc;
nomem:
	snprintf(err, errlen, "setup: out of memory");
	rc = -ENOMEM;
fail_rc:
	fws_trial_destroy(t);
	errno = -rc;
	return NULL;
}

static uint32_t
new_cookie(const struct fws_trial *t)
{
	uint32_t c;

	do {
		c = (uint32_t)rte_rand();
	} while (c == 0 || c == t->cookie || c == t->warm_cookie);
	return c;
}

static void
sleep_ms(unsigned int ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

/* Wait for our own workers only: other lcores may belong to the caller. */
static void
wait_workers(struct fws_trial *t, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		rte_eal_wait_lcore(t->workers[i].lcore);
}

static void
live_totals(const struct fws_trial *t, uint64_t *txf, uint64_t *txb, uint64_t *rxf, uint64_t *rxb,
	    bool warm)
{
	unsigned int i;

	*txf = *txb = *rxf = *rxb = 0;
	for (i = 0; i < t->n_tasks; i++) {
		const struct fws_tx_counters *c = &t->tasks[i].cnt;

		*txf += __atomic_load_n(warm ? &c->warmup_tx : &c->tx_frames, __ATOMIC_RELAXED);
		*txb += __atomic_load_n(&c->tx_bytes, __ATOMIC_RELAXED);
	}
	for (i = 0; i < t->n_rx; i++) {
		*rxf += __atomic_load_n(&t->rx[i]->live_frames, __ATOMIC_RELAXED);
		*rxb += __atomic_load_n(&t->rx[i]->live_bytes, __ATOMIC_RELAXED);
	}
}

static void
summarize_latency(struct fws_stream_result *sr, double jitter)
{
	const struct fws_hist *h = sr->hist;

	sr->lat.count = h->count;
	sr->lat.min = h->count ? h->min : 0;
	sr->lat.max = h->max;
	sr->lat.avg = fws_hist_mean(h);
	sr->lat.p50 = fws_hist_quantile(h, 0.50);
	sr->lat.p90 = fws_hist_quantile(h, 0.90);
	sr->lat.p99 = fws_hist_quantile(h, 0.99);
	sr->lat.p999 = fws_hist_quantile(h, 0.999);
	sr->lat.jitter = jitter;
}

static void
collect_stream(struct fws_trial *t, unsigned int s, const double *req_pps,
	       struct fws_stream_result *sr)
{
	const struct fws_cfg_stream *cs = &t->cfg->streams[s];
	uint64_t t_first = UINT64_MAX, t_stop = 0, jitter_w = 0;
	double jitter_sum = 0;
	uint32_t f;
	unsigned int i, k;

	strlcpy(sr->name, cs->name, sizeof(sr->name));
	strlcpy(sr->direction, cs->direction, sizeof(sr->direction));
	strlcpy(sr->tx_port, t->cfg->ports[cs->tx_port].name, sizeof(sr->tx_port));
	strlcpy(sr->rx_port, t->cfg->ports[cs->rx_port].name, sizeof(sr->rx_port));
	sr->flows = cs->flows.count;
	sr->req_pps = req_pps[s];
	for (i = 0; i < t->n_tasks; i++) {
		const struct fws_tx_task *task = &t->tasks[i];

		if (task->stream != s)
			continue;
		sr->tx_bytes += task->cnt.tx_bytes;
		sr->tx_refused += task->cnt.tx_refused;
		sr->alloc_fail += task->cnt.alloc_fail;
		sr->tx_frames += task->cnt.tx_frames;
		sr->unlimited |= task->pps == 0; /* unpaced: as fast as the port takes */
		sr->active |= task->active;
		t_first = RTE_MIN(t_first, task->t_first);
		t_stop = RTE_MAX(t_stop, task->t_stop);
	}
	sr->duration = t_stop > t_first ? (double)(t_stop - t_first) / (double)t->hz : 0;
	for (f = 0; f < cs->flows.count; f++) {
		struct fws_rxflow merged = t->rx[0]->streams[s].flows[f];
		unsigned int seen_on = merged.rx != 0;

		for (k = 1; k < t->n_rx; k++) {
			const struct fws_rxflow *o = &t->rx[k]->streams[s].flows[f];

			seen_on += o->rx != 0;
			fws_rxstat_merge(&merged, o);
		}
		sr->flows_split += seen_on > 1;
		fws_rxstat_add(&sr->rx, &merged, t->txflows[s][f].seq);
	}
	if (sr->rx.tx != sr->tx_frames)
		FWS_LOG(ERR,
			"stream %s: per-flow sequence counts (%" PRIu64
			") disagree with the transmit counter (%" PRIu64 ")",
			cs->name, sr->rx.tx, sr->tx_frames);
	sr->hist = calloc(1, sizeof(*sr->hist));
	if (sr->hist) {
		fws_hist_reset(sr->hist);
		for (k = 0; k < t->n_rx; k++) {
			const struct fws_rx_stream *st = &t->rx[k]->streams[s];

			fws_hist_merge(sr->hist, st->hist);
			jitter_sum += (double)st->jitter16 / 16.0 * t->rx[k]->ns_per_unit *
				      (double)st->hist->count;
			jitter_w += st->hist->count;
		}
		summarize_latency(sr, jitter_w ? jitter_sum / (double)jitter_w : 0);
	}
	if (sr->duration > 0) {
		sr->tx_pps = (double)sr->tx_frames / sr->duration;
		sr->rx_pps = (double)sr->rx.unique / sr->duration;
		sr->tx_l2_bps = (double)sr->tx_bytes * 8 / sr->duration;
		sr->tx_l1_bps = sr->tx_l2_bps + sr->tx_pps * FWS_RATE_L1_OVERHEAD * 8;
		/* Received bytes count distinct frames only: a duplicate is not throughput. */
		sr->rx_l2_bps = sr->rx.unique ? (double)sr->rx.bytes * 8 / sr->duration *
							(double)sr->rx.unique / (double)sr->rx.rx
					      : 0;
		sr->rx_l1_bps = sr->rx_l2_bps + sr->rx_pps * FWS_RATE_L1_OVERHEAD * 8;
	}
	sr->loss_pct = sr->rx.tx ? (double)sr->rx.lost * 100.0 / (double)sr->rx.tx : 0;
	sr->generator_limited =
		(sr->req_pps > 0 && sr->tx_pps < 0.99 * sr->req_pps) || sr->alloc_fail > 0;
}

static void
collect_ports(struct fws_trial *t, const struct rte_eth_stats *before, struct fws_result *res)
{
	unsigned int p, i;

	res->n_ports = fws_trial_ports(t, res->ports);
	for (p = 0; p < t->cfg->n_ports; p++) {
		struct fws_port_result *pr = &res->ports[p];
		struct rte_eth_stats now;

		for (i = 0; i < t->n_rx; i++) {
#define ADD(name, desc) pr->rx.name += t->rx[i]->port[p].name;
			FWS_RX_COUNTERS(ADD)
#undef ADD
		}
		for (i = 0; i < t->n_tasks; i++) {
			if (t->tasks[i].port_idx != p)
				continue;
#define ADD(name, desc) pr->tx.name += t->tasks[i].cnt.name;
			FWS_TX_COUNTERS(ADD)
#undef ADD
		}
		if (rte_eth_stats_get(t->port[p].port_id, &now) == 0) {
			pr->nic_ipackets = now.ipackets - before[p].ipackets;
			pr->nic_opackets = now.opackets - before[p].opackets;
			pr->nic_ibytes = now.ibytes - before[p].ibytes;
			pr->nic_obytes = now.obytes - before[p].obytes;
			pr->nic_imissed = now.imissed - before[p].imissed;
			pr->nic_ierrors = now.ierrors - before[p].ierrors;
			pr->nic_oerrors = now.oerrors - before[p].oerrors;
			pr->nic_rx_nombuf = now.rx_nombuf - before[p].rx_nombuf;
		}
	}
}

unsigned int
fws_trial_ports(const struct fws_trial *t, struct fws_port_result *out)
{
	unsigned int p;

	for (p = 0; p < t->cfg->n_ports; p++) {
		memset(&out[p], 0, sizeof(out[p]));
		strlcpy(out[p].name, t->cfg->ports[p].name, sizeof(out[p].name));
		strlcpy(out[p].device, t->cfg->ports[p].device, sizeof(out[p].device));
		strlcpy(out[p].driver, t->port[p].driver, sizeof(out[p].driver));
		rte_ether_format_addr(out[p].mac, sizeof(out[p].mac), &t->port[p].mac);
		out[p].link_speed_mbps = t->port[p].link_speed_mbps;
		out[p].link_up = t->port[p].link_up;
		out[p].hw_cksum = t->port[p].hw_cksum;
		out[p].ctl = t->ctl[p].cnt;
		out[p].rx_total = t->rx_total[p];
		out[p].tx_total = t->tx_total[p] + t->ctl[p].cnt.sent;
	}
	return t->cfg->n_ports;
}

static bool
stopped(const struct fws_trial_opts *o, int level)
{
	return o && o->stop && *o->stop >= level;
}

/* A back-to-back trial is over when every active task sent its share. */
static bool
bursts_sent(const struct fws_trial *t)
{
	unsigned int i;

	for (i = 0; i < t->n_tasks; i++)
		if (t->tasks[i].active && t->tasks[i].limit &&
		    __atomic_load_n(&t->tasks[i].cnt.tx_frames, __ATOMIC_RELAXED) <
			    t->tasks[i].limit)
			return false;
	return true;
}

/* Start the DUT load command for the measured phase (not for path-check probes). */
static void
probe_start(struct fws_trial *t, struct fws_dutload_proc *dl, bool path_probe, double seconds,
	    struct fws_result *res)
{
	int rc;

	if (path_probe || !t->cfg->dut_load_cmd[0])
		return;
	res->dut_probed = true;
	rc = fws_dutload_start(dl, t->cfg->dut_load_cmd, seconds);
	if (rc < 0)
		snprintf(res->dut.error, sizeof(res->dut.error), "cannot start \"%.80s\": %s",
			 t->cfg->dut_load_cmd, strerror(-rc));
}

/* A path-check probe: one stream at a low rate, briefly. */
struct probe {
	unsigned int stream;
	double pps, duration, drain;
};

static int
run_trial(struct fws_trial *t, unsigned int size_idx, const struct fws_trial_opts *o,
	  struct fws_result *res, char *err, unsigned int errlen, const struct probe *pr)
{
	const struct fws_cfg *cfg = t->cfg;
	double warmup = pr || (o && o->burst) ? 0 : cfg->warmup;
	double duration = pr ? pr->duration : o && o->duration > 0 ? o->duration : cfg->duration;
	double scale = !pr && o && o->rate_scale > 0 ? o->rate_scale : 1;
	double drain = pr ? pr->drain : cfg->drain;
	const struct fws_size_mix *mix = &cfg->sizes[size_idx];
	struct rte_eth_stats before[FWS_CFG_MAX_PORTS];
	double req_pps[FWS_CFG_MAX_STREAMS], avg = fws_size_avg(mix);
	uint64_t now, start, warm_end, meas_end = 0, stop_at, drain_end, next_progress;
	uint64_t last_tx = 0, last_rx = 0, last_txb = 0, last_rxb = 0, last_t;
	struct fws_dutload_proc dl;
	uint32_t first;
	unsigned int s, i;
	bool measuring = false, interrupted = false;
	int rc;

	memset(res, 0, sizeof(*res));
	res->size_idx = size_idx;
	res->size = *mix;
	if (o && o->label)
		strlcpy(res->label, o->label, sizeof(res->label));
	if (o && o->direction)
		strlcpy(res->direction, o->direction, sizeof(res->direction));
	res->avg_frame = avg;
	fws_size_rfc6985(mix, res->rfc6985, sizeof(res->rfc6985));
	res->warmup = warmup;
	res->drain = drain;
	res->started = time(NULL);

	/* Rates: each stream's, split over its tasks by their share of its flows. */
	for (s = 0; s < cfg->n_streams; s++) {
		const struct fws_cfg_stream *cs = &cfg->streams[s];
		uint64_t link_bps = (uint64_t)t->port[cs->tx_port].link_speed_mbps * 1000000ull;

		req_pps[s] = pr ? (s == pr->stream ? pr->pps : 0)
				: fws_rate_pps(&cs->rate, link_bps, avg) * scale;
		if (req_pps[s] < 0) {
			snprintf(err, errlen,
				 "config: stream %s: a rate in %% of the link needs the "
				 "link speed of port %s, which the driver does not report",
				 cs->name, cfg->ports[cs->tx_port].name);
			return -EINVAL;
		}
		if (req_pps[s] == 0 && scale < 1) {
			snprintf(err, errlen,
				 "config: stream %s: \"line\" on port %s has no known link speed "
				 "to take a share of; give the rate in pps or bit/s",
				 cs->name, cfg->ports[cs->tx_port].name);
			return -EINVAL;
		}
	}
	t->cookie = new_cookie(t);
	t->warm_cookie = new_cookie(t);
	res->cookie = t->cookie;
	for (i = 0; i < t->n_tasks; i++) {
		struct fws_tx_task *task = &t->tasks[i];
		const struct fws_cfg_stream *cs = &cfg->streams[task->stream];

		rc = fws_tx_task_sizes(task, mix);
		if (rc < 0) {
			snprintf(err, errlen, "setup: frame size mix %s does not fit the buffers",
				 mix->name);
			return rc;
		}
		memset(&task->cnt, 0, sizeof(task->cnt));
		task->active = pr ? task->stream == pr->stream
				  : !o || !o->streams || (o->streams >> task->stream) & 1;
		task->limit = 0;
		if (o && o->burst && task->active && !pr)
			task->limit = o->burst * task->nb_flows / cs->flows.count;
		/* Line rate at full scale is unpaced: the NIC sets the pace. */
		task->pps = cs->rate.kind == FWS_RATE_LINE && !pr && scale >= 1
				    ? 0
				    : req_pps[task->stream] * task->nb_flows / cs->flows.count;
	}
	/* A burst's rounding remainder goes to each stream's head task. */
	for (s = 0; o && o->burst && !pr && s < cfg->n_streams; s++) {
		uint64_t sum = 0;
		struct fws_tx_task *head = NULL;

		for (i = 0; i < t->n_tasks; i++) {
			if (t->tasks[i].stream != s || !t->tasks[i].active)
				continue;
			sum += t->tasks[i].limit;
			head = head ? head : &t->tasks[i];
		}
		if (head)
			head->limit += o->burst - sum;
	}
	for (i = 0; i < t->n_rx; i++) {
		fws_rx_reset(t->rx[i]);
		t->rx[i]->cookie = t->cookie;
		t->rx[i]->warm_cookie = t->warm_cookie;
	}
	for (i = 0; i < t->n_workers; i++)
		t->workers[i].tx_stopped = 0;
	for (i = 0; i < cfg->n_ports; i++)
		if (rte_eth_stats_get(t->port[i].port_id, &before[i]) != 0)
			memset(&before[i], 0, sizeof(before[i]));

	first = warmup > 0 ? PH_WARMUP : PH_MEASURE;
	start = rte_rdtsc();
	for (i = 0; i < t->n_tasks; i++)
		fws_tx_task_start(&t->tasks[i], first == PH_WARMUP ? t->warm_cookie : t->cookie,
				  start, t->hz);
	ctl_poll_idle(t);
	__atomic_store_n(&t->phase, first, __ATOMIC_RELEASE);
	t->running = true;
	for (i = 0; i < t->n_workers; i++) {
		rc = rte_eal_remote_launch(worker_main, &t->workers[i], t->workers[i].lcore);
		if (rc != 0) {
			__atomic_store_n(&t->phase, PH_QUIT, __ATOMIC_RELEASE);
			wait_workers(t, i);
			t->running = false;
			snprintf(err, errlen, "setup: cannot launch lcore %u: %s",
				 t->workers[i].lcore, strerror(-rc));
			return rc;
		}
	}
	warm_end = start + (uint64_t)(warmup * (double)t->hz);
	if (first == PH_MEASURE) {
		probe_start(t, &dl, pr != NULL, duration, res);
		measuring = true;
		meas_end = start + (uint64_t)(duration * (double)t->hz);
	}
	next_progress = start + t->hz;
	last_t = start;
	for (;;) {
		if (stopped(o, 1)) {
			interrupted = true;
			break;
		}
		sleep_ms(5);
		ctl_service(t);
		now = rte_rdtsc();
		if (!measuring && now >= warm_end) {
			__atomic_store_n(&t->phase, PH_MEASURE, __ATOMIC_RELEASE);
			probe_start(t, &dl, pr != NULL, duration, res);
			measuring = true;
			meas_end = now + (uint64_t)(duration * (double)t->hz);
			last_tx = last_rx = last_txb = last_rxb = 0;
			for (i = 0; i < t->n_rx; i++)
				last_rx +=
					__atomic_load_n(&t->rx[i]->live_frames, __ATOMIC_RELAXED);
			last_t = now;
			next_progress = now + t->hz;
		}
		if (measuring && now >= meas_end)
			break;
		if (measuring && o && o->burst && bursts_sent(t))
			break;
		if (o && o->progress && !pr && now >= next_progress) {
			struct fws_progress p = {.phase = measuring ? "measure" : "warm-up"};
			double dt = (double)(now - last_t) / (double)t->hz;

			live_totals(t, &p.tx_frames, &p.tx_bytes, &p.rx_frames, &p.rx_bytes,
				    !measuring);
			p.elapsed = (double)(now - start) / (double)t->hz;
			p.total = warmup + duration;
			p.tx_pps = (double)(p.tx_frames - RTE_MIN(last_tx, p.tx_frames)) / dt;
			p.rx_pps = (double)(p.rx_frames - RTE_MIN(last_rx, p.rx_frames)) / dt;
			p.tx_bps = (double)(p.tx_bytes - RTE_MIN(last_txb, p.tx_bytes)) * 8 / dt;
			p.rx_bps = (double)(p.rx_bytes - RTE_MIN(last_rxb, p.rx_bytes)) * 8 / dt;
			last_tx = p.tx_frames;
			last_rx = p.rx_frames;
			last_txb = p.tx_bytes;
			last_rxb = p.rx_bytes;
			last_t = now;
			o->progress(o->progress_arg, &p);
			next_progress = now + t->hz;
		}
		sample_hugepages();
	}

	/* Stop transmitting, wait until every transmitter has seen it, then drain. */
	__atomic_store_n(&t->phase, PH_STOP, __ATOMIC_RELEASE);
	for (i = 0; i < t->n_workers; i++)
		while (!__atomic_load_n(&t->workers[i].tx_stopped, __ATOMIC_ACQUIRE))
			rte_pause();
	stop_at = rte_rdtsc();
	drain_end = stop_at + (uint64_t)(drain * (double)t->hz);
	while (rte_rdtsc() < drain_end && !stopped(o, 2)) {
		sleep_ms(5);
		ctl_service(t);
	}
	__atomic_store_n(&t->phase, PH_QUIT, __ATOMIC_RELEASE);
	wait_workers(t, t->n_workers);
	t->running = false;
	ctl_service(t);
	if (res->dut_probed && dl.pid > 0) {
		/* It was given the measured duration; allow it 15 s more to report. */
		fws_dutload_finish(&dl, interrupted ? 1 : 15, &res->dut);
		if (!res->dut.ok)
			FWS_LOG(WARNING, "DUT load probe: %s", res->dut.error);
	}
	__atomic_store_n(&t->phase, PH_IDLE, __ATOMIC_RELEASE);

	res->partial = interrupted || !measuring;
	if (!measuring) /* Stopped in warm-up: nothing was measured, the sequence counts are
			   warm-up frames. */
		for (s = 0; s < cfg->n_streams; s++)
			for (i = 0; i < cfg->streams[s].flows.count; i++)
				t->txflows[s][i].seq = 0;
	res->n_streams = cfg->n_streams;
	for (s = 0; s < cfg->n_streams; s++)
		collect_stream(t, s, req_pps, &res->streams[s]);
	collect_ports(t, before, res);
	for (i = 0; i < res->n_ports; i++) {
		t->rx_total[i] += res->ports[i].rx.rx_frames;
		t->tx_total[i] += res->ports[i].tx.tx_frames + res->ports[i].tx.warmup_tx;
	}
	for (i = 0; i < t->n_rx; i++)
		fws_rx_retire_cookies(t->rx[i]);
	sample_hugepages();
	return 0;
}

int
fws_trial_run(struct fws_trial *t, unsigned int size_idx, const struct fws_trial_opts *o,
	      struct fws_result *res, char *err, unsigned int errlen)
{
	return run_trial(t, size_idx, o, res, err, errlen, NULL);
}

#define PROBE_PPS 200
#define PROBE_SECONDS 0.25
#define PROBE_DRAIN 0.5

int
fws_trial_path_check(struct fws_trial *t, const struct fws_trial_opts *o,
		     struct fws_path_result *paths, char *err, unsigned int errlen)
{
	const struct fws_cfg *cfg = t->cfg;
	struct fws_result *res = calloc(1, sizeof(*res));
	unsigned int s, p, z = 0;
	int rc = 0;

	if (res == NULL) {
		snprintf(err, errlen, "setup: out of memory");
		return -ENOMEM;
	}
	/* Probe with the smallest frames of the run. */
	for (s = 1; s < cfg->n_sizes; s++)
		if (fws_size_min(&cfg->sizes[s]) < fws_size_min(&cfg->sizes[z]))
			z = s;
	for (s = 0; s < cfg->n_streams && rc == 0; s++) {
		const struct fws_cfg_stream *cs = &cfg->streams[s];
		struct probe pr = {.stream = s,
				   .pps = PROBE_PPS,
				   .duration = PROBE_SECONDS,
				   .drain = PROBE_DRAIN};
		struct fws_path_result *pa = &paths[s];
		const struct fws_stream_result *sr;
		char where[160] = "";
		size_t used = 0;

		rc = run_trial(t, z, o, res, err, errlen, &pr);
		if (rc < 0)
			break;
		sr = &res->streams[s];
		memset(pa, 0, sizeof(*pa));
		strlcpy(pa->stream, cs->name, sizeof(pa->stream));
		pa->sent = sr->rx.tx;
		pa->received = sr->rx.unique;
		for (p = 0; p < res->n_ports; p++) {
			pa->wrong_port += res->ports[p].rx.wrong_port;
			pa->icmp_errors += res->ports[p].rx.icmp_errors;
			if (res->ports[p].rx.wrong_port && used < sizeof(where))
				used += (size_t)snprintf(where + used, sizeof(where) - used, "%s%s",
							 used ? ", " : "", res->ports[p].name);
		}
		fws_result_free(res);
		if (res->partial) {
			snprintf(err, errlen, "path check: interrupted");
			rc = -EINTR;
			break;
		}
		pa->ok = pa->received > 0 && pa->wrong_port == 0;
		if (pa->ok) {
			if (pa->received < pa->sent)
				FWS_LOG(WARNING,
					"path check: stream %s: %" PRIu64 " of %" PRIu64
					" probe frames arrived",
					cs->name, pa->received, pa->sent);
			continue;
		}
		used = (size_t)snprintf(err, errlen,
					"path check: stream %s (%s -> %s): %" PRIu64 " of %" PRIu64
					" probe frames arrived at %s",
					cs->name, cfg->ports[cs->tx_port].name,
					cfg->ports[cs->rx_port].name, pa->received, pa->sent,
					cfg->ports[cs->rx_port].name);
		if (pa->wrong_port && used < errlen)
			used += (size_t)snprintf(err + used, errlen - used,
						 "; %" PRIu64 " arrived on port %s instead",
						 pa->wrong_port, where);
		if (pa->icmp_errors && used < errlen)
			used += (size_t)snprintf(err + used, errlen - used,
						 "; the DUT answered with %" PRIu64
						 " ICMP errors (unreachable or TTL exceeded)",
						 pa->icmp_errors);
		if (!pa->wrong_port && !pa->icmp_errors && used < errlen)
			snprintf(err + used, errlen - used,
				 " within %.1f s; no load was sent (check routes, gateway "
				 "and cabling)",
				 PROBE_DRAIN);
		rc = -EHOSTUNREACH;
	}
	free(res);
	return rc;
}

void
fws_result_free(struct fws_result *res)
{
	unsigned int s;

	for (s = 0; s < res->n_streams; s++) {
		free(res->streams[s].hist);
		res->streams[s].hist = NULL;
	}
}

void
fws_trial_destroy(struct fws_trial *t)
{
	unsigned int i, s;

	if (t == NULL)
		return;
	if (t->tasks) {
		for (i = 0; i < t->n_tasks; i++)
			fws_tx_task_free(&t->tasks[i]);
		rte_free(t->tasks);
	}
	for (i = 0; i < t->n_rx; i++) {
		for (s = 0; s < t->rx[i]->nb_streams; s++) {
			rte_free(t->rx[i]->streams[s].flows);
			rte_free(t->rx[i]->streams[s].hist);
		}
		rte_ring_free(t->rx[i]->ctl);
		rte_free(t->rx[i]);
	}
	for (i = 0; i < FWS_CFG_MAX_PORTS; i++)
		rte_ring_free(t->ctl_tx[i]);
	for (s = 0; s < FWS_CFG_MAX_STREAMS; s++)
		rte_free(t->txflows[s]);
	if (t->cfg)
		for (i = 0; i < t->cfg->n_ports; i++)
			if (t->port[i].rx_pool)
				fws_port_close(&t->port[i]);
	rte_mempool_free(t->ctl_pool);
	free(t->workers);
	free(t);
}
