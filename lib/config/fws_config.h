/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Run configuration: strict JSON in, a validated struct fws_cfg with every default filled
 * out. The only module that reads JSON input; it takes a buffer so tests and fuzzers call it
 * directly. Errors are one line naming the JSON path, the value and its line:
 *   config: flows.src_port: range "70000-80000" is outside 0-65535 (line 12)
 */
#ifndef FWS_CONFIG_H
#define FWS_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fws_blocklist.h"
#include "fws_connstat.h"
#include "fws_flow.h"
#include "fws_rate.h"
#include "fws_tunnel.h"
#include "fws_size.h"
#include "fws_frame.h"

#define FWS_CFG_MAX_PORTS 8
#define FWS_CFG_MAX_STREAMS 16
#define FWS_CFG_MAX_REPEAT 1000
#define FWS_CFG_MAX_B2B 100 /**< back-to-back repetitions of a sweep cell, at most */
#define FWS_CFG_MAX_SIZES 32
#define FWS_CFG_MAX_LCORES 64
#define FWS_CFG_MAX_EAL 64
#define FWS_CFG_NAME_LEN 32
#define FWS_CFG_PATH_LEN 256
/** The JSON report's file when neither -o nor output.json names one. */
#define FWS_CFG_JSON_DEFAULT "fwstress-report.json"
#define FWS_PTP_SOCKET_DEFAULT "/var/run/ptp4l" /* ptp4l's uds_address */
#define FWS_CFG_MAX_ADDRS 8
/** Address ranges a port answers ARP/ND for: its own addresses, its streams' sources and
 * destinations (the control plane's table, lib/ctl). */
#define FWS_CFG_MAX_RANGES 40
#define FWS_CFG_RINGPAIR_NAME 20 /**< ringpair:NAME:a|b, NAME at most this long */

struct json_t;

/** One tester port. */
/** How a transmit task stamps a frame's departure (a port's "tx_stamp"). */
#define FWS_STAMPS(X) X(AUTO, "auto") X(WIRE, "wire") X(HANDOVER, "handover")
enum fws_stamp {
#define FWS_STAMP_ENUM(n, s) FWS_STAMP_##n,
	FWS_STAMPS(FWS_STAMP_ENUM)
#undef FWS_STAMP_ENUM
};

/** "auto", "wire" or "handover". */
const char *fws_stamp_name(enum fws_stamp s);

/** Where a receive lcore takes a frame's arrival time (a port's "rx_stamp"). */
#define FWS_RX_STAMPS(X) X(AUTO, "auto") X(TSC, "tsc")
enum fws_rx_stamp {
#define FWS_RX_STAMP_ENUM(n, s) FWS_RX_STAMP_##n,
	FWS_RX_STAMPS(FWS_RX_STAMP_ENUM)
#undef FWS_RX_STAMP_ENUM
};

/** "auto" or "tsc". */
const char *fws_rx_stamp_name(enum fws_rx_stamp s);

struct fws_cfg_port {
	char name[FWS_CFG_NAME_LEN];
	char device[FWS_CFG_PATH_LEN]; /**< PCI address, vdev string or ringpair:NAME:a|b */
	bool mac_set;
	struct fws_mac mac; /**< source MAC; default: the port's own */
	bool next_hop_set;
	struct fws_mac next_hop_mac; /**< default: MAC of the stream's receive port */
	unsigned int n_ipv4, n_ipv6;
	uint32_t ipv4[FWS_CFG_MAX_ADDRS]; /**< the tester's own addresses, host order */
	uint8_t ipv4_len[FWS_CFG_MAX_ADDRS];
	uint8_t ipv6[FWS_CFG_MAX_ADDRS][16];
	uint8_t ipv6_len[FWS_CFG_MAX_ADDRS];
	uint32_t gateway; /**< IPv4 next hop to resolve by ARP, host order; 0 = none */
	bool gateway6_set;
	uint8_t gateway6[16]; /**< IPv6 next hop to resolve by neighbour discovery */
	uint16_t vlan;        /**< 802.1Q VLAN id, 0 = untagged */
	uint16_t rx_desc, tx_desc;
	enum fws_stamp stamp; /**< auto: the wire model on hardware ports, handover on virtual */
	enum fws_rx_stamp rx_stamp; /**< auto: the NIC's receive timestamps where it offers them */
	char host_name[FWS_CFG_NAME_LEN]; /**< "host": "" for this one */
	uint8_t host;                     /**< 0: this process's; k: hosts[k - 1]'s agent */
};

/** A load client whose agent owns some of the ports ("hosts"; fwstress agent). */
#define FWS_CFG_MAX_HOSTS 8
#define FWS_CFG_MAX_ARGV 24
struct fws_cfg_host {
	char name[FWS_CFG_NAME_LEN];
	/** How to reach its agent: a command whose stdin and stdout carry the control
	 * stream; default ssh -T -o BatchMode=yes SSH FWSTRESS agent. */
	unsigned int n_argv;
	char *argv[FWS_CFG_MAX_ARGV + 1]; /**< NULL after the last: execvp's */
	bool command_set;                 /**< "command" given (else the ssh default) */
	char ssh[FWS_CFG_PATH_LEN];       /**< "ssh": destination, default the name */
	unsigned int n_ssh_opts;          /**< "ssh_options": before the destination */
	char *ssh_opts[FWS_CFG_MAX_ARGV - 8];
	char fwstress[FWS_CFG_PATH_LEN]; /**< "fwstress": the binary there, default fwstress */
	unsigned int n_eal;              /**< "eal": its EAL arguments (0: the config's) */
	char *eal[FWS_CFG_MAX_EAL];
	/** "shell": the command that runs a shell command there (the text appended as one
	 * argument) for a campaign's setup and teardown; 0: ssh's, for an ssh host. */
	unsigned int n_shell;
	char *shell[FWS_CFG_MAX_ARGV - 1];
	char ptp_socket[FWS_CFG_PATH_LEN]; /**< "ptp_socket": ptp4l's there ("": the config's) */
};

/** How the clocks of several hosts are aligned for one-way latency ("clocks"). */
#define FWS_CLOCK_SYNCS(X)                                                                         \
	X(PROBE, "probe")                                                                          \
	X(PTP, "ptp")                                                                              \
	X(NONE, "none")
enum fws_clock_sync {
#define FWS_CLOCK_SYNC_ENUM(n, s) FWS_CLOCK_SYNC_##n,
	FWS_CLOCK_SYNCS(FWS_CLOCK_SYNC_ENUM)
#undef FWS_CLOCK_SYNC_ENUM
};

/** The mode's name. */
const char *fws_clock_sync_name(enum fws_clock_sync m);

struct fws_cfg;

/** ptp4l's management socket on host k (0: this process's host). */
const char *fws_config_ptp_socket(const struct fws_cfg *cfg, unsigned int k);

/**
 * The command that runs a shell command on host h, the text to be appended as one last
 * argument: its "shell", or for a host reached by ssh ssh -T -o BatchMode=yes [SSH_OPTIONS]
 * -- DEST. Pointers into h; the count, 0 when h has a "command" and no "shell".
 */
unsigned int fws_config_host_shell(const struct fws_cfg_host *h, const char **argv,
				   unsigned int max);

/** A connection test's ends: the host of every stream's clients (tx_port) and of every
 * servers (rx_port), each one host (0: this process). 0, or -EINVAL with why in err. */
int fws_config_conn_ends(const struct fws_cfg *cfg, unsigned int *client, unsigned int *server,
			 char *err, size_t len);

/** Directions: of a stream (upload, download, custom), of a sweep cell (also bidir). */
#define FWS_DIRS(X)                                                                                \
	X(NONE, "")                                                                                \
	X(UPLOAD, "upload")                                                                        \
	X(DOWNLOAD, "download")                                                                    \
	X(BIDIR, "bidir")                                                                          \
	X(CUSTOM, "custom")
enum fws_dir {
#define FWS_DIR_ENUM(n, s) FWS_DIR_##n,
	FWS_DIRS(FWS_DIR_ENUM)
#undef FWS_DIR_ENUM
};

/** The direction's name ("" for NONE). */
const char *fws_dir_name(enum fws_dir d);

/** upload, download or bidir by name; FWS_DIR_NONE for anything else. */
enum fws_dir fws_dir_of(const char *name);

/** One stream: frames from one port to another with its own flows and rate. */
/** What a stream's frames should meet at the DUT ("expect"). */
#define FWS_EXPECTS(X) X(PASS, "pass") X(BLOCKED, "blocked") X(BLOCKLIST, "blocklist")
enum fws_expect {
#define FWS_EXPECT_ENUM(n, s) FWS_EXPECT_##n,
	FWS_EXPECTS(FWS_EXPECT_ENUM)
#undef FWS_EXPECT_ENUM
};

/** "pass", "blocked" or "blocklist". */
const char *fws_expect_name(enum fws_expect x);

#define FWS_CFG_MAX_BLOCKLISTS 4
#define FWS_CFG_PAYLOAD_MAX 256

/** The application a TCP stream's connections open with ("app"): their first data segment
 * is a TLS ClientHello naming a server (SNI) or an HTTP/1.1 request naming a Host. */
#define FWS_APPS(X) X(NONE, "") X(TLS, "tls_sni") X(HTTP, "http_host")
enum fws_app {
#define FWS_APP_ENUM(n, s) FWS_APP_##n,
	FWS_APPS(FWS_APP_ENUM)
#undef FWS_APP_ENUM
};
#define FWS_CFG_APP_NAME_LEN 64

/** A stream's test traffic ("l4"): stateless UDP, or TCP connections (fws_tcp.h). */
#define FWS_L4S(X) X(UNSET, "") X(UDP, "udp") X(TCP, "tcp") X(SYN, "syn")
enum fws_l4 {
#define FWS_L4_ENUM(n, s) FWS_L4_##n,
	FWS_L4S(FWS_L4_ENUM)
#undef FWS_L4_ENUM
};

/** "udp", "tcp", or "" when unset. */
const char *fws_l4_name(enum fws_l4 l);

/** "tls_sni", "http_host", or "" for none. */
const char *fws_app_name(enum fws_app a);

/** "df" and "fill": the config's ("payload"), or a stream's own. */
struct fws_cfg_fill {
	bool df;            /**< IPv4 don't-fragment */
	bool df_set;        /**< given (else a stream takes the config's) */
	bool set;           /**< kind and pattern given */
	enum fws_fill kind; /**< fws_pkt.h */
	uint8_t len;
	uint8_t pattern[FWS_FILL_PATTERN_MAX];
};

struct fws_cfg_stream {
	char name[FWS_CFG_NAME_LEN];
	enum fws_dir dir;         /**< upload, download, or custom (explicit streams) */
	uint8_t tx_port, rx_port; /**< indexes into ports; tx_port: the first sender */
	uint8_t n_tx;             /**< ports its flows are split over: tx_ports[0..n_tx) */
	uint8_t tx_ports[FWS_CFG_MAX_PORTS]; /**< sender j sends the flows fws_cfg_sender_flows
					      * gives it, at that share of the rate */
	int8_t learner;  /**< NAT download: the stream whose flows teach it where to send; -1 */
	bool learn_only; /**< sends only to teach NAT translations, never measured */
	enum fws_expect expect; /**< blocked: every flow; blocklist: flows whose destination
				 * is in the config's blocklist */
	enum fws_l4 l4;         /**< UDP datagrams or TCP connections */
	enum fws_app app;       /**< TCP: the preamble of every connection */
	char app_name[FWS_CFG_APP_NAME_LEN]; /**< the SNI or Host it names */
	uint16_t payload_len;                /**< bytes of payload right after the signature (attack
				 * patterns IDS rules match); 0: the default fill */
	uint8_t payload[FWS_CFG_PAYLOAD_MAX];
	struct fws_cfg_fill fill; /**< the bytes after the signature and payload, and DF */
	struct fws_flow_spec flows;
	struct fws_rate rate;
};

/** What the DUT is expected to do to addresses and ports ("nat"). */
#define FWS_NAT_MODES(X) X(UNSET, "") X(NONE, "none") X(MASQUERADE, "masquerade")
enum fws_nat_mode {
#define FWS_NAT_ENUM(n, s) FWS_NAT_##n,
	FWS_NAT_MODES(FWS_NAT_ENUM)
#undef FWS_NAT_ENUM
};

/** "none", "masquerade", or "" when unset. */
const char *fws_nat_mode_name(enum fws_nat_mode m);

struct fws_cfg_nat {
	enum fws_nat_mode mode;
	uint32_t learn_frames; /**< per flow, in the learn phase before each download trial */
	double learn_pps;      /**< the learn phase's rate per stream */
};

/** Throughput search settings (fwstress search). */
struct fws_cfg_search {
	double short_s, final_s; /**< narrowing and confirming trial durations */
	double width;            /**< goal width, fraction of the maximum rate */
	double pdr;              /**< PDR loss ratio goal */
	double min_load;         /**< lowest load tried, fraction of the maximum */
	unsigned int max_trials;
};

/** A connection test (fwstress connections): RFC 3511 5.2-5.4, RFC 9411 7.2 and 7.5. */
struct fws_cfg_conn {
	enum fws_conn_test test; /**< FWS_CONN_NONE: the config has no "connections" */
	double rate;             /**< connections (teardown: closes) per second: the search's
				  * maximum; capacity: the opening rate */
	double open_rate;        /**< teardown: the rate its connections open at */
	double reset_rate;       /**< RSTs per second between iterations */
	uint16_t data;           /**< request and response bytes of each connection */
	uint8_t tries;           /**< sends of a SYN, request or FIN before failing */
	double retry_s;          /**< wait for an answer before sending again */
	double aging_s;          /**< wait after the RSTs: the DUT's aging time */
	double hold_s;           /**< capacity: hold the connections this long, then RST */
	unsigned int iterations; /**< capacity: repetitions */
};

/** What RFC 2544 asks of a sweep's repetitions (the defaults; fewer are said in the report):
 * latency at least 20 trials per point (26.2), back-to-back at least 50 (26.4, RFC 9004). */
#define FWS_RFC_LATENCY_TRIALS 20
#define FWS_RFC_B2B_TRIALS 50

/** Sweep settings (fwstress sweep): directions x frame sizes, each searched or fixed. */
struct fws_cfg_sweep {
	unsigned int n_dirs;
	enum fws_dir dirs[3]; /**< upload, download, bidir */
	bool dirs_given;      /**< "directions" named: each must have its streams */
	/** Default directions left out for want of streams: bit (1 << enum fws_dir); the
	 * sweep says so in one line. */
	unsigned int dirs_skipped;
	bool search; /**< search NDR/PDR per cell; false: one trial at the rate */
	unsigned int n_lat;
	double lat[8];           /**< latency trials at these fractions of NDR */
	unsigned int lat_repeat; /**< trials per latency point (RFC 2544 26.2: at least 20) */
	unsigned int b2b_repeat; /**< back-to-back bursts: repetitions, 0 = none */
	double b2b_seconds;      /**< longest burst tried, in seconds at the rate */
};

/** A whole run. */
/** "dut": the device under test (a config's, or a campaign plan's for all its scenarios). */
struct fws_cfg_dut {
	char name[64];
	char firmware[64];
	char load_cmd[256];  /**< run during each measured phase; "{seconds}" = its length */
	char telemetry[256]; /**< a POSIX sh on the DUT, asked each second (fws_telem.h) */
};

struct fws_cfg {
	char scenario[FWS_CFG_NAME_LEN]; /**< routing, firewall, ids, ips, ..., openvpn: a label */
	struct fws_cfg_dut dut;
	unsigned int n_eal;
	char *eal[FWS_CFG_MAX_EAL];
	unsigned int n_hosts;
	struct fws_cfg_host hosts[FWS_CFG_MAX_HOSTS];
	enum fws_clock_sync clock_sync;    /**< "clocks": how hosts' clocks are aligned */
	char ptp_socket[FWS_CFG_PATH_LEN]; /**< "clocks".socket: ptp4l's on every host */
	uint8_t ptp_domain;                /**< "clocks".domain: the PTP domain they are in */
	unsigned int n_ports;
	struct fws_cfg_port ports[FWS_CFG_MAX_PORTS];
	unsigned int n_streams;
	struct fws_cfg_stream streams[FWS_CFG_MAX_STREAMS];
	unsigned int n_sizes; /**< one trial per frame-size mix */
	struct fws_size_mix sizes[FWS_CFG_MAX_SIZES];
	double duration, warmup, drain; /**< seconds */
	/** Measurements of each cell (run: each trial; search: each search), 1 to
	 * FWS_CFG_MAX_REPEAT: the report gives their spread (fws_stats.h). */
	unsigned int repeat;
	double steady_band; /**< a trial's seconds stay within this share of their mean */
	bool path_check;
	uint32_t seq_window; /**< frames per flow in which duplicates are told exactly */
	struct fws_cfg_nat nat;
	enum fws_l4 l4;          /**< the streams' default ("l4") */
	uint32_t tcp_seq_offset; /**< fault injection: added to data segments' numbers */
	unsigned int n_blocklists;
	char blocklist_files[FWS_CFG_MAX_BLOCKLISTS][FWS_CFG_PATH_LEN];
	struct fws_blocklist blocklist; /**< every file's CIDRs, merged */
	struct fws_cfg_search search;
	struct fws_cfg_sweep sweep;
	struct fws_cfg_conn conn; /**< "connections" */
	struct fws_cfg_fill fill; /**< "payload": what streams without their own take */
	struct fws_tunnel tunnel; /**< "tunnel" (or a tunnel scenario's): the overhead report */
	uint16_t burst;
	unsigned int n_tx_lcores, n_rx_lcores; /**< 0: assign from the EAL lcores */
	unsigned int tx_lcores[FWS_CFG_MAX_LCORES];
	unsigned int rx_lcores[FWS_CFG_MAX_LCORES];
	char json_out[FWS_CFG_PATH_LEN]; /**< "" = none */
	char text_out[FWS_CFG_PATH_LEN]; /**< "" = stdout only */
};

/** Parse a blocklist in either DROP format into bl (name for messages). 0 or -errno. */
int fws_blocklist_parse(struct fws_blocklist *bl, const char *buf, size_t len, const char *name,
			char *err, size_t errlen);

/** Read and parse a blocklist file. 0 or -errno with a one-line message. */
int fws_blocklist_load(struct fws_blocklist *bl, const char *path, char *err, size_t errlen);

/**
 * Parse and validate a JSON config. On error returns NULL with errno set (EINVAL for a bad
 * config, ENOMEM) and a one-line message in err.
 */
struct fws_cfg *fws_config_parse(const char *buf, size_t len, char *err, size_t errlen);

/** As fws_config_parse; relative file names in it (blocklist) start at base (NULL: the
 * working directory). */
struct fws_cfg *fws_config_parse_at(const char *buf, size_t len, const char *base, char *err,
				    size_t errlen);

/** Read a file and parse it; the message names the file when it cannot be read. Relative
 * file names in it start at the file's directory. */
struct fws_cfg *fws_config_load(const char *path, char *err, size_t errlen);

/**
 * The PCI devices of the ports this host owns are on its bus (FWS_SYSFS, default /sys): 0, or
 * -ENODEV with the first one missing named in err. The parser checks only their form, so a
 * config validates on a machine that is not the load client.
 */
int fws_config_local_devices(const struct fws_cfg *cfg, char *err, size_t errlen);

/**
 * Whether DPDK reaches a PCI NIC bound to the kernel driver drv (sysfs's name): the user-space
 * drivers (vfio-pci, uio_pci_generic, igb_uio) and the kernel drivers of NICs DPDK shares
 * with the kernel (bifurcated: mlx4_core, mlx5_core). Any other driver holds the NIC for the
 * kernel.
 */
bool fws_config_dpdk_driver(const char *drv);

/**
 * The command line's EAL arguments after the config's "eal" list, into it (the report then
 * records the list EAL ran with): where EAL takes one of a kind (-l, -c or --lcores, a file
 * prefix, --no-pci), the command line's replaces the config's; the rest add up. 0, or
 * -E2BIG with err.
 */
int fws_config_eal_merge(struct fws_cfg *cfg, char *const *cli, unsigned int n_cli, char *err,
			 size_t errlen);

void fws_config_free(struct fws_cfg *cfg);

/** The normalised config (defaults filled) as a new JSON object. */
struct json_t *fws_config_to_json(const struct fws_cfg *cfg);

/**
 * An EAL argument fwstress cannot run with (next: the argument after it, or NULL):
 * -h/--help (EAL prints its usage and exits 0, with no report), and a process type other
 * than primary (fwstress owns its ports). Returns NULL when fine, else why.
 */
const char *fws_config_eal_refused(const char *arg, const char *next);

/** One line per top-level key: what it holds (validate --help). */
void fws_config_doc(FILE *f);

/** The same as a Markdown document (docs/reference/configuration.md). */
void fws_config_doc_md(FILE *f);

/** Find a port by name: its index, or -ENOENT. */
int fws_config_port(const struct fws_cfg *cfg, const char *name);

/** Flows [lo, hi) of a stream that its sender j sends: contiguous shares in sender order. */
static inline void
fws_cfg_sender_flows(const struct fws_cfg_stream *s, unsigned int j, uint32_t *lo, uint32_t *hi)
{
	unsigned int n = s->n_tx ? s->n_tx : 1;

	*lo = (uint32_t)((uint64_t)s->flows.count * j / n);
	*hi = (uint32_t)((uint64_t)s->flows.count * (j + 1) / n);
}

/** The sender index of port p in a stream's tx_ports, or -1: p does not send it. */
/** Download flows from upload ones: sources and destinations swapped. */
void fws_cfg_reverse_flows(const struct fws_flow_spec *in, struct fws_flow_spec *out);
int fws_cfg_sender(const struct fws_cfg_stream *s, unsigned int p);

/** A stream sent from one port only. */
void fws_cfg_stream_tx(struct fws_cfg_stream *s, unsigned int p);

/** A stream's transmit ports' names joined by "+" ("lan" or "lan+lan2"), into buf. */
#define FWS_CFG_SENDERS_NAME_LEN (FWS_CFG_NAME_LEN * FWS_CFG_MAX_PORTS)
const char *fws_cfg_senders_name(const struct fws_cfg *cfg, const struct fws_cfg_stream *s,
				 char *buf, size_t len);

/** The scenario is a free label: no preset, no tunnel, not routing. */
bool fws_config_scenario_is_label(const struct fws_cfg *cfg);

/** The config the binary embeds (config/loopback.json) for a run without a file. */
extern const char fws_config_default[];

#endif /* FWS_CONFIG_H */
