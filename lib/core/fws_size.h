/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Frame sizes. A size mix is a set of frame sizes (bytes on the wire including the 4-byte
 * FCS, excluding preamble and inter-frame gap) with integer weights; a fixed size is a mix of
 * one. The transmitter walks a repeating sequence (the RFC 6985 "IMIX genome") in which every
 * size appears as often as its weight, spread as evenly as possible.
 */
#ifndef FWS_SIZE_H
#define FWS_SIZE_H

#include <stddef.h>
#include <stdint.h>

#define FWS_SIZE_MIN 64
#define FWS_SIZE_MAX 9216
#define FWS_SIZE_MAX_ENTRIES 16
#define FWS_SIZE_MAX_SEQ 256 /**< longest genome; the sum of the weights */
#define FWS_SIZE_FCS 4

/** A frame-size mix. */
struct fws_size_mix {
	char name[32]; /**< "64", "imix", or a user's label */
	uint16_t n;
	uint16_t size[FWS_SIZE_MAX_ENTRIES];
	uint16_t weight[FWS_SIZE_MAX_ENTRIES];
};

/** A fixed size. */
void fws_size_fixed(struct fws_size_mix *m, uint16_t size);

/** The simple IMIX: 64, 570 and 1518 bytes in the ratio 7:4:1. */
void fws_size_imix(struct fws_size_mix *m);

/** Sum of the weights (the genome length). */
unsigned int fws_size_seq_len(const struct fws_size_mix *m);

/**
 * Fill seq with the genome: sizes in transmit order, each as often as its weight, spread by
 * smooth weighted round robin. Returns the length, or -EINVAL when it exceeds max or the mix
 * is empty.
 */
int fws_size_sequence(const struct fws_size_mix *m, uint16_t *seq, unsigned int max);

/** Average frame size in bytes (weights applied). */
double fws_size_avg(const struct fws_size_mix *m);

/** Smallest and largest size of the mix. */
uint16_t fws_size_min(const struct fws_size_mix *m);
uint16_t fws_size_max(const struct fws_size_mix *m);

/**
 * RFC 6985 notation of the mix: the genome in size letters (a=64 b=128 c=256 d=512 e=1024
 * f=1280 g=1518 h=2112 i=9000). Sizes without a letter get the custom letters j, k, ... and
 * a legend, e.g. "aaaaaaajjjjg (j=570)". Returns the length written like snprintf.
 */
int fws_size_rfc6985(const struct fws_size_mix *m, char *buf, size_t len);

#endif /* FWS_SIZE_H */
