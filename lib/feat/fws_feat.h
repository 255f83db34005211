/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The one table of the measuring features' data (fws_featdata.h), shared by both sides of
 * the seam: a host fills the count blocks of the layout it gives, the controller merges them
 * into the result blocks of the same layout, the report writes them. Each feature's data is
 * a file pair in this folder (fd_NAME.{c,h}); its host hooks (if it counts on the ports) are
 * in lib/host, its controller hooks (if it judges) in lib/ctrl, each naming its data.
 */
#ifndef FWS_FEAT_H
#define FWS_FEAT_H

#include "fws_featdata.h"

/** The table's layout appended to l (zeroed by the caller): 0, or -ENOSPC when the blocks
 * exceed their areas (the build's mistake: the areas are fixed). */
int fws_feat_layout(struct fws_fd_layout *l);

#endif /* FWS_FEAT_H */
