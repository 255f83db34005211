/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where two reports' configs differ (fws_report_config_diff): what sweep --resume refuses to
 * mix and what compare warns of. Reads only the JSON of the reports' "config".
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fws_cells_io.h"

/* A config's value as one short line (null when absent). */
static void
short_json(const json_t *v, char *buf, size_t len)
{
	char *d =
		v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(12)) : NULL;

	snprintf(buf, len, "%s%s", d ? (strlen(d) > 60 ? "" : d) : "null",
		 d && strlen(d) > 60 ? "(a longer value)" : "");
	free(d);
}

/* Down to the first place where x and y differ: its path appended to path, *x and *y its
 * two values (NULL: absent on that side). */
static void
first_difference(const json_t **x, const json_t **y, char *path, size_t len)
{
	size_t i, n = strlen(path);
	const char *k;
	json_t *v;

	if (json_is_object(*x) && json_is_object(*y)) {
		const json_t *sides[2] = {*x, *y};

		for (i = 0; i < 2; i++)
			json_object_foreach((json_t *)sides[i], k, v)
			{
				const json_t *a = json_object_get(*x, k),
					     *b = json_object_get(*y, k);

				if (json_equal(a, b))
					continue;
				snprintf(path + n, len - n, ".%s", k);
				*x = a;
				*y = b;
				first_difference(x, y, path, len);
				return;
			}
	}
	if (json_is_array(*x) && json_is_array(*y)) {
		for (i = 0; i < json_array_size(*x) || i < json_array_size(*y); i++) {
			const json_t *a = json_array_get(*x, i), *b = json_array_get(*y, i);

			if (json_equal(a, b))
				continue;
			snprintf(path + n, len - n, "[%zu]", i);
			*x = a;
			*y = b;
			first_difference(x, y, path, len);
			return;
		}
	}
}

bool
fws_report_config_diff(const json_t *was, const json_t *now, const char *key, const char *ignore,
		       char *at, size_t atlen, char *a, char *b, size_t vlen)
{
	json_t *x = json_deep_copy(json_object_get(was, key));
	json_t *y = json_deep_copy(json_object_get(now, key));
	const json_t *dx = x, *dy = y;
	bool differ = !(x == NULL && y == NULL) && !json_equal(x, y);

	if (ignore && differ) {
		json_object_del(x, ignore);
		json_object_del(y, ignore);
		differ = !(x == NULL && y == NULL) && !json_equal(x, y);
	}
	if (differ) {
		snprintf(at, atlen, "%s", key);
		first_difference(&dx, &dy, at, atlen);
		short_json(dx, a, vlen);
		short_json(dy, b, vlen);
	}
	json_decref(x);
	json_decref(y);
	return differ;
}
