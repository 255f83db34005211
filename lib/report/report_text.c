/* SPDX-License-Identifier: BSD-3-Clause */
/* The text report: the table a person reads after a run, and its file. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fws_build.h"
#include "fws_cell.h"
#include "fws_clock.h"
#include "fws_rate.h"
#include "fws_report.h"
#include "report_int.h"

/* What each feature with data says about each stream (stamps, fragments, clocks, ...), the
 * receive stamps' resolution, and the phases' arming across hosts. */
static void
text_features(FILE *f, const struct fws_result *r)
{
	unsigned int s;

	for (s = 0; s < r->n_streams; s++)
		fws_fd_text(&r->fd, f, r->streams[s].name, r->streams[s].fd);
	fws_fd_text_trial(&r->fd, f, r->fd_trial); /* links down, the DUT's load, ... */
	fprintf(f,
		"  stamps: received frames are stamped once per poll, every %.3f us on average: a "
		"latency may read up to a poll late (its resolution); the streams of one lcore "
		"take turns being served first\n",
		r->rx_poll_ns / 1e3);
	if (r->phase_hosts > 1)
		fprintf(f,
			"  phases: armed for one instant on %u hosts, each in its own clock: "
			"they changed within %.3f us of each other (the latest switch %.3f us "
			"after its instant)\n",
			r->phase_hosts, r->phase_sync_ns / 1e3, r->phase_late_ns / 1e3);
}

static void
text_latency(FILE *f, const struct fws_result *r)
{
	unsigned int s;

	fprintf(f, "  %-12s %10s %10s %10s %10s %10s %10s %10s %10s  (latency, us)\n", "stream",
		"min", "avg", "p50", "p90", "p99", "p99.9", "max", "jitter");
	for (s = 0; s < r->n_streams; s++) {
		const struct fws_stream_result *x = &r->streams[s];

		if (x->lat.count == 0) {
			fprintf(f, "  %-12s %10s\n", x->name, "-");
			continue;
		}
		fprintf(f, "  %-12s %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f\n",
			x->name, x->lat.min / 1e3, x->lat.avg / 1e3, x->lat.p50 / 1e3,
			x->lat.p90 / 1e3, x->lat.p99 / 1e3, x->lat.p999 / 1e3, x->lat.max / 1e3,
			x->lat.jitter / 1e3);
	}
}

/* A stream split over several transmit ports: a line per port, its own flows' counts. */
static void
text_senders(FILE *f, const struct fws_stream_result *x)
{
	unsigned int j;

	for (j = 0; j < x->n_senders; j++) {
		const struct fws_sender_result *o = &x->senders[j];

		fprintf(f,
			"    from %s (%s), flows %u-%u: %" PRIu64 " sent, %" PRIu64
			" received, %" PRIu64 " lost\n",
			o->port, o->host, o->flow_lo, o->flow_hi - 1, o->rx.tx, o->rx.unique,
			o->rx.lost);
	}
}

/* What a goal's load is against the link: "99.6 % of line rate", or above it (a virtual
 * device, unpaced: not a wire rate). */
static const char *
line_share(const struct fws_goal_figs *x, char *buf, size_t len)
{
	if (x->line_pps <= 0)
		snprintf(buf, len, "line rate unknown");
	else if (x->pps > 1.01 * x->line_pps)
		snprintf(buf, len,
			 "%.1f %% of line rate: ABOVE LINK SPEED, a virtual device, unpaced: not a "
			 "wire rate",
			 x->pps * 100 / x->line_pps);
	else
		snprintf(buf, len, "%.1f %% of line rate", x->pps * 100 / x->line_pps);
	return buf;
}

/* The number of the trial goal g stands on, as the progress lines and the trials below
 * number it. */
static unsigned int
goal_trial(const struct fws_run *run, const struct fws_search_summary *s, int g)
{
	const struct fws_result *r = &run->results[s->result[g]];

	return r->number ? r->number : (unsigned int)s->result[g] + 1;
}

/* One goal of a search in absolute figures first: what the trial it stands on offered, then
 * the loads asked that bracket it. */
static void
text_goal(FILE *f, const struct fws_run *run, const struct fws_search_summary *s, int g)
{
	const char *name = g == FWS_SEARCH_NDR ? "NDR" : "PDR";
	const struct fws_search_goal *x = &s->goal[g];
	struct fws_goal_figs v;
	char share[160], up[96];

	fws_report_goal_figs(run, s, g, &v);
	if ((!x->found || !v.have) && !s->complete) {
		fprintf(f, "  %s: not found before the run ended (not measured to its end)\n",
			name);
		return;
	}
	if (!x->found || !v.have) {
		fprintf(f,
			"  %s: not found (every load down to the minimum lost more than the "
			"goal)\n",
			name);
		return;
	}
	line_share(&v, share, sizeof(share));
	if (x->generator_limited) {
		fprintf(f,
			"  %s: at least %.4f Mpps, %.2f Mbit/s L1 (%s): a LOWER BOUND, "
			"generator-limited (no trial lost frames and the generator did not reach "
			"the %.4f Mpps asked); trial %u\n",
			name, v.pps / 1e6, v.l1_bps / 1e6, share, v.asked_pps / 1e6,
			goal_trial(run, s, g));
		return;
	}
	if (x->tester_limited) {
		fprintf(f,
			"  %s: at least %.4f Mpps, %.2f Mbit/s L1 (%s): a LOWER BOUND, "
			"tester-limited (a trial that failed, at %.4f Mpps asked, lost no more "
			"than "
			"its receiving ports missed: %" PRIu64 " frames); trial %u\n",
			name, v.pps / 1e6, v.l1_bps / 1e6, share, v.upper_pps / 1e6, x->missed,
			goal_trial(run, s, g));
		return;
	}
	if (v.upper_pps > 0)
		snprintf(up, sizeof(up), "%.4f Mpps asked lost more", v.upper_pps / 1e6);
	else
		snprintf(up, sizeof(up),
			 "the configured maximum passed: CAPPED BY THE CONFIG, a lower bound");
	fprintf(f,
		"  %s: %.4f Mpps, %.2f Mbit/s L1 (%s), loss %.4f %%: asked %.4f Mpps (%s); "
		"conditional throughput %.4f Mpps; %u trials at or below it exceeded the goal; "
		"trial %u\n",
		name, v.pps / 1e6, v.l1_bps / 1e6, share, x->loss_ratio * 100, v.asked_pps / 1e6,
		up, v.pps * (1 - x->loss_ratio) / 1e6, x->exceeded, goal_trial(run, s, g));
}

static void
text_search(FILE *f, const struct fws_run *run, const struct fws_search_summary *s)
{
	int g;

	fprintf(f, "\nSearch, frame size %s: %u trial%s%s\n", s->size, s->n_trials,
		s->n_trials == 1 ? "" : "s",
		s->complete ? "" : "  ** NOT FINISHED: the run ended **");
	for (g = 0; g < FWS_SEARCH_GOALS; g++)
		text_goal(f, run, s, g);
}

/* Senders that fell behind their schedule and caught up in a burst: one line for the trial,
 * naming them, the furthest behind (not the same line per stream; issue 51, item 9). */
static void
text_stalled(FILE *f, const struct fws_result *r)
{
	char names[160] = "";
	double ms = 0;
	uint64_t behind = 0;
	unsigned int s;

	for (s = 0; s < r->n_streams; s++) {
		const struct fws_stream_result *x = &r->streams[s];

		if (!fws_report_stalled(x))
			continue;
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 names[0] ? ", " : "", x->name);
		if (x->tx_behind > behind)
			behind = x->tx_behind;
		if ((double)x->tx_behind * 1e3 / x->req_pps > ms)
			ms = (double)x->tx_behind * 1e3 / x->req_pps;
	}
	if (names[0])
		fprintf(f,
			"  note: GENERATOR STALLED (%s): fell behind the schedule by up to %" PRIu64
			" frames (%.1f ms at the rate asked) and sent them back to back: a burst "
			"above the constant rate (a busy machine: give the transmit cores to "
			"fwstress alone)\n",
			names, behind, ms);
}

/* The measured phase's seconds against the steady band: the worst named. */
static void
text_steady(FILE *f, const struct fws_result *r)
{
	const struct fws_steady *y = &r->steady;
	/* One second, or only the tester's dips: no "steady within" it did not measure (issue
	 * 51, item 9). */
	bool judged = y->n >= 2 && y->limited < y->n;

	if (y->n == 0)
		return;
	fprintf(f,
		"  seconds: %u measured, receive rate mean %.0f pps; worst second %u: %.0f pps "
		"(%+.1f %% of the mean%s); %s",
		y->n, y->mean_rx_pps, y->worst, y->worst_rx_pps, y->worst_dev * 100,
		y->worst_limited ? ", generator-limited" : "",
		y->unsteady          ? "UNSTEADY"
		: y->n < 2           ? "steadiness not judged (one second)"
		: y->limited >= y->n ? "steadiness not judged (every second generator-limited)"
				     : "steady");
	if (y->unsteady)
		fprintf(f, ": %u second%s outside +/-%.3g %%", y->outside,
			y->outside == 1 ? "" : "s", y->band * 100);
	else if (judged)
		fprintf(f, " within +/-%.3g %%", y->band * 100);
	if (y->limited)
		fprintf(f,
			"; %u generator-limited second%s (the senders offered under 99 %% of "
			"the rate: the tester's dip, not the DUT's)",
			y->limited, y->limited == 1 ? "" : "s");
	fputc('\n', f);
}

/* A trial's first line: its number, what it is (a search goal, a repetition), its sizes. */
static void
text_trial_head(FILE *f, const struct fws_result *r, unsigned int idx)
{
	char label[16], rep[32] = "";

	fws_result_label(r->kind, r->lat_frac, label, sizeof(label));
	if (r->repetition)
		snprintf(rep, sizeof(rep), ", repetition %u", r->repetition);
	fprintf(f,
		"\nTrial %u%s%s%s: frame size %s (RFC 6985: %s, average %.1f bytes), warm-up %.1f "
		"s, drain %.1f s%s\n",
		r->number ? r->number : idx + 1,
		r->kind != FWS_RESULT_RUN ? ", search result " : "",
		r->kind != FWS_RESULT_RUN ? label : "", rep, r->size.name, r->rfc6985, r->avg_frame,
		r->warmup, r->drain, r->partial ? "  ** PARTIAL: interrupted **" : "");
}

static void
text_trial(FILE *f, const struct fws_result *r, unsigned int idx)
{
	unsigned int s, p;
	char note[256];

	text_trial_head(f, r, idx);
	fprintf(f, "  %-12s %-13s %8s %9s %12s %12s %12s %12s %12s %12s\n", "stream", "ports",
		"flows", "time s", "tx Mpps", "tx L1 Mb/s", "tx L2 Mb/s", "rx Mpps", "rx L1 Mb/s",
		"rx L2 Mb/s");
	fprintf(f, "  (rx: distinct frames; lost: sent - distinct, at least lost - late)\n");
	for (s = 0; s < r->n_streams; s++) {
		const struct fws_stream_result *x = &r->streams[s];
		char ports[FWS_CFG_SENDERS_NAME_LEN + FWS_CFG_NAME_LEN + 2];

		snprintf(ports, sizeof(ports), "%s->%s", x->tx_port, x->rx_port);
		fprintf(f, "  %-12s %-13s %8u %9.3f %12.4f %12.2f %12.2f %12.4f %12.2f %12.2f\n",
			x->name, ports, x->flows, x->duration, x->tx_pps / 1e6, x->tx_l1_bps / 1e6,
			x->tx_l2_bps / 1e6, x->rx_pps / 1e6, x->rx_l1_bps / 1e6,
			x->rx_l2_bps / 1e6);
	}
	fprintf(f, "  %-12s %15s %15s %15s %12s %9s %10s %10s %8s %11s\n", "stream", "tx frames",
		"rx distinct", "rx total", "lost", "loss %", "reordered", "duplicate", "late",
		"lossy flows");
	for (s = 0; s < r->n_streams; s++) {
		const struct fws_stream_result *x = &r->streams[s];

		fprintf(f,
			"  %-12s %15" PRIu64 " %15" PRIu64 " %15" PRIu64 " %12" PRIu64
			" %9.4f %10" PRIu64 " %10" PRIu64 " %8" PRIu64 " %11" PRIu64 "\n",
			x->name, x->tx_frames, x->rx.unique, x->rx.rx, x->rx.lost, x->loss_pct,
			x->rx.reordered, x->rx.dup, x->rx.late, x->rx.flows_lossy);
		text_senders(f, x);
	}
	text_latency(f, r);
	text_steady(f, r);
	text_features(f, r);
	text_stalled(f, r);
	for (s = 0; s < r->n_streams; s++) {
		const struct fws_stream_result *x = &r->streams[s];

		if (*fws_report_rate_note(x, r->partial, note, sizeof(note)))
			fprintf(f, "  note: %s: %s\n", x->name, note);
		if (x->rx_missed && x->rx.lost)
			fprintf(f,
				"  note: %s: TESTER-LIMITED: its receiving port %s missed %" PRIu64
				" frames in its NIC or driver during the trial: of %" PRIu64
				" lost, at least %" PRIu64 " are the DUT's\n",
				x->name, x->rx_port, x->rx_missed, x->rx.lost, x->lost_dut_min);
		if (x->rx.excess)
			fprintf(f,
				"  note: %s: %" PRIu64 " more distinct frames than sent: the "
				"duplicate window was exceeded\n",
				x->name, x->rx.excess);
		if (x->flows_split)
			fprintf(f,
				"  note: %s: %" PRIu64 " flows arrived on several receive queues\n",
				x->name, x->flows_split);
	}
	for (p = 0; p < r->n_ports; p++) {
		const struct fws_port_result *x = &r->ports[p];

		fprintf(f, "  port %-8s", x->name);
#define SHOW(name, desc)                                                                           \
	if (x->rx.name && strcmp(#name, "rx_frames") != 0 && strcmp(#name, "test_frames") != 0)    \
		fprintf(f, " %s=%" PRIu64, #name, x->rx.name);
		FWS_RX_COUNTERS(SHOW)
#undef SHOW
#define SHOW(name, desc)                                                                           \
	if (x->tx.name && strcmp(#name, "tx_frames") != 0 && strcmp(#name, "tx_bytes") != 0)       \
		fprintf(f, " %s=%" PRIu64, #name, x->tx.name);
		FWS_TX_COUNTERS(SHOW)
#undef SHOW
#define SHOW(name, desc)                                                                           \
	if (x->ctl.name)                                                                           \
		fprintf(f, " %s=%" PRIu64, #name, x->ctl.name);
		FWS_CTL_COUNTERS(SHOW)
#undef SHOW
		fprintf(f,
			" nic: rx=%" PRIu64 " tx=%" PRIu64 " missed=%" PRIu64 " errors=%" PRIu64
			"/%" PRIu64 "\n",
			x->nic_ipackets, x->nic_opackets, x->nic_imissed, x->nic_ierrors,
			x->nic_oerrors);
		fws_fd_text_port(&r->fd, f, x->name, x->fd);
	}
}

/* Which checksums the port's NIC computed on transmit (UDP and TCP streams each use their
 * protocol's offload where the NIC has it). */
static const char *
cksum_where(bool udp, bool tcp)
{
	if (udp && tcp)
		return "offloaded (IPv4, UDP, TCP)";
	if (udp)
		return "offloaded (IPv4, UDP; TCP in software)";
	if (tcp)
		return "offloaded (IPv4, TCP; UDP in software)";
	return "in software";
}

static void
text_below_rfc(FILE *f, const struct fws_run *run)
{
	char notes[2][FWS_REPORT_NOTE_LEN];
	unsigned int i, n = fws_report_below_rfc(run, notes);

	for (i = 0; i < n; i++)
		fprintf(f, "%sBELOW THE RFC: %s\n", i ? "" : "\n", notes[i]);
}

void
fws_report_text(FILE *f, const struct fws_run *run)
{
	char t0[32];
	unsigned int i;

	fws_report_iso_time(run->started, t0, sizeof(t0));
	fprintf(f, "fwstress %s%s, %s), started %s, status: %s%s\n", FWS_VERSION, FWS_COMMIT_NOTE,
		FWS_DPDK_VERSION, t0, fws_run_status_name(run->status),
		run->partial ? " (partial report)" : "");
	if (run->error[0])
		fprintf(f, "error: %s\n", run->error);
	if (run->cfg->dut.name[0])
		fprintf(f, "DUT: %s%s%s\n", run->cfg->dut.name,
			run->cfg->dut.firmware[0] ? ", firmware " : "", run->cfg->dut.firmware);
	if (run->tsc_hz)
		fprintf(f,
			"clock: TSC %.6f MHz against CLOCK_MONOTONIC_RAW (DPDK's estimate %.6f "
			"MHz, "
			"%+.0f ppm)\n",
			(double)run->tsc_hz / 1e6, (double)run->tsc_hz_dpdk / 1e6,
			fws_clock_ppm((double)run->tsc_hz_dpdk, (double)run->tsc_hz));
	fws_report_hosts_text(f, run->cfg, run->hosts, run->n_hosts);
	for (i = 0; i < run->n_ports; i++) {
		const struct fws_port_result *p = &run->ports[i];

		fprintf(f, "port %-8s %-24s driver %-12s %s link %s", p->name, p->device, p->driver,
			p->mac, p->link_up ? "up" : "DOWN");
		if (p->link_speed_mbps)
			fprintf(f, " %u Mbit/s", p->link_speed_mbps);
		fprintf(f, ", checksums %s", cksum_where(p->hw_cksum, p->hw_tcp_cksum));
		if (p->n_rxq > 1)
			fprintf(f, ", %u rx queues%s", p->n_rxq, p->rss ? " (RSS)" : " (no RSS)");
		fws_fd_text_port_facts(fws_report_fd(), f, p->fd); /* NIC stamps, on hardware */
		fputc('\n', f);
	}
	fws_report_above_link(f, "WARNING: ", run);
	for (i = 0; i < run->n_paths; i++)
		if (run->paths[i].skipped)
			fprintf(f, "path check %-12s skipped: every flow is expected blocked\n",
				run->paths[i].stream);
		else
			fprintf(f,
				"path check %-12s %" PRIu64 " of %" PRIu64
				" probe frames arrived%s\n",
				run->paths[i].stream, run->paths[i].received, run->paths[i].sent,
				run->paths[i].ok ? "" : "  ** FAILED **");
	fprintf(f, "rates: L1 counts 20 bytes of preamble and inter-frame gap per frame; frame "
		   "sizes include the FCS\n");
	for (i = 0; i < run->n_results; i++)
		text_trial(f, &run->results[i], i);
	for (i = 0; i < run->n_b2b; i++) {
		const struct fws_b2b_summary *b = &run->b2b[i];

		fprintf(f,
			"\nBack-to-back, frame size %s %s: longest loss-free burst of up to "
			"%" PRIu64
			" frames, %u repetitions (%u trials): avg %.0f, min %.0f, max %.0f, "
			"stddev %.1f frames\n",
			b->size, fws_dir_name(b->dir), b->max_frames, b->n, b->trials, b->avg,
			b->n ? b->min : 0.0, b->max, b->stddev);
		if (b->generator_limited)
			fprintf(f, "  GENERATOR-LIMITED: the tester fell short of the rate in the "
				   "probe the bursts are sized by: the longest burst tried is its "
				   "limit, a lower bound\n");
	}
	for (i = 0; i < run->n_searches; i++)
		text_search(f, run, &run->searches[i]);
	text_below_rfc(f, run);
}

static int
emit_text(FILE *f, const void *arg)
{
	fws_report_text(f, arg);
	return ferror(f) ? -EIO : 0;
}

int
fws_report_write_text(const char *path, const struct fws_run *run)
{
	return fws_report_write_atomic(path, emit_text, run);
}
