/* SPDX-License-Identifier: BSD-3-Clause */
/* The agent protocol's table (fws_agent_ops.h): names, lookup and its reference page. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "fws_agent.h"
#include "fws_agent_ops.h"
#include "fws_err.h"
#include "fws_phase.h"
#include "fws_wire.h"

static const struct {
	const char *name, *answer, *what;
	bool stopped;
} ops[] = {
#define OP(kind, n, st, ret, params, ans, what) OP_##kind(n, st, ans, what)
#define OP_CALL(n, st, ans, what) [FWS_OP_##n] = {#n, ans, what, st},
#define OP_WIRE OP_CALL
#define OP_LOCAL(...)
	FWS_AGENT_OPS(OP)
#undef OP
};

static const struct {
	const char *name, *line, *what;
} lines[] = {
#define LINE(n, line, what) {#n, line, what},
	FWS_AGENT_LINES(LINE)
#undef LINE
};

enum arg_kind { K_INT, K_NUM, K_BOOL, K_PATH, K_OBJ, K_BLOB, K_INFO };
enum arg_limit { L_NONE, L_STREAM, L_MASK, L_FLOW };

/* One field of a request or an answer: its table row. */
struct field {
	enum fws_agent_op op;
	const char *key, *what;
	enum arg_kind kind;
	double lo, hi;      /* NUM, PATH */
	long long ilo, ihi; /* INT: exact (a double does not hold INT64_MAX) */
	enum arg_limit limit;
};

#define ARG(o, k, kind, l, h, lim, w)                                                              \
	{FWS_OP_##o,     #k,     w, K_##kind, (double)(l), (double)(h), (long long)(l),            \
	 (long long)(h), L_##lim},
static const struct field args[] = {FWS_AGENT_FIELDS(ARG)};
#undef ARG
#define ANS(o, k, kind, l, h, w)                                                                   \
	{FWS_OP_##o,     #k,    w, K_##kind, (double)(l), (double)(h), (long long)(l),             \
	 (long long)(h), L_NONE},
static const struct field answers[] = {FWS_AGENT_ANSWERS(ANS)};
#undef ANS

/* Where the values read go: a request's (struct fws_agent_args) or an answer's arrays. */
struct vals {
	long long *i;
	double *f;
	bool *b;
	const char **s;
	const void **j;
};

/* The config's streams as a bit mask. */
static long long
all_streams(unsigned int n)
{
	return n >= 32 ? (long long)UINT32_MAX : (1ll << n) - 1;
}

/* Field i's highest value: its own, or the agent's config's; -1 (e set) before setup. */
static int
arg_hi(const struct field *t, unsigned int i, const struct fws_agent_limits *lim,
       const struct vals *a, long long *hi, struct fws_err *e)
{
	long long s;

	if (t[i].limit == L_NONE) {
		*hi = t[i].ihi;
		return 0;
	}
	if (lim == NULL)
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL, "not set up");
	if (t[i].limit == L_STREAM)
		*hi = (long long)lim->n_streams - 1;
	else if (t[i].limit == L_MASK)
		*hi = all_streams(lim->n_streams);
	else { /* the op's stream, read before it (its "s" comes first) */
		s = a->i[i - 1];
		*hi = (long long)lim->flows[s] - 1;
	}
	return 0;
}

static int
read_int(const struct field *t, unsigned int i, const char *op, const json_t *v,
	 const struct fws_agent_limits *lim, const struct vals *a, struct fws_err *e)
{
	long long lo = t[i].ilo, hi = 0;

	if (arg_hi(t, i, lim, a, &hi, e) < 0)
		return -EINVAL;
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return fws_err_set(e, FWS_ERR_SETUP, -EINVAL,
				   "%s: \"%s\" is not an integer from %lld to %lld", op, t[i].key,
				   lo, hi);
	a->i[i] = json_integer_value(v);
	return 0;
}

/* Field i of table t, v its value in the request or answer of op (worded so in errors). */
static int
read_arg(const struct field *t, unsigned int i, const char *op, const json_t *v,
	 const struct fws_agent_limits *lim, const struct vals *a, struct fws_err *e)
{
	const char *k = t[i].key;
	double x = json_number_value(v);

	a->j[i] = v;
	switch (t[i].kind) {
	case K_INT:
		return read_int(t, i, op, v, lim, a, e);
	case K_NUM:
		if (!json_is_number(v) || !isfinite(x) || x <= t[i].lo || x > t[i].hi)
			return fws_err_set(e, FWS_ERR_SETUP, -EINVAL,
					   "%s: \"%s\" is not a number above %g and up to %g", op,
					   k, t[i].lo, t[i].hi);
		a->f[i] = x;
		return 0;
	case K_BOOL:
		if (v != NULL && !json_is_boolean(v))
			return fws_err_set(e, FWS_ERR_SETUP, -EINVAL,
					   "%s: \"%s\" is not true or false", op, k);
		a->b[i] = json_is_true(v);
		return 0;
	case K_PATH:
		a->s[i] = json_string_value(v);
		if (a->s[i] == NULL || a->s[i][0] != '/' || strlen(a->s[i]) >= t[i].hi)
			return fws_err_set(e, FWS_ERR_SETUP, -EINVAL,
					   "%s: \"%s\" is not an absolute path under %.0f bytes",
					   op, k, t[i].hi);
		return 0;
	case K_OBJ:
	case K_BLOB:
		if (t[i].kind == K_OBJ ? !json_is_object(v) : !json_is_string(v))
			return fws_err_set(e, FWS_ERR_SETUP, -EINVAL, "%s: no \"%s\"", op, k);
		return 0;
	case K_INFO:
		a->s[i] = json_string_value(v);
		return 0;
	}
	return 0;
}

int
fws_agent_args_read(enum fws_agent_op op, const void *req, const struct fws_agent_limits *lim,
		    struct fws_agent_args *a, struct fws_err *e)
{
	struct vals v = {a->i, a->f, a->b, a->s, a->j};
	unsigned int i;

	for (i = 0; i < FWS_AGENT_N_ARGS; i++)
		if (args[i].op == op && read_arg(args, i, fws_agent_op_name(op),
						 json_object_get(req, args[i].key), lim, &v, e) < 0)
			return -EINVAL;
	return 0;
}

int
fws_agent_answer_read(enum fws_agent_op op, const void *ans, struct fws_agent_answer *a,
		      struct fws_err *e)
{
	struct vals v = {a->i, a->f, a->b, a->s, a->j};
	char what[64];
	unsigned int i;

	snprintf(what, sizeof(what), "answer to %s", fws_agent_op_name(op));
	for (i = 0; i < FWS_AGENT_N_ANS; i++)
		if (answers[i].op == op &&
		    read_arg(answers, i, what, json_object_get(ans, answers[i].key), NULL, &v, e) <
			    0)
			return -EINVAL;
	return 0;
}

void *
fws_agent_args_pack(enum fws_agent_op op, const struct fws_agent_args *a)
{
	json_t *o = json_object();
	unsigned int i;

	for (i = 0; i < FWS_AGENT_N_ARGS; i++) {
		json_t *v = NULL;

		if (args[i].op != op)
			continue;
		switch (args[i].kind) {
		case K_INT:
			v = json_integer(a->i[i]);
			break;
		case K_NUM:
			v = json_real(a->f[i]);
			break;
		case K_BOOL:
			v = json_boolean(a->b[i]);
			break;
		case K_PATH:
			v = json_string(a->s[i] ? a->s[i] : "");
			break;
		default: /* OBJ, BLOB, INFO: the value given, taken */
			v = (json_t *)(uintptr_t)a->j[i];
		}
		if (v != NULL)
			json_object_set_new(o, args[i].key, v);
	}
	return o;
}

/* The fields of op's request (t = args, n of them) or answer in words, for the reference page;
 * how many. */
static unsigned int
doc_fields(FILE *f, const struct field *t, unsigned int n, enum fws_agent_op op)
{
	static const char *const lims[] = {"", "its config's last stream", "every stream's bit",
					   "the stream's last flow"};
	unsigned int i, k = 0;

	for (i = 0; i < n; i++) {
		if (t[i].op != op)
			continue;
		fprintf(f, "%s%s (%s): ", k++ ? "; " : "", t[i].key, t[i].what);
		switch (t[i].kind) {
		case K_INT:
			if (t[i].limit != L_NONE)
				fprintf(f, "%lld to %s", t[i].ilo, lims[t[i].limit]);
			else
				fprintf(f, "%lld to %lld", t[i].ilo, t[i].ihi);
			break;
		case K_NUM:
			fprintf(f, "a number above %g, up to %g", t[i].lo, t[i].hi);
			break;
		case K_BOOL:
			fprintf(f, "true or false (absent: false)");
			break;
		case K_PATH:
			fprintf(f, "an absolute path under %.0f bytes", t[i].hi);
			break;
		case K_OBJ:
			fprintf(f, "an object");
			break;
		case K_BLOB:
			fprintf(f, "base64");
			break;
		case K_INFO:
			fprintf(f, t == args ? "the controller's word, not checked"
					     : "the agent's word");
			break;
		}
	}
	return k;
}

const char *
fws_agent_op_name(enum fws_agent_op op)
{
	return (unsigned int)op < FWS_AGENT_N_OPS ? ops[op].name : "?";
}

int
fws_agent_op_of(const char *name)
{
	unsigned int i;

	for (i = 0; name && i < FWS_AGENT_N_OPS; i++)
		if (strcmp(ops[i].name, name) == 0)
			return (int)i;
	return -1;
}

bool
fws_agent_op_stopped(enum fws_agent_op op)
{
	return (unsigned int)op < FWS_AGENT_N_OPS && ops[op].stopped;
}

void
fws_agent_protocol_doc(FILE *f)
{
	unsigned int i;

	fprintf(f, "# The agent protocol\n\n"
		   "Generated by `fwstress agent --doc` from lib/seam/fws_agent_ops.h; a test "
		   "fails when this page is stale. For developers: what a controller and a remote "
		   "agent (`fwstress agent`, reached over ssh or a host's command) say to each "
		   "other.\n\n");
	fprintf(f,
		"Protocol %d.%d. JSON lines over the command's stdin and stdout, one object a "
		"line. A request is `{\"id\": N, \"op\": NAME, ...fields}`; its answer `{\"id\": "
		"N, \"rc\": 0 or -errno, \"err\": {\"kind\", \"msg\"}, ...fields}`. A structure "
		"of lib/seam/fws_agent.h goes in a request as `\"b\"`: base64 of its bytes; in an "
		"answer as an attachment (`\"bin\": N` in its line, then N raw bytes). An "
		"attachment of 4 KiB or more goes packed when that is shorter (since 2.3; a "
		"host's counts hold a 200 KiB latency histogram per stream, mostly empty): its "
		"line says `\"raw\": M`, the unpacked length, and the N bytes are pairs of a "
		"LEB128 length L, L bytes as they are, and a LEB128 count of zero bytes, until "
		"they fill M exactly (anything else is a broken stream). The first exchange "
		"(hello) compares the major version and the structures' layout: both "
		"ends run the same build. Every field of a request is checked by the agent before "
		"it reaches the host (an ssh key may be restricted to `fwstress agent`); a "
		"request that fails a check gets an error answer and the agent serves on. Every "
		"field of an answer with rc 0 is checked by the controller likewise; an answer "
		"that fails a check loses the agent, the reason naming the op and the field.\n\n",
		FWS_WIRE_MAJOR, FWS_WIRE_MINOR);
	fprintf(f, "## Operations\n\n"
		   "Stopped: refused (`-EBUSY`) while the agent's workers run.\n\n"
		   "| op | stopped | request | answer | what |\n|---|---|---|---|---|\n");
	for (i = 0; i < FWS_AGENT_N_OPS; i++) {
		fprintf(f, "| `%s` | %s | ", ops[i].name, ops[i].stopped ? "yes" : "");
		doc_fields(f, args, FWS_AGENT_N_ARGS, (enum fws_agent_op)i);
		fprintf(f, " | ");
		if (doc_fields(f, answers, FWS_AGENT_N_ANS, (enum fws_agent_op)i) &&
		    ops[i].answer[0])
			fprintf(f, "; ");
		fprintf(f, "%s | %s |\n", ops[i].answer, ops[i].what);
	}
	fprintf(f, "\n## Lines without an id\n\n| line | form | what |\n|---|---|---|\n");
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		fprintf(f, "| `%s` | `%s` | %s |\n", lines[i].name, lines[i].line, lines[i].what);
	fprintf(f,
		"\n## Timing\n\n"
		"| constant | ms | what |\n|---|---|---|\n"
		"| FWS_CTL_PING_MS | %d | the controller's ping |\n"
		"| FWS_AGENT_BEAT_MS | %d | the agent's heartbeat |\n"
		"| FWS_AGENT_SILENT_MS | %d | silence after which the controller takes the link "
		"for cut |\n"
		"| FWS_AGENT_DEADMAN_MS | %d | no request while the workers run: the agent stops "
		"them and exits |\n"
		"| FWS_AGENT_IDLE_MS | %d | no line while set up and idle: the agent exits |\n",
		FWS_CTL_PING_MS, FWS_AGENT_BEAT_MS, FWS_AGENT_SILENT_MS, FWS_AGENT_DEADMAN_MS,
		FWS_AGENT_IDLE_MS);
}
