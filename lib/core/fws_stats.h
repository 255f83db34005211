/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The spread of a cell's repetitions (issue 36): n values of one figure (a throughput, a
 * latency percentile), their median, extremes, mean with its 95 % confidence interval
 * (Student's t for small n), coefficient of variation and, from 20 values on, the 1st and
 * 99th percentiles (RFC 8219's). Pure: the report reader computes it from the cells'
 * values, so that every figure is reproducible from the report (Python's statistics
 * module gives the same: tests/integration/test_repeat.sh checks).
 */
#ifndef FWS_STATS_H
#define FWS_STATS_H

#include <stdbool.h>

/** Repetitions of a cell, at most. */
#define FWS_STATS_MAX 1000

struct fws_stats {
	unsigned int n;
	double median; /**< statistics.median: the middle one, or the mean of the two */
	double min, max;
	double mean;
	double stdev;   /**< sample standard deviation (n - 1); 0 for one value */
	double ci95;    /**< half-width of the mean's 95 % interval: t(0.975, n - 1) s / sqrt(n) */
	double cov;     /**< stdev / mean, a fraction; 0 when the mean is 0 */
	bool has_pct;   /**< n >= 20: p1 and p99 are given */
	double p1, p99; /**< statistics.quantiles(method="inclusive") */
};

/** The statistics of v[0..n) (n >= 1; v is reordered). */
void fws_stats_of(double *v, unsigned int n, struct fws_stats *out);

/** Student's t at 0.975 for df degrees of freedom (df >= 1). */
double fws_stats_t975(unsigned int df);

/** Student's t one-sided 95 % quantile, t(0.95, df); infinity for df 0. */
double fws_stats_t95(unsigned int df);

#endif /* FWS_STATS_H */
