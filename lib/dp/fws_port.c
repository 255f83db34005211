/* SPDX-License-Identifier: BSD-3-Clause */
/* rte_eth_read_clock: experimental in 22.11 and 23.11 */
#define ALLOW_EXPERIMENTAL_API
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <rte_bus.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_devargs.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "fws_compat.h"
#include "fws_port.h"

#define FWS_LOGMOD "fws.port"
#include "fws_log.h"

#define LINK_WAIT_MS 5000

static int
ringpair_create(const char *name, char side, char *err, unsigned int errlen)
{
	struct rte_ring *ab[FWS_PORT_RINGPAIR_QUEUES], *ba[FWS_PORT_RINGPAIR_QUEUES];
	char rname[RTE_RING_NAMESIZE], pname[RTE_ETH_NAME_MAX_LEN];
	uint16_t pid;
	int q, a;

	/* rte_eth_from_rings() names the port net_ring_<name>. */
	snprintf(pname, sizeof(pname), "net_ring_rp_%.20s_%c", name, side);
	if (rte_eth_dev_get_port_by_name(pname, &pid) == 0)
		return pid;
	snprintf(pname, sizeof(pname), "rp_%.20s_%c", name, side);
	for (q = 0; q < FWS_PORT_RINGPAIR_QUEUES; q++) {
		snprintf(rname, sizeof(rname), "rp%.20s_ab%d", name, q);
		ab[q] = rte_ring_lookup(rname);
		if (ab[q] == NULL)
			ab[q] = rte_ring_create(rname, FWS_PORT_RINGPAIR_SIZE, (int)rte_socket_id(),
						RING_F_SP_ENQ | RING_F_SC_DEQ);
		snprintf(rname, sizeof(rname), "rp%.20s_ba%d", name, q);
		ba[q] = rte_ring_lookup(rname);
		if (ba[q] == NULL)
			ba[q] = rte_ring_create(rname, FWS_PORT_RINGPAIR_SIZE, (int)rte_socket_id(),
						RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (ab[q] == NULL || ba[q] == NULL) {
			snprintf(err, errlen, "ringpair:%.20s: cannot create rings: %s", name,
				 rte_strerror(rte_errno));
			return -ENOMEM;
		}
	}
	/* Side a sends on ab and receives on ba; side b the other way round. */
	if (side == 'a')
		a = rte_eth_from_rings(pname, ba, FWS_PORT_RINGPAIR_QUEUES, ab,
				       FWS_PORT_RINGPAIR_QUEUES, rte_socket_id());
	else
		a = rte_eth_from_rings(pname, ab, FWS_PORT_RINGPAIR_QUEUES, ba,
				       FWS_PORT_RINGPAIR_QUEUES, rte_socket_id());
	if (a < 0) {
		snprintf(err, errlen, "ringpair:%.20s:%c: cannot create the port: %s", name, side,
			 rte_strerror(rte_errno));
		return -ENODEV;
	}
	return a;
}

int
fws_port_resolve(const char *device, char *err, unsigned int errlen)
{
	char name[RTE_DEV_NAME_MAX_LEN];
	uint16_t pid;
	size_t n;
	int rc;

	if (strncmp(device, "ringpair:", 9) == 0) {
		const char *rest = device + 9, *colon = strrchr(rest, ':');

		if (colon == NULL || colon == rest || (size_t)(colon - rest) > 20 ||
		    (strcmp(colon, ":a") != 0 && strcmp(colon, ":b") != 0)) {
			snprintf(err, errlen, "device \"%s\": expected ringpair:NAME:a or :b",
				 device);
			return -EINVAL;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(colon - rest), rest);
		return ringpair_create(name, colon[1], err, errlen);
	}
	n = strcspn(device, ",");
	if (n == 0 || n >= sizeof(name)) {
		snprintf(err, errlen, "device \"%s\": not a PCI address or vdev name", device);
		return -EINVAL;
	}
	memcpy(name, device, n);
	name[n] = '\0';
	if (rte_eth_dev_get_port_by_name(name, &pid) == 0)
		return pid;
	rc = rte_dev_probe(device);
	if (rc < 0) {
		snprintf(err, errlen,
			 "device \"%s\": probe failed: %s (is it bound to a DPDK "
			 "driver, or a known vdev?)",
			 device, strerror(-rc));
		return rc;
	}
	if (rte_eth_dev_get_port_by_name(name, &pid) != 0) {
		snprintf(err, errlen, "device \"%s\": probed, but no ethdev port appeared", device);
		return -ENODEV;
	}
	return pid;
}

/* What the setup steps share, in DPDK's order: info, configure, queues, start. */
struct port_setup {
	uint16_t port_id;
	const struct fws_port_req *req;
	struct fws_port_info *info;
	struct rte_eth_dev_info dev;
	struct rte_eth_conf conf;
	int socket;
	char *err;
	unsigned int errlen;
};

/* af_packet: the kernel interface named by the device's "iface=" argument. */
static void
port_kernel_if(const struct port_setup *s, struct fws_port_info *info)
{
	const struct rte_devargs *da = s->dev.device ? rte_dev_devargs(s->dev.device) : NULL;
	const char *a, *p;
	size_t n;

	if (strcmp(info->driver, "net_af_packet") != 0 || da == NULL || da->args == NULL)
		return;
	for (a = da->args; (p = strstr(a, "iface=")) != NULL; a = p + 1) {
		if (p != da->args && p[-1] != ',')
			continue;
		p += strlen("iface=");
		n = strcspn(p, ",");
		if (n > 0 && n < sizeof(info->kernel_if)) {
			memcpy(info->kernel_if, p, n);
			info->kernel_if[n] = '\0';
		}
		return;
	}
}

void
fws_port_stamp_probe(uint16_t port_id, const struct rte_eth_dev_info *dev, bool *rx_all, bool *ptp)
{
	struct timespec ts;

	*rx_all = (dev->rx_offload_capa & RTE_ETH_RX_OFFLOAD_TIMESTAMP) != 0;
	*ptp = rte_eth_timesync_read_time(port_id, &ts) != -ENOTSUP;
}

static int
port_step_info(struct port_setup *s)
{
	struct fws_port_info *info = s->info;
	int rc = rte_eth_dev_info_get(s->port_id, &s->dev);

	if (rc != 0) {
		snprintf(s->err, s->errlen, "port %u: cannot get device info: %s", s->port_id,
			 strerror(-rc));
		return rc;
	}
	s->socket = rte_eth_dev_socket_id(s->port_id);
	if (s->socket < 0)
		s->socket = (int)rte_socket_id();
	info->socket = s->socket;
	strlcpy(info->driver, s->dev.driver_name, sizeof(info->driver));
	info->physical = s->dev.device != NULL && rte_dev_bus(s->dev.device) != NULL &&
			 strcmp(rte_bus_name(rte_dev_bus(s->dev.device)), "vdev") != 0;
	rte_eth_dev_get_name_by_port(s->port_id, info->dev_name);
	port_kernel_if(s, info);
	fws_port_stamp_probe(s->port_id, &s->dev, &info->stamp_rx_all, &info->stamp_ptp);
	if (s->req->nb_rxq > s->dev.max_rx_queues || s->req->nb_txq > s->dev.max_tx_queues) {
		snprintf(s->err, s->errlen,
			 "port %s: needs %u RX and %u TX queues, the device has %u and %u (use "
			 "fewer lcores on it)",
			 info->dev_name, s->req->nb_rxq, s->req->nb_txq, s->dev.max_rx_queues,
			 s->dev.max_tx_queues);
		return -EINVAL;
	}
	return 0;
}

/* RSS over several receive queues, checksum offloads, the MTU for jumbo frames. */
static int
port_step_conf(struct port_setup *s)
{
	const struct rte_eth_dev_info *dev = &s->dev;
	struct rte_eth_conf *conf = &s->conf;
	const struct fws_port_req *req = s->req;

	memset(conf, 0, sizeof(*conf));
	if (req->nb_rxq > 1 && dev->flow_type_rss_offloads) {
		conf->rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf->rx_adv_conf.rss_conf.rss_hf =
			(RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP) & dev->flow_type_rss_offloads;
		s->info->rss = true;
	} else if (req->nb_rxq > 1) {
		FWS_LOG(WARNING, "port %s: no RSS, %u receive queues will not share the load",
			s->info->dev_name, req->nb_rxq);
	}
	if ((dev->tx_offload_capa & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM) &&
	    (dev->tx_offload_capa & RTE_ETH_TX_OFFLOAD_UDP_CKSUM)) {
		conf->txmode.offloads |=
			RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
		s->info->hw_cksum = true;
	}
	if ((dev->tx_offload_capa & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM) &&
	    (dev->tx_offload_capa & RTE_ETH_TX_OFFLOAD_TCP_CKSUM)) {
		conf->txmode.offloads |=
			RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_TCP_CKSUM;
		s->info->hw_tcp_cksum = true;
	}
	if (req->rx_stamp_nic && (dev->rx_offload_capa & RTE_ETH_RX_OFFLOAD_TIMESTAMP))
		conf->rxmode.offloads |= RTE_ETH_RX_OFFLOAD_TIMESTAMP;
	/* No MBUF_FAST_FREE: it needs every mbuf of a queue from one pool, and queue 0 also
	 * carries control replies (receive-pool mbufs) and, with several streams on one
	 * lcore and port, mbufs of several transmit pools. */
	if (req->max_frame > RTE_ETHER_MAX_LEN) {
		uint32_t mtu = req->max_frame - RTE_ETHER_HDR_LEN - RTE_ETHER_CRC_LEN;

		if (dev->max_mtu < mtu) {
			snprintf(s->err, s->errlen,
				 "port %s: frames of %u bytes need MTU %u, the device "
				 "allows %u",
				 s->info->dev_name, req->max_frame, mtu, dev->max_mtu);
			return -EINVAL;
		}
		conf->rxmode.mtu = mtu;
		if (dev->rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER)
			conf->rxmode.offloads |= RTE_ETH_RX_OFFLOAD_SCATTER;
	}
	return 0;
}

static int
port_step_configure(struct port_setup *s)
{
	uint16_t nb_rxd = s->req->rx_desc, nb_txd = s->req->tx_desc;
	int rc = rte_eth_dev_configure(s->port_id, s->req->nb_rxq, s->req->nb_txq, &s->conf);

	if (rc != 0) {
		snprintf(s->err, s->errlen, "port %s: configure failed: %s", s->info->dev_name,
			 strerror(-rc));
		return rc;
	}
	rc = rte_eth_dev_adjust_nb_rx_tx_desc(s->port_id, &nb_rxd, &nb_txd);
	if (rc != 0) {
		snprintf(s->err, s->errlen, "port %s: descriptor counts: %s", s->info->dev_name,
			 strerror(-rc));
		return rc;
	}
	s->info->rx_desc = nb_rxd;
	s->info->tx_desc = nb_txd;
	return 0;
}

/* The receive pool: twice the RX descriptors, room for the largest frame. */
static int
port_step_pool(struct port_setup *s)
{
	const struct fws_port_req *req = s->req;
	struct fws_port_info *info = s->info;
	char pool_name[RTE_MEMPOOL_NAMESIZE];
	uint32_t room = RTE_MAX((uint32_t)RTE_MBUF_DEFAULT_BUF_SIZE,
				(uint32_t)req->max_frame + RTE_PKTMBUF_HEADROOM);
	unsigned int n_mbufs =
		RTE_MAX(8191u, (unsigned int)req->nb_rxq * info->rx_desc * 2 + req->rx_pool_extra);

	snprintf(pool_name, sizeof(pool_name), "fws_rx_%u", s->port_id);
	info->rx_pool = rte_mempool_lookup(pool_name);
	if (info->rx_pool == NULL)
		info->rx_pool = rte_pktmbuf_pool_create(pool_name, n_mbufs, 256, 0, (uint16_t)room,
							s->socket);
	if (info->rx_pool == NULL) {
		snprintf(s->err, s->errlen,
			 "port %s: cannot create a receive pool of %u mbufs: %s (%s)",
			 info->dev_name, n_mbufs, rte_strerror(rte_errno), fws_port_mem_hint());
		return -ENOMEM;
	}
	return 0;
}

static int
port_step_queues(struct port_setup *s)
{
	struct rte_eth_rxconf rxconf = s->dev.default_rxconf;
	struct rte_eth_txconf txconf = s->dev.default_txconf;
	struct fws_port_info *info = s->info;
	uint16_t q;
	int rc;

	rxconf.offloads = s->conf.rxmode.offloads;
	for (q = 0; q < s->req->nb_rxq; q++) {
		rc = rte_eth_rx_queue_setup(s->port_id, q, info->rx_desc, (unsigned int)s->socket,
					    &rxconf, info->rx_pool);
		if (rc != 0) {
			snprintf(s->err, s->errlen, "port %s: RX queue %u setup: %s",
				 info->dev_name, q, strerror(-rc));
			return rc;
		}
	}
	txconf.offloads = s->conf.txmode.offloads;
	for (q = 0; q < s->req->nb_txq; q++) {
		rc = rte_eth_tx_queue_setup(s->port_id, q, info->tx_desc, (unsigned int)s->socket,
					    &txconf);
		if (rc != 0) {
			snprintf(s->err, s->errlen, "port %s: TX queue %u setup: %s",
				 info->dev_name, q, strerror(-rc));
			return rc;
		}
	}
	return 0;
}

/*
 * Start the port. A memif client connects to its server's socket at start, and the server may
 * be another process still coming up (a second agent on this machine, a DUT's dataplane):
 * retried, backing off, for LINK_WAIT_MS before the start counts as failed.
 */
static int
start_port(const struct port_setup *s, bool *waited)
{
	bool memif = strcmp(s->dev.driver_name, "net_memif") == 0;
	unsigned int slept = 0, step = 20;
	int rc, lt = -1, level = 0;

	*waited = false;
	while ((rc = rte_eth_dev_start(s->port_id)) != 0 && memif && slept < LINK_WAIT_MS) {
		if (slept == 0) {
			FWS_LOG(NOTICE, "port %s: no memif server yet: waiting up to %u ms",
				s->info->dev_name, LINK_WAIT_MS);
			/* the driver's line for each retry said once is enough */
			lt = rte_log_register("pmd.net.memif");
			level = lt >= 0 ? rte_log_get_level((uint32_t)lt) : 0;
			if (lt >= 0)
				rte_log_set_level((uint32_t)lt, RTE_LOG_CRIT);
		}
		usleep(step * 1000);
		slept += step;
		step = RTE_MIN(step * 2, 500u);
		*waited = true;
	}
	if (lt >= 0 && level > 0)
		rte_log_set_level((uint32_t)lt, (uint32_t)level);
	return rc;
}

static int
port_step_start(struct port_setup *s)
{
	struct fws_port_info *info = s->info;
	bool waited;
	int rc = start_port(s, &waited);

	if (rc != 0) {
		if (waited) /* the driver returns -1 (EPERM) for every connect failure */
			snprintf(s->err, s->errlen,
				 "port %s: start failed: no memif server answered on its socket "
				 "within %u s",
				 info->dev_name, LINK_WAIT_MS / 1000);
		else
			snprintf(s->err, s->errlen, "port %s: start failed: %s", info->dev_name,
				 strerror(-rc));
		return rc;
	}
	rc = rte_eth_promiscuous_enable(s->port_id);
	if (rc != 0 && rc != -ENOTSUP)
		FWS_LOG(WARNING, "port %s: promiscuous mode: %s", info->dev_name, strerror(-rc));
	fws_port_mac(s->port_id, &info->mac);
	return 0;
}

void
fws_port_mac(uint16_t port_id, struct rte_ether_addr *mac)
{
	/* In-memory ports have no address: a locally administered one per port. */
	static const struct rte_ether_addr base = {{0x02, 0x46, 0x57, 0x53, 0x00, 0x00}};

	if (rte_eth_macaddr_get(port_id, mac) == 0 && !rte_is_zero_ether_addr(mac))
		return;
	*mac = base;
	mac->addr_bytes[5] = (uint8_t)(port_id + 1);
}

static int
port_step_link(struct port_setup *s)
{
	struct fws_port_info *info = s->info;
	struct rte_eth_link link;
	unsigned int waited;

	for (waited = 0;; waited += 100) {
		memset(&link, 0, sizeof(link));
		if (rte_eth_link_get_nowait(s->port_id, &link) == 0 && link.link_status)
			break;
		if (waited >= LINK_WAIT_MS)
			break;
		rte_delay_ms(100);
	}
	info->link_up = link.link_status != 0;
	info->link_speed_mbps = link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN ? 0 : link.link_speed;
	if (!info->link_up)
		FWS_LOG(WARNING, "port %s: link is down after %u ms", info->dev_name, LINK_WAIT_MS);
	return 0;
}

int
fws_port_clock_pair(uint16_t port_id, uint64_t *nic, uint64_t *tsc)
{
	uint64_t best = UINT64_MAX;
	unsigned int i;

	for (i = 0; i < 5; i++) {
		uint64_t t0 = rte_rdtsc(), n, t1;
		int rc = rte_eth_read_clock(port_id, &n);

		t1 = rte_rdtsc();
		if (rc != 0)
			return rc;
		if (t1 - t0 < best) {
			best = t1 - t0;
			*nic = n;
			*tsc = t0 + (t1 - t0) / 2;
		}
	}
	return 0;
}

/* The NIC's receive timestamps, where they were asked for and configured: where mbufs carry
 * them, and the NIC's clock mapped onto the TSC (its rate from two pairs 20 ms apart; the
 * host re-anchors it each second). A clock that cannot be read leaves TSC stamps, said. */
static int
port_step_stamps(struct port_setup *s)
{
	struct fws_port_info *info = s->info;
	uint64_t n0, t0, n1, t1;
	int rc;

	if (!(s->conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_TIMESTAMP))
		return 0;
	rc = rte_mbuf_dyn_rx_timestamp_register(&info->stamp_off, &info->stamp_flag);
	if (rc == 0)
		rc = fws_port_clock_pair(s->port_id, &n0, &t0);
	if (rc == 0) {
		rte_delay_ms(20);
		rc = fws_port_clock_pair(s->port_id, &n1, &t1);
	}
	if (rc == 0 && !(n1 > n0 && fws_nicclock_init(&info->clock, n1, t1,
						      (double)(t1 - t0) / (double)(n1 - n0))))
		rc = -ERANGE;
	if (rc != 0) {
		FWS_LOG(WARNING,
			"port %s: RX timestamps offered, but the NIC's clock cannot be read "
			"(%s): latency from TSC stamps",
			info->dev_name, rc == -ERANGE ? "it did not move" : strerror(-rc));
		return 0;
	}
	info->stamp_rx_on = true;
	return 0;
}

static int (*const port_steps[])(struct port_setup *s) = {
	port_step_info,   port_step_conf,  port_step_configure, port_step_pool,
	port_step_queues, port_step_start, port_step_link,      port_step_stamps,
};

int
fws_port_setup(uint16_t port_id, const struct fws_port_req *req, struct fws_port_info *info,
	       char *err, unsigned int errlen)
{
	struct port_setup s = {
		.port_id = port_id, .req = req, .info = info, .err = err, .errlen = errlen};
	unsigned int i;
	int rc;

	memset(info, 0, sizeof(*info));
	info->port_id = port_id;
	for (i = 0; i < RTE_DIM(port_steps); i++)
		if ((rc = port_steps[i](&s)) != 0)
			return rc;
	return 0;
}

int
fws_port_link_now(const struct fws_port_info *info)
{
	struct rte_eth_link link;

	if (info->kernel_if[0]) {
		struct ifreq ifr;
		int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), rc;

		if (fd < 0)
			return 1;
		memset(&ifr, 0, sizeof(ifr));
		strlcpy(ifr.ifr_name, info->kernel_if, sizeof(ifr.ifr_name));
		rc = ioctl(fd, SIOCGIFFLAGS, &ifr);
		close(fd);
		if (rc < 0)
			return 0; /* the interface is gone */
		return (ifr.ifr_flags & IFF_UP) && (ifr.ifr_flags & IFF_RUNNING);
	}
	memset(&link, 0, sizeof(link));
	if (rte_eth_link_get_nowait(info->port_id, &link) != 0)
		return 1; /* the driver cannot tell: taken as up */
	return link.link_status != 0;
}

void
fws_port_close(struct fws_port_info *info)
{
	if (rte_eth_dev_is_valid_port(info->port_id)) {
		rte_eth_dev_stop(info->port_id);
	}
}

const char *
fws_port_mem_hint(void)
{
	return rte_eal_has_hugepages() ? "reserve more hugepages"
				       : "under --no-huge, give EAL more memory with -m MB";
}
