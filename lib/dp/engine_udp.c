/* SPDX-License-Identifier: BSD-3-Clause */
/* Traffic engine "udp": stateless UDP from the stream's template pool (fws_tx). */
#include "fws_engine.h"
#include "fws_tx.h"

/* Every frame from the stream's template pool, only the varying fields written. */
const struct fws_engine fws_engine_udp = {
	.name = "udp",
	.tx_burst = fws_tx_burst,
};
