/* SPDX-License-Identifier: BSD-3-Clause */
/* The one place that includes libbsd; DPDK may define strlcpy itself. */
#ifndef FWS_COMPAT_H
#define FWS_COMPAT_H

#include <rte_string_fns.h>
#ifndef RTE_USE_LIBBSD
#include <bsd/string.h>
#endif
#include <bsd/stdlib.h>

#endif /* FWS_COMPAT_H */
