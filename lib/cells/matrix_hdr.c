/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The cells' latency as a HdrHistogram log (fws_matrix_hdr): one tagged line per cell with a
 * latency histogram, which HdrHistogram's own tools (HistogramLogProcessor, the Python and
 * Go readers, HdrHistogram's plotter) read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fws_compat.h"
#include "fws_hdr.h"
#include "fws_hist.h"
#include "fws_matrix.h"

/* What names report s in its cells' tags: its --label, else its DUT and firmware. */
static void
set_prefix(const struct fws_cells *set, char *buf, size_t len)
{
	if (set->label[0])
		snprintf(buf, len, "%s", set->label);
	else
		snprintf(buf, len, "%s%s%s", set->dut[0] ? set->dut : "report",
			 set->firmware[0] ? "@" : "", set->firmware);
}

/* A tag names a cell, as compare keys it ("scenario/kind/direction/stream/size"), after its
 * report when there are several (its place added where two would read the same: one tag
 * would merge them); a log's tag ends at a comma and holds no space. */
static void
cell_tag(const struct fws_cells *sets, unsigned int n_sets, unsigned int s,
	 const struct fws_cell *c, char *buf, size_t len)
{
	char key[256], me[160], other[160];
	bool same = false;
	unsigned int o;
	size_t i;

	fws_cell_key(c, key, sizeof(key));
	set_prefix(&sets[s], me, sizeof(me));
	for (o = 0; o < n_sets; o++) {
		set_prefix(&sets[o], other, sizeof(other));
		same |= o != s && !strcmp(me, other);
	}
	if (n_sets < 2)
		strlcpy(buf, key, len);
	else if (same)
		snprintf(buf, len, "%s(report%u)/%s", me, s + 1, key);
	else
		snprintf(buf, len, "%s/%s", me, key);
	for (i = 0; buf[i]; i++)
		if (buf[i] == ',' || buf[i] == ' ' || buf[i] == '\t' || buf[i] == '"')
			buf[i] = '_';
}

/* One cell's line: start 0, no interval length known (a cell is a trial, or repetitions
 * summed), its highest bucket's top in ms as the interval's max. */
static int
cell_line(FILE *f, const char *tag, const struct fws_cell *c, uint64_t *counts)
{
	const struct fws_cell_bucket *top = &c->hist[c->n_hist - 1];
	char *b64;

	if (fws_hdr_counts(c->hist, c->n_hist, counts) < 0) {
		fprintf(f,
			"#fwstress: not exported: %s: its buckets are not 0.1 %% wide (a report "
			"of schema 2.11 or older)\n",
			tag);
		return 0;
	}
	if ((b64 = fws_hdr_base64(counts)) == NULL)
		return -ENOMEM;
	fprintf(f, "Tag=%s,0.000,0.000,%.6f,%s\n", tag, (double)(top->lo + top->width - 1) / 1e6,
		b64);
	free(b64);
	return 1;
}

int
fws_matrix_hdr(FILE *f, const struct fws_cells *sets, unsigned int n_sets, char *err, size_t errlen)
{
	uint64_t *counts = malloc(FWS_HIST_NB * sizeof(*counts));
	unsigned int s, i, lines = 0;
	char tag[512];
	int rc = 0;

	if (counts == NULL) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	fprintf(f, "#[Histogram log format version 1.3]\n"
		   "#fwstress: latency in ns, one line per cell (Tag=scenario/kind/direction/"
		   "stream/frame size) with its repetitions summed\n");
	for (s = 0; s < n_sets; s++)
		fprintf(f, "#fwstress: report %u: %s%s%s, %s\n", s + 1,
			sets[s].dut[0] ? sets[s].dut : "no DUT name",
			sets[s].firmware[0] ? " " : "", sets[s].firmware,
			sets[s].tool[0] ? sets[s].tool : "tool not named");
	fprintf(f, "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
		   "\"Interval_Compressed_Histogram\"\n");
	for (s = 0; s < n_sets && rc >= 0; s++)
		for (i = 0; i < sets[s].n && rc >= 0; i++) {
			if (sets[s].c[i].n_hist == 0)
				continue;
			cell_tag(sets, n_sets, s, &sets[s].c[i], tag, sizeof(tag));
			if ((rc = cell_line(f, tag, &sets[s].c[i], counts)) > 0)
				lines++;
		}
	free(counts);
	if (rc < 0)
		snprintf(err, errlen, "out of memory");
	else if (lines == 0) {
		snprintf(err, errlen, "no cell with a 0.1 %% latency histogram in %s",
			 n_sets > 1 ? "these reports" : "this report");
		rc = -ENODATA;
	}
	return ferror(f) && rc >= 0 ? -EIO : rc < 0 ? rc : 0;
}
