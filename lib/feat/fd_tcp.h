/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Feature "tcp", its data: a TCP stream's connections in one trial (lib/host/feat_tcp.c
 * fills a host's block in the after call, once they closed; the trial's sums every host's).
 */
#ifndef FWS_FD_TCP_H
#define FWS_FD_TCP_H

#include <stdbool.h>
#include <stdint.h>

#include "fws_featdata.h"

struct fws_tcp_result {
	bool present;
	uint32_t attempted, established;
	uint32_t failed_rst, failed_timeout; /**< handshakes that did not complete, by reason */
	uint32_t closed;                     /**< FIN answered by FIN after the trial */
	uint32_t preambles_sent, preambles_received; /**< "app": ClientHello or request */
	uint32_t min_frame;                          /**< smallest frame that carries a signature */
	uint64_t acks_sent, acks_received, rst_received, window_full;
	double est_min_us, est_avg_us, est_max_us; /**< SYN to the sender's window opened */
};

extern const struct fws_featdata fws_fd_tcp;

#endif /* FWS_FD_TCP_H */
