/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a connection test (fws_conn.h) is and what it counted, without DPDK: the tests, why a
 * connection failed, the counts and their pass criteria. The configuration names the test, the
 * seam carries the counts, the controller weighs them and the reports print them.
 */
#ifndef FWS_CONNSTAT_H
#define FWS_CONNSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fws_hist.h"

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

/**
 * RFC 9411 7.2.3.3's criteria for a trial: failed connections under 0.001 % of the attempted,
 * and RSTs that failed a connection (from the DUT: our server never resets) under 0.001 %.
 * Returns whether both hold; why says which failed and by how much.
 */
bool fws_conn_criteria(const struct fws_conn_stats *st, char *why, size_t len);

/** Connections that failed, all reasons. */
uint64_t fws_conn_failed(const struct fws_conn_stats *st);

#endif /* FWS_CONNSTAT_H */
