/* SPDX-License-Identifier: BSD-3-Clause */
/* The control stream: blobs round-trip at every length, malformed ones are refused, lines
 * are read whole however they arrive, and the end of a stream or a timeout is said; a
 * remote agent's heartbeat tells a cut link from a slow agent. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fws_agent_remote.h"
#include "fws_config.h"
#include "fws_wire.h"
#include "unit.h"

START_TEST(test_wire_blob)
{
	uint8_t in[64], out[64];
	unsigned int n, i;

	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 37 + 11);
	for (n = 0; n <= sizeof(in); n++) {
		json_t *b = fws_wire_blob(in, n);

		ck_assert_ptr_nonnull(b);
		memset(out, 0, sizeof(out));
		ck_assert_int_eq(fws_wire_unblob(b, out, n), 0);
		ck_assert_mem_eq(in, out, n);
		if (n > 3) /* a blob of another length does not fit */
			ck_assert_int_eq(fws_wire_unblob(b, out, n - 3), -EINVAL);
		json_decref(b);
	}
}
END_TEST

START_TEST(test_wire_unblob_bad)
{
	static const char *const bad[] = {"QUJD!", "QUJ", "Q===", "", "QU=D"};
	uint8_t out[8];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *v = json_string(bad[i]);

		ck_assert_int_eq(fws_wire_unblob(v, out, 3), -EINVAL);
		json_decref(v);
	}
	ck_assert_int_eq(fws_wire_unblob(NULL, out, 3), -EINVAL);
}
END_TEST

START_TEST(test_wire_lines)
{
	static const char part1[] = "{\"id\": 8,", part2[] = " \"op\": \"x\"}\n[1]\n";
	struct fws_wire_rd rd = {0};
	const char *why = NULL;
	int fd[2];
	json_t *v, *m = json_pack("{s:i, s:s}", "id", 7, "op", "poll");

	ck_assert_int_eq(pipe(fd), 0);
	rd.fd = fd[0];
	ck_assert_int_eq(fws_wire_send(fd[1], m), 0);
	ck_assert_int_eq(write(fd[1], part1, strlen(part1)), (ssize_t)strlen(part1));
	v = fws_wire_recv(&rd, 1000, -1, NULL, NULL, &why);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(json_integer_value(json_object_get(v, "id")), 7);
	json_decref(v);
	ck_assert_ptr_null(fws_wire_recv(&rd, 50, -1, NULL, NULL, &why));
	ck_assert_str_eq(why, "timeout");
	ck_assert_int_eq(write(fd[1], part2, strlen(part2)), (ssize_t)strlen(part2));
	/* A timeout of 0 (an agent that serves polls so) still reads what is there. */
	v = fws_wire_recv(&rd, 0, -1, NULL, NULL, &why);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(json_integer_value(json_object_get(v, "id")), 8);
	json_decref(v);
	ck_assert_ptr_null(fws_wire_recv(&rd, 1000, -1, NULL, NULL, &why));
	ck_assert_str_eq(why, "a line that is not a JSON object");
	close(fd[1]);
	ck_assert_ptr_null(fws_wire_recv(&rd, 1000, -1, NULL, NULL, &why));
	ck_assert_str_eq(why, "end of stream");
	close(fd[0]);
	fws_wire_rd_free(&rd);
	json_decref(m);
}
END_TEST

/* An answer's attachment: raw bytes after its line, read whole however they arrive. */
START_TEST(test_wire_attachment)
{
	static uint8_t big[300000];
	struct fws_wire_rd rd = {0};
	const char *why = NULL;
	json_t *m = json_pack("{s:i}", "id", 1), *v;
	unsigned int i;
	int fd[2];

	for (i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 7);
	ck_assert_int_eq(pipe(fd), 0);
	rd.fd = fd[0];
	if (fork() == 0) { /* a writer: the pipe holds less than the attachment */
		close(fd[0]);
		_exit(fws_wire_send_bin(fd[1], m, big, sizeof(big)) == 0 &&
				      fws_wire_send_bin(fd[1], m, big, 0) == 0
			      ? 0
			      : 1);
	}
	close(fd[1]);
	v = fws_wire_recv(&rd, 5000, -1, NULL, NULL, &why);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(rd.bin_len, sizeof(big));
	ck_assert_mem_eq(rd.bin, big, sizeof(big));
	json_decref(v);
	v = fws_wire_recv(&rd, 5000, -1, NULL, NULL, &why);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(rd.bin_len, 0);
	json_decref(v);
	ck_assert_ptr_null(fws_wire_recv(&rd, 5000, -1, NULL, NULL, &why));
	ck_assert_str_eq(why, "end of stream");
	close(fd[0]);
	fws_wire_rd_free(&rd);
	json_decref(m);
}
END_TEST

/* A large attachment of mostly zeros (a host's counts: a 200 KiB latency histogram per
 * stream) goes packed and arrives as it was: runs of zeros of every length, at its start and
 * its end, single zeros between values. */
START_TEST(test_wire_attachment_packed)
{
	static uint8_t big[400000];
	struct fws_wire_rd rd = {0};
	const char *why = NULL;
	json_t *m = json_pack("{s:i}", "id", 1), *v;
	unsigned int i, run = 1;
	int fd[2];

	for (i = 17; i < sizeof(big) - 9; i += run++ % 37 + 1)
		big[i] = (uint8_t)(i % 255 + 1);
	ck_assert_int_eq(pipe(fd), 0);
	rd.fd = fd[0];
	if (fork() == 0) {
		close(fd[0]);
		_exit(fws_wire_send_bin(fd[1], m, big, sizeof(big)) == 0 ? 0 : 1);
	}
	close(fd[1]);
	v = fws_wire_recv(&rd, 5000, -1, NULL, NULL, &why);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(json_integer_value(json_object_get(v, "raw")), sizeof(big));
	ck_assert_int_lt(json_integer_value(json_object_get(v, "bin")), sizeof(big) / 2);
	ck_assert_uint_eq(rd.bin_len, sizeof(big));
	ck_assert_mem_eq(rd.bin, big, sizeof(big));
	json_decref(v);
	close(fd[0]);
	fws_wire_rd_free(&rd);
	json_decref(m);
}
END_TEST

/* A packed attachment that does not fill its length, or claims more than it holds: the
 * stream is broken, said so, never a short or overrun buffer. */
START_TEST(test_wire_attachment_packed_bad)
{
	static const struct {
		const char *line;
		const char *bytes;
		size_t n;
		const char *why;
	} cases[] = {
		{"{\"id\":1,\"raw\":100,\"bin\":3}\n", "\x01\x07\x05", 3,
		 "an attachment that does not unpack to its length"},
		{"{\"id\":1,\"raw\":4,\"bin\":3}\n", "\x01\x07\x09", 3,
		 "an attachment that does not unpack to its length"},
		{"{\"id\":1,\"raw\":100,\"bin\":2}\n", "\x7f\x01", 2,
		 "an attachment that does not unpack to its length"},
		{"{\"id\":1,\"raw\":8,\"bin\":2}\n", "\x80\x80", 2,
		 "an attachment that does not unpack to its length"},
		{"{\"id\":1,\"raw\":-1,\"bin\":2}\n", "\x00\x00", 2,
		 "an attachment of a bad unpacked length"},
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fws_wire_rd rd = {0};
		const char *why = NULL;
		int fd[2];

		ck_assert_int_eq(pipe(fd), 0);
		ck_assert_int_eq(write(fd[1], cases[i].line, strlen(cases[i].line)),
				 (ssize_t)strlen(cases[i].line));
		ck_assert_int_eq(write(fd[1], cases[i].bytes, cases[i].n), (ssize_t)cases[i].n);
		close(fd[1]);
		rd.fd = fd[0];
		ck_assert_ptr_null(fws_wire_recv(&rd, 5000, -1, NULL, NULL, &why));
		ck_assert_str_eq(why, cases[i].why);
		close(fd[0]);
		fws_wire_rd_free(&rd);
	}
}
END_TEST

/* An endless line (issue 39: an agent that writes without a newline took 20 s of CPU before
 * a vague error, the reader rescanning its whole buffer at every read): refused once it
 * passes the line limit, said so. */
START_TEST(test_wire_endless_line)
{
	struct fws_wire_rd rd = {0};
	const char *why = NULL;
	int fd[2];

	ck_assert_int_eq(pipe(fd), 0);
	rd.fd = fd[0];
	if (fork() == 0) { /* 40 MiB of 'x', no newline */
		static char chunk[1 << 16];

		close(fd[0]);
		memset(chunk, 'x', sizeof(chunk));
		for (unsigned int i = 0; i < 640; i++)
			if (write(fd[1], chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk))
				_exit(0);
		_exit(0);
	}
	close(fd[1]);
	ck_assert_ptr_null(fws_wire_recv(&rd, 60000, -1, NULL, NULL, &why));
	ck_assert_str_eq(why, "a line longer than 32 MiB without its end: not an agent's");
	close(fd[0]);
	fws_wire_rd_free(&rd);
}
END_TEST

/*
 * The heartbeat, against a model agent (a Python script on the control stream, reached by
 * its host's "command", as ssh would reach the real one; no EAL on either side). "silent"
 * beats once after hello and then never answers its setup: lost once it has been quiet for
 * FWS_AGENT_SILENT_MS, long before the setup's two minutes. "slow" beats twice a second
 * and answers its setup after 7 s, more than that silence: a slow agent is not a cut link.
 */
static const char fake_agent[] =
	"import json, sys, threading, time\n"
	"lock = threading.Lock()\n"
	"def out(o):\n"
	"    with lock:\n"
	"        sys.stdout.write(json.dumps(o) + '\\n'); sys.stdout.flush()\n"
	"def beat():\n"
	"    for n in range(100):\n"
	"        time.sleep(0.5); out({'ev': 'beat', 'n': n})\n"
	"for line in sys.stdin:\n"
	"    q = json.loads(line)\n"
	"    if q['op'] == 'hello':\n"
	"        out({'id': q['id'], 'rc': 0, 'proto': q['proto'], 'fwstress': q['fwstress'],\n"
	"             'dpdk': 'model', 'layout': q['layout'], 'hostname': 'm', 'kernel': 'm'})\n"
	"        if sys.argv[1] == 'silent': out({'ev': 'beat', 'n': 0})\n"
	"        else: threading.Thread(target=beat, daemon=True).start()\n"
	"    elif q['op'] == 'setup' and sys.argv[1] == 'slow':\n"
	"        time.sleep(7); out({'id': q['id'], 'rc': 0, 'hz': 10**9, 'hz_dpdk': 10**9})\n"
	"    elif q['op'] == 'setup' and sys.argv[1] == 'nohz':\n"
	"        out({'id': q['id'], 'rc': 0, 'hz': 0})\n"
	"    elif q['op'] == 'bye':\n"
	"        out({'id': q['id'], 'rc': 0}); break\n";

static struct fws_cfg *
fake_cfg(const char *mode)
{
	json_t *j =
		json_pack("{s:[{s:s, s:[s,s,s,s]}], s:[{s:s, s:s, s:s}, {s:s, s:s, s:s, s:s}], "
			  "s:b}",
			  "hosts", "name", "site2", "command", "python3", "-c", fake_agent, mode,
			  "ports", "name", "lan", "device", "ringpair:hb:a", "next_hop_mac",
			  "02:00:00:00:00:02", "name", "wan", "device", "ringpair:hb:b", "host",
			  "site2", "next_hop_mac", "02:00:00:00:00:01", "path_check", 0);
	char *txt = json_dumps(j, 0), err[256];
	struct fws_cfg *cfg = fws_config_parse(txt, strlen(txt), err, sizeof(err));

	ck_assert_msg(cfg != NULL, "%s", err);
	free(txt);
	json_decref(j);
	return cfg;
}

static double
mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

START_TEST(test_wire_heartbeat_silence_is_a_cut_link)
{
	struct fws_cfg *cfg = fake_cfg("silent");
	struct fws_err e = {0};
	struct fws_agent *a = fws_agent_remote(cfg, 1, NULL, &e);
	double t0 = mono_s(), t;

	ck_assert_msg(a != NULL, "%s", e.msg);
	ck_assert_int_eq(fws_agent_remote_ready(a, &e), -EPIPE);
	t = mono_s() - t0;
	ck_assert_double_ge(t, FWS_AGENT_SILENT_MS / 1e3 - 0.6);
	ck_assert_double_lt(t, FWS_AGENT_SILENT_MS / 1e3 + 3);
	ck_assert_msg(strstr(e.msg, "host site2: agent lost: no heartbeat for 5000 ms") != NULL,
		      "%s", e.msg);
	ck_assert_msg(strstr(e.msg, "waiting for its answer to setup") != NULL, "%s", e.msg);
	a->ops->destroy(a);
	fws_config_free(cfg);
}
END_TEST

START_TEST(test_wire_heartbeat_slow_agent_lives)
{
	struct fws_cfg *cfg = fake_cfg("slow");
	struct fws_err e = {0};
	struct fws_agent *a = fws_agent_remote(cfg, 1, NULL, &e);
	double t0 = mono_s();

	ck_assert_msg(a != NULL, "%s", e.msg);
	ck_assert_msg(fws_agent_remote_ready(a, &e) == 0, "%s", e.msg);
	ck_assert_double_ge(mono_s() - t0, 6.5);
	ck_assert_ptr_null(fws_agent_lost(a));
	a->ops->destroy(a);
	fws_config_free(cfg);
}
END_TEST

/* An answer whose field is out of range loses the agent, the reason naming the op and the
 * field: a TSC rate of 0 never reaches the trial's sums. */
START_TEST(test_wire_answer_checked)
{
	struct fws_cfg *cfg = fake_cfg("nohz");
	struct fws_err e = {0};
	struct fws_agent *a = fws_agent_remote(cfg, 1, NULL, &e);

	ck_assert_msg(a != NULL, "%s", e.msg);
	ck_assert_int_eq(fws_agent_remote_ready(a, &e), -EPIPE);
	ck_assert_msg(strstr(e.msg, "answer to setup: \"hz\" is not an integer from 1 to") != NULL,
		      "%s", e.msg);
	ck_assert_ptr_nonnull(fws_agent_lost(a));
	a->ops->destroy(a);
	fws_config_free(cfg);
}
END_TEST

/* The answer table read directly: present and in range, missing, of another type. */
START_TEST(test_wire_answer_read)
{
	struct fws_agent_answer v;
	struct fws_err e = {0};
	json_t *ok = json_pack("{s:i, s:f}", "rc", 0, "late_ns", 12.5);
	json_t *neg = json_pack("{s:i, s:f}", "rc", 0, "late_ns", -3.0);
	json_t *str = json_pack("{s:i, s:s}", "rc", 0, "tsc", "7");

	memset(&v, 0, sizeof(v));
	ck_assert_int_eq(fws_agent_answer_read(FWS_OP_phase, ok, &v, &e), 0);
	ck_assert_double_eq(v.f[FWS_ANS_phase_late_ns], 12.5);
	ck_assert_int_eq(fws_agent_answer_read(FWS_OP_phase, neg, &v, &e), -EINVAL);
	ck_assert_msg(strstr(e.msg, "answer to phase: \"late_ns\" is not a number") != NULL, "%s",
		      e.msg);
	ck_assert_int_eq(fws_agent_answer_read(FWS_OP_tsc, str, &v, &e), -EINVAL);
	ck_assert_int_eq(fws_agent_answer_read(FWS_OP_tsc, ok, &v, &e), -EINVAL); /* none */
	ck_assert_int_eq(fws_agent_answer_read(FWS_OP_stop, ok, &v, &e), 0);      /* no fields */
	json_decref(ok);
	json_decref(neg);
	json_decref(str);
}
END_TEST

static Suite *
suite_wire(void)
{
	Suite *s = suite_create("wire");
	TCase *tc = tcase_create("wire");

	tcase_add_test(tc, test_wire_blob);
	tcase_add_test(tc, test_wire_unblob_bad);
	tcase_add_test(tc, test_wire_lines);
	tcase_add_test(tc, test_wire_attachment);
	tcase_add_test(tc, test_wire_attachment_packed);
	tcase_add_test(tc, test_wire_attachment_packed_bad);
	tcase_add_test(tc, test_wire_endless_line);
	tcase_add_test(tc, test_wire_answer_read);
	suite_add_tcase(s, tc);
	tc = tcase_create("heartbeat");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_wire_heartbeat_silence_is_a_cut_link);
	tcase_add_test(tc, test_wire_heartbeat_slow_agent_lives);
	tcase_add_test(tc, test_wire_answer_checked);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_wire)
