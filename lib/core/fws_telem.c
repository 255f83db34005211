/* SPDX-License-Identifier: BSD-3-Clause */
/* DUT telemetry (fws_telem.h): the seconds between snapshots, the measured phase's summary,
 * its notes, and the script the DUT's shell is given. The parsers (and the metrics' names) are
 * in fws_telem_parse.c, which calls nothing here. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fws_compat.h"
#include "fws_telem.h"
#include "fws_util.h"

const char *
fws_telem_phase_name(enum fws_telem_phase p)
{
	static const char *const names[] = {"warm-up", "measure", "drain"};

	return (unsigned int)p < FWS_DIM(names) ? names[p] : "?";
}

enum fws_telem_os
fws_telem_os_of(const char *uname)
{
	size_t n = uname ? strspn(uname, " \t") : 0;

	if (uname == NULL)
		return FWS_TELEM_OS_UNKNOWN;
	if (strncmp(uname + n, "Linux", 5) == 0)
		return FWS_TELEM_OS_LINUX;
	if (strncmp(uname + n, "FreeBSD", 7) == 0)
		return FWS_TELEM_OS_FREEBSD;
	return FWS_TELEM_OS_UNKNOWN;
}

/* The POSIX sh the session runs: its stderr discarded (a missing tool is a missing section),
 * one function per platform. The controller then sends "echo '@fws begin N'; fws_s; echo
 * '@fws end N'" once a second. */
const char *
fws_telem_script(void)
{
	return "exec 2>/dev/null\n"
	       "fws_l() {\n"
	       " echo '@fws cpu'; cat /proc/stat\n"
	       " echo '@fws interrupts'; cat /proc/interrupts\n"
	       " echo '@fws states'; cat /proc/sys/net/netfilter/nf_conntrack_count; conntrack -S\n"
	       " echo '@fws drops'; cat /proc/net/dev\n"
	       " echo '@fws temperature'; grep -s . /sys/class/hwmon/hwmon*/temp*_input "
	       "/sys/class/thermal/thermal_zone*/temp\n"
	       " echo '@fws memory'; cat /proc/meminfo\n"
	       "}\n"
	       "fws_f() {\n"
	       " echo '@fws cpu'; sysctl -n kern.cp_times\n"
	       " echo '@fws interrupts'; vmstat -i\n"
	       " echo '@fws states'; pfctl -si\n"
	       " echo '@fws drops'; netstat -ibdn\n"
	       " echo '@fws mbuf'; netstat -m\n"
	       " echo '@fws temperature'; sysctl dev.cpu | grep temperature\n"
	       " echo '@fws memory'; sysctl hw.physmem hw.pagesize vm.stats.vm.v_page_count "
	       "vm.stats.vm.v_free_count vm.stats.vm.v_inactive_count\n"
	       "}\n"
	       "case $(uname -s) in\n"
	       "Linux) fws_s() { fws_l; } ;;\n"
	       "FreeBSD) fws_s() { fws_f; } ;;\n"
	       "*) fws_s() { :; } ;;\n"
	       "esac\n"
	       "echo \"@fws uname $(uname -sr)\"\n";
}

/* A counter's growth from a to b. One that went back from above 2^31 to below it, by less
 * than 2^32, is a 32-bit counter that wrapped (FreeBSD's u_long counters on i386 and armv7:
 * hw.intrcnt at 20,000/s wraps every 2.5 days): counted once round. Any other that went back
 * (a reboot, a reset): nothing. */
static uint64_t
delta(uint64_t a, uint64_t b)
{
	const uint64_t wrap = 1ull << 32;

	if (b >= a)
		return b - a;
	return a >= wrap / 2 && a < wrap ? b + wrap - a : 0;
}

static const struct fws_telem_irq *
irq_find(const struct fws_telem_raw *r, unsigned int hint, const char *name)
{
	unsigned int i;

	if (hint < r->n_irq && strcmp(r->irq[hint].name, name) == 0)
		return &r->irq[hint];
	for (i = 0; i < r->n_irq; i++)
		if (strcmp(r->irq[i].name, name) == 0)
			return &r->irq[i];
	return NULL;
}

static const struct fws_telem_if *
if_find(const struct fws_telem_raw *r, unsigned int hint, const char *name)
{
	unsigned int i;

	if (hint < r->n_if && strcmp(r->ifs[hint].name, name) == 0)
		return &r->ifs[hint];
	for (i = 0; i < r->n_if; i++)
		if (strcmp(r->ifs[i].name, name) == 0)
			return &r->ifs[i];
	return NULL;
}

static bool
has_core(const struct fws_telem_raw *r, unsigned int c)
{
	return c < r->n_cpu && (r->cpu_in[c / 64] >> (c % 64)) & 1;
}

/* The second's CPU: each core in both snapshots by its number (one missing from either is
 * missing from this second only: NAN), the total over those. */
static void
cpu_of(const struct fws_telem_raw *a, const struct fws_telem_raw *b, struct fws_telem_sec *s)
{
	uint64_t busy = 0, total = 0, db, dt;
	unsigned int c;

	s->n_cpu = (uint16_t)(a->n_cpu > b->n_cpu ? a->n_cpu : b->n_cpu);
	for (c = 0; c < s->n_cpu; c++) {
		if (!has_core(a, c) || !has_core(b, c)) {
			s->core[c] = NAN;
			continue;
		}
		db = delta(a->busy[c], b->busy[c]);
		dt = delta(a->total[c], b->total[c]);
		if (db > dt) /* not one core's counters since one boot: nothing */
			db = dt = 0;
		s->core[c] = dt ? (float)(100.0 * (double)db / (double)dt) : 0;
		busy += db;
		total += dt;
	}
	s->cpu = total ? (float)(100.0 * (double)busy / (double)total) : 0;
}

/* Interrupts of the second; a measured one's per source summed into tm. */
static void
irq_of(struct fws_telem *tm, const struct fws_telem_raw *a, const struct fws_telem_raw *b,
       struct fws_telem_sec *s, bool measured)
{
	const struct fws_telem_irq *x;
	uint64_t sum = 0, d;
	unsigned int i, k;

	for (i = 0; i < b->n_irq; i++) {
		if ((x = irq_find(a, i, b->irq[i].name)) == NULL)
			continue;
		d = delta(x->count, b->irq[i].count);
		sum += d;
		if (!measured)
			continue;
		for (k = 0; k < tm->n_irq && strcmp(tm->irq[k].name, b->irq[i].name) != 0; k++)
			;
		if (k == tm->n_irq && tm->n_irq < FWS_TELEM_IRQS)
			strlcpy(tm->irq[tm->n_irq++].name, b->irq[i].name, sizeof(tm->irq[0].name));
		if (k < tm->n_irq)
			tm->irq[k].count += d;
	}
	s->irq_ps = (float)((double)sum / s->dt);
}

/* Drops and errors of the second; a measured one's per interface summed into tm. */
static void
drops_of(struct fws_telem *tm, const struct fws_telem_raw *a, const struct fws_telem_raw *b,
	 struct fws_telem_sec *s, bool measured)
{
	const struct fws_telem_if *x;
	struct fws_telem_if d;
	unsigned int i, k;

	for (i = 0; i < b->n_if; i++) {
		if ((x = if_find(a, i, b->ifs[i].name)) == NULL)
			continue;
		d.in_drop = delta(x->in_drop, b->ifs[i].in_drop);
		d.in_err = delta(x->in_err, b->ifs[i].in_err);
		d.out_drop = delta(x->out_drop, b->ifs[i].out_drop);
		d.out_err = delta(x->out_err, b->ifs[i].out_err);
		s->drops += d.in_drop + d.in_err + d.out_drop + d.out_err;
		if (!measured)
			continue;
		for (k = 0; k < tm->n_if && strcmp(tm->ifs[k].name, b->ifs[i].name) != 0; k++)
			;
		if (k == tm->n_if && tm->n_if < FWS_TELEM_IFS) {
			memset(&tm->ifs[k], 0, sizeof(tm->ifs[k]));
			strlcpy(tm->ifs[tm->n_if++].name, b->ifs[i].name, sizeof(tm->ifs[0].name));
		}
		if (k < tm->n_if) {
			tm->ifs[k].in_drop += d.in_drop;
			tm->ifs[k].in_err += d.in_err;
			tm->ifs[k].out_drop += d.out_drop;
			tm->ifs[k].out_err += d.out_err;
		}
	}
}

static int
grow(struct fws_telem *tm)
{
	struct fws_telem_sec *n;
	unsigned int cap;

	if (tm->n < tm->cap)
		return 0;
	cap = tm->cap ? tm->cap * 2 : 64;
	if ((n = realloc(tm->secs, cap * sizeof(*n))) == NULL) {
		tm->dropped++;
		return -ENOMEM;
	}
	tm->secs = n;
	tm->cap = cap;
	return 0;
}

#define HAS(r, m) (((r)->have >> FWS_TELEM_##m) & 1)

int
fws_telem_add(struct fws_telem *tm, const struct fws_telem_raw *a, double t_a,
	      const struct fws_telem_raw *b, double t_b, unsigned int phase)
{
	struct fws_telem_sec *s;
	bool measured;

	if (t_b <= t_a || grow(tm) < 0)
		return t_b <= t_a ? 0 : -ENOMEM;
	s = &tm->secs[tm->n++];
	memset(s, 0, sizeof(*s));
	s->t = t_a;
	s->dt = t_b - t_a;
	s->phase = (uint8_t)(phase <= FWS_TELEM_DRAIN ? phase : FWS_TELEM_DRAIN);
	s->have = a->have & b->have;
	measured = s->phase == FWS_TELEM_MEASURE;
	if (HAS(s, CPU))
		cpu_of(a, b, s);
	if (HAS(s, INTR))
		irq_of(tm, a, b, s, measured);
	if (HAS(s, STATES)) {
		s->states = (int64_t)b->states;
		s->states0 = (int64_t)a->states;
		if (a->state_ops && b->state_ops) {
			s->inserts_ps = (float)((double)delta(a->inserts, b->inserts) / s->dt);
			s->removals_ps = (float)((double)delta(a->removals, b->removals) / s->dt);
		} else {
			s->inserts_ps = s->removals_ps = -1;
		}
	}
	if (HAS(s, DROPS))
		drops_of(tm, a, b, s, measured);
	if (HAS(s, MBUF))
		s->mbuf = delta(a->mbuf_denied, b->mbuf_denied);
	s->temp_c = HAS(b, TEMP) ? (float)b->temp_c : NAN;
	s->mem_pct = HAS(b, MEM) ? (float)b->mem_used_pct : NAN;
	s->have |= b->have & ((1u << FWS_TELEM_TEMP) | (1u << FWS_TELEM_MEM));
	return 0;
}

void
fws_telem_saw(struct fws_telem *tm, const struct fws_telem_raw *raw)
{
	unsigned int m;

	tm->seen |= raw->have;
	for (m = 0; m < FWS_TELEM_N; m++)
		if (!((raw->have >> m) & 1) && raw->why[m][0] && !tm->why[m][0])
			strlcpy(tm->why[m], raw->why[m], sizeof(tm->why[m]));
}

static int
irq_cmp(const void *x, const void *y)
{
	const struct fws_telem_irq *a = x, *b = y;

	return a->count < b->count ? 1 : a->count > b->count ? -1 : strcmp(a->name, b->name);
}

static void
sum_drops(struct fws_telem *tm, struct fws_telem_sum *u)
{
	static const char *const what[] = {"in drop", "in err", "out drop", "out err"};
	unsigned int i, k;
	size_t len = 0;

	for (i = 0; i < tm->n_if; i++) {
		const uint64_t v[4] = {tm->ifs[i].in_drop, tm->ifs[i].in_err, tm->ifs[i].out_drop,
				       tm->ifs[i].out_err};

		for (k = 0; k < 4; k++) {
			if (v[k] == 0)
				continue;
			u->drops = u->drops > UINT64_MAX - v[k] ? UINT64_MAX : u->drops + v[k];
			if (len < sizeof(u->drops_where) - 1)
				len += (size_t)snprintf(u->drops_where + len,
							sizeof(u->drops_where) - len,
							"%s%s %s %" PRIu64, len ? ", " : "",
							tm->ifs[i].name, what[k], v[k]);
		}
	}
	if (len >= sizeof(u->drops_where))
		strlcpy(u->drops_where + sizeof(u->drops_where) - 4, "...", 4);
	if (u->drops > FWS_TELEM_COUNT_MAX) { /* counters that reset and refilled: said */
		u->drops = (uint64_t)FWS_TELEM_COUNT_MAX;
		strlcpy(u->drops_where, "over 10^15 in all: clamped", sizeof(u->drops_where));
	}
}

static void
sum_cores(struct fws_telem_sum *u)
{
	unsigned int c;

	u->busiest = -1;
	for (c = 0; c < u->n_cpu; c++) {
		/* A weighted mean of shares of at most 100 %: never above it by rounding. */
		u->core_mean[c] =
			u->core_secs[c] > 0 ? fmin(u->core_mean[c] / u->core_secs[c], 100) : NAN;
		if (isnan(u->core_mean[c]))
			continue;
		if (u->busiest < 0 || u->core_mean[c] > u->busiest_pct) {
			u->busiest = (int)c;
			u->busiest_pct = u->core_mean[c];
		}
	}
}

/* One measured second into the sums (dt-weighted means, maxima). */
static void
sum_second(struct fws_telem_sum *u, const struct fws_telem_sec *s, bool first)
{
	unsigned int c;

	u->n++;
	u->seconds += s->dt;
	u->have |= s->have;
	if (HAS(s, CPU)) {
		if (s->n_cpu > u->n_cpu)
			u->n_cpu = s->n_cpu;
		u->cpu_mean += s->cpu * s->dt;
		u->cpu_max = fmax(u->cpu_max, s->cpu);
		for (c = 0; c < s->n_cpu && c < FWS_TELEM_CPUS; c++) {
			if (isnan(s->core[c])) /* not in this second: its mean is of the others */
				continue;
			u->core_mean[c] += s->core[c] * s->dt;
			u->core_secs[c] += s->dt;
			u->busiest_max = fmax(u->busiest_max, s->core[c]);
		}
	}
	if (HAS(s, INTR)) {
		u->irq_mean += s->irq_ps * s->dt;
		u->irq_max = fmax(u->irq_max, s->irq_ps);
	}
	if (HAS(s, STATES)) {
		if (!u->states)
			u->states_growth = -s->states0;
		u->states = true;
		u->states_end = s->states;
		u->states_max = fmax(u->states_max, (double)s->states);
		u->state_ops = s->inserts_ps >= 0 && (first || u->state_ops);
		u->inserts_ps += s->inserts_ps * s->dt;
		u->removals_ps += s->removals_ps * s->dt;
	}
	u->mbuf_denied += s->mbuf;
	if (HAS(s, TEMP))
		u->temp_max = fmax(u->temp_max, s->temp_c);
	if (HAS(s, MEM))
		u->mem_max = fmax(u->mem_max, s->mem_pct);
}

void
fws_telem_summarize(struct fws_telem *tm)
{
	struct fws_telem_sum *u = &tm->sum;
	unsigned int i;

	memset(u, 0, sizeof(*u));
	u->busiest = -1;
	u->temp_max = u->mem_max = -INFINITY;
	tm->missing = 0;
	for (i = 0; i < FWS_TELEM_N; i++)
		if (fws_telem_applies(tm->os, i) && !((tm->seen >> i) & 1))
			tm->missing |= 1u << i;
	for (i = 0; i < tm->n; i++)
		if (tm->secs[i].phase == FWS_TELEM_MEASURE)
			sum_second(u, &tm->secs[i], u->n == 0);
	if (u->n == 0 || u->seconds <= 0)
		return;
	u->cpu_mean = fmin(u->cpu_mean / u->seconds, 100);
	u->irq_mean /= u->seconds;
	u->inserts_ps /= u->seconds;
	u->removals_ps /= u->seconds;
	u->states_growth += u->states_end;
	sum_cores(u);
	qsort(tm->irq, tm->n_irq, sizeof(tm->irq[0]), irq_cmp);
	for (i = 0; i < tm->n_irq && u->n_top < FWS_TELEM_TOP_IRQS; i++) {
		uint64_t ps = (uint64_t)llround((double)tm->irq[i].count / u->seconds);

		if (ps == 0) /* sorted: the rest are quieter still, none busy */
			break;
		u->top[u->n_top] = tm->irq[i];
		u->top[u->n_top++].count = ps;
	}
	sum_drops(tm, u);
}

unsigned int
fws_telem_notes(const struct fws_telem_sum *u, char notes[][200])
{
	unsigned int n = 0;

	if (u->n == 0)
		return 0;
	if (HAS(u, CPU) && u->n_cpu >= 2 && u->busiest_pct >= FWS_TELEM_SINGLE_CORE &&
	    u->cpu_mean <= FWS_TELEM_SINGLE_MEAN)
		snprintf(notes[n++], 200,
			 "one core (cpu%d) at %.0f %% while the mean is %.0f %%: single-thread "
			 "bound",
			 u->busiest, u->busiest_pct, u->cpu_mean);
	if (u->drops)
		snprintf(notes[n++], 200, "the DUT dropped %" PRIu64 " frames in its NICs (%s)",
			 u->drops, u->drops_where);
	if (u->mbuf_denied)
		snprintf(notes[n++], 200, "the DUT denied %" PRIu64 " mbuf requests (netstat -m)",
			 u->mbuf_denied);
	if (u->states && u->states_growth > 0)
		snprintf(notes[n++], 200, "state table grew by %" PRId64 " to %" PRId64,
			 u->states_growth, u->states_end);
	return n;
}

void
fws_telem_free(struct fws_telem *tm)
{
	if (tm == NULL)
		return;
	free(tm->secs);
	tm->secs = NULL;
	tm->n = tm->cap = 0;
}
