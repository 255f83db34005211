/* SPDX-License-Identifier: BSD-3-Clause */
/* The report's ports: each port's facts and run totals (ports[]) and its counts in a trial
 * (trials[].ports[]), with the features' blocks of it (its receive queues). */
#include <jansson.h>

#include "fws_feat.h"
#include "fws_rate.h"
#include "fws_size.h"
#include "fws_report.h"
#include "report_int.h"

json_t *
fws_report_port_result_json(const struct fws_port_result *x, const struct fws_fd_layout *fd)
{
	json_t *o = json_pack("{s:s}", "name", x->name), *c;

	c = json_object();
#define KEY(name, desc) json_object_set_new(c, #name, json_integer((json_int_t)x->rx.name));
	FWS_RX_COUNTERS(KEY)
#undef KEY
	json_object_set_new(o, "rx", c);
	c = json_object();
#define KEY(name, desc) json_object_set_new(c, #name, json_integer((json_int_t)x->tx.name));
	FWS_TX_COUNTERS(KEY)
#undef KEY
	json_object_set_new(o, "tx", c);
	c = json_object();
#define KEY(name, desc) json_object_set_new(c, #name, json_integer((json_int_t)x->ctl.name));
	FWS_CTL_COUNTERS(KEY)
#undef KEY
	json_object_set_new(o, "control", c);
	json_object_set_new(
		o, "nic",
		json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "ipackets",
			  (json_int_t)x->nic_ipackets, "opackets", (json_int_t)x->nic_opackets,
			  "ibytes", (json_int_t)x->nic_ibytes, "obytes", (json_int_t)x->nic_obytes,
			  "imissed", (json_int_t)x->nic_imissed, "ierrors",
			  (json_int_t)x->nic_ierrors, "oerrors", (json_int_t)x->nic_oerrors,
			  "rx_nombuf", (json_int_t)x->nic_rx_nombuf));
	fws_fd_json_port(fd, x->fd, o); /* the features' own: receive queues */
	return o;
}

/* The features' table's layout: the blocks in a port's facts sit by it (every host and the
 * controller take the one table, lib/feat/fws_feat.c). */
const struct fws_fd_layout *
fws_report_fd(void)
{
	static struct fws_fd_layout l;
	static bool made;

	if (!made) {
		fws_feat_layout(&l);
		made = true;
	}
	return &l;
}

json_t *
fws_report_ports_json(const struct fws_port_result *ports, unsigned int n)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct fws_port_result *p = &ports[i];
		json_t *o =
			json_pack("{s:s, s:s, s:s, s:s, s:b, s:I, s:b}", "name", p->name, "device",
				  p->device, "driver", p->driver, "mac", p->mac, "link_up",
				  p->link_up, "link_speed_mbps", (json_int_t)p->link_speed_mbps,
				  "checksum_offload", p->hw_cksum);
		json_t *c = json_object();

		json_object_set_new(o, "tcp_checksum_offload", json_boolean(p->hw_tcp_cksum));
		json_object_set_new(o, "rx_queues", json_integer(p->n_rxq));
		json_object_set_new(o, "rss", json_boolean(p->rss));
		fws_fd_json_port_facts(fws_report_fd(), p->fd, o); /* the features': NIC stamps */

		json_object_set_new(o, "rx_frames_total", json_integer((json_int_t)p->rx_total));
		json_object_set_new(o, "tx_frames_total", json_integer((json_int_t)p->tx_total));
		json_object_set_new(o, "rx_control_total",
				    json_integer((json_int_t)p->rx_control_total));
		json_object_set_new(o, "tx_control_total",
				    json_integer((json_int_t)p->tx_control_total));
#define KEY(name, desc) json_object_set_new(c, #name, json_integer((json_int_t)p->ctl.name));
		FWS_CTL_COUNTERS(KEY)
#undef KEY
		json_object_set_new(o, "control", c);
		json_array_append_new(a, o);
	}
	return a;
}

unsigned int
fws_report_above_link(FILE *f, const char *prefix, const struct fws_run *run)
{
	const struct fws_cfg *cfg = run->cfg;
	unsigned int s, z, n = 0;

	for (s = 0; s < cfg->n_streams; s++) {
		const struct fws_cfg_stream *cs = &cfg->streams[s];
		char rate[48], ports[FWS_CFG_SENDERS_NAME_LEN];
		double worst = 0, line = 0, avg = 0;

		if (cs->rate.kind != FWS_RATE_PPS && cs->rate.kind != FWS_RATE_BPS)
			continue; /* line, a share of it, max: never above it by themselves */
		for (z = 0; z < cfg->n_sizes; z++) {
			double a = fws_size_avg(&cfg->sizes[z]),
			       l = fws_report_line_pps(run, cs, a);
			double want = fws_rate_pps(&cs->rate, 0, a);

			if (l > 0 && want > 1.001 * l && want / l > worst) {
				worst = want / l;
				line = l;
				avg = a;
			}
		}
		if (worst == 0)
			continue;
		if (cs->rate.kind == FWS_RATE_BPS)
			snprintf(rate, sizeof(rate), "%.6g Gbit/s", cs->rate.value / 1e9);
		else
			snprintf(rate, sizeof(rate), "%.6g Mpps", cs->rate.value / 1e6);
		fprintf(f,
			"%sstream %s asks %s, %.2f times what its link carries at %.0f-byte frames "
			"(%.4f Mpps on port %s): no wire carries that; a NIC sends at most its "
			"line "
			"rate, a virtual port's figures are above the link\n",
			prefix, cs->name, rate, worst, avg, line / 1e6,
			fws_cfg_senders_name(cfg, cs, ports, sizeof(ports)));
		n++;
	}
	return n;
}
