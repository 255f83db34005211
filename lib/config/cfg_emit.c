/* SPDX-License-Identifier: BSD-3-Clause */
/* The normalised config back to JSON (validate, the report's "config"). */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_cell.h"
#include "fws_config.h"
#include "fws_pkt.h"
#include "fws_sig.h"
#include "cfg_int.h"

static void
addr_str(bool v6, const uint8_t hi6[12], uint32_t lo, char *buf, size_t len)
{
	if (v6) {
		uint8_t a[16];
		uint32_t l = htonl(lo);

		memcpy(a, hi6, 12);
		memcpy(a + 12, &l, 4);
		inet_ntop(AF_INET6, a, buf, (socklen_t)len);
	} else {
		struct in_addr x = {.s_addr = htonl(lo)};

		inet_ntop(AF_INET, &x, buf, (socklen_t)len);
	}
}

static json_t *
ip_range_json(bool v6, const uint8_t hi6[12], uint32_t lo, uint32_t hi)
{
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN], s[2 * INET6_ADDRSTRLEN + 2];

	addr_str(v6, hi6, lo, a, sizeof(a));
	if (lo == hi)
		return json_string(a);
	addr_str(v6, hi6, hi, b, sizeof(b));
	snprintf(s, sizeof(s), "%s-%s", a, b);
	return json_string(s);
}

static json_t *
port_range_json(uint16_t lo, uint16_t hi)
{
	char s[16];

	if (lo == hi)
		return json_integer(lo);
	snprintf(s, sizeof(s), "%u-%u", lo, hi);
	return json_string(s);
}

static json_t *
flows_json(const struct fws_flow_spec *f)
{
	return json_pack("{s:i, s:I, s:o, s:o, s:o, s:o}", "ip", f->ipv6 ? 6 : 4, "count",
			 (json_int_t)f->count, "src_ip",
			 ip_range_json(f->ipv6, f->src6, f->src_ip_lo, f->src_ip_hi), "dst_ip",
			 ip_range_json(f->ipv6, f->dst6, f->dst_ip_lo, f->dst_ip_hi), "src_port",
			 port_range_json(f->src_port_lo, f->src_port_hi), "dst_port",
			 port_range_json(f->dst_port_lo, f->dst_port_hi));
}

static json_t *
size_json(const struct fws_size_mix *m)
{
	json_t *mix;
	unsigned int i;

	if (m->n == 1 && m->weight[0] == 1)
		return json_integer(m->size[0]);
	if (strcmp(m->name, "imix") == 0)
		return json_string("imix");
	mix = json_array();
	for (i = 0; i < m->n; i++)
		json_array_append_new(mix, json_pack("[i,i]", m->size[i], m->weight[i]));
	return json_pack("{s:s, s:o}", "name", m->name, "mix", mix);
}

static json_t *
mac_json(const struct rte_ether_addr *a)
{
	const uint8_t *b = a->addr_bytes;

	/* As rte_ether_format_addr writes it, without linking librte_net. */
	return json_sprintf("%02X:%02X:%02X:%02X:%02X:%02X", b[0], b[1], b[2], b[3], b[4], b[5]);
}

json_t *
cfg_emit_dut(const struct fws_cfg *cfg)
{
	json_t *o;

	if (!cfg->dut_name[0] && !cfg->dut_firmware[0] && !cfg->dut_load_cmd[0])
		return NULL;
	o = json_object();
	if (cfg->dut_name[0])
		json_object_set_new(o, "name", json_string(cfg->dut_name));
	if (cfg->dut_firmware[0])
		json_object_set_new(o, "firmware", json_string(cfg->dut_firmware));
	if (cfg->dut_load_cmd[0])
		json_object_set_new(o, "load_command", json_string(cfg->dut_load_cmd));
	return o;
}

json_t *
cfg_emit_scenario(const struct fws_cfg *cfg)
{
	return json_string(cfg->scenario);
}

json_t *
cfg_emit_eal(const struct fws_cfg *cfg)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < cfg->n_eal; i++)
		json_array_append_new(a, json_string(cfg->eal[i]));
	return a;
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

json_t *
cfg_emit_rate_layer(const struct fws_cfg *cfg)
{
	bool l2 = cfg->n_streams && cfg->streams[0].rate.layer == FWS_RATE_L2;

	return json_string(l2 ? "l2" : "l1");
}

/* "tx_port": a name, or the list a stream's flows are split over. */
static json_t *
senders_json(const struct fws_cfg *cfg, const struct fws_cfg_stream *s)
{
	json_t *a;
	unsigned int j;

	if (s->n_tx < 2)
		return json_string(cfg->ports[s->tx_port].name);
	a = json_array();
	for (j = 0; j < s->n_tx; j++)
		json_array_append_new(a, json_string(cfg->ports[s->tx_ports[j]].name));
	return a;
}

json_t *
cfg_emit_streams(const struct fws_cfg *cfg)
{
	json_t *a = json_array();
	unsigned int i;
	char buf[64];

	for (i = 0; i < cfg->n_streams; i++) {
		const struct fws_cfg_stream *s = &cfg->streams[i];

		json_t *o;

		fws_rate_format(&s->rate, buf, sizeof(buf));
		o = json_pack("{s:s, s:o, s:s, s:o, s:s}", "name", s->name, "tx_port",
			      senders_json(cfg, s), "rx_port", cfg->ports[s->rx_port].name, "flows",
			      flows_json(&s->flows), "rate", buf);
		/* Kept so the normalised config pairs NAT streams again. */
		if (s->dir == FWS_DIR_UPLOAD || s->dir == FWS_DIR_DOWNLOAD)
			json_object_set_new(o, "direction", json_string(fws_dir_name(s->dir)));
		if (s->learn_only)
			json_object_set_new(o, "learn_only", json_true());
		json_object_set_new(o, "l4", json_string(fws_l4_name(s->l4)));
		cfg_emit_stream_fill(o, s);
		if (s->app != FWS_APP_NONE)
			json_object_set_new(o, "app",
					    json_pack("{s:s}", fws_app_name(s->app), s->app_name));
		if (s->payload_len)
			json_object_set_new(o, "payload",
					    json_stringn((const char *)s->payload, s->payload_len));
		if (s->expect != FWS_EXPECT_PASS)
			json_object_set_new(o, "expect", json_string(fws_expect_name(s->expect)));
		json_array_append_new(a, o);
	}
	return a;
}

json_t *
cfg_emit_frame_size(const struct fws_cfg *cfg)
{
	json_t *a;
	unsigned int i;

	if (cfg->n_sizes == 1)
		return size_json(&cfg->sizes[0]);
	a = json_array();
	for (i = 0; i < cfg->n_sizes; i++)
		json_array_append_new(a, size_json(&cfg->sizes[i]));
	return a;
}

json_t *
cfg_emit_duration(const struct fws_cfg *cfg)
{
	return json_real(cfg->duration);
}

json_t *
cfg_emit_warmup(const struct fws_cfg *cfg)
{
	return json_real(cfg->warmup);
}

json_t *
cfg_emit_drain(const struct fws_cfg *cfg)
{
	return json_real(cfg->drain);
}

json_t *
cfg_emit_burst(const struct fws_cfg *cfg)
{
	return json_integer(cfg->burst);
}

static json_t *
percent_json(double fraction)
{
	return json_sprintf("%.10g%%", fraction * 100);
}

json_t *
cfg_emit_sweep(const struct fws_cfg *cfg)
{
	json_t *dirs = json_array(), *lat = json_array(), *o;
	unsigned int i;

	for (i = 0; i < cfg->sweep.n_dirs; i++)
		json_array_append_new(dirs, json_string(fws_dir_name(cfg->sweep.dirs[i])));
	for (i = 0; i < cfg->sweep.n_lat; i++)
		json_array_append_new(lat, percent_json(cfg->sweep.lat[i]));
	o = json_pack("{s:s, s:o}", "mode", cfg->sweep.search ? "search" : "fixed", "latency_at",
		      lat);
	if (cfg->sweep.n_dirs) /* none: streams without a direction, swept as they are */
		json_object_set_new(o, "directions", dirs);
	else
		json_decref(dirs);
	if (cfg->sweep.b2b_repeat)
		json_object_set_new(o, "back_to_back",
				    json_pack("{s:i, s:f}", "repeat", cfg->sweep.b2b_repeat,
					      "seconds", cfg->sweep.b2b_seconds));
	return o;
}

json_t *
cfg_emit_path_check(const struct fws_cfg *cfg)
{
	return json_boolean(cfg->path_check);
}

json_t *
cfg_emit_seq_window(const struct fws_cfg *cfg)
{
	return json_integer(cfg->seq_window);
}

json_t *
cfg_emit_search(const struct fws_cfg *cfg)
{
	const struct fws_cfg_search *s = &cfg->search;

	return json_pack("{s:f, s:f, s:o, s:o, s:o, s:i}", "short", s->short_s, "final", s->final_s,
			 "width", percent_json(s->width), "pdr", percent_json(s->pdr), "min",
			 percent_json(s->min_load), "max_trials", s->max_trials);
}

json_t *
cfg_emit_lcores(const struct fws_cfg *cfg)
{
	json_t *tx, *rx;
	unsigned int i;

	if (!cfg->n_tx_lcores)
		return NULL;
	tx = json_array();
	rx = json_array();
	for (i = 0; i < cfg->n_tx_lcores; i++)
		json_array_append_new(tx, json_integer(cfg->tx_lcores[i]));
	for (i = 0; i < cfg->n_rx_lcores; i++)
		json_array_append_new(rx, json_integer(cfg->rx_lcores[i]));
	return json_pack("{s:o, s:o}", "tx", tx, "rx", rx);
}

json_t *
cfg_emit_output(const struct fws_cfg *cfg)
{
	return json_pack("{s:s, s:s}", "json", cfg->json_out, "text", cfg->text_out);
}
