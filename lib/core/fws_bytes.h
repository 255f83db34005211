/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Byte order of fwstress's own, without DPDK (rte_byteorder.h's fws_cpu_to_be16 and kin):
 * the C library's <endian.h>, named for what the code means. A swap is its own inverse, so
 * to and from name the same operation; both exist so that a line says which way it reads.
 */
#ifndef FWS_BYTES_H
#define FWS_BYTES_H

#include <endian.h>
#include <stdint.h>

static inline uint16_t
fws_cpu_to_be16(uint16_t x)
{
	return htobe16(x);
}

static inline uint16_t
fws_be16_to_cpu(uint16_t x)
{
	return be16toh(x);
}

static inline uint32_t
fws_cpu_to_be32(uint32_t x)
{
	return htobe32(x);
}

static inline uint32_t
fws_be32_to_cpu(uint32_t x)
{
	return be32toh(x);
}

static inline uint16_t
fws_cpu_to_le16(uint16_t x)
{
	return htole16(x);
}

static inline uint16_t
fws_le16_to_cpu(uint16_t x)
{
	return le16toh(x);
}

static inline uint32_t
fws_cpu_to_le32(uint32_t x)
{
	return htole32(x);
}

static inline uint32_t
fws_le32_to_cpu(uint32_t x)
{
	return le32toh(x);
}

#endif /* FWS_BYTES_H */
