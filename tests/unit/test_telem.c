/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DUT telemetry (fws_telem.h): each section parser on the formats FreeBSD's and Linux's
 * manuals give (tests/data/telemetry: an OPNsense-like snapshot series written from them, two
 * snapshots of this Linux machine), on truncated and garbage output; the seconds between
 * snapshots, the measured phase's summary and its notes.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fws_telem.h"
#include "unit.h"

#define HAS(r, m) (((r)->have >> FWS_TELEM_##m) & 1)

static char *
slurp(const char *dir, const char *name)
{
	char path[512];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s/%s", FWS_TELEM_DATA, dir, name);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert_int_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void
snap(const char *dir, int k, enum fws_telem_os os, struct fws_telem_raw *raw)
{
	char name[16];
	char *t;

	snprintf(name, sizeof(name), "snap.%02d", k);
	t = slurp(dir, name);
	fws_telem_parse(os, t, raw);
	free(t);
}

START_TEST(test_telem_platform)
{
	ck_assert_int_eq(fws_telem_os_of("FreeBSD 14.1-RELEASE-p6"), FWS_TELEM_OS_FREEBSD);
	ck_assert_int_eq(fws_telem_os_of("Linux 6.1.0-28-amd64"), FWS_TELEM_OS_LINUX);
	ck_assert_int_eq(fws_telem_os_of("Darwin 23.1.0"), FWS_TELEM_OS_UNKNOWN);
	ck_assert_int_eq(fws_telem_os_of(""), FWS_TELEM_OS_UNKNOWN);
	ck_assert_int_eq(fws_telem_os_of(NULL), FWS_TELEM_OS_UNKNOWN);
	ck_assert(!fws_telem_applies(FWS_TELEM_OS_LINUX, FWS_TELEM_MBUF));
	ck_assert(fws_telem_applies(FWS_TELEM_OS_FREEBSD, FWS_TELEM_MBUF));
}
END_TEST

START_TEST(test_telem_freebsd_snapshot)
{
	struct fws_telem_raw *r = calloc(1, sizeof(*r));
	unsigned int i;

	snap("opnsense", 0, FWS_TELEM_OS_FREEBSD, r);
	ck_assert_uint_eq(r->have, (1u << FWS_TELEM_N) - 1);
	ck_assert_uint_eq(r->n_cpu, 4);
	ck_assert_uint_eq(r->total[0], 1000000 + 2000 + 400000 + 90000 + 20000000);
	ck_assert_uint_eq(r->busy[0], 1000000 + 2000 + 400000 + 90000);
	/* vmstat -i: 15 sources, "Total" is none; names as printed, blanks kept single. */
	ck_assert_uint_eq(r->n_irq, 15);
	ck_assert_str_eq(r->irq[7].name, "irq258: igb0:rxq2");
	ck_assert_uint_eq(r->irq[7].count, 1000002);
	/* pfctl -si: the State Table block only (Counters' lines are not states). */
	ck_assert_uint_eq(r->states, 400);
	ck_assert(r->state_ops);
	ck_assert_uint_eq(r->inserts, 10000);
	ck_assert_uint_eq(r->removals, 9600);
	/* netstat -ibdn: the <Link#> rows only, "enc0*" (down) named without its star. */
	ck_assert_uint_eq(r->n_if, 5);
	ck_assert_str_eq(r->ifs[0].name, "igb0");
	ck_assert_uint_eq(r->ifs[0].in_drop, 1200);
	ck_assert_str_eq(r->ifs[3].name, "enc0");
	ck_assert_uint_eq(r->mbuf_denied, 0);
	ck_assert(fabs(r->temp_c - 51.0) < 1e-9);
	ck_assert(fabs(r->mem_used_pct - 100.0 * (1 - 1700000.0 * 4096 / 8465772544.0)) < 1e-9);
	for (i = 0; i < FWS_TELEM_N; i++)
		ck_assert_str_eq(r->why[i], "");
	free(r);
}
END_TEST

START_TEST(test_telem_freebsd_second)
{
	struct fws_telem_raw *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct fws_telem tm = {.os = FWS_TELEM_OS_FREEBSD};
	const struct fws_telem_sec *s;

	snap("opnsense", 1, FWS_TELEM_OS_FREEBSD, a);
	snap("opnsense", 2, FWS_TELEM_OS_FREEBSD, b);
	ck_assert_int_eq(fws_telem_add(&tm, a, 10, b, 11, FWS_TELEM_MEASURE), 0);
	s = &tm.secs[0];
	ck_assert_int_eq(s->phase, FWS_TELEM_MEASURE);
	ck_assert_uint_eq(s->n_cpu, 4);
	/* cpu2: 124 of 127 ticks busy; the others 13 of 127. */
	ck_assert(fabs(s->core[2] - 100.0 * 124 / 127) < 1e-4);
	ck_assert(fabs(s->core[0] - 100.0 * 13 / 127) < 1e-4);
	ck_assert(fabs(s->cpu - 100.0 * (124 + 3 * 13) / (4 * 127)) < 1e-4);
	/* 4 timers at 1000, igb0:rxq2 8000, the 7 other queues 900. */
	ck_assert(fabs(s->irq_ps - (4000 + 8000 + 7 * 900)) < 1e-3);
	ck_assert_uint_eq(s->drops, 250);
	ck_assert_uint_eq(s->mbuf, 3);
	ck_assert_int_eq(s->states, 420);
	ck_assert(fabs(s->inserts_ps - 120) < 1e-6 && fabs(s->removals_ps - 100) < 1e-6);
	/* Its phase is the one given (the snapshot that opened it); beyond drain is drain. */
	ck_assert_int_eq(fws_telem_add(&tm, a, 19.4, b, 20.4, FWS_TELEM_WARMUP), 0);
	ck_assert_int_eq(tm.secs[1].phase, FWS_TELEM_WARMUP);
	ck_assert_int_eq(fws_telem_add(&tm, a, 19.6, b, 20.6, 7), 0);
	ck_assert_int_eq(tm.secs[2].phase, FWS_TELEM_DRAIN);
	ck_assert_uint_eq(tm.secs[1].drops, 250); /* counted in any phase */
	ck_assert_int_eq(fws_telem_add(&tm, a, 4, b, 5, FWS_TELEM_WARMUP), 0);
	ck_assert_int_eq(tm.n_if, 5); /* every interface of the measured second */
	ck_assert_uint_eq(tm.ifs[0].in_drop, 250);
	/* A counter that went back (a reboot) counts nothing, never a huge figure. */
	ck_assert_int_eq(fws_telem_add(&tm, b, 30, a, 31, FWS_TELEM_MEASURE), 0);
	ck_assert_uint_eq(tm.secs[4].drops, 0);
	ck_assert(tm.secs[4].irq_ps == 0 && tm.secs[4].cpu == 0);
	fws_telem_free(&tm);
	free(a);
	free(b);
}
END_TEST

/* The whole series: 1 s of warm-up (idle), 10 measured seconds of load, 1 of drain. */
START_TEST(test_telem_freebsd_summary)
{
	struct fws_telem_raw *r[12];
	struct fws_telem *tm = calloc(1, sizeof(*tm));
	char notes[FWS_TELEM_NOTES][200];
	const struct fws_telem_sum *u = &tm->sum;
	unsigned int n, k;

	tm->os = FWS_TELEM_OS_FREEBSD;
	for (k = 0; k < 12; k++) {
		r[k] = calloc(1, sizeof(*r[k]));
		snap("opnsense", (int)k, FWS_TELEM_OS_FREEBSD, r[k]);
		fws_telem_saw(tm, r[k]);
		if (k)
			ck_assert_int_eq(fws_telem_add(tm, r[k - 1], k - 1, r[k], k,
						       k >= 2 && k <= 11 ? FWS_TELEM_MEASURE
									 : FWS_TELEM_WARMUP),
					 0);
	}
	fws_telem_summarize(tm);
	ck_assert_uint_eq(tm->missing, 0);
	ck_assert_uint_eq(u->n, 10);
	ck_assert(fabs(u->seconds - 10) < 1e-9);
	ck_assert_int_eq(u->busiest, 2);
	ck_assert(fabs(u->busiest_pct - 100.0 * 124 / 127) < 1e-3);
	ck_assert(fabs(u->cpu_mean - 100.0 * 163 / 508) < 1e-3);
	/* The per-core means summed are the total's (every core has the same ticks). */
	ck_assert(fabs((u->core_mean[0] + u->core_mean[1] + u->core_mean[2] + u->core_mean[3]) / 4 -
		       u->cpu_mean) < 1e-3);
	ck_assert_str_eq(u->top[0].name, "irq258: igb0:rxq2");
	ck_assert_uint_eq(u->top[0].count, 8000);
	ck_assert_int_eq(u->states_end, 400 + 20 * 10); /* snapshot k: 400 + 20 (k - 1) */
	ck_assert_int_eq(u->states_growth, 200);
	ck_assert(fabs(u->inserts_ps - 120) < 1e-6);
	ck_assert_uint_eq(u->drops, 2500);
	ck_assert_str_eq(u->drops_where, "igb0 in drop 2500");
	ck_assert_uint_eq(u->mbuf_denied, 30);
	ck_assert(fabs(u->temp_max - (51.0 + 1.1)) < 1e-9 || u->temp_max >= 56);
	n = fws_telem_notes(u, notes);
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(notes[0],
			 "one core (cpu2) at 98 % while the mean is 32 %: single-thread bound");
	ck_assert_str_eq(notes[1], "the DUT dropped 2500 frames in its NICs (igb0 in drop 2500)");
	ck_assert_str_eq(notes[2], "the DUT denied 30 mbuf requests (netstat -m)");
	ck_assert_str_eq(notes[3], "state table grew by 200 to 600");
	for (k = 0; k < 12; k++)
		free(r[k]);
	fws_telem_free(tm);
	free(tm);
}
END_TEST

START_TEST(test_telem_linux_snapshot)
{
	struct fws_telem_raw *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct fws_telem tm = {.os = FWS_TELEM_OS_LINUX};

	snap("linux", 0, FWS_TELEM_OS_LINUX, a);
	snap("linux", 1, FWS_TELEM_OS_LINUX, b);
	ck_assert(HAS(a, CPU) && HAS(a, INTR) && HAS(a, STATES) && HAS(a, DROPS) && HAS(a, MEM));
	ck_assert(!HAS(a, TEMP));
	ck_assert_str_eq(a->why[FWS_TELEM_TEMP], "no sensor (hwmon, thermal_zone)");
	ck_assert(!HAS(a, MBUF)); /* not on Linux: never named missing */
	ck_assert_uint_eq(a->n_cpu, 2);
	ck_assert(!a->state_ops); /* this kernel's conntrack -S has no delete= */
	ck_assert_str_eq(a->ifs[0].name, "lo");
	ck_assert_int_eq(fws_telem_add(&tm, a, 0, b, 1, FWS_TELEM_MEASURE), 0);
	fws_telem_saw(&tm, a);
	fws_telem_saw(&tm, b);
	fws_telem_summarize(&tm);
	ck_assert_uint_eq(tm.missing, 1u << FWS_TELEM_TEMP);
	ck_assert(tm.sum.cpu_mean >= 0 && tm.sum.cpu_mean <= 100);
	ck_assert(tm.sum.inserts_ps == -1 || !tm.sum.state_ops);
	fws_telem_free(&tm);
	free(a);
	free(b);
}
END_TEST

static const struct {
	const char *name;
	enum fws_telem_os os;
	enum fws_telem_metric m;
	const char *text, *why;
} broken[] = {
	{"cp_times not 5 per core", FWS_TELEM_OS_FREEBSD, FWS_TELEM_CPU, "1 2 3 4 5 6 7\n",
	 "kern.cp_times: 7 figures, not 5 per core"},
	{"cp_times with a word", FWS_TELEM_OS_FREEBSD, FWS_TELEM_CPU, "1 2 3 4 x\n",
	 "kern.cp_times: \"x\" is no count"},
	{"sysctl unknown oid", FWS_TELEM_OS_FREEBSD, FWS_TELEM_CPU, "", "kern.cp_times: no answer"},
	{"vmstat -i without header", FWS_TELEM_OS_FREEBSD, FWS_TELEM_INTR, "irq16: ehci0 1201 0\n",
	 "vmstat -i: no \"interrupt total rate\" header"},
	{"pfctl as a user", FWS_TELEM_OS_FREEBSD, FWS_TELEM_STATES,
	 "pfctl: /dev/pf: Permission denied\n", "pfctl -si: no \"current entries\" (not root?)"},
	{"netstat -ibdn cut in its header", FWS_TELEM_OS_FREEBSD, FWS_TELEM_DROPS,
	 "Name    Mtu Network", "netstat -ibdn: no Ierrs/Idrop/Oerrs header"},
	{"no coretemp", FWS_TELEM_OS_FREEBSD, FWS_TELEM_TEMP, "",
	 "no dev.cpu.N.temperature (coretemp not loaded?)"},
	{"/proc/stat garbage", FWS_TELEM_OS_LINUX, FWS_TELEM_CPU, "cpu0 12 x 3 4\n",
	 "/proc/stat: \"x\" is no count"},
	{"/proc/stat without cores", FWS_TELEM_OS_LINUX, FWS_TELEM_CPU, "cpu  1 2 3 4\nintr 5\n",
	 "no cpuN line in /proc/stat"},
	{"/proc/interrupts cut before its header", FWS_TELEM_OS_LINUX, FWS_TELEM_INTR, "",
	 "no CPU header in /proc/interrupts"},
	{"no conntrack module", FWS_TELEM_OS_LINUX, FWS_TELEM_STATES, "",
	 "no nf_conntrack_count (no conntrack module?)"},
	{"/proc/net/dev cut in a line", FWS_TELEM_OS_LINUX, FWS_TELEM_DROPS,
	 "Inter-|   Receive\n face |bytes\n  eth0: 1 2 3\n", "/proc/net/dev: no interface line"},
	{"meminfo without MemAvailable", FWS_TELEM_OS_LINUX, FWS_TELEM_MEM, "MemTotal: 100 kB\n",
	 "/proc/meminfo: no MemTotal/MemAvailable"},
	{"mbuf on Linux", FWS_TELEM_OS_LINUX, FWS_TELEM_MBUF, "x", "not on this platform"},
	/* The DUT's bytes quoted in a reason: printable ASCII only (the report's JSON takes
	 * UTF-8 only, and jansson would drop the entry). */
	{"cp_times with binary", FWS_TELEM_OS_FREEBSD, FWS_TELEM_CPU, "1 2 3 4 \xff\x1b[2J\xc3\n",
	 "kern.cp_times: \"??[2J?\" is no count"},
};

START_TEST(test_telem_broken)
{
	struct fws_telem_raw *r = calloc(1, sizeof(*r));

	ck_assert_int_eq(fws_telem_parse_section(broken[_i].os, broken[_i].m, broken[_i].text, r),
			 -22);
	ck_assert_msg(!strcmp(r->why[broken[_i].m], broken[_i].why), "%s: \"%s\"", broken[_i].name,
		      r->why[broken[_i].m]);
	ck_assert(!((r->have >> broken[_i].m) & 1));
	free(r);
}
END_TEST

/* A snapshot without sections, or with stray lines and a section twice: what is there
 * parses, the rest is named. */
START_TEST(test_telem_sections)
{
	struct fws_telem_raw *r = calloc(1, sizeof(*r));

	fws_telem_parse(FWS_TELEM_OS_LINUX, "ssh: connect to host fw port 22: refused\n", r);
	ck_assert_uint_eq(r->have, 0);
	ck_assert_str_eq(r->why[FWS_TELEM_CPU], "no \"cpu\" section in the answer");
	fws_telem_parse(FWS_TELEM_OS_LINUX,
			"noise\n@fws cpu\ncpu0 1 2 3 4 5 6 7 8\n@fws other\njunk\n@fws memory\n"
			"MemTotal: 1000 kB\nMemAvailable: 250 kB\n@fws cpu\ncpu1 1 1 1 1\n",
			r);
	ck_assert(HAS(r, CPU) && HAS(r, MEM) && !HAS(r, INTR));
	ck_assert_uint_eq(r->n_cpu, 1); /* the first "cpu" section */
	ck_assert(fabs(r->mem_used_pct - 75) < 1e-9);
	/* Interrupts: a wide name, a line with fewer counts than CPUs (ERR/MIS), a cut line. */
	ck_assert_int_eq(fws_telem_parse_section(FWS_TELEM_OS_LINUX, FWS_TELEM_INTR,
						 "            CPU0       CPU1\n"
						 " 128:   10   20  PCI-MSIX-0000:03:00.0  0-edge  "
						 "enp3s0f0-TxRx-0-with-a-very-long-name-indeed\n"
						 "ERR:          0\n 129:  7",
						 r),
			 0);
	ck_assert_uint_eq(r->n_irq, 3);
	ck_assert_uint_eq(r->irq[0].count, 30);
	ck_assert_str_eq(r->irq[0].name, "128:enp3s0f0-TxRx-0-with-a-very-long-na"); /* 39 + NUL */
	ck_assert_str_eq(r->irq[1].name, "ERR");
	ck_assert_uint_eq(r->irq[2].count, 7);
	free(r);
}
END_TEST

/* The seconds' memory grows; the session's summary of nothing measured is empty. */
START_TEST(test_telem_nothing_measured)
{
	struct fws_telem tm = {.os = FWS_TELEM_OS_LINUX};
	char notes[FWS_TELEM_NOTES][200];

	fws_telem_summarize(&tm);
	ck_assert_uint_eq(tm.sum.n, 0);
	ck_assert_int_eq(tm.sum.busiest, -1);
	ck_assert_uint_eq(fws_telem_notes(&tm.sum, notes), 0);
	/* Every metric Linux has is missing, mbuf is not among them. */
	ck_assert_uint_eq(tm.missing, ((1u << FWS_TELEM_N) - 1) & ~(1u << FWS_TELEM_MBUF));
}
END_TEST

/* Cores at 100 % over seconds of odd lengths: the weighted means stay at 100 (a report with
 * more is refused when read back). */
START_TEST(test_telem_full_cores)
{
	struct fws_telem_raw *r = calloc(4, sizeof(*r));
	struct fws_telem tm = {.os = FWS_TELEM_OS_LINUX};
	static const double t[4] = {0, 0.1, 0.3, 1.0};
	unsigned int k;

	for (k = 0; k < 4; k++) {
		r[k].have = 1u << FWS_TELEM_CPU;
		r[k].n_cpu = 2;
		r[k].cpu_in[0] = 3;
		r[k].busy[0] = r[k].total[0] = r[k].busy[1] = r[k].total[1] = 1000 + 337 * k;
		fws_telem_saw(&tm, &r[k]);
		if (k)
			ck_assert_int_eq(fws_telem_add(&tm, &r[k - 1], t[k - 1], &r[k], t[k],
						       FWS_TELEM_MEASURE),
					 0);
	}
	fws_telem_summarize(&tm);
	ck_assert(tm.sum.cpu_mean <= 100 && tm.sum.cpu_mean > 99.999);
	ck_assert(tm.sum.core_mean[0] <= 100 && tm.sum.core_mean[1] <= 100);
	ck_assert(tm.sum.busiest_pct <= 100);
	fws_telem_free(&tm);
	free(r);
}
END_TEST

/* Text grown by printf pieces (the fixtures of a 256-core DUT are generated here). */
struct text {
	char *p;
	size_t len, cap;
};

static void __attribute__((format(printf, 2, 3))) put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->p + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && t->len + (size_t)n < t->cap)
			break;
		t->cap = t->cap ? t->cap * 2 : 4096;
		t->p = realloc(t->p, t->cap);
		ck_assert_ptr_nonnull(t->p);
	}
	t->len += (size_t)n;
}

/* A 256-core FreeBSD DUT (issue 52, item 6): kern.cp_times' one line of 1,280 figures, each
 * up to 11 digits (10 KB; the old parser kept 64 figures and 1,024 bytes of it), core c
 * busy 10 + c % 90 of every 100 ticks; every core read, each one's share exact. */
START_TEST(test_telem_freebsd_256_cores)
{
	struct fws_telem_raw *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct fws_telem tm = {.os = FWS_TELEM_OS_FREEBSD};
	struct text ta = {0}, tb = {0};
	unsigned int c, busy;

	for (c = 0; c < 256; c++) {
		busy = 10 + c % 90;
		put(&ta, "%s10000000000 0 10000000000 0 10000000000", c ? " " : "");
		/* user + busy - 1, nice 0, sys + 1, intr 0, idle + 100 - busy */
		put(&tb, "%s%llu 0 10000000001 0 %llu", c ? " " : "", 10000000000ull + busy - 1,
		    10000000000ull + 100 - busy);
	}
	put(&ta, "\n");
	put(&tb, "\n");
	ck_assert_uint_gt(ta.len, 10000);
	ck_assert_int_eq(fws_telem_parse_section(FWS_TELEM_OS_FREEBSD, FWS_TELEM_CPU, ta.p, a), 0);
	ck_assert_int_eq(fws_telem_parse_section(FWS_TELEM_OS_FREEBSD, FWS_TELEM_CPU, tb.p, b), 0);
	ck_assert_uint_eq(a->n_cpu, 256);
	ck_assert_int_eq(fws_telem_add(&tm, a, 0, b, 1, FWS_TELEM_MEASURE), 0);
	ck_assert_uint_eq(tm.secs[0].n_cpu, 256);
	for (c = 0; c < 256; c++)
		ck_assert_msg(fabs(tm.secs[0].core[c] - (10 + c % 90)) < 1e-4, "core %u: %f", c,
			      tm.secs[0].core[c]);
	fws_telem_free(&tm);
	free(ta.p);
	free(tb.p);
	free(a);
	free(b);
}
END_TEST

/* A 256-CPU Linux DUT with CPU 5 offline (issue 52, items 6 and 8): /proc/stat has no cpu5
 * line and /proc/interrupts no CPU5 column; each core keeps the kernel's number (cpu6 is
 * core 6, not 5), core 5 is no figure; every interrupt source's 255 counts summed exact
 * (the old parser kept 63 of them), 1,030 sources of which the first 1,024 are kept. */
START_TEST(test_telem_linux_256_cpus)
{
	struct fws_telem_raw *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct fws_telem tm = {.os = FWS_TELEM_OS_LINUX};
	struct text sa = {0}, sb = {0}, ia = {0}, ib = {0};
	unsigned int c, q;

	for (c = 0; c < 256; c++) {
		if (c == 5)
			continue;
		put(&sa, "cpu%u 1000 0 1000 100000 0 0 0 0 0 0\n", c);
		put(&sb, "cpu%u %u 0 1000 %u 0 0 0 0 0 0\n", c, 1000 + c % 100,
		    100000 + 100 - c % 100);
	}
	for (c = 0; c < 256; c++)
		if (c != 5)
			put(&ia, "%sCPU%u", c ? "  " : "           ", c);
	put(&ia, "\n");
	ib = (struct text){0};
	put(&ib, "%s", ia.p);
	for (q = 0; q < 1030; q++) {
		put(&ia, "%4u:", 100 + q);
		put(&ib, "%4u:", 100 + q);
		for (c = 0; c < 255; c++) {
			put(&ia, " %10u", 1000000u);
			put(&ib, " %10u", 1000000u + q % 7);
		}
		put(&ia, "  IR-PCI-MSIX-0000:3b:00.0 %u-edge ice-eth0-TxRx-%u\n", q, q);
		put(&ib, "  IR-PCI-MSIX-0000:3b:00.0 %u-edge ice-eth0-TxRx-%u\n", q, q);
	}
	ck_assert_int_eq(fws_telem_parse_section(FWS_TELEM_OS_LINUX, FWS_TELEM_CPU, sa.p, a), 0);
	ck_assert_int_eq(fws_telem_parse_section(FWS_TELEM_OS_LINUX, FWS_TELEM_CPU, sb.p, b), 0);
	ck_assert_int_eq(fws_telem_parse_section(FWS_TELEM_OS_LINUX, FWS_TELEM_INTR, ia.p, a), 0);
	ck_assert_int_eq(fws_telem_parse_section(FWS_TELEM_OS_LINUX, FWS_TELEM_INTR, ib.p, b), 0);
	a->have = b->have = (1u << FWS_TELEM_CPU) | (1u << FWS_TELEM_INTR);
	ck_assert_uint_eq(a->n_cpu, 256);
	ck_assert_uint_eq(a->n_irq, FWS_TELEM_IRQS);
	ck_assert_uint_eq(a->irq[0].count, 255 * 1000000ull);
	ck_assert_str_eq(a->irq[3].name, "103:ice-eth0-TxRx-3");
	ck_assert_int_eq(fws_telem_add(&tm, a, 0, b, 1, FWS_TELEM_MEASURE), 0);
	for (c = 0; c < 256; c++)
		if (c == 5)
			ck_assert(isnan(tm.secs[0].core[c]));
		else
			ck_assert_msg(fabs(tm.secs[0].core[c] - (double)(c % 100)) < 1e-3,
				      "cpu%u: %f", c, tm.secs[0].core[c]);
	/* Of the 1,024 sources kept, source q grew by 255 (q % 7) a second. */
	for (c = 0, q = 0; q < FWS_TELEM_IRQS; q++)
		c += 255 * (q % 7);
	ck_assert(fabs(tm.secs[0].irq_ps - c) < 1e-3);
	fws_telem_saw(&tm, a);
	fws_telem_summarize(&tm);
	ck_assert_uint_eq(tm.sum.n_cpu, 256);
	ck_assert(isnan(tm.sum.core_mean[5]));
	ck_assert_int_ne(tm.sum.busiest, 5);
	fws_telem_free(&tm);
	free(sa.p);
	free(sb.p);
	free(ia.p);
	free(ib.p);
	free(a);
	free(b);
}
END_TEST

/* A line beyond what is read (over 1 MiB) is not read short: the section says it was cut. */
START_TEST(test_telem_cut_line)
{
	struct fws_telem_raw *r = calloc(1, sizeof(*r));
	struct text t = {0};
	unsigned int i;

	for (i = 0; i < 120000; i++)
		put(&t, "%s12345678", i ? " " : "");
	put(&t, "\n");
	ck_assert_int_eq(fws_telem_parse_section(FWS_TELEM_OS_FREEBSD, FWS_TELEM_CPU, t.p, r), -22);
	ck_assert_str_eq(r->why[FWS_TELEM_CPU], "a line over 1 MiB or 8192 figures: cut, not read");
	free(t.p);
	free(r);
}
END_TEST

/* One snapshot that lists 3 of 4 cores (issue 52, item 8): core 3 is missing from the two
 * seconds that snapshot bounds only; its mean is of the others, the total's too. */
START_TEST(test_telem_core_missing_once)
{
	struct fws_telem_raw *r = calloc(5, sizeof(*r));
	struct fws_telem tm = {.os = FWS_TELEM_OS_FREEBSD};
	char text[256];
	unsigned int k, c;

	for (k = 0; k < 5; k++) {
		/* every core 50 % busy, core 3 at 90 %: +50 (+90) busy of 100 a second */
		text[0] = '\0';
		for (c = 0; c < (k == 2 ? 3u : 4u); c++)
			snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s%u 0 0 0 %u",
				 c ? " " : "", (c == 3 ? 90 : 50) * k, (c == 3 ? 10 : 50) * k);
		strcat(text, "\n");
		ck_assert_int_eq(
			fws_telem_parse_section(FWS_TELEM_OS_FREEBSD, FWS_TELEM_CPU, text, &r[k]),
			0);
		fws_telem_saw(&tm, &r[k]);
		if (k)
			ck_assert_int_eq(
				fws_telem_add(&tm, &r[k - 1], k - 1, &r[k], k, FWS_TELEM_MEASURE),
				0);
	}
	ck_assert(isnan(tm.secs[1].core[3]) && isnan(tm.secs[2].core[3]));
	ck_assert(fabs(tm.secs[1].cpu - 50) < 1e-4);
	fws_telem_summarize(&tm);
	ck_assert_uint_eq(tm.sum.n_cpu, 4);
	ck_assert(fabs(tm.sum.core_mean[3] - 90) < 1e-4);
	ck_assert(fabs(tm.sum.core_mean[0] - 50) < 1e-4);
	ck_assert_int_eq(tm.sum.busiest, 3);
	fws_telem_free(&tm);
	free(r);
}
END_TEST

/* FreeBSD's 32-bit counters (i386, armv7: hw.intrcnt is u_long) wrap (issue 52, item 7): a
 * count that went from above 2^31 to below it is one turn round; a 64-bit one that went
 * back (a reboot) is nothing. */
START_TEST(test_telem_wrap)
{
	static const char head[] = "interrupt                          total       rate\n";
	struct fws_telem_raw *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct fws_telem tm = {.os = FWS_TELEM_OS_FREEBSD};
	char ta[512], tb[512];

	snprintf(ta, sizeof(ta),
		 "%sirq264: igb0:rxq0  4294957296  20000\nirq265: igb0:rxq1  5000000000  1\n",
		 head);
	snprintf(tb, sizeof(tb), "%sirq264: igb0:rxq0  10000  20000\nirq265: igb0:rxq1  100  1\n",
		 head);
	ck_assert_int_eq(fws_telem_parse_section(FWS_TELEM_OS_FREEBSD, FWS_TELEM_INTR, ta, a), 0);
	ck_assert_int_eq(fws_telem_parse_section(FWS_TELEM_OS_FREEBSD, FWS_TELEM_INTR, tb, b), 0);
	ck_assert_int_eq(fws_telem_add(&tm, a, 0, b, 1, FWS_TELEM_MEASURE), 0);
	ck_assert(fabs(tm.secs[0].irq_ps - 20000) < 1e-3);
	fws_telem_free(&tm);
	free(a);
	free(b);
}
END_TEST

/* Figures beyond the report's own ranges (issue 52, item 9) are no figures, said where they
 * are read: a run never writes a report its reader refuses. */
START_TEST(test_telem_ranges)
{
	struct fws_telem_raw *r = calloc(1, sizeof(*r));

	ck_assert_int_eq(fws_telem_parse_section(FWS_TELEM_OS_LINUX, FWS_TELEM_STATES,
						 "9223372036854775808\n", r),
			 -22);
	ck_assert_str_eq(r->why[FWS_TELEM_STATES],
			 "nf_conntrack_count 9223372036854775808: beyond 10^12");
	ck_assert_int_eq(fws_telem_parse_section(FWS_TELEM_OS_FREEBSD, FWS_TELEM_STATES,
						 "State Table  Total  Rate\n"
						 "  current entries  10000000000000\n",
						 r),
			 -22);
	ck_assert_str_eq(r->why[FWS_TELEM_STATES],
			 "pfctl -si: 10000000000000 current entries: beyond 10^12");
	ck_assert_int_eq(
		fws_telem_parse_section(FWS_TELEM_OS_LINUX, FWS_TELEM_DROPS,
					"Inter-|\n face |\n  eth0: 1 2 3 3000000000000000000 "
					"0 0 0 0 1 2 0 0 0 0 0 0\n",
					r),
		-22);
	ck_assert_str_eq(r->why[FWS_TELEM_DROPS], "eth0: a drop or error counter beyond 10^15");
	ck_assert(FWS_TELEM_STATES_MAX == 1e12 && FWS_TELEM_COUNT_MAX == 1e15);
	free(r);
}
END_TEST

/* FreeBSD memory in use of the pages the VM manages (v_page_count, the appliance GUI's
 * basis), hw.physmem's where the DUT does not say it (issue 52, item 10). */
START_TEST(test_telem_memory_basis)
{
	struct fws_telem_raw *r = calloc(1, sizeof(*r));

	ck_assert_int_eq(fws_telem_parse_section(FWS_TELEM_OS_FREEBSD, FWS_TELEM_MEM,
						 "hw.physmem: 8465772544\nhw.pagesize: 4096\n"
						 "vm.stats.vm.v_page_count: 2047000\n"
						 "vm.stats.vm.v_free_count: 1500000\n"
						 "vm.stats.vm.v_inactive_count: 200000\n",
						 r),
			 0);
	ck_assert(fabs(r->mem_used_pct - 100.0 * (1 - 1700000.0 / 2047000)) < 1e-9);
	free(r);
}
END_TEST

/* Interrupt sources at 0/s are not among the busiest (issue 52, item 10). */
START_TEST(test_telem_quiet_sources)
{
	static const char head[] = "interrupt                          total       rate\n";
	struct fws_telem_raw *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct fws_telem tm = {.os = FWS_TELEM_OS_FREEBSD};
	char ta[512], tb[512];

	snprintf(ta, sizeof(ta), "%sirq1: a  1000  0\nirq2: b  1000  0\nirq3: c 1000 0\n", head);
	snprintf(tb, sizeof(tb), "%sirq1: a  1100  0\nirq2: b  1000  0\nirq3: c 1001 0\n", head);
	ck_assert_int_eq(fws_telem_parse_section(FWS_TELEM_OS_FREEBSD, FWS_TELEM_INTR, ta, a), 0);
	ck_assert_int_eq(fws_telem_parse_section(FWS_TELEM_OS_FREEBSD, FWS_TELEM_INTR, tb, b), 0);
	ck_assert_int_eq(fws_telem_add(&tm, a, 0, b, 4, FWS_TELEM_MEASURE), 0);
	fws_telem_summarize(&tm);
	ck_assert_uint_eq(tm.sum.n_top, 1); /* c's 0.25/s rounds to 0: not busy */
	ck_assert_str_eq(tm.sum.top[0].name, "irq1: a");
	fws_telem_free(&tm);
	free(a);
	free(b);
}
END_TEST

static Suite *
suite_telem(void)
{
	Suite *s = suite_create("telem");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_telem_platform);
	tcase_add_test(tc, test_telem_freebsd_snapshot);
	tcase_add_test(tc, test_telem_freebsd_second);
	tcase_add_test(tc, test_telem_freebsd_summary);
	tcase_add_test(tc, test_telem_linux_snapshot);
	tcase_add_loop_test(tc, test_telem_broken, 0, sizeof(broken) / sizeof(broken[0]));
	tcase_add_test(tc, test_telem_sections);
	tcase_add_test(tc, test_telem_nothing_measured);
	tcase_add_test(tc, test_telem_full_cores);
	tcase_add_test(tc, test_telem_freebsd_256_cores);
	tcase_add_test(tc, test_telem_linux_256_cpus);
	tcase_add_test(tc, test_telem_cut_line);
	tcase_add_test(tc, test_telem_core_missing_once);
	tcase_add_test(tc, test_telem_wrap);
	tcase_add_test(tc, test_telem_ranges);
	tcase_add_test(tc, test_telem_memory_basis);
	tcase_add_test(tc, test_telem_quiet_sources);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_telem)
