/* SPDX-License-Identifier: BSD-3-Clause */
/* A campaign's report: one fwstress report holding every scenario's cells; read back, the
 * statuses --resume takes; and the --stats line a scenario's progress is read from. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "fws_build.h"
#include "fws_campaign.h"
#include "fws_compat.h"
#include "fws_jsonread.h"
#include "fws_report.h"
#include "report_int.h"

struct campaign_report {
	const struct fws_campaign *p;
	const struct fws_cells *cells;
	const char *started;
	bool partial;
};

static json_t *
scenario_json(const struct fws_campaign_scenario *s, unsigned int n_cells)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:f, s:I}", "name", s->name, "command",
			      fws_campaign_cmd_name(s->cmd), "config", s->config, "status",
			      fws_campaign_status_name(s->status), "seconds", s->seconds, "cells",
			      (json_int_t)n_cells);

	json_object_set_new(o, "exit_code",
			    s->exit_code >= 0 ? json_integer(s->exit_code) : json_null());
	json_object_set_new(o, "report", s->report[0] ? json_string(s->report) : json_null());
	if (s->reason[0])
		json_object_set_new(o, "reason", json_string(s->reason));
	return o;
}

/* Scenario i's cells, with the scenario's name as theirs: the matrix row. A scenario that
 * did not end done gives its cells its status as their verdict, unless they have one of their
 * own: an interrupted or failed scenario's cells are what it measured before, never its
 * result; one whose expectations failed is not the scenario it names. */
static void
add_cells(json_t *a, const struct fws_campaign_scenario *s, const struct fws_cells *x)
{
	unsigned int k;

	for (k = 0; k < x->n; k++) {
		struct fws_cell c = x->c[k];

		strlcpy(c.scenario, s->name, sizeof(c.scenario));
		if (s->status == FWS_CAMPAIGN_ST_EXPECT_FAILED && fws_cell_ok(&c))
			strlcpy(c.verdict, "expectation failed: see the scenario's report",
				sizeof(c.verdict));
		else if (s->status != FWS_CAMPAIGN_ST_DONE &&
			 s->status != FWS_CAMPAIGN_ST_EXPECT_FAILED && fws_cell_ok(&c)) {
			char v[sizeof(s->reason) + 32];

			snprintf(v, sizeof(v), "%s%s%s", fws_campaign_status_name(s->status),
				 s->reason[0] ? ": " : "", s->reason);
			strlcpy(c.verdict, v, sizeof(c.verdict)); /* cut at the cell's length */
		}
		json_array_append_new(a, fws_report_cell_json(&c));
	}
}

/* A scenario that measured nothing (it failed, its setup failed, it was interrupted or not
 * run) keeps its row (issue 51, item 3): one cell without figures whose verdict says what
 * became of it, in the first direction the campaign's other cells have (so it sits in their
 * column), of the kind its command gives. */
static void
add_placeholder(json_t *a, const struct fws_campaign_scenario *s, const struct fws_cells *all,
		unsigned int n)
{
	static const char *const kinds[] = {[FWS_CAMPAIGN_RUN] = "run",
					    [FWS_CAMPAIGN_SEARCH] = "ndr",
					    [FWS_CAMPAIGN_SWEEP] = "ndr",
					    [FWS_CAMPAIGN_CONNECTIONS] = "cps"};
	struct fws_cell c;
	unsigned int i;

	memset(&c, 0, sizeof(c));
	c.dut_cpu = c.dut_core = c.dut_states = c.dut_drops = -1;
	c.attack_frames = c.attack_leaked = c.blocked_leaked = -1;
	c.connections = c.conn_failed = c.flood_pps = c.flood_passed = -1;
	c.unsteady = c.worst_second = c.repetition = -1;
	strlcpy(c.scenario, s->name, sizeof(c.scenario));
	strlcpy(c.kind,
		(unsigned int)s->cmd < sizeof(kinds) / sizeof(kinds[0]) && kinds[s->cmd]
			? kinds[s->cmd]
			: "run",
		sizeof(c.kind));
	strlcpy(c.direction, "upload", sizeof(c.direction));
	for (i = 0; i < n; i++)
		if (all[i].n) {
			strlcpy(c.direction, all[i].c[0].direction, sizeof(c.direction));
			strlcpy(c.stream_dir, all[i].c[0].stream_dir, sizeof(c.stream_dir));
			break;
		}
	strlcpy(c.stream, "-", sizeof(c.stream));
	strlcpy(c.size, "-", sizeof(c.size));
	{
		char v[sizeof(s->reason) + 32]; /* cut at the cell's length, as add_cells does */

		snprintf(v, sizeof(v), "%s%s%s",
			 s->status == FWS_CAMPAIGN_ST_PENDING ? "not run"
							      : fws_campaign_status_name(s->status),
			 s->reason[0] ? ": " : "", s->reason);
		strlcpy(c.verdict, v, sizeof(c.verdict));
	}
	json_array_append_new(a, fws_report_cell_json(&c));
}

/* What became of the campaign, for the banner: "completed", "interrupted" (a scenario was, or
 * is still to run), or the scenarios that failed with why. */
static json_t *
campaign_status(const struct fws_campaign *p)
{
	char buf[1024] = "";
	size_t used = 0;
	unsigned int i, failed = 0;

	for (i = 0; i < p->n; i++)
		if (p->s[i].status == FWS_CAMPAIGN_ST_PENDING ||
		    p->s[i].status == FWS_CAMPAIGN_ST_INTERRUPTED)
			return json_string("interrupted");
	for (i = 0; i < p->n && used < sizeof(buf); i++) {
		if (p->s[i].status != FWS_CAMPAIGN_ST_FAILED &&
		    p->s[i].status != FWS_CAMPAIGN_ST_SETUP_FAILED)
			continue;
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s (%s%s%s)",
					 failed++ ? ", " : "", p->s[i].name,
					 fws_campaign_status_name(p->s[i].status),
					 p->s[i].reason[0] ? ": " : "", p->s[i].reason);
	}
	if (failed == 0)
		return json_string("completed");
	{
		char out[1100];

		snprintf(out, sizeof(out), "%u of %u scenarios failed: %s", failed, p->n, buf);
		return json_string(out);
	}
}

static json_t *
campaign_json(const struct campaign_report *r)
{
	const struct fws_campaign *p = r->p;
	json_t *sc = json_array(), *cells = json_array(), *dut = json_object();
	char now[32];
	unsigned int i;

	fws_report_iso_time(time(NULL), now, sizeof(now));
	for (i = 0; i < p->n; i++) {
		json_array_append_new(sc, scenario_json(&p->s[i], r->cells[i].n));
		add_cells(cells, &p->s[i], &r->cells[i]);
		if (r->cells[i].n == 0 && p->s[i].status != FWS_CAMPAIGN_ST_DONE)
			add_placeholder(cells, &p->s[i], r->cells, p->n);
	}
	/* The DUT: the plan's, else the first scenario that measured names it. */
	for (i = 0; i < p->n && !p->dut.name[0] && !r->cells[i].dut[0]; i++)
		;
	json_object_set_new(dut, "name",
			    json_string(p->dut.name[0] ? p->dut.name
					: i < p->n     ? r->cells[i].dut
						       : ""));
	json_object_set_new(dut, "firmware",
			    json_string(p->dut.firmware[0] ? p->dut.firmware
					: i < p->n         ? r->cells[i].firmware
							   : ""));
	/* What measured it: the build, as a run's report names it. */
	return json_pack("{s:s, s:s, s:{s:s, s:s, s:s}, s:s, s:s, s:s, s:b, s:o, s:{s:o}, "
			 "s:{s:s, s:o}, s:o}",
			 "schema", FWS_REPORT_SCHEMA, "kind", "campaign", "tool", "name",
			 "fwstress", "version", FWS_VERSION, "commit", FWS_COMMIT, "dpdk",
			 FWS_DPDK_VERSION, "started", r->started, "finished", now, "partial",
			 r->partial, "status", campaign_status(p), "config", "dut", dut, "campaign",
			 "workdir", p->workdir, "scenarios", sc, "cells", cells);
}

static int
emit(FILE *f, const void *arg)
{
	return fws_report_dump(f, campaign_json(arg));
}

int
fws_report_campaign(const char *path, const struct fws_campaign *p, const struct fws_cells *cells,
		    const char *started, bool partial)
{
	struct campaign_report r = {.p = p, .cells = cells, .started = started, .partial = partial};

	return fws_report_write_atomic(path, emit, &r);
}

int
fws_campaign_resume(struct fws_campaign *p, const char *path, char *err, size_t errlen)
{
	const json_t *a;
	json_t *root;
	json_error_t jerr;
	size_t len, i;
	unsigned int k;
	char *buf;
	int rc;

	if ((rc = cfg_read_file(path, FWS_REPORT_MAX_BYTES, &buf, &len, err, errlen, "report")) < 0)
		return rc;
	root = json_loadb(buf, len, 0, &jerr);
	free(buf);
	a = json_object_get(json_object_get(root, "campaign"), "scenarios");
	if (!json_is_array(a)) {
		snprintf(err, errlen, "campaign --resume: %s is not a campaign report", path);
		json_decref(root);
		return -EINVAL;
	}
	for (i = 0; i < json_array_size(a); i++) {
		const json_t *o = json_array_get(a, i);
		const char *name = json_string_value(json_object_get(o, "name"));
		const char *st = json_string_value(json_object_get(o, "status"));

		for (k = 0; name && st && k < p->n; k++) {
			if (strcmp(p->s[k].name, name) != 0)
				continue;
			if (!strcmp(st, fws_campaign_status_name(FWS_CAMPAIGN_ST_DONE)))
				p->s[k].status = FWS_CAMPAIGN_ST_DONE;
			else if (!strcmp(st,
					 fws_campaign_status_name(FWS_CAMPAIGN_ST_EXPECT_FAILED)))
				p->s[k].status = FWS_CAMPAIGN_ST_EXPECT_FAILED;
			p->s[k].seconds = json_number_value(json_object_get(o, "seconds"));
		}
	}
	json_decref(root);
	return 0;
}

int
fws_campaign_live_brief(const char *line, size_t len, struct fws_live_brief *b)
{
	json_t *o = json_loadb(line, len, 0, NULL);
	const char *phase, *size;

	memset(b, 0, sizeof(*b));
	if (!json_is_object(o)) {
		json_decref(o);
		return -EINVAL;
	}
	b->trial = (int)json_integer_value(json_object_get(o, "trial"));
	phase = json_string_value(json_object_get(o, "phase"));
	size = json_string_value(json_object_get(o, "frame_size"));
	strlcpy(b->phase, phase ? phase : "", sizeof(b->phase));
	strlcpy(b->frame_size, size ? size : "", sizeof(b->frame_size));
	size = json_string_value(json_object_get(o, "direction"));
	strlcpy(b->direction, size ? size : "", sizeof(b->direction));
	b->result = phase && strcmp(phase, "result") == 0;
	json_decref(o);
	return 0;
}
