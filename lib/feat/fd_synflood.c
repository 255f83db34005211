/* SPDX-License-Identifier: BSD-3-Clause */
/* Feature "synflood", its data (fd_synflood.h): JSON and text. */
#include <inttypes.h>
#include <stdio.h>

#include "fd_synflood.h"

static void
synflood_json(const void *result, json_t *o)
{
	const struct fws_fd_synflood *x = result;

	if (!x->on)
		return;
	json_object_set_new(o, "syn_flood",
			    json_pack("{s:I, s:f, s:I, s:I, s:s}", "sent", (json_int_t)x->sent,
				      "pps", x->pps, "passed", (json_int_t)x->passed, "blocked",
				      (json_int_t)x->blocked, "note",
				      "SYNs from spoofed sources (RFC 3511 5.5): those that "
				      "passed the DUT arrived, the rest it blocked"));
}

static void
synflood_text(FILE *f, const char *stream, const void *result)
{
	const struct fws_fd_synflood *x = result;

	if (x->on && x->active)
		fprintf(f,
			"  syn flood: %s: %" PRIu64 " SYNs at %.0f/s from %u spoofed sources, "
			"%" PRIu64 " passed the DUT, %" PRIu64 " blocked\n",
			stream, x->sent, x->pps, x->sources, x->passed, x->blocked);
}

const struct fws_featdata fws_fd_synflood = {
	.name = "synflood",
	.result_size = sizeof(struct fws_fd_synflood),
	.json = synflood_json,
	.text = synflood_text,
};
