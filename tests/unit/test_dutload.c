/* SPDX-License-Identifier: BSD-3-Clause */
/* DUT load: vmstat output of FreeBSD (OPNsense, pfSense) and Linux, parsed by header. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fws_dutload.h"
#include "unit.h"

static const struct {
	const char *name, *text;
	int ok;
	double us, sy, id;
} cases[] = {
	{"FreeBSD vmstat -w 60 -c 2 (OPNsense)",
	 " procs    memory    page                      disks     faults       cpu\n"
	 " r  b  w  avm  fre  flt  re  pi  po   fr   sr ada0 pass0   in   sy   cs us sy id\n"
	 " 0  0  0 514M 1.2G   25   0   0   0   26    6    0     0   11  126  109  0  0 100\n"
	 " 1  0  0 514M 1.2G    2   0   0   0    0    5    0     0 8231 4103 9120 13 41 46\n",
	 1, 13, 41, 46},
	{"FreeBSD 13 with two disks",
	 "procs    memory    page                    disks       faults       cpu\n"
	 "r  b  w  avm  fre  flt  re  pi  po   fr   sr nda0 nda1   in   sy   cs us sy id\n"
	 "2  0  0 2.1G  13G  141   0   0   0  177  17    0    0  254  889 1211  1  3 96\n"
	 "0  0  0 2.1G  13G   12   0   0   0    3  22    0    0 30012 210 60211  0 72 28\n",
	 1, 0, 72, 28},
	{"Linux vmstat 60 2",
	 "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n"
	 " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n"
	 " 1  0      0 21906588   4292 553548    0    0   253   100  140  180 19  2 79  0  0\n"
	 " 1  0      0 21906588   4292 553548    0    0     0     0   68   84  1  0 99  0  0\n",
	 1, 1, 0, 99},
	{"Linux vmstat -w (with gu)",
	 "--procs-- -----------------------memory---------------------- ---swap-- -----io---- "
	 "-system-- ----------cpu----------\n"
	 "   r    b         swpd         free         buff        cache   si   so    bi    bo   "
	 "in   cs  us  sy  id  wa  st  gu\n"
	 "   1    0            0     21908572         4292       553556    0    0   253   100  "
	 "140  180  19   2  79   0   0   0\n"
	 "   2    0            0     21908572         4292       553556    0    0     0     0   "
	 "61   76  35  40  25   0   0   0\n",
	 1, 35, 40, 25},
	{"ssh noise, then vmstat",
	 "Warning: Permanently added 'fw' (ED25519) to the list of known hosts.\n"
	 " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n"
	 " 3  0      0 100 100 100    0    0     0     0   1 1 50 25 25  0  0\n",
	 1, 50, 25, 25},
	{"header only", " r b us sy id\n", 0, 0, 0, 0},
	{"no header", "ssh: connect to host fw port 22: Connection refused\n", 0, 0, 0, 0},
	{"empty", "", 0, 0, 0, 0},
	{"truncated sample", " r  b us sy id\n 1  0 12 30\n", 0, 0, 0, 0},
	{"garbage in the columns", " r  b us sy id\n 1  0 x y z\n", 0, 0, 0, 0},
};

START_TEST(test_dutload_parse)
{
	struct fws_dutload d;
	int rc = fws_dutload_parse(cases[_i].text, &d);

	ck_assert_msg((rc == 0) == cases[_i].ok, "%s: rc %d (%s)", cases[_i].name, rc, d.error);
	ck_assert_int_eq(d.ok, cases[_i].ok);
	if (!cases[_i].ok) {
		ck_assert_msg(d.error[0] != '\0', "%s: no reason given", cases[_i].name);
		return;
	}
	ck_assert_double_eq(d.us, cases[_i].us);
	ck_assert_double_eq(d.sy, cases[_i].sy);
	ck_assert_double_eq(d.id, cases[_i].id);
	ck_assert_double_eq(d.cpu, 100 - cases[_i].id);
}
END_TEST

START_TEST(test_dutload_run)
{
	struct fws_dutload_proc p;
	struct fws_dutload d;

	/* {seconds} is replaced; the last sample counts. */
	ck_assert_int_eq(fws_dutload_start(&p,
					   "echo ' r b us sy id'; echo ' 0 0 1 1 98'; "
					   "echo ' 0 0 {seconds} 20 70'",
					   10.7),
			 0);
	fws_dutload_finish(&p, 5, &d);
	ck_assert_msg(d.ok, "%s", d.error);
	ck_assert_double_eq(d.us, 10);
	ck_assert_double_eq(d.cpu, 30);
	/* A failing probe is reported with its status and first line. */
	ck_assert_int_eq(fws_dutload_start(&p, "echo 'Connection refused' >&2; exit 255", 5), 0);
	fws_dutload_finish(&p, 5, &d);
	ck_assert(!d.ok);
	ck_assert_ptr_nonnull(strstr(d.error, "exited with status 255: Connection refused"));
	/* One that hangs is killed at the timeout. */
	ck_assert_int_eq(fws_dutload_start(&p, "sleep 30", 1), 0);
	fws_dutload_finish(&p, 0.3, &d);
	ck_assert(!d.ok);
	ck_assert_ptr_nonnull(strstr(d.error, "killed"));
}
END_TEST

/* Processes of group pgid that still run (zombies waiting for their reaper do not count). */
static unsigned int
live_in_group(pid_t pgid)
{
	char cmd[128], line[64];
	unsigned int n = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "ps -e -o pgid=,stat= | awk '$1 == %d && $2 !~ /Z/'", (int)pgid);
	f = popen(cmd, "r");
	while (f && fgets(line, sizeof(line), f))
		n++;
	if (f)
		pclose(f);
	return n;
}

/* A hung probe is killed with what it started: nothing of its process group survives. */
START_TEST(test_dutload_kills_the_group)
{
	struct fws_dutload_proc p;
	struct fws_dutload d;
	pid_t pgid;

	ck_assert_int_eq(fws_dutload_start(&p, "sleep 30 & sleep 31; wait", 1), 0);
	pgid = p.pid;
	fws_dutload_finish(&p, 0.3, &d);
	ck_assert(!d.ok);
	usleep(200000);
	ck_assert_uint_eq(live_in_group(pgid), 0);
}
END_TEST

/* A probe that prints a lot is read as it goes, not killed as hung; the sample at the end
 * counts. */
START_TEST(test_dutload_chatty)
{
	struct fws_dutload_proc p;
	struct fws_dutload d;

	ck_assert_int_eq(fws_dutload_start(&p,
					   "head -c 1000000 /dev/zero | tr '\\0' x; echo; "
					   "echo ' r b us sy id'; echo ' 0 0 5 15 80'",
					   1),
			 0);
	fws_dutload_finish(&p, 10, &d);
	ck_assert_msg(d.ok, "%s", d.error);
	ck_assert_double_eq(d.cpu, 20);
}
END_TEST

static Suite *
suite_dutload(void)
{
	Suite *s = suite_create("dutload");
	TCase *tc = tcase_create("vmstat");

	tcase_add_loop_test(tc, test_dutload_parse, 0, (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_test(tc, test_dutload_run);
	tcase_add_test(tc, test_dutload_kills_the_group);
	tcase_add_test(tc, test_dutload_chatty);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_dutload)
