/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Matrix renderers: the cells of a report laid out as a qualification lab publishes them
 * (rows: scenario, frame size and result kind; columns: throughput and DUT load per
 * direction), as Markdown, MediaWiki, CSV, and one self-contained HTML page with SVG charts
 * (throughput against frame size with the theoretical line-rate curve, RFC 2544 26.1, and
 * latency histograms). Theoretical maxima count 20 bytes of preamble and IFG per frame.
 * Notes are derived from the measurements: line rate reached, generator-limited, DUT CPU
 * above 95 %, frames that leaked where the DUT should block, inspection not proven.
 */
#ifndef FWS_MATRIX_H
#define FWS_MATRIX_H

#include <stdio.h>

#include "fws_cell.h"

enum fws_matrix_format {
	FWS_MATRIX_MARKDOWN = 0,
	FWS_MATRIX_MEDIAWIKI,
	FWS_MATRIX_CSV,
	FWS_MATRIX_HTML,
};

/** Format by name ("md", "markdown", "wiki", "mediawiki", "csv", "html"), or -EINVAL. */
int fws_matrix_format(const char *name);

/**
 * Render the cells of n_sets reports, one per appliance: one report is the matrix of its
 * scenarios; several are laid side by side, a column group per appliance (its DUT name,
 * firmware and date). Returns 0, -ENOMEM or -EIO.
 */
int fws_matrix_render(FILE *f, const struct fws_cells *sets, unsigned int n_sets,
		      enum fws_matrix_format fmt);

/** The figures each direction shows unless report --columns says otherwise. */
#define FWS_MATRIX_COLUMNS "l1,mpps,iperf,loss,p99,cpu"

/** The same with the figures of each direction chosen ("l1,mpps,loss": of l1, mpps, iperf,
 * loss, p50, p99, cpu; NULL: FWS_MATRIX_COLUMNS). -EINVAL for a list
 * fws_matrix_columns refuses. */
int fws_matrix_render_columns(FILE *f, const struct fws_cells *sets, unsigned int n_sets,
			      enum fws_matrix_format fmt, const char *columns);

/**
 * The latency histograms of the cells of n_sets reports as a HdrHistogram log (format 1.3,
 * fws_hdr.h): a line per cell with a histogram, tagged with its key (after its appliance
 * when there are several). 0, or -errno with why in err: -ENODATA when no cell has a
 * histogram at 0.1 % (an older report's cells are named in a comment line, not exported).
 */
int fws_matrix_hdr(FILE *f, const struct fws_cells *sets, unsigned int n_sets, char *err,
		   size_t errlen);

/** A --columns list is one the renderer takes: 0, or -EINVAL with why in err. */
int fws_matrix_columns(const char *list, char *err, size_t errlen);

#endif /* FWS_MATRIX_H */
