/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Sequence-number modulation, as pf's "modulate state" does it: a fixture between the two
 * ports adds a random offset per connection to every sequence number the connection's
 * initiator (the LAN side) sends and takes it off every acknowledgement coming back, and
 * fixes the checksums. TCP streams both ways must still open every connection, deliver
 * every segment with no window stall and close with FIN: each side has to take its numbers
 * from the segments it receives. Were the server to ACK in the client's numbering, the
 * client would see acknowledgements off by the offset and no connection would open.
 *
 *   fwstress lan (ringpair:ma:a) <-> fixture (ma:b <-> mb:b) <-> fwstress wan (ringpair:mb:a)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_random.h>

#include "fd_tcp.h"
#include "fixture.h"
#include "fws_pkt.h"
#include "fws_tcp.h"

#define MAX_CONNS 64

static const char cfg_json[] =
	"{\"ports\": [{\"name\": \"lan\", \"device\": \"ringpair:ma:a\"},"
	"             {\"name\": \"wan\", \"device\": \"ringpair:mb:a\"}],"
	" \"l4\": \"tcp\", \"direction\": \"bidir\","
	" \"flows\": {\"count\": 8, \"src_ip\": \"198.18.1.1-198.18.1.8\"},"
	" \"frame_size\": [128, 1518], \"rate\": \"100kpps\","
	" \"duration\": 1, \"warmup\": 0.2, \"drain\": 0.3, \"path_check\": false,"
	" \"lcores\": {\"tx\": [1], \"rx\": [1]}, \"output\": {\"json\": \"\"}}";

/* A connection as the client opened it: its four-tuple and offset. */
struct mconn {
	uint32_t caddr, saddr;
	uint16_t cport, sport;
	uint32_t delta;
	uint32_t isn, next; /**< the initiator's own numbers: its ISN, the byte after its last */
};

struct fixture {
	uint16_t lan, wan; /**< the fixture's ends toward fwstress's lan and wan */
	volatile int quit;
	unsigned int n;
	struct mconn c[MAX_CONNS];
	uint64_t seq_moved, ack_moved, syns;
	uint64_t ack_wild; /**< ACKs that, moved back, acknowledge what the initiator never sent */
};

static struct mconn *
find(struct fixture *fx, uint32_t caddr, uint16_t cport, uint32_t saddr, uint16_t sport)
{
	unsigned int i;

	for (i = 0; i < fx->n; i++)
		if (fx->c[i].caddr == caddr && fx->c[i].cport == cport && fx->c[i].saddr == saddr &&
		    fx->c[i].sport == sport)
			return &fx->c[i];
	return NULL;
}

static void
rewrite(uint8_t *field, int32_t by)
{
	uint32_t v;

	memcpy(&v, field, 4);
	v = rte_cpu_to_be_32(rte_be_to_cpu_32(v) + (uint32_t)by);
	memcpy(field, &v, 4);
}

static uint32_t
seq_of(const uint8_t *tcp)
{
	uint32_t v;

	memcpy(&v, tcp + 4, 4);
	return rte_be_to_cpu_32(v);
}

/* A segment from the initiator, in its own numbers: the byte after it (SYN and FIN count). */
static void
sent_up_to(struct mconn *c, const struct rte_ipv4_hdr *ip, const uint8_t *tcp)
{
	uint32_t len = rte_be_to_cpu_16(ip->total_length) - rte_ipv4_hdr_len(ip) -
		       (uint32_t)(tcp[12] >> 4) * 4u;
	uint32_t end = seq_of(tcp) + len + !!(tcp[13] & FWS_TCP_SYN) + !!(tcp[13] & FWS_TCP_FIN);

	if ((int32_t)(end - c->next) > 0)
		c->next = end;
}

/* An acknowledgement, moved back into the initiator's numbers: within what it sent (a
 * responder that answered in the initiator's own numbers would be off by the offset). */
static bool
acks_sent(const struct mconn *c, const uint8_t *ack_field)
{
	uint32_t v;

	memcpy(&v, ack_field, 4);
	v = rte_be_to_cpu_32(v);
	return v - c->isn - 1 <= c->next - c->isn - 1;
}

/* One TCP segment: from the LAN its sequence number moves, toward it its ACK moves back. */
static void
modulate(struct fixture *fx, struct rte_mbuf *m, bool from_lan)
{
	struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, 14);
	uint8_t *tcp = (uint8_t *)(ip + 1);
	struct fws_pkt_view v;
	uint16_t p0, p1, zero = 0, ck;
	struct mconn *c;

	if (fws_pkt_parse(rte_pktmbuf_mtod(m, uint8_t *), m->data_len, &v) != FWS_PKT_TCP)
		return;
	memcpy(&p0, tcp, 2);
	memcpy(&p1, tcp + 2, 2);
	c = from_lan ? find(fx, ip->src_addr, p0, ip->dst_addr, p1)
		     : find(fx, ip->dst_addr, p1, ip->src_addr, p0);
	if (c == NULL && from_lan && (tcp[13] & FWS_TCP_SYN) && fx->n < MAX_CONNS) {
		c = &fx->c[fx->n++];
		*c = (struct mconn){
			ip->src_addr, ip->dst_addr, p0, p1, (uint32_t)rte_rand() | 0x10000000u,
			seq_of(tcp),  seq_of(tcp)};
		fx->syns++;
	}
	if (c == NULL)
		return;
	if (from_lan) {
		sent_up_to(c, ip, tcp);
		rewrite(tcp + 4, (int32_t)c->delta);
		fx->seq_moved++;
	} else if (tcp[13] & FWS_TCP_ACK) {
		rewrite(tcp + 8, -(int32_t)c->delta);
		fx->ack_moved++;
		fx->ack_wild += !acks_sent(c, tcp + 8);
	}
	memcpy(tcp + 16, &zero, 2);
	ck = rte_ipv4_udptcp_cksum(ip, tcp);
	memcpy(tcp + 16, &ck, 2);
}

static void
pass(struct fixture *fx, uint16_t from, uint16_t to, bool from_lan)
{
	struct rte_mbuf *m[32];
	uint16_t n = rte_eth_rx_burst(from, 0, m, 32), i, done = 0;

	for (i = 0; i < n; i++)
		modulate(fx, m[i], from_lan);
	while (done < n) /* the fixture is not under test: it never drops */
		done += rte_eth_tx_burst(to, 0, m + done, (uint16_t)(n - done));
}

static int
fixture_main(void *arg)
{
	struct fixture *fx = arg;

	while (!fx->quit) {
		pass(fx, fx->lan, fx->wan, true);
		pass(fx, fx->wan, fx->lan, false);
	}
	return 0;
}

/*
 * One TCP stream of a trial: its data leaves its tx_port, its receiver's ACKs its rx_port.
 * An ACK the tester's own transmit queue refused (the fixture lcore slow on a loaded
 * machine, its ring full) is counted there as the control plane's tx_drop or send_fail:
 * every ACK sent is received or counted so (the bound, since a refused SYN or FIN is
 * counted there too). How far the data got in the trial's second is the machine's
 * speed, not checked; that every ACK acknowledged only what was sent is (ack_wild).
 */
static void
check_stream(const struct fws_result *r, unsigned int s)
{
	const struct fws_stream_result *x = &r->streams[s];
	const struct fws_tcp_result *tcp = fws_fd_result_c(&r->fd, &fws_fd_tcp, x->fd);
	unsigned int acker = strcmp(x->rx_port, r->ports[0].name) == 0 ? 0 : 1;
	uint64_t refused = r->ports[acker].ctl.tx_drop + r->ports[acker].ctl.send_fail;

	printf("stream %s:\n", x->name);
	expect("  connections opened", tcp->established, 8);
	expect("  connections closed with FIN", tcp->closed, 8);
	expect("  segments lost", x->rx.lost, 0);
	expect("  distinct received == sent", x->rx.unique, x->rx.tx);
	expect("  segments that waited for the window", tcp->window_full, 0);
	expect("  ACKs received <= sent + 8 window openings <= received + refused at the tester",
	       tcp->acks_received <= tcp->acks_sent + 8 &&
		       tcp->acks_sent + 8 <= tcp->acks_received + refused,
	       1);
	expect("  ACKs received beyond the 8 window openings", tcp->acks_received > 8, 1);
}

int
main(int argc, char **argv)
{
	struct fixture_env e;
	static struct fixture fx;
	struct fws_result res;
	struct fws_err fe = {0};
	unsigned int size, s;
	int rc;

	(void)argc;
	if ((rc = fixture_setup(argv[0], cfg_json, "ringpair:ma:b", "ringpair:mb:b", &e)) != 0)
		return rc;
	fx.lan = e.in.port_id;
	fx.wan = e.out.port_id;
	rte_eal_remote_launch(fixture_main, &fx, FIXTURE_LCORE);
	for (size = 0; size < e.cfg->n_sizes; size++) {
		uint64_t syns = fx.syns;

		if (fws_trial_run(e.t, size, NULL, &res, &fe) < 0) {
			fprintf(stderr, "%s\n", fe.msg);
			return 1;
		}
		printf("trial %s: %lu connections modulated, %lu sequence numbers moved, %lu "
		       "acknowledgements moved back\n",
		       res.size.name, (unsigned long)(fx.syns - syns), (unsigned long)fx.seq_moved,
		       (unsigned long)fx.ack_moved);
		expect("the fixture modulated 16 new connections", fx.syns - syns, 16);
		expect("every ACK moved back acknowledged only what its initiator sent",
		       fx.ack_wild, 0);
		for (s = 0; s < res.n_streams; s++)
			check_stream(&res, s);
		fws_result_free(&res);
		fx.n = 0; /* the next trial's connections are new */
	}
	fx.quit = 1;
	rte_eal_wait_lcore(FIXTURE_LCORE);
	fixture_teardown(&e);
	return fixture_done();
}
