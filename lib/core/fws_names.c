/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include "fws_names.h"

unsigned int
fws_names_distance(const char *a, const char *b)
{
	unsigned int d[40][40], i, j, la = (unsigned int)strlen(a), lb = (unsigned int)strlen(b);

	if (la >= 40 || lb >= 40)
		return 99;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			unsigned int v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *
fws_names_nearest(const char *word, const char *const *names, size_t n)
{
	unsigned int best = 3, dist;
	const char *found = NULL;
	size_t i;

	for (i = 0; n ? i < n : names[i] != NULL; i++) {
		if (names[i] == NULL)
			continue;
		dist = fws_names_distance(word, names[i]);
		if (dist < best && dist * 3 <= strlen(names[i])) {
			best = dist;
			found = names[i];
		}
	}
	return found;
}
