/* SPDX-License-Identifier: BSD-3-Clause */
/* A trial's phases as the workers follow them and the controller moves them (fws_worker.h,
 * the seam's launch and phase operations), and the points of a trial the features of both
 * sides act at (lib/ctrl/fws_feature.h, lib/host/fws_host.h). */
#ifndef FWS_PHASE_H
#define FWS_PHASE_H

enum fws_phase {
	FWS_PHASE_IDLE = 0, /**< launched, receiving, not sending yet */
	FWS_PHASE_WARMUP,
	FWS_PHASE_MEASURE,
	FWS_PHASE_STOP,
	FWS_PHASE_QUIT,
};

/* The points of a running trial a feature can act at, after the setup and each trial's
 * prepare: the counters were zeroed and the trial starts (workers not yet launched), the
 * measured phase begins, each pass of the main lcore's loop (5 ms), the phases are over
 * (workers stopped, before the counters are collected), the core counters are collected
 * into the result (the feature adds its own). */
#define FWS_FEATURE_EVENTS(X)                                                                      \
	X(START, "start")                                                                          \
	X(MEASURE, "measure")                                                                      \
	X(SERVICE, "service")                                                                      \
	X(FINISH, "finish")                                                                        \
	X(COLLECT, "collect")

enum fws_feature_event {
#define FWS_FEATURE_EVENT_ENUM(n, s) FWS_FEATURE_##n,
	FWS_FEATURE_EVENTS(FWS_FEATURE_EVENT_ENUM)
#undef FWS_FEATURE_EVENT_ENUM
		FWS_FEATURE_EVENTS_N
};

#endif /* FWS_PHASE_H */
