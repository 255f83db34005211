/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The departure stamps' lead (fws_tx_lead_learn, what fws_tx_burst calls on each sampled
 * burst), fed build and hand-over times as a core would measure them; no EAL.
 */
#include <stdint.h>

#include "fws_tx.h"
#include "unit.h"

static struct fws_tx_task t;

static void
setup(void)
{
	t = (struct fws_tx_task){.burst = 32};
	fws_tx_task_lead_reset(&t);
}

/* n full bursts that took build ticks to build and span ticks to hand over. */
static void
full_bursts(unsigned int n, uint64_t build, uint64_t span)
{
	while (n--)
		fws_tx_lead_learn(&t, 32, build, span);
}

/* Would a burst of n frames that ended its hand-over span ticks after its start be stamped
 * after that end? */
static bool
late(uint32_t n, uint64_t span)
{
	return t.lead_fp != UINT32_MAX && (((uint64_t)t.lead_fp * n) >> 8) > span;
}

START_TEST(test_tx_lead_after_samples)
{
	full_bursts(FWS_TX_LEAD_SAMPLES - 1, 3200, 4000);
	ck_assert_uint_eq(t.lead_fp, UINT32_MAX); /* too few samples: stamped at the start */
	full_bursts(1, 3200, 4000);
	/* 100 ticks a frame at best, three quarters of it added */
	ck_assert_uint_eq(t.lead_fp, 75 << 8);
	ck_assert(!late(32, 3200) && !late(1, 100));
}
END_TEST

START_TEST(test_tx_lead_small_bursts_teach_nothing)
{
	full_bursts(FWS_TX_LEAD_SAMPLES, 3200, 4000);
	/* a burst of 2 built in 150 ticks: its fixed part, not a faster core */
	fws_tx_lead_learn(&t, 2, 150, 200);
	ck_assert_uint_eq(t.lead_fp, 75 << 8);
}
END_TEST

/* Learnt while the core was slow, the lead outlives it: a burst that ended before its stamp
 * lowers it at once, so the next burst as fast is on time. */
START_TEST(test_tx_lead_late_burst_lowers_it)
{
	full_bursts(FWS_TX_LEAD_SAMPLES, 3200, 4000);
	ck_assert(late(32, 2000));
	fws_tx_lead_learn(&t, 32, 1800, 2000);
	ck_assert(!late(32, 2000));
	ck_assert_uint_le(t.lead_fp, (2000 << 8) / 32 * 3 / 4);
	/* a small burst too: 4 frames handed over 200 ticks after the start, stamped at 300 */
	setup();
	full_bursts(FWS_TX_LEAD_SAMPLES, 3200, 4000);
	ck_assert(late(4, 200));
	fws_tx_lead_learn(&t, 4, 150, 200);
	ck_assert(!late(4, 200));
	/* a burst on time changes nothing */
	{
		uint32_t before = t.lead_fp;

		fws_tx_lead_learn(&t, 4, 150, 400);
		ck_assert_uint_eq(t.lead_fp, before);
	}
}
END_TEST

static Suite *
suite_tx(void)
{
	Suite *s = suite_create("tx");
	TCase *tc = tcase_create("lead");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_tx_lead_after_samples);
	tcase_add_test(tc, test_tx_lead_small_bursts_teach_nothing);
	tcase_add_test(tc, test_tx_lead_late_burst_lowers_it);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_tx)
