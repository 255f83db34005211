/* SPDX-License-Identifier: BSD-3-Clause */
/* The table of controller features (fws_feature.h) and the loops the trial calls them through. */
#include <string.h>

#include "fws_feature.h"
#include "fws_trial_int.h"
#include "fws_util.h"

/* Each is defined in the file named after it. */
extern const struct fws_feature fws_feature_dutload;   /* feat_dutload.c */
extern const struct fws_feature fws_feature_telemetry; /* feat_telemetry.c */
extern const struct fws_feature fws_feature_nat;       /* feat_nat.c */
extern const struct fws_feature fws_feature_path;      /* feat_path.c */
extern const struct fws_feature fws_feature_blocked;   /* feat_blocked.c */
extern const struct fws_feature fws_feature_clocks;    /* feat_clocks.c */
extern const struct fws_feature fws_feature_synflood;  /* feat_synflood.c */

/* In the order their hooks run. */
static const struct fws_feature *const features[] = {
	&fws_feature_clocks,    /* map stamps between hosts' clocks; the bound of one-way figures */
	&fws_feature_dutload,   /* the DUT's CPU load over the measured phase */
	&fws_feature_telemetry, /* the DUT's own figures each second of the trial */
	&fws_feature_nat,       /* NAT: learn before a download, the verdict after */
	&fws_feature_path,      /* why the path carried nothing; tunnel link bytes */
	&fws_feature_blocked,   /* did flows expected blocked leak */
	&fws_feature_synflood,  /* a SYN flood stream: its rate, what passed */
};
_Static_assert(FWS_DIM(features) <= FWS_FEATURES_MAX, "FWS_FEATURES_MAX is too small");

int
fws_features_setup(struct fws_trial *t, struct fws_err *e)
{
	unsigned int i;
	int rc;

	for (i = 0; i < FWS_DIM(features); i++) {
		t->feat_ready[i] = true;
		if (features[i]->setup && (rc = features[i]->setup(t, &t->feat[i], e)) < 0)
			return rc;
	}
	return 0;
}

int
fws_features_prepare(struct fws_trial *t, const struct fws_trial_opts *o, uint32_t mask,
		     unsigned int size_idx, struct fws_err *e)
{
	unsigned int i;
	int rc;

	for (i = 0; i < FWS_DIM(features); i++)
		if (features[i]->prepare &&
		    (rc = features[i]->prepare(t, t->feat[i], o, mask, size_idx, e)) < 0)
			return rc;
	return 0;
}

void
fws_features_on(struct fws_trial *t, enum fws_feature_event ev, const struct fws_step *x)
{
	unsigned int i;

	for (i = 0; i < FWS_DIM(features); i++)
		if (features[i]->on[ev])
			features[i]->on[ev](t, t->feat[i], x);
}

void
fws_features_plan(struct fws_trial *t, unsigned int k, struct fws_agent_plan *p)
{
	unsigned int i;

	memset(p->clk, 0, sizeof(p->clk));
	for (i = 0; i < FWS_DIM(features); i++)
		if (features[i]->plan)
			features[i]->plan(t, t->feat[i], k, p);
}

const uint8_t *
fws_features_apart(const struct fws_trial *t, unsigned int s, uint32_t *n)
{
	const uint8_t *flags;
	unsigned int i;

	*n = 0;
	for (i = 0; i < FWS_DIM(features); i++)
		if (features[i]->apart && (flags = features[i]->apart(t, t->feat[i], s, n)))
			return flags;
	*n = 0;
	return NULL;
}

void
fws_features_after(struct fws_trial *t, struct fws_result *res)
{
	unsigned int i;

	for (i = 0; i < FWS_DIM(features); i++)
		if (features[i]->after)
			features[i]->after(t, t->feat[i], res);
}

void
fws_features_destroy(struct fws_trial *t)
{
	unsigned int i;

	for (i = FWS_DIM(features); i-- > 0;) {
		if (t->feat_ready[i] && features[i]->destroy)
			features[i]->destroy(t, t->feat[i]);
		t->feat[i] = NULL;
		t->feat_ready[i] = false;
	}
}
