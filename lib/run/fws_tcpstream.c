/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP connections of the TCP streams, run by the main lcore (fws_trial_int.h). Before each
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

struct fws_tcpconn {
	uint32_t nonce;
	uint32_t active; /**< streams opened for the current trial */
	struct tcp_stream st[FWS_CFG_MAX_STREAMS];
};

static bool
is_tcp(const struct fws_cfg *cfg, unsigned int s)
{
	return cfg->streams[s].l4 == FWS_L4_TCP;
}

/* The client's and server's addresses and ports of flow i, network order. */
static void
ends(const struct fws_trial *t, unsigned int s, uint32_t i, struct fws_tcp_seg *c)
{
	const struct fws_cfg_stream *cs = &t->cfg->streams[s];
	struct fws_flow_tuple ft;
	bool up = t->tcp->st[s].client_sends;

	fws_flow_tuple(&cs->flows, i, &ft);
	c->src_be = rte_cpu_to_be_32(up ? ft.src_ip : ft.dst_ip);
	c->dst_be = rte_cpu_to_be_32(up ? ft.dst_ip : ft.src_ip);
	c->sport_be = rte_cpu_to_be_16(up ? ft.src_port : ft.dst_port);
	c->dport_be = rte_cpu_to_be_16(up ? ft.dst_port : ft.src_port);
}

/* The address family of stream s's segments, and with IPv6 the upper 96 bits of both ends
 * (configured: no prefix translation is followed); the MSS a SYN announces. */
static void
family(const struct fws_trial *t, unsigned int s, struct fws_tcp_seg *g, bool from_client)
{
	const struct fws_cfg_stream *cs = &t->cfg->streams[s];
	bool up = t->tcp->st[s].client_sends;
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
emit(struct fws_trial *t, unsigned int p, unsigned int to, struct fws_tcp_seg *seg)
{
	struct rte_mbuf *m = fws_ctlio_segment(&t->ctl, p, to, seg, false);

	if (m)
		fws_ctlio_send(&t->ctl, p, m);
}

static uint32_t
token(const struct fws_trial *t, bool server, unsigned int s, uint32_t i)
{
	return fws_tcp_token(server, t->tcp->nonce, s, i);
}

static void
send_syn(struct fws_trial *t, unsigned int s, uint32_t i, uint64_t now)
{
	struct tcp_stream *ts = &t->tcp->st[s];
	struct conn *k = &ts->conn[i];
	struct fws_tcp_seg g = {.seq = k->c_isn,
				.flags = FWS_TCP_SYN,
				.window = 0xffff,
				.tsval = token(t, false, s, i)};

	ends(t, s, i, &g);
	family(t, s, &g, true);
	emit(t, ts->client_port, ts->server_port, &g);
	if (k->state == C_IDLE)
		k->t_syn = now;
	k->t_try = now;
	k->tries++;
	k->state = C_SYN_SENT;
}

/* From the server side of connection (s, i) to the client as the SYN showed it. */
static void
server_seg(struct fws_trial *t, unsigned int s, uint32_t i, struct fws_tcp_seg *g)
{
	const struct conn *k = &t->tcp->st[s].conn[i];

	g->src_be = k->s_dst_be;
	g->dst_be = k->s_src_be;
	g->sport_be = k->s_dport_be;
	g->dport_be = k->s_sport_be;
	g->tsval = token(t, true, s, i);
	g->tsecr = token(t, false, s, i);
	family(t, s, g, false);
	emit(t, t->tcp->st[s].server_port, t->tcp->st[s].client_port, g);
}

/* From the client side of connection (s, i) to the server's own address and port. */
static void
client_seg(struct fws_trial *t, unsigned int s, uint32_t i, struct fws_tcp_seg *g)
{
	ends(t, s, i, g);
	g->tsval = token(t, false, s, i);
	g->tsecr = token(t, true, s, i);
	family(t, s, g, true);
	emit(t, t->tcp->st[s].client_port, t->tcp->st[s].server_port, g);
}

/* A segment from the data receiver of (s, i): seq its next, ack as given. */
static void
receiver_seg(struct fws_trial *t, unsigned int s, uint32_t i, uint8_t flags, uint32_t ack)
{
	struct conn *k = &t->tcp->st[s].conn[i];
	struct fws_tcp_seg g = {
		.seq = k->r_nxt, .ack = ack, .flags = flags, .window = FWS_TCP_WINDOW};

	if (t->tcp->st[s].client_sends)
		server_seg(t, s, i, &g);
	else
		client_seg(t, s, i, &g);
}

/* From the data sender of (s, i). */
static void
sender_seg(struct fws_trial *t, unsigned int s, uint32_t i, struct fws_tcp_seg *g)
{
	if (t->tcp->st[s].client_sends)
		client_seg(t, s, i, g);
	else
		server_seg(t, s, i, g);
}

/* The server got a SYN: it remembers how it arrived and answers. */
static void
on_syn(struct fws_trial *t, unsigned int s, uint32_t i, const struct fws_tcp_info *ti)
{
	struct conn *k = &t->tcp->st[s].conn[i];
	struct fws_tcp_seg g = {
		.flags = FWS_TCP_SYN | FWS_TCP_ACK, .window = 0xffff, .mss = FWS_TCP_MSS4};

	k->s_src_be = ti->src_be;
	k->s_dst_be = ti->dst_be;
	k->s_sport_be = ti->sport_be;
	k->s_dport_be = ti->dport_be;
	k->s_rcv = ti->seq + 1;
	g.seq = k->s_isn;
	g.ack = k->s_rcv;
	server_seg(t, s, i, &g);
}

/* The client got the SYN-ACK of its SYN: it takes the server's number and ACKs. */
static void
on_synack(struct fws_trial *t, unsigned int s, uint32_t i, const struct fws_tcp_info *ti)
{
	struct conn *k = &t->tcp->st[s].conn[i];
	struct fws_tcp_seg g = {.flags = FWS_TCP_ACK, .window = FWS_TCP_WINDOW};

	if (ti->ack != k->c_isn + 1)
		return; /* not an answer to our SYN */
	k->c_rcv = ti->seq + 1;
	k->synack = true;
	g.seq = k->c_isn + 1;
	g.ack = k->c_rcv;
	client_seg(t, s, i, &g);
}

/* The data sender's view of a connection once open. */
static void
sender_init(struct fws_trial *t, unsigned int s, uint32_t i, uint32_t limit)
{
	struct tcp_stream *ts = &t->tcp->st[s];
	struct conn *k = &ts->conn[i];
	bool up = ts->client_sends;

	fws_tcp_txflow_init(&t->tcptx[s][i], up ? k->c_isn + 1 : k->s_isn + 1,
			    up ? k->c_rcv : k->s_rcv, limit, token(t, !up, s, i),
			    token(t, up, s, i));
	k->r_nxt = up ? k->s_isn + 1 : k->c_isn + 1;
}

/* An ACK at the data sender: the window moves (never back); the first one opens it. */
static void
on_sender_ack(struct fws_trial *t, unsigned int s, uint32_t i, const struct fws_tcp_info *ti)
{
	struct conn *k = &t->tcp->st[s].conn[i];
	uint32_t limit = ti->ack + ((uint32_t)ti->window << FWS_TCP_WSCALE);

	t->tcp->st[s].res.acks_received++;
	if (k->state == C_SYN_SENT && k->synack) {
		/* The receiver's first ACK after the handshake acknowledges the ISN. */
		if (ti->ack != (t->tcp->st[s].client_sends ? k->c_isn : k->s_isn) + 1)
			return;
		sender_init(t, s, i, limit);
		/* Fault injection (tests): numbers the receiver never allowed, window and all. */
		t->tcptx[s][i].seq += t->cfg->tcp_seq_offset;
		t->tcptx[s][i].limit += t->cfg->tcp_seq_offset;
		k->state = C_OPEN;
		k->t_open = rte_rdtsc();
		return;
	}
	if (k->state == C_OPEN)
		__atomic_store_n(
			&t->tcptx[s][i].limit,
			fws_tcp_max(__atomic_load_n(&t->tcptx[s][i].limit, __ATOMIC_RELAXED),
				    limit),
			__ATOMIC_RELEASE);
}

/* The server as data receiver got the handshake's last ACK: it opens the scaled window. */
static void
on_receiver_ack(struct fws_trial *t, unsigned int s, uint32_t i, const struct fws_tcp_info *ti)
{
	struct conn *k = &t->tcp->st[s].conn[i];
	struct fws_tcp_seg g = {.flags = FWS_TCP_ACK, .window = FWS_TCP_WINDOW};

	if (k->windowed || ti->ack != k->s_isn + 1)
		return;
	k->windowed = true;
	g.seq = k->s_isn + 1;
	g.ack = ti->seq;
	server_seg(t, s, i, &g);
}

/* FIN from the data sender: the receiver answers FIN-ACK; FIN-ACK at the sender: last ACK. */
static void
on_fin(struct fws_trial *t, unsigned int s, uint32_t i, const struct fws_tcp_info *ti,
       bool at_sender)
{
	struct conn *k = &t->tcp->st[s].conn[i];
	struct fws_tcp_seg g = {.flags = FWS_TCP_ACK, .window = FWS_TCP_WINDOW};

	if (!at_sender) {
		receiver_seg(t, s, i, FWS_TCP_FIN | FWS_TCP_ACK, ti->seq + 1);
		return;
	}
	if (k->closed)
		return;
	k->closed = true;
	t->tcp->st[s].res.closed++;
	g.seq = ti->ack;
	g.ack = ti->seq + 1;
	sender_seg(t, s, i, &g);
}

static void
dispatch(struct fws_trial *t, unsigned int port, const struct fws_tcp_info *ti)
{
	uint32_t tok =
		ti->flags & FWS_TCP_SYN && !(ti->flags & FWS_TCP_ACK) ? ti->tsval : ti->tsecr;
	struct tcp_stream *ts;
	unsigned int s;
	uint32_t i;
	bool server, sender;

	if (!ti->has_ts || fws_tcp_token_parse(tok, t->tcp->nonce, &server, &s, &i) < 0 ||
	    s >= t->cfg->n_streams || !is_tcp(t->cfg, s) || i >= t->tcp->st[s].n)
		return;
	ts = &t->tcp->st[s];
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
		on_syn(t, s, i, ti);
	} else if (ti->flags & FWS_TCP_SYN) {
		on_synack(t, s, i, ti);
	} else if (ti->flags & FWS_TCP_FIN) {
		on_fin(t, s, i, ti, sender);
	} else if (sender) {
		on_sender_ack(t, s, i, ti);
	} else if (server) {
		on_receiver_ack(t, s, i, ti);
	}
}

/* A segment with payload but no signature at the server: a connection's preamble. */
static void
on_preamble(struct fws_trial *t, unsigned int port, const struct fws_tcp_info *ti)
{
	struct tcp_stream *ts;
	unsigned int s;
	uint32_t i;
	bool server;

	if (!ti->has_ts || fws_tcp_token_parse(ti->tsecr, t->tcp->nonce, &server, &s, &i) < 0 ||
	    !server || s >= t->cfg->n_streams || !is_tcp(t->cfg, s) || i >= t->tcp->st[s].n)
		return;
	ts = &t->tcp->st[s];
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
	struct fws_trial *t = arg;
	struct fws_tcp_info ti;

	if (fws_tcp_parse(rte_pktmbuf_mtod(m, const uint8_t *), m->data_len, &ti) == 0) {
		if (ti.payload_len == 0)
			dispatch(t, port, &ti);
		else
			on_preamble(t, port, &ti);
	}
	rte_pktmbuf_free(m);
}

int
fws_tcp_create(struct fws_trial *t)
{
	const struct fws_cfg *cfg = t->cfg;
	unsigned int s, k;

	for (s = 0; s < cfg->n_streams && !is_tcp(cfg, s) && cfg->streams[s].l4 != FWS_L4_SYN; s++)
		;
	if (s == cfg->n_streams || cfg->conn.test != FWS_CONN_NONE)
		return 0; /* a connection test has its own connections (fws_conntester) */
	if ((t->tcp = calloc(1, sizeof(*t->tcp))) == NULL)
		return -ENOMEM;
	for (s = 0; s < cfg->n_streams; s++) {
		const struct fws_cfg_stream *cs = &cfg->streams[s];
		struct tcp_stream *ts = &t->tcp->st[s];

		if (cfg->streams[s].l4 == FWS_L4_SYN) { /* a flood: segments, no connections */
			t->tcptx[s] = rte_zmalloc_socket(
				"fws_syntx", sizeof(*t->tcptx[s]) * cs->flows.count,
				RTE_CACHE_LINE_SIZE, t->port[cs->tx_port].socket);
			if (t->tcptx[s] == NULL)
				return -ENOMEM;
			continue;
		}
		if (!is_tcp(cfg, s))
			continue;
		ts->n = cs->flows.count;
		ts->client_sends = cs->dir != FWS_DIR_DOWNLOAD;
		ts->client_port = ts->client_sends ? cs->tx_port : cs->rx_port;
		ts->server_port = ts->client_sends ? cs->rx_port : cs->tx_port;
		if (cs->app != FWS_APP_NONE)
			ts->pre_len = (uint16_t)fws_tcp_preamble(
				ts->pre, sizeof(ts->pre),
				cs->app == FWS_APP_TLS ? FWS_TCP_PRE_TLS : FWS_TCP_PRE_HTTP,
				cs->app_name);
		ts->conn = calloc(ts->n, sizeof(*ts->conn));
		t->tcptx[s] = rte_zmalloc_socket("fws_tcptx", sizeof(*t->tcptx[s]) * ts->n,
						 RTE_CACHE_LINE_SIZE, t->port[cs->tx_port].socket);
		if (ts->conn == NULL || t->tcptx[s] == NULL)
			return -ENOMEM;
		for (k = 0; k < t->n_rx; k++) {
			t->rx[k]->tcp = true;
			t->rx[k]->tcphi[s] =
				rte_zmalloc("fws_tcphi", sizeof(struct fws_rx_tcphi) * ts->n,
					    RTE_CACHE_LINE_SIZE);
			if (t->rx[k]->tcphi[s] == NULL)
				return -ENOMEM;
		}
	}
	/* Each transmit task sends a contiguous share of its stream's flows. */
	for (k = 0; k < t->n_tasks; k++)
		if (t->tcptx[t->tasks[k].stream])
			t->tasks[k].tcp = t->tcptx[t->tasks[k].stream] +
					  (t->tasks[k].flows - t->txflows[t->tasks[k].stream]);
	t->ctl.tcp_input = tcp_input;
	t->ctl.tcp_arg = t;
	return 0;
}

void
fws_tcp_destroy(struct fws_trial *t)
{
	unsigned int s, k;

	if (t->tcp == NULL)
		return;
	for (s = 0; s < FWS_CFG_MAX_STREAMS; s++) {
		free(t->tcp->st[s].conn);
		rte_free(t->tcptx[s]);
		for (k = 0; k < t->n_rx; k++)
			rte_free(t->rx[k]->tcphi[s]);
	}
	free(t->tcp);
	t->tcp = NULL;
}

static bool
wanted(const struct fws_trial *t, uint32_t mask, unsigned int s)
{
	return is_tcp(t->cfg, s) && (!mask || ((mask >> s) & 1));
}

/* A fresh set of connections for stream s: new ISNs, nothing open. */
static void
reset_stream(struct fws_trial *t, unsigned int s)
{
	const struct fws_cfg_stream *cs = &t->cfg->streams[s];
	struct tcp_stream *ts = &t->tcp->st[s];
	uint32_t i;

	memset(ts->conn, 0, sizeof(*ts->conn) * ts->n);
	memset(t->tcptx[s], 0, sizeof(*t->tcptx[s]) * ts->n);
	for (i = 0; i < ts->n; i++) {
		ts->conn[i].c_isn = (uint32_t)rte_rand();
		ts->conn[i].s_isn = (uint32_t)rte_rand();
	}
	ts->next_ack = 0;
	ts->res = (struct fws_tcp_result){
		.present = true,
		.attempted = ts->n,
		.min_frame = fws_pkt_min_frame_tcp(t->cfg->ports[cs->tx_port].vlan != 0,
						   cs->flows.ipv6)};
}

/* Send the next SYNs: at most SYN_BATCH per step and MAX_OPENING handshakes under way at
 * once (a ring, a queue or the DUT's SYN handling takes no more), and a SYN again after
 * SYN_RETRY_S, up to SYN_TRIES in all. Returns whether any connection is still opening. */
static bool
open_step(struct fws_trial *t, uint32_t mask, uint64_t now, uint64_t *last_syn)
{
	uint64_t retry = (uint64_t)(SYN_RETRY_S * (double)t->hz);
	unsigned int s, budget = SYN_BATCH, opening = 0;
	bool pending = false;
	uint32_t i;

	for (s = 0; s < t->cfg->n_streams; s++)
		for (i = 0; wanted(t, mask, s) && i < t->tcp->st[s].n; i++)
			opening += t->tcp->st[s].conn[i].state == C_SYN_SENT;
	budget = opening >= MAX_OPENING ? 0 : RTE_MIN(budget, MAX_OPENING - opening);
	for (s = 0; s < t->cfg->n_streams; s++) {
		struct tcp_stream *ts = &t->tcp->st[s];

		for (i = 0; wanted(t, mask, s) && i < ts->n; i++) {
			struct conn *k = &ts->conn[i];

			if (k->state == C_IDLE && budget) {
				send_syn(t, s, i, now);
				budget--;
				*last_syn = now;
			} else if (k->state == C_SYN_SENT && !k->synack && k->tries < SYN_TRIES &&
				   now - k->t_try > retry) {
				send_syn(t, s, i, now);
			}
			pending |= k->state == C_IDLE || k->state == C_SYN_SENT;
		}
	}
	return pending;
}

/* Where download connection i's SYN came from: its client as the WAN side sees it. */
static bool
syn_seen(const struct fws_trial *t, unsigned int s, uint32_t i, struct fws_nat_tuple *at)
{
	const struct conn *k = &t->tcp->st[s].conn[i];

	at->src = k->s_src_be;
	at->sport = k->s_sport_be;
	return k->s_src_be != 0;
}

/* After the handshakes: the verdicts, and connections that did not open send anyway (with
 * no window to wait for): their segments stay in the stream's count and are lost where
 * the DUT drops them. */
static int
open_result(struct fws_trial *t, unsigned int s)
{
	struct tcp_stream *ts = &t->tcp->st[s];
	double sum = 0, us;
	uint32_t i;

	ts->res.est_min_us = -1;
	for (i = 0; i < ts->n; i++) {
		struct conn *k = &ts->conn[i];

		if (k->state == C_OPEN) {
			us = (double)(k->t_open - k->t_syn) * 1e6 / (double)t->hz;
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
		sender_init(t, s, i, 0);
		t->tcptx[s][i].limit = t->tcptx[s][i].seq + 0x7fffffffu;
	}
	ts->res.est_avg_us = ts->res.established ? sum / ts->res.established : 0;
	ts->res.est_min_us = RTE_MAX(ts->res.est_min_us, 0.0);
	if (ts->res.established < ts->n)
		FWS_LOG(WARNING,
			"TCP: stream %s: %u of %u connections opened (%u reset, %u timed out)",
			t->cfg->streams[s].name, ts->res.established, ts->n, ts->res.failed_rst,
			ts->res.failed_timeout);
	/* A download's data goes to where each SYN came from (through NAT: its translation). */
	return ts->client_sends ? 0 : fws_nat_aim(t, s, syn_seen);
}

/* The client's first data segment: the preamble, on every connection of streams with an
 * "app" (opened or not, as their data), in batches; then a moment for them to arrive. */
static void
send_preambles(struct fws_trial *t)
{
	uint64_t end;
	unsigned int s, n = 0;
	uint32_t i;

	for (s = 0; s < t->cfg->n_streams; s++) {
		struct tcp_stream *ts = &t->tcp->st[s];

		if (!((t->tcp->active >> s) & 1) || ts->pre_len == 0)
			continue;
		for (i = 0; i < ts->n; i++) {
			struct fws_tcp_txflow *tf = &t->tcptx[s][i];
			struct fws_tcp_seg g = {.seq = tf->seq,
						.ack = rte_be_to_cpu_32(tf->ack_be),
						.flags = FWS_TCP_ACK | FWS_TCP_PSH,
						.window = FWS_TCP_WINDOW,
						.payload = ts->pre,
						.payload_len = ts->pre_len};

			client_seg(t, s, i, &g);
			tf->seq += ts->pre_len;
			ts->res.preambles_sent++;
			if (++n % SYN_BATCH == 0)
				fws_ctlio_poll_idle(&t->ctl);
		}
	}
	end = rte_rdtsc() + t->hz / 5;
	while (n && rte_rdtsc() < end) {
		fws_ctlio_poll_idle(&t->ctl);
		rte_delay_us_sleep(100);
	}
}

/* A SYN flood's segments: a random number per flow, nothing to wait for. */
static void
syn_init(struct fws_trial *t, unsigned int s)
{
	uint32_t i;

	for (i = 0; i < t->cfg->streams[s].flows.count; i++) {
		uint32_t seq = (uint32_t)rte_rand();

		fws_tcp_txflow_init(&t->tcptx[s][i], seq, 0, seq + 0x7fffffffu,
				    (uint32_t)rte_rand(), 0);
	}
}

int
fws_tcp_open(struct fws_trial *t, const struct fws_trial_opts *o, uint32_t mask, struct fws_err *e)
{
	uint64_t now = rte_rdtsc(), last_syn = now;
	uint64_t wait = (uint64_t)(HANDSHAKE_S * (double)t->hz);
	unsigned int s;

	if (t->tcp == NULL)
		return 0;
	t->tcp->nonce++;
	t->tcp->active = 0;
	for (s = 0; s < t->cfg->n_streams; s++) {
		t->tcp->st[s].res.present = false;
		if (t->cfg->streams[s].l4 == FWS_L4_SYN && (!mask || ((mask >> s) & 1)))
			syn_init(t, s);
		if (!wanted(t, mask, s))
			continue;
		reset_stream(t, s);
		t->tcp->active |= 1u << s;
	}
	while (open_step(t, mask, now, &last_syn) && now - last_syn < wait) {
		if (o && o->stop && *o->stop)
			return fws_err_set(e, FWS_ERR_INTERRUPTED, -EINTR, "TCP: interrupted");
		fws_ctlio_poll_idle(&t->ctl);
		rte_delay_us_sleep(100);
		now = rte_rdtsc();
	}
	for (s = 0; s < t->cfg->n_streams; s++)
		if ((t->tcp->active >> s) & 1)
			if (open_result(t, s) < 0)
				return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM,
						   "setup: out of memory (TCP download)");
	send_preambles(t);
	return 0;
}

/* The newest byte of (s, i) the receiver has seen, over every receive lcore. */
static bool
newest(const struct fws_trial *t, unsigned int s, uint32_t i, uint32_t *hi)
{
	bool seen = false;
	unsigned int k;

	for (k = 0; k < t->n_rx; k++) {
		const struct fws_rx_tcphi *h = &t->rx[k]->tcphi[s][i];
		uint32_t v = __atomic_load_n(&h->hi, __ATOMIC_RELAXED);

		if (!__atomic_load_n(&h->seen, __ATOMIC_RELAXED))
			continue;
		*hi = seen ? fws_tcp_max(*hi, v) : v;
		seen = true;
	}
	return seen;
}

void
fws_tcp_service(struct fws_trial *t)
{
	unsigned int s, budget = ACK_BUDGET;
	uint32_t n, hi = 0;

	if (t->tcp == NULL)
		return;
	for (s = 0; s < t->cfg->n_streams && budget; s++) {
		struct tcp_stream *ts = &t->tcp->st[s];

		for (n = 0; ((t->tcp->active >> s) & 1) && n < ts->n && budget; n++) {
			uint32_t i = ts->next_ack;
			struct conn *k = &ts->conn[i];

			ts->next_ack = i + 1 == ts->n ? 0 : i + 1;
			if (k->state != C_OPEN || !newest(t, s, i, &hi) || hi == k->acked)
				continue;
			receiver_seg(t, s, i, FWS_TCP_ACK, hi);
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
fin_step(struct fws_trial *t, uint64_t now)
{
	uint64_t again = (uint64_t)(CLOSE_RETRY_S * (double)t->hz);
	unsigned int s, closing = 0, budget;
	bool sent = false;
	uint32_t i;

	for (s = 0; s < t->cfg->n_streams; s++)
		for (i = 0; ((t->tcp->active >> s) & 1) && i < t->tcp->st[s].n; i++)
			closing += t->tcp->st[s].conn[i].fin_sent && !t->tcp->st[s].conn[i].closed;
	budget = closing >= MAX_OPENING ? 0
					: RTE_MIN((unsigned int)SYN_BATCH, MAX_OPENING - closing);
	for (s = 0; s < t->cfg->n_streams; s++) {
		for (i = 0; ((t->tcp->active >> s) & 1) && i < t->tcp->st[s].n; i++) {
			struct conn *k = &t->tcp->st[s].conn[i];
			const struct fws_tcp_txflow *tf = &t->tcptx[s][i];
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
			sender_seg(t, s, i, &g);
			k->fin_sent = true;
			k->tries++;
			k->t_try = now;
			sent = true;
		}
	}
	return sent;
}

static bool
all_closed(const struct fws_trial *t)
{
	unsigned int s;

	for (s = 0; s < t->cfg->n_streams; s++)
		if (((t->tcp->active >> s) & 1) &&
		    t->tcp->st[s].res.closed < t->tcp->st[s].res.established)
			return false;
	return true;
}

void
fws_tcp_close(struct fws_trial *t, struct fws_result *res)
{
	uint64_t now, last, wait = (uint64_t)(CLOSE_S * (double)t->hz);
	unsigned int s, k;

	if (t->tcp == NULL || t->tcp->active == 0)
		return;
	fws_tcp_service(t); /* the last ACKs */
	now = last = rte_rdtsc();
	while (!all_closed(t) && now - last < wait) {
		if (fin_step(t, now))
			last = now;
		fws_ctlio_poll_idle(&t->ctl);
		rte_delay_us_sleep(100);
		now = rte_rdtsc();
	}
	for (s = 0; res && s < res->n_streams && s < t->cfg->n_streams; s++) {
		if (!((t->tcp->active >> s) & 1))
			continue;
		res->streams[s].tcp = t->tcp->st[s].res;
		for (k = 0; k < t->n_tasks; k++)
			if (t->tasks[k].stream == s)
				res->streams[s].tcp.window_full += t->tasks[k].cnt.tcp_window_full;
	}
	t->tcp->active = 0;
}
