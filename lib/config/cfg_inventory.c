/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A host of "hosts" taken from an Ansible inventory ("inventory": the file the playbook
 * tools/ansible/loadclients.yml prepared the clients from): ansible-inventory --host NAME
 * gives its variables, and ansible_host, ansible_user, ansible_port,
 * ansible_ssh_private_key_file (or fwstress_ssh_key, the controller's key restricted to the
 * agent) and ansible_ssh_common_args (split into words as a shell would, as Ansible does)
 * become its ssh destination and options, fwstress_bin the binary there, fwstress_eal its EAL
 * arguments. The config then holds them as if written out (the normalised config and the
 * report show them; an agent never reads the inventory). The inventory is looked at before
 * ansible-inventory runs (a file or a directory, readable, of a sane size), and a value too
 * long for its place is refused, never cut.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "fws_compat.h"
#include "fws_config.h"
#include "fws_spawn.h"
#include "cfg_int.h"

#define INVENTORY_OUT_MAX (1 << 20)
#define INVENTORY_TIMEOUT_MS 60000
#define INVENTORY_FILE_MAX (16u << 20)

/* What ansible-inventory may be given: a readable file of at most 16 MiB, or a directory of
 * them (Ansible's inventory directories); never a FIFO (it blocks) or a device (/dev/zero
 * grows it without end). NULL, or why not. */
static const char *
inventory_unfit(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return errno == ENOENT ? "no such file" : strerror(errno);
	if (S_ISDIR(st.st_mode))
		return access(path, R_OK | X_OK) == 0 ? NULL : "a directory it cannot read";
	if (!S_ISREG(st.st_mode))
		return "not a file (a FIFO or a device)";
	if (access(path, R_OK) != 0)
		return "not readable";
	if ((size_t)st.st_size > INVENTORY_FILE_MAX)
		return "larger than 16 MiB: not an inventory";
	return NULL;
}

/* ansible-inventory -i path --host name: its standard output, or NULL (why in err). */
static char *
inventory_vars(const char *path, const char *name, char *err, size_t len)
{
	char *const argv[] = {"ansible-inventory", "-i", (char *)path, "--host",
			      (char *)name,        NULL};
	char *buf = malloc(INVENTORY_OUT_MAX);
	int st = 0, rc;

	if (buf == NULL) {
		snprintf(err, len, "%s", strerror(ENOMEM));
		return NULL;
	}
	rc = fws_spawn_capture(argv, buf, INVENTORY_OUT_MAX, INVENTORY_TIMEOUT_MS, &st) < 0 ? errno
											    : 0;
	if (rc != 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		snprintf(err, len, "%s",
			 rc == ETIMEDOUT ? "ansible-inventory did not answer in 60 s"
			 : rc == EINTR   ? "interrupted while ansible-inventory was read (its "
					   "process group ended)"
			 : rc == EMSGSIZE
				 ? "ansible-inventory's answer for it is larger than 1 MiB: not "
				   "read"
			 : rc != 0 ? strerror(rc)
			 : WIFEXITED(st) && WEXITSTATUS(st) == 127
				 ? "ansible-inventory is missing (Debian's ansible-core)"
				 : "ansible-inventory found no such host in it");
		free(buf);
		return NULL;
	}
	return buf;
}

static const char *
var(const json_t *vars, const char *key)
{
	const json_t *v = json_object_get(vars, key);
	static char num[24];

	if (json_is_integer(v)) { /* ansible_port: 2222 */
		snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
		return num;
	}
	return json_is_string(v) && json_string_length(v) ? json_string_value(v) : NULL;
}

static int
push_opt(struct fws_cfg_host *h, const char *a)
{
	if (h->n_ssh_opts == sizeof(h->ssh_opts) / sizeof(h->ssh_opts[0]))
		return -E2BIG;
	if (strlen(a) >= FWS_CFG_PATH_LEN)
		return -ENAMETOOLONG;
	if ((h->ssh_opts[h->n_ssh_opts] = strdup(a)) == NULL)
		return -ENOMEM;
	h->n_ssh_opts++;
	return 0;
}

/* The next word of s as a POSIX shell splits it (blanks between words; '...' literal, "..."
 * with \ before " \ $ `, a \ outside quotes taking the next character), into w; the rest
 * after it, or NULL at the end. -EINVAL (as *rc) for an unclosed quote. */
static const char *
shell_word(const char *s, char *w, size_t len, int *rc)
{
	size_t n = 0;
	char q = 0;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (*s == '\0')
		return NULL;
	for (; *s && (q || (*s != ' ' && *s != '\t' && *s != '\n')); s++) {
		char ch = *s;

		if (q == 0 && (ch == '\'' || ch == '"')) {
			q = ch;
			continue;
		}
		if (q && ch == q) {
			q = 0;
			continue;
		}
		if (ch == '\\' && q != '\'' && s[1] && (q == 0 || strchr("\"\\$`", s[1])))
			ch = *++s;
		if (n + 1 >= len) {
			*rc = -ENAMETOOLONG;
			return NULL;
		}
		w[n++] = ch;
	}
	w[n] = '\0';
	if (q)
		*rc = -EINVAL;
	return s;
}

/* ssh's options from the variables: -p, -i, then the common arguments word by word. */
static int
ssh_options(const json_t *vars, struct fws_cfg_host *h)
{
	const char *port = var(vars, "ansible_port"), *key, *common;
	char w[FWS_CFG_PATH_LEN];
	int rc = 0;

	if (port && ((rc = push_opt(h, "-p")) < 0 || (rc = push_opt(h, port)) < 0))
		return rc;
	/* The controller's key for the agent (restricted to it) may differ from Ansible's. */
	if ((key = var(vars, "fwstress_ssh_key")) == NULL)
		key = var(vars, "ansible_ssh_private_key_file");
	if (key != NULL && ((rc = push_opt(h, "-i")) < 0 || (rc = push_opt(h, key)) < 0))
		return rc;
	if ((common = var(vars, "ansible_ssh_common_args")) == NULL)
		return 0;
	while (rc == 0 && (common = shell_word(common, w, sizeof(w), &rc)) != NULL && rc == 0)
		rc = push_opt(h, w);
	return rc == -EINVAL ? -EBADMSG : rc;
}

/* fwstress_eal: a list of strings, the host's EAL arguments (unless the config gives them),
 * refused as the config's "eal" would be (EAL's --help, a secondary process): *refused
 * then says why, naming the variable and the argument, in why. */
static int
eal(const json_t *vars, struct fws_cfg_host *h, const char **refused, char *why, size_t why_len)
{
	const json_t *l = json_object_get(vars, "fwstress_eal"), *e;
	size_t i;

	if (h->n_eal || l == NULL)
		return 0;
	if (!json_is_array(l))
		return -EINVAL;
	json_array_foreach(l, i, e)
	{
		if (!json_is_string(e) || i >= FWS_CFG_MAX_EAL)
			return -EINVAL;
		*refused = fws_config_eal_refused(json_string_value(e),
						  json_string_value(json_array_get(l, i + 1)));
		if (*refused) {
			snprintf(why, why_len, "fwstress_eal[%zu]: \"%.60s\": %s", i,
				 json_string_value(e), *refused);
			*refused = why;
			return -EPERM;
		}
		if ((h->eal[i] = strdup(json_string_value(e))) == NULL)
			return -ENOMEM;
		h->n_eal = (unsigned int)i + 1;
	}
	return 0;
}

int
cfg_host_inventory(struct cfg_ctx *c, const json_t *v, struct fws_cfg_host *h)
{
	const json_t *x = json_object_get(v, "inventory");
	const char *host, *user, *bin, *refused = NULL;
	char path[FWS_CFG_PATH_LEN], err[160], *out;
	json_t *vars;
	size_t old;
	int rc;

	if (json_object_get(v, "ssh") || json_object_get(v, "ssh_options") ||
	    json_object_get(v, "command"))
		return cfg_fail(c,
				"host \"%s\": give an \"inventory\" or \"ssh\"/\"ssh_options\"/"
				"\"command\", not both",
				h->name);
	old = cfg_push_key(c, "inventory");
	if (cfg_get_string(c, x, path, sizeof(path)) < 0)
		return -EINVAL;
#ifdef FWS_FUZZING
	return cfg_fail(c, "not read in a fuzzing build");
#endif
	if (inventory_unfit(path) != NULL)
		return cfg_fail(c, "%s: %s", path, inventory_unfit(path));
	if ((out = inventory_vars(path, h->name, err, sizeof(err))) == NULL)
		return cfg_fail(c, "%s: host \"%s\": %s", path, h->name, err);
	vars = json_loads(out, 0, NULL);
	free(out);
	if (!json_is_object(vars)) {
		json_decref(vars);
		return cfg_fail(c, "%s: ansible-inventory's answer is not JSON", path);
	}
	host = var(vars, "ansible_host") ? var(vars, "ansible_host") : h->name;
	user = var(vars, "ansible_user");
	bin = var(vars, "fwstress_bin");
	rc = snprintf(h->ssh, sizeof(h->ssh), "%s%s%s", user ? user : "", user ? "@" : "", host) >=
				     (int)sizeof(h->ssh) ||
			     (bin && strlen(bin) >= sizeof(h->fwstress))
		     ? -ENAMETOOLONG
		     : 0;
	if (rc == 0 && bin != NULL && !h->fwstress[0])
		strlcpy(h->fwstress, bin, sizeof(h->fwstress));
	if (rc == 0)
		rc = ssh_options(vars, h);
	if (rc == 0)
		rc = eal(vars, h, &refused, err, sizeof(err));
	json_decref(vars);
	if (rc < 0)
		return cfg_fail(c, "%s: host \"%s\": %s", path, h->name,
				rc == -E2BIG          ? "too many ssh options"
				: rc == -EINVAL       ? "fwstress_eal is not a list of strings"
				: rc == -EPERM        ? refused
				: rc == -ENAMETOOLONG ? "a destination, binary path or ssh option "
							"longer than 255 characters"
				: rc == -EBADMSG      ? "ansible_ssh_common_args has an unclosed "
							"quote"
						      : strerror(-rc));
	if (h->ssh[0] == '-')
		return cfg_fail(c, "%s: host \"%s\": ansible_host starts with \"-\"", path,
				h->name);
	cfg_pop(c, old);
	return 0;
}
