/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A measuring feature's own data (lib/feat: each feature's file pair fd_NAME.{c,h}, one
 * table in fws_feat.c). A feature that counts something declares, in its own files, a count
 * block (what one host counted: it crosses the seam inside fws_agent_stream.fd, or
 * fws_agent_counts.fd_trial for the trial as a whole) and a result block (what the trial
 * reports: inside fws_stream_result.fd, or fws_result.fd_trial), and hooks: merge one
 * host's counts into the result, finish the result once every host is in, and write it as
 * JSON and as text. Both sides take the one table's layout: a host fills counts, the
 * controller merges them, the report writes them; the merge (lib/ctrl/fws_merge.c) and the
 * report (lib/report) loop over the descriptors of a layout and name no feature. The blocks
 * are the feature's own structures, placed one after the other in fixed areas (8-byte
 * aligned, in table order), so that a remote agent sends them as the bytes they are.
 * docs/dev/adding-a-feature.md says which files a new one touches.
 */
#ifndef FWS_FEATDATA_H
#define FWS_FEATDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

/** Bytes per stream of every feature's count block, and of every feature's result block. */
#define FWS_FD_COUNT_BYTES 256
#define FWS_FD_RESULT_BYTES 1536
/** Bytes per port of every feature's block (a port's counts are its owner's: one block). */
#define FWS_FD_PORT_BYTES 512
/** Bytes per trial of every feature's count block, and of every feature's result block. */
#define FWS_FD_TRIAL_COUNT_BYTES 4096
#define FWS_FD_TRIAL_RESULT_BYTES 4096
/** The most features with data in one layout. */
#define FWS_FD_MAX 16

/** What a host plays for a stream (the roles the merge passes). */
enum fws_fd_role {
	FWS_FD_TX = 1, /**< it sends the stream (some of its flows) */
	FWS_FD_RX = 2, /**< it receives it */
};

/** When a host fills a feature's count blocks: with the trial's counts (the collect), or
 * in the after call that follows (TCP's connections close after the trial). */
enum fws_fd_at {
	FWS_FD_AT_COLLECT,
	FWS_FD_AT_AFTER,
};

struct fws_featdata {
	const char *name;
	enum fws_fd_at at;  /**< when its count blocks are filled and merged */
	size_t count_size;  /**< its count block, per stream and host; 0: none */
	size_t result_size; /**< its result block, per stream */
	/** One host's count block of a stream into the stream's result block (zeroed before
	 * the first host); roles: what the host plays for it (enum fws_fd_role, or-ed). The
	 * block may come from another process: any bytes must merge without harm. NULL: the
	 * feature fills its result by itself (a controller feature's collect). */
	void (*merge)(void *result, const void *count, unsigned int roles);
	/** Once every host is merged (NULL: nothing to derive). */
	void (*finish)(void *result);
	/** Its keys in the stream's JSON object o (the report's "streams" entry); NULL: none. */
	void (*json)(const void *result, json_t *o);
	/** Its lines of the text report about stream name (each "  feature: stream: ...");
	 * NULL: none. */
	void (*text)(FILE *f, const char *stream, const void *result);
	/** An expectation of the config the DUT missed in this stream (NAT, flows it should
	 * block): its words into buf ("NAT: ..."), true; false when it held or none applied.
	 * The trial's cells and `run`'s exit status take the first. NULL: no expectation. */
	bool (*failed)(const void *result, char *buf, size_t len);
	/** Free what the result block owns (a list on the heap); NULL: nothing. */
	void (*release)(void *result);
	/* The trial as a whole: a count block per host and a result block, and their hooks as
	 * above (no roles: every host's block is merged; JSON keys in the trial's object). */
	size_t trial_count_size, trial_result_size;
	void (*merge_trial)(void *result, const void *count);
	void (*json_trial)(const void *result, json_t *trial);
	void (*text_trial)(FILE *f, const void *result);
	void (*release_trial)(void *result);
	/* Per port: a block the host that owns the port fills (fws_port_result.fd), carried
	 * whole into the result as the port's counts are; its JSON keys in the trial's port
	 * object, its text lines ("  port NAME ..."). */
	size_t port_size;
	void (*json_port)(const void *block, json_t *port);
	void (*text_port)(FILE *f, const char *port, const void *block);
	/* The same block as a port's facts (the run's port list: what the port is and does, read
	 * once from the host's ports answer, not per trial): its JSON keys in the run's port
	 * object, its words appended to the port's line (", latency from ..."). */
	void (*json_port_facts)(const void *block, json_t *port);
	void (*text_port_facts)(FILE *f, const void *block);
};

/** Where each feature's blocks sit: the features' descriptors in table order and their
 * blocks' offsets. Plain (pointers to static descriptors only): a result keeps a copy. */
struct fws_fd_layout {
	unsigned int n;
	const struct fws_featdata *d[FWS_FD_MAX];
	uint16_t count_off[FWS_FD_MAX], result_off[FWS_FD_MAX];
	uint16_t trial_count_off[FWS_FD_MAX], trial_result_off[FWS_FD_MAX], port_off[FWS_FD_MAX];
	size_t count_used, result_used, trial_count_used, trial_result_used, port_used;
};

/** Append d (NULL: nothing). 0, or -ENOSPC when its blocks do not fit the areas or the
 * layout is full. */
int fws_fd_layout_add(struct fws_fd_layout *l, const struct fws_featdata *d);

/** Index of d in l, or -1. */
int fws_fd_find(const struct fws_fd_layout *l, const struct fws_featdata *d);

/** d's count block in a stream's count area (fws_agent_stream.fd), or NULL when l has no d
 * or d has no count block. */
void *fws_fd_count(const struct fws_fd_layout *l, const struct fws_featdata *d, void *area);

/** d's result block in a stream's result area (fws_stream_result.fd), or NULL. */
void *fws_fd_result(const struct fws_fd_layout *l, const struct fws_featdata *d, void *area);
const void *fws_fd_result_c(const struct fws_fd_layout *l, const struct fws_featdata *d,
			    const void *area);

/** d's trial count block in a host's fws_agent_counts.fd_trial, or NULL. */
void *fws_fd_trial_count(const struct fws_fd_layout *l, const struct fws_featdata *d, void *area);
/** d's trial result block in fws_result.fd_trial, or NULL. */
void *fws_fd_trial_result(const struct fws_fd_layout *l, const struct fws_featdata *d, void *area);
const void *fws_fd_trial_result_c(const struct fws_fd_layout *l, const struct fws_featdata *d,
				  const void *area);

/** d's block in a port's area (fws_port_result.fd), or NULL. */
void *fws_fd_port(const struct fws_fd_layout *l, const struct fws_featdata *d, void *area);
const void *fws_fd_port_c(const struct fws_fd_layout *l, const struct fws_featdata *d,
			  const void *area);
/** Every feature's JSON of one port's area into its object o, and its text lines. */
void fws_fd_json_port(const struct fws_fd_layout *l, const void *area, json_t *o);
void fws_fd_text_port(const struct fws_fd_layout *l, FILE *f, const char *port, const void *area);
/** Every feature's JSON of one port's facts into its object o, and its words on its line. */
void fws_fd_json_port_facts(const struct fws_fd_layout *l, const void *area, json_t *o);
void fws_fd_text_port_facts(const struct fws_fd_layout *l, FILE *f, const void *area);

/** The count blocks filled at `at` of one host into the result area: roles as for merge. */
void fws_fd_merge(const struct fws_fd_layout *l, enum fws_fd_at at, void *result_area,
		  const void *count_area, unsigned int roles);
/** Zero the blocks filled at `at` in a stream's count area or result area (either NULL). */
void fws_fd_zero(const struct fws_fd_layout *l, enum fws_fd_at at, void *count_area,
		 void *result_area);
/** The first expectation a stream's result area says failed, its words in buf: true; false
 * when every one held. */
bool fws_fd_failed(const struct fws_fd_layout *l, const void *result_area, char *buf, size_t len);
/** Every feature's release hook on a stream's result area, and on the trial's. */
void fws_fd_release(const struct fws_fd_layout *l, void *result_area);
void fws_fd_release_trial(const struct fws_fd_layout *l, void *result_area);
/** Every feature's trial count block of one host into the trial result area. */
void fws_fd_merge_trial(const struct fws_fd_layout *l, void *result_area, const void *count_area);
/** Every feature's trial JSON into the trial's object, and its trial text lines. */
void fws_fd_json_trial(const struct fws_fd_layout *l, const void *result_area, json_t *trial);
void fws_fd_text_trial(const struct fws_fd_layout *l, FILE *f, const void *result_area);
/** Every feature's finish hook. */
void fws_fd_finish(const struct fws_fd_layout *l, void *result_area);
/** Every feature's JSON of one stream's result area into o. */
void fws_fd_json(const struct fws_fd_layout *l, const void *result_area, json_t *o);
/** Every feature's text lines of one stream's result area. */
void fws_fd_text(const struct fws_fd_layout *l, FILE *f, const char *stream,
		 const void *result_area);

#endif /* FWS_FEATDATA_H */
