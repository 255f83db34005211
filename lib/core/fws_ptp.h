/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Clocks disciplined by PTP ("clocks": "ptp"): what linuxptp's ptp4l on a load client says
 * of its clock, read with pmc over its management socket, and the point an agent gives the
 * controller: its TSC beside CLOCK_REALTIME, which PTP keeps on the grandmaster's time.
 */
#ifndef FWS_PTP_H
#define FWS_PTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FWS_PTP_ID_LEN 32

/** What ptp4l reported. */
struct fws_ptp_state {
	char port_state[16];           /**< SLAVE if a port is, else the first port's */
	bool all_master;               /**< every port MASTER */
	bool gm_present;               /**< it follows a grandmaster */
	double master_offset_ns;       /**< its clock minus the master's, last sample */
	char gm[FWS_PTP_ID_LEN];       /**< the grandmaster's clock identity */
	char identity[FWS_PTP_ID_LEN]; /**< its own clock identity */
};

/** A host's clock under PTP at one instant. */
struct fws_ptp_point {
	struct fws_ptp_state st;
	int64_t realtime_ns; /**< CLOCK_REALTIME */
	uint64_t tsc;        /**< its TSC then, as its stamps read it */
	double read_ns;      /**< the two reads' window: half of it is their error */
	double error_ns;     /**< |master offset| (0 on the grandmaster) */
};

/** Parse pmc's answers to GET TIME_STATUS_NP, PORT_DATA_SET and DEFAULT_DATA_SET. -EINVAL
 * when one is missing. */
int fws_ptp_parse(const char *text, struct fws_ptp_state *out);

/** Whether the state is a synchronized clock: a SLAVE port following a grandmaster, or the
 * grandmaster itself (every port MASTER, its own identity the grandmaster's). 0, or -1 with
 * why in msg. *error_ns: the clock's error against the grandmaster's. */
int fws_ptp_check(const struct fws_ptp_state *s, double *error_ns, char *msg, size_t len);

/** Ask ptp4l through pmc (-u -b 0 -d domain -s socket) and check it: 0, or -1 with why in
 * msg. */
int fws_ptp_query(const char *socket, unsigned int domain, struct fws_ptp_state *out,
		  double *error_ns, char *msg, size_t len);

#endif
