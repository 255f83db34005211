/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>

#include "fws_nat.h"
#include "fws_bytes.h"

static uint16_t
sat16(uint32_t v)
{
	return v > UINT16_MAX ? UINT16_MAX : (uint16_t)v;
}

void
fws_natobs_merge(struct fws_natobs *into, const struct fws_natobs *o)
{
	if (o->seen == 0)
		return;
	if (into->seen == 0) {
		*into = *o;
		return;
	}
	/* Two lcores saw the flow: a different last tuple is a change between them too. */
	into->changes = sat16((uint32_t)into->changes + o->changes +
			      !fws_nat_tuple_eq(&into->last, &o->last));
	into->seen = sat16((uint32_t)into->seen + o->seen);
	into->last = o->last;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Distinct values among the first n of v (sorted in place). */
static uint32_t
distinct(uint32_t *v, uint32_t n)
{
	uint32_t i, d = n ? 1 : 0;

	qsort(v, n, sizeof(*v), cmp_u32);
	for (i = 1; i < n; i++)
		d += v[i] != v[i - 1];
	return d;
}

int
fws_nat_summarize(const struct fws_natobs *obs, const struct fws_nat_tuple *sent,
		  const struct fws_nat_tuple *want, uint32_t n, uint32_t *scratch,
		  struct fws_nat_sum *sum)
{
	uint32_t i, k = 0;

	memset(sum, 0, sizeof(*sum));
	sum->flows = n;
	for (i = 0; i < n; i++) {
		const struct fws_nat_tuple *a = &obs[i].last;
		bool src_x;

		if (obs[i].seen == 0)
			continue;
		sum->seen++;
		src_x = a->src != sent[i].src || a->sport != sent[i].sport;
		sum->src_translated += src_x;
		sum->dst_translated += a->dst != sent[i].dst || a->dport != sent[i].dport;
		sum->changed += obs[i].changes != 0;
		sum->mismatched += want && !fws_nat_tuple_eq(a, &want[i]);
		if (!src_x)
			continue;
		scratch[k++] = a->src;
		if (k == 1 || fws_be16_to_cpu(a->sport) < sum->sport_min)
			sum->sport_min = fws_be16_to_cpu(a->sport);
		if (fws_be16_to_cpu(a->sport) > sum->sport_max)
			sum->sport_max = fws_be16_to_cpu(a->sport);
	}
	sum->distinct_src = distinct(scratch, k);
	for (i = 0, k = 0; i < n; i++)
		if (obs[i].seen &&
		    (obs[i].last.src != sent[i].src || obs[i].last.sport != sent[i].sport))
			scratch[k++] = obs[i].last.sport;
	sum->distinct_sport = distinct(scratch, k);
	return 0;
}
