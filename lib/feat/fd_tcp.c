/* SPDX-License-Identifier: BSD-3-Clause */
/* Feature "tcp", its data (fd_tcp.h): every host's connections summed, JSON and text. */
#include <inttypes.h>

#include "fd_tcp.h"
#include "fws_util.h"

/* One host's connections into the trial's: each host counts its own end's (the client its
 * SYNs and preambles, the server what it received, the data sender the verdicts, ACKs back
 * and closes), so counts add; the times are the senders'. */
static void
tcp_merge(void *result, const void *count, unsigned int roles)
{
	struct fws_tcp_result *d = result;
	const struct fws_tcp_result *x = count;
	uint32_t n = d->established + x->established;

	(void)roles;
	if (!x->present)
		return;
	if (!d->present) {
		*d = *x;
		return;
	}
	if (x->established) {
		d->est_min_us =
			d->established ? FWS_MIN(d->est_min_us, x->est_min_us) : x->est_min_us;
		d->est_max_us = FWS_MAX(d->est_max_us, x->est_max_us);
		d->est_avg_us =
			(d->est_avg_us * d->established + x->est_avg_us * x->established) / n;
	}
	d->established = n;
	d->attempted = FWS_MAX(d->attempted, x->attempted);
	d->min_frame = FWS_MAX(d->min_frame, x->min_frame);
	d->failed_rst += x->failed_rst;
	d->failed_timeout += x->failed_timeout;
	d->closed += x->closed;
	d->preambles_sent += x->preambles_sent;
	d->preambles_received += x->preambles_received;
	d->acks_sent += x->acks_sent;
	d->acks_received += x->acks_received;
	d->rst_received += x->rst_received;
	d->window_full += x->window_full;
}

/* A TCP stream's connections: opened (or why not), closed, the ACK clock, the window. */
static void
tcp_json(const void *result, json_t *stream)
{
	const struct fws_tcp_result *c = result;
	json_t *o;

	if (!c->present)
		return;
	o = json_pack("{s:I, s:I, s:{s:I, s:I}, s:I, s:{s:f, s:f, s:f}, s:I, s:I, s:I, s:I, "
		      "s:I}",
		      "attempted", (json_int_t)c->attempted, "established",
		      (json_int_t)c->established, "failed", "rst", (json_int_t)c->failed_rst,
		      "timeout", (json_int_t)c->failed_timeout, "closed", (json_int_t)c->closed,
		      "handshake_us", "min", c->est_min_us, "avg", c->est_avg_us, "max",
		      c->est_max_us, "acks_sent", (json_int_t)c->acks_sent, "acks_received",
		      (json_int_t)c->acks_received, "rst_received", (json_int_t)c->rst_received,
		      "window_full", (json_int_t)c->window_full, "min_frame",
		      (json_int_t)c->min_frame);
	if (c->preambles_sent)
		json_object_set_new(o, "preambles",
				    json_pack("{s:I, s:I}", "sent", (json_int_t)c->preambles_sent,
					      "received", (json_int_t)c->preambles_received));
	json_object_set_new(stream, "tcp", o);
}

/* Connections opened, failed, closed. */
static void
tcp_text(FILE *f, const char *stream, const void *result)
{
	const struct fws_tcp_result *c = result;

	if (!c->present)
		return;
	fprintf(f,
		"  tcp: %s: %u of %u connections opened (%u reset, %u timed out; "
		"handshake %.0f/%.0f/%.0f us min/avg/max), %u closed with FIN; %" PRIu64
		" ACKs sent, %" PRIu64 " received, %" PRIu64 " RST, %" PRIu64
		" segments waited for the window; smallest TCP frame %u bytes",
		stream, c->established, c->attempted, c->failed_rst, c->failed_timeout,
		c->est_min_us, c->est_avg_us, c->est_max_us, c->closed, c->acks_sent,
		c->acks_received, c->rst_received, c->window_full, c->min_frame);
	if (c->preambles_sent)
		fprintf(f, "; %u of %u application preambles arrived", c->preambles_received,
			c->preambles_sent);
	fputc('\n', f);
}

const struct fws_featdata fws_fd_tcp = {
	.name = "tcp",
	.at = FWS_FD_AT_AFTER,
	.count_size = sizeof(struct fws_tcp_result),
	.result_size = sizeof(struct fws_tcp_result),
	.merge = tcp_merge,
	.json = tcp_json,
	.text = tcp_text,
};
