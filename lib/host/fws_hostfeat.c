/* SPDX-License-Identifier: BSD-3-Clause */
/* The table of host features (fws_host.h) and the loops the host calls them through. */
#include "fws_host.h"

/* Each is defined in the file named after it. */
extern const struct fws_host_feature fws_feature_stamps;     /* feat_stamps.c */
extern const struct fws_host_feature fws_feature_reassembly; /* feat_reassembly.c */
extern const struct fws_host_feature fws_feature_icmp;       /* feat_icmp.c */
extern const struct fws_host_feature fws_feature_linkwatch;  /* feat_linkwatch.c */
extern const struct fws_host_feature fws_feature_tcp;        /* feat_tcp.c */

/* In the order their hooks run. */
static const struct fws_host_feature *const features[] = {
	&fws_feature_stamps,     /* how frames were stamped, what that leaves uncertain */
	&fws_feature_reassembly, /* fragments of test packets */
	&fws_feature_icmp,       /* ICMP errors from the path, matched to streams */
	&fws_feature_linkwatch,  /* links down and up during a trial */
	&fws_feature_tcp,        /* TCP streams' connections */
};
_Static_assert(RTE_DIM(features) <= FWS_HOST_FEATURES_MAX, "FWS_HOST_FEATURES_MAX is too small");

int
fws_host_features_setup(struct fws_host *h, struct fws_err *e)
{
	unsigned int i;
	int rc;

	for (i = 0; i < RTE_DIM(features); i++) {
		h->feat_ready[i] = true;
		if (features[i]->setup && (rc = features[i]->setup(h, &h->feat[i], e)) < 0)
			return rc;
	}
	return 0;
}

int
fws_host_features_prepare(struct fws_host *h, enum fws_prep_stage st, uint32_t mask,
			  volatile int *stop, struct fws_err *e)
{
	unsigned int i;
	int rc;

	for (i = 0; i < RTE_DIM(features); i++)
		if (features[i]->prepare &&
		    (rc = features[i]->prepare(h, h->feat[i], st, mask, stop, e)) < 0)
			return rc;
	return 0;
}

void
fws_host_features_on(struct fws_host *h, enum fws_feature_event ev, uint64_t now)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(features); i++)
		if (features[i]->on[ev])
			features[i]->on[ev](h, h->feat[i], h->cur, now);
}

void
fws_host_features_after(struct fws_host *h, struct fws_agent_counts *c)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(features); i++)
		if (features[i]->after)
			features[i]->after(h, h->feat[i], c);
}

void
fws_host_features_destroy(struct fws_host *h)
{
	unsigned int i;

	for (i = RTE_DIM(features); i-- > 0;) {
		if (h->feat_ready[i] && features[i]->destroy)
			features[i]->destroy(h, h->feat[i]);
		h->feat[i] = NULL;
		h->feat_ready[i] = false;
	}
}
