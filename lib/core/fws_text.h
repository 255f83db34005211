/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Text from outside fwstress (an agent's hello, the stderr of a host's command, a report
 * another lab sent, sysfs names) on its way to a terminal, a text report or JSON: control
 * characters and bytes outside printable ASCII written as \xNN, the length bounded. An escape
 * sequence can then neither clear the tester's terminal nor fake a report line, and jansson
 * never refuses the string for bytes that are not UTF-8.
 */
#ifndef FWS_TEXT_H
#define FWS_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/** Whether byte c is printable ASCII (0x20-0x7e): what every reader of outside text keeps. */
static inline bool
fws_text_printable(unsigned char c)
{
	return c >= 0x20 && c < 0x7f;
}

/**
 * in (n bytes at most, or up to its NUL) into out (len bytes, NUL-terminated): printable ASCII
 * as is, every other byte as \xNN; what does not fit ends in "..." (with len >= 4). Returns
 * out. in may be NULL (read as "").
 */
char *fws_text_safe(char *out, size_t len, const char *in, size_t n);

/** In place: s (its size len) made safe as fws_text_safe makes it. */
void fws_text_clean(char *s, size_t len);

/** n bytes at p in base64 (RFC 4648, padded), malloc'd and NUL-terminated; NULL when out of
 * memory. */
char *fws_base64(const void *p, size_t n);

#endif /* FWS_TEXT_H */
