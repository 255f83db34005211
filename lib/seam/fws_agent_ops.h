/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The agent protocol as one table (the control stream itself: fws_wire.h). Each operation
 * is one line of FWS_AGENT_OPS: its name, whether the agent's workers must be stopped for
 * it, the request's fields, the answer's fields ("+ NAME": the answer's attachment, the raw
 * bytes of that structure of fws_agent.h) and what it does. The controller's end
 * (fws_agent_remote.c) names its calls by FWS_OP_NAME, the agent's end (fws_agent_srv.c)
 * has one handler op_NAME per line, and docs/reference/agent-protocol.md is printed from
 * this table (fwstress agent --doc). A new operation: one line here, its two handlers.
 */
#ifndef FWS_AGENT_OPS_H
#define FWS_AGENT_OPS_H

#include <stdbool.h>
#include <stdio.h>

/* X(name, stopped, request, answer, what) */
/* clang-format off */
#define FWS_AGENT_OPS(X) \
	X(hello, false, "proto: [major, minor], fwstress: its version, layout: the seam's " \
	  "structures' sizes", "hostname, kernel, proto, fwstress, dpdk, layout", \
	  "the first exchange: a different major version or layout is refused by the " \
	  "controller, naming both builds") \
	X(setup, false, "config: the normalised config, host: its index (1-N), n_ports, " \
	  "n_streams (the controller's counts, checked against the config parsed here)", \
	  "hz, hz_dpdk", \
	  "parses the config, starts EAL and becomes the host's part of it (its ports, " \
	  "workers and duties); once") \
	X(ports, false, "", "+ fws_port_result[FWS_CFG_MAX_PORTS]", \
	  "each port's link, driver and counters (by config index)") \
	X(hugepage_peak, false, "", "bytes", "the most hugepage memory it used") \
	X(tsc, false, "", "tsc", \
	  "its TSC now: the controller times the exchange around it (the probe clock)") \
	X(ptp, false, "socket: ptp4l's management socket (an absolute path), domain: 0-255", \
	  "+ fws_ptp_point", "its clock under PTP: pmc's state and two clock reads") \
	X(prepare, true, "stage: enum fws_prep_stage, mask: the streams (a bit each)", "", \
	  "a stage of the preparation before a trial (gateways, NAT learning, TCP " \
	  "handshakes)") \
	X(arm, true, "b: fws_agent_plan (base64), checked against the config", "", \
	  "the next trial's plan: streams, rates, sizes, phases") \
	X(launch, true, "phase: the first phase (idle to measure)", "", \
	  "starts the workers on the armed plan") \
	X(phase, false, "phase: idle to stop, at: its TSC instant (0: at once)", "late_ns", \
	  "the workers' phase at an instant of its clock; the answer says how late the " \
	  "request came") \
	X(poll, false, "", "+ fws_agent_poll", \
	  "each pass of the controller's loop: its control plane and duties, the workers' " \
	  "state") \
	X(live, false, "warm: the warm-up's totals (else the running phase's)", \
	  "+ fws_agent_live", "live totals of the running phase") \
	X(stop, false, "measured: the measured phase began", "", \
	  "ends the workers (their last poll included)") \
	X(collect, false, "", "+ fws_agent_counts", "the trial's counts") \
	X(rx_flows, false, "s: a stream, lo: its first flow, n: 1 to FWS_AGENT_CHUNK flows", \
	  "+ fws_agent_rxflow[n]", "per-flow receive counts of a range of a stream's flows") \
	X(tx_flows, false, "s, lo, n (as rx_flows)", "+ fws_agent_txflow[n]", \
	  "per-flow transmit counts") \
	X(aim, true, "s, lo, n (as rx_flows), b: fws_nat_tuple[n] (base64)", "", \
	  "where a range of download flows is sent: the translations NAT learned") \
	X(after, false, "keep: answer each stream's TCP results (else discarded)", \
	  "+ fws_agent_counts", \
	  "after a trial or probe: workers still running stopped, what prepare opened " \
	  "closed") \
	X(retire, false, "", "", "the trial's cookies retired: late frames count as stale") \
	X(bye, false, "", "", "the controller is done: the agent exits after its answer") \
	X(conn_trial, true, "nonce: the iteration (any 32-bit value), rate: connections per " \
	  "second, progress: send its marks", \
	  "n_est, n_closed, + fws_conntrial and its two per-second series", \
	  "one iteration of a connection test on its clients; events measure and " \
	  "measured on the way; any line from the controller meanwhile stops it") \
	X(conn_between, true, "", "", \
	  "between iterations: its connections closed and aged out") \
	X(conn_serve, true, "nonce: the iteration of another host's clients", "", \
	  "its servers answer that iteration until the next request")
/* clang-format on */

/* X(name, fields, what): lines without an id, either way. */
/* clang-format off */
#define FWS_AGENT_LINES(X) \
	X(ping, "{\"op\": \"ping\"}", \
	  "controller to agent, every FWS_CTL_PING_MS while no long operation runs: an " \
	  "agent set up and idle that hears no line for FWS_AGENT_IDLE_MS exits") \
	X(interrupt, "{\"op\": \"interrupt\"}", \
	  "controller to agent during a long operation (conn_trial, conn_between): stop it") \
	X(beat, "{\"ev\": \"beat\", \"n\": N}", \
	  "agent to controller, every FWS_AGENT_BEAT_MS from its start: a controller that " \
	  "heard one and then nothing for FWS_AGENT_SILENT_MS takes the link for cut") \
	X(live, "{\"ev\": \"live\", \"bin\": N} + fws_agent_live", \
	  "agent to controller, every second while its workers run: the counts so far") \
	X(measure, "{\"ev\": \"measure\", \"n\": N, \"rate\": R}", \
	  "agent to controller during conn_trial: its measured phase begins (n connections at " \
	  "rate R per second)") \
	X(measured, "{\"ev\": \"measured\", \"stopped\": B}", \
	  "agent to controller during conn_trial: the measured phase ended")
/* clang-format on */

#define FWS_AGENT_OP_ENUM(n, ...) FWS_OP_##n,
enum fws_agent_op { FWS_AGENT_OPS(FWS_AGENT_OP_ENUM) FWS_AGENT_N_OPS };
#undef FWS_AGENT_OP_ENUM

/** The wire name of an operation ("?" beyond the table). */
const char *fws_agent_op_name(enum fws_agent_op op);
/** The operation of a wire name, or -1. */
int fws_agent_op_of(const char *name);
/** Whether the agent's workers must be stopped for it. */
bool fws_agent_op_stopped(enum fws_agent_op op);
/** docs/reference/agent-protocol.md, from the tables. */
void fws_agent_protocol_doc(FILE *f);

#endif /* FWS_AGENT_OPS_H */
