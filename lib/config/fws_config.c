/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers on the config's types that parse nothing: names of directions, a port by name,
 * the EAL arguments refused, a stream's senders and reversed flows.
 */
#include <errno.h>
#include <string.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "fws_util.h"

const char *
fws_config_eal_refused(const char *arg, const char *next)
{
	const char *type = NULL;

	if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
		return "EAL would print its usage and exit without running";
	if (strncmp(arg, "--proc-type=", 12) == 0)
		type = arg + 12;
	else if (strcmp(arg, "--proc-type") == 0)
		type = next ? next : "";
	if (type && strcmp(type, "primary") != 0 && strcmp(type, "auto") != 0)
		return "fwstress runs as a primary process (it sets up and owns its ports)";
	return NULL;
}

static const char *const dir_names[] = {
#define DIR_NAME(n, s) [FWS_DIR_##n] = s,
	FWS_DIRS(DIR_NAME)
#undef DIR_NAME
};

const char *
fws_dir_name(enum fws_dir d)
{
	return (unsigned int)d < FWS_DIM(dir_names) ? dir_names[d] : "?";
}

enum fws_dir
fws_dir_of(const char *name)
{
	enum fws_dir d;

	for (d = FWS_DIR_UPLOAD; d <= FWS_DIR_BIDIR; d++)
		if (strcmp(name, dir_names[d]) == 0)
			return d;
	return FWS_DIR_NONE;
}

int
fws_config_port(const struct fws_cfg *cfg, const char *name)
{
	unsigned int i;

	for (i = 0; i < cfg->n_ports; i++)
		if (strcmp(cfg->ports[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
}

void
fws_cfg_reverse_flows(const struct fws_flow_spec *in, struct fws_flow_spec *out)
{
	*out = *in;
	memcpy(out->src6, in->dst6, sizeof(out->src6));
	memcpy(out->dst6, in->src6, sizeof(out->dst6));
	out->src_ip_lo = in->dst_ip_lo;
	out->src_ip_hi = in->dst_ip_hi;
	out->dst_ip_lo = in->src_ip_lo;
	out->dst_ip_hi = in->src_ip_hi;
	out->src_port_lo = in->dst_port_lo;
	out->src_port_hi = in->dst_port_hi;
	out->dst_port_lo = in->src_port_lo;
	out->dst_port_hi = in->src_port_hi;
}

int
fws_cfg_sender(const struct fws_cfg_stream *s, unsigned int p)
{
	unsigned int j;

	for (j = 0; j < s->n_tx; j++)
		if (s->tx_ports[j] == p)
			return (int)j;
	return -1;
}

void
fws_cfg_stream_tx(struct fws_cfg_stream *s, unsigned int p)
{
	s->tx_port = s->tx_ports[0] = (uint8_t)p;
	s->n_tx = 1;
}

const char *
fws_cfg_senders_name(const struct fws_cfg *cfg, const struct fws_cfg_stream *s, char *buf,
		     size_t len)
{
	unsigned int j;

	buf[0] = '\0';
	for (j = 0; j < s->n_tx; j++) {
		if (j)
			strlcat(buf, "+", len);
		strlcat(buf, cfg->ports[s->tx_ports[j]].name, len);
	}
	return buf;
}
