/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A report read back, and the files reports are written to (lib/cells): a report's "cells"
 * read strictly, as a config is read (report_read.c), the DUT timelines among them
 * (report_timeline.c), the difference of two configs (report_diff.c) and the atomic file
 * writes (report_file.c). With the matrix renderers (fws_matrix.h) this is what `fwstress
 * report` and `compare` need: core, config and jansson, no controller (lib/ctrl) and no
 * run's results. The run's report writers are lib/report's (fws_report.h).
 */
#ifndef FWS_CELLS_IO_H
#define FWS_CELLS_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "fws_cell.h"

/* The report read back (report_read.c): its "cells", strictly, as a config is read. */
/**
 * Read the "cells" of a report (JSON written by fwstress) for compare and the matrix
 * renderers. Returns 0, or -EINVAL/-ENOMEM/-errno with a one-line message naming the path.
 */
int fws_report_load_cells(const char *path, struct fws_cells *cells, char *err, size_t errlen);

/**
 * sweep --resume: the earlier report's "trials", "search" and "back_to_back" entries of the
 * sweep cells it completed (cells->done), each marked "carried". NULL with err on failure.
 */
struct json_t *fws_report_carried_json(const char *path, const struct fws_cells *cells, char *err,
				       size_t errlen);

/** The same from a buffer holding a report; path only names it in errors. */
int fws_report_parse_cells(const char *buf, size_t len, const char *path, struct fws_cells *cells,
			   char *err, size_t errlen);

/**
 * Whether section key of two configs (a report's "config" objects) differs, leaving out its
 * member ignore (NULL: none): if so, the path of the first place it does in at
 * ("streams[0].rate") and both values as short JSON text in a and b (vlen each; "null"
 * where absent).
 */
bool fws_report_config_diff(const struct json_t *was, const struct json_t *now, const char *key,
			    const char *ignore, char *at, size_t atlen, char *a, char *b,
			    size_t vlen);

/**
 * Whether a report can be written to path, checked before any load: 0, or -ENAMETOOLONG,
 * -EISDIR, -ENOENT/-ENOTDIR (no such directory), -EACCES/-EROFS (not writable).
 */
int fws_report_check_path(const char *path);

/** Write j as a report file holds it (indented, a final newline) and release it; NULL
 * (out of memory) gives -ENOMEM. 0 or -EIO. */
int fws_report_dump(FILE *f, json_t *j);

/** A report's trials with DUT telemetry into cells->timelines (report_timeline.c). */
void fws_report_read_timelines(const json_t *root, struct fws_cells *cells);

/**
 * Write path through a temporary file in its directory renamed over it (a device or FIFO is
 * written into): emit(f, arg) writes the content. 0 or -errno.
 */
int fws_report_write_atomic(const char *path, int (*emit)(FILE *f, const void *arg),
			    const void *arg);

#endif /* FWS_CELLS_IO_H */
