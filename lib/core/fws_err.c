/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdarg.h>
#include <stdio.h>

#include "fws_err.h"

static const struct {
	int code;
	const char *label;
} kinds[] = {
#define FWS_ERR_ROW(name, code, label) [FWS_ERR_##name] = {code, label},
	FWS_ERR_KINDS(FWS_ERR_ROW)
#undef FWS_ERR_ROW
};

int
fws_err_set(struct fws_err *e, enum fws_err_kind kind, int rc, const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return rc;
	e->kind = kind;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return rc;
}

int
fws_err_exit_code(enum fws_err_kind kind)
{
	return (unsigned int)kind < sizeof(kinds) / sizeof(kinds[0]) ? kinds[kind].code : 5;
}

const char *
fws_err_kind_name(enum fws_err_kind kind)
{
	return (unsigned int)kind < sizeof(kinds) / sizeof(kinds[0]) ? kinds[kind].label : "fault";
}
