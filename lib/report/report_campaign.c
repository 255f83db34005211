/* SPDX-License-Identifier: BSD-3-Clause */
/* A campaign's report: one fwstress report holding every scenario's cells. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "fws_campaign.h"
#include "fws_compat.h"
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
	}
	/* The DUT: the plan's, else the first scenario that measured names it. */
	for (i = 0; i < p->n && !p->dut_name[0] && !r->cells[i].dut[0]; i++)
		;
	json_object_set_new(dut, "name",
			    json_string(p->dut_name[0] ? p->dut_name
					: i < p->n     ? r->cells[i].dut
						       : ""));
	json_object_set_new(dut, "firmware",
			    json_string(p->dut_firmware[0] ? p->dut_firmware
					: i < p->n         ? r->cells[i].firmware
							   : ""));
	return json_pack("{s:s, s:s, s:s, s:s, s:b, s:{s:o}, s:{s:s, s:o}, s:o}", "schema",
			 FWS_REPORT_SCHEMA, "kind", "campaign", "started", r->started, "finished",
			 now, "partial", r->partial, "config", "dut", dut, "campaign", "workdir",
			 p->workdir, "scenarios", sc, "cells", cells);
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
