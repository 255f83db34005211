/* SPDX-License-Identifier: BSD-3-Clause */
/* The layout of the features' own blocks and the loops over them (fws_featdata.h). */
#include <errno.h>
#include <string.h>

#include "fws_featdata.h"

#define ALIGN8(x) (((x) + 7u) & ~(size_t)7u)

int
fws_fd_layout_add(struct fws_fd_layout *l, const struct fws_featdata *d)
{
	size_t c, r, tc, tr, pb;

	if (d == NULL)
		return 0;
	c = ALIGN8(l->count_used) + d->count_size;
	r = ALIGN8(l->result_used) + d->result_size;
	tc = ALIGN8(l->trial_count_used) + d->trial_count_size;
	tr = ALIGN8(l->trial_result_used) + d->trial_result_size;
	pb = ALIGN8(l->port_used) + d->port_size;
	if (l->n == FWS_FD_MAX || c > FWS_FD_COUNT_BYTES || r > FWS_FD_RESULT_BYTES ||
	    tc > FWS_FD_TRIAL_COUNT_BYTES || tr > FWS_FD_TRIAL_RESULT_BYTES ||
	    pb > FWS_FD_PORT_BYTES)
		return -ENOSPC;
	l->count_off[l->n] = (uint16_t)ALIGN8(l->count_used);
	l->result_off[l->n] = (uint16_t)ALIGN8(l->result_used);
	l->trial_count_off[l->n] = (uint16_t)ALIGN8(l->trial_count_used);
	l->trial_result_off[l->n] = (uint16_t)ALIGN8(l->trial_result_used);
	l->port_off[l->n] = (uint16_t)ALIGN8(l->port_used);
	l->d[l->n++] = d;
	l->count_used = c;
	l->result_used = r;
	l->trial_count_used = tc;
	l->trial_result_used = tr;
	l->port_used = pb;
	return 0;
}

int
fws_fd_find(const struct fws_fd_layout *l, const struct fws_featdata *d)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->d[i] == d)
			return (int)i;
	return -1;
}

void *
fws_fd_count(const struct fws_fd_layout *l, const struct fws_featdata *d, void *area)
{
	int i = fws_fd_find(l, d);

	return i < 0 || d->count_size == 0 ? NULL : (char *)area + l->count_off[i];
}

void *
fws_fd_result(const struct fws_fd_layout *l, const struct fws_featdata *d, void *area)
{
	int i = fws_fd_find(l, d);

	return i < 0 || d->result_size == 0 ? NULL : (char *)area + l->result_off[i];
}

const void *
fws_fd_result_c(const struct fws_fd_layout *l, const struct fws_featdata *d, const void *area)
{
	return fws_fd_result(l, d, (void *)(uintptr_t)area);
}

void *
fws_fd_trial_count(const struct fws_fd_layout *l, const struct fws_featdata *d, void *area)
{
	int i = fws_fd_find(l, d);

	return i < 0 || d->trial_count_size == 0 ? NULL : (char *)area + l->trial_count_off[i];
}

void *
fws_fd_trial_result(const struct fws_fd_layout *l, const struct fws_featdata *d, void *area)
{
	int i = fws_fd_find(l, d);

	return i < 0 || d->trial_result_size == 0 ? NULL : (char *)area + l->trial_result_off[i];
}

const void *
fws_fd_trial_result_c(const struct fws_fd_layout *l, const struct fws_featdata *d, const void *area)
{
	return fws_fd_trial_result(l, d, (void *)(uintptr_t)area);
}

void
fws_fd_merge(const struct fws_fd_layout *l, enum fws_fd_at at, void *result_area,
	     const void *count_area, unsigned int roles)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->d[i]->at == at && l->d[i]->merge && l->d[i]->count_size &&
		    l->d[i]->result_size)
			l->d[i]->merge((char *)result_area + l->result_off[i],
				       (const char *)count_area + l->count_off[i], roles);
}

void
fws_fd_zero(const struct fws_fd_layout *l, enum fws_fd_at at, void *count_area, void *result_area)
{
	unsigned int i;

	for (i = 0; i < l->n; i++) {
		if (l->d[i]->at != at)
			continue;
		if (count_area)
			memset((char *)count_area + l->count_off[i], 0, l->d[i]->count_size);
		if (result_area)
			memset((char *)result_area + l->result_off[i], 0, l->d[i]->result_size);
	}
}

void
fws_fd_merge_trial(const struct fws_fd_layout *l, void *result_area, const void *count_area)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->d[i]->merge_trial && l->d[i]->trial_count_size && l->d[i]->trial_result_size)
			l->d[i]->merge_trial((char *)result_area + l->trial_result_off[i],
					     (const char *)count_area + l->trial_count_off[i]);
}

void
fws_fd_json_trial(const struct fws_fd_layout *l, const void *result_area, json_t *trial)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->d[i]->json_trial && l->d[i]->trial_result_size)
			l->d[i]->json_trial((const char *)result_area + l->trial_result_off[i],
					    trial);
}

void
fws_fd_text_trial(const struct fws_fd_layout *l, FILE *f, const void *result_area)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->d[i]->text_trial && l->d[i]->trial_result_size)
			l->d[i]->text_trial(f, (const char *)result_area + l->trial_result_off[i]);
}

void
fws_fd_finish(const struct fws_fd_layout *l, void *result_area)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->d[i]->finish && l->d[i]->result_size)
			l->d[i]->finish((char *)result_area + l->result_off[i]);
}

void
fws_fd_json(const struct fws_fd_layout *l, const void *result_area, json_t *o)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->d[i]->json && l->d[i]->result_size)
			l->d[i]->json((const char *)result_area + l->result_off[i], o);
}

void
fws_fd_text(const struct fws_fd_layout *l, FILE *f, const char *stream, const void *result_area)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->d[i]->text && l->d[i]->result_size)
			l->d[i]->text(f, stream, (const char *)result_area + l->result_off[i]);
}

bool
fws_fd_failed(const struct fws_fd_layout *l, const void *result_area, char *buf, size_t len)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->d[i]->failed && l->d[i]->result_size &&
		    l->d[i]->failed((const char *)result_area + l->result_off[i], buf, len))
			return true;
	return false;
}

void
fws_fd_release(const struct fws_fd_layout *l, void *result_area)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->d[i]->release && l->d[i]->result_size)
			l->d[i]->release((char *)result_area + l->result_off[i]);
}

void
fws_fd_release_trial(const struct fws_fd_layout *l, void *result_area)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->d[i]->release_trial && l->d[i]->trial_result_size)
			l->d[i]->release_trial((char *)result_area + l->trial_result_off[i]);
}

void *
fws_fd_port(const struct fws_fd_layout *l, const struct fws_featdata *d, void *area)
{
	int i = fws_fd_find(l, d);

	return i < 0 || d->port_size == 0 ? NULL : (char *)area + l->port_off[i];
}

const void *
fws_fd_port_c(const struct fws_fd_layout *l, const struct fws_featdata *d, const void *area)
{
	return fws_fd_port(l, d, (void *)(uintptr_t)area);
}

void
fws_fd_json_port(const struct fws_fd_layout *l, const void *area, json_t *o)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->d[i]->json_port && l->d[i]->port_size)
			l->d[i]->json_port((const char *)area + l->port_off[i], o);
}

void
fws_fd_text_port(const struct fws_fd_layout *l, FILE *f, const char *port, const void *area)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->d[i]->text_port && l->d[i]->port_size)
			l->d[i]->text_port(f, port, (const char *)area + l->port_off[i]);
}

void
fws_fd_json_port_facts(const struct fws_fd_layout *l, const void *area, json_t *o)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->d[i]->json_port_facts && l->d[i]->port_size)
			l->d[i]->json_port_facts((const char *)area + l->port_off[i], o);
}

void
fws_fd_text_port_facts(const struct fws_fd_layout *l, FILE *f, const void *area)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->d[i]->text_port_facts && l->d[i]->port_size)
			l->d[i]->text_port_facts(f, (const char *)area + l->port_off[i]);
}
