/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fws_clock.h"

double
fws_clock_hz(const struct fws_clock_pair *a, const struct fws_clock_pair *b)
{
	if (b->ns <= a->ns || b->tsc <= a->tsc)
		return 0;
	return (double)(b->tsc - a->tsc) * 1e9 / (double)(b->ns - a->ns);
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
