/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer: segments from the wire into the connection tests' engine (fws_conn), TCP and
 * UDP. The engine first opens connections whose segments are kept; an input picks one of
 * them (byte 0), the port it arrives on and the time (byte 1), and mutates it: the rest of
 * the input is XORed over the frame, and its length sets the frame's. The frame is parsed
 * as the receive path does and handed to the engine, then the timers run. The counts must
 * stay consistent: nothing established that was not attempted, nothing held or closed that
 * was not established, nothing failed twice.
 */
#include <stdlib.h>
#include <string.h>

#include "fws_conn.h"
#include "fws_pkt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SEEDS 64
#define FRAME 1600

static struct fws_conns *eng[2];
static uint8_t seed[2][SEEDS][FRAME];
static uint32_t seed_len[2][SEEDS], n_seed[2];
static bool udp_now;

static void
emit(void *arg, unsigned int set, bool from_server, struct fws_tcp_seg *g)
{
	unsigned int u = udp_now, k = n_seed[u];
	uint32_t len;

	(void)arg;
	(void)set;
	(void)from_server;
	if (k == SEEDS)
		k = (unsigned int)rand() % SEEDS;
	len = (udp_now ? fws_tcp_build_udp : fws_tcp_build)(seed[u][k], FRAME, g);
	seed_len[u][k] = len;
	if (n_seed[u] < SEEDS)
		n_seed[u]++;
}

static void
setup(void)
{
	struct fws_conn_set sets[2] = {
		{.flows = {.count = 300,
			   .src_ip_lo = 0xc6120100,
			   .src_ip_hi = 0xc61201ff,
			   .dst_ip_lo = 0xc6130101,
			   .dst_ip_hi = 0xc6130101,
			   .src_port_lo = 1024,
			   .src_port_hi = 65535,
			   .dst_port_lo = 80,
			   .dst_port_hi = 80},
		 .client_port = 0,
		 .server_port = 1},
	};
	unsigned int u;

	sets[1] = sets[0];
	sets[1].server_port = 0; /* a loop: both ends on one port */
	for (u = 0; u < 2; u++) {
		struct fws_conn_params p = {
			.test = FWS_CONN_RATE, .udp = u, .data = 16, .tries = 2, .retry_us = 1000};

		udp_now = u;
		eng[u] = fws_conns_new(&p, sets, 2, emit, NULL);
		if (eng[u] == NULL)
			abort();
		fws_conns_begin(eng[u], 1);
		fws_conns_open(eng[u], 40, 0);
	}
}

static void
check(const struct fws_conns *c)
{
	const struct fws_conn_stats *st = fws_conns_stats(c);
	uint64_t failed = fws_conn_failed(st);

	if (st->established > st->attempted || st->closed + st->held > st->established ||
	    failed + st->closed + st->held + fws_conns_waiting(c) > st->attempted ||
	    st->clean > st->attempted)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint32_t now = 10;
	uint8_t frame[FRAME];
	unsigned int u, k, port;
	uint32_t len;
	size_t i;

	if (eng[0] == NULL)
		setup();
	if (size < 2)
		return 0;
	u = data[0] & 1;
	k = (data[0] >> 1) % (n_seed[u] ? n_seed[u] : 1);
	port = data[1] & 1;
	now += data[1] >> 1;
	len = (uint32_t)(size - 2 > FRAME ? FRAME : size - 2);
	len = len > seed_len[u][k] ? len : seed_len[u][k];
	memcpy(frame, seed[u][k], FRAME);
	for (i = 2; i < size && i - 2 < FRAME; i++)
		frame[i - 2] ^= data[i];
	udp_now = u;
	if (u) {
		struct fws_tcp_info ti;
		const uint8_t *pl;
		uint32_t n;

		if (fws_conn_parse_udp(frame, len, &ti, &pl, &n) == 0)
			fws_conns_input_udp(eng[u], port, &ti, pl, n, now);
	} else {
		struct fws_tcp_info ti;

		if (fws_tcp_parse(frame, len, &ti) == 0)
			fws_conns_input(eng[u], port, &ti, now);
	}
	fws_conns_timers(eng[u], now);
	fws_conns_reset(eng[u], 4);
	check(eng[u]);
	return 0;
}
