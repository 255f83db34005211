/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
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
