/* SPDX-License-Identifier: BSD-3-Clause */
/* The table of the features' data (fws_feat.h). */
#include "fd_blocked.h"
#include "fd_clocks.h"
#include "fd_dutload.h"
#include "fd_icmp.h"
#include "fd_links.h"
#include "fd_nat.h"
#include "fd_nicstamps.h"
#include "fd_path.h"
#include "fd_reassembly.h"
#include "fd_rxq.h"
#include "fd_stamps.h"
#include "fd_synflood.h"
#include "fd_tcp.h"
#include "fd_telem.h"
#include "fws_feat.h"
#include "fws_util.h"

/* A feature compiled only into a test (tests/integration/feat_probe.c), to prove that a new
 * one needs its files, its lines in the tables, meson and the report schema's page, nothing
 * else: weak, so absent (NULL, skipped) from fwstress itself. */
extern const struct fws_featdata fws_fd_test __attribute__((weak));

/* In the order the report writes them. */
static const struct fws_featdata *const table[] = {
	&fws_fd_stamps,     /* how frames were stamped, what that leaves uncertain */
	&fws_fd_reassembly, /* fragments of test packets */
	&fws_fd_clocks,     /* one-way latency across hosts: the clocks' alignment */
	&fws_fd_tcp,        /* TCP streams' connections */
	&fws_fd_icmp,       /* ICMP errors from the path */
	&fws_fd_path,       /* what the path did: a tunnel's link share, why nothing passed */
	&fws_fd_nat,        /* what NAT did, the verdict on what was expected */
	&fws_fd_blocked,    /* flows the DUT should block: what leaked */
	&fws_fd_synflood,   /* a SYN flood stream: its rate, what passed */
	&fws_fd_links,      /* links down during a trial */
	&fws_fd_dutload,    /* the DUT's CPU load over the measured phase */
	&fws_fd_telem,      /* the DUT's own telemetry over the trial */
	&fws_fd_rxq,        /* each port's receive queues */
	&fws_fd_nicstamps,  /* each port's NIC stamps: offered, used (its facts) */
	&fws_fd_test,       /* a test's (NULL in fwstress) */
};

int
fws_feat_layout(struct fws_fd_layout *l)
{
	unsigned int i;
	int rc;

	for (i = 0; i < FWS_DIM(table); i++)
		if ((rc = fws_fd_layout_add(l, table[i])) < 0)
			return rc;
	return 0;
}
