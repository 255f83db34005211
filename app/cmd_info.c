/* SPDX-License-Identifier: BSD-3-Clause */
/* fwstress validate and fwstress ports: what a config says, what ports DPDK sees. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <rte_eal.h>
#include <rte_ethdev.h>

#include "fws_app.h"
#include "fws_port.h"

static void
usage_validate(FILE *f)
{
	fprintf(f,
		"Usage: fwstress validate [CONFIG]\n"
		"\n"
		"Parses CONFIG strictly and prints the normalised config (every default filled\n"
		"in) as JSON. Without CONFIG, the embedded default. Exit 0 when valid, 2 with a\n"
		"one-line error naming the JSON path, value and line when not.\n"
		"\nTop-level keys:\n");
	fws_config_doc(f);
}

static void
usage_ports(FILE *f)
{
	fprintf(f,
		"Usage: fwstress ports [EAL ARGS --] [CONFIG]\n"
		"\n"
		"Starts EAL (with CONFIG's \"eal\" list and the arguments before \"--\"), probes\n"
		"CONFIG's devices, and lists every port DPDK sees: name, driver, PCI address or\n"
		"vdev, MAC, link, NUMA socket, queues and offloads, to fill in a config.\n"
		"Without CONFIG only the EAL arguments count (e.g. -a 0000:01:00.0).\n");
}

int
cmd_validate(int argc, char **argv)
{
	struct fws_cfg *cfg;
	json_t *j;
	char *s;

	if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		usage_validate(stdout);
		return EXIT_OK;
	}
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		usage_validate(stderr);
		return EXIT_USAGE;
	}
	cfg = app_load_config(argc == 2 ? argv[1] : NULL);
	if (cfg == NULL)
		return fws_err_exit_code(FWS_ERR_CONFIG);
	j = fws_config_to_json(cfg);
	s = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
	printf("%s\n", s);
	free(s);
	json_decref(j);
	fws_config_free(cfg);
	return EXIT_OK;
}

int
cmd_ports(int argc, char **argv)
{
	struct fws_cfg *cfg = NULL;
	char **cli_eal, err[512];
	int n_cli_eal, i, ids[FWS_CFG_MAX_PORTS];
	uint16_t pid;

	app_split_eal(&argc, &argv, &cli_eal, &n_cli_eal);
	if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		usage_ports(stdout);
		return EXIT_OK;
	}
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		usage_ports(stderr);
		return EXIT_USAGE;
	}
	if (argc == 2 && (cfg = app_load_config(argv[1])) == NULL)
		return fws_err_exit_code(FWS_ERR_CONFIG);
	if (app_eal_start(cfg, cli_eal, n_cli_eal) < 0) {
		fws_config_free(cfg);
		return fws_err_exit_code(FWS_ERR_SETUP);
	}
	for (i = 0; cfg && i < (int)cfg->n_ports; i++)
		if ((ids[i] = fws_port_resolve(cfg->ports[i].device, err, sizeof(err))) < 0)
			fprintf(stderr, "fwstress: ports[%d] (%s): %s\n", i, cfg->ports[i].name,
				err);
	if (rte_eth_dev_count_avail() == 0)
		printf("no ports: bind NICs to a DPDK driver (dpdk-devbind.py) or give vdevs\n");
	RTE_ETH_FOREACH_DEV(pid)
	{
		struct rte_eth_dev_info info;
		struct rte_ether_addr mac;
		struct rte_eth_link link;
		char name[RTE_ETH_NAME_MAX_LEN], macs[RTE_ETHER_ADDR_FMT_SIZE];

		if (rte_eth_dev_info_get(pid, &info) != 0)
			continue;
		rte_eth_dev_get_name_by_port(pid, name);
		rte_eth_macaddr_get(pid, &mac);
		rte_ether_format_addr(macs, sizeof(macs), &mac);
		memset(&link, 0, sizeof(link));
		rte_eth_link_get_nowait(pid, &link);
		printf("port %u: %s\n  driver %s, socket %d, MAC %s\n  link %s", pid, name,
		       info.driver_name, rte_eth_dev_socket_id(pid), macs,
		       link.link_status ? "up" : "down");
		if (link.link_status && link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN)
			printf(", %u Mbit/s %s-duplex", link.link_speed,
			       link.link_duplex ? "full" : "half");
		printf("\n");
		printf("  queues: %u RX, %u TX; descriptors RX %u-%u, TX %u-%u; max frame %u\n",
		       info.max_rx_queues, info.max_tx_queues, info.rx_desc_lim.nb_min,
		       info.rx_desc_lim.nb_max, info.tx_desc_lim.nb_min, info.tx_desc_lim.nb_max,
		       info.max_rx_pktlen);
		printf("  offloads: TX IPv4 checksum %s, UDP checksum %s, fast free %s; RSS %s\n",
		       info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM ? "yes" : "no",
		       info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_UDP_CKSUM ? "yes" : "no",
		       info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE ? "yes" : "no",
		       info.flow_type_rss_offloads ? "yes" : "no");
		for (i = 0; cfg && i < (int)cfg->n_ports; i++)
			if (ids[i] == (int)pid)
				printf("  config port \"%s\" (%s)\n", cfg->ports[i].name,
				       cfg->ports[i].device);
	}
	fws_config_free(cfg);
	rte_eal_cleanup();
	return EXIT_OK;
}
