/* SPDX-License-Identifier: BSD-3-Clause */
/* HdrHistogram's interchange format (fws_hdr.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fws_hdr.h"
#include "fws_hist.h"
#include "fws_text.h"

#define HDR_HEADER 40    /* cookie, length, offset, digits: 4 bytes each; 3 x 8 */
#define HDR_DIGITS 3     /* significant digits: 2^FWS_HIST_SUB_BITS sub-buckets per octave */
#define STORED_MAX 65535 /* a stored deflate block's most bytes */

int
fws_hdr_counts(const struct fws_cell_bucket *b, unsigned int n, uint64_t *counts)
{
	unsigned int i, k;

	memset(counts, 0, FWS_HIST_NB * sizeof(*counts));
	for (i = 0; i < n; i++) {
		k = fws_hist_index(b[i].lo);
		if (fws_hist_bucket_lo(k) != b[i].lo || fws_hist_bucket_width(k) != b[i].width)
			return -EINVAL;
		counts[k] += b[i].count;
	}
	return 0;
}

static uint8_t *
put_be(uint8_t *o, uint64_t v, unsigned int bytes)
{
	while (bytes--)
		*o++ = (uint8_t)(v >> (8 * bytes));
	return o;
}

/* ZigZag, then LEB128 in at most 9 bytes: the ninth holds the last 8 bits whole
 * (HdrHistogram's ZigZagEncoding). */
static uint8_t *
put_zigzag(uint8_t *o, int64_t v)
{
	uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
	unsigned int k;

	for (k = 0; k < 8; k++) {
		if (z < 0x80) {
			*o++ = (uint8_t)z;
			return o;
		}
		*o++ = (uint8_t)((z & 0x7f) | 0x80);
		z >>= 7;
	}
	*o++ = (uint8_t)z;
	return o;
}

size_t
fws_hdr_encode(const uint64_t *counts, uint8_t **out)
{
	unsigned int i, end = FWS_HIST_NB, j;
	uint64_t ratio_bits;
	double ratio = 1.0;
	uint8_t *d, *o;

	while (end > 0 && counts[end - 1] == 0)
		end--;
	if ((d = malloc(HDR_HEADER + (size_t)end * 9 + 1)) == NULL)
		return 0;
	memcpy(&ratio_bits, &ratio, sizeof(ratio_bits));
	o = put_be(d, FWS_HDR_COOKIE, 4);
	o += 4;                                            /* the payload's length, below */
	o = put_be(o, 0, 4);                               /* normalizing index offset */
	o = put_be(o, HDR_DIGITS, 4);                      /* significant digits */
	o = put_be(o, 1, 8);                               /* lowest discernible value, ns */
	o = put_be(o, (1ull << FWS_HIST_MAX_BITS) - 1, 8); /* highest trackable */
	o = put_be(o, ratio_bits, 8);                      /* integer to double ratio */
	for (i = 0; i < end;) {
		for (j = i; j < end && counts[j] == 0; j++)
			;
		if (j - i > 1) { /* a run of zeros: its length, negative */
			o = put_zigzag(o, -(int64_t)(j - i));
			i = j;
		} else {
			o = put_zigzag(o, (int64_t)counts[i++]);
		}
	}
	put_be(d + 4, (uint64_t)(o - d - HDR_HEADER), 4);
	*out = d;
	return (size_t)(o - d);
}

static uint32_t
adler32(const uint8_t *s, size_t n)
{
	uint32_t a = 1, b = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		a = (a + s[i]) % 65521;
		b = (b + a) % 65521;
	}
	return b << 16 | a;
}

/* A zlib stream (RFC 1950) of stored deflate blocks (RFC 1951 3.2.4) holding s. */
static size_t
zlib_stored(const uint8_t *s, size_t n, uint8_t *d)
{
	uint8_t *o = d;
	size_t off = 0, len;

	*o++ = 0x78; /* deflate, 32 KiB window */
	*o++ = 0x01; /* no dictionary, check bits */
	do {
		len = n - off > STORED_MAX ? STORED_MAX : n - off;
		*o++ = off + len == n; /* BFINAL, BTYPE 00 */
		*o++ = (uint8_t)len;
		*o++ = (uint8_t)(len >> 8);
		*o++ = (uint8_t)~len;
		*o++ = (uint8_t)(~len >> 8);
		memcpy(o, s + off, len);
		o += len;
		off += len;
	} while (off < n);
	o = put_be(o, adler32(s, n), 4);
	return (size_t)(o - d);
}

char *
fws_hdr_base64(const uint64_t *counts)
{
	uint8_t *enc, *c;
	size_t n = fws_hdr_encode(counts, &enc), m;
	char *s;

	if (n == 0)
		return NULL;
	/* cookie, length, then zlib: 2 bytes, 5 per block, 4 of check */
	if ((c = malloc(8 + 2 + (n / STORED_MAX + 1) * 5 + n + 4)) == NULL) {
		free(enc);
		return NULL;
	}
	m = zlib_stored(enc, n, c + 8);
	put_be(c, FWS_HDR_COOKIE_COMPRESSED, 4);
	put_be(c + 4, m, 4);
	s = fws_base64(c, 8 + m);
	free(enc);
	free(c);
	return s;
}
