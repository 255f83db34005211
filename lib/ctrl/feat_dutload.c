/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trial feature "dutload": the DUT load command (dut.load_command, fws_dutload) runs over
 * each trial's measured phase (never over probes); its CPU figures go into the result.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_dutload.h"
#include "fws_feature.h"
#include "fws_trial_int.h"

static int
dut_setup(struct fws_trial *t, void **state, struct fws_err *e)
{
	if (!t->cfg->dut.load_cmd[0])
		return 0;
	*state = calloc(1, sizeof(struct fws_dutload_proc));
	return *state ? 0 : fws_err_set(e, FWS_ERR_SETUP, -ENOMEM, "setup: out of memory");
}

/* The measured phase begins: start the command for its duration. */
static void
dut_measure(struct fws_trial *t, void *state, const struct fws_step *x)
{
	struct fws_fd_dutload *d = fws_trial_trial_block(t, &fws_fd_dutload, x->res);
	struct fws_dutload_proc *dl = state;
	const char *cmd = t->cfg->dut.load_cmd;
	int rc;

	if (dl == NULL || d == NULL || x->probe)
		return;
	d->probed = true;
	rc = fws_dutload_start(dl, cmd, x->duration);
	if (rc < 0)
		snprintf(d->v.error, sizeof(d->v.error), "cannot start \"%.80s\": %s", cmd,
			 strerror(-rc));
}

/* A chatty command never blocks on its pipe. */
static void
dut_service(struct fws_trial *t, void *state, const struct fws_step *x)
{
	struct fws_dutload_proc *dl = state;

	(void)t;
	(void)x;
	if (dl && dl->pid > 0)
		fws_dutload_drain(dl);
}

static void
dut_finish(struct fws_trial *t, void *state, const struct fws_step *x)
{
	struct fws_fd_dutload *d = fws_trial_trial_block(t, &fws_fd_dutload, x->res);
	struct fws_dutload_proc *dl = state;

	if (dl == NULL || dl->pid <= 0 || d == NULL || !d->probed)
		return;
	/* It was given the measured duration; allow it 15 s more to report. */
	fws_dutload_finish(dl, x->interrupted ? 1 : 15, &d->v);
	dl->pid = 0;
	if (!d->v.ok)
		FWS_LOG(WARNING, "DUT load probe: %s", d->v.error);
}

static void
dut_destroy(struct fws_trial *t, void *state)
{
	(void)t;
	free(state);
}

const struct fws_feature fws_feature_dutload = {
	.name = "dutload",
	.setup = dut_setup,
	.on = {[FWS_FEATURE_MEASURE] = dut_measure,
	       [FWS_FEATURE_SERVICE] = dut_service,
	       [FWS_FEATURE_FINISH] = dut_finish},
	.destroy = dut_destroy,
};
