/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>

#include "fws_flow.h"

struct radix {
	uint64_t n[4];
};

static int
radix_of(const struct fws_flow_spec *s, struct radix *r)
{
	if (s->src_ip_hi < s->src_ip_lo || s->dst_ip_hi < s->dst_ip_lo ||
	    s->src_port_hi < s->src_port_lo || s->dst_port_hi < s->dst_port_lo)
		return -EINVAL;
	r->n[0] = (uint64_t)s->src_ip_hi - s->src_ip_lo + 1;
	r->n[1] = (uint64_t)s->src_port_hi - s->src_port_lo + 1;
	r->n[2] = (uint64_t)s->dst_ip_hi - s->dst_ip_lo + 1;
	r->n[3] = (uint64_t)s->dst_port_hi - s->dst_port_lo + 1;
	return 0;
}

uint64_t
fws_flow_capacity(const struct fws_flow_spec *spec)
{
	struct radix r;
	uint64_t cap = 1;
	int i;

	if (radix_of(spec, &r) < 0)
		return 0;
	for (i = 0; i < 4; i++) {
		/* Saturate: 2^32 * 2^16 * 2^32 * 2^16 does not fit 64 bits. */
		if (cap > UINT64_MAX / r.n[i])
			return UINT64_MAX;
		cap *= r.n[i];
	}
	return cap;
}

int
fws_flow_tuple(const struct fws_flow_spec *spec, uint32_t index, struct fws_flow_tuple *t)
{
	struct radix r;
	uint64_t v = index;
	uint64_t d[4];
	int i;

	if (radix_of(spec, &r) < 0 || index >= spec->count ||
	    (uint64_t)index >= fws_flow_capacity(spec))
		return -EINVAL;
	for (i = 0; i < 4; i++) {
		d[i] = v % r.n[i];
		v /= r.n[i];
	}
	t->src_ip = spec->src_ip_lo + (uint32_t)d[0];
	t->src_port = (uint16_t)(spec->src_port_lo + d[1]);
	t->dst_ip = spec->dst_ip_lo + (uint32_t)d[2];
	t->dst_port = (uint16_t)(spec->dst_port_lo + d[3]);
	return 0;
}

int
fws_flow_index(const struct fws_flow_spec *spec, const struct fws_flow_tuple *t, uint32_t *index)
{
	struct radix r;
	uint64_t d[4], v = 0;
	int i;

	if (radix_of(spec, &r) < 0)
		return -EINVAL;
	if (t->src_ip < spec->src_ip_lo || t->src_ip > spec->src_ip_hi ||
	    t->dst_ip < spec->dst_ip_lo || t->dst_ip > spec->dst_ip_hi ||
	    t->src_port < spec->src_port_lo || t->src_port > spec->src_port_hi ||
	    t->dst_port < spec->dst_port_lo || t->dst_port > spec->dst_port_hi)
		return -ENOENT;
	d[0] = t->src_ip - spec->src_ip_lo;
	d[1] = t->src_port - spec->src_port_lo;
	d[2] = t->dst_ip - spec->dst_ip_lo;
	d[3] = t->dst_port - spec->dst_port_lo;
	for (i = 3; i >= 0; i--) {
		if (v > (UINT64_MAX - d[i]) / r.n[i])
			return -ENOENT;
		v = v * r.n[i] + d[i];
	}
	if (v >= spec->count)
		return -ENOENT;
	*index = (uint32_t)v;
	return 0;
}
