/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>

#include "fws_connstat.h"
#include "fws_util.h"

static const char *const test_names[] = {
#define FWS_CONN_TEST_NAME(n, s, d) s,
	FWS_CONN_TESTS(FWS_CONN_TEST_NAME)
#undef FWS_CONN_TEST_NAME
};
static const char *const fail_names[] = {
#define FWS_CONN_FAIL_NAME(n, s, d) s,
	FWS_CONN_FAILS(FWS_CONN_FAIL_NAME)
#undef FWS_CONN_FAIL_NAME
};
static const char *const fail_docs[] = {
#define FWS_CONN_FAIL_DOC(n, s, d) d,
	FWS_CONN_FAILS(FWS_CONN_FAIL_DOC)
#undef FWS_CONN_FAIL_DOC
};

const char *
fws_conn_test_name(enum fws_conn_test t)
{
	return (unsigned int)t < FWS_DIM(test_names) ? test_names[t] : "?";
}

const char *
fws_conn_fail_name(enum fws_conn_fail f)
{
	return (unsigned int)f < FWS_DIM(fail_names) ? fail_names[f] : "?";
}

const char *
fws_conn_fail_doc(enum fws_conn_fail f)
{
	return (unsigned int)f < FWS_DIM(fail_docs) ? fail_docs[f] : "?";
}

uint64_t
fws_conn_failed(const struct fws_conn_stats *st)
{
	uint64_t n = 0;
	unsigned int f;

	for (f = 1; f < FWS_CONN_FAIL_N; f++)
		n += st->failed[f];
	return n;
}

bool
fws_conn_criteria(const struct fws_conn_stats *st, char *why, size_t len)
{
	uint64_t failed = fws_conn_failed(st), rst = st->failed[FWS_CONN_FAIL_RST];
	/* x < 0.001 % of attempted: x * 100000 < attempted */
	bool ok_failed = failed * 100000 < st->attempted || failed == 0;
	bool ok_rst = rst * 100000 < st->attempted || rst == 0;
	double pf = st->attempted ? 100.0 * (double)failed / (double)st->attempted : 0;
	double pr = st->attempted ? 100.0 * (double)rst / (double)st->attempted : 0;

	if (st->attempted == 0)
		snprintf(why, len, "no connection attempted");
	else if (ok_failed && ok_rst)
		snprintf(why, len, "met: %.4g %% failed, %.4g %% reset (both under 0.001 %%)", pf,
			 pr);
	else
		snprintf(why, len, "missed: %.4g %% failed%s, %.4g %% reset%s (limit 0.001 %%)", pf,
			 ok_failed ? "" : " (over)", pr, ok_rst ? "" : " (over)");
	return st->attempted && ok_failed && ok_rst;
}
