/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DUT telemetry (fws_telem.h): each section parser on the formats FreeBSD's and Linux's
 * manuals give (tests/data/telemetry: an OPNsense-like snapshot series written from them, two
 * snapshots of this Linux machine), on truncated and garbage output; the seconds between
 * snapshots, the measured phase's summary and its notes.
 */
#include <math.h>
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
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_telem)
