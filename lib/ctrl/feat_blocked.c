/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trial feature "blocked": a stream with "expect" (blocked, or a blocklist's destinations)
 * has flows the DUT should block. This feature knows which (its state, built once at
 * setup), sets them apart so that the merge sums them apart from the rest
 * (fws_stream_result.apart) and loss is never blocking, and gives the verdict: did any leak?
 * Its result block is lib/feat's fd_blocked.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_blocked.h"
#include "fws_blocklist.h"
#include "fws_bytes.h"
#include "fws_feature.h"
#include "fws_flow.h"
#include "fws_trial_int.h"

/* Per stream with "expect": per flow, 1 when the DUT should block it; their count. */
struct blocked {
	uint8_t *flags[FWS_CFG_MAX_STREAMS];
	uint32_t n[FWS_CFG_MAX_STREAMS];
};

/* Which flows of stream s the DUT should block: all ("blocked"), or those whose destination
 * is in the blocklist (looked up once here, never per frame). */
static int
expected_blocked(const struct fws_cfg *cfg, struct blocked *b, unsigned int s, struct fws_err *e)
{
	const struct fws_cfg_stream *cs = &cfg->streams[s];
	struct fws_flow_tuple tup;
	uint8_t addr[16];
	uint32_t i;

	if (cs->expect == FWS_EXPECT_PASS)
		return 0;
	if ((b->flags[s] = calloc(cs->flows.count, 1)) == NULL)
		return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM,
				   "setup: out of memory for stream %s's expectations", cs->name);
	for (i = 0; i < cs->flows.count; i++) {
		uint32_t dst_be;

		fws_flow_tuple(&cs->flows, i, &tup);
		dst_be = fws_cpu_to_be32(tup.dst_ip);
		memcpy(addr, cs->flows.dst6, 12);
		memcpy(cs->flows.ipv6 ? addr + 12 : addr, &dst_be, 4);
		b->flags[s][i] = cs->expect == FWS_EXPECT_BLOCKED ||
				 fws_blocklist_has(&cfg->blocklist, addr, cs->flows.ipv6);
		b->n[s] += b->flags[s][i];
	}
	return 0;
}

static void
blocked_destroy(struct fws_trial *t, void *state)
{
	struct blocked *b = state;
	unsigned int s;

	(void)t;
	if (b == NULL)
		return;
	for (s = 0; s < FWS_CFG_MAX_STREAMS; s++)
		free(b->flags[s]);
	free(b);
}

static int
blocked_setup(struct fws_trial *t, void **state, struct fws_err *e)
{
	struct blocked *b = calloc(1, sizeof(*b));
	unsigned int s;
	int rc = 0;

	if (b == NULL)
		return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
	for (s = 0; s < t->cfg->n_streams && rc == 0; s++)
		rc = expected_blocked(t->cfg, b, s, e);
	if (rc < 0) {
		blocked_destroy(t, b);
		return rc;
	}
	*state = b;
	return 0;
}

static const uint8_t *
blocked_apart(const struct fws_trial *t, const void *state, unsigned int s, uint32_t *n)
{
	const struct blocked *b = state;

	(void)t;
	*n = b ? b->n[s] : 0;
	return b ? b->flags[s] : NULL;
}

static void
blocked_collect(struct fws_trial *t, void *state, const struct fws_step *x)
{
	const struct blocked *b = state;
	unsigned int s;

	for (s = 0; s < t->cfg->n_streams; s++) {
		const struct fws_stream_result *sr = &x->res->streams[s];
		struct fws_fd_blocked *k = fws_trial_block(t, &fws_fd_blocked, x->res, s);

		if (k == NULL || b == NULL || b->n[s] == 0)
			continue;
		k->flows = b->n[s];
		k->active = sr->active;
		k->sent = sr->apart.tx;
		k->leaked = sr->apart.unique;
		k->leaked_total = sr->apart.rx;
		k->ok = k->leaked == 0;
		if (!k->ok)
			snprintf(k->reason, sizeof(k->reason),
				 "%" PRIu64 " of %" PRIu64
				 " frames to %u flows expected blocked leaked",
				 k->leaked, k->sent, k->flows);
	}
}

const struct fws_feature fws_feature_blocked = {
	.name = "blocked",
	.setup = blocked_setup,
	.apart = blocked_apart,
	.on = {[FWS_FEATURE_COLLECT] = blocked_collect},
	.destroy = blocked_destroy,
};
