/* SPDX-License-Identifier: BSD-3-Clause */
/* Feature "rxq", its data (fd_rxq.h): a port's receive queues in JSON and text. */
#include <inttypes.h>

#include "fd_rxq.h"
#include "fws_util.h"

/* Per receive queue: the frames its lcore received, and the NIC's own count (null where the
 * driver keeps none); only with several queues. */
static void
rxq_json(const void *block, json_t *port)
{
	const struct fws_fd_rxq *x = block;
	json_t *a;
	unsigned int q;

	if (x->n < 2)
		return;
	a = json_array();
	for (q = 0; q < x->n && q < FWS_FD_RXQ_MAX; q++)
		json_array_append_new(a,
				      json_pack("{s:i, s:I, s:o}", "queue", (int)q, "frames",
						(json_int_t)x->frames[q], "nic_frames",
						x->nic_counted ? json_integer((json_int_t)x->nic[q])
							       : json_null()));
	json_object_set_new(port, "rx_queues", a);
}

/* Several receive queues: what each received (the NIC's own count beside it where the driver
 * keeps one), and whether RSS spread the flows or the first queue got them all. */
static void
rxq_text(FILE *f, const char *port, const void *block)
{
	const struct fws_fd_rxq *x = block;
	uint64_t total = 0, most = 0;
	unsigned int q;

	if (x->n < 2)
		return;
	fprintf(f, "  port %-8s rx queues (%s):", port, x->rss ? "RSS" : "no RSS");
	for (q = 0; q < x->n && q < FWS_FD_RXQ_MAX; q++) {
		fprintf(f, " %u: %" PRIu64, q, x->frames[q]);
		if (x->nic_counted)
			fprintf(f, " (nic %" PRIu64 ")", x->nic[q]);
		total += x->frames[q];
		most = FWS_MAX(most, x->frames[q]);
	}
	if (x->rss && total >= 100 && most == total)
		fprintf(f, "; one queue received every frame: the device did not spread the flows");
	fputc('\n', f);
}

const struct fws_featdata fws_fd_rxq = {
	.name = "rxq",
	.port_size = sizeof(struct fws_fd_rxq),
	.json_port = rxq_json,
	.text_port = rxq_text,
};
