/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Rate math and pacing. Frame sizes include the FCS; L1 adds 20 bytes per frame (preamble,
 * start delimiter and inter-frame gap), so 64-byte frames at 10 Gbit/s are 14,880,952 fps.
 */
#ifndef FWS_RATE_H
#define FWS_RATE_H

#include <stdbool.h>
#include <stdint.h>

#define FWS_RATE_L1_OVERHEAD 20
/* The largest rates a config may ask for: far above any port (1.6 Tbit/s is 2.4 Gpps at 64
 * bytes), far below where the pacer's fixed point overflows. */
#define FWS_RATE_MAX_PPS 1e10
#define FWS_RATE_MAX_BPS 1e13

enum fws_rate_kind {
	FWS_RATE_LINE = 0, /**< the link's speed: a NIC paces itself, a virtual port with a
			    * reported speed is paced to it; without a speed, the generator's */
	FWS_RATE_PERCENT,  /**< percent of link speed */
	FWS_RATE_PPS,      /**< frames per second */
	FWS_RATE_BPS,      /**< bits per second at the layer given */
	FWS_RATE_MAX,      /**< unpaced, as fast as the generator (its share: of the link's) */
};

enum fws_rate_layer {
	FWS_RATE_L1 = 0, /**< bits on the wire incl. preamble and IFG */
	FWS_RATE_L2,     /**< bits of frames incl. FCS */
};

/** A requested rate. */
struct fws_rate {
	enum fws_rate_kind kind;
	enum fws_rate_layer layer;
	double value;
};

/**
 * Parse "line", "50%", "1.5Mpps", "800kpps", "1000pps", "9.5Gbit", "100Mbit", "64kbit",
 * "1000bit" (a "/s" suffix and "bps" are accepted for bit rates). Returns 0 or -EINVAL.
 */
int fws_rate_parse(const char *s, struct fws_rate *r);

/** Render a requested rate as parse accepts it (for the normalised config). */
int fws_rate_format(const struct fws_rate *r, char *buf, unsigned int len);

/** Frames per second that link_bps carries at the given average frame size (L1). */
double fws_rate_line_pps(uint64_t link_bps, double avg_frame);

/** Bits per second of pps frames of avg_frame bytes at layer. */
double fws_rate_bps(double pps, double avg_frame, enum fws_rate_layer layer);

/**
 * Frames per second requested by r for frames of avg_frame bytes on a link of link_bps
 * (0 when unknown). Returns 0 for "line" on a link of unknown speed, which means: as fast as
 * the generator goes; returns a negative value when r needs a link speed it does not have.
 */
double fws_rate_pps(const struct fws_rate *r, uint64_t link_bps, double avg_frame);

/** A TSC-deadline pacer: how many frames are due now. One writer. A generator that fell
 * behind (descheduled, a slow burst) catches up at full speed: behind is the most frames that
 * were due at once beyond a burst, the burst the DUT saw beyond the constant rate asked. */
struct fws_pacer {
	uint64_t t0;
	uint64_t sent;
	uint64_t fpc;    /**< frames per TSC cycle, 32.32 fixed point; 0 = unlimited */
	uint64_t behind; /**< the largest backlog seen, frames (0: never more than a burst) */
};

/** Start pacing pps frames per second (0 = unlimited) on a clock of hz, from now. */
void fws_pacer_init(struct fws_pacer *p, double pps, uint64_t hz, uint64_t now);

/** Frames due at now, at most max; call fws_pacer_sent() with what was actually sent. */
static inline uint32_t
fws_pacer_due(struct fws_pacer *p, uint64_t now, uint32_t max)
{
	uint64_t due;

	if (p->fpc == 0)
		return max;
	due = (uint64_t)(((unsigned __int128)(now - p->t0) * p->fpc) >> 32);
	if (due <= p->sent)
		return 0;
	due -= p->sent;
	if (due <= max)
		return (uint32_t)due;
	if (due > p->behind)
		p->behind = due;
	return max;
}

static inline void
fws_pacer_sent(struct fws_pacer *p, uint32_t n)
{
	p->sent += n;
}

#endif /* FWS_RATE_H */
