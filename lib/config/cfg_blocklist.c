/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Blocklists in Spamhaus DROP's two formats, told apart line by line:
 *   text:  "; comment" lines, then "CIDR ; SBLnnnnnn"
 *   JSON:  one {"cidr": ..., "sblid": ..., "rir": ...} object a line (drop_v4.json,
 *          drop_v6.json), ending with a {"type": "metadata", ...} line
 * Every bad line is counted; the first three are named with their line numbers. A relative
 * file name in a config starts at the config file's directory.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "cfg_int.h"

#define LINE_MAX_LEN 512
#define NAMED_MAX 3

/* "a.b.c.d/len" or "x::y/len" (the length optional: one host) into bl: 1 when added;
 * -EDOM for a /0, which blocks every address (the test's own traffic too). */
static int
add_cidr(struct fws_blocklist *bl, const char *s)
{
	char a[LINE_MAX_LEN], *slash, *end;
	uint8_t addr[16];
	bool v6 = strchr(s, ':') != NULL;
	long len = v6 ? 128 : 32;

	strlcpy(a, s, sizeof(a));
	if ((slash = strchr(a, '/')) != NULL) {
		*slash = '\0';
		len = strtol(slash + 1, &end, 10);
		if (*end || end == slash + 1 || len < 0 || len > (v6 ? 128 : 32))
			return -EINVAL;
	}
	if (inet_pton(v6 ? AF_INET6 : AF_INET, a, addr) != 1)
		return -EINVAL;
	if (len == 0)
		return -EDOM;
	return fws_blocklist_add(bl, addr, v6, (unsigned int)len) == -ENOMEM ? -ENOMEM : 1;
}

/* One JSON line: a DROP entry or the metadata line. */
static int
json_line(struct fws_blocklist *bl, const char *line, size_t len)
{
	/* Numbers as reals: an SBL reference of twenty digits is no reason to refuse a line. */
	json_t *o = json_loadb(line, len, JSON_DECODE_INT_AS_REAL, NULL), *cidr;
	int rc = -EINVAL;

	if (o == NULL || !json_is_object(o)) {
		json_decref(o);
		return -EINVAL;
	}
	if (json_is_string(json_object_get(o, "type")) &&
	    strcmp(json_string_value(json_object_get(o, "type")), "metadata") == 0)
		rc = 0;
	else if (json_is_string(cidr = json_object_get(o, "cidr")))
		rc = add_cidr(bl, json_string_value(cidr));
	json_decref(o);
	return rc;
}

/* One text line: "CIDR ; SBL..." or a comment. */
static int
text_line(struct fws_blocklist *bl, char *line)
{
	char *semi = strchr(line, ';'), *end;

	if (semi)
		*semi = '\0';
	end = line + strlen(line);
	while (end > line && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return *line ? add_cidr(bl, line) : 0;
}

/* A text line of any length: what comes before its ';' (the CIDR) must fit line; a long
 * comment after it is a comment. */
static int
text_part(struct fws_blocklist *bl, const char *p, size_t llen, char *line, size_t len)
{
	const char *semi = memchr(p, ';', llen);
	size_t keep = semi ? (size_t)(semi - p) : llen;

	if (keep >= len)
		return -E2BIG;
	memcpy(line, p, keep);
	line[keep] = '\0';
	return text_line(bl, line);
}

/* Name a bad line in the message (the first few), count the rest. */
static void
bad_line(char *msg, size_t len, unsigned int nbad, unsigned int lineno, const char *line,
	 size_t llen, int rc)
{
	const char *why = rc == -EDOM     ? "blocks every address, the test's own too"
			  : rc == -EILSEQ ? "holds a NUL byte (not a text file)"
			  : rc == -E2BIG  ? "is longer than 511 characters before its ';'"
					  : "is not a CIDR";
	size_t used = strlen(msg);
	char shown[48];

	if (nbad > NAMED_MAX || used >= len)
		return;
	snprintf(shown, sizeof(shown), "%.*s", (int)(llen < 40 ? llen : 40), line);
	cfg_one_line(shown);
	snprintf(msg + used, len - used, "%sline %u: \"%s\" %s", used ? "; " : "", lineno, shown,
		 why);
}

int
fws_blocklist_parse(struct fws_blocklist *bl, const char *buf, size_t len, const char *name,
		    char *err, size_t errlen)
{
	char named[400] = "", line[LINE_MAX_LEN];
	unsigned int lineno = 0, nbad = 0, added = 0;
	size_t pos = 0;
	int rc;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos), *p = buf + pos;
		size_t llen = nl ? (size_t)(nl - p) : len - pos;

		pos += llen + 1;
		lineno++;
		while (llen && (*p == ' ' || *p == '\t')) {
			p++;
			llen--;
		}
		if (memchr(p, '\0', llen) != NULL)
			rc = -EILSEQ;
		else if (llen && *p == '{')
			rc = json_line(bl, p, llen);
		else
			rc = text_part(bl, p, llen, line, sizeof(line));
		if (rc == -ENOMEM)
			return snprintf(err, errlen, "blocklist %s: out of memory", name), -ENOMEM;
		if (rc < 0)
			bad_line(named, sizeof(named), ++nbad, lineno, p, llen, rc);
		added += rc > 0;
	}
	if (nbad) {
		snprintf(err, errlen, "blocklist %s: %u bad line%s: %s%s", name, nbad,
			 nbad > 1 ? "s" : "", named, nbad > NAMED_MAX ? "; ..." : "");
		return -EINVAL;
	}
	if (added == 0 && lineno == 0) {
		snprintf(err, errlen, "blocklist %s: empty (a failed download?)", name);
		return -EINVAL;
	}
	if (added == 0) {
		snprintf(err, errlen,
			 "blocklist %s: no CIDR in it (%u line%s of comments or metadata only: a "
			 "failed download?)",
			 name, lineno, lineno == 1 ? "" : "s");
		return -EINVAL;
	}
	fws_blocklist_finish(bl);
	return 0;
}

int
fws_blocklist_load(struct fws_blocklist *bl, const char *path, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int rc = cfg_read_file(path, FWS_CONFIG_MAX_BYTES, &buf, &len, err, errlen, "file");

	if (rc < 0)
		return rc;
	rc = fws_blocklist_parse(bl, buf, len, path, err, errlen);
	free(buf);
	return rc;
}

/* Config section "blocklist": one path or a list; each file loaded now, so validate sees
 * its errors. */
int
cfg_sec_blocklist(struct cfg_ctx *c, const json_t *v, struct cfg_top *t)
{
	struct fws_cfg *cfg = t->cfg;
	size_t i, n = json_is_array(v) ? json_array_size(v) : 1, old;
	char err[512];

	if (n == 0 || n > FWS_CFG_MAX_BLOCKLISTS)
		return cfg_fail(c, "expected 1 to %d files", FWS_CFG_MAX_BLOCKLISTS);
	for (i = 0; i < n; i++) {
		const json_t *e = json_is_array(v) ? json_array_get(v, i) : v;
		char *path = cfg->blocklist_files[i];

		old = json_is_array(v) ? cfg_push_idx(c, i) : strlen(c->path);
		if (cfg_want_type(c, e, JSON_STRING, "a file name") < 0)
			return -EINVAL;
		if (json_string_value(e)[0] != '/' && c->base &&
		    (size_t)snprintf(path, FWS_CFG_PATH_LEN, "%s/%s", c->base,
				     json_string_value(e)) >= FWS_CFG_PATH_LEN)
			return cfg_fail(c, "the file name is longer than %d bytes",
					FWS_CFG_PATH_LEN - 1);
		if ((json_string_value(e)[0] == '/' || !c->base) &&
		    cfg_get_string(c, e, path, FWS_CFG_PATH_LEN) < 0)
			return -EINVAL;
		if (fws_blocklist_load(&cfg->blocklist, path, err, sizeof(err)) < 0)
			return cfg_fail(c, "%s", err);
		cfg_pop(c, old);
		cfg->n_blocklists++;
	}
	return 0;
}

json_t *
cfg_emit_blocklist(const struct fws_cfg *cfg)
{
	json_t *a;
	unsigned int i;

	if (cfg->n_blocklists == 0)
		return NULL;
	a = json_array();
	for (i = 0; i < cfg->n_blocklists; i++)
		json_array_append_new(a, json_string(cfg->blocklist_files[i]));
	return a;
}
