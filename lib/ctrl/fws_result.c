/* SPDX-License-Identifier: BSD-3-Clause */
/* A trial's result (fws_trial.h): its kind's label, and freeing what it owns. */
#include <stdio.h>
#include <stdlib.h>

#include "fws_compat.h"
#include "fws_trial.h"
#include "fws_util.h"

static const char *const kind_names[] = {
#define KIND_NAME(n, s) [FWS_RESULT_##n] = s,
	FWS_RESULT_KINDS(KIND_NAME)
#undef KIND_NAME
};

void
fws_result_label(enum fws_result_kind kind, double lat_frac, char *buf, size_t len)
{
	if (kind == FWS_RESULT_LAT)
		snprintf(buf, len, "lat%.0f", lat_frac * 100);
	else
		snprintf(buf, len, "%s",
			 (unsigned int)kind < FWS_DIM(kind_names) ? kind_names[kind] : "?");
}

void
fws_result_free(struct fws_result *res)
{
	unsigned int s;

	for (s = 0; s < res->n_streams; s++) {
		free(res->streams[s].hist);
		res->streams[s].hist = NULL;
		fws_fd_release(&res->fd, res->streams[s].fd); /* what features' blocks own */
	}
	free(res->seconds);
	res->seconds = NULL;
	fws_fd_release_trial(&res->fd, res->fd_trial);
	res->n_seconds = res->cap_seconds = 0;
}
