/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A latency histogram in HdrHistogram's interchange format, so that other tools read a run's
 * latency: the V2 encoding (big-endian header, counts as ZigZag LEB128 with runs of zeros as
 * negative lengths) of a histogram at 3 significant digits, lowest discernible value 1 ns,
 * highest trackable 2^FWS_HIST_MAX_BITS - 1 ns, whose counts index is fws_hist.h's bucket
 * index; then its compressed form (a zlib stream, here of stored blocks: any inflater reads
 * it) in base64, as one line of a histogram log (".hlog", format 1.3) carries it.
 */
#ifndef FWS_HDR_H
#define FWS_HDR_H

#include <stddef.h>
#include <stdint.h>

#include "fws_cell.h"

/** The V2 encoding's cookies (the word-size nibble set as HdrHistogram's own writers set it). */
#define FWS_HDR_COOKIE 0x1c849313u
#define FWS_HDR_COOKIE_COMPRESSED 0x1c849314u

/**
 * counts (FWS_HIST_NB of them, by bucket index) from a cell's non-empty buckets: 0, or
 * -EINVAL when a bucket is not one of fws_hist.h's (a report of an older schema, whose
 * buckets were 3.1 % wide).
 */
int fws_hdr_counts(const struct fws_cell_bucket *b, unsigned int n, uint64_t *counts);

/** The V2 encoding of counts (FWS_HIST_NB) into a new buffer (*out, malloc'd): its length, or
 * 0 when out of memory. */
size_t fws_hdr_encode(const uint64_t *counts, uint8_t **out);

/** The compressed encoding of counts in base64 (malloc'd, NUL-terminated), or NULL when out
 * of memory. */
char *fws_hdr_base64(const uint64_t *counts);

#endif /* FWS_HDR_H */
