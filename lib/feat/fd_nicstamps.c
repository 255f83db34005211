/* SPDX-License-Identifier: BSD-3-Clause */
/* Feature "nicstamps", its data (fd_nicstamps.h): a port's stamps in its facts' JSON and line. */
#include <stdio.h>

#include "fd_nicstamps.h"
#include "fws_hwstamp.h"

static void
nicstamps_json(const void *block, json_t *port)
{
	const struct fws_fd_nicstamps *x = block;

	if (!x->filled)
		return;
	json_object_set_new(port, "timestamps",
			    json_pack("{s:b, s:b, s:s, s:s}", "rx_offload", x->rx_all, "ptp",
				      x->ptp, "latency_method", fws_hwstamp_method(x->rx_used),
				      "why", fws_hwstamp_why(x->rx_all, x->ptp, x->rx_used)));
}

static void
nicstamps_text(FILE *f, const void *block)
{
	const struct fws_fd_nicstamps *x = block;

	if (x->filled && x->physical)
		fprintf(f, ", latency from %s (%s)", fws_hwstamp_method(x->rx_used),
			fws_hwstamp_why(x->rx_all, x->ptp, x->rx_used));
}

const struct fws_featdata fws_fd_nicstamps = {
	.name = "nicstamps",
	.port_size = sizeof(struct fws_fd_nicstamps),
	.json_port_facts = nicstamps_json,
	.text_port_facts = nicstamps_text,
};
