/* SPDX-License-Identifier: BSD-3-Clause */
/* Report files: written whole or not at all (a temporary file renamed over the old one),
 * a device or FIFO written into, the output path checked before a run starts. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_cells_io.h"

/* Write through a temporary file in the same directory, then rename over path. */
/* A device or FIFO is written into, never renamed over (-o /dev/null stays a device). */
static int
write_special(const char *path, int (*emit)(FILE *f, const void *arg), const void *run)
{
	int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC), rc;
	FILE *f;

	if (fd < 0)
		return errno == ENXIO ? -EPIPE : -errno; /* a FIFO nobody reads */
	f = fdopen(fd, "w");
	if (f == NULL) {
		rc = -errno;
		close(fd);
		return rc;
	}
	rc = emit(f, run);
	if (fflush(f) != 0)
		rc = -errno;
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

int
fws_report_write_atomic(const char *path, int (*emit)(FILE *f, const void *arg), const void *run)
{
	char tmp[4096];
	struct stat st;
	FILE *f;
	int rc, rc_emit;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return -EISDIR;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return write_special(path, emit, run);
	if (snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(tmp, "w");
	if (f == NULL)
		return -errno;
	rc_emit = emit(f, run);
	/* The reason from the system (ENOSPC, EDQUOT) beats the emitter's generic EIO. */
	rc = 0;
	if (fflush(f) != 0 || fsync(fileno(f)) != 0)
		rc = -errno;
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0)
		rc = rc_emit;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -errno;
	if (rc != 0)
		unlink(tmp);
	return rc;
}

int
fws_report_check_path(const char *path)
{
	char dir[4096], *slash;
	struct stat st;

	if (strlen(path) + 32 >= sizeof(dir))
		return -ENAMETOOLONG;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return -EISDIR;
		if (!S_ISREG(st.st_mode))
			return access(path, W_OK) == 0 ? 0 : -errno;
	}
	strlcpy(dir, path, sizeof(dir));
	slash = strrchr(dir, '/');
	if (slash == NULL)
		strlcpy(dir, ".", sizeof(dir));
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &st) != 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	return access(dir, W_OK | X_OK) == 0 ? 0 : -errno;
}

int
fws_report_dump(FILE *f, json_t *j)
{
	int rc;

	if (j == NULL)
		return -ENOMEM;
	rc = json_dumpf(j, f, JSON_INDENT(2) | JSON_REAL_PRECISION(12)) == 0 ? 0 : -EIO;
	fputc('\n', f);
	json_decref(j);
	return rc;
}
