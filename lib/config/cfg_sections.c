/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The top level of a config as one table: each key once, with its parser, its emitter and
 * its one-line documentation. Parsing walks the table in order (ports before streams, the
 * flows and rate that streams inherit before them); emitting walks it again. And the entry
 * points: parse, load, free.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "cfg_int.h"
#include "fws_steady.h"
#include "fws_util.h"

#define SEC(k, doc)                                                                                \
	{                                                                                          \
#k, cfg_sec_##k, cfg_emit_##k, doc, NULL                                           \
	}
/* A key whose value is an object: its keys documented in k_keys. */
#define SECK(k, doc)                                                                               \
	{                                                                                          \
#k, cfg_sec_##k, cfg_emit_##k, doc, k##_keys                                       \
	}
/* A key whose value lives in another section's output (flows in the streams). */
#define SEC_FOLDED(k, doc, keys)                                                                   \
	{                                                                                          \
#k, cfg_sec_##k, NULL, doc, keys                                                   \
	}

/* Each object section's keys, as its parser accepts them (a test compares the two). */
static const struct cfg_keydoc dut_keys[] = {
	{"name", "the DUT's name, for the report"},
	{"firmware", "its firmware version, for the report"},
	{"load_command", "a shell command printing the DUT's CPU load in %, run over each measured "
			 "phase ({seconds}: its length), e.g. \"ssh root@fw vmstat -w {seconds} "
			 "2\""},
	{"telemetry", "a command opening a POSIX sh on the DUT (e.g. \"ssh root@fw sh\"), kept "
		      "open over each trial and asked each second for per-core CPU, interrupts, "
		      "state table, interface drops, mbuf denials, temperature and memory "
		      "(FreeBSD/OPNsense/pfSense or Linux, told by uname)"},
	{NULL, NULL}};
static const struct cfg_keydoc hosts_keys[] = {
	{"name", "the load client, as ports name it in \"host\""},
	{"command", "how its agent is reached: a command (a list) whose stdin and stdout carry the "
		    "control stream; default ssh -T -o BatchMode=yes SSH_OPTIONS -- SSH FWSTRESS "
		    "agent"},
	{"ssh", "ssh's destination (default the name)"},
	{"ssh_options", "ssh's options, a list, e.g. [\"-p\", \"2222\"]"},
	{"fwstress", "the fwstress binary there (default fwstress)"},
	{"eal", "its EAL arguments (default the config's)"},
	{"shell",
	 "the command that runs a campaign's setup or teardown there, the shell text "
	 "appended as one argument (default for an ssh host: ssh -T -o BatchMode=yes "
	 "SSH_OPTIONS -- SSH), e.g. [\"ip\", \"netns\", \"exec\", \"NS\", \"sh\", \"-c\"]"},
	{"inventory", "an Ansible inventory whose host of this name gives ssh's destination and "
		      "options (ansible_host, ansible_user, ansible_port, fwstress_ssh_key or "
		      "ansible_ssh_private_key_file, ansible_ssh_common_args), fwstress "
		      "(fwstress_bin) and eal (fwstress_eal)"},
	{"ptp_socket", "ptp4l's management socket there (default the one of \"clocks\")"},
	{NULL, NULL}};
static const struct cfg_keydoc clocks_keys[] = {
	{"mode", "\"probe\", \"ptp\" or \"none\" (as the string form)"},
	{"socket", "ptp4l's uds_address (default /var/run/ptp4l)"},
	{"domain", "its domainNumber, 0-255 (default 0)"},
	{NULL, NULL}};
static const struct cfg_keydoc ports_keys[] = {
	{"name", "required: how streams and reports name the port"},
	{"device", "required: a PCI address (bound to vfio-pci or uio) or a vdev (net_ring, "
		   "net_pcap, net_af_packet, net_tap, net_memif, net_null; ringpair:NAME:a|b)"},
	{"host", "the hosts entry whose agent owns it (default this process)"},
	{"mac", "its MAC (default the device's)"},
	{"next_hop_mac", "a static next hop: the DUT's MAC on this link, instead of a gateway to "
			 "resolve"},
	{"ipv4", "its IPv4 address or a list, \"198.18.0.2/24\" (length optional): answered for "
		 "ARP and echo"},
	{"ipv6", "its IPv6 address or a list, \"2001:2:0:1::2/64\": answered for ND and echo"},
	{"gateway", "the DUT's IPv4 address on this link, resolved by ARP"},
	{"gateway6", "the DUT's IPv6 address on this link, resolved by ND"},
	{"vlan", "an 802.1Q VLAN ID its frames carry"},
	{"rx_descriptors", "receive ring size"},
	{"tx_descriptors", "transmit ring size"},
	{"tx_stamp", "\"wire\" stamps each frame at its modelled departure at the link speed, "
		     "\"handover\" when the burst is handed to the driver, \"auto\" (default) wire "
		     "on hardware ports"},
	{"rx_stamp", "\"auto\" (default) takes each frame's arrival from the NIC's receive "
		     "timestamp where the NIC stamps every frame (RX timestamp offload; its clock "
		     "mapped onto the TSC each second), else from the TSC at the poll; \"tsc\" "
		     "always from the TSC"},
	{NULL, NULL}};
static const struct cfg_keydoc flows_keys[] = {
	{"ip", "4 or 6: the default flows of that family"},
	{"count", "flows: every combination of the ranges below, up to this many"},
	{"src_ip", "source address or range (\"198.18.1.0-198.18.1.255\")"},
	{"dst_ip", "destination address or range"},
	{"src_port", "source port or range (\"1024-65535\")"},
	{"dst_port", "destination port or range"},
	{NULL, NULL}};
static const struct cfg_keydoc streams_keys[] = {
	{"name", "required: the stream's name in reports"},
	{"tx_port",
	 "required: a port, or a list of ports (on one host or several) that split the "
	 "flows in contiguous shares in list order, each sending its share at that share "
	 "of the rate (UDP streams)"},
	{"rx_port", "required: the port that receives it"},
	{"flows", "its flows (as \"flows\"; default the config's)"},
	{"rate", "its rate (as \"rate\"; default the config's)"},
	{"l4", "\"udp\", \"tcp\" or \"syn\" (a SYN flood from the flows' sources beside the other "
	       "streams, RFC 3511 5.5); default the config's \"l4\""},
	{"app", "TCP streams: {tls_sni, http_host}: the application preamble (a TLS ClientHello "
		"or an HTTP request) each connection opens with"},
	{"direction", "\"upload\" or \"download\": what NAT pairs it as"},
	{"learn_only", "true: it only teaches NAT translations (not measured)"},
	{"expect",
	 "\"pass\" (default), \"blocked\" or \"blocklist\": what the DUT should do with it"},
	{"payload", "fixed bytes every frame carries after the signature (an attack pattern)"},
	{"fill", "its fill (as \"payload\".fill)"},
	{"df", "its don't-fragment bit (as \"payload\".df)"},
	{NULL, NULL}};
static const struct cfg_keydoc frame_size_keys[] = {
	{"name", "a mix's name in reports"},
	{"mix", "[[size, weight], ...]: frame sizes with FCS and their shares"},
	{NULL, NULL}};
static const struct cfg_keydoc sweep_keys[] = {
	{"directions", "which of upload, download and bidir are swept (default the three the "
		       "streams allow)"},
	{"mode", "\"search\" (NDR/PDR per cell, default) or \"fixed\" (one trial at the rate)"},
	{"latency_at", "latency trials at these fractions of the NDR published (the rate its trial "
		       "offered), e.g. [\"10%\", \"90%\"]"},
	{"latency_repeat", "trials per latency point (default 20, RFC 2544 26.2's minimum; "
			   "fewer are said in the report)"},
	{"back_to_back", "{repeat, seconds}: back-to-back bursts (RFC 2544 26.4) repeated "
			 "(default 50, RFC 9004's minimum; fewer are said in the report), the "
			 "longest tried lasting seconds at the rate"},
	{NULL, NULL}};
static const struct cfg_keydoc nat_keys[] = {
	{"mode", "\"none\" or \"masquerade\""},
	{"learn_frames", "frames per flow of each learning probe (default 2)"},
	{"learn_pps", "the learning probes' rate (default 2000)"},
	{NULL, NULL}};
static const struct cfg_keydoc tcp_keys[] = {
	{"seq_offset", "added to every data segment's sequence number after the handshake"},
	{NULL, NULL}};
static const struct cfg_keydoc search_keys[] = {
	{"short", "seconds of each narrowing trial (default 1)"},
	{"final", "seconds of each confirming trial (default 60)"},
	{"width", "the goal's width, % of the maximum rate (default 0.5 %)"},
	{"pdr", "the PDR's loss ratio, % (default 0.5 %)"},
	{"min", "the lowest load tried, % of the maximum (default 0.1 %)"},
	{"max_trials", "trials per search at most, 2-200 (default 60)"},
	{NULL, NULL}};
static const struct cfg_keydoc payload_keys[] = {
	{"fill", "\"counter\" (default), \"zero\", \"random\" (fixed for the run, incompressible) "
		 "or a hex pattern \"0x...\" of up to 32 bytes"},
	{"df", "IPv4's don't-fragment bit (true or false)"},
	{NULL, NULL}};
static const struct cfg_keydoc tunnel_keys[] = {
	{"kind", "wireguard, ipsec or openvpn"},
	{"overhead", "bytes the tunnel adds to each packet (default the kind's)"},
	{"mtu", "the tunnel's MTU (default the kind's)"},
	{NULL, NULL}};
static const struct cfg_keydoc connections_keys[] = {
	{"test", "rate (connections per second), capacity (connections held) or teardown "
		 "(closes per second)"},
	{"rate", "connections (teardown: closes) per second: the search's maximum; capacity: "
		 "the opening rate (default 1000)"},
	{"open_rate", "teardown: the rate its connections open at"},
	{"reset_rate", "RSTs per second between iterations"},
	{"data", "request and response bytes of each connection (default 64)"},
	{"tries", "sends of a SYN, request or FIN before a connection fails, 1-8 (default 3)"},
	{"retry", "seconds to wait for an answer before sending again (default 1)"},
	{"aging", "seconds to wait after the RSTs: the DUT's aging time (default 2)"},
	{"hold", "capacity: seconds to hold the connections, then RST"},
	{"iterations", "capacity: repetitions (default 1)"},
	{NULL, NULL}};
static const struct cfg_keydoc lcores_keys[] = {
	{"tx", "transmit lcore ids"}, {"rx", "receive lcore ids"}, {NULL, NULL}};
static const struct cfg_keydoc output_keys[] = {
	{"json", "the JSON report's file (default fwstress-report.json, an earlier one there kept "
		 "under a dated name; \"\" for none)"},
	{"text", "the text report's file (\"\" for none)"},
	{NULL, NULL}};

static const struct cfg_section sections[] = {
	SECK(dut, "the device under test; its load command prints its CPU load %"),
	SEC(scenario, "what the DUT is set up as: a report label; firewall, ids, ips and "
		      "appcontrol are also presets (both directions, NAT masquerade; ids/ips add "
		      "an attack stream that must pass/be blocked; appcontrol TCP streams and an "
		      "allowed and a blocked application) the config may override"),
	SEC(eal, "DPDK EAL arguments, e.g. [\"-l\", \"0-3\", \"--vdev\", \"net_null0\"]"),
	SECK(hosts, "a list of load clients whose agent (fwstress agent) owns the ports that name "
		    "them in \"host\""),
	SECK(clocks, "how the hosts' clocks are aligned for one-way latency: \"probe\" (default: "
		     "time probes over the control link before and after each trial), \"ptp\" "
		     "(every host's CLOCK_REALTIME disciplined by PTP: its ptp4l must be SLAVE to "
		     "one grandmaster, or be it; the bound from ptp4l's offsets and each agent's "
		     "clock reads), \"none\" (one-way figures relative), or an object"),
	SECK(ports, "required: a list of ports"),
	SEC_FOLDED(flows, "the IPv4 flows streams inherit", flows_keys),
	SEC_FOLDED(flows6,
		   "with \"direction\": IPv6 flows for upload6/download6 streams (keys as "
		   "\"flows\")",
		   NULL),
	SEC(rate_layer, "\"l1\" (preamble and IFG count, default) or \"l2\""),
	SEC_FOLDED(rate,
		   "the rate streams inherit: \"line\" (the link's speed: a NIC paces itself, a "
		   "virtual port is paced to its reported speed), \"max\" (unpaced, as fast as the "
		   "generator), \"50%\", \"1Mpps\", \"900Mbit\"",
		   NULL),
	SEC_FOLDED(direction,
		   "\"upload\" (default), \"download\" or \"bidir\" between ports lan "
		   "and wan",
		   NULL),
	SEC(blocklist, "a file or a list of up to 4 in Spamhaus DROP's text or JSON-lines "
		       "format: the destinations streams with \"expect\": \"blocklist\" are "
		       "expected to be blocked at"),
	SECK(streams, "a list of streams, or use \"direction\""),
	SECK(frame_size, "bytes with FCS, \"imix\", an object (a mix), a list, or \"rfc2544\""),
	SEC(duration, "seconds of one measured trial (default 10)"),
	SEC(warmup, "seconds of load before measuring (default 1)"),
	SEC(drain, "seconds to wait for frames in flight after the load stops (default 2)"),
	SEC(repeat, "measurements of each cell, 1-1000 (default 1): run repeats each trial, "
		    "search and sweep each search (or fixed trial), connections the whole "
		    "test; the report gives each cell's median, extremes, mean with its 95 % "
		    "interval and coefficient of variation, and compare weighs them"),
	SEC(steady_band, "the band around a trial's mean receive rate its every measured second "
			 "should stay in (default \"5%\", RFC 9411's sustain criterion): a "
			 "second outside makes the cell unsteady, unless the senders offered "
			 "less than 99 % of the asked rate in it (generator-limited)"),
	SEC(burst, "frames per TX burst, 1-512 (default 32)"),
	SECK(sweep, "fwstress sweep: directions x frame sizes, each cell searched or fixed"),
	SEC(path_check, "probe every stream's path before the load (default true)"),
	SEC(seq_window,
	    "frames below a flow's newest in which a duplicate is told from a late "
	    "frame exactly: a power of two, 64-65536 (default 1024; RX memory: window/8 "
	    "bytes per flow and RX lcore beyond 64)"),
	SECK(nat, "\"none\" (no translation expected) or \"masquerade\" (upload source-"
		  "translated; download sent to the translations learned before each trial), "
		  "or an object"),
	SEC(l4, "\"udp\" (default) or \"tcp\": the streams' test traffic (a stream's own \"l4\" "
		"overrides it). tcp opens every flow with a handshake through the DUT before each "
		"trial, sends data segments with the numbers the peer's SYN and SYN-ACK gave, ACKs "
		"them and closes with FIN; IPv4 and IPv6 (no NAT66 followed)"),
	SECK(tcp, "fault injection for tests (a strict firewall then drops the segments)"),
	SECK(search, "the NDR/PDR search"),
	SECK(payload, "what every stream's frames carry after the signature (a stream's own "
		      "\"fill\" and \"df\" override them)"),
	SECK(tunnel, "the tunnel the streams cross: the report gives per frame size the bytes on "
		     "its encrypted link and their share of the line rate (the scenarios openvpn, "
		     "ipsec and wireguard set it, a random fill and frame sizes around its MTU)"),
	SECK(connections, "fwstress connections; each TCP stream's flows are its connections "
			  "(RFC 3511 5.2-5.4, RFC 9411 7.2/7.5)"),
	SECK(lcores, "lcore ids per role (default: from the EAL list)"),
	SECK(output, "report files"),
};

static void
cfg_defaults(struct cfg_top *t)
{
	struct fws_cfg *cfg = t->cfg;

	cfg_default_flows(t);
	t->rate = (struct fws_rate){.kind = FWS_RATE_LINE, .layer = FWS_RATE_L1, .value = 100};
	cfg->duration = 10;
	cfg->repeat = 1;
	cfg->steady_band = FWS_STEADY_BAND;
	cfg->warmup = 1;
	cfg->drain = 2;
	cfg->burst = 32;
	strlcpy(cfg->json_out, FWS_CFG_JSON_DEFAULT, sizeof(cfg->json_out));
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
				       .lat_repeat = FWS_RFC_LATENCY_TRIALS,
				       .b2b_seconds = 2};
}

static int
check_top_keys(struct cfg_ctx *c, const json_t *root)
{
	const char *keys[FWS_DIM(sections) + 1];
	size_t i;

	for (i = 0; i < FWS_DIM(sections); i++)
		keys[i] = sections[i].key;
	keys[i] = NULL;
	return cfg_check_keys_named(c, root, keys, "fwstress validate --help lists the keys");
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
	for (i = 0; i < FWS_DIM(sections); i++) {
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

	for (i = 0; i < FWS_DIM(sections); i++)
		if (sections[i].emit && (v = sections[i].emit(cfg)) != NULL)
			json_object_set_new(root, sections[i].key, v);
	return root;
}

void
fws_config_doc(FILE *f)
{
	const struct cfg_keydoc *k;
	size_t i;

	for (i = 0; i < FWS_DIM(sections); i++) {
		fprintf(f, "  %-11s %s", sections[i].key, sections[i].doc);
		for (k = sections[i].keys; k && k->key; k++)
			fprintf(f, "%s%s", k == sections[i].keys ? "; keys: " : ", ", k->key);
		fputc('\n', f);
	}
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
	const struct cfg_keydoc *k;
	size_t i;

	fputs("# fwstress configuration\n\n"
	      "<!-- Generated by `fwstress validate --doc` from the config's section table\n"
	      "     (lib/config/cfg_sections.c); a test fails when this file is stale. -->\n\n"
	      "A run is one JSON file. These are its top-level keys, in the order they are\n"
	      "read; `fwstress validate CONFIG` prints a config with every default filled in.\n"
	      "Ready configs are in `config/`. A key whose value is an object lists its keys.\n\n",
	      f);
	for (i = 0; i < FWS_DIM(sections); i++)
		fprintf(f, "%s[`%s`](#%s)", i ? ", " : "", sections[i].key, sections[i].key);
	fputs("\n", f);
	for (i = 0; i < FWS_DIM(sections); i++) {
		fprintf(f, "\n## %s\n\n%s\n", sections[i].key, sections[i].doc);
		if (sections[i].keys == NULL)
			continue;
		fputs("\n| key | what it sets |\n|-----|--------------|\n", f);
		for (k = sections[i].keys; k->key; k++) {
			fprintf(f, "| `%s` | ", k->key);
			md_cell(f, k->doc);
			fputs(" |\n", f);
		}
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
