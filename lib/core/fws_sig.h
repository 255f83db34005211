/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Test-frame signature. It sits at the start of the L4 payload, so it survives NAT and
 * tunnels, and it fits the 18 payload bytes of a 64-byte IPv4/UDP frame:
 *
 *   0  u16 magic        FWS_SIG_MAGIC
 *   2  u8  version      FWS_SIG_VERSION
 *   3  u8  stream id
 *   4  u32 flow index (low 24 bits) | check bits 16..23 (high 8 bits)
 *   8  u32 sequence number of the frame within its flow (extended to 64 bits on receive)
 *  12  u32 TX timestamp: TSC >> FWS_SIG_TS_SHIFT
 *  16  u16 check bits 0..15
 *
 * The check is 24 bits of CRC32C over magic, version, stream, flow, sequence number and
 * timestamp, seeded with the 32-bit run cookie. All fields are little-endian. The cookie is
 * not on the wire: a frame verifies only against the cookie it was sent with, so a late frame
 * of an earlier trial is recognised by trying the earlier cookies (stale). Random payload has
 * to match the 16-bit magic, the version and the 24-bit keyed check at once (2^-48) to be
 * taken for ours; with magic and version right by accident, the check alone leaves 2^-24.
 */
#ifndef FWS_SIG_H
#define FWS_SIG_H

#include <stdint.h>
#include <string.h>

#include "fws_bytes.h"
#if defined(__SSE4_2__)
#include <nmmintrin.h>
#endif

#define FWS_SIG_LEN 18
#define FWS_SIG_MAGIC 0xf35a
#define FWS_SIG_VERSION 1
#define FWS_SIG_TS_SHIFT 2
#define FWS_SIG_MAX_FLOWS (1u << 24)
#define FWS_SIG_MAX_STREAMS 256

/** Decoded signature fields. */
struct fws_sig {
	uint8_t stream;
	uint32_t flow;
	uint32_t seq;
	uint32_t ts;
};

/** Verdict of fws_sig_parse(). */
enum fws_sig_verdict {
	FWS_SIG_NONE = 0, /**< not a signature (magic or version differ): a non-test frame */
	FWS_SIG_OK,       /**< verified against the cookie given */
	FWS_SIG_BADCHECK, /**< magic and version match, check does not: another cookie or damage */
};

/* The first 4 bytes as one little-endian word: magic, version, stream. */
/* CRC32C of 8 bytes (the crc32q instruction, or the same sum in software), as
 * rte_hash_crc_8byte computes it, without its EAL constructor: core needs no EAL. */
static inline uint32_t
sig_crc32c(uint64_t data, uint32_t crc)
{
#if defined(__SSE4_2__)
	return (uint32_t)_mm_crc32_u64(crc, data);
#else
	unsigned int i;

	crc ^= (uint32_t)data;
	for (i = 0; i < 32; i++)
		crc = (crc >> 1) ^ (0x82F63B78u & -(crc & 1));
	crc ^= (uint32_t)(data >> 32);
	for (i = 0; i < 32; i++)
		crc = (crc >> 1) ^ (0x82F63B78u & -(crc & 1));
	return crc;
#endif
}

static inline uint32_t
fws_sig_word0(uint8_t stream)
{
	return (uint32_t)FWS_SIG_MAGIC | (uint32_t)FWS_SIG_VERSION << 16 | (uint32_t)stream << 24;
}

/* The 24-bit check of a signature; flow must be below FWS_SIG_MAX_FLOWS. */
static inline uint32_t
fws_sig_check(uint32_t cookie, uint32_t w0, uint32_t flow, uint32_t seq, uint32_t ts)
{
	uint32_t c = sig_crc32c((uint64_t)flow << 32 | w0, cookie);

	c = sig_crc32c((uint64_t)ts << 32 | seq, c);
	return c & 0xffffff;
}

/* Word 1 on the wire: flow index and the check's top 8 bits. */
static inline uint32_t
fws_sig_word1(uint32_t flow, uint32_t check)
{
	return flow | (check >> 16) << 24;
}

/** Write a signature at p (FWS_SIG_LEN bytes, any alignment). Returns the check written. */
static inline uint32_t
fws_sig_write(void *p, uint32_t cookie, uint8_t stream, uint32_t flow, uint32_t seq, uint32_t ts)
{
	uint8_t *b = p;
	uint32_t w0 = fws_sig_word0(stream);
	uint32_t check = fws_sig_check(cookie, w0, flow & (FWS_SIG_MAX_FLOWS - 1), seq, ts);
	uint32_t w1 = fws_sig_word1(flow & (FWS_SIG_MAX_FLOWS - 1), check);
	uint32_t v;
	uint16_t c;

	v = fws_cpu_to_le32(w0);
	memcpy(b, &v, 4);
	v = fws_cpu_to_le32(w1);
	memcpy(b + 4, &v, 4);
	v = fws_cpu_to_le32(seq);
	memcpy(b + 8, &v, 4);
	v = fws_cpu_to_le32(ts);
	memcpy(b + 12, &v, 4);
	c = fws_cpu_to_le16((uint16_t)check);
	memcpy(b + 16, &c, 2);
	return check;
}

/**
 * Look at len bytes at p. Fills s (when the magic matches) and returns the verdict against
 * cookie. A payload shorter than FWS_SIG_LEN is never a signature.
 */
static inline enum fws_sig_verdict
fws_sig_parse(const void *p, uint32_t len, uint32_t cookie, struct fws_sig *s)
{
	const uint8_t *b = p;
	uint32_t w0, w1, seq, ts;
	uint16_t check;

	if (len < FWS_SIG_LEN)
		return FWS_SIG_NONE;
	memcpy(&w0, b, 4);
	w0 = fws_le32_to_cpu(w0);
	if ((w0 & 0xffffff) != ((uint32_t)FWS_SIG_MAGIC | (uint32_t)FWS_SIG_VERSION << 16))
		return FWS_SIG_NONE;
	memcpy(&w1, b + 4, 4);
	memcpy(&seq, b + 8, 4);
	memcpy(&ts, b + 12, 4);
	memcpy(&check, b + 16, 2);
	w1 = fws_le32_to_cpu(w1);
	s->stream = (uint8_t)(w0 >> 24);
	s->flow = w1 & (FWS_SIG_MAX_FLOWS - 1);
	s->seq = fws_le32_to_cpu(seq);
	s->ts = fws_le32_to_cpu(ts);
	if (((w1 >> 24) << 16 | fws_le16_to_cpu(check)) !=
	    fws_sig_check(cookie, w0, s->flow, s->seq, s->ts))
		return FWS_SIG_BADCHECK;
	return FWS_SIG_OK;
}

/** Re-check an already parsed signature against another cookie (stale-frame lookup). */
static inline int
fws_sig_matches(const void *p, uint32_t cookie)
{
	struct fws_sig s;

	return fws_sig_parse(p, FWS_SIG_LEN, cookie, &s) == FWS_SIG_OK;
}

#endif /* FWS_SIG_H */
