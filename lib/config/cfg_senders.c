/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A stream's transmit ports ("tx_port": one, or a list its flows are split over): the
 * shares, the names, and what a split stream cannot carry.
 */
#include <errno.h>
#include <string.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "cfg_int.h"

/* "tx_port": a port, or a list of distinct ports its flows are split over. */
int
cfg_stream_senders(struct cfg_ctx *c, const json_t *v, const struct fws_cfg *cfg,
		   struct fws_cfg_stream *s)
{
	const json_t *x;
	size_t i, old;
	uint8_t p = 0;

	if (!json_is_array(v)) {
		if (cfg_port_ref(c, cfg, v, &p) < 0)
			return -EINVAL;
		fws_cfg_stream_tx(s, p);
		return 0;
	}
	if (json_array_size(v) == 0 || json_array_size(v) >= FWS_CFG_MAX_PORTS)
		return cfg_fail(c, "expected a port name or a list of 1 to %d port names",
				FWS_CFG_MAX_PORTS - 1);
	json_array_foreach(v, i, x)
	{
		old = cfg_push_idx(c, i);
		if (cfg_port_ref(c, cfg, x, &p) < 0)
			return -EINVAL;
		if (fws_cfg_sender(s, p) >= 0)
			return cfg_fail(c, "port \"%s\" is named twice", cfg->ports[p].name);
		s->tx_ports[s->n_tx++] = p;
		cfg_pop(c, old);
	}
	s->tx_port = s->tx_ports[0];
	return 0;
}

/* A stream split over several transmit ports: what the split cannot carry. A TCP or SYN
 * stream's handshakes and a connection test's state belong to one port. */
int
cfg_check_senders(struct cfg_ctx *c, const struct fws_cfg *cfg)
{
	unsigned int s, n = 0;

	for (s = 0; s < cfg->n_streams; s++)
		n += cfg->streams[s].n_tx;
	if (n > FWS_CFG_MAX_STREAMS) { /* a TX lcore holds a task per (stream, port) */
		cfg_push_key(c, "streams");
		return cfg_fail(
			c,
			"%u (stream, transmit port) pairs: at most %d (a split stream counts "
			"each of its ports)",
			n, FWS_CFG_MAX_STREAMS);
	}
	for (s = 0; s < cfg->n_streams; s++) {
		const struct fws_cfg_stream *cs = &cfg->streams[s];
		const char *why = cs->l4 != FWS_L4_UDP ? "is sent from one port (\"l4\": "
							 "\"udp\" streams may be split)"
				  : cfg->conn.test != FWS_CONN_NONE
					  ? "cannot be a connection test's"
				  : cs->learner >= 0 ? "cannot follow NAT translations"
						     : NULL;

		if (cs->n_tx > cs->flows.count)
			why = "has fewer flows than ports: each port sends a share of them";
		if (cs->n_tx < 2 || why == NULL)
			continue;
		cfg_push_key(c, "streams");
		cfg_push_idx(c, s);
		cfg_push_key(c, "tx_port");
		return cfg_fail(c, "stream %s is split over %u ports: a %s stream %s", cs->name,
				cs->n_tx, fws_l4_name(cs->l4), why);
	}
	return 0;
}
