/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A NIC's clock on the TSC: a receive timestamp a NIC wrote (RX timestamp offload, in the
 * units of its own clock, rte_eth_read_clock's) as the TSC reading of that instant, so that
 * it compares with the sender's TSC stamp in the frame. The map is anchored on pairs read
 * together (the NIC's clock between two TSC reads): the newest anchor carries the offset, the
 * rate is the ticks between the first anchor and the newest (a baseline that grows through
 * the run, so its error shrinks), given at setup from two reads a few ms apart. Receive
 * lcores read a map the main lcore re-anchors each second through a double buffer (the
 * writer fills the idle copy, then flips). Pure: the reads are the caller's.
 */
#ifndef FWS_NICCLOCK_H
#define FWS_NICCLOCK_H

#include <stdbool.h>
#include <stdint.h>

struct fws_nicclock {
	uint64_t nic0, tsc0; /**< the first anchor: the rate's base */
	uint64_t nic, tsc;   /**< the newest anchor */
	uint64_t mult;       /**< TSC ticks per NIC tick, 32.32 fixed point */
};

/** The TSC ticks of the first anchor before the rate is taken from the anchors (0.5 s at
 * the caller's TSC rate hz): a shorter baseline keeps the setup's rate. */
#define FWS_NICCLOCK_MIN_BASE_S 0.5

/**
 * Start a map at the pair (nic, tsc) with rate tsc_per_tick (the setup's estimate). false
 * when the rate is not a positive number below 2^31 (a clock that did not move).
 */
bool fws_nicclock_init(struct fws_nicclock *c, uint64_t nic, uint64_t tsc, double tsc_per_tick);

/**
 * A newer pair: the offset from it, the rate from the first anchor to it once hz (TSC ticks
 * per second) x FWS_NICCLOCK_MIN_BASE_S apart. A pair that goes back in either clock is
 * ignored (false).
 */
bool fws_nicclock_anchor(struct fws_nicclock *c, uint64_t nic, uint64_t tsc, uint64_t hz);

/** The TSC reading of the NIC's clock at nic (before or after the newest anchor). */
static inline uint64_t
fws_nicclock_tsc(const struct fws_nicclock *c, uint64_t nic)
{
	int64_t d = (int64_t)(nic - c->nic);
	__int128 off = ((__int128)d * (__int128)c->mult) >> 32;

	return c->tsc + (uint64_t)(int64_t)off;
}

/** A map shared with the receive lcores: two copies, cur the one to read. */
struct fws_nicclock_pub {
	struct fws_nicclock map[2];
	uint32_t cur;
};

/** Writer (one thread): m becomes the map readers take next. */
static inline void
fws_nicclock_publish(struct fws_nicclock_pub *p, const struct fws_nicclock *m)
{
	uint32_t next = __atomic_load_n(&p->cur, __ATOMIC_RELAXED) ^ 1u;

	p->map[next] = *m;
	__atomic_store_n(&p->cur, next, __ATOMIC_RELEASE);
}

/** Reader: the map to use (for a burst: the writer flips at most once a second). */
static inline const struct fws_nicclock *
fws_nicclock_read(const struct fws_nicclock_pub *p)
{
	return &p->map[__atomic_load_n(&p->cur, __ATOMIC_ACQUIRE)];
}

#endif /* FWS_NICCLOCK_H */
