/* SPDX-License-Identifier: BSD-3-Clause */
#include <math.h>
#include <string.h>

#include "fws_steady.h"

static bool
limited(const struct fws_second *s, double asked_pps)
{
	return asked_pps > 0 && s->tx_pps < FWS_STEADY_OFFERED * asked_pps;
}

void
fws_steady_of(const struct fws_second *s, unsigned int n, double asked_pps, double band,
	      struct fws_steady *out)
{
	double sum = 0, dev;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	out->band = band;
	out->n = n;
	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		sum += s[i].rx_pps;
	out->mean_rx_pps = sum / n;
	for (i = 0; i < n; i++) {
		dev = out->mean_rx_pps > 0 ? s[i].rx_pps / out->mean_rx_pps - 1 : 0;
		if (limited(&s[i], asked_pps))
			out->limited++;
		else if (fabs(dev) > band)
			out->outside++;
		if (out->worst == 0 || fabs(dev) > fabs(out->worst_dev)) {
			out->worst = i + 1;
			out->worst_dev = dev;
			out->worst_rx_pps = s[i].rx_pps;
			out->worst_limited = limited(&s[i], asked_pps);
		}
	}
	out->unsteady = out->outside > 0;
}
