/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdarg.h>
#include <stdio.h>

#include "fws_log.h"

/* Before any sink is set (unit tests, and the commands that never start EAL): stderr, as
 * DPDK's log writes before EAL is up, at its default level. */
static void
log_stderr(const char *mod, enum fws_log_level level, const char *line)
{
	(void)mod;
	if (level <= FWS_LOG_LVL_NOTICE)
		fputs(line, stderr);
}

static fws_log_sink_fn *log_sink = log_stderr;

void
fws_log_set_sink(fws_log_sink_fn *fn)
{
	log_sink = fn ? fn : log_stderr;
}

void
fws_log(const char *mod, enum fws_log_level level, const char *fmt, ...)
{
	char line[1024];
	int n = snprintf(line, sizeof(line), "fwstress: "), m;
	va_list ap;

	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	n += m > 0 ? m : 0;
	if (n > (int)sizeof(line) - 2) /* cut, its newline kept */
		n = (int)sizeof(line) - 2;
	line[n] = '\n';
	line[n + 1] = '\0';
	log_sink(mod, level, line);
}
