/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TCP streams' connections (host feature "tcp", feat_tcp.c): their state, shared
 * with the segments they exchange (fws_tcps.c: build, send and answer SYN, SYN-ACK, ACK,
 * FIN and the application preamble). Internal to lib/host.
 */
#ifndef FWS_TCPS_H
#define FWS_TCPS_H

#include <stdbool.h>
#include <stdint.h>

#include "fd_tcp.h"
#include "fws_host.h"
#include "fws_tcp.h"

#define HANDSHAKE_S 3.0   /**< a handshake not done by then failed (timeout) */
#define SYN_RETRY_S 1.0   /**< a SYN again after this */
#define SYN_TRIES 3       /**< SYNs per connection at most */
#define MAX_OPENING 512u  /**< handshakes under way at once */
#define SYN_BATCH 256     /**< SYNs per pass of the open loop */
#define ACK_BUDGET 1024   /**< ACKs per pass of the main loop (the reply ring holds 2048) */
#define CLOSE_S 1.0       /**< no FIN answered this long after the last one sent: done */
#define CLOSE_RETRY_S 0.5 /**< a FIN again after this */

enum conn_state { C_IDLE = 0, C_SYN_SENT, C_OPEN, C_FAILED_RST, C_FAILED_TIMEOUT };

/* One connection: each side's own numbers, and the SYN as the server saw it. */
struct conn {
	uint8_t state;
	bool synack, windowed, closed, fin_sent, pre_seen;
	bool syn_seen;         /**< the server got its SYN (and answered) */
	uint8_t tries;         /**< SYNs sent */
	uint32_t c_isn, c_rcv; /**< client: its ISN, the server's ISN + 1 as it saw it */
	uint32_t s_isn, s_rcv; /**< server: its ISN, the client's ISN + 1 as it saw it */
	uint32_t s_src_be, s_dst_be;
	uint16_t s_sport_be, s_dport_be;
	uint32_t acked;         /**< the newest ACK the data receiver sent */
	uint32_t r_nxt;         /**< the receiver's next sequence number (its FIN's) */
	uint64_t t_syn, t_open; /**< the first SYN, the window opened */
	uint64_t t_try;         /**< the last SYN */
};

struct tcp_stream {
	struct conn *conn;
	uint32_t n;
	bool client_sends; /**< upload: the client is the data sender */
	uint8_t client_port, server_port;
	/** The ends this host plays (its ports; one host: all of them). The client sends the
	 * SYNs and preambles, the data sender takes the verdicts and closes. */
	bool is_client, is_server, is_sender;
	uint32_t next_ack; /**< round-robin position of the ACK pump */
	uint16_t pre_len;  /**< the application preamble every connection opens with */
	uint8_t pre[512];
	struct fws_tcp_result res;
};

/* The feature's state. */
struct fws_tcps {
	struct fws_host *t;
	uint32_t nonce;
	uint32_t active; /**< streams opened for the current trial */
	struct tcp_stream st[FWS_CFG_MAX_STREAMS];
	/* Per flow of a TCP or SYN stream: the data sender's state, which the transmit tasks'
	 * engine reads and writes (each task has its share: fws_tx_task.tcp). */
	struct fws_tcp_txflow *tx[FWS_CFG_MAX_STREAMS];
};

/** Whether stream s carries TCP connections (not a SYN flood). */
bool fws_tcps_is_tcp(const struct fws_cfg *cfg, unsigned int s);
/** The client of connection (s, i) sends its SYN (again). */
void fws_tcps_send_syn(struct fws_tcps *tc, unsigned int s, uint32_t i, uint64_t now);
/** A segment from the client, the data receiver (an ACK of ack) or the data sender. */
void fws_tcps_client_seg(struct fws_tcps *tc, unsigned int s, uint32_t i, struct fws_tcp_seg *g);
void fws_tcps_receiver_seg(struct fws_tcps *tc, unsigned int s, uint32_t i, uint8_t flags,
			   uint32_t ack);
void fws_tcps_sender_seg(struct fws_tcps *tc, unsigned int s, uint32_t i, struct fws_tcp_seg *g);
/** The data sender's state of connection (s, i) once it opened, up to limit. */
void fws_tcps_sender_init(struct fws_tcps *tc, unsigned int s, uint32_t i, uint32_t limit);
/** fws_ctlio's hook: every TCP segment without a signature that reached a port. */
void fws_tcps_input(void *arg, unsigned int port, struct rte_mbuf *m);

#endif /* FWS_TCPS_H */
