/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The report's "hosts": with load clients, who each agent was (the host's name, kernel,
 * fwstress and DPDK versions, the protocol it spoke), how the controller reached it and
 * what it owned (ports, the streams it sent and received). A lab reading a report of two
 * clients sees which machines produced its numbers and whether they ran the same build.
 */
#include <stdio.h>

#include "fws_config.h"
#include "fws_run.h"
#include "report_int.h"

/* The names of the bits of mask: ports (ports) or streams. */
static json_t *
names(const struct fws_cfg *cfg, uint64_t mask, bool ports)
{
	json_t *a = json_array();
	unsigned int i, n = ports ? cfg->n_ports : cfg->n_streams;

	for (i = 0; i < n; i++)
		if ((mask >> i) & 1)
			json_array_append_new(
				a, json_string(ports ? cfg->ports[i].name : cfg->streams[i].name));
	return a;
}

json_t *
fws_report_hosts_json(const struct fws_cfg *cfg, const struct fws_host_info *hosts, unsigned int n)
{
	json_t *a;
	unsigned int k;

	if (n == 0)
		return NULL;
	a = json_array();
	for (k = 0; k < n; k++) {
		const struct fws_host_info *h = &hosts[k];
		char proto[24];

		snprintf(proto, sizeof(proto), "%d.%d", h->proto[0], h->proto[1]);
		json_array_append_new(
			a, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:o, s:o, s:o}",
				     "name", h->name, "via", h->via, "hostname", h->hostname,
				     "kernel", h->kernel, "fwstress", h->fwstress, "dpdk", h->dpdk,
				     "protocol", h->proto[0] ? proto : "in process", "tsc_hz",
				     (json_int_t)h->tsc_hz, "ports", names(cfg, h->ports, true),
				     "sends", names(cfg, h->tx_streams, false), "receives",
				     names(cfg, h->rx_streams, false)));
	}
	return a;
}

json_t *
fws_report_hosts(const struct fws_run *run)
{
	return fws_report_hosts_json(run->cfg, run->hosts, run->n_hosts);
}

/* A list of names as "a, b" into buf. */
static const char *
joined(const struct fws_cfg *cfg, uint64_t mask, bool ports, char *buf, size_t len)
{
	unsigned int i, n = ports ? cfg->n_ports : cfg->n_streams;
	size_t o = 0;

	buf[0] = '\0';
	for (i = 0; i < n && o < len; i++)
		if ((mask >> i) & 1)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "",
					      ports ? cfg->ports[i].name : cfg->streams[i].name);
	return buf[0] ? buf : "none";
}

void
fws_report_hosts_text(FILE *f, const struct fws_cfg *cfg, const struct fws_host_info *hosts,
		      unsigned int n)
{
	char p[256], tx[512], rx[512];
	unsigned int k;

	for (k = 0; k < n; k++) {
		const struct fws_host_info *h = &hosts[k];

		fprintf(f,
			"host %-8s %s (%s), fwstress %s, %s, protocol %d.%d; ports %s; sends %s; "
			"receives %s\n",
			h->name, h->hostname, h->kernel, h->fwstress, h->dpdk, h->proto[0],
			h->proto[1], joined(cfg, h->ports, true, p, sizeof(p)),
			joined(cfg, h->tx_streams, false, tx, sizeof(tx)),
			joined(cfg, h->rx_streams, false, rx, sizeof(rx)));
	}
}
