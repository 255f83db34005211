/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>

#include "fws_flow.h"
#include "unit.h"

static const struct fws_flow_spec spec = {
	.count = 1000,
	.src_ip_lo = 0xc6120100,
	.src_ip_hi = 0xc6120109, /* 10 */
	.dst_ip_lo = 0xc6130101,
	.dst_ip_hi = 0xc6130105, /* 5 */
	.src_port_lo = 1000,
	.src_port_hi = 1003, /* 4 */
	.dst_port_lo = 53,
	.dst_port_hi = 57, /* 5 */
};

START_TEST(test_flow_capacity)
{
	struct fws_flow_spec s = spec;

	ck_assert_uint_eq(fws_flow_capacity(&spec), 10 * 5 * 4 * 5);
	s.src_ip_lo = 0;
	s.src_ip_hi = UINT32_MAX;
	s.dst_ip_lo = 0;
	s.dst_ip_hi = UINT32_MAX;
	s.src_port_lo = s.dst_port_lo = 0;
	s.src_port_hi = s.dst_port_hi = UINT16_MAX;
	ck_assert_uint_eq(fws_flow_capacity(&s), UINT64_MAX);
	s = spec;
	s.dst_port_hi = 10; /* below lo */
	ck_assert_uint_eq(fws_flow_capacity(&s), 0);
}
END_TEST

START_TEST(test_flow_roundtrip)
{
	struct fws_flow_tuple t, seen[1000];
	uint32_t i, j, back;

	for (i = 0; i < spec.count; i++) {
		ck_assert_int_eq(fws_flow_tuple(&spec, i, &t), 0);
		ck_assert_int_eq(fws_flow_index(&spec, &t, &back), 0);
		ck_assert_uint_eq(back, i);
		seen[i] = t;
	}
	/* All distinct. */
	for (i = 0; i < spec.count; i++)
		for (j = i + 1; j < spec.count; j++)
			ck_assert(seen[i].src_ip != seen[j].src_ip ||
				  seen[i].dst_ip != seen[j].dst_ip ||
				  seen[i].src_port != seen[j].src_port ||
				  seen[i].dst_port != seen[j].dst_port);
}
END_TEST

START_TEST(test_flow_order)
{
	struct fws_flow_tuple t;

	/* The source address varies fastest, then source port, destination address, port. */
	fws_flow_tuple(&spec, 0, &t);
	ck_assert_uint_eq(t.src_ip, 0xc6120100);
	ck_assert_uint_eq(t.src_port, 1000);
	fws_flow_tuple(&spec, 9, &t);
	ck_assert_uint_eq(t.src_ip, 0xc6120109);
	fws_flow_tuple(&spec, 10, &t);
	ck_assert_uint_eq(t.src_ip, 0xc6120100);
	ck_assert_uint_eq(t.src_port, 1001);
	fws_flow_tuple(&spec, 40, &t);
	ck_assert_uint_eq(t.src_port, 1000);
	ck_assert_uint_eq(t.dst_ip, 0xc6130102);
	fws_flow_tuple(&spec, 200, &t);
	ck_assert_uint_eq(t.dst_port, 54);
}
END_TEST

START_TEST(test_flow_out_of_range)
{
	struct fws_flow_tuple t = {
		.src_ip = 0xc6120100, .dst_ip = 0xc6130101, .src_port = 999, .dst_port = 53};
	struct fws_flow_spec fewer = spec;
	uint32_t idx;

	ck_assert_int_eq(fws_flow_tuple(&spec, 1000, &t), -EINVAL);
	ck_assert_int_eq(fws_flow_index(&spec, &t, &idx), -ENOENT);
	/* Inside the ranges but beyond count: not one of the flows. */
	fewer.count = 900;
	fws_flow_tuple(&spec, 950, &t);
	ck_assert_int_eq(fws_flow_index(&fewer, &t, &idx), -ENOENT);
	fws_flow_tuple(&spec, 899, &t);
	ck_assert_int_eq(fws_flow_index(&fewer, &t, &idx), 0);
	ck_assert_uint_eq(idx, 899);
}
END_TEST

START_TEST(test_flow_large)
{
	struct fws_flow_spec s = {.count = 1000000,
				  .src_ip_lo = 0xc6120000,
				  .src_ip_hi = 0xc613ffff,
				  .dst_ip_lo = 0xc6130101,
				  .dst_ip_hi = 0xc6130101,
				  .src_port_lo = 1024,
				  .src_port_hi = 1043,
				  .dst_port_lo = 5001,
				  .dst_port_hi = 5001};
	struct fws_flow_tuple t;
	uint32_t i, back;

	for (i = 0; i < s.count; i += 997) {
		ck_assert_int_eq(fws_flow_tuple(&s, i, &t), 0);
		ck_assert_int_eq(fws_flow_index(&s, &t, &back), 0);
		ck_assert_uint_eq(back, i);
	}
}
END_TEST

static Suite *
suite_flow(void)
{
	Suite *s = suite_create("flow");
	TCase *tc = tcase_create("enumeration");

	tcase_add_test(tc, test_flow_capacity);
	tcase_add_test(tc, test_flow_roundtrip);
	tcase_add_test(tc, test_flow_order);
	tcase_add_test(tc, test_flow_out_of_range);
	tcase_add_test(tc, test_flow_large);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_flow)
