/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Connection tests (RFC 3511 5.2-5.4, RFC 9411 7.2 and 7.5): many short TCP connections, each
 * opened with a handshake, a request and a response of "data" bytes each way (one
 * transaction), then closed with FIN or held; over UDP (RFC 9693, NAT-only devices) a
 * request datagram and its response. The client side keeps 16 bytes per
 * connection; the server side keeps nothing: every server segment answers the segment it
 * received, to wherever that came from (through NAT: the translation), with numbers taken
 * from it, and its own initial sequence number is a hash of the connection. Segments are
 * matched to their connection by the timestamp token (fws_tcp.h); a RST without timestamps
 * (a DUT's reject) by the client's address and port.
 *
 * Pure logic: it is told the time and the segments that arrived, and hands the segments it
 * sends to an emit function. The run layer (fws_conntest) paces it and moves the frames;
 * unit tests connect client and server in memory and drop what they like.
 */
#ifndef FWS_CONN_H
#define FWS_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fws_connstat.h"
#include "fws_flow.h"
#include "fws_tcp.h"

struct fws_conn_params {
	enum fws_conn_test test;
	bool udp;          /**< RFC 9693's UDP variant: a connection is a request datagram and
			    * its response (no handshake, no close; teardown is TCP's only) */
	uint16_t data;     /**< bytes of the request and of the response; 0: none */
	uint8_t tries;     /**< sends of a SYN, request or FIN before the connection fails */
	uint32_t retry_us; /**< wait for an answer before sending again */
};

/** One set of connections (a stream): client i is flow i's source. */
struct fws_conn_set {
	struct fws_flow_spec flows;
	unsigned int client_port, server_port;
};

/** Where segments go: the engine fills addresses, numbers, flags and options. */
typedef void (*fws_conn_emit_fn)(void *arg, unsigned int set, bool from_server,
				 struct fws_tcp_seg *g);

/** The client's state of one connection: 16 bytes. */
struct fws_conn {
	uint8_t state;
	uint8_t tries;
	uint8_t fail; /**< enum fws_conn_fail */
	uint8_t retried;
	uint32_t srv_nxt; /**< the server's next sequence number as the client sees it */
	uint32_t t_first; /**< the first SYN, us since the trial began (wraps at 71 min) */
	uint32_t t_last;  /**< the last send it waits on */
};

struct fws_conns;

/**
 * New engine over n_sets sets (each at most 2^24 connections) with emit for the segments.
 * NULL with errno (EINVAL, ENOMEM).
 */
struct fws_conns *fws_conns_new(const struct fws_conn_params *p, const struct fws_conn_set *sets,
				unsigned int n_sets, fws_conn_emit_fn emit, void *arg);
void fws_conns_free(struct fws_conns *c);

/** A trial: every connection idle, new numbers (nonce: 3 bits of it name the trial), zero
 * statistics. Time is in microseconds since this call. */
void fws_conns_begin(struct fws_conns *c, uint32_t nonce);

/** Every connection of every set. */
uint64_t fws_conns_total(const struct fws_conns *c);

/** Open up to n more connections (SYN), in order. Returns how many. */
uint64_t fws_conns_open(struct fws_conns *c, uint64_t n, uint32_t now_us);

/** Close up to n more held connections (FIN), in order. Returns how many. */
uint64_t fws_conns_close(struct fws_conns *c, uint64_t n, uint32_t now_us);

/** RST up to n more attempted connections, in order (between iterations). Returns how
 * many; 0 when every one is done. */
uint64_t fws_conns_reset(struct fws_conns *c, uint64_t n);

/** A TCP segment that arrived on port (its frame parsed). */
void fws_conns_input(struct fws_conns *c, unsigned int port, const struct fws_tcp_info *ti,
		     uint32_t now_us);

/** A UDP datagram that arrived on port: its addresses and ports in ti, its payload. */
void fws_conns_input_udp(struct fws_conns *c, unsigned int port, const struct fws_tcp_info *ti,
			 const uint8_t *payload, uint32_t len, uint32_t now_us);

/** A received frame as a UDP datagram: its addresses (low 32 bits) and ports in ti, its
 * payload. 0, or -EINVAL when it is not one. */
int fws_conn_parse_udp(const uint8_t *frame, uint32_t len, struct fws_tcp_info *ti,
		       const uint8_t **payload, uint32_t *plen);

#define FWS_CONN_UDP_MAGIC 0x66777343u /**< "fwsC": a UDP connection's payload starts so */
#define FWS_CONN_UDP_MIN 8             /**< then its token: the smallest payload */

/** Send again what was not answered in time; fail what was sent too often. */
void fws_conns_timers(struct fws_conns *c, uint32_t now_us);

/** Connections waiting for an answer (SYN, request or FIN out). */
uint64_t fws_conns_waiting(const struct fws_conns *c);

const struct fws_conn_stats *fws_conns_stats(const struct fws_conns *c);

/** Bytes of state: per connection (the client's), and all in all now. */
size_t fws_conns_state_size(void);
size_t fws_conns_memory(const struct fws_conns *c);

#endif /* FWS_CONN_H */
