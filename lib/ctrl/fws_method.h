/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The methodology: what trials to run and what to keep. Fixed-rate runs, NDR/PDR searches
 * per frame size, sweeps over sizes and directions with latency at fractions of NDR and
 * back-to-back bursts. It asks a measurer for each trial (CSIT's measure(duration, load)),
 * so the real one runs fws_trial_run and tests give it a model of a DUT, without EAL.
 */
#ifndef FWS_METHOD_H
#define FWS_METHOD_H

#include "fws_err.h"
#include "fws_run.h"
#include "fws_trial.h"

#define FWS_METHOD_MODES(X)                                                                        \
	X(RUN, "run", "fixed-rate trials, one per frame-size entry")                               \
	X(SEARCH, "search", "NDR and PDR per frame-size entry")                                    \
	X(SWEEP, "sweep", "sizes x directions, latency at load, back-to-back")

enum fws_method_mode {
#define FWS_METHOD_MODE_ENUM(name, cmd, doc) FWS_METHOD_##name,
	FWS_METHOD_MODES(FWS_METHOD_MODE_ENUM)
#undef FWS_METHOD_MODE_ENUM
};

/** Run one trial of frame-size entry size_idx with options o into res: 0 or -errno. */
typedef int (*fws_measure_fn)(void *arg, unsigned int size_idx, const struct fws_trial_opts *o,
			      struct fws_result *res, struct fws_err *e);

struct fws_method {
	const struct fws_cfg *cfg;
	struct fws_run *run;
	fws_measure_fn measure;
	void *measure_arg;
	const struct fws_trial_opts *base; /**< stop flag, progress, ... for every trial */
	/** Called after every finished cell (sweep) or size (run, search): save progress. */
	void (*saved)(void *arg, struct fws_run *run);
	void *saved_arg;
	FILE *log; /**< one line per search trial and burst repetition; NULL: quiet */
};

/** Allocate run's results for mode and cfg (capacities derived from them). 0 or -ENOMEM. */
int fws_run_alloc(struct fws_run *run, const struct fws_cfg *cfg, enum fws_method_mode mode);

/** Free what fws_run_alloc and the kept results hold. */
void fws_run_free(struct fws_run *run);

/**
 * Run mode's trials into m->run. Returns 0, or -errno with e's kind telling what happened
 * (FWS_ERR_INTERRUPTED when stopped: what was measured stays in the run).
 */
int fws_method_execute(struct fws_method *m, enum fws_method_mode mode, struct fws_err *e);

/**
 * The cells mode measures of cfg, less those carried (a resumed report) holds complete: frame
 * sizes for run and search, sizes x directions for sweep. carried may be NULL.
 */
unsigned int fws_method_cells_left(const struct fws_cfg *cfg, enum fws_method_mode mode,
				   const struct fws_cells *carried);

/** The measurer of a real run: fws_trial_run on arg, a struct fws_trial. */
int fws_method_measure_trial(void *arg, unsigned int size_idx, const struct fws_trial_opts *o,
			     struct fws_result *res, struct fws_err *e);

#endif /* FWS_METHOD_H */
