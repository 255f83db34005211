/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fws_text.h"

/* How many characters byte c takes written safe: 1, or 4 as \xNN. */
static size_t
width(unsigned char c)
{
	return fws_text_printable(c) ? 1 : 4;
}

char *
fws_text_safe(char *out, size_t len, const char *in, size_t n)
{
	size_t i, k = 0, total = 0, limit;

	if (len == 0)
		return out;
	for (i = 0; in && i < n && in[i] != '\0'; i++)
		total += width((unsigned char)in[i]);
	/* All of it, or as much as leaves room for "..." (whole \xNN only). */
	limit = total < len || len < 4 ? len - 1 : len - 4;
	for (i = 0; in && i < n && in[i] != '\0'; i++) {
		unsigned char c = (unsigned char)in[i];

		if (k + width(c) > limit)
			break;
		if (width(c) == 1)
			out[k] = (char)c;
		else
			snprintf(out + k, 5, "\\x%02x", c);
		k += width(c);
	}
	if (total >= len && len >= 4)
		memcpy(out + k, "...", 3), k += 3;
	out[k] = '\0';
	return out;
}

void
fws_text_clean(char *s, size_t len)
{
	char tmp[len];

	fws_text_safe(tmp, len, s, len);
	memcpy(s, tmp, strlen(tmp) + 1);
}

char *
fws_base64(const void *p, size_t n)
{
	static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const uint8_t *s = p;
	char *out = malloc((n + 2) / 3 * 4 + 1), *o = out;
	size_t i;

	if (out == NULL)
		return NULL;
	for (i = 0; i < n; i += 3) {
		uint32_t x = (uint32_t)s[i] << 16 | (i + 1 < n ? (uint32_t)s[i + 1] << 8 : 0) |
			     (i + 2 < n ? s[i + 2] : 0);

		*o++ = t[x >> 18];
		*o++ = t[(x >> 12) & 63];
		*o++ = i + 1 < n ? t[(x >> 6) & 63] : '=';
		*o++ = i + 2 < n ? t[x & 63] : '=';
	}
	*o = '\0';
	return out;
}
