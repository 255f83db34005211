/* SPDX-License-Identifier: BSD-3-Clause */
/* Feature "dutload", its data (fd_dutload.h): JSON and text. */
#include "fd_dutload.h"

static void
dut_json(const void *result, json_t *trial)
{
	const struct fws_fd_dutload *x = result;

	if (!x->probed)
		return;
	json_object_set_new(trial, "dut_load",
			    x->v.ok ? json_pack("{s:f, s:f, s:f, s:f}", "us", x->v.us, "sy",
						x->v.sy, "id", x->v.id, "cpu_pct", x->v.cpu)
				    : json_pack("{s:s}", "error", x->v.error));
}

static void
dut_text(FILE *f, const void *result)
{
	const struct fws_fd_dutload *x = result;

	if (x->probed && x->v.ok)
		fprintf(f, "  DUT load: %.1f %% CPU (us %.1f, sy %.1f, id %.1f)\n", x->v.cpu,
			x->v.us, x->v.sy, x->v.id);
	else if (x->probed)
		fprintf(f, "  DUT load: not measured: %s\n", x->v.error);
}

const struct fws_featdata fws_fd_dutload = {
	.name = "dutload",
	.trial_result_size = sizeof(struct fws_fd_dutload),
	.json_trial = dut_json,
	.text_trial = dut_text,
};

double
fws_fd_dut_cpu(const struct fws_fd_layout *l, const void *trial_area)
{
	const struct fws_fd_dutload *x = fws_fd_trial_result_c(l, &fws_fd_dutload, trial_area);

	return x && x->probed && x->v.ok ? x->v.cpu : -1;
}
