/* SPDX-License-Identifier: BSD-3-Clause */
/* Blocklists: Spamhaus DROP's text and JSON-lines formats, bad lines by number, lookups. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fws_config.h"
#include "unit.h"

static bool
has(const struct fws_blocklist *bl, const char *a)
{
	uint8_t addr[16];
	bool v6 = strchr(a, ':') != NULL;

	ck_assert_int_eq(inet_pton(v6 ? AF_INET6 : AF_INET, a, addr), 1);
	return fws_blocklist_has(bl, addr, v6);
}

static int
parse(struct fws_blocklist *bl, const char *text, char *err)
{
	return fws_blocklist_parse(bl, text, strlen(text), "t", err, 256);
}

START_TEST(test_text_format)
{
	static const char drop[] = "; Spamhaus DROP List 2026/11/30\n"
				   "; Last-Modified: Mon, 30 Nov 2026\n"
				   "\n"
				   "1.10.16.0/20 ; SBL256894\r\n"
				   "  2.57.122.0/24 ; SBL636050\n"
				   "198.19.200.0/24;SBL000001\n"
				   "198.19.201.0/25";
	struct fws_blocklist bl = {0};
	char err[256];

	ck_assert_int_eq(parse(&bl, drop, err), 0);
	ck_assert_int_eq(bl.entries, 4);
	ck_assert(has(&bl, "1.10.16.0"));
	ck_assert(has(&bl, "1.10.31.255"));
	ck_assert(!has(&bl, "1.10.32.0"));
	ck_assert(!has(&bl, "1.10.15.255"));
	ck_assert(has(&bl, "198.19.200.77"));
	ck_assert(has(&bl, "198.19.201.127"));
	ck_assert(!has(&bl, "198.19.201.128"));
	ck_assert(!has(&bl, "198.19.1.1"));
	fws_blocklist_free(&bl);
}
END_TEST

START_TEST(test_json_format)
{
	static const char v4[] =
		"{\"cidr\":\"1.10.16.0/20\",\"sblid\":\"SBL256894\",\"rir\":\"apnic\"}\n"
		"{\"cidr\":\"2.57.122.0/24\",\"sblid\":\"SBL636050\",\"rir\":\"ripencc\"}\n"
		"{\"type\":\"metadata\",\"timestamp\":1764460800,\"size\":2,\"records\":2}\n";
	static const char v6[] =
		"{\"cidr\":\"2001:2:0:ff00::/56\",\"sblid\":\"SBL1\",\"rir\":\"lab\"}\n"
		"{\"type\":\"metadata\",\"records\":1}";
	struct fws_blocklist bl = {0};
	char err[256];

	ck_assert_int_eq(parse(&bl, v4, err), 0);
	ck_assert_int_eq(parse(&bl, v6, err), 0);
	ck_assert_int_eq(bl.v4, 2);
	ck_assert_int_eq(bl.v6, 1);
	ck_assert(has(&bl, "2.57.122.9"));
	ck_assert(has(&bl, "2001:2:0:ff00::1"));
	ck_assert(has(&bl, "2001:2:0:ffff:ffff::1"));
	ck_assert(!has(&bl, "2001:2:0:fe00::1"));
	ck_assert(!has(&bl, "2001:2:0:1::1"));
	fws_blocklist_free(&bl);
}
END_TEST

/* Every bad line is counted, the first three named by number; nothing half-loaded. */
START_TEST(test_bad_lines)
{
	static const char bad[] = "; header\n"
				  "1.2.3.0/24 ; SBL1\n"
				  "1.2.3.0/33 ; SBL2\n"
				  "not-an-address ; SBL3\n"
				  "{\"cidr\": 5}\n"
				  "{\"cidr\": \"1.2.3.4/8\"\n"
				  "5.6.7.0/24\n";
	struct fws_blocklist bl = {0};
	char err[256];

	ck_assert_int_eq(parse(&bl, bad, err), -EINVAL);
	ck_assert_ptr_nonnull(
		strstr(err, "blocklist t: 4 bad lines: line 3: \"1.2.3.0/33 ; SBL2\""));
	ck_assert_ptr_nonnull(strstr(err, "line 4: \"not-an-address ; SBL3\""));
	ck_assert_ptr_nonnull(strstr(err, "line 5:"));
	ck_assert_ptr_null(strstr(err, "line 6:"));
	ck_assert_ptr_nonnull(strstr(err, "; ..."));
	ck_assert_ptr_null(strchr(err, '\n'));
	fws_blocklist_free(&bl);
}
END_TEST

/* A long comment after a valid CIDR is a comment (issue 39: a 512-byte line was "not a
 * CIDR"); what is too long is the part before the ';', and it is said so. */
START_TEST(test_long_lines)
{
	struct fws_blocklist bl = {0};
	char text[2048], err[256];

	memset(text, 0, sizeof(text));
	strcpy(text, "198.19.200.0/24 ; ");
	memset(text + strlen(text), 'x', 1500);
	strcat(text, "\n");
	ck_assert_int_eq(parse(&bl, text, err), 0);
	ck_assert(has(&bl, "198.19.200.9"));
	fws_blocklist_free(&bl);
	memset(text, 0, sizeof(text));
	memset(text, '1', 600);
	strcat(text, " ; SBL1\n198.19.201.0/24\n");
	ck_assert_int_eq(parse(&bl, text, err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "line 1: "));
	ck_assert_ptr_nonnull(strstr(err, "is longer than 511 characters before its ';'"));
	fws_blocklist_free(&bl);
}
END_TEST

/* Overlapping and adjacent ranges merge; the two halves of the space are one range. */
START_TEST(test_merge_and_edges)
{
	static const char text[] = "10.0.0.0/8\n10.1.0.0/16\n11.0.0.0/8\n0.0.0.0/1\n128.0.0.0/1\n"
				   "::/1\n8000::/1\n";
	struct fws_blocklist bl = {0};
	char err[256];

	ck_assert_int_eq(parse(&bl, "10.0.0.0/8\n10.1.0.0/16\n11.0.0.0/8\n", err), 0);
	ck_assert_int_eq(bl.n, 1);
	ck_assert(has(&bl, "11.255.255.255"));
	ck_assert(!has(&bl, "12.0.0.0"));
	fws_blocklist_free(&bl);
	ck_assert_int_eq(parse(&bl, text, err), 0);
	ck_assert_int_eq(bl.n, 1);
	ck_assert(has(&bl, "255.255.255.255"));
	ck_assert(has(&bl, "ffff::1"));
	fws_blocklist_free(&bl);
}
END_TEST

/* Lists that block nothing (a failed download) or everything are refused, each with the
 * file and the reason; an SBL reference of any length is a comment. */
START_TEST(test_nothing_or_everything)
{
	static const char *const refused[][2] = {
		{"", "blocklist t: empty (a failed download?)"},
		{"; Spamhaus DROP\n; nothing today\n",
		 "blocklist t: no CIDR in it (2 lines of comments or metadata only: a failed "
		 "download?)"},
		{"{\"type\": \"metadata\", \"timestamp\": 1}\n",
		 "blocklist t: no CIDR in it (1 line of comments or metadata only: a failed "
		 "download?)"},
		{"1.2.3.0/24\n0.0.0.0/0 ; SBL1\n",
		 "blocklist t: 1 bad line: line 2: \"0.0.0.0/0 ; SBL1\" blocks every address, the "
		 "test's own too"},
		{"{\"cidr\": \"::/0\"}\n", "blocklist t: 1 bad line: line 1: \"{\"cidr\": "
					   "\"::/0\"}\" blocks every address, the "
					   "test's own too"},
	};
	static const char nul[8] = {0};
	struct fws_blocklist bl = {0};
	char err[256];
	unsigned int i;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		ck_assert_int_eq(parse(&bl, refused[i][0], err), -EINVAL);
		ck_assert_str_eq(err, refused[i][1]);
		fws_blocklist_free(&bl);
	}
	ck_assert_int_eq(fws_blocklist_parse(&bl, nul, sizeof(nul), "t", err, sizeof(err)),
			 -EINVAL);
	ck_assert_str_eq(err, "blocklist t: 1 bad line: line 1: \"\" holds a NUL byte (not a text "
			      "file)");
	fws_blocklist_free(&bl);
	ck_assert_int_eq(
		parse(&bl,
		      "198.19.200.0/24 ; SBL9999999999999999999999999\n"
		      "{\"cidr\": \"198.19.201.0/24\", \"sblid\": 99999999999999999999999}\n",
		      err),
		0);
	ck_assert(has(&bl, "198.19.200.1") && has(&bl, "198.19.201.1"));
	fws_blocklist_free(&bl);
}
END_TEST

/* Found by fuzz_blocklist: a last line of blanks only was read one byte past its end. The
 * length is given, so no terminator is there to stop it (ASan in CI sees the overread). */
START_TEST(test_trailing_blanks)
{
	struct fws_blocklist bl = {0};
	char err[256], *buf = malloc(1);

	buf[0] = ' ';
	ck_assert_int_eq(fws_blocklist_parse(&bl, buf, 1, "t", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(fws_blocklist_parse(&bl, "1.2.3.0/24\n\t", 12, "t", err, sizeof(err)), 0);
	ck_assert_int_eq(bl.entries, 1);
	free(buf);
	fws_blocklist_free(&bl);
}
END_TEST

static Suite *
suite_blocklist(void)
{
	Suite *s = suite_create("blocklist");
	TCase *tc = tcase_create("blocklist");

	tcase_add_test(tc, test_text_format);
	tcase_add_test(tc, test_json_format);
	tcase_add_test(tc, test_long_lines);
	tcase_add_test(tc, test_bad_lines);
	tcase_add_test(tc, test_merge_and_edges);
	tcase_add_test(tc, test_nothing_or_everything);
	tcase_add_test(tc, test_trailing_blanks);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_blocklist)
