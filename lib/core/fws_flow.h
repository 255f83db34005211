/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Flow enumeration: a flow index maps to one IPv4/UDP 5-tuple and back. The index is a
 * mixed-radix number whose digits, least significant first, are the offsets into the
 * source address, source port, destination address and destination port ranges. The
 * source address varies fastest, so consecutive flows spread over a DUT's RSS queues.
 */
#ifndef FWS_FLOW_H
#define FWS_FLOW_H

#include <stdbool.h>
#include <stdint.h>

/**
 * Address and port ranges (host byte order, inclusive) and how many flows to take. IPv6
 * ranges vary the low 32 bits of the addresses below a fixed upper 96 (src6, dst6).
 */
struct fws_flow_spec {
	uint32_t count;
	bool ipv6;
	uint8_t src6[12], dst6[12];
	uint32_t src_ip_lo, src_ip_hi;
	uint32_t dst_ip_lo, dst_ip_hi;
	uint16_t src_port_lo, src_port_hi;
	uint16_t dst_port_lo, dst_port_hi;
};

/** One flow's 5-tuple (protocol is UDP), host byte order. */
struct fws_flow_tuple {
	uint32_t src_ip, dst_ip;
	uint16_t src_port, dst_port;
};

/** Number of distinct tuples the ranges hold (0 when a range is inverted). */
uint64_t fws_flow_capacity(const struct fws_flow_spec *spec);

/** Tuple of flow index. Returns 0, or -EINVAL when index >= spec->count or ranges are bad. */
int fws_flow_tuple(const struct fws_flow_spec *spec, uint32_t index, struct fws_flow_tuple *t);

/** Inverse of fws_flow_tuple(). Returns 0, or -ENOENT when t is not one of the flows. */
int fws_flow_index(const struct fws_flow_spec *spec, const struct fws_flow_tuple *t,
		   uint32_t *index);

#endif /* FWS_FLOW_H */
