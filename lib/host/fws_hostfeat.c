/* SPDX-License-Identifier: BSD-3-Clause */
/* The table of host features (fws_host.h) and the loops the host calls them through. */
#include <errno.h>
#include <string.h>

#include "fws_feat.h"
#include "fws_host.h"

/* Each is defined in the file named after it. */
extern const struct fws_host_feature fws_feature_stamps;     /* feat_stamps.c */
extern const struct fws_host_feature fws_feature_reassembly; /* feat_reassembly.c */
extern const struct fws_host_feature fws_feature_icmp;       /* feat_icmp.c */
extern const struct fws_host_feature fws_feature_linkwatch;  /* feat_linkwatch.c */
extern const struct fws_host_feature fws_feature_nicstamps;  /* feat_nicstamps.c */
extern const struct fws_host_feature fws_feature_tcp;        /* feat_tcp.c */
extern const struct fws_host_feature fws_feature_rxq;        /* feat_rxq.c */
extern const struct fws_host_feature fws_feature_nataim;     /* feat_nataim.c */
/* A feature compiled only into a test (tests/integration/feat_probe.c), to prove that a new
 * one needs its files, its lines here and in lib/feat's table, meson and the report schema's
 * page, nothing else: weak, so absent (NULL, skipped) from fwstress itself. */
extern const struct fws_host_feature fws_feature_test __attribute__((weak));

/* In the order their hooks run. */
static const struct fws_host_feature *const features[] = {
	&fws_feature_stamps,     /* how frames were stamped, what that leaves uncertain */
	&fws_feature_reassembly, /* fragments of test packets */
	&fws_feature_icmp,       /* ICMP errors from the path, matched to streams */
	&fws_feature_linkwatch,  /* links down and up during a trial */
	&fws_feature_nicstamps,  /* the NIC's receive stamps on the TSC */
	&fws_feature_tcp,        /* TCP streams' connections */
	&fws_feature_rxq,        /* each port's receive queues */
	&fws_feature_nataim,     /* the flows aimed at learned translations */
	&fws_feature_test,       /* a test's (NULL in fwstress) */
};
_Static_assert(RTE_DIM(features) <= FWS_HOST_FEATURES_MAX, "FWS_HOST_FEATURES_MAX is too small");

/* Every feature f of the table (i its index), the test's slot skipped when empty. */
#define FOREACH_FEATURE(i, f)                                                                      \
	for ((i) = 0; (i) < RTE_DIM(features); (i)++)                                              \
		if (((f) = features[(i)]) != NULL)

int
fws_host_features_setup(struct fws_host *h, struct fws_err *e)
{
	const struct fws_host_feature *f;
	unsigned int i;
	int rc;

	memset(&h->fd, 0, sizeof(h->fd));
	if (fws_feat_layout(&h->fd) < 0)
		return fws_err_set(e, FWS_ERR_SETUP, -ENOSPC,
				   "setup: the features' count blocks exceed their areas");
	FOREACH_FEATURE(i, f)
	{
		h->feat_ready[i] = true;
		if (f->setup && (rc = f->setup(h, &h->feat[i], e)) < 0)
			return rc;
	}
	return 0;
}

int
fws_host_features_prepare(struct fws_host *h, enum fws_prep_stage st, uint32_t mask,
			  volatile int *stop, struct fws_err *e)
{
	const struct fws_host_feature *f;
	unsigned int i;
	int rc;

	FOREACH_FEATURE(i, f)
	{
		if (f->prepare && (rc = f->prepare(h, h->feat[i], st, mask, stop, e)) < 0)
			return rc;
	}
	return 0;
}

void
fws_host_features_on(struct fws_host *h, enum fws_feature_event ev, uint64_t now)
{
	const struct fws_host_feature *f;
	unsigned int i;

	FOREACH_FEATURE(i, f)
	{
		if (f->on[ev])
			f->on[ev](h, h->feat[i], h->cur, now);
	}
}

void
fws_host_features_after(struct fws_host *h, struct fws_agent_counts *c)
{
	const struct fws_host_feature *f;
	unsigned int i;

	FOREACH_FEATURE(i, f)
	{
		if (f->after)
			f->after(h, h->feat[i], c);
	}
}

void
fws_host_features_port_facts(const struct fws_host *h, unsigned int p, struct fws_port_result *out)
{
	const struct fws_host_feature *f;
	unsigned int i;

	FOREACH_FEATURE(i, f)
	{
		if (f->port_facts)
			f->port_facts(h, h->feat[i], p, out);
	}
}

void
fws_host_features_destroy(struct fws_host *h)
{
	unsigned int i;

	for (i = RTE_DIM(features); i-- > 0;) {
		if (h->feat_ready[i] && features[i]->destroy)
			features[i]->destroy(h, h->feat[i]); /* ready: not the empty slot */
		h->feat[i] = NULL;
		h->feat_ready[i] = false;
	}
}
