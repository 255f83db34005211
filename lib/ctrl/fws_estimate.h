/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How long measuring a config takes, counted by the method itself: its loops (fws_method.c,
 * the search in fws_search.c, the connection tests' search) are run against two model DUTs
 * that cost nothing, one that passes everything (the least the method asks) and one whose
 * limits it must narrow to the search's width and the bursts' 0.1 % (the most), and every
 * trial they ask for is counted with its warm-up, duration, drain and set-up. The progress
 * line (fws_pace.h) corrects it with the measured length of the cells finished.
 */
#ifndef FWS_ESTIMATE_H
#define FWS_ESTIMATE_H

#include "fws_campaign.h"
#include "fws_config.h"

/** The expected length of measuring a config with a command, cell by cell. */
struct fws_estimate {
	unsigned int cells; /**< frame sizes (times directions for a sweep; 1: connections) */
	double cell_s, cell_min_s; /**< one cell with its repetitions: at most, at least */
	unsigned int cell_trials, cell_min_trials; /**< and its trials */
	double fixed_s;                            /**< EAL, gateways, path check */
};

/** Set-up counted around each trial (phases armed, counts collected), s. */
#define FWS_ESTIMATE_SETUP_S 1.0

/** The length of measuring cfg with cmd (see above). */
void fws_estimate_cells(const struct fws_cfg *cfg, enum fws_campaign_cmd cmd,
			struct fws_estimate *e);

/** The longest estimate in seconds (fixed + cells x cell_s), and its trials. */
double fws_estimate_total(const struct fws_cfg *cfg, enum fws_campaign_cmd cmd,
			  unsigned int *trials);

#endif /* FWS_ESTIMATE_H */
