/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DUT load: a command run during the measured phase of each trial (on OPNsense/pfSense
 * e.g. "ssh root@fw vmstat -w {seconds} -c 2", in a lab namespace "ip netns exec dut
 * vmstat {seconds} 2"); its vmstat output gives the CPU load beside the throughput, as
 * qualification tables show it. The us/sy/id columns are found by header, in FreeBSD and
 * Linux formats, and the last sample counts (the first is the average since boot). A
 * failing probe is reported, never fatal to the measurement.
 */
#ifndef FWS_DUTLOAD_H
#define FWS_DUTLOAD_H

#include <stdbool.h>
#include <sys/types.h>

struct fws_dutload {
	bool ok;
	double us, sy, id;
	double cpu; /**< 100 - id */
	char error[160];
};

/** Parse vmstat output. Returns 0, or -EINVAL with out->error saying why. */
int fws_dutload_parse(const char *text, struct fws_dutload *out);

/** A running probe. */
struct fws_dutload_proc {
	pid_t pid;
	int fd;
	size_t len;
	char out[16384];
	char cmd[512];
};

/** Start cmd_template ("{seconds}" replaced by the whole seconds given) under sh -c. */
int fws_dutload_start(struct fws_dutload_proc *p, const char *cmd_template, double seconds);

/** Read what it printed so far (call while it runs). Returns 0 once it closed its output. */
int fws_dutload_drain(struct fws_dutload_proc *p);

/**
 * Collect: wait up to timeout_s for it to end (then kill its process group), parse what it
 * printed (the last 16 KiB).
 */
void fws_dutload_finish(struct fws_dutload_proc *p, double timeout_s, struct fws_dutload *out);

#endif /* FWS_DUTLOAD_H */
