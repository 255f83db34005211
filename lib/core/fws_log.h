/* SPDX-License-Identifier: BSD-3-Clause */
/* One DPDK log type per module: define FWS_LOGTYPE before including this header and
 * register it once in the module with RTE_LOG_REGISTER(FWS_LOGTYPE, fws.<mod>, NOTICE). */
#ifndef FWS_LOG_H
#define FWS_LOG_H

#include <rte_log.h>

#define FWS_LOG(level, ...)                                                                        \
	rte_log(RTE_LOG_##level, FWS_LOGTYPE,                                                      \
		RTE_FMT("fwstress: " RTE_FMT_HEAD(__VA_ARGS__, ) "\n",                             \
			RTE_FMT_TAIL(__VA_ARGS__, )))

#endif /* FWS_LOG_H */
