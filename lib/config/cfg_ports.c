/* SPDX-License-Identifier: BSD-3-Clause */
/* Config sections: ports, flows and streams (explicit, or expanded from a direction). */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_cell.h"
#include "fws_config.h"
#include "fws_frame.h"
#include "fws_sig.h"
#include "cfg_int.h"
#include "fws_util.h"

/* One address or a list: "198.18.0.2/24", "2001:2:0:1::2/64" (length optional). */
static int
cfg_parse_addrs(struct cfg_ctx *c, const json_t *v, bool v6, struct fws_cfg_port *p)
{
	const json_t *e;
	size_t i, n = json_is_array(v) ? json_array_size(v) : 1, old;

	if (n == 0 || n > FWS_CFG_MAX_ADDRS)
		return cfg_fail(c, "expected 1 to %d addresses", FWS_CFG_MAX_ADDRS);
	for (i = 0; i < n; i++) {
		char s[64], *slash, *end;
		long len = v6 ? 64 : 24;

		e = json_is_array(v) ? json_array_get(v, i) : v;
		old = json_is_array(v) ? cfg_push_idx(c, i) : strlen(c->path);
		if (cfg_want_type(c, e, JSON_STRING, v6 ? "an IPv6 address" : "an IPv4 address") <
		    0)
			return -EINVAL;
		strlcpy(s, json_string_value(e), sizeof(s));
		if ((slash = strchr(s, '/')) != NULL) {
			*slash = '\0';
			len = strtol(slash + 1, &end, 10);
			if (*end || end == slash + 1 || len < 1 || len > (v6 ? 128 : 32))
				return cfg_fail(c, "\"%s\": bad prefix length",
						json_string_value(e));
		}
		if (v6) {
			if (inet_pton(AF_INET6, s, p->ipv6[i]) != 1)
				return cfg_fail(c, "\"%s\" is not an IPv6 address",
						json_string_value(e));
			p->ipv6_len[i] = (uint8_t)len;
		} else {
			if (cfg_ipv4_of(s, &p->ipv4[i]) < 0 || p->ipv4[i] == 0)
				return cfg_fail(c, "\"%s\" is not an IPv4 address",
						json_string_value(e));
			p->ipv4_len[i] = (uint8_t)len;
		}
		cfg_pop(c, old);
	}
	if (v6)
		p->n_ipv6 = (unsigned int)n;
	else
		p->n_ipv4 = (unsigned int)n;
	return 0;
}

static int
port_name(struct cfg_ctx *c, const json_t *x, struct fws_cfg_port *p)
{
	return cfg_get_string(c, x, p->name, sizeof(p->name));
}

/* DPDK 22.11's virtual ethdev drivers (their PMD_INFO_STRING names), and the aliases it
 * registers: a device that is no PCI address and no ringpair must start with one. */
static const char *const vdev_drivers[] = {
	"net_af_packet", "net_af_xdp",      "net_bonding", "net_failsafe",    "net_memif",
	"net_null",      "net_pcap",        "net_ring",    "net_softnic",     "net_tap",
	"net_tun",       "net_vdev_netvsc", "net_vhost",   "net_virtio_user", "eth_af_packet",
	"eth_bond",      "eth_null",        "eth_pcap",    "eth_ring",        "eth_vhost",
	"virtio_user",
};

/* n hex digits at s, exactly (no sign, no 0x, no space): their value, or -1. */
static long
hex_digits(const char *s, unsigned int n)
{
	long v = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		int c = s[i];

		if (c >= '0' && c <= '9')
			v = v * 16 + (c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v = v * 16 + ((c | 0x20) - 'a' + 10);
		else
			return -1;
	}
	return v;
}

/* A PCI address as the PCI spec numbers it: [DDDD:]BB:DD.F, the domain 4 hex digits, the bus 2,
 * the device 2 (0-1f), the function 1 (0-7), the rest (devargs) after a comma. Written in full
 * into full; false when d is no PCI address, with why in *why where it looked like one (a
 * device or function out of range). */
static bool
pci_parse(const char *d, char *full, size_t len, const char **why)
{
	long dom = 0, bus, dev, fn;
	const char *p = d;

	*why = NULL;
	if (hex_digits(d, 4) >= 0 && d[4] == ':') {
		dom = hex_digits(d, 4);
		p = d + 5;
	}
	if ((bus = hex_digits(p, 2)) < 0 || p[2] != ':' || (dev = hex_digits(p + 3, 2)) < 0 ||
	    p[5] != '.' || (fn = hex_digits(p + 6, 1)) < 0 || (p[7] != '\0' && p[7] != ','))
		return false;
	if (dev > 0x1f)
		*why = "its device is above 1f (5 bits)";
	else if (fn > 7)
		*why = "its function is above 7 (3 bits)";
	if (*why)
		return false;
	snprintf(full, len, "%04lx:%02lx:%02lx.%lx", dom, bus, dev, fn);
	return true;
}

static bool
pci_address(const char *d, char *full, size_t len)
{
	const char *why;

	return pci_parse(d, full, len, &why);
}

/* A device's form: a PCI address, or a vdev that names a driver DPDK has. Whether the PCI
 * device is there is the host's business (fws_config_local_devices): a config is checked on
 * a laptop before it runs on the load client. */
static int
device_known(struct cfg_ctx *c, const char *d)
{
	const char *why;
	char full[16];
	size_t i;

	if (pci_parse(d, full, sizeof(full), &why))
		return 0;
	if (why)
		return cfg_fail(c, "device \"%s\": not a PCI address: %s ([DDDD:]BB:DD.F in hex)",
				d, why);
	for (i = 0; i < FWS_DIM(vdev_drivers); i++)
		if (strncmp(d, vdev_drivers[i], strlen(vdev_drivers[i])) == 0)
			return 0;
	return cfg_fail(c,
			"device \"%s\": not a PCI address ([DDDD:]BB:DD.F), a virtual device of "
			"a DPDK driver (net_af_packet0, net_memif0, net_null0, net_pcap0, "
			"net_ring0, net_tap0, ...) or ringpair:NAME:a|b",
			d);
}

/* Drivers through which DPDK reaches a PCI NIC: the user-space ones, and the kernel drivers
 * of NICs DPDK shares with the kernel (bifurcated: mlx4, mlx5). */
static const char *const dpdk_reachable[] = {"vfio-pci",  "uio_pci_generic", "igb_uio",
					     "mlx4_core", "mlx5_core",       NULL};

bool
fws_config_dpdk_driver(const char *drv)
{
	unsigned int k;

	for (k = 0; dpdk_reachable[k]; k++)
		if (strcmp(drv, dpdk_reachable[k]) == 0)
			return true;
	return false;
}

/* Whether the PCI device at path (sysfs) has no driver DPDK can use, with err saying what to
 * run: before EAL starts, one line, rather than a probe that finds nothing. */
static bool
pci_unbound(const char *path, unsigned int i, const char *full, char *err, size_t errlen)
{
	char link[700], target[256];
	const char *drv;
	ssize_t n;

	snprintf(link, sizeof(link), "%s/driver", path);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0) {
		snprintf(err, errlen,
			 "ports[%u].device: PCI %s is bound to no driver, so DPDK cannot use it: "
			 "tools/setup --bind %s",
			 i, full, full);
		return true;
	}
	target[n] = '\0';
	drv = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	if (fws_config_dpdk_driver(drv))
		return false;
	snprintf(err, errlen,
		 "ports[%u].device: PCI %s is bound to the kernel driver %s: DPDK cannot use it "
		 "while the kernel has it: tools/setup --bind %s",
		 i, full, drv, full);
	return true;
}

int
fws_config_local_devices(const struct fws_cfg *cfg, char *err, size_t errlen)
{
	const char *sys = getenv("FWS_SYSFS") ? getenv("FWS_SYSFS") : "/sys";
	char full[16], path[600];
	unsigned int i;

	for (i = 0; i < cfg->n_ports; i++) {
		const char *d = cfg->ports[i].device;

		if (cfg->ports[i].host != 0 || !pci_address(d, full, sizeof(full)))
			continue; /* another host's, or a virtual device */
		snprintf(path, sizeof(path), "%s/bus/pci/devices/%s", sys, full);
		if (access(path, F_OK) != 0) {
			snprintf(err, errlen,
				 "ports[%u].device: device \"%s\": no PCI device %s on this host "
				 "(%s): fwstress ports lists those there are",
				 i, d, full, path);
			return -ENODEV;
		}
		if (pci_unbound(path, i, full, err, errlen))
			return -ENODEV;
	}
	return 0;
}

static int
port_device(struct cfg_ctx *c, const json_t *x, struct fws_cfg_port *p)
{
	const char *rest, *colon;

	if (cfg_get_string(c, x, p->device, sizeof(p->device)) < 0)
		return -EINVAL;
	if (strncmp(p->device, "ringpair:", 9) != 0)
		return 0;
	rest = p->device + 9;
	colon = strrchr(rest, ':');
	if (colon == NULL || colon == rest || (strcmp(colon, ":a") && strcmp(colon, ":b")))
		return cfg_fail(c, "expected ringpair:NAME:a or ringpair:NAME:b");
	if (colon - rest > FWS_CFG_RINGPAIR_NAME)
		return cfg_fail(c, "a ringpair name has at most %d characters",
				FWS_CFG_RINGPAIR_NAME);
	return 0;
}

static int
port_mac(struct cfg_ctx *c, const json_t *x, struct fws_cfg_port *p)
{
	p->mac_set = true;
	return cfg_parse_mac(c, x, &p->mac);
}

static int
port_next_hop_mac(struct cfg_ctx *c, const json_t *x, struct fws_cfg_port *p)
{
	p->next_hop_set = true;
	return cfg_parse_mac(c, x, &p->next_hop_mac);
}

static int
port_ipv4(struct cfg_ctx *c, const json_t *x, struct fws_cfg_port *p)
{
	return cfg_parse_addrs(c, x, false, p);
}

static int
port_ipv6(struct cfg_ctx *c, const json_t *x, struct fws_cfg_port *p)
{
	return cfg_parse_addrs(c, x, true, p);
}

static int
port_gateway(struct cfg_ctx *c, const json_t *x, struct fws_cfg_port *p)
{
	if (cfg_want_type(c, x, JSON_STRING, "an IPv4 address string") < 0)
		return -EINVAL;
	if (cfg_ipv4_of(json_string_value(x), &p->gateway) < 0 || p->gateway == 0)
		return cfg_fail(c, "\"%s\" is not an IPv4 address", json_string_value(x));
	return 0;
}

static int
port_gateway6(struct cfg_ctx *c, const json_t *x, struct fws_cfg_port *p)
{
	if (cfg_want_type(c, x, JSON_STRING, "an IPv6 address string") < 0)
		return -EINVAL;
	if (inet_pton(AF_INET6, json_string_value(x), p->gateway6) != 1)
		return cfg_fail(c, "\"%s\" is not an IPv6 address", json_string_value(x));
	p->gateway6_set = true;
	return 0;
}

static int
port_u16(struct cfg_ctx *c, const json_t *x, uint64_t lo, uint64_t hi, uint16_t *out)
{
	uint64_t u;

	if (cfg_get_uint(c, x, lo, hi, &u) < 0)
		return -EINVAL;
	*out = (uint16_t)u;
	return 0;
}

static int
port_vlan(struct cfg_ctx *c, const json_t *x, struct fws_cfg_port *p)
{
	return port_u16(c, x, 1, 4094, &p->vlan);
}

static int
port_rx_descriptors(struct cfg_ctx *c, const json_t *x, struct fws_cfg_port *p)
{
	return port_u16(c, x, 64, 32768, &p->rx_desc);
}

static int
port_tx_descriptors(struct cfg_ctx *c, const json_t *x, struct fws_cfg_port *p)
{
	return port_u16(c, x, 64, 32768, &p->tx_desc);
}

static const char *const stamp_names[] = {FWS_STAMPS(CFG_NAME)};

const char *
fws_stamp_name(enum fws_stamp s)
{
	return cfg_name_of(stamp_names, FWS_DIM(stamp_names), s);
}

static int
port_tx_stamp(struct cfg_ctx *c, const json_t *x, struct fws_cfg_port *p)
{
	int i = cfg_pick_name(c, x, stamp_names, FWS_DIM(stamp_names));

	if (i < 0)
		return -EINVAL;
	p->stamp = (enum fws_stamp)i;
	return 0;
}

static const char *const rx_stamp_names[] = {FWS_RX_STAMPS(CFG_NAME)};

const char *
fws_rx_stamp_name(enum fws_rx_stamp s)
{
	return cfg_name_of(rx_stamp_names, FWS_DIM(rx_stamp_names), s);
}

static int
port_rx_stamp(struct cfg_ctx *c, const json_t *x, struct fws_cfg_port *p)
{
	int i = cfg_pick_name(c, x, rx_stamp_names, FWS_DIM(rx_stamp_names));

	if (i < 0)
		return -EINVAL;
	p->rx_stamp = (enum fws_rx_stamp)i;
	return 0;
}

static int
port_host(struct cfg_ctx *c, const json_t *x, struct fws_cfg_port *p)
{
	if (cfg_get_string(c, x, p->host_name, sizeof(p->host_name)) < 0)
		return -EINVAL;
	if (p->host_name[0] == '\0')
		return cfg_fail(c, "expected the name of a \"hosts\" entry, got \"\"");
	return 0;
}

/* The hosts entry a port names (0: none named, this process). */
static int
port_host_ref(struct cfg_ctx *c, struct fws_cfg *cfg, struct fws_cfg_port *p)
{
	unsigned int k;

	if (p->host_name[0] == '\0')
		return 0;
	for (k = 0; k < cfg->n_hosts; k++) {
		if (strcmp(cfg->hosts[k].name, p->host_name) == 0) {
			p->host = (uint8_t)(k + 1);
			return 0;
		}
	}
	cfg_push_key(c, "host");
	return cfg_fail(c, "no \"hosts\" entry is named \"%s\"", p->host_name);
}

/* A port's keys in parse order; "need" says what is missing when a required one is. */
#define PORT_KEY(k)                                                                                \
	{                                                                                          \
#k, port_##k, NULL                                                                 \
	}
static const struct {
	const char *key;
	int (*parse)(struct cfg_ctx *c, const json_t *x, struct fws_cfg_port *p);
	const char *need;
} port_keys[] = {
	{"name", port_name, "needs a \"name\""},
	{"device", port_device, "needs a \"device\" (PCI address or vdev)"},
	PORT_KEY(host),
	PORT_KEY(mac),
	PORT_KEY(next_hop_mac),
	PORT_KEY(ipv4),
	PORT_KEY(ipv6),
	PORT_KEY(gateway),
	PORT_KEY(gateway6),
	PORT_KEY(vlan),
	PORT_KEY(rx_descriptors),
	PORT_KEY(tx_descriptors),
	PORT_KEY(tx_stamp),
	PORT_KEY(rx_stamp),
};

static int
port_check(struct cfg_ctx *c, const struct fws_cfg_port *p)
{
	if (p->gateway && p->n_ipv4 == 0)
		return cfg_fail(c,
				"port \"%s\": a gateway needs an ipv4 address of the port to ask "
				"from",
				p->name);
	if (p->gateway6_set && p->n_ipv6 == 0)
		return cfg_fail(c,
				"port \"%s\": a gateway6 needs an ipv6 address of the port to ask "
				"from",
				p->name);
	if (p->next_hop_set && (p->gateway || p->gateway6_set))
		return cfg_fail(c,
				"port \"%s\": give a gateway to resolve or a static next_hop_mac, "
				"not both",
				p->name);
	return 0;
}

int
cfg_parse_port(struct cfg_ctx *c, const json_t *v, struct fws_cfg_port *p)
{
	const char *keys[FWS_DIM(port_keys) + 1];
	const json_t *x;
	size_t i, old;

	for (i = 0; i < FWS_DIM(port_keys); i++)
		keys[i] = port_keys[i].key;
	keys[i] = NULL;
	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	p->rx_desc = 1024;
	p->tx_desc = 1024;
	for (i = 0; i < FWS_DIM(port_keys); i++) {
		x = json_object_get(v, port_keys[i].key);
		if (x == NULL && port_keys[i].need && p->name[0])
			return cfg_fail(c, "port \"%s\" %s", p->name, port_keys[i].need);
		if (x == NULL && port_keys[i].need)
			return cfg_fail(c, "a port %s", port_keys[i].need);
		if (x == NULL)
			continue;
		old = cfg_push_key(c, port_keys[i].key);
		if (port_keys[i].parse(c, x, p) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	return port_check(c, p);
}

int
cfg_port_ref(struct cfg_ctx *c, const struct fws_cfg *cfg, const json_t *v, uint8_t *out)
{
	int i;

	if (cfg_want_type(c, v, JSON_STRING, "a port name") < 0)
		return -EINVAL;
	i = fws_config_port(cfg, json_string_value(v));
	if (i < 0)
		return cfg_fail(c, "no port is named \"%s\"", json_string_value(v));
	*out = (uint8_t)i;
	return 0;
}

int
cfg_sec_ports(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	struct fws_cfg *cfg = t->cfg;
	const json_t *e;
	size_t i, j;

	if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > FWS_CFG_MAX_PORTS)
		return cfg_fail(c, "expected a list of 1 to %d ports", FWS_CFG_MAX_PORTS);
	json_array_foreach(v, i, e)
	{
		size_t o2 = cfg_push_idx(c, i);

		if (cfg_parse_port(c, e, &cfg->ports[i]) < 0 ||
		    port_host_ref(c, cfg, &cfg->ports[i]) < 0)
			return -EINVAL;
		if (strncmp(cfg->ports[i].device, "ringpair:", 9) != 0) {
			size_t o3 = cfg_push_key(c, "device");

			if (device_known(c, cfg->ports[i].device) < 0)
				return -EINVAL;
			cfg_pop(c, o3);
		}
		for (j = 0; j < i; j++) {
			if (strcmp(cfg->ports[j].name, cfg->ports[i].name) == 0) {
				cfg_push_key(c, "name");
				return cfg_fail(c, "port name \"%s\" is used twice",
						cfg->ports[i].name);
			}
			/* Two hosts may each have a 0000:03:00.0. */
			if (cfg->ports[j].host == cfg->ports[i].host &&
			    strcmp(cfg->ports[j].device, cfg->ports[i].device) == 0) {
				cfg_push_key(c, "device");
				return cfg_fail(c, "device \"%s\" is used by ports[%zu] too",
						cfg->ports[i].device, j);
			}
		}
		cfg->ports[i].name[sizeof(cfg->ports[i].name) - 1] = '\0';
		cfg->n_ports = (unsigned int)i + 1;
		cfg_pop(c, o2);
	}
	return 0;
}

static json_t *
mac_json(const struct fws_mac *a)
{
	const uint8_t *b = a->addr_bytes;

	/* As rte_ether_format_addr writes it, without linking librte_net. */
	return json_sprintf("%02X:%02X:%02X:%02X:%02X:%02X", b[0], b[1], b[2], b[3], b[4], b[5]);
}

static json_t *
prefix_json(int af, const void *addr, int len)
{
	char ip[INET6_ADDRSTRLEN];

	inet_ntop(af, addr, ip, sizeof(ip));
	return len >= 0 ? json_sprintf("%s/%d", ip, len) : json_string(ip);
}

static void
port_addrs_json(const struct fws_cfg_port *p, json_t *o)
{
	json_t *a4 = json_array(), *a6 = json_array();
	unsigned int k;

	for (k = 0; k < p->n_ipv4; k++) {
		struct in_addr ia = {.s_addr = htonl(p->ipv4[k])};

		json_array_append_new(a4, prefix_json(AF_INET, &ia, p->ipv4_len[k]));
	}
	for (k = 0; k < p->n_ipv6; k++)
		json_array_append_new(a6, prefix_json(AF_INET6, p->ipv6[k], p->ipv6_len[k]));
	/* An empty list is not a config's (1 to 8 addresses): the output parses again. */
	json_object_set_new(o, "ipv4", a4);
	json_object_set_new(o, "ipv6", a6);
	if (p->n_ipv4 == 0)
		json_object_del(o, "ipv4");
	if (p->n_ipv6 == 0)
		json_object_del(o, "ipv6");
}

static json_t *
port_json(const struct fws_cfg_port *p)
{
	json_t *o = json_pack("{s:s, s:s, s:i, s:i}", "name", p->name, "device", p->device,
			      "rx_descriptors", p->rx_desc, "tx_descriptors", p->tx_desc);

	if (p->host_name[0])
		json_object_set_new(o, "host", json_string(p->host_name));
	if (p->mac_set)
		json_object_set_new(o, "mac", mac_json(&p->mac));
	if (p->next_hop_set)
		json_object_set_new(o, "next_hop_mac", mac_json(&p->next_hop_mac));
	if (p->n_ipv4 || p->n_ipv6)
		port_addrs_json(p, o);
	if (p->gateway) {
		struct in_addr ia = {.s_addr = htonl(p->gateway)};

		json_object_set_new(o, "gateway", prefix_json(AF_INET, &ia, -1));
	}
	if (p->gateway6_set)
		json_object_set_new(o, "gateway6", prefix_json(AF_INET6, p->gateway6, -1));
	if (p->vlan)
		json_object_set_new(o, "vlan", json_integer(p->vlan));
	if (p->stamp != FWS_STAMP_AUTO)
		json_object_set_new(o, "tx_stamp", json_string(fws_stamp_name(p->stamp)));
	if (p->rx_stamp != FWS_RX_STAMP_AUTO)
		json_object_set_new(o, "rx_stamp", json_string(fws_rx_stamp_name(p->rx_stamp)));
	return o;
}

json_t *
cfg_emit_ports(const struct fws_cfg *cfg)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < cfg->n_ports; i++)
		json_array_append_new(a, port_json(&cfg->ports[i]));
	return a;
}
