/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Steadiness within a trial (issue 36, RFC 9411's sustain criterion): the measured phase's
 * per-second rates, as the live line shows them, against a band around their mean. A
 * second whose receive rate leaves the band makes the trial unsteady, unless the senders
 * offered less than asked in it (a generator-limited second: the tester's dip, not the
 * DUT's). Pure: the report keeps the seconds, so every figure here is reproducible from it.
 */
#ifndef FWS_STEADY_H
#define FWS_STEADY_H

#include <stdbool.h>

/** The band by default: +/-5 % of the mean, as RFC 9411 7.1.2 reads. */
#define FWS_STEADY_BAND 0.05
/** A second offering less than this share of the asked rate is generator-limited. */
#define FWS_STEADY_OFFERED 0.99

/** One second of a measured phase: the senders' and receivers' rates over it. */
struct fws_second {
	double tx_pps, rx_pps;
};

struct fws_steady {
	unsigned int n;       /**< seconds measured (0: none, the trial was shorter) */
	double band;          /**< the band, a fraction of the mean */
	double mean_rx_pps;   /**< the seconds' mean receive rate */
	unsigned int worst;   /**< the second furthest from the mean, 1 first (0: none) */
	double worst_rx_pps;  /**< its receive rate */
	double worst_dev;     /**< its distance from the mean, a signed fraction of it */
	bool worst_limited;   /**< it was a generator-limited second */
	unsigned int outside; /**< seconds outside the band that the generator did not limit */
	unsigned int limited; /**< generator-limited seconds */
	bool unsteady;        /**< outside > 0 */
};

/**
 * The steadiness of n seconds s[] against band (a fraction, > 0). asked_pps: what the
 * senders were asked to offer in a second (0: unpaced, no second is generator-limited).
 */
void fws_steady_of(const struct fws_second *s, unsigned int n, double asked_pps, double band,
		   struct fws_steady *out);

#endif /* FWS_STEADY_H */
