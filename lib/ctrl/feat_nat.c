/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trial feature "nat", NAT through a firewall: the learn phase before a download trial and
 * the per-stream verdict after it. A masquerading DUT gives each LAN flow a public address and
 * port that only its own first packets reveal; the WAN side learns them from the learner
 * stream's frames (found by signature, never by headers) and sends the download flows there.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_nat.h"
#include "fws_bytes.h"
#include "fws_compat.h"
#include "fws_flow.h"
#include "fws_feature.h"
#include "fws_trial_int.h"

/* Aiming download stream d at what its learner's flows showed, chunk by chunk. */
struct aim {
	struct fws_trial *t;
	unsigned int d;
	uint32_t learned;
	int rc;
	struct fws_nat_tuple at[FWS_AGENT_CHUNK];
};

/* Learner flows [lo, lo + n) as they arrived on the WAN side: download flow i goes to the
 * source address and port its learner flow i arrived with, on every agent that sends d. */
static void
aim_chunk(void *arg, unsigned int s, uint32_t lo, uint32_t n, const struct fws_agent_rxflow *rx,
	  const struct fws_agent_txflow *tx)
{
	struct aim *x = arg;
	struct fws_agent *a;
	uint32_t i;
	unsigned int k;
	int rc;

	(void)s;
	(void)tx;
	for (i = 0; i < n; i++) {
		x->at[i] = (struct fws_nat_tuple){0};
		if (rx[i].nat.seen) {
			x->at[i].dst = rx[i].nat.last.src;
			x->at[i].dport = rx[i].nat.last.sport;
			x->learned += x->at[i].dst != 0;
		}
	}
	FWS_TRIAL_FOREACH_AGENT(x->t, k, a)
	{
		if ((a->tx_streams >> x->d) & 1 && (rc = a->ops->aim(a, x->d, lo, n, x->at)) < 0)
			x->rc = rc;
	}
}

/* After d's learner probe: aim d; -errno when an agent could not. */
static int
aim(struct fws_trial *t, unsigned int d, uint32_t *learned)
{
	struct aim *x = calloc(1, sizeof(*x));
	int rc;

	if (x == NULL)
		return -ENOMEM;
	x->t = t;
	x->d = d;
	rc = fws_trial_flows(t, (unsigned int)t->cfg->streams[d].learner, aim_chunk, x);
	rc = rc < 0 ? rc : x->rc;
	*learned = x->learned;
	free(x);
	return rc;
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
	uint32_t learned = 0;
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
		rc = t->run_probe(t, size_idx, o, &pr, res, e);
		if (rc == 0 && res->partial)
			rc = fws_err_set(e, FWS_ERR_INTERRUPTED, -EINTR, "NAT learn: interrupted");
		if (rc == 0 && aim(t, d, &learned) < 0)
			rc = fws_err_set(e, FWS_ERR_SETUP, -ENOMEM,
					 "setup: stream %s: the learned translations could not be "
					 "given to its sender",
					 cs->name);
		fws_result_free(res);
		if (rc == 0 && learned < cs->flows.count)
			FWS_LOG(WARNING, "NAT learn: stream %s: %u of %u flows learned", cs->name,
				learned, cs->flows.count);
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

/* A stream's flows as received and as sent, for its verdict. */
struct seen {
	struct fws_natobs *obs;
	struct fws_nat_tuple *sent;
};

static void
seen_chunk(void *arg, unsigned int s, uint32_t lo, uint32_t n, const struct fws_agent_rxflow *rx,
	   const struct fws_agent_txflow *tx)
{
	struct seen *x = arg;
	uint32_t i;

	(void)s;
	for (i = 0; i < n; i++) {
		x->obs[lo + i] = rx[i].nat;
		x->sent[lo + i] = tx[i].sent;
	}
}

/* The LAN flows a download stream's flows answer: its own tuples as configured. */
static void
answered(const struct fws_cfg_stream *cs, struct fws_nat_tuple *want)
{
	struct fws_flow_tuple ft;
	uint32_t i;

	for (i = 0; i < cs->flows.count; i++) {
		fws_flow_tuple(&cs->flows, i, &ft);
		want[i] = (struct fws_nat_tuple){
			fws_cpu_to_be32(ft.src_ip), fws_cpu_to_be32(ft.dst_ip),
			fws_cpu_to_be16(ft.src_port), fws_cpu_to_be16(ft.dst_port)};
	}
}

static bool
answers(const struct fws_cfg_stream *cs)
{
	return cs->learner >= 0 || (cs->l4 == FWS_L4_TCP && cs->dir == FWS_DIR_DOWNLOAD);
}

/* Stream s's pairs (as sent, as it last arrived) for the report's flow-by-flow list. */
static void
pairs(struct fws_nat_result *nr, const struct seen *x, uint32_t n)
{
	uint32_t i;

	if (n > FWS_NAT_PAIRS_MAX || (nr->pairs = malloc(sizeof(*nr->pairs) * 2 * n)) == NULL)
		return;
	nr->n_pairs = n;
	for (i = 0; i < n; i++) {
		nr->pairs[2 * i] = x->sent[i];
		nr->pairs[2 * i + 1] = x->obs[i].seen ? x->obs[i].last : (struct fws_nat_tuple){0};
	}
}

static int
nat_collect_stream(struct fws_trial *t, unsigned int s, uint32_t aimed, bool active,
		   struct fws_nat_result *nr)
{
	const struct fws_cfg_stream *cs = &t->cfg->streams[s];
	uint32_t n = cs->flows.count;
	struct seen x = {calloc(n, sizeof(*x.obs)), calloc(n, sizeof(*x.sent))};
	struct fws_nat_tuple *want = calloc(n, sizeof(*want));
	uint32_t *scratch = calloc(n, sizeof(*scratch));
	int rc = -ENOMEM;

	memset(nr, 0, sizeof(*nr));
	nr->active = active;
	if (x.obs && x.sent && want && scratch &&
	    (rc = fws_trial_flows(t, s, seen_chunk, &x)) == 0) {
		if (t->cfg->nat.mode == FWS_NAT_NONE)
			memcpy(want, x.sent, sizeof(*want) * n);
		else if (answers(cs))
			answered(cs, want);
		fws_nat_summarize(x.obs, x.sent,
				  t->cfg->nat.mode == FWS_NAT_NONE || answers(cs) ? want : NULL, n,
				  scratch, &nr->sum);
		pairs(nr, &x, n);
		nr->ipv6 = cs->flows.ipv6;
		memcpy(nr->src6, cs->flows.src6, sizeof(nr->src6));
		memcpy(nr->dst6, cs->flows.dst6, sizeof(nr->dst6));
		nr->observed = true;
		nr->has_learn = answers(cs) && t->cfg->nat.mode == FWS_NAT_MASQUERADE;
		nr->learned = nr->has_learn ? aimed : 0;
		verdict(t, s, nr);
	}
	free(x.obs);
	free(x.sent);
	free(want);
	free(scratch);
	return rc;
}

static void
nat_collect(struct fws_trial *t, void *state, const struct fws_step *x)
{
	unsigned int s;

	(void)state;
	if (t->cfg->nat.mode == FWS_NAT_UNSET)
		return;
	for (s = 0; s < t->cfg->n_streams; s++) {
		struct fws_nat_result *nr = fws_trial_block(t, &fws_fd_nat, x->res, s);

		/* the merge summed the senders' aimed flows into learned */
		if (nr && nat_collect_stream(t, s, nr->learned, x->res->streams[s].active, nr) < 0)
			FWS_LOG(ERR, "stream %s: no memory for the NAT summary",
				x->res->streams[s].name);
	}
}

const struct fws_feature fws_feature_nat = {
	.name = "nat",
	.prepare = nat_learn,
	.on = {[FWS_FEATURE_COLLECT] = nat_collect},
};
