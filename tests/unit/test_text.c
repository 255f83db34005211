/* SPDX-License-Identifier: BSD-3-Clause */
/* Text from outside on its way to a terminal (issue 53, item 1): escapes, bounds; and the
 * log lines' text on its way to their sink (fws_log.h). */
#include <string.h>

#define FWS_LOGMOD "fws.test"
#include "fws_log.h"
#include "fws_text.h"
#include "unit.h"

static const struct {
	const char *in;
	size_t len;
	const char *out;
} cases[] = {
	{"fw-a.lab", 64, "fw-a.lab"},
	/* Clear screen, a title, a newline that would start a fake report line, a bell. */
	{"\x1b[2Jhost", 64, "\\x1b[2Jhost"},
	{"\x1b]0;owned\x07", 64, "\\x1b]0;owned\\x07"},
	{"fw\nWORSE 99 %", 64, "fw\\x0aWORSE 99 %"},
	{"tab\there\r", 64, "tab\\x09here\\x0d"},
	/* Bytes outside ASCII (not UTF-8 for jansson), DEL. */
	{"caf\xc3\xa9\x7f", 64, "caf\\xc3\\xa9\\x7f"},
	/* Bounded: what does not fit ends in "...", no \xNN cut in two. */
	{"abcdefghij", 8, "abcd..."},
	{"abcdefg", 8, "abcdefg"},
	{"ab\x1b"
	 "cdefg",
	 9, "ab..."},
	{"ab\x1b", 8, "ab\\x1b"},
	{"", 8, ""},
};

START_TEST(test_text_safe_cases)
{
	char out[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fws_text_safe(out, cases[i].len, cases[i].in, strlen(cases[i].in));
		ck_assert_msg(strcmp(out, cases[i].out) == 0, "case %zu: \"%s\", want \"%s\"", i,
			      out, cases[i].out);
		ck_assert_uint_lt(strlen(out), cases[i].len);
	}
}
END_TEST

START_TEST(test_text_safe_no_control_left)
{
	char in[256], out[1100];
	size_t i;

	for (i = 0; i < 255; i++)
		in[i] = (char)(i + 1);
	in[255] = '\0';
	fws_text_safe(out, sizeof(out), in, sizeof(in));
	for (i = 0; out[i]; i++)
		ck_assert((unsigned char)out[i] >= 0x20 && (unsigned char)out[i] < 0x7f);
	ck_assert_uint_eq(strlen(out), 95 + 160 * 4);
	/* n bounds what is read; NULL reads as "". */
	ck_assert_str_eq(fws_text_safe(out, 8, "abcdef", 3), "abc");
	ck_assert_str_eq(fws_text_safe(out, 8, NULL, 3), "");
}
END_TEST

START_TEST(test_text_clean_in_place)
{
	char s[16] = "x\x1b[31my";

	fws_text_clean(s, sizeof(s));
	ck_assert_str_eq(s, "x\\x1b[31my");
	char t[8] = "\x1b\x1b\x1b";
	fws_text_clean(t, sizeof(t));
	ck_assert_str_eq(t, "\\x1b...");
}
END_TEST

static struct {
	const char *mod;
	enum fws_log_level level;
	char line[2048];
	unsigned int n;
} got;

static void
sink(const char *mod, enum fws_log_level level, const char *line)
{
	got.mod = mod;
	got.level = level;
	strcpy(got.line, line);
	got.n++;
}

/* A line reaches the sink whole, prefixed, with its module and level; a long one is cut, its
 * newline kept; NULL puts stderr back (the sink no longer called). */
START_TEST(test_log_lines)
{
	char big[3000];

	fws_log_set_sink(sink);
	FWS_LOG(WARNING, "port %s: %u frames", "lan", 3u);
	ck_assert_str_eq(got.mod, "fws.test");
	ck_assert_int_eq(got.level, FWS_LOG_LVL_WARNING);
	ck_assert_str_eq(got.line, "fwstress: port lan: 3 frames\n");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	FWS_LOG(DEBUG, "%s", big);
	ck_assert_int_eq(got.level, FWS_LOG_LVL_DEBUG);
	ck_assert_uint_eq(strlen(got.line), 1023);
	ck_assert_int_eq(got.line[1022], '\n');
	ck_assert_int_eq(got.line[1021], 'x');
	fws_log_set_sink(NULL);
	FWS_LOG(DEBUG, "not shown");
	ck_assert_uint_eq(got.n, 2);
}
END_TEST

static Suite *
suite_text(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("safe");

	tcase_add_test(tc, test_text_safe_cases);
	tcase_add_test(tc, test_text_safe_no_control_left);
	tcase_add_test(tc, test_text_clean_in_place);
	tcase_add_test(tc, test_log_lines);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_text)
