/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TCP streams' segments (fws_tcps.h): each side takes its numbers from the segments it
 * receives, never from what the other sent, so a DUT that rewrites sequence numbers or
 * ports is followed; the server answers to wherever the SYN came from (through NAT: the
 * translated address and port).
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_mbuf.h>

#include "fws_tcps.h"

bool
fws_tcps_is_tcp(const struct fws_cfg *cfg, unsigned int s)
{
	return cfg->streams[s].l4 == FWS_L4_TCP;
}

/* The client's and server's addresses and ports of flow i, network order. */
static void
ends(const struct fws_tcps *tc, unsigned int s, uint32_t i, struct fws_tcp_seg *c)
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
family(const struct fws_tcps *tc, unsigned int s, struct fws_tcp_seg *g, bool from_client)
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
emit(struct fws_tcps *tc, unsigned int p, unsigned int to, struct fws_tcp_seg *seg)
{
	struct rte_mbuf *m = fws_ctlio_segment(&tc->t->ctl, p, to, seg, false);

	if (m)
		fws_ctlio_send(&tc->t->ctl, p, m);
}

static uint32_t
token(const struct fws_tcps *tc, bool server, unsigned int s, uint32_t i)
{
	return fws_tcp_token(server, tc->nonce, s, i);
}

void
fws_tcps_send_syn(struct fws_tcps *tc, unsigned int s, uint32_t i, uint64_t now)
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
server_seg(struct fws_tcps *tc, unsigned int s, uint32_t i, struct fws_tcp_seg *g)
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
void
fws_tcps_client_seg(struct fws_tcps *tc, unsigned int s, uint32_t i, struct fws_tcp_seg *g)
{
	ends(tc, s, i, g);
	g->tsval = token(tc, false, s, i);
	g->tsecr = token(tc, true, s, i);
	family(tc, s, g, true);
	emit(tc, tc->st[s].client_port, tc->st[s].server_port, g);
}

/* A segment from the data receiver of (s, i): seq its next, ack as given. */
void
fws_tcps_receiver_seg(struct fws_tcps *tc, unsigned int s, uint32_t i, uint8_t flags, uint32_t ack)
{
	struct conn *k = &tc->st[s].conn[i];
	struct fws_tcp_seg g = {
		.seq = k->r_nxt, .ack = ack, .flags = flags, .window = FWS_TCP_WINDOW};

	if (tc->st[s].client_sends)
		server_seg(tc, s, i, &g);
	else
		fws_tcps_client_seg(tc, s, i, &g);
}

/* From the data sender of (s, i). */
void
fws_tcps_sender_seg(struct fws_tcps *tc, unsigned int s, uint32_t i, struct fws_tcp_seg *g)
{
	if (tc->st[s].client_sends)
		fws_tcps_client_seg(tc, s, i, g);
	else
		server_seg(tc, s, i, g);
}

/* The server got a SYN: it remembers how it arrived and answers. */
static void
on_syn(struct fws_tcps *tc, unsigned int s, uint32_t i, const struct fws_tcp_info *ti)
{
	struct conn *k = &tc->st[s].conn[i];
	struct fws_tcp_seg g = {
		.flags = FWS_TCP_SYN | FWS_TCP_ACK, .window = 0xffff, .mss = FWS_TCP_MSS4};

	k->s_src_be = ti->src_be;
	k->s_dst_be = ti->dst_be;
	k->s_sport_be = ti->sport_be;
	k->s_dport_be = ti->dport_be;
	k->s_rcv = ti->seq + 1;
	if (!k->syn_seen && !tc->st[s].is_client) /* its SYN's time is the client's, elsewhere */
		k->t_syn = rte_rdtsc();
	k->syn_seen = true;
	if (tc->st[s].client_sends) /* the server receives: its FIN and ACKs follow its ISN */
		k->r_nxt = k->s_isn + 1;
	g.seq = k->s_isn;
	g.ack = k->s_rcv;
	server_seg(tc, s, i, &g);
}

/* The client got the SYN-ACK of its SYN: it takes the server's number and ACKs. */
static void
on_synack(struct fws_tcps *tc, unsigned int s, uint32_t i, const struct fws_tcp_info *ti)
{
	struct conn *k = &tc->st[s].conn[i];
	struct fws_tcp_seg g = {.flags = FWS_TCP_ACK, .window = FWS_TCP_WINDOW};

	if (ti->ack != k->c_isn + 1)
		return; /* not an answer to our SYN */
	k->c_rcv = ti->seq + 1;
	k->synack = true;
	if (!tc->st[s].client_sends) /* the client receives */
		k->r_nxt = k->c_isn + 1;
	g.seq = k->c_isn + 1;
	g.ack = k->c_rcv;
	fws_tcps_client_seg(tc, s, i, &g);
}

/* The data sender's view of a connection once open. */
void
fws_tcps_sender_init(struct fws_tcps *tc, unsigned int s, uint32_t i, uint32_t limit)
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
on_sender_ack(struct fws_tcps *tc, unsigned int s, uint32_t i, const struct fws_tcp_info *ti)
{
	struct conn *k = &tc->st[s].conn[i];
	uint32_t limit = ti->ack + ((uint32_t)ti->window << FWS_TCP_WSCALE);

	tc->st[s].res.acks_received++;
	/* Handshaken: the client got the SYN-ACK; a server on its own host answered the SYN. */
	if (tc->st[s].is_client ? k->state == C_SYN_SENT && k->synack
				: k->state == C_IDLE && k->syn_seen) {
		/* The receiver's first ACK after the handshake acknowledges the ISN. */
		if (ti->ack != (tc->st[s].client_sends ? k->c_isn : k->s_isn) + 1)
			return;
		fws_tcps_sender_init(tc, s, i, limit);
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
on_receiver_ack(struct fws_tcps *tc, unsigned int s, uint32_t i, const struct fws_tcp_info *ti)
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
on_fin(struct fws_tcps *tc, unsigned int s, uint32_t i, const struct fws_tcp_info *ti,
       bool at_sender)
{
	struct conn *k = &tc->st[s].conn[i];
	struct fws_tcp_seg g = {.flags = FWS_TCP_ACK, .window = FWS_TCP_WINDOW};

	if (!at_sender) {
		fws_tcps_receiver_seg(tc, s, i, FWS_TCP_FIN | FWS_TCP_ACK, ti->seq + 1);
		return;
	}
	if (k->closed)
		return;
	k->closed = true;
	tc->st[s].res.closed++;
	g.seq = ti->ack;
	g.ack = ti->seq + 1;
	fws_tcps_sender_seg(tc, s, i, &g);
}

static void
dispatch(struct fws_tcps *tc, unsigned int port, const struct fws_tcp_info *ti)
{
	uint32_t tok =
		ti->flags & FWS_TCP_SYN && !(ti->flags & FWS_TCP_ACK) ? ti->tsval : ti->tsecr;
	struct tcp_stream *ts;
	unsigned int s;
	uint32_t i;
	bool server, sender;

	if (!ti->has_ts || fws_tcp_token_parse(tok, tc->nonce, &server, &s, &i) < 0 ||
	    s >= tc->t->cfg->n_streams || !fws_tcps_is_tcp(tc->t->cfg, s) || i >= tc->st[s].n)
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
on_preamble(struct fws_tcps *tc, unsigned int port, const struct fws_tcp_info *ti)
{
	struct tcp_stream *ts;
	unsigned int s;
	uint32_t i;
	bool server;

	if (!ti->has_ts || fws_tcp_token_parse(ti->tsecr, tc->nonce, &server, &s, &i) < 0 ||
	    !server || s >= tc->t->cfg->n_streams || !fws_tcps_is_tcp(tc->t->cfg, s) ||
	    i >= tc->st[s].n)
		return;
	ts = &tc->st[s];
	if (port != ts->server_port || ts->pre_len == 0 || ti->payload_len != ts->pre_len ||
	    ts->conn[i].pre_seen)
		return;
	ts->conn[i].pre_seen = true;
	ts->res.preambles_received++;
}

/* fws_ctlio's hook: every TCP segment without a signature that reached a port. */
void
fws_tcps_input(void *arg, unsigned int port, struct rte_mbuf *m)
{
	struct fws_tcps *tc = arg;
	struct fws_tcp_info ti;

	if (fws_tcp_parse(rte_pktmbuf_mtod(m, const uint8_t *), m->data_len, &ti) == 0) {
		if (ti.payload_len == 0)
			dispatch(tc, port, &ti);
		else
			on_preamble(tc, port, &ti);
	}
	rte_pktmbuf_free(m);
}
