/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwstress help: the usage, a man page (--man) and a bash completion (--bash-completion),
 * all three made from the one subcommand table and the commands' own option tables, so
 * none of them can list what the command line does not take.
 *
 *   fwstress help --man | man -l -
 *   fwstress help --bash-completion > /etc/bash_completion.d/fwstress
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fws_app.h"
#include "fws_build.h"

/* Text for roff: a leading dot or quote escaped, backslashes doubled, hyphens as \-. */
static void
roff(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

/* text's lines, each as roff: all of them, or (indented) up to the first that does not
 * start with a space. */
static void
roff_lines(FILE *f, const char *at, bool indented)
{
	const char *end;
	char line[512];

	for (; *at && (!indented || *at == ' '); at = *end ? end + 1 : end) {
		end = strchr(at, '\n');
		end = end ? end : at + strlen(at);
		snprintf(line, sizeof(line), "%.*s", (int)(end - at), at);
		roff(f, line);
		fputc('\n', f);
	}
}

/* What c --help prints on stdout (heap, NUL-terminated), or NULL. */
static char *
help_text(const struct app_subcommand *c)
{
	char *argv[] = {(char *)c->name, (char *)"--help", NULL}, *buf = NULL;
	FILE *saved = stdout, *mem;
	size_t len = 0;

	if ((mem = open_memstream(&buf, &len)) == NULL)
		return NULL;
	fflush(stdout);
	stdout = mem;
	c->fn(2, argv);
	stdout = saved;
	fclose(mem);
	return buf;
}

/* The "Options:" block of a command's help (its option lines, each with its description),
 * preformatted; false when the help has none. */
static bool
man_help_options(FILE *f, const char *help)
{
	const char *at = help ? strstr(help, "\nOptions:\n") : NULL;

	if (at == NULL)
		return false;
	fputs(".nf\n", f);
	roff_lines(f, at + strlen("\nOptions:\n"), true);
	fputs(".fi\n", f);
	return true;
}

/* A command's options: its help's Options block, else their names. */
static void
man_options(FILE *f, const struct app_subcommand *c)
{
	const struct option *o;
	char *help = help_text(c);

	if (!man_help_options(f, help)) {
		for (o = c->opts; o && o->name; o++) {
			fputs(".B \\-\\-", f);
			roff(f, o->name);
			fputs(o->has_arg == required_argument ? " \\fIVALUE\\fR\n" : "\n", f);
			fputs(".br\n", f);
		}
	}
	free(help);
}

static void
man_page(FILE *f)
{
	unsigned int i;

	fprintf(f,
		".TH FWSTRESS 1 \"\" \"fwstress %s%s)\" \"User Commands\"\n"
		".SH NAME\nfwstress \\- DPDK firewall stress tester\n"
		".SH SYNOPSIS\n.B fwstress\n.I SUBCOMMAND\n[\\fIARGS\\fR]\n"
		".SH DESCRIPTION\nSends test traffic through a device under test and measures "
		"throughput, loss, reordering, duplicates and latency per flow. Every subcommand "
		"takes \\-\\-help. README.md and docs/ hold the rest.\n.SH SUBCOMMANDS\n",
		FWS_VERSION, FWS_COMMIT_NOTE);
	for (i = 0; i < app_n_subcommands; i++) {
		fputs(".TP\n.B fwstress ", f);
		roff(f, app_subcommands[i].synopsis);
		fputc('\n', f);
		roff(f, app_subcommands[i].doc);
		fputs(".\n.RS\n", f);
		man_options(f, &app_subcommands[i]);
		fputs(".RE\n", f);
	}
	fputs(".SH EXIT STATUS\n.nf\n", f);
	roff_lines(f, app_exit_statuses, false);
	fputs(".fi\n.SH SEE ALSO\n.BR dpdk-testpmd (1)\n", f);
}

/* The words bash offers after "fwstress SUBCOMMAND": its long options. */
static void
completion_case(FILE *f, const struct app_subcommand *c)
{
	const struct option *o;

	fprintf(f, "\t%s) opts=\"", c->name);
	for (o = c->opts; o && o->name; o++)
		fprintf(f, "%s--%s", o == c->opts ? "" : " ", o->name);
	fputs("\" ;;\n", f);
}

static void
completion(FILE *f)
{
	unsigned int i;

	fprintf(f,
		"# bash completion for fwstress %s%s): fwstress help --bash-completion\n"
		"_fwstress() {\n"
		"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} opts\n"
		"\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
		"\t\tCOMPREPLY=($(compgen -W \"",
		FWS_VERSION, FWS_COMMIT_NOTE);
	for (i = 0; i < app_n_subcommands; i++)
		fprintf(f, "%s%s", i ? " " : "", app_subcommands[i].name);
	fputs(" --help --version\" -- \"$cur\"))\n\t\treturn\n\tfi\n"
	      "\tcase \"$prev\" in\n"
	      "\t--format) COMPREPLY=($(compgen -W \"md wiki csv html hdr\" -- \"$cur\")); return "
	      ";;\n"
	      "\t--only) COMPREPLY=($(compgen -W \"ndr pdr lat run b2b cps cps-fixed sessions "
	      "teardown teardown-fixed\" -- \"$cur\")); return ;;\n"
	      "\t--directions) COMPREPLY=($(compgen -W \"upload download bidir custom\" -- "
	      "\"$cur\")); return ;;\n"
	      "\t--columns) COMPREPLY=($(compgen -W \"l1 mpps iperf loss p50 p99 cpu\" -- "
	      "\"$cur\")); return ;;\n"
	      "\tesac\n"
	      "\tcase \"${COMP_WORDS[1]}\" in\n",
	      f);
	for (i = 0; i < app_n_subcommands; i++)
		completion_case(f, &app_subcommands[i]);
	fputs("\t*) opts=\"\" ;;\n\tesac\n"
	      "\tif [[ $cur == -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
	      "\telse\n"
	      "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	      "\tfi\n"
	      "}\n"
	      "complete -o filenames -F _fwstress fwstress\n",
	      f);
}

int
cmd_help(int argc, char **argv)
{
	if (argc == 1) {
		app_usage_main(stdout);
		return EXIT_OK;
	}
	if (argc == 2 && strcmp(argv[1], "--man") == 0) {
		man_page(stdout);
		return EXIT_OK;
	}
	if (argc == 2 && strcmp(argv[1], "--bash-completion") == 0) {
		completion(stdout);
		return EXIT_OK;
	}
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		printf("Usage: fwstress help [--man | --bash-completion]\n\n"
		       "The usage of every subcommand, or made from the same tables:\n\n"
		       "Options:\n"
		       "      --man            a man page (fwstress help --man | man -l -)\n"
		       "      --bash-completion  a bash completion (into "
		       "/etc/bash_completion.d/fwstress)\n"
		       "  -h, --help           this help\n");
		return EXIT_OK;
	}
	fprintf(stderr, "fwstress help: give nothing, --man or --bash-completion\n");
	return EXIT_USAGE;
}
