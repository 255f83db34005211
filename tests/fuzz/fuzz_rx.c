/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer: receive classification of one frame through fws_rx_burst, the worker's entry
 * point (signature, IPv4/IPv6, VLAN, ARP/ND/ICMP, fragments). Every frame lands in exactly
 * one class; none is ever counted as a test frame unless its signature verifies.
 */
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "fws_pkt.h"
#include "fws_rx.h"

#define FLOWS 16
#define COOKIE 0x11111111u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct fws_rx_lcore *c;

static void
setup(void)
{
	c = aligned_alloc(64, sizeof(*c));
	memset(c, 0, sizeof(*c));
	c->nb_streams = 2;
	for (unsigned int s = 0; s < 2; s++) {
		c->streams[s].nb_flows = FLOWS;
		c->streams[s].rx_port = 0;
		c->streams[s].flows = aligned_alloc(64, sizeof(struct fws_rxflow) * FLOWS);
		c->streams[s].hist = malloc(sizeof(struct fws_hist));
		c->ring[s] = (struct fws_rxring){.base = malloc(FLOWS * 128),
						 .flows = c->streams[s].flows,
						 .wmask = 1023,
						 .shift = 4};
	}
	c->rings = true;
	c->ns_mult = 1ull << 32;
	c->ns_per_unit = 1;
	c->cookie = COOKIE;
	c->warm_cookie = 0x22222222u;
	fws_rx_reset(c);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[4096];
	struct rte_mbuf m, *pkts[1] = {&m};
	struct fws_rx_queue q = {.port_id = 0, .queue = 0, .port_idx = 0};
	const struct fws_rx_counters *pc;
	uint64_t classes;

	if (c == NULL)
		setup();
	if (size > sizeof(buf))
		return 0;
	memset(c->port, 0, sizeof(c->port));
	memcpy(buf, data, size);
	memset(&m, 0, sizeof(m));
	m.buf_addr = buf;
	m.buf_len = sizeof(buf);
	m.data_len = (uint16_t)size;
	m.pkt_len = (uint32_t)size;
	m.nb_segs = 1;
	if (fws_rx_burst(c, &q, pkts, 1, 1000) > 1)
		abort();
	fws_rx_flush(c);
	pc = &c->port[0];
	classes = pc->test_frames + pc->warmup_rx + pc->stale_frames + pc->bad_signature +
		  pc->bad_stream + pc->wrong_port + pc->non_test + pc->control + pc->control_drop +
		  pc->fragments + pc->icmp_errors + pc->truncated;
	if (pc->rx_frames != 1 || classes != 1)
		abort();
	return 0;
}
