/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <time.h>

#include <rte_cycles.h>

#include "fws_hostclock.h"

int
fws_clock_read(struct fws_clock_pair *p)
{
	uint64_t best = UINT64_MAX;
	unsigned int i;

	for (i = 0; i < 8; i++) {
		struct timespec ts;
		uint64_t t0 = rte_rdtsc_precise(), t1;

		if (clock_gettime(CLOCK_MONOTONIC_RAW, &ts) != 0)
			return -errno;
		t1 = rte_rdtsc_precise();
		if (t1 - t0 < best) {
			best = t1 - t0;
			p->tsc = t0 + (t1 - t0) / 2;
			p->ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
		}
	}
	return 0;
}

uint64_t
fws_clock_calibrate(unsigned int ms)
{
	struct fws_clock_pair a, b;
	struct timespec d = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};

	if (fws_clock_read(&a) < 0)
		return 0;
	while (nanosleep(&d, &d) != 0 && errno == EINTR)
		;
	if (fws_clock_read(&b) < 0)
		return 0;
	return (uint64_t)llround(fws_clock_hz(&a, &b));
}
