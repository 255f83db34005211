/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A host links without the controller: this program calls a host's entry points (the agent's
 * server, the in-process agent) and links against lib/host and the seam alone. A host file
 * that calls into lib/ctrl (a log type, a helper) fails this link, not a user's build.
 */
#include <stdio.h>

#include "fws_agent_local.h"
#include "fws_agent_srv.h"

int
main(int argc, char **argv)
{
	(void)argv;
	if (argc > 99) { /* never: called only so that the linker must resolve them (no EAL) */
		fws_agent_srv_free(fws_agent_srv_new(-1, NULL));
		fws_agent_local(NULL, NULL);
		fws_agent_local_part(NULL, 0, NULL);
	}
	printf("lib/host links alone\n");
	return 0;
}
