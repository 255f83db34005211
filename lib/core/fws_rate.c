/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fws_rate.h"

static const struct {
	const char *suffix;
	enum fws_rate_kind kind;
	double mult;
} units[] = {
	{"%", FWS_RATE_PERCENT, 1},  {"Mpps", FWS_RATE_PPS, 1e6},   {"kpps", FWS_RATE_PPS, 1e3},
	{"pps", FWS_RATE_PPS, 1},    {"Gbit/s", FWS_RATE_BPS, 1e9}, {"Gbit", FWS_RATE_BPS, 1e9},
	{"Gbps", FWS_RATE_BPS, 1e9}, {"Mbit/s", FWS_RATE_BPS, 1e6}, {"Mbit", FWS_RATE_BPS, 1e6},
	{"Mbps", FWS_RATE_BPS, 1e6}, {"kbit/s", FWS_RATE_BPS, 1e3}, {"kbit", FWS_RATE_BPS, 1e3},
	{"kbps", FWS_RATE_BPS, 1e3}, {"bit/s", FWS_RATE_BPS, 1},    {"bit", FWS_RATE_BPS, 1},
	{"bps", FWS_RATE_BPS, 1},
};

int
fws_rate_parse(const char *s, struct fws_rate *r)
{
	char *end;
	double v;
	unsigned int i;

	if (s == NULL)
		return -EINVAL;
	if (strcasecmp(s, "line") == 0 || strcasecmp(s, "max") == 0) {
		r->kind = strcasecmp(s, "max") == 0 ? FWS_RATE_MAX : FWS_RATE_LINE;
		r->value = 100;
		return 0;
	}
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v <= 0)
		return -EINVAL;
	while (*end == ' ')
		end++;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].suffix) != 0)
			continue;
		if (units[i].kind == FWS_RATE_PERCENT && v > 100)
			return -EINVAL;
		if ((units[i].kind == FWS_RATE_PPS && v * units[i].mult > FWS_RATE_MAX_PPS) ||
		    (units[i].kind == FWS_RATE_BPS && v * units[i].mult > FWS_RATE_MAX_BPS))
			return -ERANGE;
		r->kind = units[i].kind;
		r->value = v * units[i].mult;
		return 0;
	}
	return -EINVAL;
}

int
fws_rate_format(const struct fws_rate *r, char *buf, unsigned int len)
{
	switch (r->kind) {
	case FWS_RATE_LINE:
		return snprintf(buf, len, "line");
	case FWS_RATE_MAX:
		return snprintf(buf, len, "max");
	case FWS_RATE_PERCENT:
		return snprintf(buf, len, "%.10g%%", r->value);
	case FWS_RATE_PPS:
		return snprintf(buf, len, "%.10gpps", r->value);
	case FWS_RATE_BPS:
		return snprintf(buf, len, "%.10gbit", r->value);
	}
	return snprintf(buf, len, "?");
}

double
fws_rate_line_pps(uint64_t link_bps, double avg_frame)
{
	return (double)link_bps / ((avg_frame + FWS_RATE_L1_OVERHEAD) * 8.0);
}

double
fws_rate_bps(double pps, double avg_frame, enum fws_rate_layer layer)
{
	return pps * (avg_frame + (layer == FWS_RATE_L1 ? FWS_RATE_L1_OVERHEAD : 0)) * 8.0;
}

double
fws_rate_pps(const struct fws_rate *r, uint64_t link_bps, double avg_frame)
{
	double per_frame_bits;

	switch (r->kind) {
	case FWS_RATE_LINE:
	case FWS_RATE_MAX:
		return link_bps ? fws_rate_line_pps(link_bps, avg_frame) : 0;
	case FWS_RATE_PERCENT:
		if (link_bps == 0)
			return -1;
		return fws_rate_line_pps(link_bps, avg_frame) * r->value / 100.0;
	case FWS_RATE_PPS:
		return r->value;
	case FWS_RATE_BPS:
		per_frame_bits = fws_rate_bps(1, avg_frame, r->layer);
		return r->value / per_frame_bits;
	}
	return -1;
}

void
fws_pacer_init(struct fws_pacer *p, double pps, uint64_t hz, uint64_t now)
{
	p->t0 = now;
	p->sent = 0;
	p->behind = 0;
	p->fpc = pps > 0 && hz ? (uint64_t)(pps / (double)hz * 4294967296.0 + 0.5) : 0;
	if (pps > 0 && p->fpc == 0)
		p->fpc = 1;
}
