/* SPDX-License-Identifier: BSD-3-Clause */
#include <math.h>

#include "fws_nicclock.h"

/* tsc_per_tick as 32.32 fixed point; false outside (0, 2^31). */
static bool
rate_fp(double tsc_per_tick, uint64_t *mult)
{
	if (!(tsc_per_tick > 0) || !(tsc_per_tick < 2147483648.0))
		return false;
	*mult = (uint64_t)llround(tsc_per_tick * 4294967296.0);
	return *mult != 0;
}

bool
fws_nicclock_init(struct fws_nicclock *c, uint64_t nic, uint64_t tsc, double tsc_per_tick)
{
	uint64_t mult;

	if (!rate_fp(tsc_per_tick, &mult))
		return false;
	c->nic0 = c->nic = nic;
	c->tsc0 = c->tsc = tsc;
	c->mult = mult;
	return true;
}

bool
fws_nicclock_anchor(struct fws_nicclock *c, uint64_t nic, uint64_t tsc, uint64_t hz)
{
	uint64_t mult;

	if ((int64_t)(nic - c->nic) < 0 || (int64_t)(tsc - c->tsc) < 0)
		return false;
	if ((double)(tsc - c->tsc0) >= (double)hz * FWS_NICCLOCK_MIN_BASE_S && nic != c->nic0 &&
	    rate_fp((double)(tsc - c->tsc0) / (double)(nic - c->nic0), &mult))
		c->mult = mult;
	c->nic = nic;
	c->tsc = tsc;
	return true;
}
