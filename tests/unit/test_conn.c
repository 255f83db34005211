/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The connection tests' engine (fws_conn): client and server joined by an in-memory network
 * through a model of a DUT that can drop, reset, translate ports and rewrite sequence
 * numbers. Every segment is built into a frame and parsed back (fws_tcp_build, _parse), as
 * on the wire. Checked: complete transactions and their segment count, retries, every
 * failure reason, a state limit found exactly, teardown, resets between iterations, and
 * segments of an earlier trial ignored.
 */
#include <string.h>

#include <rte_byteorder.h>

#include "fws_conn.h"
#include "fws_pkt.h"
#include "unit.h"

#define NET_MAX 65536

struct frame {
	unsigned int port;
	uint32_t len;
	uint8_t b[1600];
};

/* The DUT model: what it does to each segment. */
struct dut {
	uint32_t drop_syn_first;   /**< drop the first SYN of every connection */
	bool drop_synack;          /**< drop every SYN-ACK */
	bool drop_response;        /**< drop every response with data */
	bool drop_finack;          /**< drop every FIN-ACK */
	uint32_t limit;            /**< > 0: SYNs beyond this many connections dropped */
	bool reject;               /**< with limit: answer them with a RST (no timestamps) */
	uint16_t nat_port_add;     /**< client ports translated by this (back on return) */
	uint32_t seq_add;          /**< client sequence numbers rewritten by this */
	uint32_t admitted;         /**< connections let in (limit) */
	uint8_t seen_syn[1 << 12]; /**< per client (address, port low bits): a SYN went by */
};

struct net {
	bool udp; /**< RFC 9693's variant: datagrams */
	struct dut dut;
	struct frame *q;
	unsigned int head, n;
	uint64_t sent[2]; /**< by side: client, server */
	uint32_t now;
	struct fws_conns *c;
};

static struct net net;

static void
enqueue(unsigned int port, const struct fws_tcp_seg *g)
{
	struct frame *f = &net.q[(net.head + net.n) % NET_MAX];

	ck_assert_uint_lt(net.n, NET_MAX);
	f->port = port;
	f->len = (net.udp ? fws_tcp_build_udp : fws_tcp_build)(f->b, sizeof(f->b), g);
	ck_assert_uint_gt(f->len, 0);
	net.n++;
}

/* A reject: RST from the server's address, no options, to the client. */
static void
reject(const struct fws_tcp_seg *syn)
{
	struct fws_tcp_seg r = *syn;

	r.src_be = syn->dst_be;
	r.dst_be = syn->src_be;
	r.sport_be = syn->dport_be;
	r.dport_be = syn->sport_be;
	r.flags = FWS_TCP_RST | FWS_TCP_ACK;
	r.ack = syn->seq + 1;
	r.seq = 0;
	r.mss = 0;
	r.tsval = r.tsecr = 0;
	enqueue(0, &r);
}

/* The DUT between the client's port 0 and the server's port 1. False: dropped. */
static bool
dut_pass(struct fws_tcp_seg *g, bool from_server)
{
	struct dut *d = &net.dut;
	uint16_t cport = rte_be_to_cpu_16(from_server ? g->dport_be : g->sport_be);
	uint32_t who = (rte_be_to_cpu_32(g->src_be) & 0xff) | (cport & 0xfu) << 8;
	bool syn = (g->flags & (FWS_TCP_SYN | FWS_TCP_ACK)) == FWS_TCP_SYN;

	if (syn && d->drop_syn_first && !d->seen_syn[who]) {
		d->seen_syn[who] = 1;
		return false;
	}
	if (syn && d->limit && d->admitted >= d->limit) {
		if (d->reject)
			reject(g);
		return false;
	}
	d->admitted += syn;
	if (from_server && (g->flags & FWS_TCP_SYN) && d->drop_synack)
		return false;
	if (from_server && g->payload_len && d->drop_response)
		return false;
	if (from_server && (g->flags & FWS_TCP_FIN) && d->drop_finack)
		return false;
	if (from_server) {
		g->dport_be = rte_cpu_to_be_16(cport - d->nat_port_add);
		g->ack -= d->seq_add;
	} else {
		g->sport_be = rte_cpu_to_be_16(cport + d->nat_port_add);
		g->seq += d->seq_add;
	}
	return true;
}

/* A NAT over UDP with a table of limit clients: requests of others dropped. */
static bool
dut_pass_udp(struct fws_tcp_seg *g, bool from_server)
{
	struct dut *d = &net.dut;
	uint16_t cport = rte_be_to_cpu_16(from_server ? g->dport_be : g->sport_be);
	uint32_t who = (rte_be_to_cpu_32(from_server ? g->dst_be : g->src_be) & 0xff) |
		       (cport & 0xfu) << 8;

	if (!from_server && d->limit && !d->seen_syn[who]) {
		if (d->admitted >= d->limit)
			return false;
		d->seen_syn[who] = 1;
		d->admitted++;
	}
	if (from_server && d->drop_response)
		return false;
	if (from_server)
		g->dport_be = rte_cpu_to_be_16(cport - d->nat_port_add);
	else
		g->sport_be = rte_cpu_to_be_16(cport + d->nat_port_add);
	return true;
}

static void
emit(void *arg, unsigned int set, bool from_server, struct fws_tcp_seg *g)
{
	(void)arg;
	(void)set;
	net.sent[from_server]++;
	if (net.udp ? dut_pass_udp(g, from_server) : dut_pass(g, from_server))
		enqueue(from_server ? 0 : 1, g);
}

/* Deliver a UDP frame: addresses and ports from its headers, the payload. */
static void
deliver_udp(const struct frame *f)
{
	struct fws_tcp_info ti;
	const uint8_t *pl;
	uint32_t n;

	ck_assert_int_eq(fws_conn_parse_udp(f->b, f->len, &ti, &pl, &n), 0);
	fws_conns_input_udp(net.c, f->port, &ti, pl, n, net.now);
}

/* Deliver until the network is quiet, then run the timers every step_us for up to
 * max_us; returns when nothing waits. */
static void
run(uint32_t step_us, uint32_t max_us)
{
	uint32_t end = net.now + max_us;

	for (;;) {
		while (net.n) {
			struct frame *f = &net.q[net.head];
			struct fws_tcp_info ti;

			net.head = (net.head + 1) % NET_MAX;
			net.n--;
			if (net.udp) {
				deliver_udp(f);
				continue;
			}
			ck_assert_int_eq(fws_tcp_parse(f->b, f->len, &ti), 0);
			fws_conns_input(net.c, f->port, &ti, net.now);
		}
		if (fws_conns_waiting(net.c) == 0 || net.now >= end)
			return;
		net.now += step_us;
		fws_conns_timers(net.c, net.now);
	}
}

static struct fws_conns *
setup(enum fws_conn_test test, uint32_t count, uint16_t data)
{
	struct fws_conn_params p = {
		.test = test, .udp = net.udp, .data = data, .tries = 3, .retry_us = 1000000};
	struct fws_conn_set set = {.flows = {.count = count,
					     .src_ip_lo = 0xc6120100,
					     .src_ip_hi = 0xc61201ff,
					     .dst_ip_lo = 0xc6130101,
					     .dst_ip_hi = 0xc6130101,
					     .src_port_lo = 1024,
					     .src_port_hi = 65535,
					     .dst_port_lo = 80,
					     .dst_port_hi = 80},
				   .client_port = 0,
				   .server_port = 1};

	memset(&net.dut, 0, sizeof(net.dut));
	net.head = net.n = 0;
	net.sent[0] = net.sent[1] = 0;
	net.now = 0;
	if (net.q == NULL)
		net.q = calloc(NET_MAX, sizeof(*net.q));
	net.c = fws_conns_new(&p, &set, 1, emit, NULL);
	ck_assert_ptr_nonnull(net.c);
	fws_conns_begin(net.c, 1);
	return net.c;
}

/* Open n, delivering after each (a slow opener: every segment answered at once). */
static void
open_all(uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(fws_conns_open(net.c, 1, net.now), 1);
		run(1000, 0);
	}
}

START_TEST(test_conn_rate_complete)
{
	struct fws_conns *c = setup(FWS_CONN_RATE, 300, 64);
	const struct fws_conn_stats *st = fws_conns_stats(c);

	open_all(300);
	run(1000, 10000000);
	ck_assert_uint_eq(fws_conns_open(c, 1, net.now), 0); /* all opened */
	ck_assert_uint_eq(st->attempted, 300);
	ck_assert_uint_eq(st->established, 300);
	ck_assert_uint_eq(st->closed, 300);
	ck_assert_uint_eq(st->retried, 0);
	ck_assert_uint_eq(st->held, 0);
	ck_assert_uint_eq(st->est.count, 300);
	/* One transaction: SYN, ACK+request, FIN, ACK from the client; SYN-ACK, response,
	 * FIN-ACK from the server. */
	ck_assert_uint_eq(net.sent[0], 4 * 300);
	ck_assert_uint_eq(net.sent[1], 3 * 300);
	ck_assert_uint_eq(st->unmatched, 0);
	ck_assert_int_eq(st->first_fail, FWS_CONN_FAIL_NONE);
	ck_assert_uint_eq(st->est_per_s.n, 1);
	ck_assert_uint_eq(st->est_per_s.v[0], 300);
	fws_conns_free(c);
}
END_TEST

START_TEST(test_conn_no_data)
{
	struct fws_conns *c = setup(FWS_CONN_RATE, 10, 0);

	open_all(10);
	ck_assert_uint_eq(fws_conns_stats(c)->closed, 10);
	ck_assert_uint_eq(net.sent[0], 4 * 10); /* SYN, ACK, FIN, ACK */
	ck_assert_uint_eq(net.sent[1], 2 * 10); /* SYN-ACK, FIN-ACK */
	fws_conns_free(c);
}
END_TEST

/* A NAT that translates ports and rewrites sequence numbers (pf's modulate state): the
 * stateless server answers through it, the client follows. */
START_TEST(test_conn_through_translation)
{
	struct fws_conns *c = setup(FWS_CONN_RATE, 50, 100);

	net.dut.nat_port_add = 7;
	net.dut.seq_add = 0x80000001u;
	open_all(50);
	ck_assert_uint_eq(fws_conns_stats(c)->closed, 50);
	ck_assert_uint_eq(fws_conns_stats(c)->retried, 0);
	fws_conns_free(c);
}
END_TEST

START_TEST(test_conn_retry)
{
	struct fws_conns *c = setup(FWS_CONN_RATE, 40, 32);
	const struct fws_conn_stats *st = fws_conns_stats(c);

	net.dut.drop_syn_first = 1;
	open_all(40);
	ck_assert_uint_eq(st->established, 0);
	run(100000, 5000000);
	ck_assert_uint_eq(st->closed, 40);
	ck_assert_uint_eq(st->retried, 40);
	ck_assert_uint_eq(st->resent, 40);
	/* Time to establish counts from the first SYN: a second's wait is in it. */
	ck_assert_uint_ge(st->est.min, 1000000000ull);
	fws_conns_free(c);
}
END_TEST

/* Each reason: what was lost every time. */
START_TEST(test_conn_fail_reasons)
{
	static const struct {
		size_t off;
		enum fws_conn_fail why;
	} cases[] = {
		{offsetof(struct dut, drop_synack), FWS_CONN_FAIL_SYN},
		{offsetof(struct dut, drop_response), FWS_CONN_FAIL_DATA},
		{offsetof(struct dut, drop_finack), FWS_CONN_FAIL_CLOSE},
	};
	unsigned int k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct fws_conns *c = setup(FWS_CONN_RATE, 20, 16);
		const struct fws_conn_stats *st = fws_conns_stats(c);

		*(bool *)((uint8_t *)&net.dut + cases[k].off) = true;
		open_all(20);
		run(100000, 10000000);
		ck_assert_msg(st->failed[cases[k].why] == 20, "case %u: %lu", k,
			      (unsigned long)st->failed[cases[k].why]);
		ck_assert_int_eq(st->first_fail, cases[k].why);
		ck_assert_uint_eq(fws_conns_waiting(c), 0);
		ck_assert_uint_eq(st->closed, 0);
		/* Three sends of what it waited on, then failed: three seconds in all. */
		ck_assert_uint_eq(st->resent, 2 * 20);
		fws_conns_free(c);
	}
}
END_TEST

/* A state table of 137: capacity holds 137, the 138th times out (or is reset). */
START_TEST(test_conn_capacity_limit)
{
	bool rej;

	for (rej = false;; rej = true) {
		struct fws_conns *c = setup(FWS_CONN_CAPACITY, 500, 64);
		const struct fws_conn_stats *st = fws_conns_stats(c);

		net.dut.limit = 137;
		net.dut.reject = rej;
		while (st->first_fail == FWS_CONN_FAIL_NONE && fws_conns_open(c, 1, net.now)) {
			run(1000, 0);
			fws_conns_timers(c, net.now += 200000);
		}
		run(100000, 5000000);
		ck_assert_uint_eq(st->held, 137);
		ck_assert_uint_eq(st->held_at_fail, 137);
		ck_assert_uint_eq(st->established, 137);
		ck_assert_int_eq(st->first_fail, (rej ? FWS_CONN_FAIL_RST : FWS_CONN_FAIL_SYN));
		ck_assert_uint_eq(st->rst_received, (rej ? st->attempted - 137 : 0));
		ck_assert_uint_eq(st->unmatched, 0);
		fws_conns_free(c);
		if (rej)
			break;
	}
}
END_TEST

/* Held, then closed in two rounds: every one once. */
START_TEST(test_conn_teardown)
{
	struct fws_conns *c = setup(FWS_CONN_TEARDOWN, 100, 8);
	const struct fws_conn_stats *st = fws_conns_stats(c);

	open_all(100);
	ck_assert_uint_eq(st->held, 100);
	ck_assert_uint_eq(fws_conns_close(c, 60, net.now), 60);
	run(1000, 0);
	ck_assert_uint_eq(st->closed, 60);
	ck_assert_uint_eq(fws_conns_close(c, 1000, net.now), 40);
	run(1000, 0);
	ck_assert_uint_eq(fws_conns_close(c, 1000, net.now), 0);
	ck_assert_uint_eq(st->closed, 100);
	ck_assert_uint_eq(st->held, 0);
	fws_conns_free(c);
}
END_TEST

/* Between iterations: a RST for every attempted connection, idle ones left alone; the next
 * trial's numbers differ and the last trial's segments name nothing. */
START_TEST(test_conn_reset_and_nonce)
{
	struct fws_conns *c = setup(FWS_CONN_CAPACITY, 30, 8);
	const struct fws_conn_stats *st = fws_conns_stats(c);
	struct fws_tcp_info ti;

	open_all(25);
	net.n = 0;
	ck_assert_uint_eq(fws_conns_reset(c, 10), 10);
	ck_assert_uint_eq(fws_conns_reset(c, 100), 15);
	ck_assert_uint_eq(fws_conns_reset(c, 100), 0);
	ck_assert_uint_eq(st->reset_sent, 25);
	ck_assert_uint_eq(net.n, 25);
	ck_assert_int_eq(fws_tcp_parse(net.q[net.head].b, net.q[net.head].len, &ti), 0);
	ck_assert(ti.flags & FWS_TCP_RST);
	fws_conns_begin(c, 2);
	run(1000, 0); /* the RSTs arrive at the server in the next trial */
	ck_assert_uint_eq(st->unmatched, 25);
	ck_assert_uint_eq(st->attempted, 0);
	fws_conns_free(c);
}
END_TEST

/* RFC 9693's UDP variant: a request and its response through a port-translating NAT;
 * with a table of 90 clients, capacity holds 90 and the first failure is the lost
 * response's; no RST between iterations; teardown refused. */
START_TEST(test_conn_udp)
{
	struct fws_conn_params bad = {.test = FWS_CONN_TEARDOWN, .udp = true, .tries = 1};
	struct fws_conn_set one = {.flows = {.count = 1}};
	const struct fws_conn_stats *st;
	struct fws_conns *c;

	net.udp = true;
	c = setup(FWS_CONN_RATE, 200, 4); /* a payload under 8 bytes still carries the token */
	st = fws_conns_stats(c);
	net.dut.nat_port_add = 3;
	open_all(200);
	ck_assert_uint_eq(st->closed, 200);
	ck_assert_uint_eq(st->clean, 200);
	ck_assert_uint_eq(net.sent[0], 200);
	ck_assert_uint_eq(net.sent[1], 200);
	ck_assert_uint_eq(fws_conns_reset(c, 1000), 0);
	fws_conns_free(c);

	c = setup(FWS_CONN_CAPACITY, 300, 64);
	st = fws_conns_stats(c);
	net.dut.limit = 90;
	while (st->first_fail == FWS_CONN_FAIL_NONE && fws_conns_open(c, 1, net.now)) {
		run(1000, 0);
		fws_conns_timers(c, net.now += 200000);
	}
	run(100000, 5000000);
	ck_assert_uint_eq(st->held, 90);
	ck_assert_uint_eq(st->held_at_fail, 90);
	ck_assert_int_eq(st->first_fail, FWS_CONN_FAIL_DATA);
	ck_assert_uint_eq(st->failed[FWS_CONN_FAIL_DATA], st->attempted - 90);
	ck_assert_uint_eq(st->unmatched, 0);
	fws_conns_free(c);
	ck_assert_ptr_null(fws_conns_new(&bad, &one, 1, emit, NULL));
	net.udp = false;
}
END_TEST

START_TEST(test_conn_bad_params)
{
	struct fws_conn_params p = {.test = FWS_CONN_RATE, .tries = 3, .retry_us = 1};
	struct fws_conn_set set = {.flows = {.count = 1}};

	ck_assert_ptr_null(fws_conns_new(&p, &set, 0, emit, NULL));
	p.data = FWS_CONN_MAX_DATA + 1;
	ck_assert_ptr_null(fws_conns_new(&p, &set, 1, emit, NULL));
	p.data = 0;
	p.tries = 0;
	ck_assert_ptr_null(fws_conns_new(&p, &set, 1, emit, NULL));
	p.tries = 1;
	set.flows.count = (1u << 24) + 1;
	ck_assert_ptr_null(fws_conns_new(&p, &set, 1, emit, NULL));
	ck_assert_uint_eq(fws_conns_state_size(), 16);
	ck_assert_str_eq(fws_conn_fail_name(FWS_CONN_FAIL_DATA), "data_lost");
	ck_assert_str_eq(fws_conn_test_name(FWS_CONN_TEARDOWN), "teardown");
}
END_TEST

static Suite *
suite_conn(void)
{
	Suite *s = suite_create("conn");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_conn_rate_complete);
	tcase_add_test(tc, test_conn_no_data);
	tcase_add_test(tc, test_conn_through_translation);
	tcase_add_test(tc, test_conn_retry);
	tcase_add_test(tc, test_conn_fail_reasons);
	tcase_add_test(tc, test_conn_capacity_limit);
	tcase_add_test(tc, test_conn_teardown);
	tcase_add_test(tc, test_conn_reset_and_nonce);
	tcase_add_test(tc, test_conn_udp);
	tcase_add_test(tc, test_conn_bad_params);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_conn)
