/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fws_compat.h"
#include "fws_size.h"
#include "fws_util.h"

static const uint16_t rfc6985_sizes[] = {64, 128, 256, 512, 1024, 1280, 1518, 2112, 9000};

void
fws_size_fixed(struct fws_size_mix *m, uint16_t size)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%u", size);
	m->n = 1;
	m->size[0] = size;
	m->weight[0] = 1;
}

void
fws_size_imix(struct fws_size_mix *m)
{
	memset(m, 0, sizeof(*m));
	strlcpy(m->name, "imix", sizeof(m->name));
	m->n = 3;
	m->size[0] = 64;
	m->weight[0] = 7;
	m->size[1] = 570;
	m->weight[1] = 4;
	m->size[2] = 1518;
	m->weight[2] = 1;
}

unsigned int
fws_size_seq_len(const struct fws_size_mix *m)
{
	unsigned int i, len = 0;

	for (i = 0; i < m->n; i++)
		len += m->weight[i];
	return len;
}

int
fws_size_sequence(const struct fws_size_mix *m, uint16_t *seq, unsigned int max)
{
	unsigned int total = fws_size_seq_len(m);
	int current[FWS_SIZE_MAX_ENTRIES] = {0};
	unsigned int k, i;

	if (m->n == 0 || m->n > FWS_SIZE_MAX_ENTRIES || total == 0 || total > max)
		return -EINVAL;
	/* Smooth weighted round robin (as nginx balances upstreams): evenly spread. */
	for (k = 0; k < total; k++) {
		unsigned int best = 0;

		for (i = 0; i < m->n; i++) {
			current[i] += m->weight[i];
			if (current[i] > current[best])
				best = i;
		}
		current[best] -= (int)total;
		seq[k] = m->size[best];
	}
	return (int)total;
}

double
fws_size_avg(const struct fws_size_mix *m)
{
	double sum = 0;
	unsigned int i, w = fws_size_seq_len(m);

	if (w == 0)
		return 0;
	for (i = 0; i < m->n; i++)
		sum += (double)m->size[i] * m->weight[i];
	return sum / w;
}

uint16_t
fws_size_min(const struct fws_size_mix *m)
{
	uint16_t v = UINT16_MAX;
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if (m->size[i] < v)
			v = m->size[i];
	return m->n ? v : 0;
}

uint16_t
fws_size_max(const struct fws_size_mix *m)
{
	uint16_t v = 0;
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if (m->size[i] > v)
			v = m->size[i];
	return v;
}

static char
letter_of(const struct fws_size_mix *m, uint16_t size)
{
	unsigned int i, custom = 0;

	for (i = 0; i < FWS_DIM(rfc6985_sizes); i++)
		if (rfc6985_sizes[i] == size)
			return (char)('a' + i);
	/* Custom letters in order of first appearance in the mix. */
	for (i = 0; i < m->n && m->size[i] != size; i++) {
		unsigned int j, std = 0;

		for (j = 0; j < FWS_DIM(rfc6985_sizes); j++)
			std |= rfc6985_sizes[j] == m->size[i];
		custom += !std;
	}
	return (char)('j' + custom);
}

int
fws_size_rfc6985(const struct fws_size_mix *m, char *buf, size_t len)
{
	uint16_t seq[FWS_SIZE_MAX_SEQ];
	char genome[FWS_SIZE_MAX_SEQ + 1];
	char legend[256] = "";
	size_t used = 0;
	int n, k;
	unsigned int i;

	n = fws_size_sequence(m, seq, FWS_SIZE_MAX_SEQ);
	if (n < 0)
		return snprintf(buf, len, "?");
	/* A fixed size is its own letter; "a" for 64 bytes. */
	for (k = 0; k < n; k++)
		genome[k] = letter_of(m, seq[k]);
	genome[n] = '\0';
	for (i = 0; i < m->n; i++) {
		char c = letter_of(m, m->size[i]);

		if (c >= 'j' && used < sizeof(legend))
			used += (size_t)snprintf(legend + used, sizeof(legend) - used, "%s%c=%u",
						 used ? " " : "", c, m->size[i]);
	}
	if (used)
		return snprintf(buf, len, "%s (%s)", genome, legend);
	return snprintf(buf, len, "%s", genome);
}
