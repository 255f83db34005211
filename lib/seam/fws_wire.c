/* SPDX-License-Identifier: BSD-3-Clause */
/* The control stream's lines and blobs (fws_wire.h). */
#include <errno.h>
#include <stdbool.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fws_agent.h"
#include "fws_text.h"
#include "fws_wire.h"

#define LINE_MAX_BYTES (256u << 20) /* a chunk of flows is far below; a runaway peer is not */
/* A JSON line (its attachment apart): a config (at most 16 MiB of text), a chunk of aims in
 * base64 are below. */
#define JSON_LINE_MAX (32u << 20)

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

json_t *
fws_wire_blob(const void *p, size_t n)
{
	char *out = fws_base64(p, n);
	json_t *v;

	if (out == NULL)
		return NULL;
	v = json_string(out);
	free(out);
	return v;
}

static int
b64_val(char c)
{
	const char *q = c ? strchr(b64, c) : NULL;

	return q ? (int)(q - b64) : -1;
}

int
fws_wire_unblob(const json_t *v, void *p, size_t n)
{
	const char *s = json_string_value(v);
	size_t len = s ? json_string_length(v) : 0, i, o = 0;
	uint8_t *d = p;

	if (s == NULL || len % 4 != 0 || len / 4 * 3 < n || len / 4 * 3 > n + 2)
		return -EINVAL;
	for (i = 0; i < len; i += 4) {
		int a = b64_val(s[i]), b = b64_val(s[i + 1]), c = b64_val(s[i + 2]),
		    e = b64_val(s[i + 3]);
		uint32_t x;

		if (a < 0 || b < 0)
			return -EINVAL;
		x = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)(c < 0 ? 0 : c) << 6 |
		    (uint32_t)(e < 0 ? 0 : e);
		if (o < n)
			d[o++] = (uint8_t)(x >> 16);
		if (o < n && c >= 0)
			d[o++] = (uint8_t)(x >> 8);
		if (o < n && e >= 0)
			d[o++] = (uint8_t)x;
	}
	return o == n ? 0 : -EINVAL;
}

void
fws_wire_layout(char *buf, size_t len, const struct fws_fd_layout *fd)
{
	unsigned int i;
	size_t n;

	snprintf(buf, len,
		 "%s plan=%zu poll=%zu live=%zu counts=%zu rxflow=%zu txflow=%zu port=%zu "
		 "nat=%zu cfg=%zu",
		 FWS_VERSION, sizeof(struct fws_agent_plan), sizeof(struct fws_agent_poll),
		 sizeof(struct fws_agent_live), sizeof(struct fws_agent_counts),
		 sizeof(struct fws_agent_rxflow), sizeof(struct fws_agent_txflow),
		 sizeof(struct fws_port_result), sizeof(struct fws_nat_tuple),
		 sizeof(struct fws_cfg));
	/* The features' count blocks in the counts: which, in which order, how large (per
	 * stream, then per trial after a slash). */
	for (i = 0; fd && i < fd->n; i++)
		if ((fd->d[i]->count_size || fd->d[i]->trial_count_size) && (n = strlen(buf)) < len)
			snprintf(buf + n, len - n, " %s=%zu/%zu", fd->d[i]->name,
				 fd->d[i]->count_size, fd->d[i]->trial_count_size);
}

static int
write_all(int fd, const void *p, size_t n)
{
	const char *s = p;
	size_t off = 0;
	ssize_t w;

	while (off < n) {
		w = write(fd, s + off, n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EPIPE;
		off += (size_t)w;
	}
	return 0;
}

int
fws_wire_send(int fd, const json_t *msg)
{
	char *s = json_dumps(msg, JSON_COMPACT);
	size_t n;
	int rc;

	if (s == NULL)
		return -ENOMEM;
	n = strlen(s);
	s[n++] = '\n'; /* json_dumps' terminating NUL becomes the newline */
	rc = write_all(fd, s, n);
	free(s);
	return rc;
}

/* Attachments carry long runs of zeros (a host's counts hold a 0.1 % latency histogram per
 * stream, 200 KiB of mostly empty buckets): from this size on they go packed, as pairs of
 * (LEB128 length, that many bytes as they are; LEB128 length of zeros), when that is
 * shorter. The line then says the unpacked length as "raw". */
#define PACK_FROM 4096
#define PACK_MIN_ZEROS 8

static size_t
put_leb(uint8_t *o, size_t v)
{
	size_t k = 0;

	do {
		o[k++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return k;
}

/* A zero run of at least PACK_MIN_ZEROS at or after i, or n. */
static size_t
next_zeros(const uint8_t *s, size_t i, size_t n, size_t *len)
{
	size_t j;

	for (; i < n; i++) {
		if (s[i])
			continue;
		for (j = i; j < n && s[j] == 0; j++)
			;
		if (j - i >= PACK_MIN_ZEROS || j == n) {
			*len = j - i;
			return i;
		}
		i = j;
	}
	*len = 0;
	return n;
}

/* s packed into a new buffer (*out, its length returned); 0 when packing would not pay. */
static size_t
pack(const uint8_t *s, size_t n, uint8_t **out)
{
	size_t i = 0, o = 0, z, zlen;
	uint8_t *d = malloc(n);

	*out = NULL;
	if (d == NULL)
		return 0;
	while (i < n) {
		z = next_zeros(s, i, n, &zlen);
		if (o + 20 + (z - i) >= n) { /* no shorter: send it as it is */
			free(d);
			return 0;
		}
		o += put_leb(d + o, z - i);
		memcpy(d + o, s + i, z - i);
		o += z - i;
		o += put_leb(d + o, zlen);
		i = z + zlen;
	}
	*out = d;
	return o;
}

static int
get_leb(const uint8_t *s, size_t n, size_t *i, size_t *v)
{
	unsigned int sh = 0;

	*v = 0;
	while (*i < n && sh < 63) {
		uint8_t b = s[(*i)++];

		*v |= (size_t)(b & 0x7f) << sh;
		if (!(b & 0x80))
			return 0;
		sh += 7;
	}
	return -EINVAL;
}

/* Unpack n bytes at s into d (raw bytes long): 0, or -EINVAL when they do not fill it
 * exactly. */
static int
unpack(const uint8_t *s, size_t n, uint8_t *d, size_t raw)
{
	size_t i = 0, o = 0, lit, zeros;

	while (i < n) {
		if (get_leb(s, n, &i, &lit) < 0 || lit > n - i || lit > raw - o)
			return -EINVAL;
		memcpy(d + o, s + i, lit);
		i += lit;
		o += lit;
		if (get_leb(s, n, &i, &zeros) < 0 || zeros > raw - o)
			return -EINVAL;
		memset(d + o, 0, zeros);
		o += zeros;
	}
	return o == raw ? 0 : -EINVAL;
}

int
fws_wire_send_bin(int fd, json_t *msg, const void *bin, size_t n)
{
	uint8_t *packed = NULL;
	size_t np = n >= PACK_FROM ? pack(bin, n, &packed) : 0;
	int rc;

	if (packed)
		json_object_set_new(msg, "raw", json_integer((json_int_t)n));
	json_object_set_new(msg, "bin", json_integer((json_int_t)(packed ? np : n)));
	rc = fws_wire_send(fd, msg);
	rc = rc < 0 ? rc : write_all(fd, packed ? packed : bin, packed ? np : n);
	free(packed);
	return rc;
}

/* The attachment of line v from the buffer's first need bytes, unpacked when it came packed:
 * 0, or a reason. */
static const char *
take_bin(struct fws_wire_rd *rd, const json_t *v)
{
	const json_t *raw = json_object_get(v, "raw");
	size_t n = rd->need;

	if (raw && (!json_is_integer(raw) || json_integer_value(raw) < 0 ||
		    json_integer_value(raw) > (json_int_t)LINE_MAX_BYTES))
		return "an attachment of a bad unpacked length";
	if (raw)
		n = (size_t)json_integer_value(raw);
	if ((rd->bin = malloc(n ? n : 1)) == NULL)
		return "out of memory";
	if (raw == NULL)
		memcpy(rd->bin, rd->buf, n);
	else if (unpack((const uint8_t *)rd->buf, rd->need, rd->bin, n) < 0) {
		free(rd->bin);
		rd->bin = NULL;
		return "an attachment that does not unpack to its length";
	}
	rd->bin_len = n;
	return NULL;
}

/* A whole line in the buffer: parse it and drop it from the buffer. */
static json_t *
take_line(struct fws_wire_rd *rd, char *nl, const char **why)
{
	json_error_t jerr;
	size_t n = (size_t)(nl - rd->buf) + 1;
	json_t *v = json_loadb(rd->buf, n - 1, 0, &jerr);

	memmove(rd->buf, rd->buf + n, rd->len - n);
	rd->len -= n;
	rd->scanned = 0;
	if (v == NULL || !json_is_object(v)) {
		json_decref(v);
		*why = "a line that is not a JSON object";
		return NULL;
	}
	return v;
}

/* A whole line and its whole attachment from the buffer, or NULL: with *why set on an
 * error, "" while more must arrive. */
static json_t *
next_line(struct fws_wire_rd *rd, const char **why)
{
	const json_t *bin;
	char *nl;
	json_t *v;

	*why = "";
	if (rd->pending == NULL) {
		/* Only what arrived since the last look: a long line costs its length, once. */
		nl = rd->len > rd->scanned
			     ? memchr(rd->buf + rd->scanned, '\n', rd->len - rd->scanned)
			     : NULL;
		if (nl == NULL) {
			rd->scanned = rd->len;
			if (rd->len > JSON_LINE_MAX)
				*why = "a line longer than 32 MiB without its end: not an agent's";
			return NULL;
		}
		if ((v = take_line(rd, nl, why)) == NULL)
			return NULL;
		if ((bin = json_object_get(v, "bin")) == NULL)
			return v;
		if (!json_is_integer(bin) || json_integer_value(bin) < 0 ||
		    json_integer_value(bin) > (json_int_t)LINE_MAX_BYTES / 2) {
			json_decref(v);
			*why = "an attachment of a bad length";
			return NULL;
		}
		rd->pending = v;
		rd->need = (size_t)json_integer_value(bin);
	}
	if (rd->len < rd->need)
		return NULL;
	if ((*why = take_bin(rd, rd->pending)) != NULL) {
		json_decref(rd->pending);
		rd->pending = NULL;
		return NULL;
	}
	*why = "";
	memmove(rd->buf, rd->buf + rd->need, rd->len - rd->need);
	rd->len -= rd->need;
	rd->scanned = 0;
	v = rd->pending;
	rd->pending = NULL;
	return v;
}

static int
fill(struct fws_wire_rd *rd)
{
	ssize_t r;

	if (rd->cap - rd->len < 65536) {
		size_t cap = rd->cap ? rd->cap * 2 : 131072;
		char *b = cap <= LINE_MAX_BYTES ? realloc(rd->buf, cap) : NULL;

		if (b == NULL)
			return -ENOMEM;
		rd->buf = b;
		rd->cap = cap;
	}
	r = read(rd->fd, rd->buf + rd->len, rd->cap - rd->len);
	if (r < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -errno;
	if (r == 0)
		rd->eof = 1;
	rd->len += (size_t)r;
	return 0;
}

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

json_t *
fws_wire_recv(struct fws_wire_rd *rd, int timeout_ms, int extra_fd, void (*on_extra)(void *arg),
	      void *arg, const char **why)
{
	int64_t end = now_ms() + timeout_ms;
	bool polled = false;
	json_t *v;

	free(rd->bin);
	rd->bin = NULL;
	rd->bin_len = 0;
	for (;;) {
		struct pollfd p[2] = {{.fd = rd->fd, .events = POLLIN},
				      {.fd = extra_fd, .events = POLLIN}};
		int left = timeout_ms < 0 ? -1 : (int)(end - now_ms());

		if ((v = next_line(rd, why)) != NULL || **why)
			return v;
		if (rd->eof) {
			*why = "end of stream";
			return NULL;
		}
		if (timeout_ms >= 0 && left <= 0) {
			if (polled) { /* a timeout of 0 looks once */
				*why = "timeout";
				return NULL;
			}
			left = 0;
		}
		polled = true;
		if (poll(p, extra_fd >= 0 ? 2 : 1, left) < 0 && errno != EINTR) {
			*why = "poll failed";
			return NULL;
		}
		if (extra_fd >= 0 && (p[1].revents & (POLLIN | POLLHUP)) && on_extra)
			on_extra(arg);
		if (extra_fd >= 0 && (p[1].revents & (POLLNVAL | POLLERR)))
			extra_fd =
				-1; /* closed meanwhile (on_extra saw its end): poll the stream alone */
		if ((p[0].revents & (POLLIN | POLLHUP | POLLERR)) && fill(rd) < 0) {
			*why = "read failed";
			return NULL;
		}
	}
}

void
fws_wire_rd_free(struct fws_wire_rd *rd)
{
	json_decref(rd->pending);
	rd->pending = NULL;
	free(rd->bin);
	rd->bin = NULL;
	free(rd->buf);
	rd->buf = NULL;
	rd->len = rd->cap = 0;
}

static void *
ticker_main(void *arg)
{
	struct fws_wire_ticker *k = arg;
	char line[256];
	unsigned int ms;
	size_t n;
	int fd;

	while (!k->quit) {
		for (ms = 0; ms < k->period_ms && !k->quit; ms += 50)
			nanosleep(&(struct timespec){.tv_nsec = 50000000}, NULL);
		if (k->quit)
			break;
		pthread_mutex_lock(k->lock);
		fd = -1;
		n = k->line(k->arg, line, sizeof(line), &fd);
		if (n > 0 && fd >= 0 &&
		    poll(&(struct pollfd){.fd = fd, .events = POLLOUT}, 1, 0) == 1 &&
		    write(fd, line, n) < 0 && errno == EPIPE)
			k->quit = 1;
		pthread_mutex_unlock(k->lock);
	}
	return NULL;
}

int
fws_wire_ticker_start(struct fws_wire_ticker *k)
{
	int rc;

	k->quit = 0;
	rc = pthread_create(&k->thread, NULL, ticker_main, k);
	k->running = rc == 0;
	return -rc;
}

void
fws_wire_ticker_stop(struct fws_wire_ticker *k)
{
	if (!k->running)
		return;
	k->quit = 1;
	pthread_join(k->thread, NULL);
	k->running = false;
}
