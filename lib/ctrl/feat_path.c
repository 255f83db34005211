/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trial feature "path": after each trial, what the path did with each stream: why it carried
 * none of its frames when that can be told (ICMP "too big" errors, which the icmp feature
 * tallied before this runs, or a tunnel's MTU with DF set), and behind a tunnel the bytes
 * its encrypted link carries per inner frame and the share of that link's line rate the
 * received rate needs. Its result block is lib/feat's fd_path.
 */
#include <inttypes.h>
#include <stdio.h>

#include "fd_icmp.h"
#include "fd_path.h"
#include "fws_feature.h"
#include "fws_trial_int.h"

static void
collect_path(const struct fws_trial *t, unsigned int s, const struct fws_size_mix *mix,
	     const struct fws_stream_result *sr, const struct fws_icmp_tally *icmp,
	     struct fws_fd_path *x)
{
	const struct fws_cfg_stream *cs = &t->cfg->streams[s];
	uint32_t l2 = FWS_ETHER_HDR_LEN + (t->cfg->ports[cs->tx_port].vlan ? FWS_PKT_VLAN_LEN : 0);
	uint64_t link = fws_trial_tx_link_mbps(t, s);
	double sum = 0, w = 0;
	unsigned int i;

	if (icmp && sr->rx.unique == 0 && sr->tx_frames && icmp->n[FWS_ICMP_TOO_BIG])
		snprintf(x->reason, sizeof(x->reason),
			 "the path cannot carry this size: %" PRIu64
			 " \"too big\" errors, path MTU %u announced",
			 icmp->n[FWS_ICMP_TOO_BIG], icmp->mtu_min);
	if (t->cfg->tunnel.kind == FWS_TUNNEL_NONE || cs->flows.ipv6)
		return;
	if (!x->reason[0] && sr->rx.unique == 0 && sr->tx_frames && cs->fill.df &&
	    fws_size_max(mix) > t->cfg->tunnel.mtu + l2 + 4)
		snprintf(x->reason, sizeof(x->reason),
			 "larger than the %s tunnel's inner MTU %u with DF set: the path cannot "
			 "carry it",
			 fws_tunnel_name(t->cfg->tunnel.kind), t->cfg->tunnel.mtu);
	for (i = 0; i < mix->n; i++) {
		sum += (double)mix->weight[i] *
		       fws_tunnel_link_frame(&t->cfg->tunnel, mix->size[i], l2);
		w += mix->weight[i];
	}
	x->link_frame = w > 0 ? sum / w : 0;
	x->link_share = link ? sr->rx_pps * (x->link_frame + 20) * 8 / (link * 1e6) : 0;
}

static void
path_collect(struct fws_trial *t, void *state, const struct fws_step *x)
{
	unsigned int s;

	(void)state;
	for (s = 0; s < t->cfg->n_streams; s++) {
		struct fws_fd_path *p = fws_trial_block(t, &fws_fd_path, x->res, s);

		if (p)
			collect_path(t, s, &x->res->size, &x->res->streams[s],
				     fws_trial_block(t, &fws_fd_icmp, x->res, s), p);
	}
}

const struct fws_feature fws_feature_path = {
	.name = "path",
	.on = {[FWS_FEATURE_COLLECT] = path_collect},
};
