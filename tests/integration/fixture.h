/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared setup of the in-process fixtures: EAL with a third lcore for the fixture, the
 * config's trial (its ports are side a of two ring pairs), and the fixture's ends (side b)
 * of the same rings, between which the fixture forwards.
 */
#ifndef FWS_TEST_FIXTURE_H
#define FWS_TEST_FIXTURE_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>

#include "fws_agents.h"
#include "fws_config.h"
#include "fws_port.h"
#include "fws_trial.h"

#define FIXTURE_LCORE 2

struct fixture_env {
	struct fws_cfg *cfg;
	struct fws_trial *t;
	struct fws_port_info in, out; /**< the fixture receives on in, sends on out */
};

/* Hugepages reserved and hugetlbfs mounted; else the reason on stderr. */
static inline bool
fixture_hugepages(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long free_pages = 0;

	while (f && fgets(line, sizeof(line), f))
		sscanf(line, "HugePages_Free: %ld", &free_pages);
	if (f)
		fclose(f);
	if (free_pages < 64 || access("/dev/hugepages", W_OK) != 0) {
		fprintf(stderr,
			"SKIP: %ld free hugepages or /dev/hugepages not writable: run "
			"tools/setup as root\n",
			free_pages);
		return false;
	}
	return true;
}

/* Returns 0; 77 (skip) when EAL cannot start for want of hugepages, as DPDK's own tests do;
 * or 1, with the reason printed. */
static inline int
fixture_setup(char *argv0, const char *cfg_json, const char *in_dev, const char *out_dev,
	      struct fixture_env *e)
{
	char *eal[] = {
		argv0, "--no-pci", "--in-memory", "--lcores=0@0,1@1,2@0", "--log-level=notice",
		NULL};
	struct fws_port_req req = {
		.nb_rxq = 1, .nb_txq = 1, .rx_desc = 1024, .tx_desc = 1024, .max_frame = 1518};
	struct fws_err fe = {0};
	char err[512];
	int a, b;

	if (!fixture_hugepages())
		return 77;
	if (rte_eal_init(5, eal) < 0) {
		fprintf(stderr, "EAL init failed\n");
		return 1;
	}
	e->cfg = fws_config_parse(cfg_json, strlen(cfg_json), err, sizeof(err));
	if (e->cfg == NULL) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	e->t = fws_trial_create(e->cfg, &fe);
	if (e->t == NULL) {
		fprintf(stderr, "%s\n", fe.msg);
		return 1;
	}
	a = fws_port_resolve(in_dev, err, sizeof(err));
	b = fws_port_resolve(out_dev, err, sizeof(err));
	if (a < 0 || b < 0 || fws_port_setup((uint16_t)a, &req, &e->in, err, sizeof(err)) < 0 ||
	    fws_port_setup((uint16_t)b, &req, &e->out, err, sizeof(err)) < 0) {
		fprintf(stderr, "fixture ports: %s\n", err);
		return 1;
	}
	return 0;
}

/* Checks: one line each, counted; fixture_done prints the tally and gives the exit code. */
static int fixture_passed, fixture_failed;

static inline void
expect(const char *what, uint64_t got, uint64_t want)
{
	if (got == want) {
		fixture_passed++;
		printf("ok   %-52s %lu\n", what, (unsigned long)got);
	} else {
		fixture_failed++;
		printf("FAIL %-52s got %lu, want %lu\n", what, (unsigned long)got,
		       (unsigned long)want);
	}
}

static inline int
fixture_done(void)
{
	printf("%d passed, %d failed\n", fixture_passed, fixture_failed);
	return fixture_failed ? 1 : 0;
}

static inline void
fixture_teardown(struct fixture_env *e)
{
	fws_port_close(&e->in);
	fws_port_close(&e->out);
	fws_trial_destroy(e->t);
	fws_config_free(e->cfg);
	rte_eal_cleanup();
}

#endif /* FWS_TEST_FIXTURE_H */
