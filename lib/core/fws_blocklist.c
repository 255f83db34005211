/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fws_blocklist.h"

/* The 128-bit key of an address: IPv4 as ::ffff:a.b.c.d. */
static unsigned __int128
key(const uint8_t *addr, bool v6)
{
	unsigned __int128 k = 0;
	unsigned int i;

	if (!v6)
		k = (unsigned __int128)0xffff << 32;
	for (i = 0; i < (v6 ? 16u : 4u); i++)
		k |= (unsigned __int128)addr[i] << (8 * ((v6 ? 15u : 3u) - i));
	return k;
}

int
fws_blocklist_add(struct fws_blocklist *bl, const uint8_t *addr, bool v6, unsigned int len)
{
	unsigned int host = (v6 ? 128u : 32u) - len;
	unsigned __int128 k = key(addr, v6), mask;

	if (len > (v6 ? 128u : 32u))
		return -EINVAL;
	mask = host == 128 ? ~(unsigned __int128)0 : (((unsigned __int128)1 << host) - 1);
	if (bl->n == bl->cap) {
		size_t cap = bl->cap ? bl->cap * 2 : 64;
		struct fws_brange *r = realloc(bl->r, cap * sizeof(*r));

		if (r == NULL)
			return -ENOMEM;
		bl->r = r;
		bl->cap = cap;
	}
	bl->r[bl->n].lo = k & ~mask;
	bl->r[bl->n].hi = k | mask;
	bl->n++;
	bl->entries++;
	if (v6)
		bl->v6++;
	else
		bl->v4++;
	return 0;
}

static int
cmp_range(const void *a, const void *b)
{
	const struct fws_brange *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

void
fws_blocklist_finish(struct fws_blocklist *bl)
{
	size_t i, k = 0;

	if (bl->n == 0)
		return;
	qsort(bl->r, bl->n, sizeof(*bl->r), cmp_range);
	for (i = 1; i < bl->n; i++) {
		if (bl->r[k].hi != ~(unsigned __int128)0 && bl->r[i].lo <= bl->r[k].hi + 1) {
			if (bl->r[i].hi > bl->r[k].hi)
				bl->r[k].hi = bl->r[i].hi;
		} else if (bl->r[k].hi == ~(unsigned __int128)0) {
			break; /* the last range covers everything above */
		} else {
			bl->r[++k] = bl->r[i];
		}
	}
	bl->n = k + 1;
}

bool
fws_blocklist_has(const struct fws_blocklist *bl, const uint8_t *addr, bool v6)
{
	unsigned __int128 k = key(addr, v6);
	size_t lo = 0, hi = bl->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (bl->r[mid].hi < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < bl->n && bl->r[lo].lo <= k;
}

void
fws_blocklist_free(struct fws_blocklist *bl)
{
	free(bl->r);
	memset(bl, 0, sizeof(*bl));
}
