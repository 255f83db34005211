/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Campaign plans: what a plan may say and the one-line errors for what it may not, paths
 * from the plan's directory, each scenario's config put together (overrides merged, the
 * plan's DUT, blocklists absolute, the result validated), the statuses a campaign report
 * gives back for --resume, the length estimate, and the live-statistics lines it follows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fws_campaign.h"
#include "fws_pace.h"
#include "fws_report.h"
#include "unit.h"

static int
parse(const char *json, const char *base, struct fws_campaign *p, char *err, size_t len)
{
	return fws_campaign_parse(json, strlen(json), base, p, err, len);
}

START_TEST(test_campaign_plan)
{
	const char *json =
		"{\"dut\": {\"name\": \"DEC740\", \"firmware\": \"24.7\"}, \"output\": "
		"\"out.json\","
		" \"wrap\": [\"tools/lab\", \"exec\"], \"base\": \"base.json\", \"scenarios\": ["
		"{\"name\": \"routing\", \"command\": \"run\", \"setup\": \"up routing\"},"
		"{\"name\": \"fw+nat\", \"config\": \"/abs/fw.json\", \"overrides\": {\"rate\": "
		"\"1kpps\"}, \"teardown\": \"down\"},"
		"{\"name\": \"site2\", \"setup\": {\"host\": \"site2\", \"command\": \"up\"},"
		" \"teardown\": {\"command\": \"down\", \"host\": \"site1\"}}]}";
	struct fws_campaign p;
	char err[600];

	ck_assert_int_eq(parse(json, "/plans", &p, err, sizeof(err)), 0);
	ck_assert_str_eq(p.dut.name, "DEC740");
	ck_assert_str_eq(p.dut.firmware, "24.7");
	ck_assert_str_eq(p.output, "/plans/out.json");
	ck_assert_str_eq(p.workdir, "/plans/out.json.d");
	ck_assert_uint_eq(p.n_wrap, 2);
	ck_assert_str_eq(p.wrap[1], "exec");
	ck_assert_uint_eq(p.n, 3);
	ck_assert_str_eq(p.s[0].config, "/plans/base.json");
	ck_assert_int_eq(p.s[0].cmd, FWS_CAMPAIGN_RUN);
	ck_assert_str_eq(p.s[0].setup, "up routing");
	ck_assert_ptr_null(p.s[0].overrides);
	ck_assert_str_eq(p.s[1].config, "/abs/fw.json");
	ck_assert_int_eq(p.s[1].cmd, FWS_CAMPAIGN_SWEEP); /* the default */
	ck_assert_str_eq(p.s[1].overrides, "{\"rate\":\"1kpps\"}");
	ck_assert_str_eq(p.s[1].teardown, "down");
	ck_assert_str_eq(p.s[1].setup_host, "");
	ck_assert_str_eq(p.s[2].setup, "up"); /* on a load client */
	ck_assert_str_eq(p.s[2].setup_host, "site2");
	ck_assert_str_eq(p.s[2].teardown, "down");
	ck_assert_str_eq(p.s[2].teardown_host, "site1");
	fws_campaign_free(&p);
}
END_TEST

/* Every refusal: one line naming the key and the value. */
START_TEST(test_campaign_errors)
{
	static const struct {
		const char *json, *want;
	} cases[] = {
		{"[1]", "campaign: plan: (top): expected an object, got an array"},
		{"{\"scenarios\": [{\"name\": \"a\", \"config\": \"c\"}], \"x\": 1}",
		 "campaign: plan: x: unknown key"},
		{"{}", "campaign: plan: scenarios: missing: the list of scenarios to measure"},
		{"{\"scenarios\": []}", "campaign: plan: scenarios: 1 to 64 scenarios, got 0"},
		{"{\"scenarios\": [{\"config\": \"c\"}]}",
		 "campaign: plan: scenarios[0].name: missing"},
		{"{\"scenarios\": [{\"name\": \"a\"}]}",
		 "campaign: plan: scenarios[0].config: missing, and the plan has no \"base\" "
		 "config"},
		{"{\"scenarios\": [{\"name\": \"a/b\", \"config\": \"c\"}]}",
		 "campaign: plan: scenarios[0].name: \"a/b\": letters, digits and _ + . - only"},
		{"{\"scenarios\": [{\"name\": \"a\", \"config\": \"c\"}, {\"name\": \"a\", "
		 "\"config\": \"c\"}]}",
		 "campaign: plan: scenarios[1].name: \"a\" is the name of scenario 1 too"},
		{"{\"scenarios\": [{\"name\": \"a\", \"config\": \"c\", \"command\": \"walk\"}]}",
		 "campaign: plan: scenarios[0].command: "},
		{"{\"scenarios\": [{\"name\": \"a\", \"config\": \"c\", \"overrides\": 3}]}",
		 "campaign: plan: scenarios[0].overrides: expected an object"},
		{"{\"wrap\": \"lab exec\", \"scenarios\": [{\"name\": \"a\", \"config\": \"c\"}]}",
		 "campaign: plan: wrap: expected a list of strings"},
		{"{\"dut\": {\"nam\": 1}, \"scenarios\": [{\"name\": \"a\", \"config\": \"c\"}]}",
		 "campaign: plan: dut.nam: unknown key"},
		{"{\"scenarios\": [{\"name\": \"a\", \"config\": \"c\", \"setup\": 3}]}",
		 "campaign: plan: scenarios[0].setup: expected a shell command, or {\"host\": "
		 "NAME, "
		 "\"command\": TEXT}"},
		{"{\"scenarios\": [{\"name\": \"a\", \"config\": \"c\", \"setup\": {\"host\": "
		 "\"x\"}}]}",
		 "campaign: plan: scenarios[0].setup: needs both \"host\""},
		{"{\"scenarios\": [{\"name\": \"a\", \"config\": \"c\", \"teardown\": {\"host\": "
		 "\"x\", \"command\": \"c\", \"on\": 1}}]}",
		 "campaign: plan: scenarios[0].teardown.on: unknown key"},
		{"{\"scenarios\": [{\"name\": \"a\", \"config\": \"c\"}], \"scenarios\": []}",
		 "campaign: line 1: duplicate object key"},
	};
	struct fws_campaign p;
	char err[600];
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		ck_assert_int_eq(parse(cases[i].json, NULL, &p, err, sizeof(err)), -EINVAL);
		ck_assert_msg(strncmp(err, cases[i].want, strlen(cases[i].want)) == 0,
			      "case %u: got \"%s\", want \"%s...\"", i, err, cases[i].want);
		ck_assert_ptr_null(strchr(err, '\n'));
	}
}
END_TEST

/* Files of one fixture directory. */
struct dir {
	char path[64];
};

static void
write_file(const struct dir *d, const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", d->path, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void
make_dir(struct dir *d)
{
	strcpy(d->path, "/tmp/fws-campaign-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(d->path));
}

static void
remove_dir(const struct dir *d)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", d->path);
	ck_assert_int_eq(system(cmd), 0);
}

static const char base_cfg[] =
	"{\"dut\": {\"name\": \"from the config\", \"load_command\": \"vmstat\"},"
	" \"ports\": [{\"name\": \"lan\", \"device\": \"net_null0\"}, {\"name\": \"wan\","
	" \"device\": \"net_null1\"}], \"frame_size\": [64, 1518], \"duration\": 3,"
	" \"flows\": {\"count\": 4, \"src_port\": 1024}, \"blocklist\": \"drop.txt\"}";

/* The overrides merged into the config; the plan's DUT over the config's. */
START_TEST(test_campaign_config_merge)
{
	struct fws_campaign p;
	struct dir d;
	char plan[512], err[600], *text, want[128];

	make_dir(&d);
	write_file(&d, "base.json", base_cfg);
	write_file(&d, "drop.txt", "192.0.2.0/24 ; SBL1\n");
	snprintf(plan, sizeof(plan),
		 "{\"dut\": {\"name\": \"DEC740\"}, \"base\": \"base.json\", \"scenarios\": ["
		 "{\"name\": \"a\", \"overrides\": {\"duration\": 1, \"flows\": {\"count\": 8}}},"
		 "{\"name\": \"b\", \"overrides\": {\"frame_size\": 512, \"rate\": \"eleven\"}}]}");
	ck_assert_int_eq(parse(plan, d.path, &p, err, sizeof(err)), 0);
	text = fws_campaign_config_text(&p, 0, err, sizeof(err));
	ck_assert_msg(text != NULL, "%s", err);
	ck_assert_ptr_nonnull(strstr(text, "\"duration\": 1,"));
	ck_assert_ptr_nonnull(strstr(text, "\"count\": 8,")); /* merged: src_port stays */
	ck_assert_ptr_nonnull(strstr(text, "\"src_port\": 1024"));
	ck_assert_ptr_nonnull(strstr(text, "\"name\": \"DEC740\""));
	ck_assert_ptr_nonnull(strstr(text, "\"load_command\": \"vmstat\""));
	snprintf(want, sizeof(want), "\"%s/drop.txt\"", d.path);
	ck_assert_ptr_nonnull(strstr(text, want));
	free(text);
	/* The merged config is validated: the message names the scenario and the key. */
	ck_assert_ptr_null(fws_campaign_config_text(&p, 1, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "scenario b ("));
	ck_assert_ptr_nonnull(strstr(err, "config: rate: "));
	fws_campaign_free(&p);
	/* A plan named by a relative path (issue 51, item 11: "config/campaign-lab.json"): the
	 * blocklist still absolute, not relative to where the run started, since the copy is
	 * read from the campaign's folder. */
	ck_assert_int_eq(chdir(d.path), 0);
	ck_assert_int_eq(chdir(".."), 0);
	ck_assert_int_eq(parse(plan, strrchr(d.path, '/') + 1, &p, err, sizeof(err)), 0);
	text = fws_campaign_config_text(&p, 0, err, sizeof(err));
	ck_assert_msg(text != NULL, "%s", err);
	ck_assert_msg(strstr(text, want) != NULL, "no %s in %s", want, text);
	free(text);
	fws_campaign_free(&p);
	remove_dir(&d);
}
END_TEST

/* --resume takes "done" by scenario name, nothing else. */
START_TEST(test_campaign_resume)
{
	struct fws_campaign p;
	struct dir d;
	char path[128], err[600];

	make_dir(&d);
	write_file(&d, "c.json",
		   "{\"campaign\": {\"scenarios\": [{\"name\": \"b\", \"status\": \"done\", "
		   "\"seconds\": 12.5}, {\"name\": \"a\", \"status\": \"interrupted\"}, {\"name\": "
		   "\"gone\", \"status\": \"done\"}, {\"name\": \"c\", \"status\": \"done, "
		   "expectations failed\"}]}}");
	write_file(&d, "junk.json", "{\"cells\": []}");
	ck_assert_int_eq(parse("{\"base\": \"x\", \"scenarios\": [{\"name\": \"a\"}, {\"name\": "
			       "\"b\"}, {\"name\": \"c\"}]}",
			       NULL, &p, err, sizeof(err)),
			 0);
	snprintf(path, sizeof(path), "%s/c.json", d.path);
	ck_assert_int_eq(fws_campaign_resume(&p, path, err, sizeof(err)), 0);
	ck_assert_int_eq(p.s[0].status, FWS_CAMPAIGN_ST_PENDING);
	ck_assert_int_eq(p.s[1].status, FWS_CAMPAIGN_ST_DONE);
	ck_assert(p.s[1].seconds == 12.5);
	ck_assert_int_eq(p.s[2].status, FWS_CAMPAIGN_ST_EXPECT_FAILED);
	snprintf(path, sizeof(path), "%s/junk.json", d.path);
	ck_assert_int_eq(fws_campaign_resume(&p, path, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "is not a campaign report"));
	snprintf(path, sizeof(path), "%s/none.json", d.path);
	ck_assert_int_eq(fws_campaign_resume(&p, path, err, sizeof(err)), -ENOENT);
	fws_campaign_free(&p);
	remove_dir(&d);
}
END_TEST

/* The time left: the model's range until a cell finished, then the cells' measured mean;
 * the trials likewise; whole seconds rounded, hours to the minute. */
START_TEST(test_pace)
{
	struct fws_pace p;
	char buf[32];

	fws_pace_start(&p, 4, 2, 10, 8);
	ck_assert_double_eq_tol(fws_pace_left(&p, 0, false), 40, 1e-9);
	ck_assert_double_eq_tol(fws_pace_left(&p, 0, true), 8, 1e-9);
	fws_pace_trial(&p, "64 upload", 0, 100);
	fws_pace_trial(&p, "64 upload", 1, 101); /* the same cell */
	ck_assert_double_eq_tol(fws_pace_left(&p, 103, false), 7 + 3 * 10, 1e-9);
	ck_assert_double_eq_tol(fws_pace_left(&p, 103, true), 0 + 3 * 2, 1e-9);
	ck_assert_uint_eq(fws_pace_trials(&p, 1), 32);
	fws_pace_trial(&p, "64 download", 3, 105); /* the first cell took 5 s and 3 trials */
	ck_assert_double_eq_tol(fws_pace_left(&p, 106, false), 4 + 2 * 5, 1e-9);
	ck_assert_double_eq_tol(fws_pace_left(&p, 106, true), 4 + 2 * 5, 1e-9);
	ck_assert_uint_eq(fws_pace_trials(&p, 3), 3 + 3 * 3);
	/* A cell longer than the mean: nothing left of it, no sign how much. */
	ck_assert_double_eq_tol(fws_pace_left(&p, 125, false), 2 * 5, 1e-9);
	fws_pace_trial(&p, "1518 upload", 9, 115); /* two cells, 15 s, 9 trials */
	ck_assert_double_eq_tol(fws_pace_left(&p, 115, false), 7.5 + 7.5, 1e-9);
	ck_assert_uint_eq(fws_pace_trials(&p, 9), 9 + 9); /* 4.5 a cell, for the 2 left */
	ck_assert_uint_eq(fws_pace_trials(&p, 30), 31);   /* never below the trial running */
	ck_assert_str_eq(fws_pace_fmt(buf, sizeof(buf), 59.6), "1 min 00 s");
	ck_assert_str_eq(fws_pace_fmt(buf, sizeof(buf), 119.4), "1 min 59 s");
	ck_assert_str_eq(fws_pace_fmt(buf, sizeof(buf), -3), "0 min 00 s");
	ck_assert_str_eq(fws_pace_fmt(buf, sizeof(buf), 3629), "1 h 00 min");
	ck_assert_str_eq(fws_pace_fmt(buf, sizeof(buf), 3630), "1 h 01 min");
}
END_TEST

START_TEST(test_campaign_live_brief)
{
	static const char m[] = "{\"time\":1.5,\"trial\":3,\"phase\":\"measure\",\"frame_size\":"
				"\"64\",\"direction\":\"upload\",\"streams\":[]}";
	static const char r[] = "{\"trial\":3,\"phase\":\"result\",\"frame_size\":\"imix\"}";
	struct fws_live_brief b;

	ck_assert_int_eq(fws_campaign_live_brief(m, strlen(m), &b), 0);
	ck_assert_int_eq(b.trial, 3);
	ck_assert_str_eq(b.phase, "measure");
	ck_assert_str_eq(b.frame_size, "64");
	ck_assert_str_eq(b.direction, "upload");
	ck_assert(!b.result);
	ck_assert_int_eq(fws_campaign_live_brief(r, strlen(r), &b), 0);
	ck_assert(b.result);
	ck_assert_str_eq(b.frame_size, "imix");
	ck_assert_int_eq(fws_campaign_live_brief("{\"tri", 5, &b), -EINVAL);
	ck_assert_int_eq(fws_campaign_live_brief("[]", 2, &b), -EINVAL);
}
END_TEST

static Suite *
suite_campaign(void)
{
	Suite *s = suite_create("campaign");
	TCase *tc = tcase_create("campaign");

	tcase_add_test(tc, test_campaign_plan);
	tcase_add_test(tc, test_campaign_errors);
	tcase_add_test(tc, test_campaign_config_merge);
	tcase_add_test(tc, test_campaign_resume);
	tcase_add_test(tc, test_pace);
	tcase_add_test(tc, test_campaign_live_brief);
	suite_add_tcase(s, tc);
	return s;
}

FWS_UNIT_MAIN(suite_campaign)
