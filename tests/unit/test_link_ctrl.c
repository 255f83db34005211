/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The controller links without a host: this program calls the controller's entry points (a
 * trial over given agents, the remote agent, the methods) and links against lib/ctrl and the
 * seam alone: no lib/host, lib/dp or lib/ctl.
 */
#include <stdio.h>

#include "fws_agent_remote.h"
#include "fws_conntest.h"
#include "fws_method.h"
#include "fws_trial_agents.h"

int
main(int argc, char **argv)
{
	(void)argv;
	if (argc > 99) { /* never: called only so that the linker must resolve them */
		fws_trial_destroy(fws_trial_create_agents(NULL, NULL, 0, NULL, NULL));
		fws_agent_remote(NULL, 1, NULL, NULL);
		fws_method_execute(NULL, 0, NULL);
		fws_conntest_execute(NULL, NULL, NULL);
		fws_connagents_free(fws_connagents_new(NULL, NULL, NULL, false, NULL));
	}
	printf("lib/ctrl links alone\n");
	return 0;
}
