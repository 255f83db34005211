/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A host's streams as it sends them and as it saw them arrive: each sender's headers, the
 * flows of a download aimed at the translations a NAT learn probe found, and a flow's NAT
 * observation over the receive lcores. Called by the host's setup, its features and its
 * agent; it calls none of them (no circle: tools/layout-check circles lib/host).
 */
#include <string.h>

#include <rte_byteorder.h>

#include "fws_host.h"

/* The headers of stream s as port p sends it. */
void
fws_host_sender_hdr(const struct fws_host *t, unsigned int s, unsigned int p,
		    struct fws_pkt_hdr *hdr)
{
	const struct fws_cfg_stream *cs = &t->cfg->streams[s];
	const struct fws_cfg_port *tp = &t->cfg->ports[p];

	memset(hdr, 0, sizeof(*hdr));
	hdr->stream = (uint8_t)s;
	hdr->ttl = 64;
	hdr->src = tp->mac_set ? fws_rte_mac(&tp->mac) : t->port[p].mac;
	hdr->dst = fws_ctlio_hop(&t->ctl, p, cs->rx_port, cs->flows.ipv6);
	hdr->vlan = tp->vlan;
	hdr->ipv6 = cs->flows.ipv6;
	memcpy(hdr->src6, cs->flows.src6, sizeof(hdr->src6));
	memcpy(hdr->dst6, cs->flows.dst6, sizeof(hdr->dst6));
	hdr->payload = cs->payload;
	hdr->payload_len = cs->payload_len;
	hdr->tcp = cs->l4 == FWS_L4_TCP || cs->l4 == FWS_L4_SYN;
	hdr->syn = cs->l4 == FWS_L4_SYN;
	hdr->df = cs->fill.df;
	hdr->fill = cs->fill.kind;
	hdr->fill_pattern = cs->fill.pattern;
	hdr->fill_len = cs->fill.len;
	hdr->fill_seed = t->fill_seed;
	hdr->flows = cs->flows.count;
}

void
fws_host_stream_hdr(const struct fws_host *t, unsigned int s, struct fws_pkt_hdr *hdr)
{
	fws_host_sender_hdr(t, s, t->cfg->streams[s].tx_port, hdr);
}

struct fws_natobs
fws_host_observed(const struct fws_host *t, unsigned int s, uint32_t i)
{
	struct fws_natobs o = {0};
	unsigned int k;

	for (k = 0; k < t->n_rx; k++)
		if (t->rx[k]->natobs[s])
			fws_natobs_merge(&o, &t->rx[k]->natobs[s][i]);
	return o;
}

int
fws_host_aim(struct fws_host *h, unsigned int d, uint32_t lo, uint32_t n,
	     const struct fws_nat_tuple *at)
{
	const struct fws_cfg_stream *cs = &h->cfg->streams[d];
	struct fws_pkt_hdr hdr;
	struct fws_flow_tuple ft;
	uint32_t i;

	if (lo > cs->flows.count || n > cs->flows.count - lo || h->txflows[d] == NULL)
		return -EINVAL;
	fws_host_stream_hdr(h, d, &hdr);
	if (lo == 0)
		h->aimed[d] = 0;
	for (i = 0; i < n; i++) {
		fws_flow_tuple(&cs->flows, lo + i, &ft);
		if (at[i].dst) {
			ft.dst_ip = rte_be_to_cpu_32(at[i].dst);
			ft.dst_port = rte_be_to_cpu_16(at[i].dport);
			h->aimed[d]++;
		}
		fws_pkt_flow_init(&h->txflows[d][lo + i], &hdr, &ft, lo + i);
	}
	return 0;
}
