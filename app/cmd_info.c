/* SPDX-License-Identifier: BSD-3-Clause */
/* fwstress validate and fwstress ports: what a config says, what ports DPDK sees. */
#include <dirent.h>
#include <net/if.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <rte_eal.h>
#include <rte_ethdev.h>

#include "fws_estimate.h"
#include "fws_app.h"
#include "fws_campaign.h"
#include "fws_compat.h"
#include "fws_hwstamp.h"
#include "fws_pace.h"
#include "fws_port.h"
#include "fws_text.h"

static void
usage_validate(FILE *f)
{
	fprintf(f,
		"Usage: fwstress validate [CONFIG | PLAN]\n"
		"       fwstress validate --doc\n"
		"\n"
		"Parses CONFIG strictly and prints the normalised config (every default filled\n"
		"in) as JSON. Without CONFIG, the embedded default. Exit 0 when valid, 2 with a\n"
		"one-line error naming the JSON path, value and line when not. A PCI device this\n"
		"machine does not have is a note, not an error: a config is checked anywhere,\n"
		"and run checks its devices where it runs. A campaign PLAN (a file with\n"
		"\"scenarios\") is checked as fwstress campaign --dry-run checks it.\n"
		"\nOptions:\n"
		"      --doc            the reference of the keys below in Markdown\n"
		"                       (docs/reference/configuration.md)\n"
		"  -h, --help           this help\n"
		"\nExample: fwstress validate config/lab-firewall.json\n"
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
		"Without CONFIG only the EAL arguments count (e.g. -a 0000:01:00.0); without\n"
		"device arguments either, only the PCI network devices a DPDK driver holds\n"
		"(vfio-pci, uio, mlx5's) are probed, never one carrying the default route.\n"
		"Then the PCI network devices DPDK cannot use, and why: bound to a kernel\n"
		"driver (with the interface and its state), bound to none, or bound to vfio-pci\n"
		"but left out by the EAL arguments (FWS_SYSFS: another sysfs root, for tests).\n"
		"\nOptions:\n"
		"  -h, --help           this help\n");
}

/* The sysfs root: FWS_SYSFS (tests), else /sys. */
static const char *
sysfs(void)
{
	const char *s = getenv("FWS_SYSFS");

	return s && *s ? s : "/sys";
}

/* a + b into buf; false when it does not fit. */
static bool
join(char *buf, size_t len, const char *a, const char *b)
{
	return (size_t)snprintf(buf, len, "%s%s", a, b) < len;
}

/* The first line of a sysfs file, or "". */
static void
read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f == NULL)
		return;
	if (fgets(buf, (int)len, f) == NULL)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* The driver bound to PCI device dir ("" for none). */
static void
pci_driver(const char *dir, char *buf, size_t len)
{
	char link[600], target[512];
	ssize_t n;

	buf[0] = '\0';
	if (!join(link, sizeof(link), dir, "/driver"))
		return;
	n = readlink(link, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		strlcpy(buf, strrchr(target, '/') ? strrchr(target, '/') + 1 : target, len);
	}
}

/* Whether the kernel routes its default route through iface (/proc/net/route). */
static bool
default_route(const char *iface)
{
	char line[256], name[64];
	unsigned int dest;
	bool found = false;
	FILE *f = fopen("/proc/net/route", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %x", name, &dest) == 2 && dest == 0 && !strcmp(name, iface))
			found = true;
	if (f)
		fclose(f);
	return found;
}

/* Interfaces under dir/net: "eth0 up", ", " between them; *route set when one carries the
 * default route. */
static size_t
ifaces_in(const char *dir, char *buf, size_t len, size_t used, bool *route)
{
	char path[600], state[32], name[4 * IFNAMSIZ + 1];
	struct dirent *e;
	DIR *d;

	if (!join(path, sizeof(path), dir, "/net") || (d = opendir(path)) == NULL)
		return used;
	while ((e = readdir(d)) != NULL && used < len) {
		if (e->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/net/%s/operstate", dir, e->d_name) >=
		    (int)sizeof(path))
			continue;
		read_line(path, state, sizeof(state));
		fws_text_clean(state, sizeof(state));
		*route |= default_route(e->d_name);
		/* A kernel interface's name may hold control characters: shown safe. */
		used += (size_t)snprintf(buf + used, len - used, "%s%s %s", used ? ", " : "",
					 fws_text_safe(name, sizeof(name), e->d_name, IFNAMSIZ),
					 state[0] ? state : "unknown");
	}
	closedir(d);
	return used;
}

/* The kernel interfaces of PCI device dir (also behind virtio), with their state. */
static void
pci_ifaces(const char *dir, char *buf, size_t len, bool *route)
{
	char sub[600];
	struct dirent *e;
	size_t used;
	DIR *d;

	buf[0] = '\0';
	*route = false;
	used = ifaces_in(dir, buf, len, 0, route);
	if ((d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, "virtio", 6) == 0 &&
		    snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name) < (int)sizeof(sub))
			used = ifaces_in(sub, buf, len, used, route);
	closedir(d);
}

/* Whether DPDK probed the PCI device called name. */
static bool
probed(const char *name)
{
	uint16_t pid;

	if (!rte_eal_has_pci() && rte_eal_process_type() == RTE_PROC_INVALID)
		return false;
	RTE_ETH_FOREACH_DEV(pid)
	{
		struct rte_eth_dev_info info;

		if (rte_eth_dev_info_get(pid, &info) == 0 && info.device &&
		    strcmp(rte_dev_name(info.device), name) == 0)
			return true;
	}
	return false;
}

/* One PCI network device DPDK does not drive; why, and what to do. */
static void
unusable(const char *addr, const char *dir)
{
	char drv[128], ifs[256];
	bool route;

	pci_driver(dir, drv, sizeof(drv));
	pci_ifaces(dir, ifs, sizeof(ifs), &route);
	printf("PCI %s: ", addr);
	if (route)
		printf("bound to the kernel driver %s (interface %s): it carries this machine's "
		       "default route, leave it to the kernel\n",
		       drv, ifs);
	else if (fws_config_dpdk_driver(drv))
		printf("bound to %s but not probed: the EAL arguments leave it out (--no-pci, or "
		       "-a naming other devices)\n",
		       drv);
	else if (drv[0])
		printf("bound to the kernel driver %s%s%s%s: DPDK cannot use it while the kernel "
		       "has it: tools/setup --bind %s\n",
		       drv, ifs[0] ? " (interface " : "", ifs, ifs[0] ? ")" : "", addr);
	else
		printf("no driver bound: tools/setup --bind %s\n", addr);
}

/* Every PCI network device (class 0x02) that DPDK did not probe. */
static void
list_unusable(bool eal_up)
{
	char dir[512], cls[32];
	unsigned int n = 0;
	struct dirent *e;
	DIR *d;

	if (!join(dir, sizeof(dir), sysfs(), "/bus/pci/devices") || (d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char path[600];

		if (e->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/%s/class", dir, e->d_name) >=
		    (int)sizeof(path))
			continue;
		read_line(path, cls, sizeof(cls));
		if (strncmp(cls, "0x02", 4) != 0 || (eal_up && probed(e->d_name)))
			continue;
		if (n++ == 0)
			printf("network devices DPDK cannot use:\n");
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) < (int)sizeof(path))
			unusable(e->d_name, path);
	}
	closedir(d);
	if (n == 0)
		printf("no PCI network device left out\n");
}

/* How long run, search and sweep of cfg take: the estimate they print before they start. */
static void
say_estimates(const struct fws_cfg *cfg)
{
	static const enum fws_campaign_cmd cmds[] = {FWS_CAMPAIGN_RUN, FWS_CAMPAIGN_SEARCH,
						     FWS_CAMPAIGN_SWEEP};
	char line[400], one[120];
	size_t at = 0;
	unsigned int i;

	for (i = 0; i < RTE_DIM(cmds) && at < sizeof(line); i++) {
		struct fws_estimate e;

		fws_estimate_cells(cfg, cmds[i], &e);
		at += (size_t)snprintf(line + at, sizeof(line) - at, "%s%s %s", i ? "; " : "",
				       fws_campaign_cmd_name(cmds[i]),
				       app_estimate_text(one, sizeof(one), &e, e.cells));
	}
	fprintf(stderr, "fwstress: estimate: %s\n", line);
}

/* Whether the EAL arguments name which PCI devices to probe (or none). */
static bool
names_pci(char **eal, int n)
{
	static const char *const opts[] = {
		"-a",      "--allow", "-b", "--block", "-w", "--pci-whitelist", "--pci-blacklist",
		"--no-pci"};
	unsigned int k;
	int i;

	for (i = 0; i < n; i++)
		for (k = 0; k < RTE_DIM(opts); k++)
			if (strncmp(eal[i], opts[k], strlen(opts[k])) == 0)
				return true;
	return false;
}

/*
 * ports without a config or device arguments probes only the PCI network devices a DPDK
 * driver holds (vfio-pci, uio, mlx5's shared one), never one that carries the default route:
 * the management NIC is not touched (issue 51, item 15). eal (n args) gets "-a ADDR" for
 * each, or --no-pci for none; the list is static.
 */
static void
dpdk_devices_only(char ***eal, int *n)
{
	static char *args[FWS_CFG_MAX_EAL];
	static char addrs[FWS_CFG_MAX_EAL / 2][32];
	static char allow[] = "-a", nopci[] = "--no-pci";
	char dir[512], path[600], cls[32], drv[128], ifs[256];
	int k = 0, a = 0, i;
	struct dirent *e;
	bool route;
	DIR *d;

	for (i = 0; i < *n && k < (int)RTE_DIM(args) - 3; i++)
		args[k++] = (*eal)[i];
	if (join(dir, sizeof(dir), sysfs(), "/bus/pci/devices") && (d = opendir(dir)) != NULL) {
		while ((e = readdir(d)) != NULL && k < (int)RTE_DIM(args) - 3 &&
		       a < (int)RTE_DIM(addrs)) {
			if (e->d_name[0] == '.' || snprintf(path, sizeof(path), "%s/%s/class", dir,
							    e->d_name) >= (int)sizeof(path))
				continue;
			read_line(path, cls, sizeof(cls));
			path[strlen(path) - strlen("/class")] = '\0';
			if (strncmp(cls, "0x02", 4) != 0)
				continue;
			pci_driver(path, drv, sizeof(drv));
			pci_ifaces(path, ifs, sizeof(ifs), &route);
			if (route || !fws_config_dpdk_driver(drv))
				continue;
			/* in address order, whatever order the directory lists them in */
			for (i = a; i > 0 && strcmp(addrs[i - 1], e->d_name) > 0; i--)
				memcpy(addrs[i], addrs[i - 1], sizeof(addrs[i]));
			strlcpy(addrs[i], e->d_name, sizeof(addrs[i]));
			a++;
		}
		closedir(d);
	}
	for (i = 0; i < a; i++) {
		args[k++] = allow;
		args[k++] = addrs[i];
	}
	if (a == 0)
		args[k++] = nopci;
	printf("probing only the PCI network devices a DPDK driver holds:");
	for (i = 0; i < a; i++)
		printf(" %s", addrs[i]);
	printf("%s (the rest stay the kernel's; name devices with -a ADDR ... -- to choose)\n",
	       a ? "" : " none");
	*eal = args;
	*n = k;
}

int
cmd_validate(int argc, char **argv)
{
	struct fws_cfg *cfg;
	char err[700];
	int out_err = 0;
	json_t *j;
	char *s;

	if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		usage_validate(stdout);
		return EXIT_OK;
	}
	if (argc == 2 && strcmp(argv[1], "--doc") == 0) {
		fws_config_doc_md(stdout); /* a failed write: one line and exit 9, at the end */
		return EXIT_OK;
	}
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		usage_validate(stderr);
		return EXIT_USAGE;
	}
	if (argc == 2 && fws_campaign_is_plan(argv[1])) { /* a plan: checked as campaign would */
		char *dry[] = {"campaign", "--dry-run", argv[1], NULL};

		return cmd_campaign(3, dry);
	}
	cfg = app_load_config(argc == 2 ? argv[1] : NULL);
	if (cfg == NULL)
		return app_config_exit();
	if (fws_config_local_devices(cfg, err, sizeof(err)) < 0)
		fprintf(stderr,
			"fwstress: note: %s: valid, but %s (a command that runs it checks again, "
			"on the load client)\n",
			argv[1], err);
	j = fws_config_to_json(cfg);
	s = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
	printf("%s\n", s);
	app_out_check(stdout, &out_err);
	if (out_err == 0) /* else the failed write is the one line to give, at the end */
		say_estimates(cfg);
	if (fws_config_scenario_is_label(cfg))
		fprintf(stderr,
			"fwstress: note: scenario \"%s\" is a label only: no preset applies "
			"(presets: firewall, ids, ips, appcontrol; also routing, wireguard, ipsec, "
			"openvpn)\n",
			cfg->scenario);
	free(s);
	json_decref(j);
	fws_config_free(cfg);
	return EXIT_OK;
}

/* The NIC's hardware timestamps, as a run probes them, and the latency method it gets. */
static void
stamps_line(uint16_t pid, const struct rte_eth_dev_info *info)
{
	bool rx_all, ptp;

	fws_port_stamp_probe(pid, info, &rx_all, &ptp);
	/* What a run does with "rx_stamp": "auto" when the NIC's clock reads. */
	printf("  timestamps: RX offload %s, PTP clock %s: latency from %s (%s)\n",
	       rx_all ? "yes" : "no", ptp ? "yes" : "no", fws_hwstamp_method(rx_all),
	       fws_hwstamp_why(rx_all, ptp, rx_all));
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
	if (argc == 2 && (cfg = app_load_local_config(argv[1])) == NULL)
		return app_config_exit();
	if (cfg == NULL && !names_pci(cli_eal, n_cli_eal))
		dpdk_devices_only(&cli_eal, &n_cli_eal);
	if (app_eal_start(cfg, cli_eal, n_cli_eal) < 0) {
		list_unusable(false);
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
		const char *state;
		bool zero;

		if (rte_eth_dev_info_get(pid, &info) != 0)
			continue;
		rte_eth_dev_get_name_by_port(pid, name);
		rte_eth_macaddr_get(pid, &mac);
		zero = rte_is_zero_ether_addr(&mac);
		fws_port_mac(pid, &mac); /* an in-memory port's: the one a run sends from */
		rte_ether_format_addr(macs, sizeof(macs), &mac);
		memset(&link, 0, sizeof(link));
		state = "unknown (the driver does not report it)";
		if (rte_eth_link_get_nowait(pid, &link) == 0)
			state = link.link_status
					? "up"
					: "down (not started here: a run starts the port and "
					  "waits for its link)";
		printf("port %u: %s\n  driver %s, socket %d, MAC %s%s\n  link %s", pid, name,
		       info.driver_name, rte_eth_dev_socket_id(pid), macs,
		       zero ? " (none of its own: the one fwstress gives it)" : "", state);
		if (link.link_status && link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN)
			printf(", %u Mbit/s %s-duplex", link.link_speed,
			       link.link_duplex ? "full" : "half");
		printf("\n");
		printf("  queues: %u RX, %u TX; descriptors RX %u-%u, TX %u-%u; max frame ",
		       info.max_rx_queues, info.max_tx_queues, info.rx_desc_lim.nb_min,
		       info.rx_desc_lim.nb_max, info.tx_desc_lim.nb_min, info.tx_desc_lim.nb_max);
		if (info.max_rx_pktlen >= UINT16_MAX) /* the driver sets no limit */
			printf("no limit of the driver's\n");
		else
			printf("%u bytes\n", info.max_rx_pktlen);
		printf("  offloads: TX IPv4 checksum %s, UDP checksum %s, TCP checksum %s, "
		       "fast free %s; RSS %s\n",
		       info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM ? "yes" : "no",
		       info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_UDP_CKSUM ? "yes" : "no",
		       info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_TCP_CKSUM ? "yes" : "no",
		       info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE ? "yes" : "no",
		       info.flow_type_rss_offloads ? "yes" : "no");
		stamps_line(pid, &info);
		for (i = 0; cfg && i < (int)cfg->n_ports; i++)
			if (ids[i] == (int)pid)
				printf("  config port \"%s\" (%s)\n", cfg->ports[i].name,
				       cfg->ports[i].device);
	}
	list_unusable(true);
	fws_config_free(cfg);
	rte_eal_cleanup();
	return EXIT_OK;
}
