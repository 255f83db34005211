/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A connection test's iteration as it crosses the seam (the agent's conn_trial operation):
 * its figures, and the hooks around its measured phase.
 */
#ifndef FWS_CONNTRIAL_H
#define FWS_CONNTRIAL_H

#include <stdbool.h>
#include <stdint.h>

#include "fws_connstat.h"
#include "fws_dutload.h"

/** One iteration. */
struct fws_conntrial {
	double rate;         /**< asked: connections (teardown: closes) per second */
	double achieved;     /**< opened (closed) / the time the opener (closer) took */
	double phase_s;      /**< that time */
	double elapsed_s;    /**< the whole trial, until every connection was answered or failed */
	uint64_t tx_refused; /**< segments the port refused: the generator's loss, not the DUT's */
	bool generator_limited; /**< achieved under 99 % of rate, or segments refused */
	bool partial;           /**< interrupted */
	uint64_t impaired;      /**< connections failed, unfinished, or that sent anything twice */
	uint64_t unfinished;    /**< still waiting when the trial gave up on them (should be 0) */
	bool pass;              /**< RFC 9411's criteria */
	char verdict[160];
	double est_min_us, est_avg_us, est_p50_us, est_p99_us, est_max_us;
	uint64_t engine_bytes;    /**< the engine's memory after it (its client's host) */
	bool dut_probed;          /**< dut.load_command ran over the measured phase */
	struct fws_dutload dut;   /**< its verdict */
	struct fws_conn_stats st; /**< its series are owned by the trial */
};

/** Around an iteration's measured phase (opening; teardown: closing), where the DUT load
 * probe runs; each may be NULL. */
struct fws_conntester_hooks {
	void (*measure)(void *arg, uint64_t n, double rate); /**< n connections at rate begin */
	void (*service)(void *arg);                          /**< each pass meanwhile */
	void (*measured)(void *arg, bool stopped, struct fws_conntrial *out); /**< it ended */
	void *arg;
};

#endif /* FWS_CONNTRIAL_H */
