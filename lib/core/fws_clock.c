/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "fws_clock.h"

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

double
fws_clock_hz(const struct fws_clock_pair *a, const struct fws_clock_pair *b)
{
	if (b->ns <= a->ns || b->tsc <= a->tsc)
		return 0;
	return (double)(b->tsc - a->tsc) * 1e9 / (double)(b->ns - a->ns);
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

double
fws_clock_ppm(double a, double b)
{
	return b > 0 ? (a - b) / b * 1e6 : 0;
}

int
fws_affine_test_clock(const char *env, uint64_t hz, uint64_t now, struct fws_affine *a)
{
	double off_ns, ppm;
	char tail;

	memset(a, 0, sizeof(*a));
	if (env == NULL || *env == '\0')
		return 0;
	/* (NaN passes no comparison: each must be finite and in range, not just not out of
	 * it.) */
	if (sscanf(env, "%lf,%lf%c", &off_ns, &ppm, &tail) != 2 || !(fabs(off_ns) <= 1e12) ||
	    !(fabs(ppm) <= 1000))
		return -EINVAL;
	a->on = true;
	a->base = now;
	a->off = (int64_t)(off_ns * (double)hz / 1e9);
	a->q = (int64_t)(ppm * 4294.967296);
	return 0;
}
