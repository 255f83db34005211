/* SPDX-License-Identifier: BSD-3-Clause */
/* Path check: before any load, each stream alone at a low rate must arrive on its receive
 * port and nowhere else. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fws_compat.h"
#include "fws_trial_int.h"

#define PROBE_FRAMES 50
#define PROBE_PPS 200
#define PROBE_SECONDS 1.0 /* at most: 50 frames at 200 fps take 0.25 s */
#define PROBE_DRAIN 0.5

/* What the probe of stream s saw; where lists the ports it arrived on instead. */
static void
observe(const struct fws_result *res, unsigned int s, struct fws_path_result *pa, char *where,
	size_t wlen)
{
	size_t used = 0;
	unsigned int p;

	pa->sent = res->streams[s].rx.tx;
	pa->received = res->streams[s].rx.unique;
	where[0] = '\0';
	for (p = 0; p < res->n_ports; p++) {
		pa->wrong_port += res->ports[p].rx.wrong_port;
		pa->icmp_errors += res->ports[p].rx.icmp_errors;
		if (res->ports[p].rx.wrong_port && used < wlen)
			used += (size_t)snprintf(where + used, wlen - used, "%s%s",
						 used ? ", " : "", res->ports[p].name);
	}
	pa->ok = pa->received > 0 && pa->wrong_port == 0;
}

static int
failure(const struct fws_cfg *cfg, unsigned int s, const struct fws_path_result *pa,
	const char *where, struct fws_err *e)
{
	const struct fws_cfg_stream *cs = &cfg->streams[s];
	char *m = e->msg, from[FWS_CFG_SENDERS_NAME_LEN];
	size_t len = sizeof(e->msg), used;

	e->kind = FWS_ERR_PATH;
	used = (size_t)snprintf(m, len,
				"path check: stream %s (%s -> %s): %" PRIu64 " of %" PRIu64
				" probe frames arrived at %s",
				cs->name, fws_cfg_senders_name(cfg, cs, from, sizeof(from)),
				cfg->ports[cs->rx_port].name, pa->received, pa->sent,
				cfg->ports[cs->rx_port].name);
	if (pa->wrong_port && used < len)
		used += (size_t)snprintf(m + used, len - used,
					 "; %" PRIu64 " arrived on port %s instead", pa->wrong_port,
					 where);
	if (pa->icmp_errors && used < len)
		used += (size_t)snprintf(m + used, len - used,
					 "; the DUT answered with %" PRIu64
					 " ICMP errors (unreachable or TTL exceeded)",
					 pa->icmp_errors);
	if (!pa->wrong_port && !pa->icmp_errors && used < len)
		snprintf(m + used, len - used,
			 " within %.1f s; no load was sent (check routes, gateway and cabling)",
			 PROBE_DRAIN);
	return -EHOSTUNREACH;
}

/* The frame-size entry with the smallest frames: the probes use it. */
static unsigned int
smallest(const struct fws_cfg *cfg)
{
	unsigned int s, z = 0;

	for (s = 1; s < cfg->n_sizes; s++)
		if (fws_size_min(&cfg->sizes[s]) < fws_size_min(&cfg->sizes[z]))
			z = s;
	return z;
}

int
fws_trial_path_check(struct fws_trial *t, const struct fws_trial_opts *o,
		     struct fws_path_result *paths, struct fws_err *e)
{
	const struct fws_cfg *cfg = t->cfg;
	struct fws_result *res = calloc(1, sizeof(*res));
	unsigned int s, z = smallest(cfg);
	char where[160];
	int rc = 0;

	if (res == NULL)
		return fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
	for (s = 0; s < cfg->n_streams && rc == 0; s++) {
		struct fws_probe pr = {.stream = s,
				       .frames = PROBE_FRAMES,
				       .pps = PROBE_PPS,
				       .duration = PROBE_SECONDS,
				       .drain = PROBE_DRAIN};
		struct fws_path_result *pa = &paths[s];
		uint32_t n_apart;

		fws_features_apart(t, s, &n_apart);
		if (n_apart == cfg->streams[s].flows.count) {
			memset(pa, 0, sizeof(*pa));
			strlcpy(pa->stream, cfg->streams[s].name, sizeof(pa->stream));
			pa->ok = pa->skipped = true;
			continue;
		}
		rc = fws_trial_run_streams(t, z, o, 1u << s, &pr, res, e);
		if (rc < 0)
			break;
		memset(pa, 0, sizeof(*pa));
		strlcpy(pa->stream, cfg->streams[s].name, sizeof(pa->stream));
		observe(res, s, pa, where, sizeof(where));
		fws_result_free(res);
		if (res->partial) {
			rc = fws_err_set(e, FWS_ERR_INTERRUPTED, -EINTR, "path check: interrupted");
			break;
		}
		if (!pa->ok)
			rc = failure(cfg, s, pa, where, e);
		else if (pa->received < pa->sent)
			FWS_LOG(WARNING,
				"path check: stream %s: %" PRIu64 " of %" PRIu64
				" probe frames arrived",
				cfg->streams[s].name, pa->received, pa->sent);
	}
	free(res);
	return rc;
}
