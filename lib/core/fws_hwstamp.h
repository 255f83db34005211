/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a port's NIC offers for latency stamps, as probed at setup, and the method fwstress
 * uses on it. The sender's stamp is always the TSC's (in the frame); the arrival is the NIC's
 * own stamp of the frame where the NIC stamps every received frame and its clock can be read
 * (RX timestamp offload, the clock mapped onto the TSC: fws_nicclock.h; a port's "rx_stamp":
 * "tsc" declines it), else the receive lcore's TSC at the poll (docs/guide/timestamps.md).
 */
#ifndef FWS_HWSTAMP_H
#define FWS_HWSTAMP_H

#include <stdbool.h>

/** The method, in a few words: the report's ports[].timestamps.latency_method. */
static inline const char *
fws_hwstamp_method(bool nic_rx)
{
	return nic_rx ? "NIC receive stamps on the TSC" : "software TSC stamps";
}

/** Why that method on a NIC offering rx_all (RX timestamp offload: every received frame) and
 * ptp (IEEE 1588 timesync: a clock that latches PTP event frames only); nic_rx: its receive
 * stamps are used. */
static inline const char *
fws_hwstamp_why(bool rx_all, bool ptp, bool nic_rx)
{
	if (nic_rx)
		return "the NIC stamps every received frame (RX timestamp offload), its clock "
		       "mapped onto the TSC at each trial's start and each second; untested on "
		       "hardware";
	if (rx_all)
		return "the NIC can stamp every received frame (RX timestamp offload), not used: "
		       "\"rx_stamp\": \"tsc\", or its clock could not be read (said at setup)";
	if (ptp)
		return "the NIC's clock latches PTP event frames only (IEEE 1588 timesync), not "
		       "test frames";
	return "the NIC offers no hardware timestamps";
}

#endif
