/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fws_cell.h"
#include "fws_config.h"
#include "unit.h"

#define PORTS                                                                                      \
	"\"ports\": [{\"name\": \"lan\", \"device\": \"net_ring0\"}, "                             \
	"{\"name\": \"wan\", \"device\": \"net_ring1\"}]"

#define PORTS3                                                                                     \
	"\"ports\": [{\"name\": \"lan\", \"device\": \"net_ring0\"}, "                             \
	"{\"name\": \"wan\", \"device\": \"net_ring1\"}, {\"name\": \"dmz\", \"device\": "         \
	"\"net_ring2\"}]"

#define S1(n) "{\"name\": \"s" #n "\", \"tx_port\": \"wan\", \"rx_port\": \"lan\"}"
#define S15                                                                                        \
	S1(1)                                                                                      \
	"," S1(2) "," S1(3) "," S1(4) "," S1(5) "," S1(6) "," S1(7) "," S1(8) "," S1(9) "," S1(    \
		10) "," S1(11) "," S1(12) "," S1(13) "," S1(14) "," S1(15)

/* Each bad config and the exact message it must give. */
static const struct {
	const char *json;
	const char *error;
} bad[] = {
	{"[1]", "config: (top): the config must be a JSON object, got an array (line 1)"},
	{"{", "config: line 1: string or '}' expected near end of file"},
	{"{" PORTS ", \"bogus\": 1}",
	 "config: bogus: unknown key (fwstress validate --help lists the keys) (line 1)"},
	{"{" PORTS ", \"durration\": 1}",
	 "config: durration: unknown key; did you mean \"duration\"? (fwstress validate --help "
	 "lists the keys) (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"net_null0\", \"rx_stamp\": \"nic\"}]}",
	 "config: ports[0].rx_stamp: expected \"auto\" or \"tsc\" (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"net_null0\", \"gatway\": "
	 "\"198.18.0.1\"}]}",
	 "config: ports[0].gatway: unknown key; did you mean \"gateway\"?"
	 " (keys: name, device, host, mac, next_hop_mac, ipv4, ipv6, gateway, gateway6, vlan, "
	 "rx_descriptors, tx_descriptors, tx_stamp, rx_stamp) (line 1)"},
	/* Fill and DF. */
	{"{" PORTS ", \"payload\": {\"fill\": \"ones\"}}",
	 "config: payload.fill: \"ones\": give \"counter\", \"zero\", \"random\" or a hex pattern "
	 "\"0x...\" (line 1)"},
	{"{" PORTS ", \"payload\": {\"fill\": \"0xabc\"}}",
	 "config: payload.fill: \"0xabc\": a pattern is 0x and 1 to 32 bytes in hex (line 1)"},
	{"{" PORTS ", \"payload\": {\"fill\": \"0xabzz\"}}",
	 "config: payload.fill: \"0xabzz\": not hex at byte 2 (line 1)"},
	{"{" PORTS ", \"payload\": {\"df\": 1}}",
	 "config: payload.df: expected true or false, got an integer (line 1)"},
	{"{" PORTS ", \"streams\": [{\"name\": \"s\", \"tx_port\": \"lan\", \"rx_port\": \"wan\", "
	 "\"flows\": {\"ip\": 6}, \"df\": true}]}",
	 "config: (top): stream \"s\": \"df\" is IPv4's (IPv6 routers never fragment: packets too "
	 "big for a link are dropped) (line 1)"},
	/* Keys and values from the input never break the line or reach the terminal raw. */
	{"{" PORTS ", \"bo\\ngus\\u001b[2J\": 1}",
	 "config: bo?gus?[2J: unknown key (fwstress validate --help lists the keys)"},
	{"{" PORTS ", \"rate\": \"1e20pps\"}",
	 "config: rate: \"1e20pps\" is above the largest rate fwstress paces (1e+10 pps, 1e+13 "
	 "bit/s) (line 1)"},
	{"{" PORTS ", \"rate\": \"1e300bit\"}",
	 "config: rate: \"1e300bit\" is above the largest rate fwstress paces (1e+10 pps, 1e+13 "
	 "bit/s) (line 1)"},
	{"{" PORTS ", \"eal\": [\"-l\", \"0-1\", \"--help\"]}",
	 "config: eal[2]: \"--help\": EAL would print its usage and exit without running (line "
	 "1)"},
	{"{" PORTS ", \"eal\": [\"--proc-type\", \"secondary\"]}",
	 "config: eal[0]: \"--proc-type\": fwstress runs as a primary process (it sets up and "
	 "owns its ports) (line 1)"},
	{"{\"ports\": [{\"name\": \"a\", \"device\": \"ringpair:abcdefghijklmnopqrstu:a\"}]}",
	 "config: ports[0].device: a ringpair name has at most 20 characters (line 1)"},
	{"{\"ports\": [{\"name\": \"a\", \"device\": \"ringpair:x:c\"}]}",
	 "config: ports[0].device: expected ringpair:NAME:a or ringpair:NAME:b (line 1)"},
	{"{\"seq_window\": 100, " PORTS "}",
	 "config: seq_window: 100 is not a power of two (line 1)"},
	{"{\"seq_window\": 32, " PORTS "}", "config: seq_window: 32 is outside 64-65536 (line 1)"},
	{"{\"duration\": 5}", "config: (top): a config needs \"ports\" (line 1)"},
	{"{\"ports\": []}", "config: ports: expected a list of 1 to 8 ports (line 1)"},
	{"{\"ports\": [{\"device\": \"net_null2\"}]}",
	 "config: ports[0]: a port needs a \"name\" (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\"}]}",
	 "config: ports[0]: port \"lan\" needs a \"device\" (PCI address or vdev) (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": 5}]}",
	 "config: ports[0].device: expected a string, got an integer (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"net_null0\", \"speed\": 1}]}",
	 "config: ports[0].speed: unknown key"
	 " (keys: name, device, host, mac, next_hop_mac, ipv4, ipv6, gateway, gateway6, vlan, "
	 "rx_descriptors, tx_descriptors, tx_stamp, rx_stamp) (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"net_null0\"}, {\"name\": \"lan\", "
	 "\"device\": "
	 "\"net_null1\"}]}",
	 "config: ports[1].name: port name \"lan\" is used twice (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"net_null0\"}, {\"name\": \"wan\", "
	 "\"device\": "
	 "\"net_null0\"}]}",
	 "config: ports[1].device: device \"net_null0\" is used by ports[0] too (line 1)"},
	/* What validate knows without EAL (issue 24): the driver of a vdev, a PCI address. */
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"ringpar:loop:b\"}]}",
	 "config: ports[0].device: device \"ringpar:loop:b\": not a PCI address ([DDDD:]BB:DD.F), "
	 "a "
	 "virtual device of a DPDK driver (net_af_packet0, net_memif0, net_null0, net_pcap0, "
	 "net_ring0, net_tap0, ...) or ringpair:NAME:a|b (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"net_nul0\"}]}",
	 "config: ports[0].device: device \"net_nul0\": not a PCI address ([DDDD:]BB:DD.F), a "
	 "virtual device of a DPDK driver (net_af_packet0, net_memif0, net_null0, net_pcap0, "
	 "net_ring0, net_tap0, ...) or ringpair:NAME:a|b (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"0000:ff:1f.77\"}]}",
	 "config: ports[0].device: device \"0000:ff:1f.77\": not a PCI address ([DDDD:]BB:DD.F), a "
	 "virtual device of a DPDK driver (net_af_packet0, net_memif0, net_null0, net_pcap0, "
	 "net_ring0, net_tap0, ...) or ringpair:NAME:a|b (line 1)"},
	/* Signs, 0x, spaces and short fields are no PCI address; a device above 1f or a
	 * function above 7 is refused for that (issue 53, item 7). */
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"-001:03:00.0\"}]}",
	 "config: ports[0].device: device \"-001:03:00.0\": not a PCI address ([DDDD:]BB:DD.F), a "
	 "virtual device of a DPDK driver (net_af_packet0, net_memif0, net_null0, net_pcap0, "
	 "net_ring0, net_tap0, ...) or ringpair:NAME:a|b (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"0x00:03:00.0\"}]}",
	 "config: ports[0].device: device \"0x00:03:00.0\": not a PCI address ([DDDD:]BB:DD.F), a "
	 "virtual device of a DPDK driver (net_af_packet0, net_memif0, net_null0, net_pcap0, "
	 "net_ring0, net_tap0, ...) or ringpair:NAME:a|b (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \" 03:00.0\"}]}",
	 "config: ports[0].device: device \" 03:00.0\": not a PCI address ([DDDD:]BB:DD.F), a "
	 "virtual device of a DPDK driver (net_af_packet0, net_memif0, net_null0, net_pcap0, "
	 "net_ring0, net_tap0, ...) or ringpair:NAME:a|b (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"+3:00.0\"}]}",
	 "config: ports[0].device: device \"+3:00.0\": not a PCI address ([DDDD:]BB:DD.F), a "
	 "virtual device of a DPDK driver (net_af_packet0, net_memif0, net_null0, net_pcap0, "
	 "net_ring0, net_tap0, ...) or ringpair:NAME:a|b (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"0000:3:00.0\"}]}",
	 "config: ports[0].device: device \"0000:3:00.0\": not a PCI address ([DDDD:]BB:DD.F), a "
	 "virtual device of a DPDK driver (net_af_packet0, net_memif0, net_null0, net_pcap0, "
	 "net_ring0, net_tap0, ...) or ringpair:NAME:a|b (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"0000:03:00.8\"}]}",
	 "config: ports[0].device: device \"0000:03:00.8\": not a PCI address: its function is "
	 "above "
	 "7 (3 bits) ([DDDD:]BB:DD.F in hex) (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"03:20.0\"}]}",
	 "config: ports[0].device: device \"03:20.0\": not a PCI address: its device is above 1f "
	 "(5 "
	 "bits) ([DDDD:]BB:DD.F in hex) (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"net_null0\", \"mac\": "
	 "\"02:00:00:00:00\"}]}",
	 "config: ports[0].mac: \"02:00:00:00:00\" is not a MAC address (xx:xx:xx:xx:xx:xx) "
	 "(line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"net_null0\", \"ipv4\": "
	 "\"198.18.0.256\"}]}",
	 "config: ports[0].ipv4: \"198.18.0.256\" is not an IPv4 address (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"net_null0\", \"rx_descriptors\": 10}]}",
	 "config: ports[0].rx_descriptors: 10 is outside 64-32768 (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"net_null0\"}]}",
	 "config: direction: direction \"upload\" needs ports named \"lan\" and \"wan\""},
	{"{" PORTS ", \"direction\": \"sideways\"}",
	 "config: direction: \"sideways\" is not a direction (upload, download, bidir) (line 1)"},
	{"{" PORTS ",\n\"flows\": {\"src_port\": \"70000-80000\"}}",
	 "config: flows.src_port: range \"70000-80000\" is outside 0-65535 (line 2)"},
	{"{" PORTS ",\n\"flows\": {\"dst_port\": \"9-1\"}}",
	 "config: flows.dst_port: range \"9-1\" ends before it starts (line 2)"},
	{"{" PORTS ",\n\"flows\": {\"src_ip\": \"198.18.0.1-198.18.0\"}}",
	 "config: flows.src_ip: \"198.18.0.1-198.18.0\" is not an IPv4 range (first-last) "
	 "(line 2)"},
	{"{" PORTS ",\n\"flows\": {\"dst_ip\": \"10.0.0.0/4\"}}",
	 "config: flows.dst_ip: prefix \"10.0.0.0/4\" is wider than /8 (line 2)"},
	{"{" PORTS ",\n\"flows\": {\"count\": 0}}",
	 "config: flows.count: 0 is outside 1-16777216 (line 2)"},
	{"{" PORTS ",\n\"flows\": {\"count\": 100, \"src_ip\": \"198.18.0.1\", \"dst_ip\": "
	 "\"198.19.0.1\", \"src_port\": \"1-10\", \"dst_port\": 5}}",
	 "config: flows.count: 100 flows do not fit the address and port ranges, which hold 10 "
	 "(line 2)"},
	{"{" PORTS ",\n\"flows\": {\"count\": 1.5}}",
	 "config: flows.count: expected an integer, got a number (line 2)"},
	{"{" PORTS ",\n\"frame_size\": 60}",
	 "config: frame_size: 60 is below the 64-byte minimum for Ethernet/IPv4/UDP with the "
	 "18-byte signature (line 2)"},
	{"{" PORTS ",\n\"frame_size\": [64, 9999]}",
	 "config: frame_size[1]: 9999 is above the 9216-byte maximum (line 2)"},
	{"{" PORTS ",\n\"frame_size\": \"jumbo\"}", "config: frame_size: \"jumbo\" is not a frame "
						    "size (a number, \"imix\" or a mix) (line 2)"},
	{"{" PORTS ",\n\"frame_size\": {\"mix\": [[64, 0]]}}",
	 "config: frame_size.mix[0][1]: 0 is outside 1-255 (line 2)"},
	{"{" PORTS ",\n\"frame_size\": {\"mix\": [[63, 1]]}}",
	 "config: frame_size.mix[0][0]: 63 is below the 64-byte minimum for Ethernet/IPv4/UDP with "
	 "the 18-byte signature (line 2)"},
	{"{" PORTS ",\n\"rate\": 50}", "config: rate: 50 has no unit: write \"line\", \"50%\", "
				       "\"1Mpps\" or \"900Mbit\" (line 2)"},
	{"{" PORTS ",\n\"rate\": \"150%\"}",
	 "config: rate: \"150%\" is not a rate (\"line\", \"max\", \"1-100%\", \"1.5Mpps\", "
	 "\"800kpps\", \"9.5Gbit\", \"100Mbit\") (line 2)"},
	{"{" PORTS ",\n\"rate_layer\": \"l3\"}",
	 "config: rate_layer: \"l3\" is not a layer (l1 counts preamble and IFG, l2 does not) "
	 "(line 2)"},
	{"{" PORTS ",\n\"duration\": 0}", "config: duration: 0 s is outside 0.01-86400 s (line 2)"},
	{"{" PORTS ",\n\"drain\": \"2s\"}",
	 "config: drain: expected a number of seconds, got a string (line 2)"},
	{"{" PORTS ",\n\"burst\": 1000}", "config: burst: 1000 is outside 1-512 (line 2)"},
	{"{" PORTS ",\n\"lcores\": {\"tx\": [1]}}",
	 "config: lcores: give both \"tx\" and \"rx\" lcore lists, or neither (line 2)"},
	{"{" PORTS ",\n\"lcores\": {\"tx\": [1, 1], \"rx\": [2]}}",
	 "config: lcores.tx[1]: lcore 1 is listed twice (line 2)"},
	{"{" PORTS ",\n\"direction\": \"upload\", \"streams\": []}",
	 "config: direction: give \"direction\" or \"streams\", not both (line 2)"},
	{"{" PORTS ",\n\"streams\": [{\"name\": \"s\", \"tx_port\": \"lan\", \"rx_port\": "
	 "\"dmz\"}]}",
	 "config: streams[0].rx_port: no port is named \"dmz\" (line 2)"},
	{"{" PORTS ",\n\"streams\": [{\"name\": \"s\", \"tx_port\": \"lan\", \"rx_port\": "
	 "\"wan\"},\n{\"name\": \"s\", \"tx_port\": \"wan\", \"rx_port\": \"lan\"}]}",
	 "config: streams[1].name: stream name \"s\" is used twice (line 3)"},
	/* A stream split over several transmit ports. */
	{"{" PORTS3 ",\n\"streams\": [{\"name\": \"s\", \"tx_port\": [\"lan\", \"lan\"], "
	 "\"rx_port\": \"wan\"}]}",
	 "config: streams[0].tx_port[1]: port \"lan\" is named twice (line 2)"},
	{"{" PORTS3 ",\n\"streams\": [{\"name\": \"s\", \"tx_port\": [], \"rx_port\": \"wan\"}]}",
	 "config: streams[0].tx_port: expected a port name or a list of 1 to 7 port names (line "
	 "2)"},
	{"{" PORTS3 ",\n\"streams\": [{\"name\": \"s\", \"tx_port\": [\"lan\", 2], "
	 "\"rx_port\": \"wan\"}]}",
	 "config: streams[0].tx_port[1]: expected a port name, got an integer (line 2)"},
	{"{" PORTS3 ",\n\"streams\": [{\"name\": \"s\", \"tx_port\": [\"lan\", \"dmz\"], "
	 "\"rx_port\": \"wan\", \"l4\": \"tcp\"}]}",
	 "config: streams[0].tx_port: stream s is split over 2 ports: a tcp stream is sent from "
	 "one "
	 "port (\"l4\": \"udp\" streams may be split) (line 2)"},
	{"{" PORTS3 ",\n\"streams\": [{\"name\": \"s\", \"tx_port\": [\"lan\", \"dmz\"], "
	 "\"rx_port\": \"wan\", \"flows\": {\"count\": 1}}]}",
	 "config: streams[0].tx_port: stream s is split over 2 ports: a udp stream has fewer flows "
	 "than ports: each port sends a share of them (line 2)"},
	{"{" PORTS3 ",\n\"streams\": [{\"name\": \"s\", \"tx_port\": [\"lan\", \"dmz\"], "
	 "\"rx_port\": \"wan\"}, " S15 "]}",
	 "config: streams: 17 (stream, transmit port) pairs: at most 16 (a split stream counts "
	 "each "
	 "of its ports) (line 2)"},
	{"{" PORTS ",\n\"eal\": [\"-l\", 1]}", "config: eal[1]: expected a string, got an integer "
					       "(line 2)"},
	{"{" PORTS ",\n\"output\": {\"json\": 1}}",
	 "config: output.json: expected a string, got an integer (line 2)"},
	{"{" PORTS ",\n\"flows\": {\"src_ip\": \"2001:2::1-2001:3::1\", \"ip\": 6}}",
	 "config: flows.src_ip: range \"2001:2::1-2001:3::1\" differs above the low 32 bits (line "
	 "2)"},
	{"{" PORTS ",\n\"flows\": {\"src_ip\": \"2001:2::1\"}}",
	 "config: flows.src_ip: source and destination must both be IPv4 or both IPv6 (\"ip\": 4) "
	 "(line 2)"},
	{"{" PORTS ",\n\"flows\": {\"ip\": 5}}",
	 "config: flows.ip: expected 4 or 6 (the address family of the defaults) (line 2)"},
	{"{" PORTS ",\n\"flows\": {\"ip\": 6, \"dst_ip\": \"2001:2::/64\"}}",
	 "config: flows.dst_ip: prefix \"2001:2::/64\" is wider than /104 (line 2)"},
	{"{" PORTS ",\n\"flows6\": {\"ip\": 6}, \"frame_size\": [128, 64]}",
	 "config: frame_size[1]: 64 is below the 84-byte minimum of stream \"upload6\" "
	 "(Ethernet/IPv6/UDP with the 18-byte signature) (line 2)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"net_null0\", \"vlan\": 10}, {\"name\": "
	 "\"wan\", \"device\": \"net_null1\"}],\n\"frame_size\": 64}",
	 "config: frame_size: 64 is below the 68-byte minimum of stream \"upload\" "
	 "(Ethernet/802.1Q/IPv4/UDP with the 18-byte signature) (line 2)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"net_null0\", \"vlan\": 4095}]}",
	 "config: ports[0].vlan: 4095 is outside 1-4094 (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"net_null0\", \"gateway\": \"1.2.3\"}]}",
	 "config: ports[0].gateway: \"1.2.3\" is not an IPv4 address (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"net_null0\", \"ipv6\": "
	 "[\"2001:2::1/129\"]}]}",
	 "config: ports[0].ipv6[0]: \"2001:2::1/129\": bad prefix length (line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"net_null0\", \"gateway\": "
	 "\"198.18.0.1\"}]}",
	 "config: ports[0]: port \"lan\": a gateway needs an ipv4 address of the port to ask from "
	 "(line 1)"},
	{"{\"ports\": [{\"name\": \"lan\", \"device\": \"net_null0\", \"gateway\": \"198.18.0.1\", "
	 "\"ipv4\": \"198.18.0.2/24\", \"next_hop_mac\": \"02:00:00:00:00:01\"}]}",
	 "config: ports[0]: port \"lan\": give a gateway to resolve or a static next_hop_mac, not "
	 "both (line 1)"},
	{"{" PORTS ",\n\"path_check\": 1}", "config: path_check: expected true or false, got an "
					    "integer (line 2)"},
	/* a scenario's name up to case or white space is that scenario's, not a label */
	{"{" PORTS ",\n\"scenario\": \"IDS\"}",
	 "config: scenario: \"IDS\" is not a scenario; \"ids\" is (write it so for its preset, or "
	 "choose a label that is not a scenario's name) (line 2)"},
	{"{" PORTS ",\n\"scenario\": \" ip s\"}",
	 "config: scenario: \" ip s\" is not a scenario; \"ips\" is (write it so for its preset, "
	 "or choose a label that is not a scenario's name) (line 2)"},
	{"{" PORTS ",\n\"scenario\": \"WireGuard\"}",
	 "config: scenario: \"WireGuard\" is not a scenario; \"wireguard\" is (write it so for its "
	 "preset, or choose a label that is not a scenario's name) (line 2)"},
	/* hosts (two load clients) */
	{"{\"hosts\": [{\"name\": \"s1\"}, {\"name\": \"s2\"}], \"ports\": [{\"name\": \"lan\", "
	 "\"device\": \"net_null0\", \"host\": \"s1\"}, {\"name\": \"wan\", \"device\": "
	 "\"net_null0\", \"host\": "
	 "\"s1\"}]}",
	 "config: ports[1].device: device \"net_null0\" is used by ports[0] too (line 1)"},
	{"{\"hosts\": [{\"name\": \"s1\", \"command\": [\"x\"]}], \"ports\": [{\"name\": \"lan\", "
	 "\"device\": \"net_null0\", \"host\": \"s2\"}]}",
	 "config: ports[0].host: no \"hosts\" entry is named \"s2\" (line 1)"},
	{"{\"hosts\": [{\"command\": [\"x\"]}], \"ports\": [{\"name\": \"lan\", \"device\": "
	 "\"net_null0\", "
	 "\"host\": \"s1\", \"ipv4\": \"198.18.0.2/16\", \"gateway\": \"198.18.0.1\"}, {\"name\": "
	 "\"wan\", \"device\": \"net_null1\", \"ipv4\": \"198.19.0.2/16\", \"gateway\": "
	 "\"198.19.0.1\"}]}",
	 "config: hosts[0]: a host needs a \"name\" (line 1)"},
	{"{\"hosts\": [{\"name\": \"s 1\"}], \"ports\": [{\"name\": \"lan\", \"device\": "
	 "\"net_null0\", "
	 "\"host\": \"s1\", \"ipv4\": \"198.18.0.2/16\", \"gateway\": \"198.18.0.1\"}, {\"name\": "
	 "\"wan\", \"device\": \"net_null1\", \"ipv4\": \"198.19.0.2/16\", \"gateway\": "
	 "\"198.19.0.1\"}]}",
	 "config: hosts[0].name: \"s 1\": a host name is letters, digits, \".\", \"_\", \"-\" "
	 "(line 1)"},
	{"{\"hosts\": [{\"name\": \"s1\"}, {\"name\": \"s1\"}], \"ports\": [{\"name\": \"lan\", "
	 "\"device\": \"net_null0\", \"host\": \"s1\", \"ipv4\": \"198.18.0.2/16\", \"gateway\": "
	 "\"198.18.0.1\"}, {\"name\": \"wan\", \"device\": \"net_null1\", \"ipv4\": "
	 "\"198.19.0.2/16\", "
	 "\"gateway\": \"198.19.0.1\"}]}",
	 "config: hosts[1]: host name \"s1\" is used twice (line 1)"},
	{"{\"hosts\": [{\"name\": \"s1\", \"ssh\": \"-oProxyCommand=x\"}], \"ports\": [{\"name\": "
	 "\"lan\", \"device\": \"net_null0\", \"host\": \"s1\", \"ipv4\": \"198.18.0.2/16\", "
	 "\"gateway\": "
	 "\"198.18.0.1\"}, {\"name\": \"wan\", \"device\": \"net_null1\", \"ipv4\": "
	 "\"198.19.0.2/16\", "
	 "\"gateway\": \"198.19.0.1\"}]}",
	 "config: hosts[0].ssh: \"-oProxyCommand=x\" starts with \"-\": not a destination or path "
	 "(line 1)"},
	{"{\"hosts\": [{\"name\": \"s1\", \"command\": []}], \"ports\": [{\"name\": \"lan\", "
	 "\"device\": \"net_null0\", \"host\": \"s1\", \"ipv4\": \"198.18.0.2/16\", \"gateway\": "
	 "\"198.18.0.1\"}, {\"name\": \"wan\", \"device\": \"net_null1\", \"ipv4\": "
	 "\"198.19.0.2/16\", "
	 "\"gateway\": \"198.19.0.1\"}]}",
	 "config: hosts[0].command: expected a list of 1 to 24 strings (line 1)"},
	{"{\"hosts\": [{\"name\": \"s1\", \"command\": [\"ssh\"], \"ssh\": \"h\"}], \"ports\": "
	 "[{\"name\": \"lan\", \"device\": \"net_null0\", \"host\": \"s1\", \"ipv4\": "
	 "\"198.18.0.2/16\", "
	 "\"gateway\": \"198.18.0.1\"}, {\"name\": \"wan\", \"device\": \"net_null1\", \"ipv4\": "
	 "\"198.19.0.2/16\", \"gateway\": \"198.19.0.1\"}]}",
	 "config: hosts[0]: host \"s1\": give a \"command\" or "
	 "\"ssh\"/\"ssh_options\"/\"fwstress\", not both (line 1)"},
	{"{\"hosts\": [{\"name\": \"s1\"}, {\"name\": \"s2\"}], \"ports\": [{\"name\": \"lan\", "
	 "\"device\": \"net_null0\", \"host\": \"s1\", \"ipv4\": \"198.18.0.2/16\", \"gateway\": "
	 "\"198.18.0.1\"}, {\"name\": \"wan\", \"device\": \"net_null1\", \"ipv4\": "
	 "\"198.19.0.2/16\", "
	 "\"gateway\": \"198.19.0.1\"}]}",
	 "config: hosts[1]: host \"s2\" owns no port (no port names it in \"host\") (line 1)"},
	{"{\"hosts\": [{\"name\": \"s1\", \"ssh_options\": [\"-p\", \"\"]}], \"ports\": "
	 "[{\"name\": \"lan\", \"device\": \"net_null0\", \"host\": \"s1\", \"ipv4\": "
	 "\"198.18.0.2/16\", "
	 "\"gateway\": \"198.18.0.1\"}, {\"name\": \"wan\", \"device\": \"net_null1\", \"ipv4\": "
	 "\"198.19.0.2/16\", \"gateway\": \"198.19.0.1\"}]}",
	 "config: hosts[0].ssh_options[1]: expected a non-empty string (line 1)"},
	{"{\"hosts\": [{\"name\": \"s1\", \"inventory\": \"inv.ini\", \"ssh\": \"h\"}], "
	 "\"ports\": [{\"name\": \"lan\", \"device\": \"net_null0\", \"host\": \"s1\"}]}",
	 "config: hosts[0]: host \"s1\": give an \"inventory\" or \"ssh\"/\"ssh_options\"/"
	 "\"command\", not both (line 1)"},
	{"{\"hosts\": [{\"name\": \"s1\", \"inventory\": 3}], \"ports\": [{\"name\": \"lan\", "
	 "\"device\": \"net_null0\", \"host\": \"s1\"}]}",
	 "config: hosts[0].inventory: expected a string, got an integer (line 1)"},
	{"{\"hosts\": [{\"name\": \"s1\"}], \"ports\": [{\"name\": \"lan\", \"device\": "
	 "\"net_null0\", "
	 "\"host\": \"s1\", \"ipv4\": \"198.18.0.2/16\"}, {\"name\": \"wan\", \"device\": "
	 "\"net_null1\"}]}",
	 "config: streams[0]: stream upload: its ports are on two hosts: port \"lan\" needs a "
	 "gateway or a next_hop_mac (the other host's MAC is not known here)"},
	{"{\"hosts\": [{\"name\": \"s1\"}], \"l4\": \"tcp\", \"ports\": [{\"name\": \"lan\", "
	 "\"device\": \"net_null0\", \"host\": \"s1\", \"ipv4\": \"198.18.0.2/16\", \"gateway\": "
	 "\"198.18.0.1\"}, {\"name\": \"wan\", \"device\": \"net_null1\", \"ipv4\": "
	 "\"198.19.0.2/16\", "
	 "\"gateway\": \"198.19.0.1\"}]}",
	 "config: streams[0]: stream upload: \"l4\": \"tcp\" between this process's port and an "
	 "agent's is not supported: give both ports a host (the idle agent answers the other "
	 "end's segments, this process does not)"},
	{"{" PORTS ", \"clocks\": \"ntp\"}",
	 "config: clocks: \"ntp\" is not a way to align clocks (probe, ptp or none) (line 1)"},
	{"{" PORTS ", \"clocks\": {\"mode\": \"ptp\", \"socket\": \"var/run/ptp4l\"}}",
	 "config: clocks.socket: \"var/run/ptp4l\": ptp4l's socket is an absolute path (its "
	 "uds_address) (line 1)"},
	{"{" PORTS ", \"clocks\": {\"mode\": \"ptp\", \"domain\": 256}}",
	 "config: clocks.domain: a PTP domain is a number from 0 to 255 (ptp4l's domainNumber) "
	 "(line 1)"},
	{"{" PORTS ", \"clocks\": {\"socket\": \"/x\"}}",
	 "config: clocks: \"clocks\" needs a \"mode\" (line 1)"},
	{"{" PORTS ", \"clocks\": {\"mode\": \"ptp\", \"sock\": \"/x\"}}",
	 "config: clocks.sock: unknown key; did you mean \"socket\"? (keys: mode, socket, domain) "
	 "(line 1)"},
	{"{" PORTS ", \"duration\": 1, \"duration\": 2}",
	 "config: line 1: duplicate object key near '\"duration\"'"},
	/* A sweep cell measures its direction's streams only (issue 34). */
	{"{" PORTS ", \"sweep\": {\"directions\": [\"upload\", \"download\"]}}",
	 "config: sweep.directions[1]: \"download\": the streams go upload only: give "
	 "\"direction\": \"bidir\" (or streams each way), or leave \"download\" out (line 1)"},
	{"{" PORTS ", \"streams\": [{\"name\": \"s\", \"tx_port\": \"lan\", \"rx_port\": "
	 "\"wan\"}], \"sweep\": {\"directions\": [\"upload\"]}}",
	 "config: sweep.directions: the streams have no direction (explicit streams): give them "
	 "\"direction\": \"upload\" or \"download\", or leave sweep.directions out (they are "
	 "then swept as they are) (line 1)"},
};

START_TEST(test_config_rejects)
{
	char err[512];
	struct fws_cfg *cfg;

	errno = 0;
	cfg = fws_config_parse(bad[_i].json, strlen(bad[_i].json), err, sizeof(err));
	ck_assert_msg(cfg == NULL, "case %d was accepted", _i);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_str_eq(err, bad[_i].error);
}
END_TEST

/* "payload" for every stream, a stream's own over it; DF only where IPv4. */
START_TEST(test_config_fill)
{
	static const char json[] =
		"{" PORTS
		", \"frame_size\": 128, \"payload\": {\"fill\": \"random\", \"df\": true}, "
		"\"streams\": ["
		"{\"name\": \"a\", \"tx_port\": \"lan\", \"rx_port\": \"wan\"},"
		"{\"name\": \"b\", \"tx_port\": \"lan\", \"rx_port\": \"wan\", \"fill\": "
		"\"0xDEadbeef\", \"df\": false},"
		"{\"name\": \"c\", \"tx_port\": \"lan\", \"rx_port\": \"wan\", \"flows\": {\"ip\": "
		"6}, "
		"\"fill\": \"zero\"}]}";
	char err[256];
	struct fws_cfg *cfg = fws_config_parse(json, sizeof(json) - 1, err, sizeof(err));
	json_t *j;
	char *out;

	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_int_eq(cfg->streams[0].fill.kind, FWS_FILL_RANDOM);
	ck_assert(cfg->streams[0].fill.df);
	ck_assert_int_eq(cfg->streams[1].fill.kind, FWS_FILL_PATTERN);
	ck_assert_uint_eq(cfg->streams[1].fill.len, 4);
	ck_assert_uint_eq(cfg->streams[1].fill.pattern[0], 0xde);
	ck_assert(!cfg->streams[1].fill.df);
	ck_assert_int_eq(cfg->streams[2].fill.kind, FWS_FILL_ZERO);
	ck_assert(!cfg->streams[2].fill.df); /* IPv6: the config's DF does not apply */
	j = fws_config_to_json(cfg);
	out = json_dumps(j, JSON_COMPACT);
	ck_assert_ptr_nonnull(strstr(out, "\"fill\":\"0xdeadbeef\",\"df\":false"));
	ck_assert_ptr_nonnull(strstr(out, "\"payload\":{\"fill\":\"random\",\"df\":true}"));
	free(out);
	json_decref(j);
	fws_config_free(cfg);
}
END_TEST

/* A tunnel scenario: its tunnel, a random fill and sizes around its MTU, unless given. */
START_TEST(test_config_tunnel_preset)
{
	static const char wg[] = "{" PORTS ", \"scenario\": \"wireguard\"}";
	static const char own[] = "{" PORTS ", \"scenario\": \"ipsec\", \"frame_size\": 128, "
				  "\"payload\": {\"fill\": \"zero\"}, \"tunnel\": {\"kind\": "
				  "\"ipsec\", \"mtu\": 1300, \"overhead\": 70}}";
	static const char gre[] = "{" PORTS ", \"tunnel\": {\"kind\": \"gre\"}}";
	static const uint16_t sizes[] = {64, 512, 1024, 1374, 1438, 1446, 1518};
	char err[256];
	struct fws_cfg *cfg = fws_config_parse(wg, sizeof(wg) - 1, err, sizeof(err));
	unsigned int i;

	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_int_eq(cfg->tunnel.kind, FWS_TUNNEL_WIREGUARD);
	ck_assert_uint_eq(cfg->tunnel.mtu, 1420);
	ck_assert_int_eq(cfg->streams[0].fill.kind, FWS_FILL_RANDOM);
	ck_assert_uint_eq(cfg->n_sizes, 7);
	for (i = 0; i < 7; i++)
		ck_assert_uint_eq(cfg->sizes[i].size[0], sizes[i]);
	fws_config_free(cfg);
	cfg = fws_config_parse(own, sizeof(own) - 1, err, sizeof(err));
	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_uint_eq(cfg->tunnel.mtu, 1300);
	ck_assert_uint_eq(cfg->tunnel.base, 70);
	ck_assert_int_eq(cfg->streams[0].fill.kind, FWS_FILL_ZERO);
	ck_assert_uint_eq(cfg->n_sizes, 1);
	fws_config_free(cfg);
	ck_assert_ptr_null(fws_config_parse(gre, sizeof(gre) - 1, err, sizeof(err)));
	ck_assert_str_eq(
		err, "config: tunnel.kind: give \"wireguard\", \"ipsec\" or \"openvpn\" (line 1)");
}
END_TEST

START_TEST(test_config_defaults)
{
	const char *js = "{" PORTS "}";
	char err[512];
	struct fws_cfg *cfg = fws_config_parse(js, strlen(js), err, sizeof(err));

	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_uint_eq(cfg->n_streams, 1);
	ck_assert_str_eq(cfg->streams[0].name, "upload");
	ck_assert_uint_eq(cfg->streams[0].tx_port, 0);
	ck_assert_uint_eq(cfg->streams[0].rx_port, 1);
	ck_assert_uint_eq(cfg->streams[0].flows.count, 1024);
	ck_assert_uint_eq(cfg->streams[0].flows.src_ip_lo, 0xc6120100);
	ck_assert_int_eq(cfg->streams[0].rate.kind, FWS_RATE_LINE);
	ck_assert_double_eq(cfg->duration, 10);
	ck_assert_double_eq(cfg->warmup, 1);
	ck_assert_double_eq(cfg->drain, 2);
	ck_assert_uint_eq(cfg->burst, 32);
	ck_assert_uint_eq(cfg->n_sizes, 1);
	ck_assert_uint_eq(cfg->sizes[0].size[0], 64);
	ck_assert_str_eq(cfg->json_out, "fwstress-report.json");
	ck_assert_uint_eq(cfg->ports[0].rx_desc, 1024);
	fws_config_free(cfg);
}
END_TEST

/* Where a campaign's setup runs on a load client: its "shell", or ssh's own command up to
 * the destination; none for a host with a "command" and no "shell". */
START_TEST(test_config_host_shell)
{
	const char *js =
		"{\"hosts\": [{\"name\": \"s1\", \"ssh\": \"root@a\", \"ssh_options\": [\"-p\", "
		"\"2222\"], \"fwstress\": \"/opt/fwstress\"}, {\"name\": \"s2\", \"command\": "
		"[\"x\", "
		"\"agent\"], \"shell\": [\"ip\", \"netns\", \"exec\", \"n\", \"sh\", \"-c\"]}, "
		"{\"name\": \"s3\", \"command\": [\"y\"]}], \"ports\": [{\"name\": \"lan\", "
		"\"device\": \"net_null0\", \"host\": \"s1\", \"gateway\": \"198.18.0.1\", "
		"\"ipv4\": "
		"\"198.18.0.2/24\"}, {\"name\": \"wan\", \"device\": \"net_null1\", \"host\": "
		"\"s2\", "
		"\"gateway\": \"198.19.0.1\", \"ipv4\": \"198.19.0.2/24\"}, {\"name\": \"x\", "
		"\"device\": "
		"\"net_null2\", \"host\": \"s3\"}]}";
	static const char *const ssh[] = {"ssh", "-T",   "-o", "BatchMode=yes",
					  "-p",  "2222", "--", "root@a"};
	const char *argv[FWS_CFG_MAX_ARGV];
	char err[512], *txt;
	json_t *j;
	struct fws_cfg *cfg = fws_config_parse(js, strlen(js), err, sizeof(err)), *again;
	unsigned int i, n;

	ck_assert_msg(cfg != NULL, "%s", err);
	n = fws_config_host_shell(&cfg->hosts[0], argv, FWS_CFG_MAX_ARGV);
	ck_assert_uint_eq(n, sizeof(ssh) / sizeof(ssh[0]));
	for (i = 0; i < n; i++)
		ck_assert_str_eq(argv[i], ssh[i]);
	ck_assert_uint_eq(fws_config_host_shell(&cfg->hosts[1], argv, FWS_CFG_MAX_ARGV), 6);
	ck_assert_str_eq(argv[5], "-c");
	ck_assert_uint_eq(fws_config_host_shell(&cfg->hosts[2], argv, FWS_CFG_MAX_ARGV), 0);
	/* The normalised config keeps the shell. */
	j = fws_config_to_json(cfg);
	txt = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	again = fws_config_parse(txt, strlen(txt), err, sizeof(err));
	ck_assert_msg(again != NULL, "%s", err);
	ck_assert_uint_eq(again->hosts[1].n_shell, 6);
	free(txt);
	fws_config_free(again);
	fws_config_free(cfg);
}
END_TEST

/* "clocks": the mode, the socket every host's ptp4l has unless the host names its own. */
START_TEST(test_config_clocks)
{
	const char *js =
		"{\"clocks\": {\"mode\": \"ptp\", \"socket\": \"/run/ptp\", \"domain\": 24}, "
		"\"hosts\": "
		"[{\"name\": \"s1\", \"ptp_socket\": \"/tmp/s1.sock\"}, {\"name\": \"s2\"}], "
		"\"ports\": [{\"name\": \"lan\", \"device\": \"net_null0\", \"host\": \"s1\", "
		"\"gateway\": \"198.18.0.1\", \"ipv4\": \"198.18.0.2/24\"}, {\"name\": \"wan\", "
		"\"device\": \"net_null1\", \"host\": \"s2\", \"gateway\": \"198.19.0.1\", "
		"\"ipv4\": \"198.19.0.2/24\"}]}";
	char err[512], *txt;
	struct fws_cfg *cfg = fws_config_parse(js, strlen(js), err, sizeof(err)), *again, *dflt;
	json_t *j;

	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_int_eq(cfg->clock_sync, FWS_CLOCK_SYNC_PTP);
	ck_assert_uint_eq(cfg->ptp_domain, 24);
	ck_assert_str_eq(fws_config_ptp_socket(cfg, 1), "/tmp/s1.sock");
	ck_assert_str_eq(fws_config_ptp_socket(cfg, 2), "/run/ptp");
	ck_assert_str_eq(fws_config_ptp_socket(cfg, 0), "/run/ptp");
	j = fws_config_to_json(cfg);
	txt = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	again = fws_config_parse(txt, strlen(txt), err, sizeof(err));
	ck_assert_msg(again != NULL, "%s", err);
	ck_assert_int_eq(again->clock_sync, FWS_CLOCK_SYNC_PTP);
	ck_assert_uint_eq(again->ptp_domain, 24);
	ck_assert_str_eq(fws_config_ptp_socket(again, 1), "/tmp/s1.sock");
	ck_assert_str_eq(fws_config_ptp_socket(again, 2), "/run/ptp");
	free(txt);
	dflt = fws_config_parse(fws_config_default, strlen(fws_config_default), err, sizeof(err));
	ck_assert_msg(dflt != NULL, "%s", err);
	ck_assert_int_eq(dflt->clock_sync, FWS_CLOCK_SYNC_PROBE);
	ck_assert_str_eq(fws_config_ptp_socket(dflt, 0), "/var/run/ptp4l");
	fws_config_free(dflt);
	fws_config_free(again);
	fws_config_free(cfg);
}
END_TEST

/* "tx_port": a list: the stream's flows in contiguous shares, one per port in list order;
 * the normalised config keeps the list. */
START_TEST(test_config_split_stream)
{
	const char *js = "{" PORTS3 ", \"streams\": [{\"name\": \"up\", \"tx_port\": [\"dmz\", "
			 "\"lan\"], \"rx_port\": \"wan\", \"flows\": {\"count\": 5}}, {\"name\": "
			 "\"down\", \"tx_port\": \"wan\", \"rx_port\": \"lan\"}]}";
	char err[512], name[FWS_CFG_SENDERS_NAME_LEN], *txt;
	struct fws_cfg *cfg = fws_config_parse(js, strlen(js), err, sizeof(err)), *again;
	uint32_t lo, hi;
	json_t *j;

	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_uint_eq(cfg->streams[0].n_tx, 2);
	ck_assert_uint_eq(cfg->streams[0].tx_port, 2);
	ck_assert_int_eq(fws_cfg_sender(&cfg->streams[0], 0), 1);
	ck_assert_int_eq(fws_cfg_sender(&cfg->streams[0], 1), -1);
	fws_cfg_sender_flows(&cfg->streams[0], 0, &lo, &hi);
	ck_assert(lo == 0 && hi == 2);
	fws_cfg_sender_flows(&cfg->streams[0], 1, &lo, &hi);
	ck_assert(lo == 2 && hi == 5);
	ck_assert_str_eq(fws_cfg_senders_name(cfg, &cfg->streams[0], name, sizeof(name)),
			 "dmz+lan");
	ck_assert_uint_eq(cfg->streams[1].n_tx, 1);
	ck_assert_uint_eq(cfg->streams[1].tx_ports[0], 1);
	ck_assert_str_eq(fws_cfg_senders_name(cfg, &cfg->streams[1], name, sizeof(name)), "wan");
	j = fws_config_to_json(cfg);
	txt = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	ck_assert_ptr_nonnull(strstr(txt, "\"tx_port\":[\"dmz\",\"lan\"]"));
	ck_assert_ptr_nonnull(strstr(txt, "\"tx_port\":\"wan\""));
	again = fws_config_parse(txt, strlen(txt), err, sizeof(err));
	ck_assert_msg(again != NULL, "%s", err);
	ck_assert_uint_eq(again->streams[0].n_tx, 2);
	ck_assert_uint_eq(again->streams[0].tx_ports[1], 0);
	free(txt);
	fws_config_free(again);
	fws_config_free(cfg);
}
END_TEST

START_TEST(test_config_bidir_and_mix)
{
	const char *js = "{" PORTS ", \"direction\": \"bidir\", \"rate\": \"25%\", "
			 "\"rate_layer\": \"l2\", \"frame_size\": [64, \"imix\", {\"name\": \"m\", "
			 "\"mix\": [[64, 3], [1518, 1]]}], \"flows\": {\"src_ip\": "
			 "\"198.18.0.0/24\", \"src_port\": \"1000-1001\"}}";
	char err[512];
	struct fws_cfg *cfg = fws_config_parse(js, strlen(js), err, sizeof(err));

	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_uint_eq(cfg->n_streams, 2);
	ck_assert_str_eq(cfg->streams[1].name, "download");
	ck_assert_uint_eq(cfg->streams[1].tx_port, 1);
	/* Download is the reverse of upload: its sources are upload's destinations. */
	ck_assert_uint_eq(cfg->streams[1].flows.src_ip_lo, cfg->streams[0].flows.dst_ip_lo);
	ck_assert_uint_eq(cfg->streams[1].flows.dst_port_lo, 1000);
	ck_assert_uint_eq(cfg->streams[0].flows.src_ip_hi, 0xc61200ff);
	ck_assert_uint_eq(cfg->streams[0].flows.count, 512); /* capacity 256 x 2 < 1024 */
	ck_assert_int_eq(cfg->streams[0].rate.kind, FWS_RATE_PERCENT);
	ck_assert_int_eq(cfg->streams[0].rate.layer, FWS_RATE_L2);
	ck_assert_uint_eq(cfg->n_sizes, 3);
	ck_assert_str_eq(cfg->sizes[1].name, "imix");
	ck_assert_uint_eq(cfg->sizes[2].weight[0], 3);
	fws_config_free(cfg);
}
END_TEST

/* The default sweep directions keep those the streams have: upload alone, all three for
 * bidir, none (swept as they are) for streams without a direction; each round-trips. */
START_TEST(test_config_sweep_directions)
{
	static const struct {
		const char *json;
		unsigned int n_dirs;
	} cases[] = {
		{"{" PORTS "}", 1},
		{"{" PORTS ", \"direction\": \"bidir\"}", 3},
		{"{" PORTS ", \"direction\": \"download\"}", 1},
		{"{" PORTS ", \"streams\": [{\"name\": \"s\", \"tx_port\": \"lan\", "
		 "\"rx_port\": \"wan\"}]}",
		 0},
	};
	char err[512];
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fws_cfg *a = fws_config_parse(cases[i].json, strlen(cases[i].json), err,
						     sizeof(err)),
			       *b;
		json_t *j;
		char *s;

		ck_assert_msg(a != NULL, "%s", err);
		ck_assert_uint_eq(a->sweep.n_dirs, cases[i].n_dirs);
		j = fws_config_to_json(a);
		s = json_dumps(j, 0);
		json_decref(j);
		b = fws_config_parse(s, strlen(s), err, sizeof(err));
		ck_assert_msg(b != NULL, "case %u: %s", i, err);
		ck_assert_uint_eq(b->sweep.n_dirs, cases[i].n_dirs);
		ck_assert_int_eq(b->sweep.dirs[0], a->sweep.dirs[0]);
		free(s);
		fws_config_free(a);
		fws_config_free(b);
	}
}
END_TEST

/* A PCI address is checked for its form when parsed, and for being on this host's bus apart
 * (a config validates on a laptop; run checks where it runs). */
START_TEST(test_config_local_devices)
{
	static const char *const js[] = {
		"{\"ports\": [{\"name\": \"lan\", \"device\": \"0000:ff:1f.7,rxq=2\"}, "
		"{\"name\": \"wan\", \"device\": \"net_null0\"}]}",
		"{\"ports\": [{\"name\": \"lan\", \"device\": \"ff:1f.7\"}, "
		"{\"name\": \"wan\", \"device\": \"net_null0\"}]}",
	};
	char err[512];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		struct fws_cfg *cfg = fws_config_parse(js[i], strlen(js[i]), err, sizeof(err));

		ck_assert_msg(cfg != NULL, "%s", err);
		ck_assert_int_eq(fws_config_local_devices(cfg, err, sizeof(err)), -ENODEV);
		ck_assert_ptr_nonnull(strstr(err, "ports[0].device: device \""));
		ck_assert_ptr_nonnull(strstr(err, "\": no PCI device 0000:ff:1f.7 on this host "
						  "(/sys/bus/pci/devices/0000:ff:1f.7)"));
		fws_config_free(cfg);
	}
}
END_TEST

/* The command line's EAL arguments after the config's: where EAL takes one of a kind the
 * command line's replaces the config's (EAL refuses two core lists), the rest add up. */
START_TEST(test_config_eal_merge)
{
	static const struct {
		const char *eal, *cli[4], *want;
	} cases[] = {
		{"\"-l\", \"0-1\", \"--no-pci\"", {"-l", "2-3"}, "--no-pci -l 2-3"},
		{"\"-l\", \"0-1\", \"-a\", \"03:00.0\"",
		 {"-a", "03:00.1"},
		 "-l 0-1 -a 03:00.0 -a 03:00.1"},
		{"\"--file-prefix=a\", \"--vdev=net_null0\"",
		 {"--file-prefix", "b", "--vdev=net_null1"},
		 "--vdev=net_null0 --file-prefix b --vdev=net_null1"},
		{"\"-c\", \"0x3\", \"-n\", \"4\"", {"--lcores", "1@2"}, "-n 4 --lcores 1@2"},
		{"\"-l0-1\", \"--in-memory\"",
		 {"-l", "0", "--file-prefix=x"},
		 "--in-memory -l 0 --file-prefix=x"},
	};
	char js[512], err[256], got[256];
	unsigned int i, k, n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fws_cfg *cfg;

		snprintf(js, sizeof(js), "{" PORTS ", \"eal\": [%s]}", cases[i].eal);
		cfg = fws_config_parse(js, strlen(js), err, sizeof(err));
		ck_assert_msg(cfg != NULL, "%s", err);
		for (n = 0; n < 4 && cases[i].cli[n]; n++)
			;
		ck_assert_int_eq(
			fws_config_eal_merge(cfg, (char *const *)cases[i].cli, n, err, sizeof(err)),
			0);
		got[0] = '\0';
		for (k = 0; k < cfg->n_eal; k++)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", k ? " " : "",
				 cfg->eal[k]);
		ck_assert_str_eq(got, cases[i].want);
		fws_config_free(cfg);
	}
}
END_TEST

/* validate's output parses back to the same config. */
START_TEST(test_config_normalised_roundtrip)
{
	char err[512];
	struct fws_cfg *a, *b;
	json_t *ja, *jb;
	char *sa, *sb;

	a = fws_config_parse(fws_config_default, strlen(fws_config_default), err, sizeof(err));
	ck_assert_msg(a != NULL, "%s", err);
	ja = fws_config_to_json(a);
	sa = json_dumps(ja, JSON_SORT_KEYS);
	b = fws_config_parse(sa, strlen(sa), err, sizeof(err));
	ck_assert_msg(b != NULL, "%s", err);
	jb = fws_config_to_json(b);
	sb = json_dumps(jb, JSON_SORT_KEYS);
	ck_assert_str_eq(sa, sb);
	ck_assert_uint_eq(b->n_streams, 2);
	free(sa);
	free(sb);
	json_decref(ja);
	json_decref(jb);
	fws_config_free(a);
	fws_config_free(b);
}
END_TEST

/* Presets: ips means both directions through NAT plus an attack stream that must be blocked;
 * what the config gives itself wins; NAT and expectations are refused where they cannot
 * hold, with the reason. */
START_TEST(test_config_presets)
{
	static const char ips[] = "{\"scenario\": \"ips\", " PORTS "}";
	static const char fw_nat[] =
		"{\"scenario\": \"firewall\", \"nat\": \"masquerade\", " PORTS "}";
	static const char own[] = "{\"scenario\": \"ids\", \"nat\": \"none\", \"direction\": "
				  "\"upload\", " PORTS "}";
	static const char *const refused[][2] = {
		{"{\"nat\": \"masquerade\", \"streams\": [{\"name\": \"x\", \"tx_port\": "
		 "\"lan\", \"rx_port\": \"wan\"}], " PORTS "}",
		 "config: nat: \"masquerade\" needs \"direction\" streams"},
		{"{\"streams\": [{\"name\": \"x\", \"tx_port\": \"lan\", \"rx_port\": \"wan\", "
		 "\"expect\": \"blocklist\"}], " PORTS "}",
		 "config: streams[0].expect: \"blocklist\" needs a top-level \"blocklist\" file"},
		{"{\"nat\": \"sometimes\", " PORTS "}",
		 "config: nat: expected \"none\" or \"masquerade\""},
		{"{\"scenario\": \"ids\", \"ports\": [{\"name\": \"a\", \"device\": "
		 "\"net_null2\"}], "
		 "\"streams\": [{\"name\": \"s\", \"tx_port\": \"a\", \"rx_port\": \"a\"}]}",
		 "config: scenario: \"ids\" adds an attack stream from port lan to port wan"},
	};
	char err[512];
	struct fws_cfg *cfg = fws_config_parse(ips, strlen(ips), err, sizeof(err));
	unsigned int i;

	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_uint_eq(cfg->n_streams, 3);
	ck_assert_int_eq(cfg->nat.mode, FWS_NAT_MASQUERADE);
	ck_assert_str_eq(cfg->streams[2].name, "attack");
	ck_assert_int_eq(cfg->streams[2].expect, FWS_EXPECT_BLOCKED);
	ck_assert_uint_eq(cfg->streams[2].payload_len, 11);
	ck_assert_int_eq(memcmp(cfg->streams[2].payload, "uid=0(root)", 11), 0);
	ck_assert_int_eq(cfg->streams[1].learner, 0); /* download learns from upload */
	fws_config_free(cfg);
	cfg = fws_config_parse(own, strlen(own), err, sizeof(err));
	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_uint_eq(cfg->n_streams, 2);
	ck_assert_int_eq(cfg->nat.mode, FWS_NAT_NONE);
	ck_assert_int_eq(cfg->streams[1].expect, FWS_EXPECT_PASS); /* ids: the attack passes */
	fws_config_free(cfg);
	/* "nat" given, the preset's two directions added after it: still paired. */
	cfg = fws_config_parse(fw_nat, strlen(fw_nat), err, sizeof(err));
	ck_assert_msg(cfg != NULL, "%s", err);
	ck_assert_uint_eq(cfg->n_streams, 2);
	ck_assert_int_eq(cfg->streams[1].dir, FWS_DIR_DOWNLOAD);
	ck_assert_int_eq(cfg->streams[1].learner, 0);
	fws_config_free(cfg);
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		cfg = fws_config_parse(refused[i][0], strlen(refused[i][0]), err, sizeof(err));
		ck_assert_ptr_null(cfg);
		ck_assert_msg(strncmp(err, refused[i][1], strlen(refused[i][1])) == 0, "%s", err);
	}
}
END_TEST

/* More address ranges than a port's control plane holds: refused by validate, not at setup. */
START_TEST(test_config_too_many_ranges)
{
	char js[8192], err[512];
	size_t n;
	unsigned int i;
	struct fws_cfg *cfg;

	n = (size_t)snprintf(
		js, sizeof(js),
		"{\"ports\": [{\"name\": \"a\", \"device\": \"net_ring0\", \"ipv4\": [");
	for (i = 0; i < 8; i++)
		n += (size_t)snprintf(js + n, sizeof(js) - n, "%s\"198.18.0.%u/24\"", i ? ", " : "",
				      i + 1);
	n += (size_t)snprintf(js + n, sizeof(js) - n, "], \"ipv6\": [");
	for (i = 0; i < 8; i++)
		n += (size_t)snprintf(js + n, sizeof(js) - n, "%s\"2001:2::%u/64\"", i ? ", " : "",
				      i + 1);
	n += (size_t)snprintf(js + n, sizeof(js) - n, "]}], \"streams\": [");
	for (i = 0; i < 16; i++)
		n += (size_t)snprintf(
			js + n, sizeof(js) - n,
			"%s{\"name\": \"s%u\", \"tx_port\": \"a\", \"rx_port\": \"a\"}",
			i ? ", " : "", i);
	snprintf(js + n, sizeof(js) - n, "]}");
	cfg = fws_config_parse(js, strlen(js), err, sizeof(err));
	ck_assert_ptr_null(cfg);
	ck_assert_str_eq(err,
			 "config: ports[0]: port \"a\" would answer for 48 address ranges (its "
			 "own addresses, its streams' sources and destinations), at most 40 "
			 "(line 1)");
}
END_TEST

static Suite *
suite_config(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_config_too_many_ranges);
	tcase_add_loop_test(tc, test_config_rejects, 0, (int)(sizeof(bad) / sizeof(bad[0])));
	tcase_add_test(tc, test_config_defaults);
	tcase_add_test(tc, test_config_host_shell);
	tcase_add_test(tc, test_config_clocks);
	tcase_add_test(tc, test_config_split_stream);
	tcase_add_test(tc, test_config_fill);
	tcase_add_test(tc, test_config_tunnel_preset);
	tcase_add_test(tc, test_config_bidir_and_mix);
	tcase_add_test(tc, test_config_sweep_directions);
	tcase_add_test(tc, test_config_local_devices);
	tcase_add_test(tc, test_config_eal_merge);
	tcase_add_test(tc, test_config_normalised_roundtrip);
	tcase_add_test(tc, test_config_presets);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_config)
