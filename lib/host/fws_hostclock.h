/* SPDX-License-Identifier: BSD-3-Clause */
/* A host's TSC against the kernel's CLOCK_MONOTONIC_RAW (fws_clock.h): the readings, with DPDK's
 * rte_rdtsc_precise, the counter the workers stamp frames with. */
#ifndef FWS_HOSTCLOCK_H
#define FWS_HOSTCLOCK_H

#include <stdint.h>

#include "fws_clock.h"

/** Read a pair: of 8 tries, the one whose TSC reads lie closest around the clock. 0 or -errno. */
int fws_clock_read(struct fws_clock_pair *p);

/** The TSC rate measured over ms milliseconds (sleeping), rounded to 1 Hz; 0 on failure. */
uint64_t fws_clock_calibrate(unsigned int ms);

#endif /* FWS_HOSTCLOCK_H */
