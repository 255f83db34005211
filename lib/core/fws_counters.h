/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Counters, defined once. Each list generates its struct, the names printed on the console
 * and in the text report, and the JSON keys, so they never disagree.
 */
#ifndef FWS_COUNTERS_H
#define FWS_COUNTERS_H

#include <stdint.h>

/* Per port, counted by the receive lcores. */
#define FWS_RX_COUNTERS(X)                                                                         \
	X(rx_frames, "frames received on the port")                                                \
	X(test_frames, "test frames of this trial, counted in their flow")                         \
	X(warmup_rx, "test frames sent during warm-up (not measured)")                             \
	X(stale_frames, "test frames of an earlier trial of this run (older cookie)")              \
	X(bad_signature, "signature magic but a check value that no cookie of this run gives")     \
	X(bad_stream, "verified signatures naming a stream or flow this run does not have")        \
	X(wrong_port, "test frames that arrived on a port other than their stream's")              \
	X(non_test, "frames without a signature (other traffic)")                                  \
	X(control, "ARP, echo and neighbour discovery frames, passed to the control plane")        \
	X(control_drop, "control frames dropped: the control plane's queue was full")              \
	X(fragments, "IPv4 and IPv6 fragments")                                                    \
	X(reassembled, "packets reassembled from fragments (then counted as any other)")           \
	X(frag_dropped, "fragments given up: never completed in 1 s, more than 8, or overlapping") \
	X(frag_refused, "of those, refused: the reassembly table (4096 packets) was full: the "    \
			"tester's limit")                                                          \
	X(icmp_errors, "ICMP errors (unreachable, time exceeded, parameter problem) from the DUT") \
	X(icmp_drop, "of those, not matched to a stream: the main lcore's ring was full")          \
	X(truncated, "frames whose headers claim more bytes than the frame has")                   \
	X(clock_skew, "test frames stamped later than they arrived (latency taken as 0)")          \
	X(nic_stamped, "test frames whose arrival the NIC stamped (RX timestamp offload)")

/* Per port, counted by the transmit lcores. */
#define FWS_TX_COUNTERS(X)                                                                         \
	X(tx_frames, "test frames sent in the measured phase")                                     \
	X(tx_bytes, "bytes of those frames incl. FCS")                                             \
	X(warmup_tx, "test frames sent during warm-up")                                            \
	X(warmup_tx_bytes, "bytes of those frames incl. FCS")                                      \
	X(tx_refused, "frames the transmit queue refused (not sent; sequence numbers reused)")     \
	X(alloc_fail, "bursts skipped because the transmit pool was empty")                        \
	X(tcp_window_full, "TCP segments held back: the receiver's window was full")

#define FWS_COUNTER_FIELD(name, desc) uint64_t name;

struct fws_rx_counters {
	FWS_RX_COUNTERS(FWS_COUNTER_FIELD)
};

struct fws_tx_counters {
	FWS_TX_COUNTERS(FWS_COUNTER_FIELD)
};

#define FWS_CTL_COUNTERS(X)                                                                        \
	X(arp_requests, "ARP requests for our addresses, answered")                                \
	X(arp_replies, "ARP replies received")                                                     \
	X(nd_solicits, "neighbour solicitations for our addresses, answered")                      \
	X(nd_adverts, "neighbour advertisements received")                                         \
	X(echo_requests, "ICMP and ICMPv6 echo requests to our addresses, answered")               \
	X(ignored, "control frames for other hosts, or of other types")                            \
	X(malformed, "control frames too short or inconsistent")                                   \
	X(idle_frames, "non-control frames received between trials")                               \
	X(sent,                                                                                    \
	  "control frames handed to a TX queue or a worker: replies, requests, announcements")     \
	X(send_fail, "control frames the transmit queue refused, or without an mbuf")              \
	X(tx_drop, "control frames queued for a worker's transmit queue that it refused")

struct fws_ctl_counters {
#define FWS_CTL_FIELD(name, desc) uint64_t name;
	FWS_CTL_COUNTERS(FWS_CTL_FIELD)
#undef FWS_CTL_FIELD
};

#endif /* FWS_COUNTERS_H */
