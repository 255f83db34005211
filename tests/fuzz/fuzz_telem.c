/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer: a DUT telemetry snapshot as the DUT's shell prints it (fws_telem_parse), for
 * both platforms. Any input gives a snapshot whose metrics are in range or named missing in
 * one line; the second between it and the sample snapshot, and the summary and notes of
 * both, are finite percentages and counts.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fws_telem.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_raw(const struct fws_telem_raw *r)
{
	unsigned int m, i;

	for (m = 0; m < FWS_TELEM_N; m++)
		if (memchr(r->why[m], 0, sizeof(r->why[m])) == NULL || strchr(r->why[m], '\n'))
			abort();
	if (r->n_cpu > FWS_TELEM_CPUS || r->n_irq > FWS_TELEM_IRQS || r->n_if > FWS_TELEM_IFS)
		abort();
	for (i = 0; i < r->n_cpu; i++)
		if (r->busy[i] > r->total[i])
			abort();
	for (i = 0; i < r->n_irq; i++)
		if (memchr(r->irq[i].name, 0, sizeof(r->irq[i].name)) == NULL)
			abort();
	if (((r->have >> FWS_TELEM_MEM) & 1) && !(r->mem_used_pct >= 0 && r->mem_used_pct <= 100))
		abort();
}

static void
check_sum(struct fws_telem *tm)
{
	char notes[FWS_TELEM_NOTES][200];
	unsigned int n, i, c;

	fws_telem_summarize(tm);
	for (i = 0; i < tm->n; i++) {
		const struct fws_telem_sec *s = &tm->secs[i];

		if (!(s->cpu >= 0 && s->cpu <= 100.001) || !isfinite(s->irq_ps) || s->irq_ps < 0)
			abort();
		for (c = 0; c < s->n_cpu; c++) /* NAN: a core not in both snapshots */
			if (!isnan(s->core[c]) && !(s->core[c] >= 0 && s->core[c] <= 100.001))
				abort();
	}
	if (!(tm->sum.cpu_mean >= 0 && tm->sum.cpu_mean <= 100) || !isfinite(tm->sum.irq_mean))
		abort();
	for (c = 0; c < tm->sum.n_cpu; c++)
		if (!isnan(tm->sum.core_mean[c]) &&
		    !(tm->sum.core_mean[c] >= 0 && tm->sum.core_mean[c] <= 100))
			abort();
	if (tm->sum.drops > FWS_TELEM_COUNT_MAX)
		abort();
	n = fws_telem_notes(&tm->sum, notes);
	for (i = 0; i < n; i++)
		if (memchr(notes[i], 0, sizeof(notes[i])) == NULL)
			abort();
	fws_telem_free(tm);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fws_telem_raw *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct fws_telem *tm = calloc(1, sizeof(*tm));
	char *text = malloc(size + 1);
	int os;

	if (text == NULL || a == NULL || b == NULL || tm == NULL)
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';
	for (os = FWS_TELEM_OS_LINUX; os <= FWS_TELEM_OS_FREEBSD; os++) {
		fws_telem_parse(os, text, b);
		check_raw(b);
		/* Against itself shifted: once as the earlier snapshot, once as the later. */
		memset(tm, 0, sizeof(*tm));
		tm->os = os;
		fws_telem_saw(tm, b);
		if (fws_telem_add(tm, a, 0, b, 1, FWS_TELEM_MEASURE) < 0 ||
		    fws_telem_add(tm, b, 1, a, 2, (unsigned int)size) < 0)
			abort();
		check_sum(tm);
		*a = *b;
	}
out:
	free(text);
	free(a);
	free(b);
	free(tm);
	return 0;
}
