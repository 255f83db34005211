/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A report's trials with DUT telemetry, read back as timelines (fws_cell.h) for the HTML
 * report: each second's CPU (all cores and each core) and the measured phase's load. A report
 * is input: what is not the shape the writer gives (lib/feat/fd_telem.c) is left out, a timeline
 * with nothing usable is not kept; nothing here fails the read.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_cells_io.h"
#include "fws_util.h"

/* a[i] as a number in [lo, hi], else NAN. */
static double
num_at(const json_t *a, size_t i, double lo, double hi)
{
	const json_t *v = json_array_get(a, i);
	double x = json_is_number(v) ? json_number_value(v) : NAN;

	return isfinite(x) && x >= lo && x <= hi ? x : NAN;
}

static int
alloc_seconds(struct fws_timeline *tl, size_t n, size_t n_cpu, size_t n_load)
{
	tl->t = calloc(n + 1, sizeof(double));
	tl->dt = calloc(n + 1, sizeof(double));
	tl->cpu = calloc(n + 1, sizeof(double));
	tl->cores = calloc(n * n_cpu + 1, sizeof(double));
	tl->load = calloc(n_load + 1, sizeof(double));
	return tl->t && tl->dt && tl->cpu && tl->cores && tl->load ? 0 : -1;
}

/* The widest core list among the seconds (at most FWS_TIMELINE_CPUS). */
static size_t
cores_of(const json_t *cores, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (json_is_array(json_array_get(cores, i)))
			k = FWS_MAX(k, json_array_size(json_array_get(cores, i)));
	return FWS_MIN(k, (size_t)FWS_TIMELINE_CPUS);
}

static void
fill(struct fws_timeline *tl, const json_t *s, const json_t *rx)
{
	const json_t *t = json_object_get(s, "t"), *ph = json_object_get(s, "phase"),
		     *cpu = json_object_get(s, "cpu_pct"), *cores = json_object_get(s, "cores_pct"),
		     *dt = json_object_get(s, "dt");
	size_t i, c;

	tl->m0 = tl->m1 = -1;
	for (i = 0; i < tl->n; i++) {
		const json_t *k = json_array_get(cores, i);
		const char *p = json_string_value(json_array_get(ph, i));

		tl->t[i] = num_at(t, i, 0, 1e7);
		tl->dt[i] = isfinite(num_at(dt, i, 0, 1e7)) ? num_at(dt, i, 0, 1e7) : 1;
		tl->cpu[i] = num_at(cpu, i, 0, 100);
		for (c = 0; c < tl->n_cpu; c++)
			tl->cores[i * tl->n_cpu + c] = num_at(k, c, 0, 100);
		if (p && strcmp(p, "measure") == 0 && isfinite(tl->t[i])) {
			if (tl->m0 < 0)
				tl->m0 = tl->t[i];
			tl->m1 = tl->t[i] + tl->dt[i];
		}
	}
	for (i = 0; i < tl->n_load; i++)
		tl->load[i] = num_at(rx, i, 0, 1e12);
}

static void
read_one(const json_t *tr, size_t idx, struct fws_cells *cells)
{
	const json_t *s = json_object_get(json_object_get(tr, "dut_telemetry"), "seconds");
	const json_t *t = json_object_get(s, "t"), *rx;
	struct fws_timeline *tl;
	size_t n = FWS_MIN(json_array_size(t), (size_t)FWS_TIMELINE_SECONDS), n_load;

	if (!json_is_array(t) || n < 2 || cells->n_timelines >= FWS_TIMELINES_MAX)
		return;
	rx = json_object_get(json_object_get(tr, "seconds"), "rx_pps");
	n_load = FWS_MIN(json_array_size(rx), (size_t)FWS_TIMELINE_SECONDS);
	tl = &cells->timelines[cells->n_timelines];
	memset(tl, 0, sizeof(*tl));
	tl->trial = (unsigned int)idx;
	tl->n = (unsigned int)n;
	tl->n_cpu = (unsigned int)cores_of(json_object_get(s, "cores_pct"), n);
	tl->n_load = (unsigned int)n_load;
	if (json_is_string(json_object_get(tr, "frame_size")))
		strlcpy(tl->size, json_string_value(json_object_get(tr, "frame_size")),
			sizeof(tl->size));
	if (json_is_string(json_object_get(json_object_get(tr, "sweep_cell"), "direction")))
		strlcpy(tl->direction,
			json_string_value(
				json_object_get(json_object_get(tr, "sweep_cell"), "direction")),
			sizeof(tl->direction));
	if (json_is_string(json_object_get(tr, "search_goal")))
		strlcpy(tl->kind, json_string_value(json_object_get(tr, "search_goal")),
			sizeof(tl->kind));
	if (alloc_seconds(tl, n, tl->n_cpu, n_load) < 0) {
		free(tl->t);
		free(tl->dt);
		free(tl->cpu);
		free(tl->cores);
		free(tl->load);
		return;
	}
	fill(tl, s, rx);
	cells->n_timelines++;
}

void
fws_report_read_timelines(const json_t *root, struct fws_cells *cells)
{
	const json_t *a = json_object_get(root, "trials");
	size_t i, want = 0;

	for (i = 0; i < json_array_size(a); i++)
		want += json_is_object(json_object_get(json_array_get(a, i), "dut_telemetry"));
	if (want == 0)
		return;
	cells->timelines =
		calloc(FWS_MIN(want, (size_t)FWS_TIMELINES_MAX), sizeof(*cells->timelines));
	for (i = 0; cells->timelines && i < json_array_size(a); i++)
		read_one(json_array_get(a, i), i, cells);
}
