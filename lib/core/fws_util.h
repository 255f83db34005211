/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Small helpers of fwstress's own, without DPDK (rte_common.h's RTE_MIN, RTE_MAX, RTE_DIM):
 * for the code that must build without it (lib/feat).
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

#endif /* FWS_UTIL_H */
