/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>

#include "fws_sig.h"
#include "unit.h"

/* A small deterministic generator (xorshift64*) so failures reproduce. */
static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

START_TEST(test_sig_roundtrip)
{
	static const struct {
		uint32_t cookie;
		uint8_t stream;
		uint32_t flow, seq, ts;
	} cases[] = {
		{1, 0, 0, 0, 0},
		{0xdeadbeef, 3, 999999, 12345, 0xffffffff},
		{0x12345678, 255, FWS_SIG_MAX_FLOWS - 1, 0xffffffff, 7},
		{0xffffffff, 1, 1, 1, 1},
	};
	uint8_t buf[FWS_SIG_LEN + 3];
	struct fws_sig s;
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(buf, 0xaa, sizeof(buf));
		/* Odd offset: the signature has no alignment needs. */
		fws_sig_write(buf + 1, cases[i].cookie, cases[i].stream, cases[i].flow,
			      cases[i].seq, cases[i].ts);
		ck_assert_int_eq(fws_sig_parse(buf + 1, FWS_SIG_LEN, cases[i].cookie, &s),
				 FWS_SIG_OK);
		ck_assert_uint_eq(s.stream, cases[i].stream);
		ck_assert_uint_eq(s.flow, cases[i].flow);
		ck_assert_uint_eq(s.seq, cases[i].seq);
		ck_assert_uint_eq(s.ts, cases[i].ts);
		/* Another cookie: the magic matches, the check does not. */
		ck_assert_int_eq(fws_sig_parse(buf + 1, FWS_SIG_LEN, cases[i].cookie + 1, &s),
				 FWS_SIG_BADCHECK);
		/* Too short to hold one. */
		ck_assert_int_eq(fws_sig_parse(buf + 1, FWS_SIG_LEN - 1, cases[i].cookie, &s),
				 FWS_SIG_NONE);
	}
}
END_TEST

START_TEST(test_sig_every_bit_matters)
{
	uint8_t buf[FWS_SIG_LEN];
	struct fws_sig s;
	unsigned int bit;

	for (bit = 0; bit < FWS_SIG_LEN * 8; bit++) {
		enum fws_sig_verdict v;

		fws_sig_write(buf, 0xc0ffee11, 2, 77, 1000, 5000);
		buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		v = fws_sig_parse(buf, FWS_SIG_LEN, 0xc0ffee11, &s);
		ck_assert_msg(v != FWS_SIG_OK, "flipping bit %u still verifies", bit);
	}
}
END_TEST

START_TEST(test_sig_random_payloads)
{
	uint64_t state = 0x9e3779b97f4a7c15ull;
	uint8_t buf[32];
	struct fws_sig s;
	unsigned int i, j, ok = 0, magic = 0;

	for (i = 0; i < 1000000; i++) {
		for (j = 0; j < sizeof(buf); j += 8) {
			uint64_t r = rnd(&state);

			memcpy(buf + j, &r, 8);
		}
		/* Half of them with our magic and version, so the check value is what decides. */
		if (i & 1) {
			buf[0] = FWS_SIG_MAGIC & 0xff;
			buf[1] = FWS_SIG_MAGIC >> 8;
			buf[2] = FWS_SIG_VERSION;
		}
		switch (fws_sig_parse(buf, sizeof(buf), 0x5eed1234, &s)) {
		case FWS_SIG_OK:
			ok++;
			break;
		case FWS_SIG_BADCHECK:
			magic++;
			break;
		case FWS_SIG_NONE:
			break;
		}
	}
	ck_assert_uint_eq(ok, 0);
	ck_assert_uint_ge(magic, 500000);
}
END_TEST

static Suite *
suite_sig(void)
{
	Suite *s = suite_create("sig");
	TCase *tc = tcase_create("signature");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_sig_roundtrip);
	tcase_add_test(tc, test_sig_every_bit_matters);
	tcase_add_test(tc, test_sig_random_payloads);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_sig)
