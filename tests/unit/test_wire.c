/* SPDX-License-Identifier: BSD-3-Clause */
/* The control stream: blobs round-trip at every length, malformed ones are refused, lines
 * are read whole however they arrive, and the end of a stream or a timeout is said. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

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
	v = fws_wire_recv(&rd, 1000, -1, NULL, NULL, &why);
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

static Suite *
suite_wire(void)
{
	Suite *s = suite_create("wire");
	TCase *tc = tcase_create("wire");

	tcase_add_test(tc, test_wire_blob);
	tcase_add_test(tc, test_wire_unblob_bad);
	tcase_add_test(tc, test_wire_lines);
	tcase_add_test(tc, test_wire_attachment);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_wire)
