/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A measuring feature compiled only into a test (test_feature.c), written as
 * docs/dev/adding-a-feature.md says a new one is: its data (in lib/feat: fd_NAME.{c,h}; here
 * the data's half of this file, fws_fd_test, the weak slot of lib/feat/fws_feat.c's table),
 * its host hooks (lib/host/feat_NAME.c; here the other half, the weak fws_feature_test slot
 * of lib/host/fws_hostfeat.c's table), meson, and the report schema's page (not for a test's
 * keys). It counts, per stream and
 * receiving host, the frames its receive lcores took a latency of in the measured phase and
 * how many of its lcores received any; the controller adds the hosts' counts; the report
 * writes "probe" in the stream's JSON and a line of text. Nothing else names it.
 */
#include <inttypes.h>

#include "fws_host.h"

extern const struct fws_featdata fws_fd_test;

/* One host's counts of a stream, and the trial's: the same block. */
struct probe {
	uint64_t frames; /* latencies taken, over its receive lcores */
	uint32_t lcores; /* receive lcores that took any */
};

static void
probe_collect(struct fws_host *h, void *state, struct fws_agent_counts *c, uint64_t now)
{
	unsigned int s, k;

	(void)state;
	(void)now;
	for (s = 0; s < h->cfg->n_streams; s++) {
		struct probe *p = fws_host_block(h, &fws_fd_test, c, s);

		for (k = 0; k < h->n_rx; k++) {
			uint64_t n =
				h->rx[k]->streams[s].hist ? h->rx[k]->streams[s].hist->count : 0;

			p->frames += n;
			p->lcores += n > 0;
		}
	}
}

static void
probe_merge(void *result, const void *count, unsigned int roles)
{
	struct probe *r = result;
	const struct probe *c = count;

	if (roles & FWS_FD_RX) {
		r->frames += c->frames;
		r->lcores += c->lcores;
	}
}

static void
probe_json(const void *result, json_t *o)
{
	const struct probe *r = result;

	json_object_set_new(o, "probe",
			    json_pack("{s:I, s:I}", "frames", (json_int_t)r->frames, "lcores",
				      (json_int_t)r->lcores));
}

static void
probe_text(FILE *f, const char *stream, const void *result)
{
	const struct probe *r = result;

	fprintf(f, "  probe: %s: %" PRIu64 " frames on %u receive lcores\n", stream, r->frames,
		r->lcores);
}

const struct fws_featdata fws_fd_test = {
	.name = "probe",
	.count_size = sizeof(struct probe),
	.result_size = sizeof(struct probe),
	.merge = probe_merge,
	.json = probe_json,
	.text = probe_text,
};

const struct fws_host_feature fws_feature_test = {
	.name = "probe",
	.on = {[FWS_FEATURE_COLLECT] = probe_collect},
};
