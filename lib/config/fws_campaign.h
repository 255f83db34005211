/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Campaign plans (fwstress campaign PLAN.json): one DUT, a list of scenarios, each a config
 * (a file, or a base config with overrides), the command that measures it (run, search,
 * sweep or connections) and the shell commands that put the DUT into that scenario and take it out again.
 * Each scenario is measured by a fwstress child of its own (EAL starts once per process);
 * its report is read back and its cells become the campaign's, labelled with the scenario's
 * name. The campaign report says per scenario whether it is done, so --resume skips those.
 */
#ifndef FWS_CAMPAIGN_H
#define FWS_CAMPAIGN_H

#include <stdbool.h>
#include <stddef.h>

#include "fws_config.h"

#define FWS_CAMPAIGN_MAX_SCENARIOS 64
#define FWS_CAMPAIGN_MAX_WRAP 8
#define FWS_CAMPAIGN_CMD_LEN 1024

#define FWS_CAMPAIGN_CMDS(X)                                                                       \
	X(RUN, "run") X(SEARCH, "search") X(SWEEP, "sweep") X(CONNECTIONS, "connections")
enum fws_campaign_cmd {
#define FWS_CAMPAIGN_CMD_ENUM(n, s) FWS_CAMPAIGN_##n,
	FWS_CAMPAIGN_CMDS(FWS_CAMPAIGN_CMD_ENUM)
#undef FWS_CAMPAIGN_CMD_ENUM
};

/* What became of a scenario; the campaign report holds it. */
#define FWS_CAMPAIGN_STATUSES(X)                                                                   \
	X(PENDING, "pending")                                                                      \
	X(DONE, "done")                                                                            \
	X(EXPECT_FAILED, "done, expectations failed")                                              \
	X(FAILED, "failed")                                                                        \
	X(SETUP_FAILED, "setup failed")                                                            \
	X(INTERRUPTED, "interrupted")
enum fws_campaign_status {
#define FWS_CAMPAIGN_STATUS_ENUM(n, s) FWS_CAMPAIGN_ST_##n,
	FWS_CAMPAIGN_STATUSES(FWS_CAMPAIGN_STATUS_ENUM)
#undef FWS_CAMPAIGN_STATUS_ENUM
};

struct fws_campaign_scenario {
	char name[FWS_CFG_NAME_LEN]; /**< the matrix row: the cells' scenario */
	enum fws_campaign_cmd cmd;
	char config[FWS_CFG_PATH_LEN]; /**< resolved against the plan's directory */
	char *overrides;               /**< JSON text of the overrides object, or NULL */
	char setup[FWS_CAMPAIGN_CMD_LEN], teardown[FWS_CAMPAIGN_CMD_LEN]; /**< "" = none */
	/** The config's host each runs on ({"host": ..., "command": ...}); "": this one. */
	char setup_host[FWS_CFG_NAME_LEN], teardown_host[FWS_CFG_NAME_LEN];
	/* What happened (kept from the campaign report on --resume). */
	enum fws_campaign_status status;
	double seconds;                /**< how long it took */
	int exit_code;                 /**< of the measuring child; -1: none ran */
	char reason[256];              /**< why it failed; "" */
	char report[FWS_CFG_PATH_LEN]; /**< its own report, in the work directory */
};

struct fws_campaign {
	struct fws_cfg_dut dut;         /**< "dut": its fields "" = the configs' own */
	char output[FWS_CFG_PATH_LEN];  /**< the campaign report */
	char workdir[FWS_CFG_PATH_LEN]; /**< scenario configs, reports, logs: output + ".d" */
	unsigned int n_wrap;            /**< the measuring child runs as WRAP... fwstress CMD ... */
	char wrap[FWS_CAMPAIGN_MAX_WRAP][FWS_CFG_PATH_LEN];
	unsigned int n;
	struct fws_campaign_scenario s[FWS_CAMPAIGN_MAX_SCENARIOS];
};

/** The name of a command / a status. */
const char *fws_campaign_cmd_name(enum fws_campaign_cmd c);
const char *fws_campaign_status_name(enum fws_campaign_status s);

/**
 * Parse a plan; relative paths in it start at base (the plan's directory; NULL: the
 * current one). 0, or -EINVAL / -ENOMEM with a one-line message naming the key.
 */
int fws_campaign_parse(const char *buf, size_t len, const char *base, struct fws_campaign *p,
		       char *err, size_t errlen);

/** The file at path is a campaign plan (an object with "scenarios"), not a config. */
bool fws_campaign_is_plan(const char *path);

/** Read and parse the plan at path. */
int fws_campaign_load(const char *path, struct fws_campaign *p, char *err, size_t errlen);

void fws_campaign_free(struct fws_campaign *p);

/**
 * Scenario i's config as JSON text (malloc'd, NULL on error with err): its file, the
 * overrides merged in (objects key by key, anything else replaced), the plan's DUT, its
 * blocklist paths made absolute. The result is validated as a config.
 */
char *fws_campaign_config_text(const struct fws_campaign *p, unsigned int i, char *err,
			       size_t errlen);

#endif /* FWS_CAMPAIGN_H */
