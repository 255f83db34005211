/* SPDX-License-Identifier: BSD-3-Clause */
/* Feature "blocked", its data (fd_blocked.h): JSON, text and the expectation's verdict. */
#include <inttypes.h>
#include <stdio.h>

#include "fd_blocked.h"
#include "fws_util.h"

/* Flows the DUT should have blocked: what was sent to them and what leaked through. */
static void
blocked_json(const void *result, json_t *stream)
{
	const struct fws_fd_blocked *x = result;
	json_t *o;

	if (!x->flows || !x->active)
		return;
	o = json_pack("{s:I, s:I, s:I, s:I, s:f, s:b}", "flows", (json_int_t)x->flows, "sent",
		      (json_int_t)x->sent, "leaked", (json_int_t)x->leaked, "leaked_total",
		      (json_int_t)x->leaked_total, "blocked_pct",
		      x->sent ? 100.0 * (double)(x->sent - FWS_MIN(x->leaked, x->sent)) /
					(double)x->sent
			      : 100.0,
		      "ok", x->ok);
	if (!x->ok)
		json_object_set_new(o, "reason", json_string(x->reason));
	json_object_set_new(stream, "expected_blocked", o);
}

/* How many frames leaked. */
static void
blocked_text(FILE *f, const char *stream, const void *result)
{
	const struct fws_fd_blocked *x = result;

	if (!x->flows || !x->active)
		return;
	fprintf(f,
		"  blocked: %s: %u flows expected blocked, %" PRIu64 " frames sent to them, "
		"%" PRIu64 " leaked: %s%s\n",
		stream, x->flows, x->sent, x->leaked,
		x->ok ? "ok" : "FAILED: ", x->ok ? "" : x->reason);
}

static bool
blocked_failed(const void *result, char *buf, size_t len)
{
	const struct fws_fd_blocked *x = result;

	if (!x->flows || !x->active || x->ok)
		return false;
	snprintf(buf, len, "%s", x->reason);
	return true;
}

const struct fws_featdata fws_fd_blocked = {
	.name = "blocked",
	.result_size = sizeof(struct fws_fd_blocked),
	.json = blocked_json,
	.text = blocked_text,
	.failed = blocked_failed,
};

const struct fws_fd_blocked *
fws_fd_blocked_of(const struct fws_fd_layout *l, const void *area)
{
	static const struct fws_fd_blocked none;
	const struct fws_fd_blocked *x = fws_fd_result_c(l, &fws_fd_blocked, area);

	return x ? x : &none;
}
