/* SPDX-License-Identifier: BSD-3-Clause */
/* Feature "telemetry", its data (fd_telem.h): the DUT's telemetry (fws_telem.h) in the JSON
 * and text reports: the measured phase's summary, the derived notes, what was missing and
 * why, and the per-second series; the series freed with the result. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fd_telem.h"

#define HAS(x, m) ((((x)->have) >> FWS_TELEM_##m) & 1)

static json_t *
num_or_null(bool have, double v)
{
	return have && isfinite(v) ? json_real(v) : json_null();
}

static json_t *
missing_json(const struct fws_telem *tm)
{
	json_t *a = json_array();
	unsigned int m;

	for (m = 0; m < FWS_TELEM_N; m++)
		if ((tm->missing >> m) & 1)
			json_array_append_new(
				a, json_pack("{s:s, s:s}", "metric", fws_telem_metric_name(m),
					     "why", tm->why[m][0] ? tm->why[m] : "no answer"));
	return a;
}

static json_t *
cpu_json(const struct fws_telem_sum *u)
{
	json_t *cores = json_array();
	unsigned int c;

	for (c = 0; c < u->n_cpu; c++) /* null: a core number the DUT never listed (offline) */
		json_array_append_new(cores, num_or_null(!isnan(u->core_mean[c]), u->core_mean[c]));
	return json_pack("{s:f, s:f, s:o, s:{s:i, s:f, s:f}}", "mean_pct", u->cpu_mean, "max_pct",
			 u->cpu_max, "cores_mean_pct", cores, "busiest_core", "core", u->busiest,
			 "mean_pct", u->busiest_pct, "max_pct", u->busiest_max);
}

static json_t *
intr_json(const struct fws_telem_sum *u)
{
	json_t *top = json_array();
	unsigned int i;

	for (i = 0; i < u->n_top; i++)
		json_array_append_new(top, json_pack("{s:s, s:I}", "source", u->top[i].name,
						     "per_s", (json_int_t)u->top[i].count));
	return json_pack("{s:f, s:f, s:o}", "mean_per_s", u->irq_mean, "max_per_s", u->irq_max,
			 "busiest", top);
}

static json_t *
measured_json(const struct fws_telem_sum *u)
{
	json_t *o = json_pack("{s:i, s:f}", "n", (int)u->n, "seconds", u->seconds);

	if (HAS(u, CPU))
		json_object_set_new(o, "cpu", cpu_json(u));
	if (HAS(u, INTR))
		json_object_set_new(o, "interrupts", intr_json(u));
	if (u->states) {
		json_t *s = json_pack("{s:I, s:I, s:f}", "end", (json_int_t)u->states_end, "growth",
				      (json_int_t)u->states_growth, "max", u->states_max);

		json_object_set_new(s, "inserts_per_s", num_or_null(u->state_ops, u->inserts_ps));
		json_object_set_new(s, "removals_per_s", num_or_null(u->state_ops, u->removals_ps));
		json_object_set_new(o, "states", s);
	}
	if (HAS(u, DROPS))
		json_object_set_new(o, "drops",
				    json_pack("{s:I, s:s}", "total", (json_int_t)u->drops, "where",
					      u->drops_where));
	if (HAS(u, MBUF))
		json_object_set_new(o, "mbuf_denied", json_integer((json_int_t)u->mbuf_denied));
	json_object_set_new(o, "temperature_c_max", num_or_null(HAS(u, TEMP), u->temp_max));
	json_object_set_new(o, "memory_used_pct_max", num_or_null(HAS(u, MEM), u->mem_max));
	return o;
}

/* The seconds, one array per figure (null where a second lacks it). */
static json_t *
series_json(const struct fws_telem *tm)
{
	json_t *t = json_array(), *dt = json_array(), *ph = json_array(), *cpu = json_array(),
	       *cores = json_array(), *irq = json_array(), *st = json_array(), *dr = json_array(),
	       *mb = json_array(), *tc = json_array(), *mem = json_array();
	unsigned int i, c;

	for (i = 0; i < tm->n; i++) {
		const struct fws_telem_sec *s = &tm->secs[i];
		json_t *k = json_array();

		json_array_append_new(t, json_real(s->t));
		json_array_append_new(dt, json_real(s->dt));
		json_array_append_new(ph, json_string(fws_telem_phase_name(s->phase)));
		json_array_append_new(cpu, num_or_null(HAS(s, CPU), s->cpu));
		for (c = 0; HAS(s, CPU) && c < s->n_cpu; c++)
			json_array_append_new(k, num_or_null(!isnan(s->core[c]), s->core[c]));
		json_array_append_new(cores, k);
		json_array_append_new(irq, num_or_null(HAS(s, INTR), s->irq_ps));
		json_array_append_new(st, HAS(s, STATES) ? json_integer(s->states) : json_null());
		json_array_append_new(dr, HAS(s, DROPS) ? json_integer((json_int_t)s->drops)
							: json_null());
		json_array_append_new(mb, HAS(s, MBUF) ? json_integer((json_int_t)s->mbuf)
						       : json_null());
		json_array_append_new(tc, num_or_null(HAS(s, TEMP), s->temp_c));
		json_array_append_new(mem, num_or_null(HAS(s, MEM), s->mem_pct));
	}
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "t", t, "dt",
			 dt, "phase", ph, "cpu_pct", cpu, "cores_pct", cores, "interrupts_per_s",
			 irq, "states", st, "drops", dr, "mbuf_denied", mb, "temperature_c", tc,
			 "memory_used_pct", mem);
}

static json_t *
telem_json(const struct fws_telem *tm)
{
	char notes[FWS_TELEM_NOTES][200];
	unsigned int n = fws_telem_notes(&tm->sum, notes), i;
	json_t *o, *a = json_array();

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(notes[i]));
	o = json_pack("{s:s, s:o, s:i, s:o, s:o, s:o}", "platform", tm->platform, "missing",
		      missing_json(tm), "late", (int)tm->late, "measured", measured_json(&tm->sum),
		      "notes", a, "seconds", series_json(tm));
	if (tm->error[0])
		json_object_set_new(o, "error", json_string(tm->error));
	if (tm->dropped)
		json_object_set_new(o, "seconds_dropped", json_integer(tm->dropped));
	return o;
}

static void
text_cpu(FILE *f, const struct fws_telem_sum *u)
{
	unsigned int c;

	fprintf(f,
		"    CPU %.1f %% mean, %.1f %% max; busiest core cpu%d %.1f %% (max %.1f %%);"
		" cores:",
		u->cpu_mean, u->cpu_max, u->busiest, u->busiest_pct, u->busiest_max);
	for (c = 0; c < u->n_cpu && c < 16; c++)
		fprintf(f, isnan(u->core_mean[c]) ? " -" : " %.0f", u->core_mean[c]);
	fprintf(f, "%s\n", u->n_cpu > 16 ? " ..." : "");
}

static void
telem_text(FILE *f, const struct fws_telem *tm, uint64_t lost)
{
	const struct fws_telem_sum *u = &tm->sum;
	char notes[FWS_TELEM_NOTES][200];
	unsigned int n, i;

	fprintf(f, "  DUT telemetry (%s): %u measured seconds%s\n",
		tm->platform[0] ? tm->platform : "no answer", u->n,
		tm->late ? ", some snapshots late" : "");
	if (tm->error[0])
		fprintf(f, "    error: %s\n", tm->error);
	if (HAS(u, CPU))
		text_cpu(f, u);
	if (HAS(u, INTR)) {
		fprintf(f, "    interrupts %.0f/s mean, %.0f/s max; busiest:", u->irq_mean,
			u->irq_max);
		for (i = 0; i < u->n_top; i++)
			fprintf(f, "%s %s %" PRIu64 "/s", i ? "," : "", u->top[i].name,
				u->top[i].count);
		fputc('\n', f);
	}
	if (u->states)
		fprintf(f, "    states %" PRId64 " at the end, growth %" PRId64 "\n", u->states_end,
			u->states_growth);
	if (HAS(u, DROPS))
		fprintf(f,
			"    the DUT's own drops and errors: %" PRIu64
			"%s%s%s; fwstress lost %" PRIu64 "\n",
			u->drops, u->drops ? " (" : "", u->drops_where, u->drops ? ")" : "", lost);
	for (i = 0; i < FWS_TELEM_N; i++)
		if ((tm->missing >> i) & 1)
			fprintf(f, "    %s: not measured: %s\n", fws_telem_metric_name(i),
				tm->why[i][0] ? tm->why[i] : "no answer");
	n = fws_telem_notes(u, notes);
	for (i = 0; i < n; i++)
		fprintf(f, "  note: DUT: %s\n", notes[i]);
}

static void
tel_json(const void *result, json_t *trial)
{
	const struct fws_fd_telem *x = result;

	if (x->tm)
		json_object_set_new(trial, "dut_telemetry", telem_json(x->tm));
}

/* Its telemetry with the notes, the DUT's own drops beside the frames the trial lost. */
static void
tel_text(FILE *f, const void *result)
{
	const struct fws_fd_telem *x = result;

	if (x->tm)
		telem_text(f, x->tm, x->lost);
}

static void
tel_release(void *result)
{
	struct fws_fd_telem *x = result;

	if (x->tm)
		fws_telem_free(x->tm);
	free(x->tm);
	x->tm = NULL;
}

const struct fws_featdata fws_fd_telem = {
	.name = "telemetry",
	.trial_result_size = sizeof(struct fws_fd_telem),
	.json_trial = tel_json,
	.text_trial = tel_text,
	.release_trial = tel_release,
};

const struct fws_telem *
fws_fd_telem_of(const struct fws_fd_layout *l, const void *trial_area)
{
	const struct fws_fd_telem *x = fws_fd_trial_result_c(l, &fws_fd_telem, trial_area);

	return x ? x->tm : NULL;
}
