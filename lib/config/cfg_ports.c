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
#include "fws_pkt.h"
#include "fws_sig.h"
#include "cfg_int.h"

const struct fws_flow_spec cfg_default_upload_flows = {
	.count = 1024,
	.src_ip_lo = 0xc6120100, /* 198.18.1.0 */
	.src_ip_hi = 0xc61204ff, /* 198.18.4.255 */
	.dst_ip_lo = 0xc6130101, /* 198.19.1.1 */
	.dst_ip_hi = 0xc6130101,
	.src_port_lo = 1024,
	.src_port_hi = 1024,
	.dst_port_lo = 5001,
	.dst_port_hi = 5001,
};

/* 2001:2:0:1::1:100-2001:2:0:1::1:4ff -> 2001:2:0:2::1:1 (RFC 5180 benchmarking range),
 * clear of the ::1 and ::2 a lab gives its router and tester. */
const struct fws_flow_spec cfg_default_upload_flows6 = {
	.count = 1024,
	.ipv6 = true,
	.src6 = {0x20, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01},
	.dst6 = {0x20, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02},
	.src_ip_lo = 0x10100,
	.src_ip_hi = 0x104ff,
	.dst_ip_lo = 0x10001,
	.dst_ip_hi = 0x10001,
	.src_port_lo = 1024,
	.src_port_hi = 1024,
	.dst_port_lo = 5001,
	.dst_port_hi = 5001,
};

void
cfg_reverse_flows(const struct fws_flow_spec *in, struct fws_flow_spec *out)
{
	*out = *in;
	memcpy(out->src6, in->dst6, sizeof(out->src6));
	memcpy(out->dst6, in->src6, sizeof(out->dst6));
	out->src_ip_lo = in->dst_ip_lo;
	out->src_ip_hi = in->dst_ip_hi;
	out->dst_ip_lo = in->src_ip_lo;
	out->dst_ip_hi = in->src_ip_hi;
	out->src_port_lo = in->dst_port_lo;
	out->src_port_hi = in->dst_port_hi;
	out->dst_port_lo = in->src_port_lo;
	out->dst_port_hi = in->src_port_hi;
}

int
cfg_parse_flows(struct cfg_ctx *c, const json_t *v, struct fws_flow_spec *f)
{
	static const char *const keys[] = {"ip",       "count",    "src_ip", "dst_ip",
					   "src_port", "dst_port", NULL};
	const json_t *x;
	uint64_t cap, count;
	size_t old;
	bool src6, dst6;
	int rc = 0;

	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	if ((x = json_object_get(v, "ip")) != NULL) {
		old = cfg_push_key(c, "ip");
		if (!json_is_integer(x) ||
		    (json_integer_value(x) != 4 && json_integer_value(x) != 6))
			return cfg_fail(c, "expected 4 or 6 (the address family of the defaults)");
		if ((json_integer_value(x) == 6) != f->ipv6)
			*f = json_integer_value(x) == 6 ? cfg_default_upload_flows6
							: cfg_default_upload_flows;
		cfg_pop(c, old);
	}
	src6 = dst6 = f->ipv6;
#define FIELD(key, expr)                                                                           \
	if (rc == 0 && (x = json_object_get(v, key)) != NULL) {                                    \
		old = cfg_push_key(c, key);                                                        \
		rc = (expr);                                                                       \
		if (rc == 0)                                                                       \
			cfg_pop(c, old);                                                           \
	}
	FIELD("src_ip", cfg_parse_ip_range(c, x, &src6, f->src6, &f->src_ip_lo, &f->src_ip_hi));
	FIELD("dst_ip", cfg_parse_ip_range(c, x, &dst6, f->dst6, &f->dst_ip_lo, &f->dst_ip_hi));
	FIELD("src_port", cfg_parse_port_range(c, x, &f->src_port_lo, &f->src_port_hi));
	FIELD("dst_port", cfg_parse_port_range(c, x, &f->dst_port_lo, &f->dst_port_hi));
	FIELD("count", cfg_get_uint(c, x, 1, FWS_SIG_MAX_FLOWS, &count));
#undef FIELD
	if (rc < 0)
		return rc;
	if (src6 != dst6 || (json_object_get(v, "ip") && src6 != f->ipv6)) {
		old = cfg_push_key(c, json_object_get(v, "dst_ip") ? "dst_ip" : "src_ip");
		return cfg_fail(
			c, "source and destination must both be IPv4 or both IPv6 (\"ip\": %d)",
			f->ipv6 ? 6 : 4);
	}
	f->ipv6 = src6;
	cap = fws_flow_capacity(f);
	/* Without a count, take the default or as many as the ranges hold, whichever is less. */
	if ((x = json_object_get(v, "count")) != NULL)
		f->count = (uint32_t)count;
	else if (cap < f->count)
		f->count = (uint32_t)cap;
	if (cap < f->count) {
		old = cfg_push_key(c, "count");
		if (json_object_get(v, "count") == NULL)
			cfg_pop(c, old);
		return cfg_fail(c,
				"%u flows do not fit the address and port ranges, which hold %llu",
				f->count, (unsigned long long)cap);
	}
	return 0;
}

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

/* [DDDD:]BB:DD.F in hex, the rest (devargs) after a comma. */
static bool
pci_address(const char *d, char *full, size_t len)
{
	unsigned int dom = 0, bus, dev, fn;
	int n = 0;

	if (sscanf(d, "%4x:%2x:%2x.%1x%n", &dom, &bus, &dev, &fn, &n) != 4 || n != 12) {
		n = 0;
		dom = 0;
		if (sscanf(d, "%2x:%2x.%1x%n", &bus, &dev, &fn, &n) != 3 || n != 7)
			return false;
	}
	if (d[n] != '\0' && d[n] != ',')
		return false;
	snprintf(full, len, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
	return true;
}

/* A device's form: a PCI address, or a vdev that names a driver DPDK has. Whether the PCI
 * device is there is the host's business (fws_config_local_devices): a config is checked on
 * a laptop before it runs on the load client. */
static int
device_known(struct cfg_ctx *c, const char *d)
{
	char full[16];
	size_t i;

	if (pci_address(d, full, sizeof(full)))
		return 0;
	for (i = 0; i < RTE_DIM(vdev_drivers); i++)
		if (strncmp(d, vdev_drivers[i], strlen(vdev_drivers[i])) == 0)
			return 0;
	return cfg_fail(c,
			"device \"%s\": not a PCI address ([DDDD:]BB:DD.F), a virtual device of "
			"a DPDK driver (net_af_packet0, net_memif0, net_null0, net_pcap0, "
			"net_ring0, net_tap0, ...) or ringpair:NAME:a|b",
			d);
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
		if (access(path, F_OK) == 0)
			continue;
		snprintf(err, errlen,
			 "ports[%u].device: device \"%s\": no PCI device %s on this host (%s): "
			 "fwstress ports lists those there are",
			 i, d, full, path);
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
	return cfg_name_of(stamp_names, RTE_DIM(stamp_names), s);
}

static int
port_tx_stamp(struct cfg_ctx *c, const json_t *x, struct fws_cfg_port *p)
{
	int i = cfg_pick_name(c, x, stamp_names, RTE_DIM(stamp_names));

	if (i < 0)
		return -EINVAL;
	p->stamp = (enum fws_stamp)i;
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
	const char *keys[RTE_DIM(port_keys) + 1];
	const json_t *x;
	size_t i, old;

	for (i = 0; i < RTE_DIM(port_keys); i++)
		keys[i] = port_keys[i].key;
	keys[i] = NULL;
	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	p->rx_desc = 1024;
	p->tx_desc = 1024;
	for (i = 0; i < RTE_DIM(port_keys); i++) {
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

static const char *const expect_names[] = {FWS_EXPECTS(CFG_NAME)};

const char *
fws_expect_name(enum fws_expect x)
{
	return cfg_name_of(expect_names, RTE_DIM(expect_names), x);
}

/* "expect": what the stream's frames should meet at the DUT. */
static int
stream_expect(struct cfg_ctx *c, const json_t *x, const struct fws_cfg *cfg,
	      struct fws_cfg_stream *s)
{
	int i = cfg_pick_name(c, x, expect_names, RTE_DIM(expect_names));

	if (i < 0)
		return -EINVAL;
	s->expect = (enum fws_expect)i;
	if (s->expect == FWS_EXPECT_BLOCKLIST && cfg->n_blocklists == 0)
		return cfg_fail(c, "\"blocklist\" needs a top-level \"blocklist\" file");
	return 0;
}

/* An explicit stream's optional role: "direction" (upload or download: NAT pairs them),
 * "learn_only" (it only teaches NAT translations), "payload" and "expect". */
static int
stream_role(struct cfg_ctx *c, const json_t *v, const struct fws_cfg *cfg, struct fws_cfg_stream *s)
{
	const json_t *x;
	size_t old;

	if ((x = json_object_get(v, "payload")) != NULL) {
		old = cfg_push_key(c, "payload");
		if (cfg_want_type(c, x, JSON_STRING, "a string") < 0)
			return -EINVAL;
		if (json_string_length(x) == 0 || json_string_length(x) > FWS_CFG_PAYLOAD_MAX)
			return cfg_fail(c, "expected 1 to %d bytes", FWS_CFG_PAYLOAD_MAX);
		s->payload_len = (uint16_t)json_string_length(x);
		memcpy(s->payload, json_string_value(x), s->payload_len);
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "expect")) != NULL) {
		old = cfg_push_key(c, "expect");
		if (stream_expect(c, x, cfg, s) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}

	if ((x = json_object_get(v, "direction")) != NULL) {
		old = cfg_push_key(c, "direction");
		if (cfg_want_type(c, x, JSON_STRING, "\"upload\" or \"download\"") < 0)
			return -EINVAL;
		s->dir = fws_dir_of(json_string_value(x));
		if (s->dir != FWS_DIR_UPLOAD && s->dir != FWS_DIR_DOWNLOAD)
			return cfg_fail(c, "expected \"upload\" or \"download\"");
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "learn_only")) != NULL) {
		old = cfg_push_key(c, "learn_only");
		if (!json_is_boolean(x))
			return cfg_fail(c, "expected true or false, got %s", cfg_type_name(x));
		s->learn_only = json_is_true(x);
		cfg_pop(c, old);
	}
	return 0;
}

int
cfg_parse_stream(struct cfg_ctx *c, const json_t *v, struct fws_cfg *cfg, struct fws_cfg_stream *s)
{
	static const char *const keys[] = {
		"name",      "tx_port",    "rx_port", "flows",   "rate", "l4", "app",
		"direction", "learn_only", "expect",  "payload", "fill", "df", NULL};
	const json_t *x;
	size_t old;

	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	s->dir = FWS_DIR_CUSTOM;
	s->learner = -1;
	if ((x = json_object_get(v, "name")) == NULL)
		return cfg_fail(c, "a stream needs a \"name\"");
	old = cfg_push_key(c, "name");
	if (cfg_get_string(c, x, s->name, sizeof(s->name)) < 0)
		return -EINVAL;
	cfg_pop(c, old);
	if ((x = json_object_get(v, "tx_port")) == NULL)
		return cfg_fail(c, "stream \"%s\" needs a \"tx_port\"", s->name);
	old = cfg_push_key(c, "tx_port");
	if (cfg_stream_senders(c, x, cfg, s) < 0)
		return -EINVAL;
	cfg_pop(c, old);
	if ((x = json_object_get(v, "rx_port")) == NULL)
		return cfg_fail(c, "stream \"%s\" needs an \"rx_port\"", s->name);
	old = cfg_push_key(c, "rx_port");
	if (cfg_port_ref(c, cfg, x, &s->rx_port) < 0)
		return -EINVAL;
	cfg_pop(c, old);
	if ((x = json_object_get(v, "flows")) != NULL) {
		old = cfg_push_key(c, "flows");
		if (cfg_parse_flows(c, x, &s->flows) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "rate")) != NULL) {
		old = cfg_push_key(c, "rate");
		if (cfg_parse_rate(c, x, &s->rate) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "l4")) != NULL) {
		old = cfg_push_key(c, "l4");
		if (cfg_stream_l4(c, x, s) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "app")) != NULL) {
		old = cfg_push_key(c, "app");
		if (cfg_stream_app(c, x, s) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	if (cfg_parse_fill(c, v, &s->fill) < 0)
		return -EINVAL;
	return stream_role(c, v, cfg, s);
}

/* Streams from "direction": upload = lan -> wan, download = wan -> lan, bidir = both. */
static void
cfg_add_stream(struct fws_cfg *cfg, const char *name, enum fws_dir dir, int tx, int rx,
	       const struct fws_flow_spec *flows, bool reverse, const struct fws_rate *rate)
{
	struct fws_cfg_stream *s = &cfg->streams[cfg->n_streams++];

	strlcpy(s->name, name, sizeof(s->name));
	s->dir = dir;
	fws_cfg_stream_tx(s, (unsigned int)tx);
	s->rx_port = (uint8_t)rx;
	if (reverse)
		cfg_reverse_flows(flows, &s->flows);
	else
		s->flows = *flows;
	s->rate = *rate;
	s->learner = -1;
}

int
cfg_expand_direction(struct cfg_ctx *c, const json_t *v, struct fws_cfg *cfg,
		     const struct fws_flow_spec *flows, const struct fws_flow_spec *flows6,
		     const struct fws_rate *rate)
{
	enum fws_dir dir;
	const char *d;
	int lan, wan;
	bool up, down;

	if (cfg_want_type(c, v, JSON_STRING, "\"upload\", \"download\" or \"bidir\"") < 0)
		return -EINVAL;
	d = json_string_value(v);
	dir = fws_dir_of(d);
	up = dir == FWS_DIR_UPLOAD || dir == FWS_DIR_BIDIR;
	down = dir == FWS_DIR_DOWNLOAD || dir == FWS_DIR_BIDIR;
	if (!up && !down)
		return cfg_fail(c, "\"%s\" is not a direction (upload, download, bidir)", d);
	lan = fws_config_port(cfg, "lan");
	wan = fws_config_port(cfg, "wan");
	if (lan < 0 || wan < 0)
		return cfg_fail(c, "direction \"%s\" needs ports named \"lan\" and \"wan\"", d);
	if (up)
		cfg_add_stream(cfg, "upload", FWS_DIR_UPLOAD, lan, wan, flows, false, rate);
	if (down)
		cfg_add_stream(cfg, "download", FWS_DIR_DOWNLOAD, wan, lan, flows, true, rate);
	if (up && flows6)
		cfg_add_stream(cfg, "upload6", FWS_DIR_UPLOAD, lan, wan, flows6, false, rate);
	if (down && flows6)
		cfg_add_stream(cfg, "download6", FWS_DIR_DOWNLOAD, wan, lan, flows6, true, rate);
	return 0;
}

int
cfg_sec_flows(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	return cfg_parse_flows(c, v, &t->flows);
}

int
cfg_sec_flows6(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	if (cfg_parse_flows(c, v, &t->flows6) < 0)
		return -EINVAL;
	if (!t->flows6.ipv6)
		return cfg_fail(c, "flows6 holds the IPv6 streams' flows; these are IPv4");
	if (json_object_get(t->root, "streams"))
		return cfg_fail(
			c, "flows6 goes with \"direction\"; give explicit streams their flows");
	t->flows6_set = true;
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

int
cfg_sec_streams(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	struct fws_cfg *cfg = t->cfg;
	const json_t *s;
	size_t i, j;

	if (!json_is_array(v) || json_array_size(v) == 0 ||
	    json_array_size(v) > FWS_CFG_MAX_STREAMS)
		return cfg_fail(c, "expected a list of 1 to %d streams", FWS_CFG_MAX_STREAMS);
	json_array_foreach(v, i, s)
	{
		size_t o2 = cfg_push_idx(c, i);
		struct fws_cfg_stream *st = &cfg->streams[i];

		st->flows = t->flows;
		st->rate = t->rate;
		if (cfg_parse_stream(c, s, cfg, st) < 0)
			return -EINVAL;
		for (j = 0; j < i; j++) {
			if (strcmp(cfg->streams[j].name, st->name) == 0) {
				cfg_push_key(c, "name");
				return cfg_fail(c, "stream name \"%s\" is used twice", st->name);
			}
		}
		cfg->n_streams = (unsigned int)i + 1;
		cfg_pop(c, o2);
	}
	return 0;
}

/* Every port's control plane answers for at most FWS_CFG_MAX_RANGES address ranges. */
int
cfg_check_ranges(struct cfg_ctx *c, const struct fws_cfg *cfg)
{
	unsigned int p, s, n;

	for (p = 0; p < cfg->n_ports; p++) {
		n = cfg->ports[p].n_ipv4 + cfg->ports[p].n_ipv6;
		for (s = 0; s < cfg->n_streams; s++)
			n += (fws_cfg_sender(&cfg->streams[s], p) >= 0) +
			     (cfg->streams[s].rx_port == p);
		if (n > FWS_CFG_MAX_RANGES) {
			cfg_push_key(c, "ports");
			cfg_push_idx(c, p);
			return cfg_fail(
				c,
				"port \"%s\" would answer for %u address ranges (its own "
				"addresses, its streams' sources and destinations), at most %d",
				cfg->ports[p].name, n, FWS_CFG_MAX_RANGES);
		}
	}
	return 0;
}

/* "direction" makes the streams; without "streams" or "direction" it is "upload". */
int
cfg_sec_direction(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	if (json_object_get(t->root, "streams"))
		return cfg_fail(c, "give \"direction\" or \"streams\", not both");
	return cfg_expand_direction(c, v, t->cfg, &t->flows, t->flows6_set ? &t->flows6 : NULL,
				    &t->rate);
}
