/* SPDX-License-Identifier: BSD-3-Clause */
#include "fws_pace.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <bsd/string.h>

void
fws_pace_start(struct fws_pace *p, unsigned int cells, double cell_min_s, double cell_s,
	       unsigned int cell_trials)
{
	memset(p, 0, sizeof(*p));
	p->cell_min_s = cell_min_s;
	p->cells = cells;
	p->cell_s = cell_s;
	p->cell_trials = cell_trials;
}

void
fws_pace_trial(struct fws_pace *p, const char *key, unsigned int trial, double now)
{
	if (p->begun && strcmp(p->key, key) == 0)
		return;
	if (p->begun)
		p->done_s += now - p->cell_t0;
	p->begun++;
	p->cell_t0 = now;
	p->trial0 = trial;
	strlcpy(p->key, key, sizeof(p->key));
}

double
fws_pace_left(const struct fws_pace *p, double now, bool least)
{
	unsigned int done = p->begun ? p->begun - 1 : 0;
	double per = done ? p->done_s / done : least ? p->cell_min_s : p->cell_s, cur = 0;
	unsigned int after = p->cells > p->begun ? p->cells - p->begun : 0;

	if (p->begun) {
		cur = per - (now - p->cell_t0);
		/* Longer than the cells before it: not over yet, and no sign of how long. */
		cur = cur > 0 ? cur : 0;
	} else {
		after = p->cells;
	}
	return cur + after * per;
}

unsigned int
fws_pace_trials(const struct fws_pace *p, unsigned int trial)
{
	unsigned int done = p->begun ? p->begun - 1 : 0,
		     left = p->cells > done ? p->cells - done : 0;
	double per = done ? (double)p->trial0 / done : p->cell_trials;
	unsigned int n = p->trial0 + (unsigned int)lround(left * per);

	return n > trial + 1 ? n : trial + 1;
}

char *
fws_pace_fmt(char *buf, size_t len, double s)
{
	long t = s > 0 ? lround(s) : 0;

	if (t >= 3600) {
		t = (t + 30) / 60; /* to the minute */
		snprintf(buf, len, "%ld h %02ld min", t / 60, t % 60);
	} else {
		snprintf(buf, len, "%ld min %02ld s", t / 60, t % 60);
	}
	return buf;
}
