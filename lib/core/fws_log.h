/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwstress's log lines, without DPDK: a module names itself before including this header
 * (#define FWS_LOGMOD "fws.trial") and writes FWS_LOG(WARNING, "fmt", ...); the line reads
 * "fwstress: ...". Where it goes is the process's choice (fws_log_set_sink): by default
 * stderr, NOTICE and more severe; the application hands the lines to DPDK's log once EAL is
 * up (app_common.c), so that EAL's --log-level fws.trial:debug and --syslog apply to them.
 */
#ifndef FWS_LOG_H
#define FWS_LOG_H

/* Severities, numbered as syslog's and DPDK's RTE_LOG_* are. */
enum fws_log_level {
	FWS_LOG_LVL_ERR = 4,
	FWS_LOG_LVL_WARNING = 5,
	FWS_LOG_LVL_NOTICE = 6,
	FWS_LOG_LVL_INFO = 7,
	FWS_LOG_LVL_DEBUG = 8,
};

/** Where a formatted line (ending in a newline) goes. */
typedef void fws_log_sink_fn(const char *mod, enum fws_log_level level, const char *line);

/** Send every later line to fn (NULL: back to stderr). */
void fws_log_set_sink(fws_log_sink_fn *fn);

/** Format one line of module mod and hand it to the sink. */
void fws_log(const char *mod, enum fws_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define FWS_LOG(level, ...) fws_log(FWS_LOGMOD, FWS_LOG_LVL_##level, __VA_ARGS__)

#endif /* FWS_LOG_H */
