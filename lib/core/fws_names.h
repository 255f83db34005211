/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Names a user types (config keys, subcommands, options): the one nearest to a typo, for a
 * "did you mean" that is one edit distance for every place that asks.
 */
#ifndef FWS_NAMES_H
#define FWS_NAMES_H

#include <stddef.h>

/** Edit distance of two short names (insertions, deletions, substitutions, swaps); 99 for
 * names of 40 characters or more. */
unsigned int fws_names_distance(const char *a, const char *b);

/** The name of names (n of them, or up to a NULL when n is 0) nearest to word, if near
 * enough to be a typo of it (at most 2 edits, and at most a third of the name); NULL: none. */
const char *fws_names_nearest(const char *word, const char *const *names, size_t n);

#endif /* FWS_NAMES_H */
