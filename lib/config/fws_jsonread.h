/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reading JSON as lib/config reads a config: a context that knows the raw buffer (for line
 * numbers) and the path of keys being read, so that every error is one line naming both
 * ("line 12: streams[1].rate: ..."). The report reader (lib/report/report_read.c) reads
 * reports with it too. The rest of lib/config's parsing helpers are its own (cfg_int.h).
 */
#ifndef FWS_JSONREAD_H
#define FWS_JSONREAD_H

#include <stddef.h>

#include <jansson.h>

/* Parse context: the raw buffer (for line numbers), the error sink and the current path. */
struct cfg_ctx {
	const char *buf;
	size_t len;
	char *err;
	size_t errlen;
	char path[256];
	const char *base; /**< directory of the config file: relative file names start there */
};

/** The error at the current path into c->err: -EINVAL. */
int cfg_fail(struct cfg_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** Replace control characters (line breaks, ESC) with '?'. */
void cfg_one_line(char *s);
/** Enter key (or index i) of the current path: the old path's length, for cfg_pop. */
size_t cfg_push_key(struct cfg_ctx *c, const char *key);
size_t cfg_push_idx(struct cfg_ctx *c, size_t i);
void cfg_pop(struct cfg_ctx *c, size_t old);
/** "a string", "an object", ... */
const char *cfg_type_name(const json_t *v);

/* Larger inputs are refused, not read until memory runs out (validate /dev/zero). */
#define FWS_CONFIG_MAX_BYTES (16u << 20)
#define FWS_REPORT_MAX_BYTES (1u << 30)

/*
 * Read a whole regular file (not a FIFO, device or directory) of at most max bytes into a
 * malloc'd buffer. what ("config", "report") starts the one-line error.
 */
int cfg_read_file(const char *path, size_t max, char **buf, size_t *len, char *err, size_t errlen,
		  const char *what);

#endif /* FWS_JSONREAD_H */
