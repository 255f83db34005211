/* SPDX-License-Identifier: BSD-3-Clause */
/* ptp4l's state through pmc (fws_ptp.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "fws_compat.h"
#include "fws_ptp.h"
#include "fws_spawn.h"
#include "fws_util.h"

#define PMC_OUT_MAX 16384
#define PMC_TIMEOUT_MS 5000

/* The value after key at the start of a line's words, into out. */
static bool
field(const char *line, const char *key, char *out, size_t len)
{
	size_t k = strlen(key);
	char fmt[16];

	while (*line == ' ' || *line == '\t')
		line++;
	if (strncmp(line, key, k) != 0 || (line[k] != ' ' && line[k] != '\t'))
		return false;
	snprintf(fmt, sizeof(fmt), "%%%zus", len - 1);
	return sscanf(line + k, fmt, out) == 1;
}

/* One line of pmc's output into s; have: bit 0 TIME_STATUS_NP, 1 a port, 2 DEFAULT_DATA_SET */
static void
parse_line(const char *line, struct fws_ptp_state *s, unsigned int *have)
{
	char v[FWS_PTP_ID_LEN];

	if (field(line, "master_offset", v, sizeof(v))) {
		s->master_offset_ns = strtod(v, NULL);
		*have |= 1;
	} else if (field(line, "gmPresent", v, sizeof(v))) {
		s->gm_present = strcmp(v, "true") == 0;
	} else if (field(line, "gmIdentity", v, sizeof(v))) {
		strlcpy(s->gm, v, sizeof(s->gm));
	} else if (field(line, "portState", v, sizeof(v))) {
		if (!(*have & 2) || strcmp(v, "SLAVE") == 0)
			strlcpy(s->port_state, v, sizeof(s->port_state));
		s->all_master &= strcmp(v, "MASTER") == 0;
		*have |= 2;
	} else if (field(line, "clockIdentity", v, sizeof(v))) {
		strlcpy(s->identity, v, sizeof(s->identity));
		*have |= 4;
	}
}

int
fws_ptp_parse(const char *text, struct fws_ptp_state *out)
{
	unsigned int have = 0;
	const char *p = text;

	memset(out, 0, sizeof(*out));
	out->all_master = true;
	while (p != NULL && *p) {
		char line[256];
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		snprintf(line, sizeof(line), "%.*s", (int)FWS_MIN(n, sizeof(line) - 1), p);
		parse_line(line, out, &have);
		p = nl ? nl + 1 : NULL;
	}
	return have == 7 && out->gm[0] && isfinite(out->master_offset_ns) ? 0 : -EINVAL;
}

int
fws_ptp_check(const struct fws_ptp_state *s, double *error_ns, char *msg, size_t len)
{
	if (strcmp(s->port_state, "SLAVE") == 0 && s->gm_present) {
		*error_ns = fabs(s->master_offset_ns);
		return 0;
	}
	if (s->all_master && !s->gm_present && strcmp(s->gm, s->identity) == 0) {
		*error_ns = 0; /* the grandmaster: its clock is the time */
		return 0;
	}
	snprintf(msg, len,
		 "ptp4l's port is %s%s: this clock is not synchronized (want SLAVE, or MASTER "
		 "on the grandmaster)",
		 s->port_state, s->gm_present ? "" : " with no grandmaster");
	return -1;
}

int
fws_ptp_query(const char *socket, unsigned int domain, struct fws_ptp_state *out, double *error_ns,
	      char *msg, size_t len)
{
	char dom[8];
	char *const argv[] = {"pmc",
			      "-u",
			      "-b",
			      "0",
			      "-d",
			      dom,
			      "-s",
			      (char *)socket,
			      "GET TIME_STATUS_NP",
			      "GET PORT_DATA_SET",
			      "GET DEFAULT_DATA_SET",
			      NULL};
	char *buf = malloc(PMC_OUT_MAX);
	int st = 0, rc;

	snprintf(dom, sizeof(dom), "%u", domain & 0xff);
	if (buf == NULL) {
		snprintf(msg, len, "%s", strerror(ENOMEM));
		return -1;
	}
	rc = fws_spawn_capture(argv, buf, PMC_OUT_MAX, PMC_TIMEOUT_MS, &st) < 0 ? errno : 0;
	if (rc != 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		snprintf(msg, len, "pmc: %s",
			 rc                                        ? strerror(rc)
			 : WIFEXITED(st) && WEXITSTATUS(st) == 127 ? "not found (Debian's linuxptp)"
								   : "it failed");
		free(buf);
		return -1;
	}
	rc = fws_ptp_parse(buf, out);
	free(buf);
	if (rc < 0) {
		snprintf(msg, len,
			 "pmc -s %s: no answer from ptp4l (is it running, with that "
			 "uds_address, in PTP domain %u?)",
			 socket, domain & 0xff);
		return -1;
	}
	return fws_ptp_check(out, error_ns, msg, len);
}
