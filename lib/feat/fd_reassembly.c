/* SPDX-License-Identifier: BSD-3-Clause */
/* Feature "reassembly", its data (fd_reassembly.h): merged, JSON and text. */
#include <inttypes.h>

#include "fd_reassembly.h"

/* Every receiving host's counts add up. */
static void
frag_merge(void *result, const void *count, unsigned int roles)
{
	struct fws_fd_frag *r = result;
	const struct fws_fd_frag *n = count;

	if (!(roles & FWS_FD_RX))
		return;
	r->reassembled += n->reassembled;
	r->given_up += n->given_up;
	r->refused += n->refused;
}

static void
frag_json(const void *result, json_t *o)
{
	const struct fws_fd_frag *r = result;
	json_t *rx = json_object_get(o, "received");

	json_object_set_new(rx, "reassembled", json_integer((json_int_t)r->reassembled));
	json_object_set_new(rx, "reassembly_given_up", json_integer((json_int_t)r->given_up));
	json_object_set_new(rx, "reassembly_refused", json_integer((json_int_t)r->refused));
}

static void
frag_text(FILE *f, const char *stream, const void *result)
{
	const struct fws_fd_frag *r = result;

	if (r->reassembled)
		fprintf(f,
			"  fragmented: %s: %" PRIu64 " test packets arrived in fragments "
			"(reassembled, counted once)\n",
			stream, r->reassembled);
	if (r->given_up)
		fprintf(f,
			"  fragmented: %s: reassembly gave up %" PRIu64
			" test packets whose first fragment came (the rest not within 1 s, more "
			"than 8, or overlapping): lost unless a copy arrived whole\n",
			stream, r->given_up);
	if (r->refused)
		fprintf(f,
			"  fragmented: %s: TESTER-LIMITED: %" PRIu64 " of those refused by the "
			"full reassembly table (4096 packets a receive lcore): their loss is the "
			"tester's, not the DUT's\n",
			stream, r->refused);
}

const struct fws_featdata fws_fd_reassembly = {
	.name = "reassembly",
	.count_size = sizeof(struct fws_fd_frag),
	.result_size = sizeof(struct fws_fd_frag),
	.merge = frag_merge,
	.json = frag_json,
	.text = frag_text,
};
