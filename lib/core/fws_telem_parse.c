/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The section parsers of a DUT telemetry snapshot (fws_telem.h), one per metric and platform,
 * written from the formats the tools' manuals give: FreeBSD's sysctl(8) kern.cp_times,
 * vmstat(8) -i, pfctl(8) -si, netstat(1) -ibdn and -m; Linux's proc(5) stat, interrupts,
 * net/dev and meminfo, conntrack(8) -S, hwmon's temp*_input. Each takes its section's text and
 * fills its part of the snapshot, or says in one line why it could not.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fws_compat.h"
#include "fws_telem.h"

/* The metrics' names, as the DUT script's "@fws NAME" markers and the report give them. */
static const char *const metric_names[FWS_TELEM_N] = {
#define FWS_TELEM_NAME(id, s, d) [FWS_TELEM_##id] = s,
	FWS_TELEM_METRICS(FWS_TELEM_NAME)
#undef FWS_TELEM_NAME
};

const char *
fws_telem_metric_name(enum fws_telem_metric m)
{
	return (unsigned int)m < FWS_TELEM_N ? metric_names[m] : "?";
}

/* A line's limits: a 256-core DUT prints 1,280 figures in kern.cp_times' one line (about
 * 26 KB) and 256 counts a line in /proc/interrupts; four times that is read whole. A line
 * beyond them is cut, and its section says so. */
#define MAX_TOK 8192
#define LINE_MAX_LEN (1 << 20)

/* Each line of text into buf (grown as the line needs), tokens split on blanks. */
struct lines {
	const char *p;
	char *buf;
	char **tok;
	size_t cap;
	int n, cap_tok;
	bool cut; /**< a line was longer than LINE_MAX_LEN or had more than MAX_TOK tokens */
};

static void
lines_done(struct lines *l)
{
	free(l->buf);
	free(l->tok);
}

/* A line reader over text, freed when it goes out of scope. */
#define LINES(l, text) struct lines l __attribute__((cleanup(lines_done))) = {.p = (text)}

/* Room for a line of len bytes and its tokens: false (cut) beyond the limits or memory. */
static bool
room(struct lines *l, size_t len)
{
	size_t want = (len < LINE_MAX_LEN ? len : LINE_MAX_LEN - 1) + 1;
	char *b;

	if (l->tok == NULL && (l->tok = malloc(64 * sizeof(*l->tok))) != NULL)
		l->cap_tok = 64;
	if (want > l->cap && (b = realloc(l->buf, want)) != NULL) {
		l->buf = b;
		l->cap = want;
	}
	return l->tok != NULL && l->buf != NULL && l->cap >= want;
}

static bool
add_tok(struct lines *l, char *t)
{
	char **n;

	if (l->n == l->cap_tok) {
		if (l->cap_tok >= MAX_TOK ||
		    (n = realloc(l->tok, 2 * (size_t)l->cap_tok * sizeof(*n))) == NULL)
			return false;
		l->tok = n;
		l->cap_tok *= 2;
	}
	l->tok[l->n++] = t;
	return true;
}

static bool
next_line(struct lines *l)
{
	const char *e;
	size_t len;
	char *save, *t;

	if (l->p == NULL || *l->p == '\0')
		return false;
	e = strchr(l->p, '\n');
	len = e ? (size_t)(e - l->p) : strlen(l->p);
	l->n = 0;
	if (!room(l, len)) { /* out of memory: a line of no tokens, the section cut */
		l->cut = true;
		l->p = e ? e + 1 : NULL;
		return true;
	}
	if (len >= l->cap) {
		len = l->cap - 1;
		l->cut = true;
	}
	memcpy(l->buf, l->p, len);
	l->buf[len] = '\0';
	l->p = e ? e + 1 : NULL;
	for (t = strtok_r(l->buf, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save))
		if (!add_tok(l, t)) {
			l->cut = true;
			break;
		}
	return true;
}

/* A whole unsigned decimal. */
static bool
num(const char *s, uint64_t *v)
{
	char *e;

	if (s == NULL || *s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &e, 10);
	return *e == '\0' && errno == 0;
}

/* A finite number with an optional unit suffix (e.g. "45.0C"). */
static bool
real(const char *s, const char *suffix, double *v)
{
	char *e;

	if (s == NULL || *s == '\0')
		return false;
	*v = strtod(s, &e);
	if (e == s || !isfinite(*v))
		return false;
	return *e == '\0' || (suffix && strcmp(e, suffix) == 0);
}

static int
why(struct fws_telem_raw *raw, enum fws_telem_metric m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw->why[m], sizeof(raw->why[m]), fmt, ap);
	va_end(ap);
	/* It may quote the DUT's bytes: printable ASCII only, so the report's JSON holds it
	 * (jansson refuses a string that is not UTF-8, and the entry would be lost). */
	for (char *c = raw->why[m]; *c; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
			*c = '?';
	raw->have &= ~(1u << m);
	return -EINVAL;
}

static int
ok(struct fws_telem_raw *raw, enum fws_telem_metric m)
{
	raw->have |= 1u << m;
	raw->why[m][0] = '\0';
	return 0;
}

/* A section read to its end: ok, unless a line of it was cut (its figures would be short). */
static int
done(struct fws_telem_raw *raw, enum fws_telem_metric m, const struct lines *l)
{
	if (l->cut)
		return why(raw, m, "a line over 1 MiB or %d figures: cut, not read", MAX_TOK);
	return ok(raw, m);
}

/* ---- CPU ---- */

static bool
cpu_has(const struct fws_telem_raw *raw, unsigned int c)
{
	return c < raw->n_cpu && (raw->cpu_in[c / 64] >> (c % 64)) & 1;
}

static void
cpu_set(struct fws_telem_raw *raw, unsigned int c, uint64_t busy, uint64_t total)
{
	raw->busy[c] = busy;
	raw->total[c] = total;
	raw->cpu_in[c / 64] |= 1ull << (c % 64);
	if (c >= raw->n_cpu)
		raw->n_cpu = c + 1;
}

/* Linux /proc/stat: "cpuN user nice system idle iowait irq softirq steal ..." per online
 * core, N the kernel's number (an offline CPU has no line: the later ones keep theirs). */
static int
cpu_linux(const char *text, struct fws_telem_raw *raw)
{
	LINES(l, text);
	uint64_t v[8], c;
	int i;

	raw->n_cpu = 0;
	memset(raw->cpu_in, 0, sizeof(raw->cpu_in));
	while (next_line(&l)) {
		if (l.n < 5 || strncmp(l.tok[0], "cpu", 3) != 0 || !num(l.tok[0] + 3, &c))
			continue;
		if (c >= FWS_TELEM_CPUS)
			return why(raw, FWS_TELEM_CPU,
				   "/proc/stat: cpu%" PRIu64 ": more than %d cores", c,
				   FWS_TELEM_CPUS);
		memset(v, 0, sizeof(v));
		for (i = 1; i < l.n && i <= 8; i++)
			if (!num(l.tok[i], &v[i - 1]))
				return why(raw, FWS_TELEM_CPU, "/proc/stat: \"%.30s\" is no count",
					   l.tok[i]);
		if (!cpu_has(raw, (unsigned int)c)) /* a line twice: its first */
			cpu_set(raw, (unsigned int)c, v[0] + v[1] + v[2] + v[5] + v[6] + v[7],
				v[0] + v[1] + v[2] + v[5] + v[6] + v[7] + v[3] + v[4]);
	}
	if (raw->n_cpu == 0)
		return why(raw, FWS_TELEM_CPU, "no cpuN line in /proc/stat");
	return done(raw, FWS_TELEM_CPU, &l);
}

/* FreeBSD kern.cp_times: user nice sys intr idle, five per core, in one line. */
static int
cpu_freebsd(const char *text, struct fws_telem_raw *raw)
{
	LINES(l, text);
	uint64_t v;
	int i, got = 0;

	raw->n_cpu = 0;
	memset(raw->cpu_in, 0, sizeof(raw->cpu_in));
	while (next_line(&l) && got == 0 && !l.cut) {
		if (l.n == 0)
			continue;
		if (l.n % 5 != 0)
			return why(raw, FWS_TELEM_CPU, "kern.cp_times: %d figures, not 5 per core",
				   l.n);
		if (l.n / 5 > FWS_TELEM_CPUS)
			return why(raw, FWS_TELEM_CPU, "kern.cp_times: %d cores, more than %d",
				   l.n / 5, FWS_TELEM_CPUS);
		for (i = 0; i < l.n; i++) {
			if (!num(l.tok[i], &v))
				return why(raw, FWS_TELEM_CPU,
					   "kern.cp_times: \"%.30s\" is no count", l.tok[i]);
			if (i % 5 == 0)
				raw->total[i / 5] = raw->busy[i / 5] = 0;
			raw->total[i / 5] += v;
			if (i % 5 != 4)
				raw->busy[i / 5] += v;
			if (i % 5 == 4)
				cpu_set(raw, (unsigned int)(i / 5), raw->busy[i / 5],
					raw->total[i / 5]);
		}
		got = 1;
	}
	if (raw->n_cpu == 0 && !l.cut)
		return why(raw, FWS_TELEM_CPU, "kern.cp_times: no answer");
	return done(raw, FWS_TELEM_CPU, &l);
}

/* ---- interrupts ---- */

static void
irq_add(struct fws_telem_raw *raw, const char *name, uint64_t count)
{
	if (raw->n_irq >= FWS_TELEM_IRQS)
		return;
	strlcpy(raw->irq[raw->n_irq].name, name, sizeof(raw->irq[0].name));
	raw->irq[raw->n_irq++].count = count;
}

/* Linux /proc/interrupts: a header "CPU0 CPU1 ...", then "LABEL: count per CPU  chip  name". */
static int
intr_linux(const char *text, struct fws_telem_raw *raw)
{
	LINES(l, text);
	char name[40];
	uint64_t sum, v;
	int cpus = 0, i;

	raw->n_irq = 0;
	while (next_line(&l)) {
		size_t len;

		if (cpus == 0) {
			for (i = 0; i < l.n && strncmp(l.tok[i], "CPU", 3) == 0; i++)
				;
			cpus = l.n > 0 && i == l.n ? l.n : 0;
			continue;
		}
		if (l.n < 2 || (len = strlen(l.tok[0])) < 2 || l.tok[0][len - 1] != ':')
			continue;
		l.tok[0][len - 1] = '\0';
		for (sum = 0, i = 1; i < l.n && i <= cpus && num(l.tok[i], &v); i++)
			sum += v;
		if (i == 1)
			continue;
		/* A numbered line's device is its last word; ERR, MIS, NMI name themselves. */
		if (l.tok[0][0] >= '0' && l.tok[0][0] <= '9' && i < l.n)
			snprintf(name, sizeof(name), "%s:%s", l.tok[0], l.tok[l.n - 1]);
		else
			strlcpy(name, l.tok[0], sizeof(name));
		irq_add(raw, name, sum);
	}
	if (cpus == 0)
		return why(raw, FWS_TELEM_INTR, "no CPU header in /proc/interrupts");
	if (raw->n_irq == 0)
		return why(raw, FWS_TELEM_INTR, "/proc/interrupts: no source");
	return done(raw, FWS_TELEM_INTR, &l);
}

/* FreeBSD vmstat -i: "interrupt  total  rate", then "irq264: igb0:rxq0  123456  789", "Total". */
static int
intr_freebsd(const char *text, struct fws_telem_raw *raw)
{
	LINES(l, text);
	char name[40];
	uint64_t total, rate;
	bool head = false;
	int i;

	raw->n_irq = 0;
	while (next_line(&l)) {
		if (!head) {
			head = l.n == 3 && strcmp(l.tok[0], "interrupt") == 0 &&
			       strcmp(l.tok[1], "total") == 0;
			continue;
		}
		if (l.n < 3 || strcmp(l.tok[0], "Total") == 0 || !num(l.tok[l.n - 2], &total) ||
		    !num(l.tok[l.n - 1], &rate))
			continue;
		name[0] = '\0';
		for (i = 0; i < l.n - 2; i++) {
			if (i)
				strlcat(name, " ", sizeof(name));
			strlcat(name, l.tok[i], sizeof(name));
		}
		irq_add(raw, name, total);
	}
	if (!head)
		return why(raw, FWS_TELEM_INTR, "vmstat -i: no \"interrupt total rate\" header");
	if (raw->n_irq == 0)
		return why(raw, FWS_TELEM_INTR, "vmstat -i: no source");
	return done(raw, FWS_TELEM_INTR, &l);
}

/* ---- state table ---- */

/* "key=value" among a line's tokens, summed into *sum; whether there was one. */
static bool
kv_sum(const struct lines *l, const char *key, uint64_t *sum)
{
	size_t k = strlen(key);
	uint64_t v;
	int i;

	for (i = 0; i < l->n; i++)
		if (strncmp(l->tok[i], key, k) == 0 && l->tok[i][k] == '=' &&
		    num(l->tok[i] + k + 1, &v)) {
			*sum += v;
			return true;
		}
	return false;
}

/* Linux: nf_conntrack_count (one number), then conntrack -S's per-CPU lines. Inserts and
 * removals only where the kernel counts both (insert= and delete=; newer kernels do not). */
static int
states_linux(const char *text, struct fws_telem_raw *raw)
{
	LINES(l, text);
	bool count = false, ins = false, del = false;
	uint64_t v;

	raw->inserts = raw->removals = 0;
	while (next_line(&l)) {
		if (l.n == 1 && !count && num(l.tok[0], &v)) {
			raw->states = v;
			count = true;
		} else if (l.n > 1 && strncmp(l.tok[0], "cpu=", 4) == 0) {
			ins |= kv_sum(&l, "insert", &raw->inserts);
			del |= kv_sum(&l, "delete", &raw->removals);
		}
	}
	if (!count)
		return why(raw, FWS_TELEM_STATES, "no nf_conntrack_count (no conntrack module?)");
	if (raw->states > FWS_TELEM_STATES_MAX)
		return why(raw, FWS_TELEM_STATES, "nf_conntrack_count %" PRIu64 ": beyond 10^12",
			   raw->states);
	raw->state_ops = ins && del;
	return done(raw, FWS_TELEM_STATES, &l);
}

/* FreeBSD pfctl -si: "State Table ... current entries N, inserts N, removals N". */
static int
states_freebsd(const char *text, struct fws_telem_raw *raw)
{
	LINES(l, text);
	bool table = false, cur = false, ins = false, rem = false;

	while (next_line(&l)) {
		if (l.n >= 2 && strcmp(l.tok[0], "State") == 0 && strcmp(l.tok[1], "Table") == 0)
			table = true;
		else if (l.n >= 1 && l.tok[0][0] >= 'A' && l.tok[0][0] <= 'Z')
			table = false; /* the next block (Counters, ...) */
		else if (table && l.n >= 3 && strcmp(l.tok[0], "current") == 0 &&
			 strcmp(l.tok[1], "entries") == 0)
			cur = num(l.tok[2], &raw->states);
		else if (table && l.n >= 2 && strcmp(l.tok[0], "inserts") == 0)
			ins = num(l.tok[1], &raw->inserts);
		else if (table && l.n >= 2 && strcmp(l.tok[0], "removals") == 0)
			rem = num(l.tok[1], &raw->removals);
	}
	if (!cur)
		return why(raw, FWS_TELEM_STATES, "pfctl -si: no \"current entries\" (not root?)");
	if (raw->states > FWS_TELEM_STATES_MAX)
		return why(raw, FWS_TELEM_STATES,
			   "pfctl -si: %" PRIu64 " current entries: beyond 10^12", raw->states);
	raw->state_ops = ins && rem;
	return done(raw, FWS_TELEM_STATES, &l);
}

/* ---- interface drops ---- */

static struct fws_telem_if *
if_slot(struct fws_telem_raw *raw, const char *name)
{
	struct fws_telem_if *f;
	unsigned int i;

	for (i = 0; i < raw->n_if; i++)
		if (strcmp(raw->ifs[i].name, name) == 0)
			return &raw->ifs[i];
	if (raw->n_if >= FWS_TELEM_IFS)
		return NULL;
	f = &raw->ifs[raw->n_if++];
	memset(f, 0, sizeof(*f));
	strlcpy(f->name, name, sizeof(f->name));
	return f;
}

/* Every interface counter within the report's range: the first that is not, or NULL. */
static const struct fws_telem_if *
if_beyond(const struct fws_telem_raw *raw)
{
	unsigned int i;

	for (i = 0; i < raw->n_if; i++)
		if (raw->ifs[i].in_drop > FWS_TELEM_COUNT_MAX ||
		    raw->ifs[i].in_err > FWS_TELEM_COUNT_MAX ||
		    raw->ifs[i].out_drop > FWS_TELEM_COUNT_MAX ||
		    raw->ifs[i].out_err > FWS_TELEM_COUNT_MAX)
			return &raw->ifs[i];
	return NULL;
}

static int
drops_done(struct fws_telem_raw *raw, const struct lines *l)
{
	const struct fws_telem_if *f = if_beyond(raw);

	if (f)
		return why(raw, FWS_TELEM_DROPS, "%.24s: a drop or error counter beyond 10^15",
			   f->name);
	return done(raw, FWS_TELEM_DROPS, l);
}

/* Linux /proc/net/dev: two header lines, then "name: rx bytes packets errs drop fifo frame
 * compressed multicast, tx bytes packets errs drop fifo colls carrier compressed". */
static int
drops_linux(const char *text, struct fws_telem_raw *raw)
{
	LINES(l, text);
	struct fws_telem_if *f;
	uint64_t v[16];
	char *colon, *tok[17];
	int n, i;

	raw->n_if = 0;
	while (next_line(&l)) {
		if (l.n == 0 || (colon = strchr(l.tok[0], ':')) == NULL)
			continue;
		*colon = '\0';
		n = 0;
		if (colon[1]) /* "eth0:123" when the first count is wide */
			tok[n++] = colon + 1;
		for (i = 1; i < l.n && n < 17; i++)
			tok[n++] = l.tok[i];
		if (n != 16)
			continue;
		for (i = 0; i < 16 && num(tok[i], &v[i]); i++)
			;
		if (i < 16 || (f = if_slot(raw, l.tok[0])) == NULL)
			continue;
		f->in_err = v[2];
		f->in_drop = v[3] + v[4];
		f->out_err = v[10];
		f->out_drop = v[11];
	}
	if (raw->n_if == 0)
		return why(raw, FWS_TELEM_DROPS, "/proc/net/dev: no interface line");
	return drops_done(raw, &l);
}

/* FreeBSD netstat -ibdn: columns by the header, counted from the right (Address may be
 * empty); one row per interface, its <Link#N> row. "-" is a counter the driver lacks: 0. */
static int
drops_freebsd(const char *text, struct fws_telem_raw *raw)
{
	static const char *const cols[] = {"Ierrs", "Idrop", "Oerrs", "Drop"};
	LINES(l, text);
	struct fws_telem_if *f;
	int from_end[4] = {0}, i, k;
	uint64_t v[4];
	bool head = false;

	raw->n_if = 0;
	while (next_line(&l)) {
		if (!head && l.n > 4 && strcmp(l.tok[0], "Name") == 0) {
			for (k = 0; k < 4; k++)
				for (i = 0; i < l.n; i++)
					if (strcmp(l.tok[i], cols[k]) == 0)
						from_end[k] = l.n - i;
			head = from_end[0] && from_end[1] && from_end[2];
			continue;
		}
		if (!head || l.n < 4 || strncmp(l.tok[2], "<Link#", 6) != 0)
			continue;
		for (k = 0; k < 4; k++) {
			const char *t =
				from_end[k] && from_end[k] <= l.n ? l.tok[l.n - from_end[k]] : "-";

			v[k] = 0;
			if (strcmp(t, "-") != 0 && !num(t, &v[k]))
				break;
		}
		if (k < 4)
			continue;
		l.tok[0][strcspn(l.tok[0], "*")] = '\0';
		if ((f = if_slot(raw, l.tok[0])) == NULL)
			continue;
		f->in_err = v[0];
		f->in_drop = v[1];
		f->out_err = v[2];
		f->out_drop = v[3];
	}
	if (!head)
		return why(raw, FWS_TELEM_DROPS, "netstat -ibdn: no Ierrs/Idrop/Oerrs header");
	if (raw->n_if == 0)
		return why(raw, FWS_TELEM_DROPS, "netstat -ibdn: no <Link#> row");
	return drops_done(raw, &l);
}

/* ---- mbuf denials (FreeBSD netstat -m: "a/b/c requests for mbufs denied (...)") ---- */

static int
mbuf_freebsd(const char *text, struct fws_telem_raw *raw)
{
	LINES(l, text);
	bool any = false;
	uint64_t v;
	char *p, *save;

	raw->mbuf_denied = 0;
	while (next_line(&l)) {
		int i;

		for (i = 0; i < l.n && strcmp(l.tok[i], "denied") != 0; i++)
			;
		if (l.n < 3 || strcmp(l.tok[1], "requests") != 0 || i == l.n)
			continue;
		for (p = strtok_r(l.tok[0], "/", &save); p; p = strtok_r(NULL, "/", &save))
			if (num(p, &v))
				raw->mbuf_denied += v;
		any = true;
	}
	if (!any)
		return why(raw, FWS_TELEM_MBUF, "netstat -m: no \"requests ... denied\" line");
	if (raw->mbuf_denied > FWS_TELEM_COUNT_MAX)
		return why(raw, FWS_TELEM_MBUF, "netstat -m: denials beyond 10^15");
	return done(raw, FWS_TELEM_MBUF, &l);
}

/* ---- temperature: the hottest sensor ---- */

/* Linux: "path:45000" (hwmon and thermal zones, millidegrees C, as grep prints them). */
static int
temp_linux(const char *text, struct fws_telem_raw *raw)
{
	LINES(l, text);
	bool any = false;
	double v;
	char *c;

	raw->temp_c = -INFINITY;
	while (next_line(&l)) {
		if (l.n != 1 || (c = strrchr(l.tok[0], ':')) == NULL || !real(c + 1, NULL, &v))
			continue;
		v /= 1000;
		if (v < -60 || v > 200)
			continue;
		raw->temp_c = any && raw->temp_c > v ? raw->temp_c : v;
		any = true;
	}
	if (!any)
		return why(raw, FWS_TELEM_TEMP, "no sensor (hwmon, thermal_zone)");
	return done(raw, FWS_TELEM_TEMP, &l);
}

/* FreeBSD: "dev.cpu.0.temperature: 45.0C" (coretemp or amdtemp loaded). */
static int
temp_freebsd(const char *text, struct fws_telem_raw *raw)
{
	LINES(l, text);
	bool any = false;
	double v;

	while (next_line(&l)) {
		if (l.n != 2 || strstr(l.tok[0], "temperature:") == NULL ||
		    !real(l.tok[1], "C", &v))
			continue;
		if (v < -60 || v > 200)
			continue;
		raw->temp_c = any && raw->temp_c > v ? raw->temp_c : v;
		any = true;
	}
	if (!any)
		return why(raw, FWS_TELEM_TEMP, "no dev.cpu.N.temperature (coretemp not loaded?)");
	return done(raw, FWS_TELEM_TEMP, &l);
}

/* ---- memory ---- */

/* "key: value" lines (meminfo, sysctl); the value of key or false. */
static bool
key_value(const char *text, const char *key, uint64_t *v)
{
	LINES(l, text);

	while (next_line(&l))
		if (l.n >= 2 && strcmp(l.tok[0], key) == 0)
			return num(l.tok[1], v);
	return false;
}

static int
mem_linux(const char *text, struct fws_telem_raw *raw)
{
	uint64_t total, avail;

	if (!key_value(text, "MemTotal:", &total) || !key_value(text, "MemAvailable:", &avail) ||
	    total == 0 || avail > total)
		return why(raw, FWS_TELEM_MEM, "/proc/meminfo: no MemTotal/MemAvailable");
	raw->mem_used_pct = 100.0 * (double)(total - avail) / (double)total;
	return ok(raw, FWS_TELEM_MEM);
}

/* FreeBSD: in use is what is neither free nor inactive (top(1)'s Active + Wired + Laundry),
 * of the pages the VM manages (v_page_count, the basis OPNsense's and pfSense's dashboards
 * divide by; hw.physmem, about 1 % more, where the DUT does not say it). */
static int
mem_freebsd(const char *text, struct fws_telem_raw *raw)
{
	uint64_t phys, page, fr, inact, pages;

	if (!key_value(text, "hw.physmem:", &phys) || !key_value(text, "hw.pagesize:", &page) ||
	    !key_value(text, "vm.stats.vm.v_free_count:", &fr) ||
	    !key_value(text, "vm.stats.vm.v_inactive_count:", &inact) || phys == 0 || page == 0)
		return why(raw, FWS_TELEM_MEM,
			   "no hw.physmem/pagesize/v_free_count/v_inactive_count");
	if (!key_value(text, "vm.stats.vm.v_page_count:", &pages) || pages == 0)
		pages = phys / page;
	if (fr + inact > pages)
		return why(raw, FWS_TELEM_MEM, "more pages free and inactive than the DUT has");
	raw->mem_used_pct = 100.0 * (1.0 - (double)(fr + inact) / (double)pages);
	return ok(raw, FWS_TELEM_MEM);
}

/* The parsers: per metric, Linux's and FreeBSD's (NULL: the platform has no such metric). */
typedef int (*section_fn)(const char *text, struct fws_telem_raw *raw);
static const section_fn parsers[FWS_TELEM_N][2] = {
	[FWS_TELEM_CPU] = {cpu_linux, cpu_freebsd},
	[FWS_TELEM_INTR] = {intr_linux, intr_freebsd},
	[FWS_TELEM_STATES] = {states_linux, states_freebsd},
	[FWS_TELEM_DROPS] = {drops_linux, drops_freebsd},
	[FWS_TELEM_MBUF] = {NULL, mbuf_freebsd},
	[FWS_TELEM_TEMP] = {temp_linux, temp_freebsd},
	[FWS_TELEM_MEM] = {mem_linux, mem_freebsd},
};

int
fws_telem_parse_section(enum fws_telem_os os, enum fws_telem_metric m, const char *text,
			struct fws_telem_raw *raw)
{
	section_fn fn;

	if (os == FWS_TELEM_OS_UNKNOWN || (unsigned int)m >= FWS_TELEM_N)
		return -EINVAL;
	fn = parsers[m][os == FWS_TELEM_OS_FREEBSD];
	if (fn == NULL)
		return why(raw, m, "not on this platform");
	return fn(text ? text : "", raw);
}

/* Whether a metric exists on os at all (Linux has no mbuf denials). */
bool
fws_telem_applies(enum fws_telem_os os, enum fws_telem_metric m)
{
	return os != FWS_TELEM_OS_UNKNOWN && (unsigned int)m < FWS_TELEM_N &&
	       parsers[m][os == FWS_TELEM_OS_FREEBSD] != NULL;
}

/* "@fws NAME" at a line's start: the metric it opens, or -1. */
static int
section_at(const char *line, size_t len)
{
	unsigned int m;

	if (len < 6 || strncmp(line, "@fws ", 5) != 0)
		return -2; /* not a marker */
	for (m = 0; m < FWS_TELEM_N; m++) {
		const char *name = fws_telem_metric_name(m);

		if (len - 5 == strlen(name) && strncmp(line + 5, name, len - 5) == 0)
			return (int)m;
	}
	return -1; /* a marker of something else (begin, end) */
}

void
fws_telem_parse(enum fws_telem_os os, const char *text, struct fws_telem_raw *raw)
{
	const char *start[FWS_TELEM_N] = {0}, *end[FWS_TELEM_N] = {0}, *p = text ? text : "";
	int cur = -1, m;

	memset(raw, 0, sizeof(*raw));
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if ((m = section_at(p, len)) != -2) {
			if (cur >= 0 && end[cur] == NULL) /* a section twice: its first */
				end[cur] = p;
			cur = m;
			if (m >= 0 && start[m] == NULL)
				start[m] = e ? e + 1 : p + len;
		}
		p = e ? e + 1 : p + len;
	}
	if (cur >= 0 && end[cur] == NULL)
		end[cur] = p;
	for (m = 0; m < FWS_TELEM_N; m++) {
		char *s;

		if (!fws_telem_applies(os, m))
			continue;
		if (start[m] == NULL) {
			why(raw, m, "no \"%s\" section in the answer", fws_telem_metric_name(m));
			continue;
		}
		if (end[m] == NULL || end[m] < start[m])
			end[m] = start[m];
		s = strndup(start[m], (size_t)(end[m] - start[m]));
		if (s == NULL) {
			why(raw, m, "out of memory");
			continue;
		}
		fws_telem_parse_section(os, m, s, raw);
		free(s);
	}
}
