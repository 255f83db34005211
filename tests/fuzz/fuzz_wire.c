/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer: the control stream's reader (fws_wire_recv), as a controller reads what a remote
 * agent (or whatever answers on its ssh connection) writes: JSON lines, their attachments,
 * packed ones among them ("raw"). Each input is the stream's bytes; the reader must end on
 * an error or the end of the stream, never read or write outside what it allocated, and an
 * attachment it hands over must be exactly the length its line gave.
 */
#include <stdlib.h>
#include <unistd.h>

#include "fws_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fws_wire_rd rd = {0};
	const char *why = NULL;
	json_t *v;
	int fd[2];

	if (size > 60000 || pipe(fd) != 0) /* the pipe holds it whole */
		return 0;
	if (write(fd[1], data, size) != (ssize_t)size)
		abort();
	close(fd[1]);
	rd.fd = fd[0];
	while ((v = fws_wire_recv(&rd, 1000, -1, NULL, NULL, &why)) != NULL) {
		const json_t *raw = json_object_get(v, "raw"), *bin = json_object_get(v, "bin");

		if (bin && rd.bin_len != (size_t)json_integer_value(raw ? raw : bin))
			abort();
		json_decref(v);
	}
	if (why == NULL || why[0] == '\0')
		abort();
	close(fd[0]);
	fws_wire_rd_free(&rd);
	return 0;
}
