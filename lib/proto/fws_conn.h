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

#include "fws_flow.h"
#include "fws_hist.h"
#include "fws_tcp.h"

/** The tests: name, what is measured. */
#define FWS_CONN_TESTS(X)                                                                          \
	X(NONE, "", "")                                                                            \
	X(RATE, "rate", "highest connection establishment rate with every connection complete")    \
	X(CAPACITY, "capacity", "connections the DUT holds open at once")                          \
	X(TEARDOWN, "teardown", "highest rate at which held connections close")

enum fws_conn_test {
#define FWS_CONN_TEST_ENUM(n, s, d) FWS_CONN_##n,
	FWS_CONN_TESTS(FWS_CONN_TEST_ENUM)
#undef FWS_CONN_TEST_ENUM
};

/** Why a connection failed: what it waited for last. */
#define FWS_CONN_FAILS(X)                                                                          \
	X(NONE, "", "")                                                                            \
	X(RST, "rst", "reset (a RST from the DUT or the server)")                                  \
	X(SYN, "syn_timeout", "no SYN-ACK to any SYN")                                             \
	X(DATA, "data_lost", "the request or its response lost every time")                        \
	X(CLOSE, "close_timeout", "no FIN-ACK to any FIN")

enum fws_conn_fail {
#define FWS_CONN_FAIL_ENUM(n, s, d) FWS_CONN_FAIL_##n,
	FWS_CONN_FAILS(FWS_CONN_FAIL_ENUM)
#undef FWS_CONN_FAIL_ENUM
		FWS_CONN_FAIL_N
};

const char *fws_conn_test_name(enum fws_conn_test t);
const char *fws_conn_fail_name(enum fws_conn_fail f);
const char *fws_conn_fail_doc(enum fws_conn_fail f);

#define FWS_CONN_MAX_DATA 1400 /**< request and response bytes at most (one segment each) */
#define FWS_CONN_MAX_SETS 16   /**< sets (streams) at most: the token has 4 bits for it */

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

/** Per second since the trial began (a collapse stays visible). */
struct fws_conn_series {
	uint32_t n, cap;
	uint64_t *v;
};

struct fws_conn_stats {
	uint64_t attempted, established, closed, reset_sent;
	uint64_t clean;                   /**< closed (or held) having sent nothing twice */
	uint64_t held;                    /**< established, not closed, not failed: now */
	uint64_t failed[FWS_CONN_FAIL_N]; /**< by reason ([0] unused) */
	uint64_t retried;                 /**< connections that sent something again */
	uint64_t resent;                  /**< segments sent again */
	uint64_t rst_received;            /**< RSTs that named a connection */
	uint64_t unmatched;               /**< segments that named none (other trials, strays) */
	uint64_t segs_sent, segs_received;
	enum fws_conn_fail first_fail; /**< the first failure's reason */
	uint64_t held_at_fail;         /**< held when it happened */
	uint32_t first_fail_us;        /**< and when */
	struct fws_hist est;           /**< SYN to the first data ACK (the response), ns */
	struct fws_conn_series est_per_s, closed_per_s;
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

/**
 * RFC 9411 7.2.3.3's criteria for a trial: failed connections under 0.001 % of the attempted,
 * and RSTs that failed a connection (from the DUT: our server never resets) under 0.001 %.
 * Returns whether both hold; why says which failed and by how much.
 */
bool fws_conn_criteria(const struct fws_conn_stats *st, char *why, size_t len);

/** Connections that failed, all reasons. */
uint64_t fws_conn_failed(const struct fws_conn_stats *st);

/** Bytes of state: per connection (the client's), and all in all now. */
size_t fws_conns_state_size(void);
size_t fws_conns_memory(const struct fws_conns *c);

#endif /* FWS_CONN_H */
