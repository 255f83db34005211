/* SPDX-License-Identifier: BSD-3-Clause */
/* Feature "links", its data (fd_links.h): every host's events, JSON and text. */
#include <inttypes.h>

#include "fd_links.h"

static void
links_merge(void *result, const void *count)
{
	struct fws_link_events *r = result;
	const struct fws_link_events *c = count;
	uint32_t i;

	r->dropped += c->dropped;
	for (i = 0; i < c->n && i < FWS_LINK_EVENTS_MAX; i++) {
		if (r->n == FWS_LINK_EVENTS_MAX) {
			r->dropped++;
			continue;
		}
		r->ev[r->n] = c->ev[i];
		r->ev[r->n++].port[FWS_CFG_NAME_LEN - 1] = '\0'; /* from another process */
	}
}

/* Links seen down during the trial: when, for how long, the frames sent meanwhile. */
static void
links_json(const void *result, json_t *trial)
{
	const struct fws_link_events *r = result;
	json_t *a = json_array();
	uint32_t i;

	for (i = 0; i < r->n; i++) {
		const struct fws_link_event *ev = &r->ev[i];
		json_t *o = json_pack("{s:s, s:f, s:I}", "port", ev->port, "down_s", ev->down_s,
				      "frames_sent_while_down", (json_int_t)ev->sent_down);

		json_object_set_new(o, "up_s", ev->up_s < 0 ? json_null() : json_real(ev->up_s));
		json_object_set_new(o, "down_for_s",
				    ev->up_s < 0 ? json_null() : json_real(ev->up_s - ev->down_s));
		json_array_append_new(a, o);
	}
	json_object_set_new(trial, "link_events", a);
	if (r->dropped)
		json_object_set_new(trial, "link_events_dropped",
				    json_integer((json_int_t)r->dropped));
}

static void
links_text(FILE *f, const void *result)
{
	const struct fws_link_events *r = result;
	uint32_t i;

	for (i = 0; i < r->n; i++) {
		const struct fws_link_event *ev = &r->ev[i];

		fprintf(f, "  LINK DOWN: port %s at %.3f s into the trial, ", ev->port, ev->down_s);
		if (ev->up_s < 0)
			fprintf(f, "still down at the end");
		else
			fprintf(f, "up again after %.3f s", ev->up_s - ev->down_s);
		fprintf(f, "; %" PRIu64 " test frames sent to or from it meanwhile\n",
			ev->sent_down);
	}
	if (r->dropped)
		fprintf(f, "  LINK DOWN: %" PRIu64 " more times (not listed)\n", r->dropped);
}

const struct fws_featdata fws_fd_links = {
	.name = "links",
	.trial_count_size = sizeof(struct fws_link_events),
	.trial_result_size = sizeof(struct fws_link_events),
	.merge_trial = links_merge,
	.json_trial = links_json,
	.text_trial = links_text,
};
