/* SPDX-License-Identifier: BSD-3-Clause */
/* Connection tests' engine: the client's state machine, the stateless server, the timers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include "fws_conn.h"

enum conn_state { C_IDLE = 0, C_SYN_SENT, C_REQ_SENT, C_HELD, C_FIN_SENT, C_CLOSED, C_FAILED };

/* A connection waiting for an answer: when its last send went out (the queue is in time
 * order: every send that waits is appended, so the newest entry of a connection counts). */
struct pending {
	uint32_t g; /**< set << 24 | index */
	uint32_t t;
};

struct fws_conns {
	struct fws_conn_params p;
	unsigned int n_sets;
	struct fws_conn_set sets[FWS_CONN_MAX_SETS];
	struct fws_conn *conn[FWS_CONN_MAX_SETS];
	fws_conn_emit_fn emit;
	void *arg;
	uint32_t nonce, seed;
	unsigned int open_set, close_set, reset_set; /**< cursors: set, then index */
	uint32_t open_i, close_i, reset_i;
	uint64_t waiting;
	struct pending *q;
	uint32_t q_head, q_n, q_cap;
	struct fws_conn_stats st;
	uint8_t payload[FWS_CONN_MAX_DATA];
};

size_t
fws_conns_state_size(void)
{
	return sizeof(struct fws_conn);
}

struct fws_conns *
fws_conns_new(const struct fws_conn_params *p, const struct fws_conn_set *sets, unsigned int n_sets,
	      fws_conn_emit_fn emit, void *arg)
{
	struct fws_conns *c;
	unsigned int s, i;

	if (n_sets == 0 || n_sets > FWS_CONN_MAX_SETS || p->tries == 0 ||
	    p->data > FWS_CONN_MAX_DATA) {
		errno = EINVAL;
		return NULL;
	}
	for (s = 0; s < n_sets; s++)
		if (sets[s].flows.count == 0 || sets[s].flows.count > (1u << 24)) {
			errno = EINVAL;
			return NULL;
		}
	if (p->udp && p->test == FWS_CONN_TEARDOWN) {
		errno = EINVAL;
		return NULL;
	}
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return NULL;
	c->p = *p;
	c->n_sets = n_sets;
	c->emit = emit;
	c->arg = arg;
	memcpy(c->sets, sets, sizeof(*sets) * n_sets);
	for (i = 0; i < sizeof(c->payload); i++)
		c->payload[i] = (uint8_t)('a' + i % 26);
	for (s = 0; s < n_sets; s++)
		if ((c->conn[s] = calloc(sets[s].flows.count, sizeof(struct fws_conn))) == NULL) {
			fws_conns_free(c);
			errno = ENOMEM;
			return NULL;
		}
	return c;
}

void
fws_conns_free(struct fws_conns *c)
{
	unsigned int s;

	if (c == NULL)
		return;
	for (s = 0; s < c->n_sets; s++)
		free(c->conn[s]);
	free(c->q);
	free(c->st.est_per_s.v);
	free(c->st.closed_per_s.v);
	free(c);
}

uint64_t
fws_conns_total(const struct fws_conns *c)
{
	uint64_t n = 0;
	unsigned int s;

	for (s = 0; s < c->n_sets; s++)
		n += c->sets[s].flows.count;
	return n;
}

size_t
fws_conns_memory(const struct fws_conns *c)
{
	return sizeof(*c) + fws_conns_total(c) * sizeof(struct fws_conn) +
	       (size_t)c->q_cap * sizeof(struct pending) +
	       (c->st.est_per_s.cap + c->st.closed_per_s.cap) * sizeof(uint64_t);
}

void
fws_conns_begin(struct fws_conns *c, uint32_t nonce)
{
	struct fws_conn_series e = c->st.est_per_s, k = c->st.closed_per_s;
	unsigned int s;

	for (s = 0; s < c->n_sets; s++)
		memset(c->conn[s], 0, sizeof(struct fws_conn) * c->sets[s].flows.count);
	c->nonce = nonce;
	c->seed = nonce * 0x9e3779b9u + 0x7f4a7c15u;
	c->open_set = c->close_set = c->reset_set = 0;
	c->open_i = c->close_i = c->reset_i = 0;
	c->waiting = 0;
	c->q_head = c->q_n = 0;
	memset(&c->st, 0, sizeof(c->st));
	e.n = k.n = 0;
	c->st.est_per_s = e;
	c->st.closed_per_s = k;
	fws_hist_reset(&c->st.est);
}

const struct fws_conn_stats *
fws_conns_stats(const struct fws_conns *c)
{
	return &c->st;
}

uint64_t
fws_conns_waiting(const struct fws_conns *c)
{
	return c->waiting;
}

/* A connection's initial sequence number on either side: a hash, nothing stored. */
static uint32_t
isn(const struct fws_conns *c, unsigned int s, uint32_t i, bool server)
{
	uint32_t h = c->seed ^ (s << 24 | i) ^ (server ? 0x85ebca6bu : 0);

	h ^= h >> 16;
	h *= 0x7feb352du;
	h ^= h >> 15;
	h *= 0x846ca68bu;
	return h ^ (h >> 16);
}

static void
series_add(struct fws_conn_series *x, uint32_t now_us)
{
	uint32_t sec = now_us / 1000000u, cap;
	uint64_t *v;

	if (sec >= x->cap) {
		cap = RTE_MAX(sec + 1, x->cap ? x->cap * 2 : 64u);
		if ((v = realloc(x->v, sizeof(*v) * cap)) == NULL)
			return;
		memset(v + x->cap, 0, sizeof(*v) * (cap - x->cap));
		x->v = v;
		x->cap = cap;
	}
	x->v[sec]++;
	x->n = RTE_MAX(x->n, sec + 1);
}

/* Remember that (s, i) waits on what it sent at now; a full queue doubles. */
static void
push(struct fws_conns *c, unsigned int s, uint32_t i, uint32_t now)
{
	struct pending *q;
	uint32_t cap, k;

	if (c->q_n == c->q_cap) {
		cap = c->q_cap ? c->q_cap * 2 : 1024;
		if ((q = malloc(sizeof(*q) * cap)) == NULL)
			return; /* it fails by timeout never: counted waiting until the end */
		for (k = 0; k < c->q_n; k++)
			q[k] = c->q[(c->q_head + k) % c->q_cap];
		free(c->q);
		c->q = q;
		c->q_cap = cap;
		c->q_head = 0;
	}
	c->q[(c->q_head + c->q_n) % c->q_cap] = (struct pending){.g = s << 24 | i, .t = now};
	c->q_n++;
}

/* The client's segment of (s, i) to the server's own address and port. */
static void
client_send(struct fws_conns *c, unsigned int s, uint32_t i, struct fws_tcp_seg *g)
{
	const struct fws_flow_spec *f = &c->sets[s].flows;
	struct fws_flow_tuple ft;

	fws_flow_tuple(f, i, &ft);
	g->src_be = rte_cpu_to_be_32(ft.src_ip);
	g->dst_be = rte_cpu_to_be_32(ft.dst_ip);
	g->sport_be = rte_cpu_to_be_16(ft.src_port);
	g->dport_be = rte_cpu_to_be_16(ft.dst_port);
	g->ipv6 = f->ipv6;
	memcpy(g->src6, f->src6, sizeof(g->src6));
	memcpy(g->dst6, f->dst6, sizeof(g->dst6));
	g->tsval = fws_tcp_token(false, c->nonce, s, i);
	if (!(g->flags & FWS_TCP_SYN))
		g->tsecr = fws_tcp_token(true, c->nonce, s, i);
	if (g->flags & FWS_TCP_SYN)
		g->mss = f->ipv6 ? FWS_TCP_MSS6 : FWS_TCP_MSS4;
	if (g->window == 0)
		g->window = FWS_TCP_WINDOW;
	c->st.segs_sent++;
	c->emit(c->arg, s, false, g);
}

/* The server's answer to ti, to where it came from. */
static void
server_send(struct fws_conns *c, unsigned int s, uint32_t i, const struct fws_tcp_info *ti,
	    struct fws_tcp_seg *g)
{
	const struct fws_flow_spec *f = &c->sets[s].flows;

	g->src_be = ti->dst_be;
	g->dst_be = ti->src_be;
	g->sport_be = ti->dport_be;
	g->dport_be = ti->sport_be;
	g->ipv6 = f->ipv6;
	memcpy(g->src6, f->dst6, sizeof(g->src6));
	memcpy(g->dst6, f->src6, sizeof(g->dst6));
	g->tsval = fws_tcp_token(true, c->nonce, s, i);
	g->tsecr = ti->tsval;
	g->window = FWS_TCP_WINDOW;
	if (g->flags & FWS_TCP_SYN)
		g->mss = f->ipv6 ? FWS_TCP_MSS6 : FWS_TCP_MSS4;
	c->st.segs_sent++;
	c->emit(c->arg, s, true, g);
}

/* The client's next sequence number in each state (its FIN's once the data is out). */
static uint32_t
client_nxt(const struct fws_conns *c, unsigned int s, uint32_t i, const struct fws_conn *k)
{
	uint32_t n = isn(c, s, i, false) + 1;

	if (k->state == C_HELD || k->state == C_FIN_SENT || k->state == C_CLOSED)
		n += c->p.data;
	if (k->state == C_CLOSED)
		n++;
	return n;
}

/* A UDP connection's payload (at least FWS_CONN_UDP_MIN bytes): magic, token, fill. */
static uint16_t
udp_payload(const struct fws_conns *c, uint8_t *buf, uint32_t token)
{
	uint32_t v = rte_cpu_to_be_32(FWS_CONN_UDP_MAGIC);
	uint16_t len = RTE_MAX(c->p.data, (uint16_t)FWS_CONN_UDP_MIN);

	memcpy(buf, &v, 4);
	v = rte_cpu_to_be_32(token);
	memcpy(buf + 4, &v, 4);
	memcpy(buf + 8, c->payload, len - 8u);
	return len;
}

/* Send what (s, i) waits on in its state: the SYN, the request or the FIN. */
static void
send_waited(struct fws_conns *c, unsigned int s, uint32_t i, uint32_t now)
{
	struct fws_conn *k = &c->conn[s][i];
	struct fws_tcp_seg g = {.seq = client_nxt(c, s, i, k), .ack = k->srv_nxt};
	uint8_t dgram[FWS_CONN_MAX_DATA + FWS_CONN_UDP_MIN];

	if (c->p.udp) { /* the request datagram */
		g.payload = dgram;
		g.payload_len = udp_payload(c, dgram, fws_tcp_token(false, c->nonce, s, i));
		client_send(c, s, i, &g);
		k->t_last = now;
		push(c, s, i, now);
		return;
	}
	switch (k->state) {
	case C_SYN_SENT:
		g.seq--;
		g.ack = 0;
		g.flags = FWS_TCP_SYN;
		g.window = 0xffff;
		break;
	case C_REQ_SENT:
		g.flags = FWS_TCP_ACK | FWS_TCP_PSH;
		g.payload = c->payload;
		g.payload_len = c->p.data;
		break;
	default: /* C_FIN_SENT */
		g.flags = FWS_TCP_FIN | FWS_TCP_ACK;
	}
	client_send(c, s, i, &g);
	k->t_last = now;
	push(c, s, i, now);
}

static void
enter(struct fws_conns *c, struct fws_conn *k, uint8_t state)
{
	bool was = k->state == C_SYN_SENT || k->state == C_REQ_SENT || k->state == C_FIN_SENT;
	bool is = state == C_SYN_SENT || state == C_REQ_SENT || state == C_FIN_SENT;

	c->waiting = c->waiting - was + is;
	c->st.held = c->st.held - (k->state == C_HELD) + (state == C_HELD);
	k->state = state;
	k->tries = 0;
}

static void
fail(struct fws_conns *c, struct fws_conn *k, enum fws_conn_fail why, uint32_t now)
{
	if (k->state == C_IDLE || k->state == C_CLOSED || k->state == C_FAILED)
		return;
	if (c->st.first_fail == FWS_CONN_FAIL_NONE) {
		c->st.first_fail = why;
		c->st.held_at_fail = c->st.held;
		c->st.first_fail_us = now;
	}
	c->st.failed[why]++;
	enter(c, k, C_FAILED);
	k->fail = (uint8_t)why;
}

/* Waiting for state's answer: send it now (the first try). */
static void
wait_for(struct fws_conns *c, unsigned int s, uint32_t i, uint8_t state, uint32_t now)
{
	struct fws_conn *k = &c->conn[s][i];

	enter(c, k, state);
	k->tries = 1;
	send_waited(c, s, i, now);
}

/* The data is through (or there is none): established; then closed or held by the test. */
static void
established(struct fws_conns *c, unsigned int s, uint32_t i, uint32_t now)
{
	struct fws_conn *k = &c->conn[s][i];
	struct fws_tcp_seg g = {.flags = FWS_TCP_ACK, .ack = k->srv_nxt};

	c->st.established++;
	fws_hist_add(&c->st.est, (uint64_t)(uint32_t)(now - k->t_first) * 1000u);
	series_add(&c->st.est_per_s, now);
	if (c->p.udp && c->p.test == FWS_CONN_RATE) { /* nothing to close: done */
		enter(c, k, C_CLOSED);
		c->st.closed++;
		c->st.clean += !k->retried;
		series_add(&c->st.closed_per_s, now);
		return;
	}
	if (c->p.udp) {
		enter(c, k, C_HELD);
		c->st.clean += !k->retried;
		return;
	}
	if (c->p.test == FWS_CONN_RATE) {
		if (c->p.data == 0) { /* the handshake's ACK first, then the FIN */
			g.seq = client_nxt(c, s, i, k);
			client_send(c, s, i, &g);
		}
		wait_for(c, s, i, C_FIN_SENT, now);
		return;
	}
	enter(c, k, C_HELD);
	c->st.clean += c->p.test == FWS_CONN_CAPACITY && !k->retried;
	g.seq = client_nxt(c, s, i, k);
	client_send(c, s, i, &g);
}

uint64_t
fws_conns_open(struct fws_conns *c, uint64_t n, uint32_t now_us)
{
	uint64_t done = 0;

	while (done < n && c->open_set < c->n_sets) {
		struct fws_conn *k = &c->conn[c->open_set][c->open_i];

		k->t_first = now_us;
		c->st.attempted++;
		wait_for(c, c->open_set, c->open_i, c->p.udp ? C_REQ_SENT : C_SYN_SENT, now_us);
		done++;
		if (++c->open_i == c->sets[c->open_set].flows.count) {
			c->open_i = 0;
			c->open_set++;
		}
	}
	return done;
}

uint64_t
fws_conns_close(struct fws_conns *c, uint64_t n, uint32_t now_us)
{
	uint64_t done = 0;

	while (done < n && c->close_set < c->n_sets) {
		unsigned int s = c->close_set;
		uint32_t i = c->close_i;

		if (c->conn[s][i].state == C_HELD) {
			wait_for(c, s, i, C_FIN_SENT, now_us);
			done++;
		}
		if (++c->close_i == c->sets[s].flows.count) {
			c->close_i = 0;
			c->close_set++;
		}
	}
	return done;
}

uint64_t
fws_conns_reset(struct fws_conns *c, uint64_t n)
{
	uint64_t done = 0;

	if (c->p.udp)
		return 0; /* no RST in UDP: the aging alone ends the DUT's state */
	while (done < n && c->reset_set < c->n_sets) {
		unsigned int s = c->reset_set;
		uint32_t i = c->reset_i;
		struct fws_conn *k = &c->conn[s][i];

		if (k->state != C_IDLE) {
			struct fws_tcp_seg g = {.seq = client_nxt(c, s, i, k),
						.flags = FWS_TCP_RST};

			client_send(c, s, i, &g);
			c->st.reset_sent++;
			done++;
		}
		if (++c->reset_i == c->sets[s].flows.count) {
			c->reset_i = 0;
			c->reset_set++;
		}
	}
	return done;
}

/* A RST with no token (a DUT's reject): its connection by the client's address and port. */
static bool
rst_owner(const struct fws_conns *c, unsigned int port, const struct fws_tcp_info *ti,
	  unsigned int *s, uint32_t *i)
{
	struct fws_flow_tuple ft = {.src_ip = rte_be_to_cpu_32(ti->dst_be),
				    .dst_ip = rte_be_to_cpu_32(ti->src_be),
				    .src_port = rte_be_to_cpu_16(ti->dport_be),
				    .dst_port = rte_be_to_cpu_16(ti->sport_be)};

	for (*s = 0; *s < c->n_sets; (*s)++)
		if (c->sets[*s].client_port == port &&
		    fws_flow_index(&c->sets[*s].flows, &ft, i) == 0)
			return true;
	return false;
}

/* At the server: answer from the segment alone. */
static void
server_input(struct fws_conns *c, unsigned int s, uint32_t i, const struct fws_tcp_info *ti)
{
	struct fws_tcp_seg g = {.seq = ti->ack, .ack = ti->seq + ti->payload_len};

	if (ti->flags & FWS_TCP_RST)
		return;
	if ((ti->flags & (FWS_TCP_SYN | FWS_TCP_ACK)) == FWS_TCP_SYN) {
		g.seq = isn(c, s, i, true);
		g.ack = ti->seq + 1;
		g.flags = FWS_TCP_SYN | FWS_TCP_ACK;
	} else if (ti->flags & FWS_TCP_FIN) {
		g.ack++;
		g.flags = FWS_TCP_FIN | FWS_TCP_ACK;
	} else if (ti->payload_len && c->p.data) {
		g.flags = FWS_TCP_ACK | FWS_TCP_PSH;
		g.payload = c->payload;
		g.payload_len = c->p.data;
	} else {
		return; /* an ACK: nothing to say */
	}
	server_send(c, s, i, ti, &g);
}

/* The SYN-ACK: the client takes the server's number and sends the request (or is done). */
static void
client_synack(struct fws_conns *c, unsigned int s, uint32_t i, const struct fws_tcp_info *ti,
	      uint32_t now)
{
	struct fws_conn *k = &c->conn[s][i];

	if (k->state != C_SYN_SENT || ti->ack != isn(c, s, i, false) + 1)
		return;
	k->srv_nxt = ti->seq + 1;
	if (c->p.data == 0) {
		established(c, s, i, now);
		return;
	}
	wait_for(c, s, i, C_REQ_SENT, now); /* the handshake's ACK carries the request */
}

/* At the client: the server's answer to what the connection waits on. */
static void
client_input(struct fws_conns *c, unsigned int s, uint32_t i, const struct fws_tcp_info *ti,
	     uint32_t now)
{
	struct fws_conn *k = &c->conn[s][i];
	uint32_t nxt = client_nxt(c, s, i, k);
	struct fws_tcp_seg g = {.flags = FWS_TCP_ACK};

	if (ti->flags & FWS_TCP_RST) {
		c->st.rst_received++;
		fail(c, k, FWS_CONN_FAIL_RST, now);
	} else if (ti->flags & FWS_TCP_SYN) {
		client_synack(c, s, i, ti, now);
	} else if (k->state == C_REQ_SENT && ti->payload_len == c->p.data &&
		   ti->ack == nxt + c->p.data && ti->seq == k->srv_nxt) {
		k->srv_nxt += c->p.data;
		established(c, s, i, now);
	} else if (k->state == C_FIN_SENT && (ti->flags & FWS_TCP_FIN) && ti->ack == nxt + 1) {
		enter(c, k, C_CLOSED);
		c->st.closed++;
		c->st.clean += !k->retried;
		series_add(&c->st.closed_per_s, now);
		g.seq = nxt + 1;
		g.ack = ti->seq + 1;
		client_send(c, s, i, &g);
	}
}

void
fws_conns_input(struct fws_conns *c, unsigned int port, const struct fws_tcp_info *ti,
		uint32_t now_us)
{
	unsigned int s;
	uint32_t i;
	bool server;

	c->st.segs_received++;
	if (!ti->has_ts || fws_tcp_token_parse(ti->tsval, c->nonce, &server, &s, &i) < 0 ||
	    s >= c->n_sets || i >= c->sets[s].flows.count ||
	    port != (server ? c->sets[s].client_port : c->sets[s].server_port)) {
		/* No token of ours: a DUT's reject names its connection by address and port. */
		if ((ti->flags & FWS_TCP_RST) && rst_owner(c, port, ti, &s, &i) &&
		    c->conn[s][i].state != C_IDLE) {
			c->st.rst_received++;
			fail(c, &c->conn[s][i], FWS_CONN_FAIL_RST, now_us);
			return;
		}
		c->st.unmatched++;
		return;
	}
	if (server)
		client_input(c, s, i, ti, now_us);
	else
		server_input(c, s, i, ti);
}

int
fws_conn_parse_udp(const uint8_t *frame, uint32_t len, struct fws_tcp_info *ti,
		   const uint8_t **payload, uint32_t *plen)
{
	struct fws_pkt_view v;

	if (fws_pkt_parse(frame, len, &v) != FWS_PKT_UDP)
		return -EINVAL;
	memset(ti, 0, sizeof(*ti));
	memcpy(&ti->src_be, v.l3 + (v.ipv6 ? 20 : 12), 4);
	memcpy(&ti->dst_be, v.l3 + (v.ipv6 ? 36 : 16), 4);
	memcpy(&ti->sport_be, v.l4, 2);
	memcpy(&ti->dport_be, v.l4 + 2, 2);
	*payload = v.payload;
	*plen = v.payload_len;
	return 0;
}

void
fws_conns_input_udp(struct fws_conns *c, unsigned int port, const struct fws_tcp_info *ti,
		    const uint8_t *payload, uint32_t len, uint32_t now_us)
{
	uint8_t dgram[FWS_CONN_MAX_DATA + FWS_CONN_UDP_MIN];
	uint32_t magic = 0, tok = 0, i;
	unsigned int s;
	bool server;

	c->st.segs_received++;
	if (len >= FWS_CONN_UDP_MIN) {
		memcpy(&magic, payload, 4);
		memcpy(&tok, payload + 4, 4);
	}
	if (!c->p.udp || len < FWS_CONN_UDP_MIN || rte_be_to_cpu_32(magic) != FWS_CONN_UDP_MAGIC ||
	    fws_tcp_token_parse(rte_be_to_cpu_32(tok), c->nonce, &server, &s, &i) < 0 ||
	    s >= c->n_sets || i >= c->sets[s].flows.count ||
	    port != (server ? c->sets[s].client_port : c->sets[s].server_port)) {
		c->st.unmatched++;
		return;
	}
	if (!server) { /* at the server: the response, to where the request came from */
		struct fws_tcp_seg g = {.payload = dgram};

		g.payload_len = udp_payload(c, dgram, fws_tcp_token(true, c->nonce, s, i));
		server_send(c, s, i, ti, &g);
		return;
	}
	if (c->conn[s][i].state == C_REQ_SENT)
		established(c, s, i, now_us);
}

void
fws_conns_timers(struct fws_conns *c, uint32_t now_us)
{
	while (c->q_n) {
		struct pending e = c->q[c->q_head];
		unsigned int s = e.g >> 24;
		uint32_t i = e.g & 0xffffffu;
		struct fws_conn *k = &c->conn[s][i];

		if ((uint32_t)(now_us - e.t) < c->p.retry_us)
			break;
		c->q_head = (c->q_head + 1) % c->q_cap;
		c->q_n--;
		if (k->t_last != e.t ||
		    !(k->state == C_SYN_SENT || k->state == C_REQ_SENT || k->state == C_FIN_SENT))
			continue; /* answered, or sent again since */
		if (k->tries >= c->p.tries) {
			fail(c, k,
			     k->state == C_SYN_SENT   ? FWS_CONN_FAIL_SYN
			     : k->state == C_REQ_SENT ? FWS_CONN_FAIL_DATA
						      : FWS_CONN_FAIL_CLOSE,
			     now_us);
			continue;
		}
		k->tries++;
		c->st.resent++;
		c->st.retried += !k->retried;
		k->retried = 1;
		send_waited(c, s, i, now_us);
	}
}
