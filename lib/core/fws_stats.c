/* SPDX-License-Identifier: BSD-3-Clause */
/* The spread of repetitions (fws_stats.h). */
#include <math.h>
#include <stdlib.h>

#include "fws_stats.h"

/* t(0.975, df) for df 1..30 (scipy.stats.t.ppf(0.975, df), 4 digits); above 30 the
 * Cornish-Fisher expansion around the normal's 1.95996 (within 1e-4 of it there). */
static const double t975[] = {
	0,      12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
	2.2010, 2.1788,  2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796,
	2.0739, 2.0687,  2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
};

/* A t quantile: from table for df below n, above by the Cornish-Fisher expansion around the
 * normal's z (within 1e-4 of it there). */
static double
t_quantile(const double *table, unsigned int n, double z, unsigned int df)
{
	const double z3 = z * z * z, z5 = z3 * z * z;
	double d = df;

	if (df == 0)
		return INFINITY;
	if (df < n)
		return table[df];
	return z + (z3 + z) / (4 * d) + (5 * z5 + 16 * z3 + 3 * z) / (96 * d * d);
}

double
fws_stats_t975(unsigned int df)
{
	return t_quantile(t975, sizeof(t975) / sizeof(t975[0]), 1.959964, df);
}

/* t(0.95, df) for df 1..30, the one-sided 95 % quantile (the same source and digits); above
 * 30 the same expansion around the normal's 1.64485. */
static const double t95[] = {
	0,      6.3138, 2.9200, 2.3534, 2.1318, 2.0150, 1.9432, 1.8946, 1.8595, 1.8331, 1.8125,
	1.7959, 1.7823, 1.7709, 1.7613, 1.7531, 1.7459, 1.7396, 1.7341, 1.7291, 1.7247, 1.7207,
	1.7171, 1.7139, 1.7109, 1.7081, 1.7056, 1.7033, 1.7011, 1.6991, 1.6973,
};

double
fws_stats_t95(unsigned int df)
{
	return t_quantile(t95, sizeof(t95) / sizeof(t95[0]), 1.644854, df);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Python's statistics.quantiles(v, n=100, method="inclusive")[k - 1]: the k-th percentile
 * by linear interpolation between the sorted values (positions 0..n-1). */
static double
percentile(const double *v, unsigned int n, unsigned int k)
{
	double pos = (double)(n - 1) * k / 100.0;
	unsigned int j = (unsigned int)pos;
	double delta = pos - j;

	return j + 1 < n ? v[j] + (v[j + 1] - v[j]) * delta : v[n - 1];
}

void
fws_stats_of(double *v, unsigned int n, struct fws_stats *out)
{
	double sum = 0, ss = 0;
	unsigned int i;

	*out = (struct fws_stats){.n = n};
	if (n == 0)
		return;
	qsort(v, n, sizeof(*v), cmp_double);
	out->min = v[0];
	out->max = v[n - 1];
	out->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	for (i = 0; i < n; i++)
		sum += v[i];
	out->mean = sum / n;
	for (i = 0; i < n; i++)
		ss += (v[i] - out->mean) * (v[i] - out->mean);
	out->stdev = n > 1 ? sqrt(ss / (n - 1)) : 0;
	out->ci95 = n > 1 ? fws_stats_t975(n - 1) * out->stdev / sqrt((double)n) : 0;
	out->cov = out->mean != 0 ? out->stdev / fabs(out->mean) : 0;
	if ((out->has_pct = n >= 20)) {
		out->p1 = percentile(v, n, 1);
		out->p99 = percentile(v, n, 99);
	}
}
