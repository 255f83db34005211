/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The connection tests' real trials: the engine (fws_conn) driven by the main lcore over a
 * host's ports, workers stopped. The opener (closer) is paced by the clock: by time T after
 * the phase began, rate x T connections are under way. Every pass of the loop polls each
 * receive queue, runs the engine's timers and sends what it produced in bursts per port. A
 * segment the port refuses is counted: it is the generator's loss, and the trial says so
 * (generator-limited), not the DUT's. A host that owns only servers (their clients on
 * another load client) serves: each pass answers what arrived, for the iteration it was
 * told.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "fws_conn.h"
#include "fws_conntester.h"
#include "fws_host.h"

#define TX_BURST 32
#define OPEN_STEP 256 /**< connections opened (closed, reset) per pass at most */
#define TX_TRIES 1000 /**< a refused burst is offered again this often (1 us apart) */
#define RX_PASSES 64  /**< receive bursts per pass at most, each port and queue */

struct fws_conntester {
	struct fws_host *t;
	const struct fws_cfg *cfg;
	struct fws_conns *c;
	volatile int *stop;
	uint64_t t0; /**< TSC at the trial's start: the engine's time 0 */
	uint32_t now_us;
	bool udp;
	FILE *progress; /**< a line per second, or NULL */
	const struct fws_conntester_hooks *hk;
	uint64_t next_line; /**< TSC of the next one */
	uint64_t tx_refused;
	unsigned int n_tx[FWS_CFG_MAX_PORTS];
	struct rte_mbuf *tx[FWS_CFG_MAX_PORTS][TX_BURST];
};

static uint32_t
clock_us(struct fws_conntester *x)
{
	x->now_us = (uint32_t)((rte_rdtsc() - x->t0) * 1000000u / x->t->hz);
	return x->now_us;
}

static void
flush(struct fws_conntester *x, unsigned int p)
{
	uint16_t id = x->t->ctl.port_id[p], sent = 0;
	unsigned int tries = 0;

	while (sent < x->n_tx[p] && tries++ < TX_TRIES) {
		sent += rte_eth_tx_burst(id, 0, x->tx[p] + sent, (uint16_t)(x->n_tx[p] - sent));
		if (sent < x->n_tx[p])
			rte_delay_us_block(1);
	}
	if (sent < x->n_tx[p]) {
		x->tx_refused += x->n_tx[p] - sent;
		rte_pktmbuf_free_bulk(x->tx[p] + sent, x->n_tx[p] - sent);
	}
	x->n_tx[p] = 0;
}

static void
flush_all(struct fws_conntester *x)
{
	unsigned int p;

	for (p = 0; p < x->cfg->n_ports; p++)
		if (x->n_tx[p])
			flush(x, p);
}

/* The engine's segment: on the stream's client or server port, toward the other. */
static void
emit(void *arg, unsigned int set, bool from_server, struct fws_tcp_seg *g)
{
	struct fws_conntester *x = arg;
	const struct fws_cfg_stream *cs = &x->cfg->streams[set];
	unsigned int p = from_server ? cs->rx_port : cs->tx_port;
	unsigned int to = from_server ? cs->tx_port : cs->rx_port;
	struct rte_mbuf *m = fws_ctlio_segment(&x->t->ctl, p, to, g, x->udp);

	if (m == NULL) { /* no mbuf (a segment always fits one): the generator's loss */
		x->tx_refused++;
		return;
	}
	x->tx[p][x->n_tx[p]++] = m;
	if (x->n_tx[p] == TX_BURST)
		flush(x, p);
}

/* fws_ctlio's hook: a TCP segment reached a port. */
static void
input(void *arg, unsigned int port, struct rte_mbuf *m)
{
	struct fws_conntester *x = arg;
	struct fws_tcp_info ti;

	if (fws_tcp_parse(rte_pktmbuf_mtod(m, const uint8_t *), m->data_len, &ti) == 0)
		fws_conns_input(x->c, port, &ti, x->now_us);
	rte_pktmbuf_free(m);
}

/* fws_ctlio's hook over UDP: a datagram reached a port. */
static void
input_udp(void *arg, unsigned int port, struct rte_mbuf *m)
{
	struct fws_conntester *x = arg;
	struct fws_tcp_info ti;
	const uint8_t *pl;
	uint32_t n;

	if (fws_conn_parse_udp(rte_pktmbuf_mtod(m, const uint8_t *), m->data_len, &ti, &pl, &n) ==
	    0)
		fws_conns_input_udp(x->c, port, &ti, pl, n, x->now_us);
	rte_pktmbuf_free(m);
}

struct fws_conntester *
fws_conntester_new(struct fws_host *t, const struct fws_cfg *cfg, struct fws_err *e)
{
	static volatile int never;
	struct fws_conn_params p = {.test = cfg->conn.test,
				    .udp = cfg->streams[0].l4 == FWS_L4_UDP,
				    .data = cfg->conn.data,
				    .tries = cfg->conn.tries,
				    .retry_us = (uint32_t)(cfg->conn.retry_s * 1e6)};
	struct fws_conn_set sets[FWS_CONN_MAX_SETS];
	struct fws_conntester *x;
	unsigned int s;

	x = calloc(1, sizeof(*x));
	if (x == NULL) {
		fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
		return NULL;
	}
	for (s = 0; s < cfg->n_streams; s++)
		sets[s] = (struct fws_conn_set){.flows = cfg->streams[s].flows,
						.client_port = cfg->streams[s].tx_port,
						.server_port = cfg->streams[s].rx_port};
	x->t = t;
	x->cfg = cfg;
	x->stop = &never;
	x->c = fws_conns_new(&p, sets, cfg->n_streams, emit, x);
	if (x->c == NULL) {
		fws_err_set(e, FWS_ERR_SETUP, -ENOMEM,
			    "setup: out of memory (connection state: %zu bytes each)",
			    fws_conns_state_size());
		free(x);
		return NULL;
	}
	x->udp = p.udp;
	t->ctl.tcp_input = p.udp ? NULL : input;
	t->ctl.udp_input = p.udp ? input_udp : NULL;
	t->ctl.tcp_arg = x;
	return x;
}

void
fws_conntester_free(struct fws_conntester *x)
{
	if (x == NULL)
		return;
	x->t->ctl.tcp_input = NULL;
	x->t->ctl.udp_input = NULL;
	fws_conns_free(x->c);
	free(x);
}

void
fws_conntester_progress(struct fws_conntester *x, FILE *f)
{
	x->progress = f;
}

static uint64_t
polled(const struct fws_conntester *x)
{
	uint64_t n = 0;
	unsigned int p;

	for (p = 0; p < x->cfg->n_ports; p++)
		n += x->t->ctl.idle_rx[p];
	return n;
}

/* Once a second, with progress on: the trial so far. */
static void
progress_line(struct fws_conntester *x)
{
	const struct fws_conn_stats *st = fws_conns_stats(x->c);
	uint64_t now = rte_rdtsc();

	if (x->progress == NULL || now < x->next_line)
		return;
	x->next_line = now + x->t->hz;
	fprintf(x->progress,
		"[%6.1f s] connections: %lu attempted, %lu established, %lu closed, %lu held, %lu "
		"failed, %lu waiting\n",
		x->now_us / 1e6, (unsigned long)st->attempted, (unsigned long)st->established,
		(unsigned long)st->closed, (unsigned long)st->held,
		(unsigned long)fws_conn_failed(st), (unsigned long)fws_conns_waiting(x->c));
}

/* One pass: receive until the queues are empty (the answers go out as they are made),
 * timers, send. */
uint64_t
fws_conntester_pass(struct fws_conntester *x)
{
	uint64_t before, first = polled(x);
	unsigned int k;

	for (k = 0; k < RX_PASSES; k++) {
		before = polled(x);
		fws_ctlio_poll_idle(&x->t->ctl);
		flush_all(x);
		if (polled(x) == before)
			break;
	}
	fws_conns_timers(x->c, clock_us(x));
	flush_all(x);
	progress_line(x);
	if (x->hk && x->hk->service)
		x->hk->service(x->hk->arg); /* a chatty probe never blocks on its pipe */
	return polled(x) - first;
}

/* The measured phase (opening, or teardown's closing) of n connections at rate begins. */
static void
measure(struct fws_conntester *x, uint64_t n, double rate)
{
	if (x->hk && x->hk->measure)
		x->hk->measure(x->hk->arg, n, rate);
}

static void
measured(struct fws_conntester *x, struct fws_conntrial *out, bool stopped)
{
	if (x->hk && x->hk->measured)
		x->hk->measured(x->hk->arg, stopped, out);
}

typedef uint64_t (*act_fn)(struct fws_conns *c, uint64_t n, uint32_t now_us);

static uint64_t
act_open(struct fws_conns *c, uint64_t n, uint32_t now_us)
{
	return fws_conns_open(c, n, now_us);
}

static uint64_t
act_close(struct fws_conns *c, uint64_t n, uint32_t now_us)
{
	return fws_conns_close(c, n, now_us);
}

static uint64_t
act_reset(struct fws_conns *c, uint64_t n, uint32_t now_us)
{
	(void)now_us;
	return fws_conns_reset(c, n);
}

/* What a paced phase did. */
struct phase {
	uint64_t done;
	double seconds;      /**< from its start to its last act, plus one interval */
	uint64_t unfinished; /**< still waiting when the phase gave up on them */
	bool stopped;
};

/*
 * Act on up to total connections at rate per second, paced; with stop_on_fail, no more after
 * the first failure. Then wait until nothing waits for an answer (the engine's timers end
 * every wait: tries x retry at most).
 */
static void
paced(struct fws_conntester *x, act_fn act, double rate, uint64_t total, bool stop_on_fail,
      struct phase *ph)
{
	const struct fws_conn_stats *st = fws_conns_stats(x->c);
	uint64_t start = rte_rdtsc(), last = start, due, n, hz = x->t->hz;
	/* The engine's timers end every wait (a SYN, a request, a FIN, each tries x retry);
	 * beyond that, something lost track (memory): those count as unfinished. */
	uint64_t give_up =
		(uint64_t)(3.0 * (x->cfg->conn.tries + 1) * x->cfg->conn.retry_s * (double)hz) + hz;
	bool acting = true;

	memset(ph, 0, sizeof(*ph));
	while (acting || fws_conns_waiting(x->c)) {
		if (*x->stop) {
			ph->stopped = true;
			break;
		}
		if (!acting && rte_rdtsc() - last > give_up) {
			ph->unfinished = fws_conns_waiting(x->c);
			break;
		}
		if (acting && stop_on_fail && st->first_fail != FWS_CONN_FAIL_NONE)
			acting = false;
		if (acting) {
			due = RTE_MIN(
				total,
				(uint64_t)(rate * (double)(rte_rdtsc() - start) / (double)hz) + 1);
			if (due > ph->done) {
				n = act(x->c, RTE_MIN(due - ph->done, (uint64_t)OPEN_STEP),
					x->now_us);
				ph->done += n;
				last = rte_rdtsc();
				acting = n > 0 && ph->done < total;
			}
		}
		fws_conntester_pass(x);
	}
	ph->seconds = (double)(last - start) / (double)hz + 1.0 / rate;
}

static void
stats_copy(struct fws_conntester *x, struct fws_conntrial *out)
{
	const struct fws_conn_stats *st = fws_conns_stats(x->c);
	size_t a = sizeof(uint64_t) * st->est_per_s.n, b = sizeof(uint64_t) * st->closed_per_s.n;

	out->st = *st;
	out->st.est_per_s.v = a ? malloc(a) : NULL;
	out->st.closed_per_s.v = b ? malloc(b) : NULL;
	out->st.est_per_s.cap = out->st.est_per_s.v ? st->est_per_s.n : 0;
	out->st.closed_per_s.cap = out->st.closed_per_s.v ? st->closed_per_s.n : 0;
	out->st.est_per_s.n = out->st.est_per_s.cap;
	out->st.closed_per_s.n = out->st.closed_per_s.cap;
	if (out->st.est_per_s.v)
		memcpy(out->st.est_per_s.v, st->est_per_s.v, a);
	if (out->st.closed_per_s.v)
		memcpy(out->st.closed_per_s.v, st->closed_per_s.v, b);
}

/* The engine's clock starts now, for iteration nonce. */
static void
begin(struct fws_conntester *x, uint32_t nonce)
{
	fws_conns_begin(x->c, nonce);
	x->tx_refused = 0;
	x->t0 = rte_rdtsc();
	x->next_line = x->t0 + x->t->hz;
	clock_us(x);
}

void
fws_conntester_serve(struct fws_conntester *x, uint32_t nonce)
{
	begin(x, nonce);
}

int
fws_conntester_trial(struct fws_conntester *x, double rate, uint32_t nonce,
		     const struct fws_conntester_hooks *hk, volatile int *stop,
		     struct fws_conntrial *out)
{
	uint64_t total = fws_conns_total(x->c), start;
	bool teardown = x->cfg->conn.test == FWS_CONN_TEARDOWN;
	struct phase ph;

	memset(out, 0, sizeof(*out));
	x->hk = hk;
	x->stop = stop;
	begin(x, nonce);
	start = x->t0;
	/* teardown: open at the configured opening rate and hold; then close at rate. */
	if (!teardown)
		measure(x, total, rate);
	paced(x, act_open, teardown ? x->cfg->conn.open_rate : rate, total,
	      x->cfg->conn.test == FWS_CONN_CAPACITY, &ph);
	out->unfinished = ph.unfinished;
	if (teardown && !ph.stopped) {
		measure(x, fws_conns_stats(x->c)->held, rate);
		paced(x, act_close, rate, total, false, &ph);
	}
	measured(x, out, ph.stopped);
	out->unfinished += ph.unfinished;
	flush_all(x);
	out->rate = rate;
	out->phase_s = ph.seconds;
	out->achieved = (double)ph.done / ph.seconds;
	out->elapsed_s = (double)(rte_rdtsc() - start) / (double)x->t->hz;
	out->partial = ph.stopped;
	out->tx_refused = x->tx_refused;
	out->engine_bytes = fws_conns_memory(x->c);
	stats_copy(x, out);
	x->hk = NULL;
	return 0;
}

/* Wait s seconds answering the control plane (ARP, ND) and late segments. */
static void
idle(struct fws_conntester *x, double s)
{
	uint64_t end = rte_rdtsc() + (uint64_t)(s * (double)x->t->hz);

	while (rte_rdtsc() < end && !*x->stop) {
		fws_conntester_pass(x);
		rte_delay_us_sleep(200);
	}
}

int
fws_conntester_between(struct fws_conntester *x, volatile int *stop, struct fws_err *e)
{
	struct phase ph;

	x->stop = stop;
	if (x->cfg->conn.test == FWS_CONN_CAPACITY && x->cfg->conn.hold_s > 0)
		idle(x, x->cfg->conn.hold_s);
	paced(x, act_reset, x->cfg->conn.reset_rate, fws_conns_total(x->c), false, &ph);
	flush_all(x);
	idle(x, x->cfg->conn.aging_s);
	if (*x->stop)
		return fws_err_set(e, FWS_ERR_INTERRUPTED, -EINTR, "interrupted");
	return 0;
}
