/* SPDX-License-Identifier: BSD-3-Clause */
/* ptp4l's state as pmc prints it (samples from linuxptp 3.1.1 on a veth pair, software
 * timestamps), what counts as synchronized, and the capture of a command's output. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include "fws_ptp.h"
#include "fws_spawn.h"
#include "unit.h"

#define TS(off, present, gm)                                                                       \
	"sending: GET TIME_STATUS_NP\n"                                                            \
	"\tbe1311.fffe.ea2e88-0 seq 0 RESPONSE MANAGEMENT TIME_STATUS_NP \n"                       \
	"\t\tmaster_offset              " off "\n"                                                 \
	"\t\tingress_time               1796214106325737956\n"                                     \
	"\t\tgmPresent                  " present "\n"                                             \
	"\t\tgmIdentity                 " gm "\n"
#define PORT(st)                                                                                   \
	"\tbe1311.fffe.ea2e88-1 seq 1 RESPONSE MANAGEMENT PORT_DATA_SET \n"                        \
	"\t\tportIdentity            be1311.fffe.ea2e88-1\n"                                       \
	"\t\tportState               " st "\n"                                                     \
	"\t\tlogMinDelayReqInterval  0\n"
#define DDS(id)                                                                                    \
	"\tbe1311.fffe.ea2e88-0 seq 2 RESPONSE MANAGEMENT DEFAULT_DATA_SET \n"                     \
	"\t\ttwoStepFlag             1\n"                                                          \
	"\t\tclockIdentity           " id "\n"

#define SLAVE_ID "be1311.fffe.ea2e88"
#define GM_ID "de6be0.fffe.9a9047"

START_TEST(test_ptp_slave)
{
	struct fws_ptp_state s;
	char msg[256];
	double err = -1;

	ck_assert_int_eq(fws_ptp_parse(TS("-352", "true", GM_ID) PORT("SLAVE") DDS(SLAVE_ID), &s),
			 0);
	ck_assert_str_eq(s.port_state, "SLAVE");
	ck_assert_str_eq(s.gm, GM_ID);
	ck_assert_str_eq(s.identity, SLAVE_ID);
	ck_assert(s.gm_present && !s.all_master);
	ck_assert_int_eq(fws_ptp_check(&s, &err, msg, sizeof(msg)), 0);
	ck_assert(fabs(err - 352) < 1e-9);
}
END_TEST

START_TEST(test_ptp_not_synchronized)
{
	struct fws_ptp_state s;
	char msg[256];
	double err;

	/* A slave whose servo has not locked (ptp4l's free_running, or the first seconds). */
	ck_assert_int_eq(
		fws_ptp_parse(TS("1768", "true", GM_ID) PORT("UNCALIBRATED") DDS(SLAVE_ID), &s), 0);
	ck_assert_int_eq(fws_ptp_check(&s, &err, msg, sizeof(msg)), -1);
	ck_assert_ptr_nonnull(strstr(msg, "ptp4l's port is UNCALIBRATED"));
	/* Its own master before it heard one: MASTER, but the grandmaster is another's. */
	ck_assert_int_eq(fws_ptp_parse(TS("0", "false", GM_ID) PORT("MASTER") DDS(SLAVE_ID), &s),
			 0);
	ck_assert_int_eq(fws_ptp_check(&s, &err, msg, sizeof(msg)), -1);
	ck_assert_ptr_nonnull(strstr(msg, "MASTER with no grandmaster"));
	/* LISTENING: no master at all. */
	ck_assert_int_eq(
		fws_ptp_parse(TS("0", "false", SLAVE_ID) PORT("LISTENING") DDS(SLAVE_ID), &s), 0);
	ck_assert_int_eq(fws_ptp_check(&s, &err, msg, sizeof(msg)), -1);
}
END_TEST

START_TEST(test_ptp_grandmaster)
{
	struct fws_ptp_state s;
	char msg[256];
	double err = -1;

	ck_assert_int_eq(fws_ptp_parse(TS("0", "false", GM_ID) PORT("MASTER") DDS(GM_ID), &s), 0);
	ck_assert(s.all_master);
	ck_assert_int_eq(fws_ptp_check(&s, &err, msg, sizeof(msg)), 0);
	ck_assert(err == 0);
	/* Two ports, one SLAVE (a boundary clock): the SLAVE one is its state. */
	ck_assert_int_eq(fws_ptp_parse(TS("12", "true", GM_ID) PORT("MASTER") PORT("SLAVE")
					       DDS(SLAVE_ID),
				       &s),
			 0);
	ck_assert_str_eq(s.port_state, "SLAVE");
	ck_assert_int_eq(fws_ptp_check(&s, &err, msg, sizeof(msg)), 0);
}
END_TEST

START_TEST(test_ptp_parse_incomplete)
{
	struct fws_ptp_state s;

	ck_assert_int_eq(fws_ptp_parse("", &s), -EINVAL);
	ck_assert_int_eq(fws_ptp_parse("sending: GET TIME_STATUS_NP\n", &s), -EINVAL);
	ck_assert_int_eq(fws_ptp_parse(TS("5", "true", GM_ID) PORT("SLAVE"), &s), -EINVAL);
	ck_assert_int_eq(fws_ptp_parse(PORT("SLAVE") DDS(SLAVE_ID), &s), -EINVAL);
	ck_assert_int_eq(fws_ptp_parse(TS("nan", "true", GM_ID) PORT("SLAVE") DDS(SLAVE_ID), &s),
			 -EINVAL);
	/* A line longer than the parser's buffer and keys as prefixes are not fields. */
	ck_assert_int_eq(fws_ptp_parse("\t\tmaster_offsetX 5\n\t\tportStateful SLAVE\n", &s),
			 -EINVAL);
}
END_TEST

/* No ptp4l behind the socket: refused in one line naming it (or pmc's absence). */
START_TEST(test_ptp_query_no_ptp4l)
{
	struct fws_ptp_state s;
	char msg[256];
	double err;

	ck_assert_int_eq(fws_ptp_query("/nonexistent/ptp4l", 24, &s, &err, msg, sizeof(msg)), -1);
	ck_assert(strstr(msg, "no answer from ptp4l (is it running, with that uds_address, in PTP "
			      "domain 24?)") ||
		  strstr(msg, "pmc: not found"));
	ck_assert_ptr_null(strchr(msg, '\n'));
}
END_TEST

START_TEST(test_spawn_capture)
{
	char *echo[] = {"sh", "-c", "echo out; echo err >&2; exit 3", NULL};
	char *hang[] = {"sh", "-c", "echo early; exec sleep 30", NULL};
	char *missing[] = {"/nonexistent/binary", NULL};
	char *big[] = {"sh", "-c", "yes | head -c 100000", NULL};
	char buf[64];
	int st;

	ck_assert_int_eq(fws_spawn_capture(echo, buf, sizeof(buf), 5000, &st), 0);
	ck_assert_str_eq(buf, "out\n"); /* stderr is not captured */
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 3);
	ck_assert_int_eq(fws_spawn_capture(hang, buf, sizeof(buf), 300, &st), -1);
	ck_assert_int_eq(errno, ETIMEDOUT);
	ck_assert_str_eq(buf, "early\n");
	ck_assert_int_eq(fws_spawn_capture(missing, buf, sizeof(buf), 5000, &st), 0);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 127);
	/* More than the buffer: truncated, the writer killed at once (not after the timeout),
	 * and said so (EMSGSIZE: a caller must not read the kill as the command's own failure). */
	ck_assert_int_eq(fws_spawn_capture(big, buf, sizeof(buf), 60000, &st), -1);
	ck_assert_int_eq(errno, EMSGSIZE);
	ck_assert_uint_eq(strlen(buf), sizeof(buf) - 1);
	ck_assert(!WIFEXITED(st) || WEXITSTATUS(st) != 0);
}
END_TEST

static Suite *
suite_ptp(void)
{
	Suite *s = suite_create("ptp");
	TCase *tc = tcase_create("ptp");

	tcase_add_test(tc, test_ptp_slave);
	tcase_add_test(tc, test_ptp_not_synchronized);
	tcase_add_test(tc, test_ptp_grandmaster);
	tcase_add_test(tc, test_ptp_parse_incomplete);
	tcase_add_test(tc, test_ptp_query_no_ptp4l);
	tcase_add_test(tc, test_spawn_capture);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_ptp)
