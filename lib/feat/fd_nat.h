/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Feature "nat", its data: what NAT did to a stream's flows, as they arrived against as they
 * were sent, and the verdict on what the config expected (lib/ctrl/feat_nat.c fills it after
 * each trial: the flows' observations come through the merge's per-flow reads). A host
 * counts only the flows its last aim sent to learned translations (lib/host/feat_nataim.c).
 */
#ifndef FWS_FD_NAT_H
#define FWS_FD_NAT_H

#include <stdbool.h>
#include <stdint.h>

#include "fws_featdata.h"
#include "fws_nat.h"

/** One sending host's count of a stream: the flows its last aim sent to a learned
 * translation (download through NAT). */
struct fws_nat_count {
	uint32_t aimed;
};

/** What NAT did to a stream and whether that was what the config expected ("nat"). */
struct fws_nat_result {
	bool observed;    /**< the config has "nat": the rest is filled */
	bool active;      /**< the stream sent in this trial */
	bool expected;    /**< an expectation applied to this stream */
	bool ok;          /**< it held (or none applied) */
	bool has_learn;   /**< a download stream sent to learned translations */
	uint32_t learned; /**< of its flows, the ones its learn phase taught (the merge sums
			   * the senders' aimed flows here; the controller's collect keeps them
			   * where the stream learns) */
	char expect[48];  /**< what was expected, in words */
	char reason[200]; /**< why it failed */
	struct fws_nat_sum sum;
	/* Up to FWS_NAT_PAIRS_MAX flows: per flow, as sent and as it last arrived (zero when
	 * never seen), for the report's flow-by-flow list. Owned by the result. */
	struct fws_nat_tuple *pairs;
	uint32_t n_pairs;
	/* An IPv6 stream's tuples hold the addresses' low 32 bits; their upper 96 are the
	 * config's (NAT66 is not followed), for the report's [addr]:port. */
	bool ipv6;
	uint8_t src6[12], dst6[12];
};
#define FWS_NAT_PAIRS_MAX 4096

extern const struct fws_featdata fws_fd_nat;

#endif /* FWS_FD_NAT_H */
