/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trial feature "tcp": the connections of the TCP streams (throughput, not the connection
 * tests of fws_conntester), run by the main lcore. Before each
 * trial every flow opens: the LAN side (the client) sends a SYN, the other side answers
 * with a SYN-ACK to wherever the SYN came from (through NAT: the translated address and
 * port), the client ACKs, and the data receiver opens its scaled window with an ACK. Each
 * side takes its numbers from the segments it receives, never from what the other sent: a
 * DUT that rewrites sequence numbers or ports is followed. During the trial the transmit
 * lcores send data segments (engine "tcp"); the receiving side ACKs each connection's
 * newest byte every pass of the main loop (5 ms), past any hole: a lost segment is counted
 * as loss by its signature, never resent, and never holds the sender's window. After the
 * trial each connection closes with FIN, answered by FIN.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_random.h>

#include "fws_feature.h"
#include "fws_tcp.h"
#include "fws_trial_int.h"

#define HANDSHAKE_S 3.0   /**< a handshake not done by then failed (timeout) */
#define SYN_RETRY_S 1.0   /**< a SYN again after this */
#define SYN_TRIES 3       /**< SYNs per connection at most */
#define MAX_OPENING 512u  /**< handshakes under way at once */
#define SYN_BATCH 256     /**< SYNs per pass of the open loop */
#define ACK_BUDGET 1024   /**< ACKs per pass of the main loop (the reply ring holds 2048) */
#define CLOSE_S 1.0       /**< no FIN answered this long after the last one sent: done */
#define CLOSE_RETRY_S 0.5 /**< a FIN again after this */

enum conn_state { C_IDLE = 0, C_SYN_SENT, C_OPEN, C_FAILED_RST, C_FAILED_TIMEOUT };

/* One connection: each side's own numbers, and the SYN as the server saw it. */
struct conn {
	uint8_t state;
	bool synack, windowed, closed, fin_sent, pre_seen;
	uint8_t tries;         /**< SYNs sent */
	uint32_t c_isn, c_rcv; /**< client: its ISN, the server's ISN + 1 as it saw it */
	uint32_t s_isn, s_rcv; /**< server: its ISN, the client's ISN + 1 as it saw it */
	uint32_t s_src_be, s_dst_be;
	uint16_t s_sport_be, s_dport_be;
	uint32_t acked;         /**< the newest ACK the data receiver sent */
	uint32_t r_nxt;         /**< the receiver's next sequence number (its FIN's) */
	uint64_t t_syn, t_open; /**< the first SYN, the window opened */
	uint64_t t_try;         /**< the last SYN */
};

struct tcp_stream {
	struct conn *conn;
	uint32_t n;
	bool client_sends; /**< upload: the client is the data sender */
	uint8_t client_port, server_port;
	uint32_t next_ack; /**< round-robin position of the ACK pump */
	uint16_t pre_len;  /**< the application preamble every connection opens with */
	uint8_t pre[512];
	struct fws_tcp_result res;
};

/* The feature's state. */
struct fws_tcpconn {
	struct fws_trial *t;
	uint32_t nonce;
	uint32_t active; /**< streams opened for the current trial */
	struct tcp_stream st[FWS_CFG_MAX_STREAMS];
	/* Per flow of a TCP or SYN stream: the data sender's state, which the transmit tasks'
	 * engine reads and writes (each task has its share: fws_tx_task.tcp). */
	struct fws_tcp_txflow *tx[FWS_CFG_MAX_STREAMS];
};

static bool
is_tcp(const struct fws_cfg *cfg, unsigned int s)
{
	return cfg->streams[s].l4 == FWS_L4_TCP;
}

/* The client's and server's addresses and ports of flow i, network order. */
static void
ends(const struct fws_tcpconn *tc, unsigned int s, uint32_t i, struct fws_tcp_seg *c)
{
	const struct fws_cfg_stream *cs = &tc->t->cfg->streams[s];
	struct fws_flow_tuple ft;
	bool up = tc->st[s].client_sends;

	fws_flow_tuple(&cs->flows, i, &ft);
	c->src_be = rte_cpu_to_be_32(up ? ft.src_ip : ft.dst_ip);
	c->dst_be = rte_cpu_to_be_32(up ? ft.dst_ip : ft.src_ip);
	c->sport_be = rte_cpu_to_be_16(up ? ft.src_port : ft.dst_port);
	c->dport_be = rte_cpu_to_be_16(up ? ft.dst_port : ft.src_port);
}

/* The address family of stream s's segments, and with IPv6 the upper 96 bits of both ends
 * (configured: no prefix translation is followed); the MSS a SYN announces. */
static void
family(const struct fws_tcpconn *tc, unsigned int s, struct fws_tcp_seg *g, bool from_client)
{
	const struct fws_cfg_stream *cs = &tc->t->cfg->streams[s];
	bool up = tc->st[s].client_sends;
	const uint8_t *client = up ? cs->flows.src6 : cs->flows.dst6;
	const uint8_t *server = up ? cs->flows.dst6 : cs->flows.src6;

	g->ipv6 = cs->flows.ipv6;
	if (g->flags & FWS_TCP_SYN)
		g->mss = g->ipv6 ? FWS_TCP_MSS6 : FWS_TCP_MSS4;
	if (!g->ipv6)
		return;
	memcpy(g->src6, from_client ? client : server, sizeof(g->src6));
	memcpy(g->dst6, from_client ? server : client, sizeof(g->dst6));
}

/* Build and send seg from port p (toward port to). */
static void
emit(struct fws_tcpconn *tc, unsigned int p, unsigned int to, struct fws_tcp_seg *seg)
{
	struct rte_mbuf *m = fws_ctlio_segment(&tc->t->ctl, p, to, seg, false);

	if (m)
		fws_ctlio_send(&tc->t->ctl, p, m);
}

static uint32_t
token(const struct fws_tcpconn *tc, bool server, unsigned int s, uint32_t i)
{
	return fws_tcp_token(server, tc->nonce, s, i);
}

static void
send_syn(struct fws_tcpconn *tc, unsigned int s, uint32_t i, uint64_t now)
{
	struct tcp_stream *ts = &tc->st[s];
	struct conn *k = &ts->conn[i];
	struct fws_tcp_seg g = {.seq = k->c_isn,
				.flags = FWS_TCP_SYN,
				.window = 0xffff,
				.tsval = token(tc, false, s, i)};

	ends(tc, s, i, &g);
	family(tc, s, &g, true);
	emit(tc, ts->client_port, ts->server_port, &g);
	if (k->state == C_IDLE)
		k->t_syn = now;
	k->t_try = now;
	k->tries++;
	k->state = C_SYN_SENT;
}

/* From the server side of connection (s, i) to the client as the SYN showed it. */
static void
server_seg(struct fws_tcpconn *tc, unsigned int s, uint32_t i, struct fws_tcp_seg *g)
{
	const struct conn *k = &tc->st[s].conn[i];

	g->src_be = k->s_dst_be;
	g->dst_be = k->s_src_be;
	g->sport_be = k->s_dport_be;
	g->dport_be = k->s_sport_be;
	g->tsval = token(tc, true, s, i);
	g->tsecr = token(tc, false, s, i);
	family(tc, s, g, false);
	emit(tc, tc->st[s].server_port, tc->st[s].client_port, g);
}

/* From the client side of connection (s, i) to the server's own address and port. */
static void
client_seg(struct fws_tcpconn *tc, unsigned int s, uint32_t i, struct fws_tcp_seg *g)
{
	ends(tc, s, i, g);
	g->tsval = token(tc, false, s, i);
	g->tsecr = token(tc, true, s, i);
	family(tc, s, g, true);
	emit(tc, tc->st[s].client_port, tc->st[s].server_port, g);
}

/* A segment from the data receiver of (s, i): seq its next, ack as given. */
static void
receiver_seg(struct fws_tcpconn *tc, unsigned int s, uint32_t i, uint8_t flags, uint32_t ack)
{
	struct conn *k = &tc->st[s].conn[i];
	struct fws_tcp_seg g = {
		.seq = k->r_nxt, .ack = ack, .flags = flags, .window = FWS_TCP_WINDOW};

	if (tc->st[s].client_sends)
		server_seg(tc, s, i, &g);
	else
		client_seg(tc, s, i, &g);
}

/* From the data sender of (s, i). */
static void
sender_seg(struct fws_tcpconn *tc, unsigned int s, uint32_t i, struct fws_tcp_seg *g)
{
	if (tc->st[s].client_sends)
		client_seg(tc, s, i, g);
	else
		server_seg(tc, s, i, g);
}

/* The server got a SYN: it remembers how it arrived and answers. */
static void
on_syn(struct fws_tcpconn *tc, unsigned int s, uint32_t i, const struct fws_tcp_info *ti)
{
	struct conn *k = &tc->st[s].conn[i];
	struct fws_tcp_seg g = {
		.flags = FWS_TCP_SYN | FWS_TCP_ACK, .window = 0xffff, .mss = FWS_TCP_MSS4};

	k->s_src_be = ti->src_be;
	k->s_dst_be = ti->dst_be;
	k->s_sport_be = ti->sport_be;
	k->s_dport_be = ti->dport_be;
	k->s_rcv = ti->seq + 1;
	g.seq = k->s_isn;
	g.ack = k->s_rcv;
	server_seg(tc, s, i, &g);
}

/* The client got the SYN-ACK of its SYN: it takes the server's number and ACKs. */
static void
on_synack(struct fws_tcpconn *tc, unsigned int s, uint32_t i, const struct fws_tcp_info *ti)
{
	struct conn *k = &tc->st[s].conn[i];
	struct fws_tcp_seg g = {.flags = FWS_TCP_ACK, .window = FWS_TCP_WINDOW};

	if (ti->ack != k->c_isn + 1)
		return; /* not an answer to our SYN */
	k->c_rcv = ti->seq + 1;
	k->synack = true;
	g.seq = k->c_isn + 1;
	g.ack = k->c_rcv;
	client_seg(tc, s, i, &g);
}

/* The data sender's view of a connection once open. */
static void
sender_init(struct fws_tcpconn *tc, unsigned int s, uint32_t i, uint32_t limit)
{
	struct tcp_stream *ts = &tc->st[s];
	struct conn *k = &ts->conn[i];
	bool up = ts->client_sends;

	fws_tcp_txflow_init(&tc->tx[s][i], up ? k->c_isn + 1 : k->s_isn + 1,
			    up ? k->c_rcv : k->s_rcv, limit, token(tc, !up, s, i),
			    token(tc, up, s, i));
	k->r_nxt = up ? k->s_isn + 1 : k->c_isn + 1;
}

/* An ACK at the data sender: the window moves (never back); the first one opens it. */
static void
on_sender_ack(struct fws_tcpconn *tc, unsigned int s, uint32_t i, const struct fws_tcp_info *ti)
{
	struct conn *k = &tc->st[s].conn[i];
	uint32_t limit = ti->ack + ((uint32_t)ti->window << FWS_TCP_WSCALE);

	tc->st[s].res.acks_received++;
	if (k->state == C_SYN_SENT && k->synack) {
		/* The receiver's first ACK after the handshake acknowledges the ISN. */
		if (ti->ack != (tc->st[s].client_sends ? k->c_isn : k->s_isn) + 1)
			return;
		sender_init(tc, s, i, limit);
		/* Fault injection (tests): numbers the receiver never allowed, window and all. */
		tc->tx[s][i].seq += tc->t->cfg->tcp_seq_offset;
		tc->tx[s][i].limit += tc->t->cfg->tcp_seq_offset;
		k->state = C_OPEN;
		k->t_open = rte_rdtsc();
		return;
	}
	if (k->state == C_OPEN)
		__atomic_store_n(
			&tc->tx[s][i].limit,
			fws_tcp_max(__atomic_load_n(&tc->tx[s][i].limit, __ATOMIC_RELAXED), limit),
			__ATOMIC_RELEASE);
}

/* The server as data receiver got the handshake's last ACK: it opens the scaled window. */
static void
on_receiver_ack(struct fws_tcpconn *tc, unsigned int s, uint32_t i, const struct fws_tcp_info *ti)
{
	struct conn *k = &tc->st[s].conn[i];
	struct fws_tcp_seg g = {.flags = FWS_TCP_ACK, .window = FWS_TCP_WINDOW};

	if (k->windowed || ti->ack != k->s_isn + 1)
		return;
	k->windowed = true;
	g.seq = k->s_isn + 1;
	g.ack = ti->seq;
	server_seg(tc, s, i, &g);
}

/* FIN from the data sender: the receiver answers FIN-ACK; FIN-ACK at the sender: last ACK. */
static void
on_fin(struct fws_tcpconn *tc, unsigned int s, uint32_t i, const struct fws_tcp_info *ti,
       bool at_sender)
{
	struct conn *k = &tc->st[s].conn[i];
	struct fws_tcp_seg g = {.flags = FWS_TCP_ACK, .window = FWS_TCP_WINDOW};

	if (!at_sender) {
		receiver_seg(tc, s, i, FWS_TCP_FIN | FWS_TCP_ACK, ti->seq + 1);
		return;
	}
	if (k->closed)
		return;
	k->closed = true;
	tc->st[s].res.closed++;
	g.seq = ti->ack;
	g.ack = ti->seq + 1;
	sender_seg(tc, s, i, &g);
}

static void
dispatch(struct fws_tcpconn *tc, unsigned int port, const struct fws_tcp_info *ti)
{
	uint32_t tok =
		ti->flags & FWS_TCP_SYN && !(ti->flags & FWS_TCP_ACK) ? ti->tsval : ti->tsecr;
	struct tcp_stream *ts;
	unsigned int s;
	uint32_t i;
	bool server, sender;

	if (!ti->has_ts || fws_tcp_token_parse(tok, tc->nonce, &server, &s, &i) < 0 ||
	    s >= tc->t->cfg->n_streams || !is_tcp(tc->t->cfg, s) || i >= tc->st[s].n)
		return;
	ts = &tc->st[s];
	if (port != (ti->flags & FWS_TCP_SYN && !(ti->flags & FWS_TCP_ACK) ? ts->server_port
		     : server                                              ? ts->server_port
									   : ts->client_port))
		return;
	sender = server != ts->client_sends;
	if (ti->flags & FWS_TCP_RST) {
		ts->res.rst_received++;
		if (ts->conn[i].state == C_SYN_SENT)
			ts->conn[i].state = C_FAILED_RST;
	} else if ((ti->flags & (FWS_TCP_SYN | FWS_TCP_ACK)) == FWS_TCP_SYN) {
		on_syn(tc, s, i, ti);
	} else if (ti->flags & FWS_TCP_SYN) {
		on_synack(tc, s, i, ti);
	} else if (ti->flags & FWS_TCP_FIN) {
		on_fin(tc, s, i, ti, sender);
	} else if (sender) {
		on_sender_ack(tc, s, i, ti);
	} else if (server) {
		on_receiver_ack(tc, s, i, ti);
	}
}

/* A segment with payload but no signature at the server: a connection's preamble. */
static void
on_preamble(struct fws_tcpconn *tc, unsigned int port, const struct fws_tcp_info *ti)
{
	struct tcp_stream *ts;
	unsigned int s;
	uint32_t i;
	bool server;

	if (!ti->has_ts || fws_tcp_token_parse(ti->tsecr, tc->nonce, &server, &s, &i) < 0 ||
	    !server || s >= tc->t->cfg->n_streams || !is_tcp(tc->t->cfg, s) || i >= tc->st[s].n)
		return;
	ts = &tc->st[s];
	if (port != ts->server_port || ts->pre_len == 0 || ti->payload_len != ts->pre_len ||
	    ts->conn[i].pre_seen)
		return;
	ts->conn[i].pre_seen = true;
	ts->res.preambles_received++;
}

/* fws_ctlio's hook: every TCP segment without a signature that reached a port. */
static void
tcp_input(void *arg, unsigned int port, struct rte_mbuf *m)
{
	struct fws_tcpconn *tc = arg;
	struct fws_tcp_info ti;

	if (fws_tcp_parse(rte_pktmbuf_mtod(m, const uint8_t *), m->data_len, &ti) == 0) {
		if (ti.payload_len == 0)
			dispatch(tc, port, &ti);
		else
			on_preamble(tc, port, &ti);
	}
	rte_pktmbuf_free(m);
}

/* Stream s's connections and data sender state; the receive lcores' ACK tables. */
static int
stream_setup(struct fws_tcpconn *tc, unsigned int s)
{
	struct fws_trial *t = tc->t;
	const struct fws_cfg_stream *cs = &t->cfg->streams[s];
	struct tcp_stream *ts = &tc->st[s];
	unsigned int k;

	ts->n = cs->flows.count;
	ts->client_sends = cs->dir != FWS_DIR_DOWNLOAD;
	ts->client_port = ts->client_sends ? cs->tx_port : cs->rx_port;
	ts->server_port = ts->client_sends ? cs->rx_port : cs->tx_port;
	if (cs->app != FWS_APP_NONE)
		ts->pre_len = (uint16_t)fws_tcp_preamble(
			ts->pre, sizeof(ts->pre),
			cs->app == FWS_APP_TLS ? FWS_TCP_PRE_TLS : FWS_TCP_PRE_HTTP, cs->app_name);
	ts->conn = calloc(ts->n, sizeof(*ts->conn));
	if (ts->conn == NULL)
		return -ENOMEM;
	for (k = 0; k < t->n_rx; k++) {
		t->rx[k]->tcp = true;
		t->rx[k]->tcphi[s] = rte_zmalloc("fws_tcphi", sizeof(struct fws_rx_tcphi) * ts->n,
						 RTE_CACHE_LINE_SIZE);
		if (t->rx[k]->tcphi[s] == NULL)
			return -ENOMEM;
	}
	return 0;
}

/* Every TCP stream (connections) and SYN flood (segments only), each flow's sender state
 * shared by the stream's transmit tasks, each task its contiguous share. */
static int
tcp_create(struct fws_tcpconn *tc)
{
	struct fws_trial *t = tc->t;
	const struct fws_cfg *cfg = t->cfg;
	unsigned int s, k;

	for (s = 0; s < cfg->n_streams; s++) {
		const struct fws_cfg_stream *cs = &cfg->streams[s];

		if (!is_tcp(cfg, s) && cs->l4 != FWS_L4_SYN)
			continue;
		tc->tx[s] = rte_zmalloc_socket("fws_tcptx", sizeof(*tc->tx[s]) * cs->flows.count,
					       RTE_CACHE_LINE_SIZE, t->port[cs->tx_port].socket);
		if (tc->tx[s] == NULL || (is_tcp(cfg, s) && stream_setup(tc, s) < 0))
			return -ENOMEM;
	}
	for (k = 0; k < t->n_tasks; k++)
		if (tc->tx[t->tasks[k].stream])
			t->tasks[k].tcp = tc->tx[t->tasks[k].stream] +
					  (t->tasks[k].flows - t->txflows[t->tasks[k].stream]);
	t->ctl.tcp_input = tcp_input;
	t->ctl.tcp_arg = tc;
	return 0;
}

static int
tcp_setup(struct fws_trial *t, void **state, struct fws_err *e)
{
	const struct fws_cfg *cfg = t->cfg;
	struct fws_tcpconn *tc;
	unsigned int s;

	for (s = 0; s < cfg->n_streams && !is_tcp(cfg, s) && cfg->streams[s].l4 != FWS_L4_SYN; s++)
		;
	if (s == cfg->n_streams || cfg->conn.test != FWS_CONN_NONE)
		return 0; /* a connection test has its own connections (fws_conntester) */
	if ((tc = calloc(1, sizeof(*tc))) == NULL)
		return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
	tc->t = t;
	*state = tc;
	return tcp_create(tc) < 0 ? fws_err_set(e, FWS_ERR_SETUP, -ENOMEM,
						"setup: out of memory (TCP connections)")
				  : 0;
}

static void
tcp_destroy(struct fws_trial *t, void *state)
{
	struct fws_tcpconn *tc = state;
	unsigned int s, k;

	if (tc == NULL)
		return;
	t->ctl.tcp_input = NULL;
	t->ctl.tcp_arg = NULL;
	for (s = 0; s < FWS_CFG_MAX_STREAMS; s++) {
		free(tc->st[s].conn);
		rte_free(tc->tx[s]);
		for (k = 0; k < t->n_rx; k++) {
			rte_free(t->rx[k]->tcphi[s]);
			t->rx[k]->tcphi[s] = NULL;
		}
	}
	for (k = 0; k < t->n_tasks; k++)
		t->tasks[k].tcp = NULL;
	free(tc);
}

static bool
wanted(const struct fws_tcpconn *tc, uint32_t mask, unsigned int s)
{
	return is_tcp(tc->t->cfg, s) && (!mask || ((mask >> s) & 1));
}

/* A fresh set of connections for stream s: new ISNs, nothing open. */
static void
reset_stream(struct fws_tcpconn *tc, unsigned int s)
{
	const struct fws_cfg_stream *cs = &tc->t->cfg->streams[s];
	struct tcp_stream *ts = &tc->st[s];
	uint32_t i;

	memset(ts->conn, 0, sizeof(*ts->conn) * ts->n);
	memset(tc->tx[s], 0, sizeof(*tc->tx[s]) * ts->n);
	for (i = 0; i < ts->n; i++) {
		ts->conn[i].c_isn = (uint32_t)rte_rand();
		ts->conn[i].s_isn = (uint32_t)rte_rand();
	}
	ts->next_ack = 0;
	ts->res = (struct fws_tcp_result){
		.present = true,
		.attempted = ts->n,
		.min_frame = fws_pkt_min_frame_tcp(tc->t->cfg->ports[cs->tx_port].vlan != 0,
						   cs->flows.ipv6)};
}

/* Send the next SYNs: at most SYN_BATCH per step and MAX_OPENING handshakes under way at
 * once (a ring, a queue or the DUT's SYN handling takes no more), and a SYN again after
 * SYN_RETRY_S, up to SYN_TRIES in all. Returns whether any connection is still opening. */
static bool
open_step(struct fws_tcpconn *tc, uint32_t mask, uint64_t now, uint64_t *last_syn)
{
	uint64_t retry = (uint64_t)(SYN_RETRY_S * (double)tc->t->hz);
	unsigned int s, budget = SYN_BATCH, opening = 0;
	bool pending = false;
	uint32_t i;

	for (s = 0; s < tc->t->cfg->n_streams; s++)
		for (i = 0; wanted(tc, mask, s) && i < tc->st[s].n; i++)
			opening += tc->st[s].conn[i].state == C_SYN_SENT;
	budget = opening >= MAX_OPENING ? 0 : RTE_MIN(budget, MAX_OPENING - opening);
	for (s = 0; s < tc->t->cfg->n_streams; s++) {
		struct tcp_stream *ts = &tc->st[s];

		for (i = 0; wanted(tc, mask, s) && i < ts->n; i++) {
			struct conn *k = &ts->conn[i];

			if (k->state == C_IDLE && budget) {
				send_syn(tc, s, i, now);
				budget--;
				*last_syn = now;
			} else if (k->state == C_SYN_SENT && !k->synack && k->tries < SYN_TRIES &&
				   now - k->t_try > retry) {
				send_syn(tc, s, i, now);
			}
			pending |= k->state == C_IDLE || k->state == C_SYN_SENT;
		}
	}
	return pending;
}

/* Where download connection i's SYN came from: its client as the WAN side sees it. */
static bool
syn_seen(void *arg, unsigned int s, uint32_t i, struct fws_nat_tuple *at)
{
	const struct fws_tcpconn *tc = arg;
	const struct conn *k = &tc->st[s].conn[i];

	at->src = k->s_src_be;
	at->sport = k->s_sport_be;
	return k->s_src_be != 0;
}

/* After the handshakes: the verdicts, and connections that did not open send anyway (with
 * no window to wait for): their segments stay in the stream's count and are lost where
 * the DUT drops them. */
static int
open_result(struct fws_tcpconn *tc, unsigned int s)
{
	struct tcp_stream *ts = &tc->st[s];
	double sum = 0, us;
	uint32_t i;

	ts->res.est_min_us = -1;
	for (i = 0; i < ts->n; i++) {
		struct conn *k = &ts->conn[i];

		if (k->state == C_OPEN) {
			us = (double)(k->t_open - k->t_syn) * 1e6 / (double)tc->t->hz;
			ts->res.established++;
			sum += us;
			ts->res.est_min_us =
				ts->res.est_min_us < 0 ? us : RTE_MIN(ts->res.est_min_us, us);
			ts->res.est_max_us = RTE_MAX(ts->res.est_max_us, us);
			continue;
		}
		if (k->state == C_FAILED_RST)
			ts->res.failed_rst++;
		else
			ts->res.failed_timeout++;
		k->state = k->state == C_FAILED_RST ? C_FAILED_RST : C_FAILED_TIMEOUT;
		sender_init(tc, s, i, 0);
		tc->tx[s][i].limit = tc->tx[s][i].seq + 0x7fffffffu;
	}
	ts->res.est_avg_us = ts->res.established ? sum / ts->res.established : 0;
	ts->res.est_min_us = RTE_MAX(ts->res.est_min_us, 0.0);
	if (ts->res.established < ts->n)
		FWS_LOG(WARNING,
			"TCP: stream %s: %u of %u connections opened (%u reset, %u timed out)",
			tc->t->cfg->streams[s].name, ts->res.established, ts->n, ts->res.failed_rst,
			ts->res.failed_timeout);
	/* A download's data goes to where each SYN came from (through NAT: its translation). */
	return ts->client_sends ? 0 : fws_trial_aim(tc->t, s, syn_seen, tc);
}

/* The client's first data segment: the preamble, on every connection of streams with an
 * "app" (opened or not, as their data), in batches; then a moment for them to arrive. */
static void
send_preambles(struct fws_tcpconn *tc)
{
	uint64_t end;
	unsigned int s, n = 0;
	uint32_t i;

	for (s = 0; s < tc->t->cfg->n_streams; s++) {
		struct tcp_stream *ts = &tc->st[s];

		if (!((tc->active >> s) & 1) || ts->pre_len == 0)
			continue;
		for (i = 0; i < ts->n; i++) {
			struct fws_tcp_txflow *tf = &tc->tx[s][i];
			struct fws_tcp_seg g = {.seq = tf->seq,
						.ack = rte_be_to_cpu_32(tf->ack_be),
						.flags = FWS_TCP_ACK | FWS_TCP_PSH,
						.window = FWS_TCP_WINDOW,
						.payload = ts->pre,
						.payload_len = ts->pre_len};

			client_seg(tc, s, i, &g);
			tf->seq += ts->pre_len;
			ts->res.preambles_sent++;
			if (++n % SYN_BATCH == 0)
				fws_ctlio_poll_idle(&tc->t->ctl);
		}
	}
	end = rte_rdtsc() + tc->t->hz / 5;
	while (n && rte_rdtsc() < end) {
		fws_ctlio_poll_idle(&tc->t->ctl);
		rte_delay_us_sleep(100);
	}
}

/* A SYN flood's segments: a random number per flow, nothing to wait for. */
static void
syn_init(struct fws_tcpconn *tc, unsigned int s)
{
	uint32_t i;

	for (i = 0; i < tc->t->cfg->streams[s].flows.count; i++) {
		uint32_t seq = (uint32_t)rte_rand();

		fws_tcp_txflow_init(&tc->tx[s][i], seq, 0, seq + 0x7fffffffu, (uint32_t)rte_rand(),
				    0);
	}
}

/*
 * Prepare: open every connection of the TCP streams of mask (bit s, 0: all), workers
 * stopped: SYN, SYN-ACK, ACK, the receiver's window. Connections that do not open are
 * counted by reason and send anyway. 0, or -EINTR on a stop request.
 */
static int
tcp_open(struct fws_trial *t, void *state, const struct fws_trial_opts *o, uint32_t mask,
	 unsigned int size_idx, struct fws_err *e)
{
	struct fws_tcpconn *tc = state;
	uint64_t now = rte_rdtsc(), last_syn = now;
	uint64_t wait = (uint64_t)(HANDSHAKE_S * (double)t->hz);
	unsigned int s;

	(void)size_idx;
	if (tc == NULL)
		return 0;
	tc->nonce++;
	tc->active = 0;
	for (s = 0; s < tc->t->cfg->n_streams; s++) {
		tc->st[s].res.present = false;
		if (tc->t->cfg->streams[s].l4 == FWS_L4_SYN && (!mask || ((mask >> s) & 1)))
			syn_init(tc, s);
		if (!wanted(tc, mask, s))
			continue;
		reset_stream(tc, s);
		tc->active |= 1u << s;
	}
	while (open_step(tc, mask, now, &last_syn) && now - last_syn < wait) {
		if (o && o->stop && *o->stop)
			return fws_err_set(e, FWS_ERR_INTERRUPTED, -EINTR, "TCP: interrupted");
		fws_ctlio_poll_idle(&tc->t->ctl);
		rte_delay_us_sleep(100);
		now = rte_rdtsc();
	}
	for (s = 0; s < tc->t->cfg->n_streams; s++)
		if ((tc->active >> s) & 1)
			if (open_result(tc, s) < 0)
				return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM,
						   "setup: out of memory (TCP download)");
	send_preambles(tc);
	return 0;
}

/* The newest byte of (s, i) the receiver has seen, over every receive lcore. */
static bool
newest(const struct fws_tcpconn *tc, unsigned int s, uint32_t i, uint32_t *hi)
{
	bool seen = false;
	unsigned int k;

	for (k = 0; k < tc->t->n_rx; k++) {
		const struct fws_rx_tcphi *h = &tc->t->rx[k]->tcphi[s][i];
		uint32_t v = __atomic_load_n(&h->hi, __ATOMIC_RELAXED);

		if (!__atomic_load_n(&h->seen, __ATOMIC_RELAXED))
			continue;
		*hi = seen ? fws_tcp_max(*hi, v) : v;
		seen = true;
	}
	return seen;
}

/* While the trial runs (each pass of the main loop): the receivers' ACKs. */
static void
ack_pump(struct fws_tcpconn *tc)
{
	unsigned int s, budget = ACK_BUDGET;
	uint32_t n, hi = 0;

	if (tc == NULL)
		return;
	for (s = 0; s < tc->t->cfg->n_streams && budget; s++) {
		struct tcp_stream *ts = &tc->st[s];

		for (n = 0; ((tc->active >> s) & 1) && n < ts->n && budget; n++) {
			uint32_t i = ts->next_ack;
			struct conn *k = &ts->conn[i];

			ts->next_ack = i + 1 == ts->n ? 0 : i + 1;
			if (k->state != C_OPEN || !newest(tc, s, i, &hi) || hi == k->acked)
				continue;
			receiver_seg(tc, s, i, FWS_TCP_ACK, hi);
			k->acked = hi;
			ts->res.acks_sent++;
			budget--;
		}
	}
}

/* FIN from the senders of open connections not yet closed, paced as the SYNs: at most
 * SYN_BATCH new ones per step and MAX_OPENING under way, and each again after CLOSE_RETRY_S
 * (its FIN or the answer lost), twice in all. Returns whether a FIN went out. */
static bool
fin_step(struct fws_tcpconn *tc, uint64_t now)
{
	uint64_t again = (uint64_t)(CLOSE_RETRY_S * (double)tc->t->hz);
	unsigned int s, closing = 0, budget;
	bool sent = false;
	uint32_t i;

	for (s = 0; s < tc->t->cfg->n_streams; s++)
		for (i = 0; ((tc->active >> s) & 1) && i < tc->st[s].n; i++)
			closing += tc->st[s].conn[i].fin_sent && !tc->st[s].conn[i].closed;
	budget = closing >= MAX_OPENING ? 0
					: RTE_MIN((unsigned int)SYN_BATCH, MAX_OPENING - closing);
	for (s = 0; s < tc->t->cfg->n_streams; s++) {
		for (i = 0; ((tc->active >> s) & 1) && i < tc->st[s].n; i++) {
			struct conn *k = &tc->st[s].conn[i];
			const struct fws_tcp_txflow *tf = &tc->tx[s][i];
			struct fws_tcp_seg g = {.seq = tf->seq,
						.ack = rte_be_to_cpu_32(tf->ack_be),
						.flags = FWS_TCP_FIN | FWS_TCP_ACK,
						.window = FWS_TCP_WINDOW};

			if (k->state != C_OPEN || k->closed)
				continue;
			if (k->fin_sent ? k->tries >= 2 || now - k->t_try < again : budget == 0)
				continue;
			if (!k->fin_sent) {
				budget--;
				k->tries = 0;
			}
			sender_seg(tc, s, i, &g);
			k->fin_sent = true;
			k->tries++;
			k->t_try = now;
			sent = true;
		}
	}
	return sent;
}

static bool
all_closed(const struct fws_tcpconn *tc)
{
	unsigned int s;

	for (s = 0; s < tc->t->cfg->n_streams; s++)
		if (((tc->active >> s) & 1) && tc->st[s].res.closed < tc->st[s].res.established)
			return false;
	return true;
}

static void
tcp_service(struct fws_trial *t, void *state, const struct fws_step *x)
{
	(void)t;
	(void)x;
	if (state)
		ack_pump(state);
}

/* After the trial, workers stopped: FIN both ways; the streams' TCP results into res. */
static void
tcp_close(struct fws_trial *t, void *state, struct fws_result *res)
{
	struct fws_tcpconn *tc = state;
	uint64_t now, last, wait = (uint64_t)(CLOSE_S * (double)t->hz);
	unsigned int s, k;

	if (tc == NULL || tc->active == 0)
		return;
	ack_pump(tc); /* the last ACKs */
	now = last = rte_rdtsc();
	while (!all_closed(tc) && now - last < wait) {
		if (fin_step(tc, now))
			last = now;
		fws_ctlio_poll_idle(&tc->t->ctl);
		rte_delay_us_sleep(100);
		now = rte_rdtsc();
	}
	for (s = 0; res && s < res->n_streams && s < tc->t->cfg->n_streams; s++) {
		if (!((tc->active >> s) & 1))
			continue;
		res->streams[s].tcp = tc->st[s].res;
		for (k = 0; k < tc->t->n_tasks; k++)
			if (tc->t->tasks[k].stream == s)
				res->streams[s].tcp.window_full +=
					tc->t->tasks[k].cnt.tcp_window_full;
	}
	tc->active = 0;
}

const struct fws_feature fws_feature_tcp = {
	.name = "tcp",
	.setup = tcp_setup,
	.prepare = tcp_open,
	.on = {[FWS_FEATURE_SERVICE] = tcp_service},
	.after = tcp_close,
	.destroy = tcp_destroy,
};
