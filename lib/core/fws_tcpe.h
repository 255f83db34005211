/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A closed-loop TCP endpoint (issue 49): one end of one connection, as a current Linux speaks
 * it, in pure logic. It is told the time and the segments that arrived, and hands the
 * segments it sends to an emit function; framing (addresses, checksums, mbufs) is its
 * caller's, so that unit tests connect two endpoints through a model link that delays,
 * drops and reorders as they like.
 *
 * - Handshake with MSS, window scale, SACK-permitted and timestamps (RFC 7323, RFC 2018).
 * - A sender of a byte count (0: none, FWS_TCPE_FOREVER: until told to close), its bytes
 *   generated from the connection's seed and their offset (fws_tcpe_fill), so that a
 *   retransmission resends identical bytes without a copy held and the receiver verifies
 *   every byte; its FIN once they are all sent (a receiver with nothing to send closes after
 *   the peer's FIN).
 * - Retransmission: RTO as RFC 6298 (timestamps give every sample, RFC 7323 4.2), backed off
 *   and collapsed to one segment (loss window); fast retransmit and recovery on three
 *   duplicate ACKs as RFC 5681 / 6582 (NewReno), the holes chosen by the peer's SACK blocks
 *   (RFC 2018): each hole resent once per recovery, SACKed bytes never.
 * - Congestion control behind a table (fws_tcpe_cc): NewReno and CUBIC (RFC 9438).
 * - A receiver that delivers in order, keeps out-of-order ranges (not bytes: the bytes are
 *   verified on arrival), ACKs at least every second full segment or after its delayed-ACK
 *   time, at once on a hole or a filled hole with SACK blocks (the newest first), and drops
 *   old duplicates by PAWS.
 *
 * Sequence numbers on the wire are 32-bit; inside, every position is a 64-bit byte offset
 * from the initial sequence number.
 */
#ifndef FWS_TCPE_H
#define FWS_TCPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FWS_TCPE_SACK_MAX 4 /**< SACK blocks one segment carries (3 beside timestamps) */
#define FWS_TCPE_RANGES 16  /**< out-of-order ranges a receiver keeps; SACKed ranges a sender */
#define FWS_TCPE_FOREVER UINT64_MAX

/* Flags as on the wire. */
#define FWS_TCPE_FIN 0x01
#define FWS_TCPE_SYN 0x02
#define FWS_TCPE_RST 0x04
#define FWS_TCPE_PSH 0x08
#define FWS_TCPE_ACK 0x10

/** A segment, either way: the header's fields (numbers in host order) and the payload's
 * length; the payload's bytes are the sender's (fws_tcpe_fill at off). */
struct fws_tcpe_seg {
	uint32_t seq, ack;
	uint8_t flags;
	uint16_t window; /**< the field as on the wire (scaled after the handshake) */
	bool has_ts;
	uint32_t tsval, tsecr;
	/* SYN and SYN-ACK options */
	uint16_t mss;   /**< 0: none */
	int8_t wscale;  /**< -1: none */
	bool sack_ok;   /**< SACK-permitted */
	uint8_t n_sack; /**< SACK blocks */
	struct {
		uint32_t l, r; /**< [l, r) */
	} sack[FWS_TCPE_SACK_MAX];
	uint32_t len; /**< payload bytes */
	uint64_t off; /**< sent: the payload's byte offset (for fws_tcpe_fill) */
};

/** Congestion control: a line of the table (fws_tcpe_cc.c). */
enum fws_tcpe_cc_kind {
	FWS_TCPE_NEWRENO,
	FWS_TCPE_CUBIC,
};

/** What one endpoint is given. */
struct fws_tcpe_params {
	bool server;         /**< waits for a SYN (else sends one at fws_tcpe_open) */
	uint32_t isn;        /**< its initial sequence number */
	uint64_t seed;       /**< the bytes it sends: fws_tcpe_fill(seed, ...) */
	uint64_t peer_seed;  /**< the bytes it expects */
	uint64_t send_bytes; /**< to send before its FIN (FWS_TCPE_FOREVER: until closed) */
	uint16_t mss;        /**< announced and used (the peer's if smaller) */
	uint32_t rcv_wnd;    /**< receive window in bytes (scaled: up to 1 GiB) */
	enum fws_tcpe_cc_kind cc;
	uint32_t min_rto_us; /**< floor of the RTO (RFC 6298: 1 s; Linux: 200 ms) */
	uint32_t delack_us;  /**< the delayed ACK's time (Linux: 40 ms; RFC 1122: < 500 ms) */
	uint32_t syn_tries;  /**< SYNs (or SYN-ACKs) sent before the connection fails */
};

enum fws_tcpe_state {
	FWS_TCPE_CLOSED,
	FWS_TCPE_LISTEN,
	FWS_TCPE_SYN_SENT,
	FWS_TCPE_SYN_RCVD,
	FWS_TCPE_ESTABLISHED,
	FWS_TCPE_DONE,   /**< both FINs sent and acknowledged */
	FWS_TCPE_FAILED, /**< reset, or the handshake or a retransmission gave up */
};

/** Its counts, as iperf3 and the kernel's TCP_INFO would give them. */
struct fws_tcpe_stats {
	uint64_t delivered; /**< bytes received in order (the goodput's numerator) */
	uint64_t acked;     /**< bytes sent and acknowledged */
	uint64_t segs_out, segs_in;
	uint64_t retrans_segs; /**< segments sent again (iperf3's "Retr") */
	uint64_t retrans_bytes;
	uint64_t fast_recoveries, timeouts;
	uint64_t corrupt;    /**< received bytes that differ from the peer's generator */
	uint64_t dup_segs;   /**< received segments wholly below what was delivered */
	uint64_t paws_drops; /**< dropped by PAWS (an older timestamp) */
	uint64_t ooo_drops;  /**< dropped: beyond the window or no range left to keep them */
	uint64_t rtt_samples;
	uint32_t rtt_min_us, rtt_max_us;
	double rtt_sum_us;
	uint64_t t_established; /**< us, 0: not yet */
	uint8_t fail_reason;    /**< enum fws_tcpe_fail */
};

enum fws_tcpe_fail {
	FWS_TCPE_FAIL_NONE,
	FWS_TCPE_FAIL_RST,     /**< a reset from the peer */
	FWS_TCPE_FAIL_SYN,     /**< no answer to any SYN */
	FWS_TCPE_FAIL_RETRIES, /**< data unacknowledged after the last backed-off RTO */
};

struct fws_tcpe_range {
	uint64_t l, r; /**< byte offsets, [l, r) */
};

/** One endpoint (976 bytes on x86-64: no byte of payload is kept). */
struct fws_tcpe {
	struct fws_tcpe_params p;
	enum fws_tcpe_state state;
	uint16_t mss;       /**< effective: the smaller announced */
	uint8_t snd_wscale; /**< the peer's: applied to its window fields */
	uint8_t rcv_wscale; /**< ours */
	bool sack_ok, ts_ok;
	uint32_t peer_isn;
	/* sender, offsets from our ISN + 1 */
	uint64_t snd_una, snd_nxt, snd_max;
	uint64_t snd_wnd; /**< the peer's window, bytes */
	bool closing;     /**< fws_tcpe_close: no byte past snd_max */
	bool fin_queued, fin_sent, fin_acked;
	uint64_t snd_end;        /**< the FIN's offset once sent */
	uint64_t snd_data_hi;    /**< the highest byte offset sent, + 1 */
	uint64_t cwnd, ssthresh; /**< bytes */
	uint32_t dupacks;
	bool in_recovery;
	uint64_t recover;   /**< NewReno: snd_max when recovery began */
	uint64_t rexmit_hi; /**< the holes below it are resent in this recovery */
	struct fws_tcpe_range sacked[FWS_TCPE_RANGES];
	unsigned int n_sacked;
	/* RTO (RFC 6298), us */
	double srtt, rttvar;
	uint32_t rto;
	uint64_t rto_at; /**< 0: not armed */
	unsigned int backoff;
	uint32_t syn_sent; /**< SYNs or SYN-ACKs sent */
	/* receiver, offsets from the peer's ISN + 1 */
	uint64_t rcv_nxt;
	struct fws_tcpe_range ooo[FWS_TCPE_RANGES];
	unsigned int n_ooo;
	struct fws_tcpe_range last_in; /**< the newest out-of-order arrival (the first SACK) */
	bool fin_rcvd;
	uint64_t fin_off; /**< the peer's FIN, arrived ahead of bytes (UINT64_MAX: none) */
	bool ts_recent_ok;
	uint32_t ts_recent;
	bool ack_now;              /**< an ACK is owed at once */
	unsigned int unacked_segs; /**< full segments received since our last ACK */
	uint64_t delack_at;        /**< 0: none pending */
	/* congestion control's own */
	struct {
		double w_max, k, w_est;
		uint64_t epoch_us;
	} cubic;
	struct fws_tcpe_stats st;
};

/** The segment handler: each one it sends. */
typedef void (*fws_tcpe_emit_fn)(void *arg, const struct fws_tcpe_seg *s);

/** Set e up from p (a client is CLOSED until fws_tcpe_open, a server LISTENs). 0, or -EINVAL
 * for parameters out of range. */
int fws_tcpe_init(struct fws_tcpe *e, const struct fws_tcpe_params *p);

/** A client's SYN. */
void fws_tcpe_open(struct fws_tcpe *e, uint64_t now_us, fws_tcpe_emit_fn emit, void *arg);

/** A segment that arrived for it; payload (NULL: not verified) its s->len bytes. */
void fws_tcpe_input(struct fws_tcpe *e, const struct fws_tcpe_seg *s, const uint8_t *payload,
		    uint64_t now_us, fws_tcpe_emit_fn emit, void *arg);

/** Send what the windows allow and any ACK owed; run the timers due at now. */
void fws_tcpe_output(struct fws_tcpe *e, uint64_t now_us, fws_tcpe_emit_fn emit, void *arg);

/** The next instant it needs fws_tcpe_output for a timer (RTO, delayed ACK); 0: none. */
uint64_t fws_tcpe_deadline(const struct fws_tcpe *e);

/** Stop sending (FWS_TCPE_FOREVER): its FIN follows the bytes already sent. */
void fws_tcpe_close(struct fws_tcpe *e);

/** Bytes of the stream seed at offsets [off, off + len) into buf. */
void fws_tcpe_fill(uint64_t seed, uint64_t off, uint8_t *buf, uint32_t len);

/** Congestion control by name ("newreno", "cubic"): 0, or -EINVAL. */
int fws_tcpe_cc_of(const char *name, enum fws_tcpe_cc_kind *out);
const char *fws_tcpe_cc_name(enum fws_tcpe_cc_kind cc);

#endif /* FWS_TCPE_H */
