/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The agent protocol as one table (the control stream itself: fws_wire.h). Each operation
 * is one line of FWS_AGENT_OPS: its name, whether the agent's workers must be stopped for
 * it, its member of the agent interface (struct fws_agent_ops is generated from the lines),
 * the answer's attachment ("+ NAME": the raw bytes of that structure of fws_agent.h) and
 * what it does; its request's fields are lines of FWS_AGENT_FIELDS and its answer's of
 * FWS_AGENT_ANSWERS, typed and ranged: the controller reads every answer through the
 * latter (fws_agent_answer_read, before the call's own code sees it). The controller's end (fws_agent_remote.c) names its
 * calls by FWS_OP_NAME and packs their fields with fws_agent_args_pack; the agent's end
 * (fws_agent_srv.c) reads and checks every field with fws_agent_args_read before its
 * handler op_NAME runs; docs/reference/agent-protocol.md is printed from both tables
 * (fwstress agent --doc). A new operation: one line here, its fields' lines, its handler.
 */
#ifndef FWS_AGENT_OPS_H
#define FWS_AGENT_OPS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * X(kind, name, stopped, ret, params, answer, what): kind CALL is an operation of the
 * controller's agent interface (struct fws_agent_ops's member: ret (*name) params) and of the
 * wire; WIRE of the wire only (the remote agent's own exchanges); LOCAL of the interface only
 * (answered without a line of its own, or about the link itself). stopped: the agent's
 * workers must be stopped for it. answer: the answer's attachment ("+ NAME": the raw bytes
 * of that structure of fws_agent.h; its fields are FWS_AGENT_ANSWERS's). what: for the
 * reference page.
 */
/* clang-format off */
#define FWS_AGENT_OPS(X) \
	X(WIRE, hello, false, void, (void), "", \
	  "the first exchange: a different major version or layout is refused by the " \
	  "controller, naming both builds") \
	X(WIRE, setup, false, void, (void), "", \
	  "parses the config, starts EAL and becomes the host's part of it (its ports, " \
	  "workers and duties); once") \
	/* The ports it owns (facts and run totals), by config index; their count. */ \
	X(CALL, ports, false, unsigned int, (struct fws_agent *a, struct fws_port_result *out), \
	  "+ fws_port_result[FWS_CFG_MAX_PORTS]", \
	  "each port's link, driver and counters (by config index)") \
	/* Its TSC rate calibrated at setup and DPDK's estimate (setup's answer). */ \
	X(LOCAL, clock, false, void, (struct fws_agent *a, uint64_t *hz, uint64_t *hz_dpdk), "", "") \
	/* Largest hugepage memory its heaps held so far. */ \
	X(CALL, hugepage_peak, false, uint64_t, (struct fws_agent *a), "", \
	  "the most hugepage memory it used") \
	/* Its TSC now, as its stamps read it (a test clock applied). */ \
	X(CALL, tsc, false, uint64_t, (struct fws_agent *a), "", \
	  "its TSC now: the controller times the exchange around it (the probe clock)") \
	/* Its clock under PTP: ptp4l's state through pmc on socket in domain, checked, and */ \
	/* its TSC beside CLOCK_REALTIME. 0, or -1 with why in e. */ \
	X(CALL, ptp, false, int, (struct fws_agent *a, const char *socket, unsigned int domain, \
				  struct fws_ptp_point *out, struct fws_err *e), \
	  "+ fws_ptp_point", "its clock under PTP: pmc's state and two clock reads") \
	/* What the host does by itself for the streams of mask (TCP handshakes) in stage st; */ \
	/* a stop request ends it (-EINTR). */ \
	X(CALL, prepare, true, int, (struct fws_agent *a, enum fws_prep_stage st, uint32_t mask, \
				     volatile int *stop, struct fws_err *e), "", \
	  "a stage of the preparation before a trial (gateways, NAT learning, TCP " \
	  "handshakes)") \
	/* Load the plan: sizes, rates, limits, cookies; counters zeroed. */ \
	X(CALL, arm, true, int, (struct fws_agent *a, const struct fws_agent_plan *p, \
				 struct fws_err *e), "", \
	  "the next trial's plan: streams, rates, sizes, phases") \
	X(CALL, launch, true, int, (struct fws_agent *a, enum fws_phase ph, struct fws_err *e), "", \
	  "starts the workers on the armed plan") \
	/* Move the workers to ph at at, a reading of its clock as tsc gives it (0: at once); */ \
	/* how late the request came (ns past at; 0 in time). */ \
	X(CALL, phase, false, double, (struct fws_agent *a, enum fws_phase ph, uint64_t at), \
	  "", \
	  "the workers' phase at an instant of its clock; the answer says how late the " \
	  "request came") \
	X(CALL, poll, false, void, (struct fws_agent *a, struct fws_agent_poll *out), \
	  "+ fws_agent_poll", \
	  "each pass of the controller's loop: its control plane and duties, the workers' " \
	  "state") \
	X(CALL, live, false, void, (struct fws_agent *a, bool warm, struct fws_agent_live *out), \
	  "+ fws_agent_live", "live totals of the running phase") \
	/* measured: the measured phase began. */ \
	X(CALL, stop, false, void, (struct fws_agent *a, bool measured), "", \
	  "ends the workers (their last poll included)") \
	X(CALL, collect, false, void, (struct fws_agent *a, struct fws_agent_counts *out), \
	  "+ fws_agent_counts", "the trial's counts") \
	/* Flows [lo, lo + n) of stream s as received here (zero where none arrived). */ \
	X(CALL, rx_flows, false, void, (struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n, \
					struct fws_agent_rxflow *out), \
	  "+ fws_agent_rxflow[n]", "per-flow receive counts of a range of a stream's flows") \
	X(CALL, tx_flows, false, void, (struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n, \
					struct fws_agent_txflow *out), \
	  "+ fws_agent_txflow[n]", "per-flow transmit counts") \
	/* Flows [lo, lo + n) of stream s to at[i].dst, at[i].dport (network order; dst 0: not */ \
	/* learned, the flow keeps its own). 0 or -errno. */ \
	X(CALL, aim, true, int, (struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n, \
				 const struct fws_nat_tuple *at), "", \
	  "where a range of download flows is sent: the translations NAT learned") \
	/* Each stream's TCP results into out (NULL: discarded). */ \
	X(CALL, after, false, void, (struct fws_agent *a, struct fws_agent_counts *out), \
	  "+ fws_agent_counts", \
	  "after a trial or probe: workers still running stopped, what prepare opened " \
	  "closed") \
	X(CALL, retire, false, void, (struct fws_agent *a), "", \
	  "the trial's cookies retired: late frames count as stale") \
	X(WIRE, bye, false, void, (void), "", "the controller is done: the agent exits after its answer") \
	/* One iteration numbered nonce at rate of the clients it owns, the servers it owns */ \
	/* answering meanwhile; hk marks the measured phase; *stop ends it early. 0 or -errno. */ \
	X(CALL, conn_trial, true, int, (struct fws_agent *a, double rate, uint32_t nonce, \
					bool progress, const struct fws_conntester_hooks *hk, \
					volatile int *stop, struct fws_conntrial *out, \
					struct fws_err *e), \
	  "+ fws_conntrial, then its two per-second series (n_est and n_closed values)", \
	  "one iteration of a connection test on its clients; events measure and " \
	  "measured on the way; any line from the controller meanwhile stops it") \
	X(CALL, conn_between, true, int, (struct fws_agent *a, volatile int *stop, \
					  struct fws_err *e), "", \
	  "between iterations: its connections closed and aged out") \
	X(CALL, conn_serve, true, int, (struct fws_agent *a, uint32_t nonce, struct fws_err *e), \
	  "", "its servers answer that iteration until the next request") \
	/* Why the agent is gone (its stream ended, it died, it did not answer), or NULL while */ \
	/* it lives; NULL hook: it cannot be lost (in-process). */ \
	X(LOCAL, lost, false, const char *, (struct fws_agent *a), "", "") \
	X(LOCAL, destroy, false, void, (struct fws_agent *a), "", "")
/* clang-format on */

/*
 * A request's fields: F(op, key, kind, lo, hi, limit, what). kind: INT (an integer from lo to
 * hi), NUM (a number above lo, up to hi), BOOL (true or false; absent: false), PATH (an
 * absolute path under hi bytes), OBJ (a JSON object), BLOB (base64 of a structure of
 * fws_agent.h, its length the handler's to check), INFO (the controller's word, not
 * checked). limit: where hi is the agent's config's (FWS_LIM_STREAM its last stream,
 * FWS_LIM_MASK every stream's bit, FWS_LIM_FLOW the last flow of the op's stream "s"), else
 * FWS_LIM_NONE. Every field but INFO and BOOL must be there.
 */
/* clang-format off */
/* A range of a stream's flows, its fields in this order (the server's flow_range and the
 * FLOW limit read "s" first). */
#define FWS_AGENT_FLOW_RANGE(F, op) \
	F(op, s, INT, 0, 0, STREAM, "a stream") \
	F(op, lo, INT, 0, 0, FLOW, "its first flow") \
	F(op, n, INT, 1, FWS_AGENT_CHUNK, NONE, "flows (within the stream's)")
#define FWS_AGENT_FIELDS(F) \
	F(hello, proto, INFO, 0, 0, NONE, "[major, minor]") \
	F(hello, fwstress, INFO, 0, 0, NONE, "its version") \
	F(hello, layout, INFO, 0, 0, NONE, "the seam's structures' sizes") \
	F(setup, config, OBJ, 0, 0, NONE, "the normalised config") \
	F(setup, host, INT, 1, FWS_CFG_MAX_HOSTS, NONE, "its index in the config's hosts") \
	F(setup, n_ports, INT, 1, FWS_CFG_MAX_PORTS, NONE, \
	  "the controller's count, checked against the config parsed here") \
	F(setup, n_streams, INT, 1, FWS_CFG_MAX_STREAMS, NONE, "likewise") \
	F(ptp, socket, PATH, 0, FWS_AGENT_PATH_MAX, NONE, "ptp4l's management socket") \
	F(ptp, domain, INT, 0, 255, NONE, "the PTP domain") \
	F(prepare, stage, INT, 0, FWS_PREP_STAGES - 1, NONE, "enum fws_prep_stage") \
	F(prepare, mask, INT, 0, 0, MASK, "the streams (a bit each)") \
	F(arm, b, BLOB, 0, 0, NONE, "fws_agent_plan, checked against the config") \
	F(launch, phase, INT, FWS_PHASE_IDLE, FWS_PHASE_MEASURE, NONE, "the first phase") \
	F(phase, phase, INT, FWS_PHASE_IDLE, FWS_PHASE_STOP, NONE, "the phase") \
	F(phase, at, INT, 0, INT64_MAX, NONE, "its TSC instant (0: at once)") \
	F(live, warm, BOOL, 0, 0, NONE, "the warm-up's totals (else the running phase's)") \
	F(stop, measured, BOOL, 0, 0, NONE, "the measured phase began") \
	FWS_AGENT_FLOW_RANGE(F, rx_flows) \
	FWS_AGENT_FLOW_RANGE(F, tx_flows) \
	FWS_AGENT_FLOW_RANGE(F, aim) \
	F(aim, b, BLOB, 0, 0, NONE, "fws_nat_tuple[n]") \
	F(after, keep, BOOL, 0, 0, NONE, "answer each stream's TCP results (else discarded)") \
	F(conn_trial, nonce, INT, 0, UINT32_MAX, NONE, "the iteration") \
	F(conn_trial, rate, NUM, 0, 1e9, NONE, "connections per second") \
	F(conn_trial, progress, BOOL, 0, 0, NONE, "send its marks") \
	F(conn_serve, nonce, INT, 0, UINT32_MAX, NONE, "the iteration of another host's clients")
/* clang-format on */

/*
 * An answer's fields (an answer with rc 0; an error answer carries rc and err only): A(op,
 * key, kind, lo, hi, what), kinds as a request's: INT, NUM, INFO (hello's strings, which
 * the controller weighs itself: a different build is refused by name). The controller loses an agent whose answer misses one or holds
 * it out of range, naming the op and the key.
 */
/* clang-format off */
#define FWS_AGENT_ANSWERS(A) \
	A(hello, hostname, INFO, 0, 0, "its host name") \
	A(hello, kernel, INFO, 0, 0, "its kernel release") \
	A(hello, proto, INFO, 0, 0, "[major, minor] of its protocol") \
	A(hello, fwstress, INFO, 0, 0, "its version") \
	A(hello, dpdk, INFO, 0, 0, "the DPDK it runs, as rte_version words it") \
	A(hello, layout, INFO, 0, 0, "the seam's structures' sizes") \
	A(setup, hz, INT, 1, INT64_MAX, "its TSC rate in Hz, measured") \
	A(setup, hz_dpdk, INT, 0, INT64_MAX, "DPDK's estimate of it") \
	A(hugepage_peak, bytes, INT, 0, INT64_MAX, "the most hugepage memory it used") \
	A(tsc, tsc, INT, 0, INT64_MAX, "its TSC now") \
	A(phase, late_ns, NUM, -1, 1e18, "how late the request came (0: in time)") \
	A(conn_trial, n_est, INT, 0, UINT32_MAX, "seconds of its establishment series") \
	A(conn_trial, n_closed, INT, 0, UINT32_MAX, "seconds of its closing series")
/* clang-format on */

/** Every field of every answer, by op and key: FWS_ANS_op_key. */
#define FWS_AGENT_ANS_ENUM(op, key, ...) FWS_ANS_##op##_##key,
enum fws_agent_ans { FWS_AGENT_ANSWERS(FWS_AGENT_ANS_ENUM) FWS_AGENT_N_ANS };
#undef FWS_AGENT_ANS_ENUM

/** An answer's field values, by FWS_ANS_op_key. */
struct fws_agent_answer {
	long long i[FWS_AGENT_N_ANS];   /**< INT */
	double f[FWS_AGENT_N_ANS];      /**< NUM */
	bool b[FWS_AGENT_N_ANS];        /**< (no BOOL answer yet) */
	const char *s[FWS_AGENT_N_ANS]; /**< INFO strings */
	const void *j[FWS_AGENT_N_ANS]; /**< the json_t as it came (borrowed) */
};

/** Every field of every request, by op and key: FWS_ARG_op_key. */
#define FWS_AGENT_ARG_ENUM(op, key, ...) FWS_ARG_##op##_##key,
enum fws_agent_arg { FWS_AGENT_FIELDS(FWS_AGENT_ARG_ENUM) FWS_AGENT_N_ARGS };
#undef FWS_AGENT_ARG_ENUM

/** The longest path a unix socket's address holds (with its terminating zero). */
#define FWS_AGENT_PATH_MAX 108

/** A request's field values, by FWS_ARG_op_key (each kind in its own member). */
struct fws_agent_args {
	long long i[FWS_AGENT_N_ARGS];   /**< INT */
	double f[FWS_AGENT_N_ARGS];      /**< NUM */
	bool b[FWS_AGENT_N_ARGS];        /**< BOOL */
	const char *s[FWS_AGENT_N_ARGS]; /**< PATH, INFO (strings) */
	const void *j[FWS_AGENT_N_ARGS]; /**< OBJ, BLOB, INFO: the json_t as it came (borrowed) */
};

/** What the agent's limits are (its config): NULL before setup. */
struct fws_agent_limits {
	unsigned int n_streams;
	const uint32_t *flows; /**< per stream */
};

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

/* The wire's operations: CALL and WIRE lines. */
#define FWS_AGENT_OP_ENUM(kind, n, ...) FWS_AGENT_OP_ENUM_##kind(n)
#define FWS_AGENT_OP_ENUM_CALL(n) FWS_OP_##n,
#define FWS_AGENT_OP_ENUM_WIRE(n) FWS_OP_##n,
#define FWS_AGENT_OP_ENUM_LOCAL(n)
enum fws_agent_op { FWS_AGENT_OPS(FWS_AGENT_OP_ENUM) FWS_AGENT_N_OPS };

/* The interface's members (struct fws_agent_ops, fws_agent.h): CALL and LOCAL lines. */
#define FWS_AGENT_OP_MEMBER(kind, n, st, ret, params, ...)                                         \
	FWS_AGENT_OP_MEMBER_##kind(n, ret, params)
#define FWS_AGENT_OP_MEMBER_CALL(n, ret, params) ret(*n) params;
#define FWS_AGENT_OP_MEMBER_LOCAL(n, ret, params) ret(*n) params;
#define FWS_AGENT_OP_MEMBER_WIRE(n, ret, params)

struct fws_err;
/**
 * Read and check the fields of op in the request (a json_t) into a: 0, or -EINVAL with e
 * naming the op, the key and what it must be ("prepare: \"stage\" is not an integer from 0
 * to 3"). A field limited by the config needs lim (NULL: "not set up").
 */
int fws_agent_args_read(enum fws_agent_op op, const void *req, const struct fws_agent_limits *lim,
			struct fws_agent_args *a, struct fws_err *e);
/** Read and check the fields of op's answer (a json_t whose rc is 0) into a: 0, or -EINVAL
 * with e naming them ("answer to setup: \"hz\" is not an integer from 1 to ..."). */
int fws_agent_answer_read(enum fws_agent_op op, const void *ans, struct fws_agent_answer *a,
			  struct fws_err *e);
/** op's request fields from a, as a new json_t object (INFO fields of a taken as JSON
 * values given in a->j; absent ones left out). */
void *fws_agent_args_pack(enum fws_agent_op op, const struct fws_agent_args *a);

/** The wire name of an operation ("?" beyond the table). */
const char *fws_agent_op_name(enum fws_agent_op op);
/** The operation of a wire name, or -1. */
int fws_agent_op_of(const char *name);
/** Whether the agent's workers must be stopped for it. */
bool fws_agent_op_stopped(enum fws_agent_op op);
/** docs/reference/agent-protocol.md, from the tables. */
void fws_agent_protocol_doc(FILE *f);

#endif /* FWS_AGENT_OPS_H */
