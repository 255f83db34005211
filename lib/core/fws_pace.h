/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The time a command has left, for its progress line. Before the run the model's range is
 * all there is (every search narrowing to its width at most; every search passing its
 * maximum at once at least): a lab firewall that carries every load ends near the least, a
 * DUT that loses frames near the most. Once a cell (a frame size, or a size in one direction)
 * is measured, what it took stands for every cell left: the estimate follows the DUT.
 */
#ifndef FWS_PACE_H
#define FWS_PACE_H

#include <stdbool.h>
#include <stddef.h>

struct fws_pace {
	double cell_s;            /**< the model's length of a cell, at most */
	double cell_min_s;        /**< and at least */
	unsigned int cell_trials; /**< and its trials */
	unsigned int cells;       /**< cells to measure (what a resumed report holds left out) */
	unsigned int begun;       /**< cells begun so far */
	double cell_t0;           /**< when the current one began */
	double done_s;            /**< seconds of the cells finished */
	unsigned int trial0;      /**< trials before the current cell */
	char key[96];             /**< the current cell's name (frame size and direction) */
};

/**
 * Start p for cells cells of cell_min_s to cell_s seconds and at most cell_trials trials
 * each.
 */
void fws_pace_start(struct fws_pace *p, unsigned int cells, double cell_min_s, double cell_s,
		    unsigned int cell_trials);

/**
 * Trial number trial (0 first) of cell key (its frame size and direction, as the progress
 * line names them) runs at now (seconds, any monotonic origin): a key other than the current
 * one begins the next cell and ends the current one.
 */
void fws_pace_trial(struct fws_pace *p, const char *key, unsigned int trial, double now);

/**
 * Seconds left at now: the measured cells' mean for each cell left; before a cell finished,
 * the model's most (least: the model's least, the same once a cell finished).
 */
double fws_pace_left(const struct fws_pace *p, double now, bool least);

/** The trials to expect in all while trial (0 first) runs: as fws_pace_left counts. */
unsigned int fws_pace_trials(const struct fws_pace *p, unsigned int trial);

/** s seconds as "M min SS s" (whole seconds, rounded), "H h MM min" from an hour on. */
char *fws_pace_fmt(char *buf, size_t len, double s);

#endif /* FWS_PACE_H */
