/* SPDX-License-Identifier: BSD-3-Clause */
/* Feature "icmp", its data (fd_icmp.h): every host's errors summed, JSON and text. */
#include <inttypes.h>

#include "fd_icmp.h"
#include "fws_util.h"

/* Whichever host the errors came to (the stream's sender, as a rule). */
static void
icmp_merge(void *result, const void *count, unsigned int roles)
{
	struct fws_icmp_tally *into = result;
	const struct fws_icmp_tally *o = count;
	unsigned int c;

	(void)roles;
	for (c = 0; c < FWS_ICMP_CLASSES_N; c++)
		into->n[c] += o->n[c];
	if (o->mtu_min)
		into->mtu_min = into->mtu_min ? FWS_MIN(into->mtu_min, o->mtu_min) : o->mtu_min;
	into->mtu_max = FWS_MAX(into->mtu_max, o->mtu_max);
}

/* ICMP errors from the path about the stream's packets, and the MTU they announced. */
static void
icmp_json(const void *result, json_t *stream)
{
	const struct fws_icmp_tally *y = result;
	json_t *o = json_object();
	unsigned int k;

	for (k = 0; k < FWS_ICMP_CLASSES_N; k++)
		json_object_set_new(o, fws_icmp_class_name((enum fws_icmp_class)k),
				    json_integer((json_int_t)y->n[k]));
	json_object_set_new(o, "path_mtu", y->mtu_min ? json_integer(y->mtu_min) : json_null());
	if (y->mtu_max != y->mtu_min)
		json_object_set_new(o, "path_mtu_max", json_integer(y->mtu_max));
	json_object_set_new(stream, "icmp", o);
}

/* A stream that drew any: the errors by class and the MTU announced. */
static void
icmp_text(FILE *f, const char *stream, const void *result)
{
	const struct fws_icmp_tally *y = result;
	uint64_t n = 0;
	unsigned int k;

	for (k = 0; k < FWS_ICMP_CLASSES_N; k++)
		n += y->n[k];
	if (n == 0)
		return;
	fprintf(f, "  icmp: %s:", stream);
	for (k = 0; k < FWS_ICMP_CLASSES_N; k++)
		if (y->n[k])
			fprintf(f, " %" PRIu64 " %s", y->n[k],
				fws_icmp_class_name((enum fws_icmp_class)k));
	if (y->mtu_min)
		fprintf(f, "; path MTU %u", y->mtu_min);
	fputc('\n', f);
}

static void
unmatched_merge(void *result, const void *count)
{
	((struct fws_icmp_trial *)result)->unmatched +=
		((const struct fws_icmp_trial *)count)->unmatched;
}

static void
unmatched_json(const void *result, json_t *trial)
{
	json_object_set_new(
		trial, "icmp_unmatched",
		json_integer((json_int_t)((const struct fws_icmp_trial *)result)->unmatched));
}

static void
unmatched_text(FILE *f, const void *result)
{
	const struct fws_icmp_trial *r = result;

	if (r->unmatched)
		fprintf(f, "  icmp: %" PRIu64 " errors about no stream of this trial\n",
			r->unmatched);
}

const struct fws_featdata fws_fd_icmp = {
	.name = "icmp",
	.count_size = sizeof(struct fws_icmp_tally),
	.result_size = sizeof(struct fws_icmp_tally),
	.merge = icmp_merge,
	.json = icmp_json,
	.text = icmp_text,
	.trial_count_size = sizeof(struct fws_icmp_trial),
	.trial_result_size = sizeof(struct fws_icmp_trial),
	.merge_trial = unmatched_merge,
	.json_trial = unmatched_json,
	.text_trial = unmatched_text,
};
