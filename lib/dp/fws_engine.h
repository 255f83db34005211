/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Traffic engines, as test-pmd's forwarding engines: one table entry per kind of test
 * traffic, found by name, each in a file of its own. A transmit task carries its stream's
 * engine and the worker calls through it once per burst: "udp" (stateless, template pools,
 * fws_tx), "tcp" (data segments of connections the main lcore opened, engine_tcp.c) and
 * "syn" (a SYN flood). An engine states only what differs from the template-pool defaults
 * of fws_tx (NULL: the default); tx_burst is its own. Callers go through fws_engine_*().
 */
#ifndef FWS_ENGINE_H
#define FWS_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

struct fws_pkt_hdr;
struct fws_size_mix;
struct fws_tx_task;

struct fws_engine {
	const char *name;
	/** Stamps at the hand-over, never the wire model (fws_tx.h). */
	bool handover_stamps;
	/** Pool and templates of a task for the stream whose headers are hdr. 0 or -errno. */
	int (*setup)(struct fws_tx_task *t, const char *pool_name, unsigned int n_mbufs,
		     uint16_t max_frame, int socket, const struct fws_pkt_hdr *hdr);
	/** Load a frame-size mix (once per trial, before the lcores start). 0 or -errno. */
	int (*sizes)(struct fws_tx_task *t, const struct fws_size_mix *mix);
	/** Start a phase: cookie, sequence numbers from 0, pacing from now. */
	void (*start)(struct fws_tx_task *t, uint32_t cookie, uint64_t now, uint64_t hz);
	/** Build and send one burst if the pacer allows; returns frames sent. */
	unsigned int (*tx_burst)(struct fws_tx_task *t, uint64_t now, bool measured);
	void (*destroy)(struct fws_tx_task *t);
};

extern const struct fws_engine fws_engine_udp;
extern const struct fws_engine fws_engine_tcp;
extern const struct fws_engine fws_engine_syn;

/** The engine called name, or NULL. */
const struct fws_engine *fws_engine_find(const char *name);

/* A task's engine's callbacks, or the defaults where it has none (fws_tx_task_init,
 * fws_tx_task_sizes, fws_tx_task_start, fws_tx_task_free). */
int fws_engine_setup(const struct fws_engine *eng, struct fws_tx_task *t, const char *pool_name,
		     unsigned int n_mbufs, uint16_t max_frame, int socket,
		     const struct fws_pkt_hdr *hdr);
int fws_engine_sizes(struct fws_tx_task *t, const struct fws_size_mix *mix);
void fws_engine_start(struct fws_tx_task *t, uint32_t cookie, uint64_t now, uint64_t hz);
void fws_engine_destroy(struct fws_tx_task *t);

#endif /* FWS_ENGINE_H */
