/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Small helpers of fwstress's own, without DPDK (rte_common.h's RTE_MIN, RTE_MAX, RTE_DIM,
 * RTE_STR, RTE_CACHE_LINE_SIZE): for the libraries that build without it (core, config,
 * feat, seam, cells, the controller and the report writers).
 */
#ifndef FWS_UTIL_H
#define FWS_UTIL_H

#define FWS_MIN(a, b)                                                                              \
	__extension__({                                                                            \
		__typeof__(a) _a = (a);                                                            \
		__typeof__(b) _b = (b);                                                            \
		_a < _b ? _a : _b;                                                                 \
	})
#define FWS_MAX(a, b)                                                                              \
	__extension__({                                                                            \
		__typeof__(a) _a = (a);                                                            \
		__typeof__(b) _b = (b);                                                            \
		_a > _b ? _a : _b;                                                                 \
	})
#define FWS_DIM(a) (sizeof(a) / sizeof((a)[0]))
/* A macro's value as a string: FWS_STR(FWS_X) is "3" where FWS_X is 3. */
#define FWS_STR_(x) #x
#define FWS_STR(x) FWS_STR_(x)
/* The cache line every x86 and most Arm cores have (DPDK's default RTE_CACHE_LINE_SIZE). */
#define FWS_CACHE_LINE 64

#endif /* FWS_UTIL_H */
