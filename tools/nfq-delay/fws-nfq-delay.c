/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fws-nfq-delay: hold every packet of an NFQUEUE for a fixed time, then accept it. The lab's
 * known delay (this kernel has no netem and no fq): the latency fwstress measures through it
 * must grow by exactly the hold. Each packet's hold is measured here on CLOCK_MONOTONIC_RAW,
 * from the moment the packet is read from the queue to its verdict, and summarised on exit
 * (SIGINT or SIGTERM), so a test can compare fwstress's latency with what was inserted.
 *
 *   fws-nfq-delay QUEUE DELAY_US [STATS_FILE]
 *
 * The queue is a FIFO (one delay for all), so release order is arrival order. The last 50 us
 * of each wait are spun rather than slept: a sleeping wake-up is late by tens of microseconds.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include <linux/netfilter.h>
#include <libnetfilter_queue/libnetfilter_queue.h>

#define HELD_MAX 65536u      /* packets in flight; beyond, a packet is accepted at once */
#define HOLDS_MAX (1u << 22) /* holds kept for the median */
#define SPIN_NS 50000

struct held {
	uint32_t id;
	uint64_t got, due;
};

static struct held held[HELD_MAX];
static uint32_t head, tail;
static uint64_t delay_ns, overflow, n_holds;
static uint64_t *holds;
static volatile sig_atomic_t stop;

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int
on_packet(struct nfq_q_handle *qh, struct nfgenmsg *msg, struct nfq_data *nfa, void *data)
{
	struct nfqnl_msg_packet_hdr *ph = nfq_get_msg_packet_hdr(nfa);
	uint64_t t = now_ns();

	(void)msg;
	(void)data;
	if (ph == NULL)
		return 0;
	if (tail - head == HELD_MAX) {
		overflow++;
		return nfq_set_verdict(qh, ntohl(ph->packet_id), NF_ACCEPT, 0, NULL);
	}
	held[tail % HELD_MAX] = (struct held){ntohl(ph->packet_id), t, t + delay_ns};
	tail++;
	return 0;
}

/* Accept every packet that is due (all of them when flush); returns how long until the
 * next one is, in ns (or a second when none is held). */
static uint64_t
release(struct nfq_q_handle *qh, int flush)
{
	for (;;) {
		struct held *h;
		uint64_t t = now_ns();

		if (head == tail)
			return 1000000000ull;
		h = &held[head % HELD_MAX];
		if (!flush && h->due > t + SPIN_NS)
			return h->due - t - SPIN_NS;
		while (!flush && now_ns() < h->due)
			;
		t = now_ns();
		nfq_set_verdict(qh, h->id, NF_ACCEPT, 0, NULL);
		if (n_holds < HOLDS_MAX)
			holds[n_holds++] = t - h->got;
		head++;
	}
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void
summary(FILE *f)
{
	double sum = 0;
	uint64_t i;

	qsort(holds, n_holds, sizeof(*holds), cmp_u64);
	for (i = 0; i < n_holds; i++)
		sum += (double)holds[i];
	fprintf(f,
		"{\"delay_ns\": %llu, \"packets\": %llu, \"overflow\": %llu, \"hold_ns\": "
		"{\"min\": "
		"%llu, \"p50\": %llu, \"avg\": %.1f, \"max\": %llu}}\n",
		(unsigned long long)delay_ns, (unsigned long long)n_holds,
		(unsigned long long)overflow, (unsigned long long)(n_holds ? holds[0] : 0),
		(unsigned long long)(n_holds ? holds[n_holds / 2] : 0), n_holds ? sum / n_holds : 0,
		(unsigned long long)(n_holds ? holds[n_holds - 1] : 0));
}

static int
run(struct nfq_handle *h, struct nfq_q_handle *qh)
{
	static char buf[65536 + 4096];
	int fd = nfq_fd(h);

	while (!stop) {
		uint64_t wait = release(qh, 0);
		struct timespec ts = {(time_t)(wait / 1000000000ull), (long)(wait % 1000000000ull)};
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int rv = ppoll(&p, 1, &ts, NULL);

		if (rv < 0 && errno != EINTR) {
			perror("fws-nfq-delay: ppoll");
			return 1;
		}
		if (rv <= 0)
			continue;
		while ((rv = (int)recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0)
			nfq_handle_packet(h, buf, rv);
	}
	release(qh, 1);
	return 0;
}

int
main(int argc, char **argv)
{
	struct sigaction sa = {.sa_handler = on_signal};
	struct nfq_q_handle *qh;
	struct nfq_handle *h;
	char *end;
	unsigned long queue, us;
	int rc;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: fws-nfq-delay QUEUE DELAY_US [STATS_FILE]\n");
		return 2;
	}
	queue = strtoul(argv[1], &end, 10);
	if (*end || queue > 65535) {
		fprintf(stderr, "fws-nfq-delay: queue \"%s\": expected 0 to 65535\n", argv[1]);
		return 2;
	}
	us = strtoul(argv[2], &end, 10);
	if (*end || us > 10000000) {
		fprintf(stderr, "fws-nfq-delay: delay \"%s\": expected 0 to 10000000 us\n",
			argv[2]);
		return 2;
	}
	delay_ns = us * 1000ull;
	holds = calloc(HOLDS_MAX, sizeof(*holds));
	if (holds == NULL)
		return 1;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	h = nfq_open();
	if (h == NULL) {
		perror("fws-nfq-delay: nfq_open");
		return 1;
	}
	qh = nfq_create_queue(h, (uint16_t)queue, on_packet, NULL);
	if (qh == NULL || nfq_set_mode(qh, NFQNL_COPY_META, 0) < 0) {
		fprintf(stderr, "fws-nfq-delay: cannot bind queue %lu: %s\n", queue,
			strerror(errno));
		return 1;
	}
	nfq_set_queue_maxlen(qh, HELD_MAX);
	fprintf(stderr, "fws-nfq-delay: queue %lu, holding %lu us\n", queue, us);
	rc = run(h, qh);
	nfq_destroy_queue(qh);
	nfq_close(h);
	if (argc == 4) {
		FILE *f = fopen(argv[3], "w");

		if (f == NULL) {
			perror(argv[3]);
			return 1;
		}
		summary(f);
		fclose(f);
	} else {
		summary(stdout);
	}
	free(holds);
	return rc;
}
