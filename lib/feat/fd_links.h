/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Feature "links", its data: a port's link seen down during a trial (lib/host/feat_linkwatch.c
 * records them on the host that owns the port), times since the trial began; per trial.
 */
#ifndef FWS_FD_LINKS_H
#define FWS_FD_LINKS_H

#include <stdint.h>

#include "fws_config.h"
#include "fws_featdata.h"

#define FWS_LINK_EVENTS_MAX 32

struct fws_link_event {
	char port[FWS_CFG_NAME_LEN]; /**< the port's name */
	double down_s, up_s;         /**< up_s < 0: still down when the trial ended */
	uint64_t sent_down; /**< test frames sent meanwhile by the streams to or from the port */
};

/** A host's, and the trial's (every host's events, in host order). */
struct fws_link_events {
	uint32_t n;
	uint64_t dropped; /**< beyond FWS_LINK_EVENTS_MAX */
	struct fws_link_event ev[FWS_LINK_EVENTS_MAX];
};

extern const struct fws_featdata fws_fd_links;

#endif /* FWS_FD_LINKS_H */
