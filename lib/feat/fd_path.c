/* SPDX-License-Identifier: BSD-3-Clause */
/* Feature "path", its data (fd_path.h): JSON and text. */
#include <stdio.h>

#include "fd_path.h"

static void
path_json(const void *result, json_t *stream)
{
	const struct fws_fd_path *x = result;

	if (x->link_frame > 0)
		json_object_set_new(stream, "tunnel",
				    json_pack("{s:f, s:f}", "link_frame_bytes", x->link_frame,
					      "line_share", x->link_share));
	if (x->reason[0])
		json_object_set_new(stream, "path_reason", json_string(x->reason));
}

/* Behind a tunnel its link's share; why the path carried nothing. */
static void
path_text(FILE *f, const char *stream, const void *result)
{
	const struct fws_fd_path *x = result;

	if (x->link_frame > 0)
		fprintf(f,
			"  tunnel: %s: %.1f bytes on the encrypted link per frame; the received "
			"rate needs %.2f %% of its line rate\n",
			stream, x->link_frame, x->link_share * 100);
	if (x->reason[0])
		fprintf(f, "  path: %s: %s\n", stream, x->reason);
}

const struct fws_featdata fws_fd_path = {
	.name = "path",
	.result_size = sizeof(struct fws_fd_path),
	.json = path_json,
	.text = path_text,
};
