/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The results that cross the seam (fws_agent.h): what a host counted on a port and a
 * stream in one trial, and what it says about itself. Plain structures: a remote agent
 * sends their bytes as they are (fws_wire.h).
 */
#ifndef FWS_AGENT_TYPES_H
#define FWS_AGENT_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "fws_config.h"
#include "fws_counters.h"
#include "fws_featdata.h"
#include "fws_frame.h"

struct fws_port_result {
	char name[FWS_CFG_NAME_LEN];
	char device[FWS_CFG_PATH_LEN];
	char driver[64];
	char mac[24];
	uint32_t link_speed_mbps;
	bool link_up;
	bool hw_cksum;     /**< IPv4 and UDP checksums offloaded */
	bool hw_tcp_cksum; /**< IPv4 and TCP checksums offloaded */
	bool physical;     /**< on a hardware bus: the wire paces what is sent */
	struct fws_rx_counters rx;
	struct fws_tx_counters tx;
	struct fws_ctl_counters ctl; /**< control plane, since the start of the run */
	/* Since the start of the run, all phases: every frame (what the DUT's interface
	 * counters show too), and of those the control plane's (ARP, ND, echo). */
	uint64_t rx_total, tx_total;
	uint64_t rx_control_total, tx_control_total;
	/* The NIC's own counters over the trial (rte_eth_stats). */
	uint64_t nic_ipackets, nic_opackets, nic_ibytes, nic_obytes, nic_imissed, nic_ierrors,
		nic_oerrors, nic_rx_nombuf;
	/* Receive queues (one per receive lcore), RSS spreading flows over them or not (each
	 * queue's counts are the rxq feature's, lib/feat/fd_rxq.h). */
	uint16_t n_rxq;
	bool rss;
	/** The features' blocks of the port (lib/feat), filled by the host that owns it. */
	_Alignas(8) unsigned char fd[FWS_FD_PORT_BYTES];
};

/** One stream so far in the running phase (live: read while the lcores write). */
struct fws_live_stream {
	uint64_t tx_frames, tx_bytes; /**< sent in the phase (warm-up or measured) */
	uint64_t rx_frames;           /**< test frames received and accounted, measured phase */
	uint64_t lat_count, lat_sum, lat_min, lat_max; /**< ns, measured phase */
	/** Per second over the interval before, as the host that counted measured it (summed
	 * over hosts); tx_Bps: L2 bytes with the FCS. */
	double tx_pps, rx_pps, tx_Bps;
};

/** A load client as the report names it: who its agent is and where it ran. */
struct fws_host_info {
	char name[FWS_CFG_NAME_LEN]; /**< the config's host, "local" for this process */
	char via[256];               /**< how the controller reached it: its command */
	char hostname[64], kernel[96];
	char fwstress[32], dpdk[64];
	int proto[2];    /**< the control protocol it spoke (0.0: in process) */
	uint64_t tsc_hz; /**< its TSC rate calibrated at setup */
	uint64_t ports, tx_streams, rx_streams; /**< bit masks, as struct fws_agent's */
};

#endif /* FWS_AGENT_TYPES_H */
