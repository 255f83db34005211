/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DUT telemetry (config dut.telemetry): what the firewall itself says while it carries the
 * load. A session to the DUT (a POSIX sh reading commands, e.g. "ssh root@fw sh") is asked for
 * a snapshot every second; each snapshot is the raw output of the platform's own tools, in
 * sections marked "@fws NAME". Pure here: the platform from what uname answers, one parser per
 * section and platform (FreeBSD/OPNsense/pfSense: kern.cp_times, vmstat -i, pfctl -si,
 * netstat -ibdn, netstat -m, dev.cpu.N.temperature, hw.physmem; Linux: /proc/stat,
 * /proc/interrupts, nf_conntrack_count and conntrack -S, /proc/net/dev, hwmon, /proc/meminfo),
 * the seconds between two snapshots, and the trial's summary with its derived notes. A section
 * that is missing or does not parse leaves its metric out and says why; garbage never stops
 * the measurement.
 */
#ifndef FWS_TELEM_H
#define FWS_TELEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FWS_TELEM_CPUS 256
#define FWS_TELEM_IRQS 1024
#define FWS_TELEM_IFS 128
#define FWS_TELEM_NOTES 4
#define FWS_TELEM_TOP_IRQS 5
/* The ranges a DUT's figures are read in, shared with the report's cells (fws_cell.h): a
 * state count beyond STATES_MAX, or a drop or mbuf counter beyond COUNT_MAX, is no such
 * figure (the metric is left out, saying so); a trial's drop sum is clamped to COUNT_MAX. */
#define FWS_TELEM_STATES_MAX 1e12
#define FWS_TELEM_COUNT_MAX 1e15

/* The metrics: id, the section name the DUT's script prints, what it is. */
#define FWS_TELEM_METRICS(X)                                                                       \
	X(CPU, "cpu", "CPU time per core")                                                         \
	X(INTR, "interrupts", "interrupts per source")                                             \
	X(STATES, "states", "firewall state table")                                                \
	X(DROPS, "drops", "interface drops and errors")                                            \
	X(MBUF, "mbuf", "mbuf denials")                                                            \
	X(TEMP, "temperature", "temperature")                                                      \
	X(MEM, "memory", "memory in use")

enum fws_telem_metric {
#define FWS_TELEM_ENUM(id, s, d) FWS_TELEM_##id,
	FWS_TELEM_METRICS(FWS_TELEM_ENUM)
#undef FWS_TELEM_ENUM
		FWS_TELEM_N
};

enum fws_telem_os { FWS_TELEM_OS_UNKNOWN = 0, FWS_TELEM_OS_LINUX, FWS_TELEM_OS_FREEBSD };

/* The trial phase a second belongs to: the one the snapshot that opens it began (the
 * controller asks for one at each phase's start). */
enum fws_telem_phase { FWS_TELEM_WARMUP = 0, FWS_TELEM_MEASURE, FWS_TELEM_DRAIN };

const char *fws_telem_metric_name(enum fws_telem_metric m);
const char *fws_telem_phase_name(enum fws_telem_phase p);

/** The platform from uname -s's answer (FreeBSD also for OPNsense and pfSense). */
enum fws_telem_os fws_telem_os_of(const char *uname);

struct fws_telem_irq {
	char name[40];
	uint64_t count;
};

struct fws_telem_if {
	char name[24];
	uint64_t in_drop, in_err, out_drop, out_err;
};

/** One snapshot, as read (counters since boot). */
struct fws_telem_raw {
	uint32_t have;      /**< bit per metric parsed */
	unsigned int n_cpu; /**< the highest core number read + 1 */
	/** Ticks, by the DUT's core number. */
	uint64_t busy[FWS_TELEM_CPUS], total[FWS_TELEM_CPUS];
	/** Bit per core number read (Linux: cpuN lines; an offline CPU has none). */
	uint64_t cpu_in[FWS_TELEM_CPUS / 64];
	unsigned int n_irq;
	struct fws_telem_irq irq[FWS_TELEM_IRQS];
	uint64_t states; /**< current entries */
	bool state_ops;  /**< inserts/removals counted (pf; Linux when conntrack -S has them) */
	uint64_t inserts, removals;
	unsigned int n_if;
	struct fws_telem_if ifs[FWS_TELEM_IFS];
	uint64_t mbuf_denied;
	double temp_c;             /**< the hottest sensor */
	double mem_used_pct;       /**< memory in use, % */
	char why[FWS_TELEM_N][80]; /**< why a section did not parse */
};

/**
 * Parse one snapshot: sections "@fws NAME" followed by their tool's output, for os. A metric
 * whose section is absent, empty or garbage is left out of raw->have, its reason in why[].
 */
void fws_telem_parse(enum fws_telem_os os, const char *text, struct fws_telem_raw *raw);

/** The section parsers, each on its section's text alone (unit tests, fuzzing). 0 or -EINVAL
 * with raw->why[metric] set. */
int fws_telem_parse_section(enum fws_telem_os os, enum fws_telem_metric m, const char *text,
			    struct fws_telem_raw *raw);

/** One second (the span between two snapshots). Rates per second of that span. */
struct fws_telem_sec {
	double t, dt; /**< its start since the trial began, its length, s */
	uint8_t phase;
	uint32_t have;
	float cpu;                  /**< all cores, % busy */
	uint16_t n_cpu;             /**< the highest core number in either snapshot + 1 */
	float core[FWS_TELEM_CPUS]; /**< NAN: the core is not in both snapshots */
	float irq_ps;
	int64_t states0, states; /**< at its start and its end */
	float inserts_ps, removals_ps;
	uint64_t drops; /**< every interface's drops and errors in it */
	uint64_t mbuf;  /**< mbuf denials in it */
	float temp_c, mem_pct;
};

/** The measured phase, summed. */
struct fws_telem_sum {
	unsigned int n; /**< measured seconds */
	double seconds;
	double cpu_mean, cpu_max;
	unsigned int n_cpu;
	double core_mean[FWS_TELEM_CPUS]; /**< over the seconds that had the core; NAN: none */
	double core_secs[FWS_TELEM_CPUS]; /**< the seconds that had it */
	int busiest;                      /**< the core of the highest mean, -1: none */
	double busiest_pct;               /**< its mean */
	double busiest_max;               /**< any core's highest second */
	double irq_mean, irq_max;
	unsigned int n_top;
	struct fws_telem_irq top[FWS_TELEM_TOP_IRQS]; /**< count: per second over the phase */
	bool states;
	int64_t states_end, states_growth;
	double states_max;
	bool state_ops;
	double inserts_ps, removals_ps;
	uint64_t drops;       /**< the DUT's own drops and errors, all interfaces (at most
			       * FWS_TELEM_COUNT_MAX) */
	char drops_where[96]; /**< the interfaces and counters that had them */
	uint64_t mbuf_denied;
	double temp_max, mem_max;
	uint32_t have; /**< metrics with at least one measured second */
};

/** A trial's telemetry. */
struct fws_telem {
	char platform[64]; /**< what uname answered */
	enum fws_telem_os os;
	uint32_t seen;             /**< metrics parsed in at least one snapshot */
	uint32_t missing;          /**< of those the platform has, never parsed */
	char why[FWS_TELEM_N][80]; /**< the first reason of each missing one */
	char error[160];           /**< the session's failure, "" none */
	unsigned int n, cap, dropped;
	struct fws_telem_sec *secs; /**< heap */
	unsigned int late;          /**< snapshots that did not arrive in time */
	struct fws_telem_sum sum;
	/* The measured phase's per-source sums. */
	unsigned int n_irq;
	struct fws_telem_irq irq[FWS_TELEM_IRQS];
	unsigned int n_if;
	struct fws_telem_if ifs[FWS_TELEM_IFS];
};

/**
 * The second between snapshots a (at t_a) and b (at t_b) into tm, of phase (enum
 * fws_telem_phase). A measured one's interrupts per source and drops per interface are
 * summed. 0 or -ENOMEM.
 */
int fws_telem_add(struct fws_telem *tm, const struct fws_telem_raw *a, double t_a,
		  const struct fws_telem_raw *b, double t_b, unsigned int phase);

/** A snapshot's metrics into tm->seen, the first reason of each missing one into tm->why. */
void fws_telem_saw(struct fws_telem *tm, const struct fws_telem_raw *raw);

/** The measured phase's summary into tm->sum and tm->missing (after the last add). */
void fws_telem_summarize(struct fws_telem *tm);

/** The derived notes (never typed): a single-thread bound, the DUT's own drops, state growth.
 * Returns how many were written (at most FWS_TELEM_NOTES). */
unsigned int fws_telem_notes(const struct fws_telem_sum *s, char notes[][200]);

/** Whether metric m exists on os at all (Linux has no mbuf denials). */
bool fws_telem_applies(enum fws_telem_os os, enum fws_telem_metric m);

/** Free tm's seconds. */
void fws_telem_free(struct fws_telem *tm);

/** The script the session is given once: it defines fws_s (one snapshot) for the platform
 * its uname names and answers "@fws uname NAME". */
const char *fws_telem_script(void);

/* The note thresholds: a core at SINGLE_CORE % while all cores' mean is at most SINGLE_MEAN %. */
#define FWS_TELEM_SINGLE_CORE 90.0
#define FWS_TELEM_SINGLE_MEAN 60.0

#endif /* FWS_TELEM_H */
