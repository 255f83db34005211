/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trial feature "nat", NAT through a firewall: the learn phase before a download trial and
 * the per-stream verdict after it. A masquerading DUT gives each LAN flow a public address and
 * port that only its own first packets reveal; the WAN side learns them from the learner
 * stream's frames (found by signature, never by headers) and sends the download flows there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_malloc.h>

#include "fws_compat.h"
#include "fws_feature.h"
#include "fws_trial_int.h"

/* How download flow i's learner flow arrived on the WAN side, if it did. */
static bool
learner_seen(void *arg, unsigned int d, uint32_t i, struct fws_nat_tuple *at)
{
	const struct fws_trial *t = arg;
	struct fws_natobs o = fws_trial_observed(t, (unsigned int)t->cfg->streams[d].learner, i);

	*at = o.last;
	return o.seen;
}

/* Prepare: for every download stream of mask (bit s, 0: all) that has a learner, send
 * learn_frames per flow of the learner at learn_pps (RFC 9693), and point each download flow
 * at the source address and port its learner flow arrived with on the WAN side. Flows not
 * learned keep their untranslated destination (they count as lost). */
static int
nat_learn(struct fws_trial *t, void *state, const struct fws_trial_opts *o, uint32_t mask,
	  unsigned int size_idx, struct fws_err *e)
{
	const struct fws_cfg *cfg = t->cfg;
	struct fws_result *res;
	unsigned int d;
	int rc = 0;

	(void)state;
	if (cfg->nat.mode != FWS_NAT_MASQUERADE)
		return 0;
	res = calloc(1, sizeof(*res));
	if (res == NULL)
		return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
	for (d = 0; d < cfg->n_streams && rc == 0; d++) {
		const struct fws_cfg_stream *cs = &cfg->streams[d];
		uint64_t frames = (uint64_t)cs->flows.count * cfg->nat.learn_frames;
		struct fws_probe pr = {.stream = (unsigned int)cs->learner,
				       .frames = frames,
				       .pps = cfg->nat.learn_pps,
				       .duration = (double)frames / cfg->nat.learn_pps + 1,
				       .drain = 0.3};

		if (cs->learner < 0 || (mask && !((mask >> d) & 1)))
			continue;
		if (pr.duration > 10)
			FWS_LOG(NOTICE,
				"NAT learn: stream %s: %" PRIu64 " frames at %.0f/s take %.0f s "
				"before each trial (raise nat.learn_pps)",
				cs->name, frames, cfg->nat.learn_pps, pr.duration - 1);
		rc = fws_trial_run_probe(t, size_idx, o, &pr, res, e);
		if (rc == 0 && res->partial)
			rc = fws_err_set(e, FWS_ERR_INTERRUPTED, -EINTR, "NAT learn: interrupted");
		if (rc == 0 && fws_trial_aim(t, d, learner_seen, t) < 0)
			rc = fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
		fws_result_free(res);
		if (rc == 0 && t->nat_learned[d] < cs->flows.count)
			FWS_LOG(WARNING, "NAT learn: stream %s: %u of %u flows learned", cs->name,
				t->nat_learned[d], cs->flows.count);
	}
	free(res);
	return rc;
}

/* The expectation for stream s: what, and whether sum meets it (reason when not). */
static void
verdict(const struct fws_trial *t, unsigned int s, struct fws_nat_result *n)
{
	const struct fws_cfg_stream *cs = &t->cfg->streams[s];
	const struct fws_nat_sum *x = &n->sum;

	n->ok = true;
	if (t->cfg->nat.mode == FWS_NAT_NONE) {
		n->expected = true;
		strlcpy(n->expect, "no translation", sizeof(n->expect));
		if (x->mismatched)
			snprintf(n->reason, sizeof(n->reason),
				 "%u of %u flows seen arrived translated", x->mismatched, x->seen);
	} else if (cs->flows.ipv6) {
		return; /* masquerade: IPv4 only */
	} else if (cs->dir == FWS_DIR_UPLOAD) {
		n->expected = true;
		strlcpy(n->expect, "source translated", sizeof(n->expect));
		if (x->src_translated < x->seen)
			snprintf(n->reason, sizeof(n->reason),
				 "%u of %u flows seen arrived with their own source",
				 x->seen - x->src_translated, x->seen);
	} else if (cs->learner >= 0 || cs->l4 == FWS_L4_TCP) {
		/* A TCP download answers its connections' SYNs, as a UDP one its learner. */
		n->expected = true;
		strlcpy(n->expect, "delivered to the LAN flow it answers", sizeof(n->expect));
		if (x->mismatched)
			snprintf(n->reason, sizeof(n->reason),
				 "%u of %u flows seen arrived at another address or port than "
				 "the LAN flow they answer",
				 x->mismatched, x->seen);
	}
	n->ok = n->reason[0] == '\0';
}

static int
nat_collect_stream(const struct fws_trial *t, unsigned int s, struct fws_stream_result *sr)
{
	const struct fws_cfg_stream *cs = &t->cfg->streams[s];
	uint32_t i, n = cs->flows.count;
	struct fws_natobs *obs = calloc(n, sizeof(*obs));
	struct fws_nat_tuple *sent = calloc(n, sizeof(*sent));
	uint32_t *scratch = calloc(n, sizeof(*scratch));
	const struct fws_nat_tuple *want = NULL;
	struct fws_nat_result *nr = &sr->nat;

	memset(nr, 0, sizeof(*nr));
	if (obs == NULL || sent == NULL || scratch == NULL) {
		free(obs);
		free(sent);
		free(scratch);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		const struct fws_pkt_flow *f = &t->txflows[s][i];

		obs[i] = fws_trial_observed(t, s, i);
		sent[i] = (struct fws_nat_tuple){f->src_be, f->dst_be, f->sport_be, f->dport_be};
	}
	if (t->cfg->nat.mode == FWS_NAT_NONE)
		want = sent;
	else if (cs->learner >= 0 || (cs->l4 == FWS_L4_TCP && cs->dir == FWS_DIR_DOWNLOAD))
		want = t->nat_want[s];
	fws_nat_summarize(obs, sent, want, n, scratch, &nr->sum);
	if (n <= FWS_NAT_PAIRS_MAX && (nr->pairs = malloc(sizeof(*nr->pairs) * 2 * n)) != NULL) {
		nr->n_pairs = n;
		for (i = 0; i < n; i++) {
			nr->pairs[2 * i] = sent[i];
			nr->pairs[2 * i + 1] =
				obs[i].seen ? obs[i].last : (struct fws_nat_tuple){0};
		}
	}
	nr->observed = true;
	nr->has_learn =
		(cs->learner >= 0 || (cs->l4 == FWS_L4_TCP && cs->dir == FWS_DIR_DOWNLOAD)) &&
		t->cfg->nat.mode == FWS_NAT_MASQUERADE;
	nr->learned = nr->has_learn ? t->nat_learned[s] : 0;
	verdict(t, s, nr);
	free(obs);
	free(sent);
	free(scratch);
	return 0;
}

static void
nat_collect(struct fws_trial *t, void *state, const struct fws_step *x)
{
	unsigned int s;

	(void)state;
	if (t->cfg->nat.mode == FWS_NAT_UNSET)
		return;
	for (s = 0; s < t->cfg->n_streams; s++)
		if (nat_collect_stream(t, s, &x->res->streams[s]) < 0)
			FWS_LOG(ERR, "stream %s: no memory for the NAT summary",
				x->res->streams[s].name);
}

const struct fws_feature fws_feature_nat = {
	.name = "nat",
	.prepare = nat_learn,
	.on = {[FWS_FEATURE_COLLECT] = nat_collect},
};
