/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Host feature "tcp": the connections of the TCP streams (throughput, not the connection
 * tests of fws_conntester), run by the main lcore; their segments are in fws_tcps.c. Before
 * each trial every flow opens: the LAN side (the client) sends a SYN, the other side answers
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

#include "fws_tcps.h"

/* Stream s's connections and data sender state; the receive lcores' ACK tables. */
static int
stream_setup(struct fws_tcps *tc, unsigned int s)
{
	struct fws_host *t = tc->t;
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
tcp_create(struct fws_tcps *tc)
{
	struct fws_host *t = tc->t;
	const struct fws_cfg *cfg = t->cfg;
	unsigned int s, k;

	for (s = 0; s < cfg->n_streams; s++) {
		const struct fws_cfg_stream *cs = &cfg->streams[s];

		if (!fws_tcps_is_tcp(cfg, s) && cs->l4 != FWS_L4_SYN)
			continue;
		tc->tx[s] = rte_zmalloc_socket("fws_tcptx", sizeof(*tc->tx[s]) * cs->flows.count,
					       RTE_CACHE_LINE_SIZE, t->port[cs->tx_port].socket);
		if (tc->tx[s] == NULL || (fws_tcps_is_tcp(cfg, s) && stream_setup(tc, s) < 0))
			return -ENOMEM;
	}
	for (k = 0; k < t->n_tasks; k++)
		if (tc->tx[t->tasks[k].stream])
			t->tasks[k].tcp = tc->tx[t->tasks[k].stream] +
					  (t->tasks[k].flows - t->txflows[t->tasks[k].stream]);
	t->ctl.tcp_input = fws_tcps_input;
	t->ctl.tcp_arg = tc;
	return 0;
}

static int
tcp_setup(struct fws_host *t, void **state, struct fws_err *e)
{
	const struct fws_cfg *cfg = t->cfg;
	struct fws_tcps *tc;
	unsigned int s;

	for (s = 0;
	     s < cfg->n_streams && !fws_tcps_is_tcp(cfg, s) && cfg->streams[s].l4 != FWS_L4_SYN;
	     s++)
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
tcp_destroy(struct fws_host *t, void *state)
{
	struct fws_tcps *tc = state;
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
wanted(const struct fws_tcps *tc, uint32_t mask, unsigned int s)
{
	return fws_tcps_is_tcp(tc->t->cfg, s) && (!mask || ((mask >> s) & 1));
}

/* Stream s is active and this host its data sender. */
static bool
sends(const struct fws_tcps *tc, unsigned int s)
{
	return ((tc->active >> s) & 1) && tc->st[s].is_sender;
}

/* A fresh set of connections for stream s: new ISNs, nothing open. */
static void
reset_stream(struct fws_tcps *tc, unsigned int s)
{
	const struct fws_cfg_stream *cs = &tc->t->cfg->streams[s];
	struct tcp_stream *ts = &tc->st[s];
	uint32_t i;

	memset(ts->conn, 0, sizeof(*ts->conn) * ts->n);
	memset(tc->tx[s], 0, sizeof(*tc->tx[s]) * ts->n);
	ts->is_client = (tc->t->port_mask >> ts->client_port) & 1;
	ts->is_server = (tc->t->port_mask >> ts->server_port) & 1;
	ts->is_sender = ts->client_sends ? ts->is_client : ts->is_server;
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
open_step(struct fws_tcps *tc, uint32_t mask, uint64_t now, uint64_t *last_syn)
{
	uint64_t retry = (uint64_t)(SYN_RETRY_S * (double)tc->t->hz);
	unsigned int s, budget = SYN_BATCH, opening = 0;
	bool pending = false;
	uint32_t i;

	for (s = 0; s < tc->t->cfg->n_streams; s++)
		for (i = 0; wanted(tc, mask, s) && tc->st[s].is_client && i < tc->st[s].n; i++)
			opening += tc->st[s].conn[i].state == C_SYN_SENT;
	budget = opening >= MAX_OPENING ? 0 : RTE_MIN(budget, MAX_OPENING - opening);
	for (s = 0; s < tc->t->cfg->n_streams; s++) {
		struct tcp_stream *ts = &tc->st[s];

		for (i = 0; wanted(tc, mask, s) && ts->is_client && i < ts->n; i++) {
			struct conn *k = &ts->conn[i];

			if (k->state == C_IDLE && budget) {
				fws_tcps_send_syn(tc, s, i, now);
				budget--;
				*last_syn = now;
			} else if (k->state == C_SYN_SENT && !k->synack && k->tries < SYN_TRIES &&
				   now - k->t_try > retry) {
				fws_tcps_send_syn(tc, s, i, now);
			}
			/* A client that receives is done at the SYN-ACK: its sender is elsewhere. */
			pending |= k->state == C_IDLE ||
				   (k->state == C_SYN_SENT && (ts->is_sender || !k->synack));
		}
	}
	return pending;
}

/* A download's data goes to where each SYN came from: its client as the WAN side sees it
 * (through NAT: its translation); a connection whose SYN never came keeps its own. */
static int
aim_at_syns(struct fws_tcps *tc, unsigned int s)
{
	const struct tcp_stream *ts = &tc->st[s];
	struct fws_nat_tuple *at = calloc(ts->n ? ts->n : 1, sizeof(*at));
	uint32_t i;
	int rc;

	if (at == NULL)
		return -ENOMEM;
	for (i = 0; i < ts->n; i++) {
		at[i].dst = ts->conn[i].s_src_be;
		at[i].dport = ts->conn[i].s_sport_be;
	}
	rc = fws_host_aim(tc->t, s, 0, ts->n, at);
	free(at);
	return rc;
}

/* After the handshakes: the verdicts, and connections that did not open send anyway (with
 * no window to wait for): their segments stay in the stream's count and are lost where
 * the DUT drops them. */
static int
open_result(struct fws_tcps *tc, unsigned int s)
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
		fws_tcps_sender_init(tc, s, i, 0);
		tc->tx[s][i].limit = tc->tx[s][i].seq + 0x7fffffffu;
	}
	ts->res.est_avg_us = ts->res.established ? sum / ts->res.established : 0;
	ts->res.est_min_us = RTE_MAX(ts->res.est_min_us, 0.0);
	if (ts->res.established < ts->n)
		FWS_LOG(WARNING,
			"TCP: stream %s: %u of %u connections opened (%u reset, %u timed out)",
			tc->t->cfg->streams[s].name, ts->res.established, ts->n, ts->res.failed_rst,
			ts->res.failed_timeout);
	return ts->client_sends ? 0 : aim_at_syns(tc, s);
}

/* The client's first data segment: the preamble, on every connection of streams with an
 * "app" (opened or not, as their data), in batches; then a moment for them to arrive. */
static void
send_preambles(struct fws_tcps *tc)
{
	uint64_t end;
	unsigned int s, n = 0;
	uint32_t i;

	for (s = 0; s < tc->t->cfg->n_streams; s++) {
		struct tcp_stream *ts = &tc->st[s];

		if (!((tc->active >> s) & 1) || ts->pre_len == 0 || !ts->is_client)
			continue;
		for (i = 0; i < ts->n; i++) {
			struct fws_tcp_txflow *tf = &tc->tx[s][i];
			struct fws_tcp_seg g = {.seq = tf->seq,
						.ack = rte_be_to_cpu_32(tf->ack_be),
						.flags = FWS_TCP_ACK | FWS_TCP_PSH,
						.window = FWS_TCP_WINDOW,
						.payload = ts->pre,
						.payload_len = ts->pre_len};

			fws_tcps_client_seg(tc, s, i, &g);
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
syn_init(struct fws_tcps *tc, unsigned int s)
{
	uint32_t i;

	for (i = 0; i < tc->t->cfg->streams[s].flows.count; i++) {
		uint32_t seq = (uint32_t)rte_rand();

		fws_tcp_txflow_init(&tc->tx[s][i], seq, 0, seq + 0x7fffffffu, (uint32_t)rte_rand(),
				    0);
	}
}

/* Stage reset: new numbers (every host's nonce moves with its resets), nothing open. */
static void
open_reset(struct fws_tcps *tc, uint32_t mask)
{
	unsigned int s;

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
}

/* A data sender whose clients are on another host: their last ACKs may still be on the
 * way when its verdicts are due; a moment for the handshakes under way. */
static void
await_handshakes(struct fws_tcps *tc)
{
	uint64_t end = rte_rdtsc() + tc->t->hz / 5;
	unsigned int s;
	uint32_t i;
	bool pending = true;

	while (pending && rte_rdtsc() < end) {
		pending = false;
		for (s = 0; s < tc->t->cfg->n_streams; s++)
			for (i = 0; sends(tc, s) && !tc->st[s].is_client && i < tc->st[s].n; i++)
				pending |= tc->st[s].conn[i].syn_seen &&
					   tc->st[s].conn[i].state != C_OPEN;
		if (pending) {
			fws_ctlio_poll_idle(&tc->t->ctl);
			rte_delay_us_sleep(100);
		}
	}
}

/*
 * Prepare, stage by stage (each on every host before the next): reset; open every
 * connection of the TCP streams of mask (bit s, 0: all) whose client is here, workers
 * stopped: SYN, SYN-ACK, ACK, the receiver's window (a server on another host answers
 * from its idle loop); settle: the verdicts where the data sender is here (connections
 * that did not open are counted by reason and send anyway), the clients' preambles. 0,
 * or -EINTR on a stop request.
 */
static int
tcp_open(struct fws_host *t, void *state, enum fws_prep_stage st, uint32_t mask, volatile int *stop,
	 struct fws_err *e)
{
	struct fws_tcps *tc = state;
	uint64_t now = rte_rdtsc(), last_syn = now;
	uint64_t wait = (uint64_t)(HANDSHAKE_S * (double)t->hz);
	unsigned int s;

	if (tc == NULL)
		return 0;
	if (st == FWS_PREP_RESET) {
		open_reset(tc, mask);
		return 0;
	}
	if (st == FWS_PREP_OPEN) {
		while (open_step(tc, mask, now, &last_syn) && now - last_syn < wait) {
			if (stop && *stop)
				return fws_err_set(e, FWS_ERR_INTERRUPTED, -EINTR,
						   "TCP: interrupted");
			fws_ctlio_poll_idle(&tc->t->ctl);
			rte_delay_us_sleep(100);
			now = rte_rdtsc();
		}
		return 0;
	}
	await_handshakes(tc);
	for (s = 0; s < tc->t->cfg->n_streams; s++)
		if (sends(tc, s) && open_result(tc, s) < 0)
			return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM,
					   "setup: out of memory (TCP download)");
	send_preambles(tc);
	return 0;
}

/* The newest byte of (s, i) the receiver has seen, over every receive lcore. */
static bool
newest(const struct fws_tcps *tc, unsigned int s, uint32_t i, uint32_t *hi)
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
ack_pump(struct fws_tcps *tc)
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
			if (!(ts->is_sender      ? k->state == C_OPEN
			      : ts->client_sends ? k->windowed
						 : k->synack) ||
			    !newest(tc, s, i, &hi) || hi == k->acked)
				continue;
			fws_tcps_receiver_seg(tc, s, i, FWS_TCP_ACK, hi);
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
fin_step(struct fws_tcps *tc, uint64_t now)
{
	uint64_t again = (uint64_t)(CLOSE_RETRY_S * (double)tc->t->hz);
	unsigned int s, closing = 0, budget;
	bool sent = false;
	uint32_t i;

	for (s = 0; s < tc->t->cfg->n_streams; s++)
		for (i = 0; sends(tc, s) && i < tc->st[s].n; i++)
			closing += tc->st[s].conn[i].fin_sent && !tc->st[s].conn[i].closed;
	budget = closing >= MAX_OPENING ? 0
					: RTE_MIN((unsigned int)SYN_BATCH, MAX_OPENING - closing);
	for (s = 0; s < tc->t->cfg->n_streams; s++) {
		for (i = 0; sends(tc, s) && i < tc->st[s].n; i++) {
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
			fws_tcps_sender_seg(tc, s, i, &g);
			k->fin_sent = true;
			k->tries++;
			k->t_try = now;
			sent = true;
		}
	}
	return sent;
}

static bool
all_closed(const struct fws_tcps *tc)
{
	unsigned int s;

	for (s = 0; s < tc->t->cfg->n_streams; s++)
		if (sends(tc, s) && tc->st[s].res.closed < tc->st[s].res.established)
			return false;
	return true;
}

static void
tcp_service(struct fws_host *t, void *state, struct fws_agent_counts *c, uint64_t now)
{
	(void)t;
	(void)c;
	(void)now;
	if (state)
		ack_pump(state);
}

/* After the trial, workers stopped: FIN both ways; the streams' TCP results into c. */
static void
tcp_close(struct fws_host *t, void *state, struct fws_agent_counts *c)
{
	struct fws_tcps *tc = state;
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
	for (s = 0; c && s < t->cfg->n_streams; s++) {
		struct fws_tcp_result *r = fws_host_block(t, &fws_fd_tcp, c, s);

		if (!((tc->active >> s) & 1))
			continue;
		*r = tc->st[s].res;
		for (k = 0; k < t->n_tasks; k++)
			if (t->tasks[k].stream == s)
				r->window_full += t->tasks[k].cnt.tcp_window_full;
	}
	tc->active = 0;
}

const struct fws_host_feature fws_feature_tcp = {
	.name = "tcp",
	.setup = tcp_setup,
	.prepare = tcp_open,
	.on = {[FWS_FEATURE_SERVICE] = tcp_service},
	.after = tcp_close,
	.destroy = tcp_destroy,
};
