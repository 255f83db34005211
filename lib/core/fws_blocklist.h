/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A blocklist as a sorted array of disjoint address ranges (IPv4 as IPv4-mapped IPv6, so
 * one array holds both), looked up by binary search. It is consulted once per flow when a
 * trial is set up, never per frame. Parsing the DROP formats is config's (cfg_blocklist.c).
 */
#ifndef FWS_BLOCKLIST_H
#define FWS_BLOCKLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fws_brange {
	unsigned __int128 lo, hi;
};

struct fws_blocklist {
	struct fws_brange *r;
	size_t n, cap;
	size_t entries; /**< CIDRs added (before merging) */
	size_t v4, v6;  /**< of those, per family */
};

/** Add addr/len; addr is 4 bytes (IPv4, len <= 32) or 16 (IPv6). 0, or -ENOMEM/-EINVAL. */
int fws_blocklist_add(struct fws_blocklist *bl, const uint8_t *addr, bool v6, unsigned int len);

/** Sort and merge the ranges; call once after the last add, before any lookup. */
void fws_blocklist_finish(struct fws_blocklist *bl);

/** Whether the address (4 or 16 bytes, network order) is in the list. */
bool fws_blocklist_has(const struct fws_blocklist *bl, const uint8_t *addr, bool v6);

void fws_blocklist_free(struct fws_blocklist *bl);

#endif /* FWS_BLOCKLIST_H */
