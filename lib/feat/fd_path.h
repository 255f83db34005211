/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Feature "path", its data: what the path did with a stream (lib/ctrl/feat_path.c fills it
 * after each trial; no host counts): behind a tunnel, the bytes its encrypted link carries
 * per inner frame and the share of that link's line rate the received rate needs; why the
 * path carried none of the stream's frames, when that can be told.
 */
#ifndef FWS_FD_PATH_H
#define FWS_FD_PATH_H

#include "fws_featdata.h"

/** A stream's. */
struct fws_fd_path {
	/** Behind a tunnel ("tunnel"): bytes on its encrypted link per inner frame (FCS
	 * included, the mix's average), and the received rate's share of that link's line
	 * rate (the port's speed); 0: no tunnel. */
	double link_frame, link_share;
	/** ICMP "too big" errors, or a tunnel's MTU with DF set; "" otherwise. */
	char reason[160];
};

extern const struct fws_featdata fws_fd_path;

#endif /* FWS_FD_PATH_H */
