/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Throughput search (RFC 2544 section 26.1, the way MLRsearch does it): the highest load
 * whose loss ratio stays at or under a goal, for two goals at once: NDR (no loss) and PDR
 * (loss up to a ratio, 0.5 % by default). Loads are fractions of the maximum (the config's
 * rate, usually line rate). Short trials narrow the interval to the goal width; then the
 * lower bound must hold in a trial of the final duration (RFC 2544 section 24: 60 s), and
 * when it does not, the search goes on with final-duration trials only.
 *
 * Inconsistent DUTs (a load passes, a lower one fails later) are handled as MLRsearch does:
 * the newer failure wins, the count of such trials is reported, and the conditional
 * throughput is the received rate at the found load (offered times one minus its loss).
 * Pure logic: it asks for trials and is told their results; tests drive it with models.
 */
#ifndef FWS_SEARCH_H
#define FWS_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#define FWS_SEARCH_MAX_TRIALS 200

enum { FWS_SEARCH_NDR = 0, FWS_SEARCH_PDR, FWS_SEARCH_GOALS };

struct fws_search_cfg {
	double min_load; /**< lowest load tried, fraction of max (e.g. 0.001) */
	double width;    /**< goal width, fraction of max (e.g. 0.005) */
	double pdr_loss; /**< PDR loss ratio goal (e.g. 0.005) */
	double short_s;  /**< duration of narrowing trials */
	double final_s;  /**< duration of the confirming trials */
	unsigned int max_trials;
};

/** One trial as the search sees it. */
struct fws_search_trial {
	double load;     /**< asked, fraction of max */
	double duration; /**< asked, s */
	double offered;  /**< measured offered load, fraction of max */
	uint64_t tx, lost;
	uint64_t missed; /**< frames the receiving ports missed (the tester's loss) */
};

/** The outcome for one goal. */
struct fws_search_goal {
	double load;           /**< highest load that met the goal at final duration (0: none) */
	double upper;          /**< lowest load that failed it (1 when max passed) */
	double offered;        /**< measured offered load of that trial */
	double loss_ratio;     /**< its loss ratio */
	double conditional;    /**< conditional throughput: offered * (1 - loss ratio) */
	unsigned int exceeded; /**< trials at or below the found load that exceeded the goal */
	int trial;             /**< index of the trial it stands on, -1: none */
	bool found;
	/**
	 * No trial failed the goal and the trial it stands on offered less than 99 % of the
	 * load it asked for: the generator's ceiling, a lower bound of the DUT's, with no
	 * measured upper end (upper is then meaningless and reads 0).
	 */
	bool generator_limited;
	/**
	 * A trial that failed the goal at or below upper lost no more than its receiving ports
	 * missed (the tester's own loss, beyond the goal's): the failure may be the tester's, so
	 * load is a lower bound of the DUT's. missed: that trial's misses.
	 */
	bool tester_limited;
	uint64_t missed;
};

struct fws_search;

/** New search, or NULL with errno EINVAL for bad settings. */
struct fws_search *fws_search_new(const struct fws_search_cfg *cfg);

/**
 * The next trial to run: returns 1 and fills load and duration, or 0 when the search has
 * finished (both goals found within width, or max_trials used).
 */
int fws_search_next(struct fws_search *s, double *load, double *duration);

/** Feed the result of the trial fws_search_next asked for. */
void fws_search_record(struct fws_search *s, double offered, uint64_t tx, uint64_t lost);

/** The frames the receiving ports missed in the trial just recorded (their NIC or driver: the
 * tester's loss); a failure they can explain makes the goal a lower bound. */
void fws_search_missed(struct fws_search *s, uint64_t missed);

/** Results: goal FWS_SEARCH_NDR or FWS_SEARCH_PDR. */
void fws_search_goal(const struct fws_search *s, int goal, struct fws_search_goal *g);

/** Trials run so far, and each one. */
unsigned int fws_search_trials(const struct fws_search *s, const struct fws_search_trial **t);

void fws_search_free(struct fws_search *s);

#endif /* FWS_SEARCH_H */
