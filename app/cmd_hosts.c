/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwstress hosts check: the preflight of a test across load clients. Every host's agent is
 * started and set up exactly as a run does it (ssh, hello, EAL, ports), and what it is and
 * owns is listed, with no traffic: a lab engineer learns what is wrong before the first
 * trial, from the same code path the trial would take.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <rte_eal.h>

#include "fws_agents.h"
#include "fws_app.h"

static void
usage_hosts(FILE *f)
{
	fprintf(f,
		"Usage: fwstress hosts check [EAL ARGS --] CONFIG\n"
		"\n"
		"Starts every load client's agent of CONFIG as a run would (its command: by\n"
		"default ssh -T -o BatchMode=yes HOST fwstress agent), sets it up (EAL, "
		"hugepages,\n"
		"its ports) and lists, without sending any traffic: each host's hostname, kernel,\n"
		"fwstress build and DPDK line, the control protocol, its TSC rate and the round\n"
		"trip of the controller's clock probe (half of it bounds a one-way latency across\n"
		"hosts); each port's host, driver, MAC, link and speed. Exit 0 when every agent\n"
		"answered and every port's link is up; 3 with one line naming what is not (the\n"
		"same line a run would give); 4 when interrupted (Ctrl-C) while it waits.\n"
		"\nOptions:\n"
		"  -h, --help           this help\n"
		"\n"
		"Example: fwstress hosts check config/hw-two-clients.json\n");
}

/* Each load client: what it is, what it owns, how far its clock reads. */
static void
print_hosts(struct fws_trial *t, const struct fws_cfg *cfg)
{
	struct fws_host_info h[FWS_CFG_MAX_HOSTS + 1];
	unsigned int n = fws_trial_hosts(t, h, FWS_CFG_MAX_HOSTS + 1), k, p;

	for (k = 0; k < n; k++) {
		double probe = fws_trial_probe_ns(t, k);

		printf("host %s: %s, %s; fwstress %s, %s; protocol %d.%d; TSC %.3f MHz\n",
		       h[k].name, h[k].hostname[0] ? h[k].hostname : "?",
		       h[k].kernel[0] ? h[k].kernel : "?", h[k].fwstress, h[k].dpdk, h[k].proto[0],
		       h[k].proto[1], (double)h[k].tsc_hz / 1e6);
		printf("  reached by: %s\n", h[k].via[0] ? h[k].via : "this process");
		if (probe >= 0 && n > 1)
			printf("  clock probe: round trip %.1f us (a one-way figure across hosts "
			       "carries at least %.1f us of bound)\n",
			       probe * 2 / 1e3, probe / 1e3);
		printf("  owns:");
		for (p = 0; p < cfg->n_ports; p++)
			if ((h[k].ports >> p) & 1)
				printf(" %s", cfg->ports[p].name);
		printf("\n");
	}
}

/* Every port: its host's facts; the first whose link is down, or NULL. */
static const char *
print_ports(struct fws_trial *t, const struct fws_cfg *cfg)
{
	struct fws_port_result pr[FWS_CFG_MAX_PORTS];
	unsigned int n = fws_trial_ports(t, pr), p;
	const char *down = NULL;

	for (p = 0; p < n; p++) {
		const struct fws_cfg_port *cp = &cfg->ports[p];

		printf("port %s (%s on %s): driver %s, MAC %s, link %s", pr[p].name, cp->device,
		       cp->host ? cfg->hosts[cp->host - 1].name : "this host", pr[p].driver,
		       pr[p].mac, pr[p].link_up ? "up" : "DOWN");
		if (pr[p].link_up && pr[p].link_speed_mbps)
			printf(", %u Mbit/s", pr[p].link_speed_mbps);
		printf("%s\n", pr[p].physical ? "" : " (a virtual device)");
		if (!pr[p].link_up && down == NULL)
			down = cp->name;
	}
	return down;
}

/* hosts' options */
const struct option app_hosts_opts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};

int
cmd_hosts(int argc, char **argv)
{
	struct fws_err e = {0};
	struct fws_trial *t;
	struct fws_cfg *cfg;
	char **cli_eal;
	const char *down;
	int n_cli_eal, c, code = EXIT_OK;
	bool eal;

	app_split_eal(&argc, &argv, &cli_eal, &n_cli_eal);
	optind = 1;
	while ((c = app_getopt("hosts", argc, argv, "h", app_hosts_opts)) != -1) {
		if (c != 'h')
			return EXIT_USAGE;
		usage_hosts(stdout);
		return EXIT_OK;
	}
	if (argc - optind != 2 || strcmp(argv[optind], "check") != 0) {
		fprintf(stderr, "fwstress hosts: give \"check CONFIG\" (fwstress hosts --help)\n");
		return EXIT_USAGE;
	}
	if ((cfg = app_load_local_config(argv[optind + 1])) == NULL)
		return app_config_exit();
	/* Ctrl-C (and TERM, HUP) while an agent is waited for: one line naming the host, exit 4,
	 * the host's command ended, as a run does. */
	app_catch_stop_signals();
	eal = fws_config_local_ports(cfg);
	if (eal && app_eal_start(cfg, cli_eal, n_cli_eal) < 0) {
		fws_config_free(cfg);
		return fws_err_exit_code(FWS_ERR_SETUP);
	}
	if ((t = fws_trial_create(cfg, &e)) == NULL) {
		fprintf(stderr, "fwstress: %s\n", e.msg);
		code = fws_err_exit_code(e.kind);
	} else {
		print_hosts(t, cfg);
		if ((down = print_ports(t, cfg)) != NULL) {
			fprintf(stderr, "fwstress: hosts check: port %s: link down\n", down);
			code = fws_err_exit_code(FWS_ERR_SETUP);
		}
		fws_trial_destroy(t);
	}
	fws_config_free(cfg);
	if (eal)
		rte_eal_cleanup();
	return code;
}
