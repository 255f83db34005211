/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a port's NIC offers for latency stamps, as probed at setup, and the method fwstress
 * uses on it. Every latency is taken from TSC stamps (the sender's in the frame, the receive
 * lcore's at the poll); a NIC's own clock is reported, not yet used (docs/guide/timestamps.md).
 */
#ifndef FWS_HWSTAMP_H
#define FWS_HWSTAMP_H

#include <stdbool.h>

/** The method, in a few words: the report's ports[].latency_method. */
#define FWS_LATENCY_METHOD "software TSC stamps"

/** Why that method on a NIC offering rx_all (RX timestamp offload: every received frame) and
 * ptp (IEEE 1588 timesync: a clock that latches PTP event frames only). */
static inline const char *
fws_hwstamp_why(bool rx_all, bool ptp)
{
	if (rx_all)
		return "the NIC can stamp every received frame (RX timestamp offload), which "
		       "fwstress does not use yet";
	if (ptp)
		return "the NIC's clock latches PTP event frames only (IEEE 1588 timesync), not "
		       "test frames";
	return "the NIC offers no hardware timestamps";
}

#endif
