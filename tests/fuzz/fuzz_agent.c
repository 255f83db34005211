/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer: the agent's server (fws_agent_srv), as an ssh key restricted to fwstress agent
 * exposes it. Each input is JSON lines of requests to a server set up on a fixed config of
 * two streams over four ports, its host a fake agent that aborts when an operation is handed
 * anything the config does not have: a stream, a flow range, a frame size, a stage, a phase,
 * a mask, a rate that is not a finite number in range, a PTP socket no unix socket can have.
 * Answers go to /dev/null; the server must answer every line and never crash.
 */
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>
#include <unistd.h>

#include "fws_agent_srv.h"
#include "fws_conntrial.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char config_text[] =
	"{\"hosts\": [{\"name\": \"a\", \"command\": [\"true\"]}],"
	" \"ports\": [{\"name\": \"lan\", \"device\": \"ringpair:fz:a\", \"host\": \"a\"},"
	"  {\"name\": \"wan\", \"device\": \"ringpair:fz:b\", \"host\": \"a\"}],"
	" \"direction\": \"bidir\", \"flows\": {\"count\": 300},"
	" \"frame_size\": [64, 512, \"imix\"]}";

static const struct fws_cfg *the_cfg;

static void
need(bool ok)
{
	if (!ok)
		abort();
}

static void
flows_in(unsigned int s, uint32_t lo, uint32_t n)
{
	need(s < the_cfg->n_streams && n >= 1 && n <= FWS_AGENT_CHUNK &&
	     (uint64_t)lo + n <= the_cfg->streams[s].flows.count);
}

static unsigned int
f_ports(struct fws_agent *a, struct fws_port_result *out)
{
	(void)a;
	(void)out;
	return 0;
}

static void
f_clock(struct fws_agent *a, uint64_t *hz, uint64_t *hz_dpdk)
{
	(void)a;
	*hz = *hz_dpdk = 1000000000;
}

static uint64_t
f_tsc(struct fws_agent *a)
{
	(void)a;
	return 1;
}

static int
f_ptp(struct fws_agent *a, const char *socket, unsigned int domain, struct fws_ptp_point *out,
      struct fws_err *e)
{
	(void)a;
	(void)e;
	need(socket[0] == '/' && strlen(socket) < sizeof(((struct sockaddr_un *)0)->sun_path) &&
	     domain <= 255);
	memset(out, 0, sizeof(*out));
	return 0;
}

static uint64_t
f_hugepage_peak(struct fws_agent *a)
{
	(void)a;
	return 0;
}

static int
f_prepare(struct fws_agent *a, enum fws_prep_stage st, uint32_t mask, volatile int *stop,
	  struct fws_err *e)
{
	(void)a;
	(void)stop;
	(void)e;
	need((unsigned int)st < FWS_PREP_STAGES && mask >> the_cfg->n_streams == 0);
	return 0;
}

static int
f_arm(struct fws_agent *a, const struct fws_agent_plan *p, struct fws_err *e)
{
	unsigned int s;

	(void)a;
	(void)e;
	need(p->size_idx < the_cfg->n_sizes && p->active >> the_cfg->n_streams == 0);
	for (s = 0; s < FWS_CFG_MAX_STREAMS; s++)
		need(isfinite(p->pps[s]) && p->pps[s] >= 0 && p->pps[s] <= 1e10 &&
		     p->limit[s] <= (1ull << 54));
	return 0;
}

static int
f_launch(struct fws_agent *a, enum fws_phase ph, struct fws_err *e)
{
	(void)a;
	(void)e;
	need((unsigned int)ph <= FWS_PHASE_MEASURE);
	return 0;
}

static double
f_phase(struct fws_agent *a, enum fws_phase ph, uint64_t at)
{
	(void)a;
	(void)at;
	need((unsigned int)ph <= FWS_PHASE_STOP);
	return 0;
}

static void
f_poll(struct fws_agent *a, struct fws_agent_poll *out)
{
	(void)a;
	memset(out, 0, sizeof(*out));
}

static void
f_live(struct fws_agent *a, bool warm, struct fws_agent_live *out)
{
	(void)a;
	(void)warm;
	memset(out, 0, sizeof(*out));
}

static void
f_stop(struct fws_agent *a, bool measured)
{
	(void)a;
	(void)measured;
}

static void
f_counts(struct fws_agent *a, struct fws_agent_counts *out)
{
	(void)a;
	(void)out;
}

static void
f_rx_flows(struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n,
	   struct fws_agent_rxflow *out)
{
	(void)a;
	flows_in(s, lo, n);
	memset(out, 0, sizeof(*out) * n);
}

static void
f_tx_flows(struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n,
	   struct fws_agent_txflow *out)
{
	(void)a;
	flows_in(s, lo, n);
	memset(out, 0, sizeof(*out) * n);
}

static int
f_aim(struct fws_agent *a, unsigned int s, uint32_t lo, uint32_t n, const struct fws_nat_tuple *at)
{
	(void)a;
	(void)at;
	flows_in(s, lo, n);
	return 0;
}

static void
f_retire(struct fws_agent *a)
{
	(void)a;
}

static int
f_conn_trial(struct fws_agent *a, double rate, uint32_t nonce, bool progress,
	     const struct fws_conntester_hooks *hk, volatile int *stop, struct fws_conntrial *out,
	     struct fws_err *e)
{
	(void)a;
	(void)nonce;
	(void)progress;
	(void)stop;
	(void)e;
	need(isfinite(rate) && rate > 0 && rate <= 1e9);
	memset(out, 0, sizeof(*out));
	hk->measured(hk->arg, false, out);
	return 0;
}

static int
f_conn_between(struct fws_agent *a, volatile int *stop, struct fws_err *e)
{
	(void)a;
	(void)stop;
	(void)e;
	return 0;
}

static int
f_conn_serve(struct fws_agent *a, uint32_t nonce, struct fws_err *e)
{
	(void)a;
	(void)nonce;
	(void)e;
	return 0;
}

static void
f_destroy(struct fws_agent *a)
{
	free(a);
}

static const struct fws_agent_ops fake_ops = {
	.name = "fake",
	.ports = f_ports,
	.clock = f_clock,
	.tsc = f_tsc,
	.ptp = f_ptp,
	.hugepage_peak = f_hugepage_peak,
	.prepare = f_prepare,
	.arm = f_arm,
	.launch = f_launch,
	.phase = f_phase,
	.poll = f_poll,
	.live = f_live,
	.stop = f_stop,
	.collect = f_counts,
	.rx_flows = f_rx_flows,
	.tx_flows = f_tx_flows,
	.aim = f_aim,
	.after = f_counts,
	.retire = f_retire,
	.conn_trial = f_conn_trial,
	.conn_between = f_conn_between,
	.conn_serve = f_conn_serve,
	.destroy = f_destroy,
};

static int
fake_eal(struct fws_cfg *cfg)
{
	(void)cfg;
	return 0;
}

static struct fws_agent *
fake_part(const struct fws_cfg *cfg, unsigned int host, struct fws_err *e)
{
	struct fws_agent *a = calloc(1, sizeof(*a));

	(void)e;
	need(host >= 1 && host <= cfg->n_hosts);
	the_cfg = cfg;
	if (a != NULL)
		a->ops = &fake_ops;
	return a;
}

static const struct fws_agent_srv_env env = {.eal_start = fake_eal, .part = fake_part};

/* The server set up as a controller sets it up: the config, host 1, its counts. */
static struct fws_agent_srv *
set_up(int out)
{
	struct fws_agent_srv *s = fws_agent_srv_new(out, &env);
	json_t *req = json_pack("{s:i, s:s, s:o, s:i, s:i, s:i}", "id", 0, "op", "setup", "config",
				json_loads(config_text, 0, NULL), "host", 1, "n_ports", 2,
				"n_streams", 2);

	need(s != NULL && req != NULL);
	fws_agent_srv_answer(s, req);
	json_decref(req);
	need(the_cfg != NULL);
	return s;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int out = -1;
	char *text = malloc(size + 1), *line, *save;
	struct fws_agent_srv *s;

	if (text == NULL)
		return 0;
	if (out < 0)
		out = open("/dev/null", O_WRONLY);
	memcpy(text, data, size);
	text[size] = '\0';
	s = set_up(out);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		json_t *req = json_loads(line, 0, NULL);

		if (json_is_object(req))
			fws_agent_srv_answer(s, req);
		json_decref(req);
		if (fws_agent_srv_bye(s))
			break;
	}
	fws_agent_srv_free(s);
	the_cfg = NULL;
	free(text);
	return 0;
}
