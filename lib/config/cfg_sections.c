/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The top level of a config as one table: each key once, with its parser, its emitter and
 * its one-line documentation. Parsing walks the table in order (ports before streams, the
 * flows and rate that streams inherit before them); emitting walks it again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "cfg_int.h"

#define SEC(k, doc)                                                                                \
	{                                                                                          \
#k, cfg_sec_##k, cfg_emit_##k, doc                                                 \
	}
/* A key whose value lives in another section's output (flows in the streams). */
#define SEC_FOLDED(k, doc)                                                                         \
	{                                                                                          \
#k, cfg_sec_##k, NULL, doc                                                         \
	}

static const struct cfg_section sections[] = {
	SEC(dut, "{name, firmware, load_command}: the device under test; the command prints "
		 "its CPU load %"),
	SEC(scenario, "what the DUT is set up as: a report label; firewall, ids, ips and "
		      "appcontrol are also presets (both directions, NAT masquerade; ids/ips add "
		      "an attack stream that must pass/be blocked; appcontrol TCP streams and an "
		      "allowed and a blocked application) the config may override"),
	SEC(eal, "DPDK EAL arguments, e.g. [\"-l\", \"0-3\", \"--vdev\", \"net_null0\"]"),
	SEC(hosts,
	    "[{name, command, ssh, ssh_options, fwstress, eal, shell, inventory}]: load "
	    "clients whose "
	    "agent (fwstress agent) owns the ports that name them in \"host\"; reached by "
	    "command (a list: its stdin and stdout carry the control stream), by default "
	    "ssh -T -o BatchMode=yes SSH_OPTIONS -- SSH FWSTRESS agent (ssh: the "
	    "destination, default the name; ssh_options: a list, e.g. [\"-p\", \"2222\"]; "
	    "fwstress: the binary there, default fwstress); eal: its EAL arguments "
	    "(default the config's); shell: the command that runs a campaign's setup or "
	    "teardown there, the shell text appended as one argument (default for an ssh "
	    "host: ssh -T -o BatchMode=yes SSH_OPTIONS -- SSH), e.g. [\"ip\", \"netns\", "
	    "\"exec\", \"NS\", \"sh\", \"-c\"]; inventory: an Ansible inventory whose host of "
	    "this name gives ssh's destination and options (ansible_host, ansible_user, "
	    "ansible_port, fwstress_ssh_key or ansible_ssh_private_key_file, "
	    "ansible_ssh_common_args), "
	    "fwstress (fwstress_bin) and eal (fwstress_eal); ptp_socket: ptp4l's management "
	    "socket there (default the one of \"clocks\")"),
	SEC(clocks, "how the hosts' clocks are aligned for one-way latency: \"probe\" (default: "
		    "time probes over the control link before and after each trial), \"ptp\" "
		    "(every host's CLOCK_REALTIME disciplined by PTP: its ptp4l must be SLAVE to "
		    "one grandmaster, or be it; the bound from ptp4l's offsets and each agent's "
		    "clock reads), \"none\" (one-way figures relative), or {mode, socket: "
		    "ptp4l's uds_address, default /var/run/ptp4l; domain: its domainNumber, "
		    "default 0}"),
	SEC(ports,
	    "required: [{name, device, host, mac, next_hop_mac, ipv4, ipv6, gateway, "
	    "gateway6, vlan, rx_descriptors, tx_descriptors, tx_stamp}]; host: the hosts entry "
	    "whose agent owns it (default this process); tx_stamp \"wire\" "
	    "stamps each frame at its modelled departure at the link speed, \"handover\" "
	    "when the burst is handed to the driver, \"auto\" (default) wire on hardware "
	    "ports"),
	SEC_FOLDED(flows, "the IPv4 flows streams inherit: {ip, count, src_ip, dst_ip, "
			  "src_port, dst_port}"),
	SEC_FOLDED(flows6, "with \"direction\": IPv6 flows for upload6/download6 streams"),
	SEC(rate_layer, "\"l1\" (preamble and IFG count, default) or \"l2\""),
	SEC_FOLDED(rate, "the rate streams inherit: \"line\" (the link's speed: a NIC paces "
			 "itself, a virtual port is paced to its reported speed), \"max\" "
			 "(unpaced, as fast as the generator), \"50%\", \"1Mpps\", \"900Mbit\""),
	SEC_FOLDED(direction, "\"upload\" (default), \"download\" or \"bidir\" between ports "
			      "lan and wan"),
	SEC(blocklist, "a file or a list of up to 4 in Spamhaus DROP's text or JSON-lines "
		       "format: the destinations streams with \"expect\": \"blocklist\" are "
		       "expected to be blocked at"),
	SEC(streams, "[{name, tx_port, rx_port, flows, rate, expect, l4}], or use \"direction\"; "
		     "tx_port: a port, or a list of ports (on one host or several) that split the "
		     "flows in contiguous shares in list order, each sending its share at that "
		     "share of the rate (UDP streams); expect: \"pass\" (default), \"blocked\", "
		     "\"blocklist\"; l4 \"syn\": a SYN flood from the flows' sources beside the "
		     "other streams (RFC 3511 5.5)"),
	SEC(frame_size, "bytes with FCS, \"imix\", {name, mix: [[size, weight]]}, a list, or "
			"\"rfc2544\""),
	SEC(duration, "seconds of one measured trial (default 10)"),
	SEC(warmup, "seconds of load before measuring (default 1)"),
	SEC(drain, "seconds to wait for frames in flight after the load stops (default 2)"),
	SEC(burst, "frames per TX burst, 1-512 (default 32)"),
	SEC(sweep, "{directions, mode: search|fixed, latency_at, back_to_back: {repeat, "
		   "seconds}}"),
	SEC(path_check, "probe every stream's path before the load (default true)"),
	SEC(seq_window,
	    "frames below a flow's newest in which a duplicate is told from a late "
	    "frame exactly: a power of two, 64-65536 (default 1024; RX memory: window/8 "
	    "bytes per flow and RX lcore beyond 64)"),
	SEC(nat, "\"none\" (no translation expected) or \"masquerade\" (upload source-"
		 "translated; download sent to the translations learned before each trial), "
		 "or {mode, learn_frames, learn_pps}"),
	SEC(l4, "\"udp\" (default) or \"tcp\": the streams' test traffic (a stream's own \"l4\" "
		"overrides it). tcp opens every flow with a handshake through the DUT before each "
		"trial, sends data segments with the numbers the peer's SYN and SYN-ACK gave, ACKs "
		"them and closes with FIN; IPv4 and IPv6 (no NAT66 followed)"),
	SEC(tcp, "{seq_offset}: fault injection for tests: added to every data segment's "
		 "sequence number after the handshake (a strict firewall then drops them)"),
	SEC(search, "{short, final, width, pdr, min, max_trials}: the NDR/PDR search"),
	SEC(payload, "{fill, df}: what every stream's frames carry after the signature: "
		     "\"counter\" (default), \"zero\", \"random\" (fixed for the run, "
		     "incompressible) or a hex pattern \"0x...\"; df: IPv4 don't-fragment (a "
		     "stream's own \"fill\" and \"df\" override them)"),
	SEC(tunnel, "{kind: wireguard|ipsec|openvpn, overhead, mtu}: the tunnel the streams "
		    "cross: the report gives per frame size the bytes on its encrypted link and "
		    "their share of the line rate (the scenarios openvpn, ipsec and wireguard set "
		    "it, a random fill and frame sizes around its MTU)"),
	SEC(connections,
	    "{test: rate|capacity|teardown, rate, open_rate, data, tries, retry, aging, "
	    "reset_rate, hold, iterations}: fwstress connections; each TCP stream's flows are "
	    "its connections (RFC 3511 5.2-5.4, RFC 9411 7.2/7.5)"),
	SEC(lcores, "{tx: [...], rx: [...]}: lcore ids per role (default: from the EAL list)"),
	SEC(output, "{json, text}: report files (\"\" for none)"),
};

static void
cfg_defaults(struct cfg_top *t)
{
	struct fws_cfg *cfg = t->cfg;

	cfg_default_flows(t);
	t->rate = (struct fws_rate){.kind = FWS_RATE_LINE, .layer = FWS_RATE_L1, .value = 100};
	cfg->duration = 10;
	cfg->warmup = 1;
	cfg->drain = 2;
	cfg->burst = 32;
	strlcpy(cfg->json_out, "fwstress-report.json", sizeof(cfg->json_out));
	strlcpy(cfg->scenario, "routing", sizeof(cfg->scenario));
	fws_size_fixed(&cfg->sizes[0], 64);
	cfg->n_sizes = 1;
	cfg->path_check = true;
	cfg->seq_window = 1024;
	cfg->search = (struct fws_cfg_search){.short_s = 1,
					      .final_s = 60,
					      .width = 0.005,
					      .pdr = 0.005,
					      .min_load = 0.001,
					      .max_trials = 60};
	cfg->sweep =
		(struct fws_cfg_sweep){.n_dirs = 3,
				       .dirs = {FWS_DIR_UPLOAD, FWS_DIR_DOWNLOAD, FWS_DIR_BIDIR},
				       .search = true,
				       .b2b_seconds = 2};
}

static int
check_top_keys(struct cfg_ctx *c, const json_t *root)
{
	const char *keys[RTE_DIM(sections) + 1];
	size_t i;

	for (i = 0; i < RTE_DIM(sections); i++)
		keys[i] = sections[i].key;
	keys[i] = NULL;
	return cfg_check_keys(c, root, keys);
}

int
cfg_parse_sections(struct cfg_ctx *c, const json_t *root, struct fws_cfg *cfg)
{
	struct cfg_top t = {.cfg = cfg, .root = root};
	const json_t *v;
	size_t i, old;

	if (!json_is_object(root))
		return cfg_fail(c, "the config must be a JSON object, got %s", cfg_type_name(root));
	if (check_top_keys(c, root) < 0)
		return -EINVAL;
	if (json_object_get(root, "ports") == NULL)
		return cfg_fail(c, "a config needs \"ports\"");
	cfg_defaults(&t);
	for (i = 0; i < RTE_DIM(sections); i++) {
		if ((v = json_object_get(root, sections[i].key)) == NULL)
			continue;
		old = cfg_push_key(c, sections[i].key);
		if (sections[i].parse(c, v, &t) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	if (cfg->n_streams == 0) {
		json_t *dflt = json_string(cfg_scenario_direction(cfg));
		int rc;

		old = cfg_push_key(c, "direction");
		rc = cfg_sec_direction(c, dflt, &t);
		json_decref(dflt);
		if (rc < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	if (cfg_apply_scenario(c, &t) < 0 || cfg_tunnel_preset(c, root, cfg) < 0 ||
	    cfg_apply_l4(c, cfg) < 0 || cfg_apply_connections(c, cfg) < 0 ||
	    cfg_apply_fill(c, cfg) < 0 || cfg_nat_pair(c, cfg) < 0 ||
	    cfg_check_senders(c, cfg) < 0 || cfg_sweep_fit(c, cfg) < 0 ||
	    cfg_check_ranges(c, cfg) < 0 || cfg_hosts_check(c, cfg) < 0)
		return -EINVAL;
	return cfg_check_frame_minimum(c, root, cfg);
}

json_t *
fws_config_to_json(const struct fws_cfg *cfg)
{
	json_t *root = json_object(), *v;
	size_t i;

	for (i = 0; i < RTE_DIM(sections); i++)
		if (sections[i].emit && (v = sections[i].emit(cfg)) != NULL)
			json_object_set_new(root, sections[i].key, v);
	return root;
}

void
fws_config_doc(FILE *f)
{
	size_t i;

	for (i = 0; i < RTE_DIM(sections); i++)
		fprintf(f, "  %-11s %s\n", sections[i].key, sections[i].doc);
}

/* A table cell: "|" escaped, as Markdown needs. */
static void
md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void
fws_config_doc_md(FILE *f)
{
	size_t i;

	fputs("# fwstress configuration\n\n"
	      "<!-- Generated by `fwstress validate --doc` from the config's section table\n"
	      "     (lib/config/cfg_sections.c); a test fails when this file is stale. -->\n\n"
	      "A run is one JSON file. These are its top-level keys, in the order they are\n"
	      "read; `fwstress validate CONFIG` prints a config with every default filled in.\n"
	      "Ready configs are in `config/`.\n\n"
	      "| key | what it sets |\n"
	      "|-----|--------------|\n",
	      f);
	for (i = 0; i < RTE_DIM(sections); i++) {
		fprintf(f, "| `%s` | ", sections[i].key);
		md_cell(f, sections[i].doc);
		fputs(" |\n", f);
	}
}

struct fws_cfg *
fws_config_parse(const char *buf, size_t len, char *err, size_t errlen)
{
	return fws_config_parse_at(buf, len, NULL, err, errlen);
}

struct fws_cfg *
fws_config_parse_at(const char *buf, size_t len, const char *base, char *err, size_t errlen)
{
	struct cfg_ctx c = {.buf = buf, .len = len, .err = err, .errlen = errlen, .base = base};
	struct fws_cfg *cfg;
	json_error_t jerr;
	json_t *root;
	int rc;

	if (errlen)
		err[0] = '\0';
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (root == NULL) {
		snprintf(err, errlen, "config: line %d: %s", jerr.line, jerr.text);
		cfg_one_line(err);
		errno = EINVAL;
		return NULL;
	}
	cfg = calloc(1, sizeof(*cfg));
	if (cfg == NULL) {
		json_decref(root);
		snprintf(err, errlen, "config: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	rc = cfg_parse_sections(&c, root, cfg);
	json_decref(root);
	if (rc < 0) {
		if (rc == -ENOMEM)
			snprintf(err, errlen, "config: out of memory");
		fws_config_free(cfg);
		errno = -rc;
		return NULL;
	}
	return cfg;
}

struct fws_cfg *
fws_config_load(const char *path, char *err, size_t errlen)
{
	struct fws_cfg *cfg;
	char *buf, msg[FWS_CFG_PATH_LEN + 512], dir[FWS_CFG_PATH_LEN], *slash;
	size_t len;
	int rc, saved;

	if ((rc = cfg_read_file(path, FWS_CONFIG_MAX_BYTES, &buf, &len, err, errlen, "config")) <
	    0) {
		cfg_one_line(err);
		errno = -rc;
		return NULL;
	}
	strlcpy(dir, path, sizeof(dir));
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	cfg = fws_config_parse_at(buf, len, slash ? dir : NULL, err, errlen);
	saved = errno;
	free(buf);
	if (cfg == NULL && strncmp(err, "config: ", 8) == 0) {
		/* Name the file: "config: FILE: where: what (line N)". */
		strlcpy(msg, err + 8, sizeof(msg));
		snprintf(err, errlen, "config: %s: %s", path, msg);
	}
	if (cfg == NULL)
		cfg_one_line(err);
	errno = saved;
	return cfg;
}

void
fws_config_free(struct fws_cfg *cfg)
{
	unsigned int i;

	if (cfg == NULL)
		return;
	for (i = 0; i < cfg->n_eal; i++)
		free(cfg->eal[i]);
	for (i = 0; i < cfg->n_hosts; i++)
		cfg_host_free(&cfg->hosts[i]);
	fws_blocklist_free(&cfg->blocklist);
	free(cfg);
}
