/* SPDX-License-Identifier: BSD-3-Clause */
/* Feature "nat", its data (fd_nat.h): JSON with the flow-by-flow list, text, the verdict. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_nat.h"

/* "a.b.c.d:port" of a tuple's source or destination (network order); for IPv6 (hi: the
 * upper 96 bits) "[addr]:port", as conntrack and ss write them. */
static void
endpoint(char *buf, size_t len, const uint8_t *hi, uint32_t addr_be, uint16_t port_be)
{
	uint32_t a = ntohl(addr_be);
	char ip[INET6_ADDRSTRLEN];
	uint8_t a6[16];

	if (hi == NULL) {
		snprintf(buf, len, "%u.%u.%u.%u:%u", a >> 24, (a >> 16) & 255, (a >> 8) & 255,
			 a & 255, ntohs(port_be));
		return;
	}
	memcpy(a6, hi, 12);
	memcpy(a6 + 12, &addr_be, 4);
	inet_ntop(AF_INET6, a6, ip, sizeof(ip));
	snprintf(buf, len, "[%s]:%u", ip, ntohs(port_be));
}

/* Flow by flow: [sent source, sent destination, arrived source, arrived destination]; the
 * arrived ones null for a flow never seen. */
static json_t *
nat_pairs_json(const struct fws_nat_result *n)
{
	const uint8_t *sh = n->ipv6 ? n->src6 : NULL, *dh = n->ipv6 ? n->dst6 : NULL;
	json_t *a = json_array();
	char b[4][64];
	uint32_t i;

	for (i = 0; i < n->n_pairs; i++) {
		const struct fws_nat_tuple *s = &n->pairs[2 * i], *r = &n->pairs[2 * i + 1];

		endpoint(b[0], sizeof(b[0]), sh, s->src, s->sport);
		endpoint(b[1], sizeof(b[1]), dh, s->dst, s->dport);
		endpoint(b[2], sizeof(b[2]), sh, r->src, r->sport);
		endpoint(b[3], sizeof(b[3]), dh, r->dst, r->dport);
		json_array_append_new(a, r->src || r->sport
						 ? json_pack("[s, s, s, s]", b[0], b[1], b[2], b[3])
						 : json_pack("[s, s, n, n]", b[0], b[1]));
	}
	return a;
}

/* What NAT did to the stream, and the verdict on what the config expected. */
static void
nat_json(const void *result, json_t *stream)
{
	const struct fws_nat_result *n = result;
	const struct fws_nat_sum *x = &n->sum;
	json_t *o;

	if (!n->observed || !n->active)
		return;
	o = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "flows_seen", (json_int_t)x->seen,
		      "flows_never_seen", (json_int_t)(x->flows - x->seen), "src_translated",
		      (json_int_t)x->src_translated, "dst_translated",
		      (json_int_t)x->dst_translated, "translation_changed", (json_int_t)x->changed,
		      "distinct_src_addresses", (json_int_t)x->distinct_src, "distinct_src_ports",
		      (json_int_t)x->distinct_sport, "mismatched", (json_int_t)x->mismatched);

	json_object_set_new(o, "src_port_range",
			    x->distinct_sport ? json_pack("[i, i]", x->sport_min, x->sport_max)
					      : json_null());
	if (n->has_learn) {
		json_object_set_new(o, "learned", json_integer(n->learned));
		json_object_set_new(o, "not_learned", json_integer(x->flows - n->learned));
	}
	if (n->pairs)
		json_object_set_new(o, "flows", nat_pairs_json(n));
	json_object_set_new(o, "expected", n->expected ? json_string(n->expect) : json_null());
	json_object_set_new(o, "ok", json_boolean(n->ok));
	if (!n->ok)
		json_object_set_new(o, "reason", json_string(n->reason));
	json_object_set_new(stream, "nat", o);
}

/* What NAT did, and whether it was expected. */
static void
nat_text(FILE *f, const char *stream, const void *result)
{
	const struct fws_nat_result *x = result;
	const struct fws_nat_sum *n = &x->sum;

	if (!x->observed || !x->active)
		return;
	fprintf(f,
		"  nat: %s: %u of %u flows seen, %u source-translated (%u addresses, %u "
		"ports",
		stream, n->seen, n->flows, n->src_translated, n->distinct_src, n->distinct_sport);
	if (n->distinct_sport)
		fprintf(f, " %u-%u", n->sport_min, n->sport_max);
	fprintf(f, "), %u destination-translated, %u changed mid-trial", n->dst_translated,
		n->changed);
	if (x->has_learn)
		fprintf(f, "; %u of %u flows learned", x->learned, n->flows);
	if (x->expected)
		fprintf(f, "; expected %s: %s%s", x->expect,
			x->ok ? "ok" : "FAILED: ", x->ok ? "" : x->reason);
	fputc('\n', f);
}

static bool
nat_failed(const void *result, char *buf, size_t len)
{
	const struct fws_nat_result *x = result;

	if (!x->observed || x->ok)
		return false;
	snprintf(buf, len, "NAT: %s", x->reason);
	return true;
}

static void
nat_release(void *result)
{
	struct fws_nat_result *x = result;

	free(x->pairs);
	x->pairs = NULL;
}

/* The senders' aimed flows: each host aims the flows it sends. */
static void
nat_merge(void *result, const void *count, unsigned int roles)
{
	struct fws_nat_result *r = result;
	const struct fws_nat_count *c = count;

	if (roles & FWS_FD_TX)
		r->learned += c->aimed;
}

const struct fws_featdata fws_fd_nat = {
	.name = "nat",
	.count_size = sizeof(struct fws_nat_count),
	.result_size = sizeof(struct fws_nat_result),
	.merge = nat_merge,
	.json = nat_json,
	.text = nat_text,
	.failed = nat_failed,
	.release = nat_release,
};
