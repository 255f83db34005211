/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "fws_ctlio.h"
#include "fws_tcp.h"
#include "fws_pkt.h"

#define RESOLVE_TRIES 5
#define POOL_MBUFS 8191 /* TCP ACKs in flight through the reply rings too */

/* Send a control frame on port p: through the worker that owns queue 0 while workers run
 * (a refusal there is counted by the worker as tx_drop), directly otherwise. */
void
fws_ctlio_send(struct fws_ctlio *io, unsigned int p, struct rte_mbuf *m)
{
	if (io->running && io->tx_ring[p]) {
		if (rte_ring_enqueue(io->tx_ring[p], m) == 0) {
			io->port[p].cnt.sent++;
			return;
		}
	} else if (rte_eth_tx_burst(io->port_id[p], 0, &m, 1) == 1) {
		io->port[p].cnt.sent++;
		return;
	}
	io->port[p].cnt.send_fail++;
	rte_pktmbuf_free(m);
}

struct rte_mbuf *
fws_ctlio_segment(struct fws_ctlio *io, unsigned int p, unsigned int to, struct fws_tcp_seg *seg,
		  bool udp)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(io->pool);
	uint32_t len;

	if (m == NULL)
		return NULL;
	seg->src_mac = io->port[p].mac;
	seg->dst_mac = fws_ctlio_hop(io, p, to, seg->ipv6);
	seg->vlan = io->cfg->ports[p].vlan;
	len = (udp ? fws_tcp_build_udp : fws_tcp_build)(rte_pktmbuf_mtod(m, uint8_t *),
							rte_pktmbuf_tailroom(m), seg);
	if (len == 0) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	m->data_len = (uint16_t)RTE_MAX(len, 60u);
	m->pkt_len = m->data_len;
	return m;
}

static void
handle(struct fws_ctlio *io, struct rte_mbuf *m)
{
	int p = m->port < RTE_MAX_ETHPORTS ? io->port_of_id[m->port] : -1;
	uint32_t len = m->data_len;

	struct fws_pkt_view v;

	if (p < 0 || m->nb_segs != 1) {
		rte_pktmbuf_free(m);
		return;
	}
	switch (fws_pkt_parse(rte_pktmbuf_mtod(m, const uint8_t *), len, &v)) {
	case FWS_PKT_TCP:
		if (io->tcp_input) {
			io->tcp_input(io->tcp_arg, (unsigned int)p, m);
			return;
		}
		break;
	case FWS_PKT_ICMP_ERROR:
		if (io->icmp_input) {
			io->icmp_input(io->icmp_arg, (unsigned int)p, m);
			return;
		}
		break;
	default:
		break;
	}
	if (fws_ctl_input(&io->port[p], rte_pktmbuf_mtod(m, uint8_t *), &len,
			  (uint32_t)(m->buf_len - m->data_off))) {
		m->data_len = (uint16_t)len;
		m->pkt_len = len;
		m->ol_flags = 0;
		fws_ctlio_send(io, (unsigned int)p, m);
	} else {
		rte_pktmbuf_free(m);
	}
}

void
fws_ctlio_service(struct fws_ctlio *io)
{
	struct rte_mbuf *m[32];
	unsigned int i, j, n;

	for (i = 0; i < io->n_rx_rings; i++)
		while ((n = rte_ring_dequeue_burst(io->rx_ring[i], (void **)m, 32, NULL)) > 0)
			for (j = 0; j < n; j++)
				handle(io, m[j]);
}

void
fws_ctlio_poll_idle(struct fws_ctlio *io)
{
	struct rte_mbuf *m[32];
	struct fws_pkt_view v;
	unsigned int p, q, j, n;

	for (p = 0; p < io->cfg->n_ports; p++) {
		for (q = 0; q < io->nb_rxq; q++) {
			n = rte_eth_rx_burst(io->port_id[p], (uint16_t)q, m, 32);
			io->idle_rx[p] += n;
			for (j = 0; j < n; j++) {
				enum fws_pkt_kind k =
					fws_pkt_parse(rte_pktmbuf_mtod(m[j], const uint8_t *),
						      m[j]->data_len, &v);

				if (k == FWS_PKT_UDP && io->udp_input) {
					io->udp_input(io->tcp_arg, p, m[j]);
				} else if (k == FWS_PKT_CONTROL ||
					   (k == FWS_PKT_TCP && io->tcp_input) ||
					   (k == FWS_PKT_ICMP_ERROR && io->icmp_input)) {
					m[j]->port = io->port_id[p]; /* net_ring leaves it unset */
					handle(io, m[j]);
				} else {
					io->port[p].cnt.idle_frames++;
					rte_pktmbuf_free(m[j]);
				}
			}
		}
	}
}

/* A frame we originate: built by one of fws_ctl's builders into a fresh mbuf. */
typedef uint32_t (*build_fn)(const struct fws_ctl_port *cp, const void *target, uint8_t *buf);

static uint32_t
build_arp(const struct fws_ctl_port *cp, const void *target, uint8_t *buf)
{
	return fws_ctl_arp_request(cp, *(const uint32_t *)target, buf);
}

static uint32_t
build_ns(const struct fws_ctl_port *cp, const void *target, uint8_t *buf)
{
	return fws_ctl_ns(cp, target, buf);
}

static uint32_t
build_na(const struct fws_ctl_port *cp, const void *target, uint8_t *buf)
{
	return fws_ctl_unsolicited_na(cp, target, buf);
}

static void
originate(struct fws_ctlio *io, unsigned int p, build_fn build, const void *target)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(io->pool);
	uint32_t len;

	if (m == NULL) {
		io->port[p].cnt.send_fail++;
		return;
	}
	len = build(&io->port[p], target, rte_pktmbuf_mtod(m, uint8_t *));
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	fws_ctlio_send(io, p, m);
}

static void
announce_and_ask(struct fws_ctlio *io, bool announce)
{
	unsigned int p;

	for (p = 0; p < io->cfg->n_ports; p++) {
		const struct fws_ctl_port *cp = &io->port[p];

		if (announce && cp->ipv4)
			originate(io, p, build_arp, &cp->ipv4);
		if (announce && cp->has_ipv6)
			originate(io, p, build_na, cp->ipv6);
		if (cp->gw4 && !cp->gw4_known)
			originate(io, p, build_arp, &cp->gw4);
		if (cp->gw6_set && !cp->gw6_known)
			originate(io, p, build_ns, cp->gw6);
	}
}

static bool
resolved(const struct fws_ctlio *io)
{
	unsigned int p;

	for (p = 0; p < io->cfg->n_ports; p++)
		if ((io->port[p].gw4 && !io->port[p].gw4_known) ||
		    (io->port[p].gw6_set && !io->port[p].gw6_known))
			return false;
	return true;
}

static int
unresolved_error(const struct fws_ctlio *io, struct fws_err *e)
{
	char ip[INET6_ADDRSTRLEN];
	unsigned int p;

	for (p = 0; p < io->cfg->n_ports; p++) {
		const struct fws_ctl_port *cp = &io->port[p];

		if (cp->gw4 && !cp->gw4_known) {
			struct in_addr a = {.s_addr = htonl(cp->gw4)};

			inet_ntop(AF_INET, &a, ip, sizeof(ip));
			return fws_err_set(e, FWS_ERR_SETUP, -EHOSTUNREACH,
					   "setup: port %s: gateway %s did not answer %d ARP "
					   "requests",
					   io->cfg->ports[p].name, ip, RESOLVE_TRIES);
		}
		if (cp->gw6_set && !cp->gw6_known) {
			inet_ntop(AF_INET6, cp->gw6, ip, sizeof(ip));
			return fws_err_set(e, FWS_ERR_SETUP, -EHOSTUNREACH,
					   "setup: port %s: gateway %s did not answer %d "
					   "neighbour solicitations",
					   io->cfg->ports[p].name, ip, RESOLVE_TRIES);
		}
	}
	return 0;
}

int
fws_ctlio_resolve(struct fws_ctlio *io, struct fws_err *e)
{
	unsigned int try, ms;

	for (try = 0; try < RESOLVE_TRIES && !resolved(io); try++) {
		announce_and_ask(io, try == 0);
		for (ms = 0; ms < 1000 && !resolved(io); ms++) {
			fws_ctlio_poll_idle(io);
			rte_delay_us_sleep(1000);
		}
	}
	if (try == 0) /* nothing to resolve: still announce ourselves */
		announce_and_ask(io, true);
	return unresolved_error(io, e);
}

/* The addresses port p answers for: its own, its streams' sources (it sends from them) and
 * its streams' destinations (it receives for them). */
static int
add_ranges(struct fws_ctl_port *c, const struct fws_cfg *cfg, unsigned int p)
{
	const struct fws_cfg_port *cp = &cfg->ports[p];
	unsigned int s, i;
	int rc = 0;

	for (i = 0; i < cp->n_ipv4 && rc == 0; i++)
		rc = fws_ctl_add_range(c, false, NULL, cp->ipv4[i], cp->ipv4[i]);
	for (i = 0; i < cp->n_ipv6 && rc == 0; i++) {
		uint32_t lo;

		memcpy(&lo, cp->ipv6[i] + 12, 4);
		rc = fws_ctl_add_range(c, true, cp->ipv6[i], ntohl(lo), ntohl(lo));
	}
	for (s = 0; s < cfg->n_streams && rc == 0; s++) {
		const struct fws_flow_spec *f = &cfg->streams[s].flows;

		if (fws_cfg_sender(&cfg->streams[s], p) >= 0)
			rc = fws_ctl_add_range(c, f->ipv6, f->src6, f->src_ip_lo, f->src_ip_hi);
		if (rc == 0 && cfg->streams[s].rx_port == p)
			rc = fws_ctl_add_range(c, f->ipv6, f->dst6, f->dst_ip_lo, f->dst_ip_hi);
	}
	return rc;
}

static void
port_init(struct fws_ctl_port *c, const struct fws_cfg_port *cp, const struct rte_ether_addr *mac)
{
	c->mac = *mac;
	c->vlan = cp->vlan;
	c->ipv4 = cp->n_ipv4 ? cp->ipv4[0] : 0;
	c->has_ipv6 = cp->n_ipv6 > 0;
	if (c->has_ipv6)
		memcpy(c->ipv6, cp->ipv6[0], 16);
	c->gw4 = cp->gateway;
	c->gw6_set = cp->gateway6_set;
	memcpy(c->gw6, cp->gateway6, 16);
}

int
fws_ctlio_init(struct fws_ctlio *io, const struct fws_cfg *cfg, const uint16_t *port_ids,
	       const struct rte_ether_addr *macs, uint16_t nb_rxq, struct fws_err *e)
{
	unsigned int p, i;

	memset(io, 0, sizeof(*io));
	io->cfg = cfg;
	io->nb_rxq = nb_rxq;
	for (i = 0; i < RTE_MAX_ETHPORTS; i++)
		io->port_of_id[i] = -1;
	io->pool = rte_pktmbuf_pool_create("fws_ctl", POOL_MBUFS, 32, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
					   (int)rte_socket_id());
	if (io->pool == NULL)
		return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM,
				   "setup: cannot create the control pool: %s",
				   rte_strerror(rte_errno));
	for (p = 0; p < cfg->n_ports; p++) {
		io->port_id[p] = port_ids[p];
		io->port_of_id[port_ids[p]] = (int)p;
		port_init(&io->port[p], &cfg->ports[p], &macs[p]);
		if (add_ranges(&io->port[p], cfg, p) < 0)
			return fws_err_set(e, FWS_ERR_CONFIG, -ENOSPC,
					   "config: ports[%u] (%s): more than %d address ranges "
					   "to answer for (its own addresses and its streams' "
					   "sources and destinations)",
					   p, cfg->ports[p].name, FWS_CTL_MAX_RANGES);
	}
	return 0;
}

struct rte_ring *
fws_ctlio_rx_ring(struct fws_ctlio *io, unsigned int k)
{
	char name[RTE_RING_NAMESIZE];

	if (k >= FWS_CFG_MAX_LCORES)
		return NULL;
	if (io->rx_ring[k] == NULL) {
		snprintf(name, sizeof(name), "fws_ctl_rx_%u", k);
		io->rx_ring[k] = rte_ring_create(name, FWS_CTLIO_RX_RING, (int)rte_socket_id(),
						 RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (k >= io->n_rx_rings)
			io->n_rx_rings = k + 1;
	}
	return io->rx_ring[k];
}

struct rte_ring *
fws_ctlio_tx_ring(struct fws_ctlio *io, unsigned int p, int socket)
{
	char name[RTE_RING_NAMESIZE];

	if (io->tx_ring[p] == NULL) {
		snprintf(name, sizeof(name), "fws_ctl_tx_%u", p);
		io->tx_ring[p] = rte_ring_create(name, FWS_CTLIO_TX_RING, socket,
						 RING_F_SP_ENQ | RING_F_SC_DEQ);
	}
	return io->tx_ring[p];
}

struct rte_ether_addr
fws_ctlio_hop(const struct fws_ctlio *io, unsigned int from, unsigned int to, bool ipv6)
{
	const struct fws_cfg_port *tp = &io->cfg->ports[from];
	const struct fws_ctl_port *cp = &io->port[from];

	if (ipv6 && cp->gw6_known)
		return cp->gw6_mac;
	if (!ipv6 && cp->gw4_known)
		return cp->gw4_mac;
	if (tp->next_hop_set)
		return fws_rte_mac(&tp->next_hop_mac);
	return io->port[to].mac;
}

void
fws_ctlio_free(struct fws_ctlio *io)
{
	unsigned int i;

	for (i = 0; i < FWS_CFG_MAX_PORTS; i++)
		rte_ring_free(io->tx_ring[i]);
	for (i = 0; i < io->n_rx_rings; i++)
		rte_ring_free(io->rx_ring[i]);
	rte_mempool_free(io->pool);
	memset(io, 0, sizeof(*io));
}
