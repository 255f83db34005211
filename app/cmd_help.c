/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwstress help: the usage, a man page (--man) and a bash completion (--bash-completion),
 * all three made from the one subcommand table and the commands' own option tables, so
 * none of them can list what the command line does not take.
 *
 *   fwstress help --man | man -l -
 *   fwstress help --bash-completion > /etc/bash_completion.d/fwstress
 */
#include <stdio.h>
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

static void
man_options(FILE *f, const struct option *o)
{
	for (; o && o->name; o++) {
		fputs(".B \\-\\-", f);
		roff(f, o->name);
		fputs(o->has_arg == required_argument ? " \\fIVALUE\\fR\n" : "\n", f);
		fputs(".br\n", f);
	}
}

static void
man_page(FILE *f)
{
	unsigned int i;
	const char *l, *e;

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
		man_options(f, app_subcommands[i].opts);
		fputs(".RE\n", f);
	}
	fputs(".SH EXIT STATUS\n.nf\n", f);
	for (l = app_exit_statuses; *l; l = *e ? e + 1 : e) {
		char line[200];

		e = strchr(l, '\n');
		e = e ? e : l + strlen(l);
		snprintf(line, sizeof(line), "%.*s", (int)(e - l), l);
		roff(f, line);
		fputc('\n', f);
	}
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
	      "\t--format) COMPREPLY=($(compgen -W \"md wiki csv html\" -- \"$cur\")); return ;;\n"
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
	fprintf(stderr, "fwstress help: give nothing, --man or --bash-completion\n");
	return EXIT_USAGE;
}
