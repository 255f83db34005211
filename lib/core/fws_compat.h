/* SPDX-License-Identifier: BSD-3-Clause */
/* The one place that includes libbsd (strlcpy, strlcat, reallocarray's kin). Every DPDK line
 * fwstress builds against is built with libbsd too (RTE_USE_LIBBSD), so its
 * rte_string_fns.h declares the same functions and the two never clash. */
#ifndef FWS_COMPAT_H
#define FWS_COMPAT_H

#include <bsd/stdlib.h>
#include <bsd/string.h>

#endif /* FWS_COMPAT_H */
