/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer: the report reader (report, compare, sweep --resume), compare on what it read, and
 * the HTML page drawn from it (its charts and DUT timelines). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fws_cell.h"
#include "fws_matrix.h"
#include "fws_config.h"
#include "fws_cells_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fws_cells cells;
	struct fws_cell_cmp *rows;
	unsigned int n;
	char err[600];

	if (fws_report_parse_cells((const char *)data, size, "fuzz", &cells, err, sizeof(err)) <
	    0) {
		if (strchr(err, '\n') || err[0] == '\0')
			abort();
		return 0;
	}
	FILE *html = fopen("/dev/null", "w");

	if (html == NULL || fws_matrix_render_columns(html, &cells, 1, FWS_MATRIX_HTML, NULL) < 0)
		abort();
	fclose(html);
	/* Repetitions as one cell each (report and compare read them so); only memory fails. */
	if (fws_cells_collapse(&cells) < 0)
		abort();
	if (fws_cell_compare(&cells, &cells, &(struct fws_cell_tolerance){0.03, 0.1}, &rows, &n) !=
		    0 ||
	    n != cells.n)
		abort(); /* a report against itself: nothing worse, every cell lined up */
	free(rows);
	fws_cells_free(&cells);
	return 0;
}
