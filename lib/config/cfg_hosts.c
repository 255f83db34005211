/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Config section "hosts": the load clients whose agents (fwstress agent) own ports, and the
 * command that reaches each (its stdin and stdout carry the control stream; by default
 * OpenSSH, so that nothing listens and ssh authenticates and encrypts).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "cfg_int.h"
#include "fws_util.h"

void
cfg_host_free(struct fws_cfg_host *h)
{
	unsigned int i;

	for (i = 0; i < h->n_argv; i++)
		free(h->argv[i]);
	for (i = 0; i < h->n_eal; i++)
		free(h->eal[i]);
	for (i = 0; i < h->n_ssh_opts; i++)
		free(h->ssh_opts[i]);
	for (i = 0; i < h->n_shell; i++)
		free(h->shell[i]);
	h->n_argv = h->n_eal = h->n_ssh_opts = h->n_shell = 0;
}

/* A name others can refer to and messages can print: letters, digits, ".", "_", "-". */
static bool
plain_name(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '.' || *s == '_' || *s == '-'))
			return false;
	return true;
}

/* A list of 1 to max strings into out (strdup'd); refused when one is empty. */
static int
string_list(struct cfg_ctx *c, const json_t *v, unsigned int max, char **out, unsigned int *n)
{
	const json_t *e;
	size_t i, old;

	if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > max)
		return cfg_fail(c, "expected a list of 1 to %u strings", max);
	json_array_foreach(v, i, e)
	{
		old = cfg_push_idx(c, i);
		if (!json_is_string(e) || json_string_length(e) == 0)
			return cfg_fail(c, "expected a non-empty string");
		if ((out[i] = strdup(json_string_value(e))) == NULL)
			return -ENOMEM;
		*n = (unsigned int)i + 1;
		cfg_pop(c, old);
	}
	return 0;
}

static int
host_eal(struct cfg_ctx *c, const json_t *v, struct fws_cfg_host *h)
{
	unsigned int i;
	const char *why;

	if (string_list(c, v, FWS_CFG_MAX_EAL, h->eal, &h->n_eal) < 0)
		return -EINVAL;
	for (i = 0; i < h->n_eal; i++) {
		why = fws_config_eal_refused(h->eal[i], i + 1 < h->n_eal ? h->eal[i + 1] : NULL);
		if (why) {
			cfg_push_idx(c, i);
			return cfg_fail(c, "\"%s\": %s", h->eal[i], why);
		}
	}
	return 0;
}

static int
push_arg(struct fws_cfg_host *h, const char *a)
{
	if ((h->argv[h->n_argv] = strdup(a)) == NULL)
		return -ENOMEM;
	h->n_argv++;
	return 0;
}

/* The ssh default: ssh -T -o BatchMode=yes [SSH_OPTIONS] -- DEST FWSTRESS agent. */
static int
ssh_argv(struct fws_cfg_host *h)
{
	const char *a[] = {"ssh", "-T", "-o", "BatchMode=yes"};
	const char *b[] = {"--", h->ssh[0] ? h->ssh : h->name,
			   h->fwstress[0] ? h->fwstress : "fwstress", "agent"};
	unsigned int i;
	int rc = 0;

	for (i = 0; i < FWS_DIM(a) && rc == 0; i++)
		rc = push_arg(h, a[i]);
	for (i = 0; i < h->n_ssh_opts && rc == 0; i++)
		rc = push_arg(h, h->ssh_opts[i]);
	for (i = 0; i < FWS_DIM(b) && rc == 0; i++)
		rc = push_arg(h, b[i]);
	return rc;
}

unsigned int
fws_config_host_shell(const struct fws_cfg_host *h, const char **argv, unsigned int max)
{
	unsigned int i, n = 0;

	if (h->n_shell) {
		for (i = 0; i < h->n_shell && n < max; i++)
			argv[n++] = h->shell[i];
		return n;
	}
	if (h->command_set)
		return 0;
	/* The agent's ssh command up to its destination: "--", DEST. */
	for (i = 0; i + 2 < h->n_argv && n < max; i++)
		argv[n++] = h->argv[i];
	return n;
}

static int
parse_host(struct cfg_ctx *c, const json_t *v, struct fws_cfg_host *h)
{
	static const char *const keys[] = {"name",       "command", "ssh",   "ssh_options",
					   "fwstress",   "eal",     "shell", "inventory",
					   "ptp_socket", NULL};
	const json_t *x;
	size_t old;

	if (cfg_want_type(c, v, JSON_OBJECT, "an object") < 0 || cfg_check_keys(c, v, keys) < 0)
		return -EINVAL;
	if ((x = json_object_get(v, "name")) == NULL)
		return cfg_fail(c, "a host needs a \"name\"");
	old = cfg_push_key(c, "name");
	if (cfg_get_string(c, x, h->name, sizeof(h->name)) < 0)
		return -EINVAL;
	if (!plain_name(h->name))
		return cfg_fail(c, "\"%s\": a host name is letters, digits, \".\", \"_\", \"-\"",
				h->name);
	cfg_pop(c, old);
	if (cfg_member_string(c, v, "ssh", false, h->ssh, sizeof(h->ssh)) < 0 ||
	    cfg_member_string(c, v, "fwstress", false, h->fwstress, sizeof(h->fwstress)) < 0 ||
	    cfg_member_string(c, v, "ptp_socket", true, h->ptp_socket, sizeof(h->ptp_socket)) < 0)
		return -EINVAL;
	if ((x = json_object_get(v, "eal")) != NULL) {
		old = cfg_push_key(c, "eal");
		if (host_eal(c, x, h) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "ssh_options")) != NULL) {
		old = cfg_push_key(c, "ssh_options");
		if (string_list(c, x, FWS_DIM(h->ssh_opts), h->ssh_opts, &h->n_ssh_opts) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	if ((x = json_object_get(v, "shell")) != NULL) {
		old = cfg_push_key(c, "shell");
		if (string_list(c, x, FWS_DIM(h->shell), h->shell, &h->n_shell) < 0)
			return -EINVAL;
		cfg_pop(c, old);
	}
	if (json_object_get(v, "inventory") && cfg_host_inventory(c, v, h) < 0)
		return -EINVAL;
	if ((x = json_object_get(v, "command")) == NULL)
		return ssh_argv(h);
	if (h->ssh[0] || h->fwstress[0] || h->n_ssh_opts)
		return cfg_fail(c,
				"host \"%s\": give a \"command\" or \"ssh\"/\"ssh_options\"/"
				"\"fwstress\", not both",
				h->name);
	h->command_set = true;
	old = cfg_push_key(c, "command");
	if (string_list(c, x, FWS_CFG_MAX_ARGV, h->argv, &h->n_argv) < 0)
		return -EINVAL;
	cfg_pop(c, old);
	return 0;
}

int
cfg_sec_hosts(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	struct fws_cfg *cfg = t->cfg;
	const json_t *e;
	size_t i, j, old;

	if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > FWS_CFG_MAX_HOSTS)
		return cfg_fail(c, "expected a list of 1 to %d hosts", FWS_CFG_MAX_HOSTS);
	json_array_foreach(v, i, e)
	{
		old = cfg_push_idx(c, i);
		cfg->n_hosts = (unsigned int)i + 1;
		if (parse_host(c, e, &cfg->hosts[i]) < 0)
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (strcmp(cfg->hosts[j].name, cfg->hosts[i].name) == 0)
				return cfg_fail(c, "host name \"%s\" is used twice",
						cfg->hosts[i].name);
		cfg_pop(c, old);
	}
	return 0;
}

/* A stream from one host to another: what its sender j cannot learn from the receiver. */
static int
cross_sender(struct cfg_ctx *c, const struct fws_cfg *cfg, unsigned int s, unsigned int j)
{
	const struct fws_cfg_stream *cs = &cfg->streams[s];
	const struct fws_cfg_port *tp = &cfg->ports[cs->tx_ports[j]];
	size_t old;

	if (tp->host == cfg->ports[cs->rx_port].host)
		return 0;
	old = cfg_push_key(c, "streams");
	cfg_push_idx(c, s);
	if (cs->l4 == FWS_L4_TCP && (tp->host == 0 || cfg->ports[cs->rx_port].host == 0))
		return cfg_fail(c,
				"stream %s: \"l4\": \"tcp\" between this process's port and an "
				"agent's is not supported: give both ports a host (the idle agent "
				"answers the other end's segments, this process does not)",
				cs->name);
	if (!tp->next_hop_set && !(cs->flows.ipv6 ? tp->gateway6_set : tp->gateway != 0))
		return cfg_fail(c,
				"stream %s: its ports are on two hosts: port \"%s\" needs a %s or "
				"a next_hop_mac (the other host's MAC is not known here)",
				cs->name, tp->name, cs->flows.ipv6 ? "gateway6" : "gateway");
	cfg_pop(c, old);
	return 0;
}

/* After the ports: every host owns one; streams between hosts are ones an agent can send. */
int
cfg_hosts_check(struct cfg_ctx *c, const struct fws_cfg *cfg)
{
	unsigned int k, p;

	for (k = 0; k < cfg->n_streams; k++)
		for (p = 0; p < cfg->streams[k].n_tx; p++)
			if (cross_sender(c, cfg, k, p) < 0)
				return -EINVAL;

	for (k = 0; k < cfg->n_hosts; k++) {
		for (p = 0; p < cfg->n_ports && cfg->ports[p].host != k + 1; p++)
			;
		if (p == cfg->n_ports) {
			cfg_push_key(c, "hosts");
			cfg_push_idx(c, k);
			return cfg_fail(c,
					"host \"%s\" owns no port (no port names it in \"host\")",
					cfg->hosts[k].name);
		}
	}
	return 0;
}

/* Stream s's port of one end: its clients' (tx) or its servers'. */
static const struct fws_cfg_port *
end_port(const struct fws_cfg *cfg, unsigned int s, bool tx)
{
	return &cfg->ports[tx ? cfg->streams[s].tx_port : cfg->streams[s].rx_port];
}

static const char *
host_of(const struct fws_cfg_port *p)
{
	return p->host_name[0] ? p->host_name : "this host";
}

/* The host of every stream's port of one end (tx: the clients), or -1 naming two in err. */
static int
end_host(const struct fws_cfg *cfg, bool tx, char *err, size_t len)
{
	unsigned int s;

	if (cfg->n_streams == 0)
		return 0;
	for (s = 1; s < cfg->n_streams; s++) {
		if (end_port(cfg, s, tx)->host == end_port(cfg, 0, tx)->host)
			continue;
		snprintf(err, len,
			 "config: connections: every stream's %s (its %s) must be on one host: "
			 "stream %s's are on %s, stream %s's on %s",
			 tx ? "clients" : "servers", tx ? "tx_port" : "rx_port",
			 cfg->streams[0].name, host_of(end_port(cfg, 0, tx)), cfg->streams[s].name,
			 host_of(end_port(cfg, s, tx)));
		return -1;
	}
	return end_port(cfg, 0, tx)->host;
}

int
fws_config_conn_ends(const struct fws_cfg *cfg, unsigned int *client, unsigned int *server,
		     char *err, size_t len)
{
	int c = end_host(cfg, true, err, len), v = c < 0 ? -1 : end_host(cfg, false, err, len);

	if (c < 0 || v < 0)
		return -EINVAL;
	if (v == 0 && c != 0) {
		snprintf(err, len,
			 "config: connections: the servers (rx_port) are this process's and the "
			 "clients another host's: give the servers' ports a host too (this "
			 "process answers nobody while it waits for the clients' host)");
		return -EINVAL;
	}
	*client = (unsigned int)c;
	*server = (unsigned int)v;
	return 0;
}

static json_t *
list_json(char *const *a, unsigned int n)
{
	json_t *l = json_array();
	unsigned int i;

	for (i = 0; i < n; i++)
		json_array_append_new(l, json_string(a[i]));
	return l;
}

json_t *
cfg_emit_hosts(const struct fws_cfg *cfg)
{
	json_t *a, *o;
	unsigned int k;

	if (cfg->n_hosts == 0)
		return NULL;
	a = json_array();
	for (k = 0; k < cfg->n_hosts; k++) {
		const struct fws_cfg_host *h = &cfg->hosts[k];

		o = json_pack("{s:s}", "name", h->name);
		if (h->command_set)
			json_object_set_new(o, "command", list_json(h->argv, h->n_argv));
		if (h->ssh[0])
			json_object_set_new(o, "ssh", json_string(h->ssh));
		if (h->n_ssh_opts)
			json_object_set_new(o, "ssh_options",
					    list_json(h->ssh_opts, h->n_ssh_opts));
		if (h->fwstress[0])
			json_object_set_new(o, "fwstress", json_string(h->fwstress));
		if (h->n_eal)
			json_object_set_new(o, "eal", list_json(h->eal, h->n_eal));
		if (h->n_shell)
			json_object_set_new(o, "shell", list_json(h->shell, h->n_shell));
		if (h->ptp_socket[0])
			json_object_set_new(o, "ptp_socket", json_string(h->ptp_socket));
		json_array_append_new(a, o);
	}
	return a;
}
