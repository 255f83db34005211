/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Errors that cross layers: a kind (what failed: the config, the setup, the path, a trial,
 * or a stop request) and a one-line message for the person. The kind travels as a value,
 * so the command line takes its exit status from it and nobody parses the message.
 */
#ifndef FWS_ERR_H
#define FWS_ERR_H

#define FWS_ERR_LEN 600

/* Kinds, with the exit status each gives (docs/guide/running.md, fwstress --help). */
#define FWS_ERR_KINDS(X)                                                                           \
	X(NONE, 0, "none")                                                                         \
	X(CONFIG, 2, "config")                                                                     \
	X(SETUP, 3, "setup")                                                                       \
	X(INTERRUPTED, 4, "interrupted")                                                           \
	X(FAULT, 5, "fault")                                                                       \
	X(PATH, 6, "path-check-failed")

enum fws_err_kind {
#define FWS_ERR_ENUM(name, code, label) FWS_ERR_##name,
	FWS_ERR_KINDS(FWS_ERR_ENUM)
#undef FWS_ERR_ENUM
};

struct fws_err {
	enum fws_err_kind kind;
	char msg[FWS_ERR_LEN];
};

/** Set kind and message; returns rc (a negative errno) so callers can return it directly. */
int fws_err_set(struct fws_err *e, enum fws_err_kind kind, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/** The exit status of a kind. */
int fws_err_exit_code(enum fws_err_kind kind);

/** The kind's name as reports write it ("config", "setup", ...). */
const char *fws_err_kind_name(enum fws_err_kind kind);

#endif /* FWS_ERR_H */
