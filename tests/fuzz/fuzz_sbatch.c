/* fuzz_sbatch.c — the job scripts of `ulpbench sbatch` (src/cli/
 * sbatch_script.c): the input is the --out directory and the working
 * directory (one line each), then the arguments of `ulpbench sbatch`,
 * each ended by a NUL, parsed as the command parses them.  When
 * ub_sbatch_check() lets them through, both scripts are written and read
 * back as sh reads them; a finding (abort) is a line of the header that is
 * not a comment, a control character anywhere but at a line's end, more
 * than one command line, or a word of the exec line that reaches the
 * shell unquoted with a character outside [A-Za-z0-9_./:=,+@%-] or comes
 * back from the shell's quoting other than written (the expansion of
 * "$SLURM_ARRAY_TASK_ID" the only one allowed). */
#include "fuzz.h"
#include "cli.h"
#include "sbatch.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 64
#define MAX_WORDS (4 * UB_MAX_GIVEN + 16)

static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			   "0123456789_./:=,+@%-";

/* The exec line's words as sh reads them, into w (malloc'd, each
 * "$SLURM_ARRAY_TASK_ID" kept as written); aborts on anything sh would
 * read otherwise than a word. */
static int words(const char *p, char **w)
{
	int n = 0;
	while (*p && *p != '\n') {
		char buf[8192];
		size_t u = 0;
		while (*p == ' ')
			p++;
		if (!*p || *p == '\n')
			break;
		while (*p && *p != ' ' && *p != '\n') {
			if (u > sizeof buf - 64)
				abort();
			if (*p == '\'') { /* to the next ', literally */
				const char *q = strchr(p + 1, '\'');
				if (!q || (size_t)(q - p) > sizeof buf - u - 64)
					abort();
				memcpy(buf + u, p + 1, (size_t)(q - p - 1));
				u += (size_t)(q - p - 1);
				p = q + 1;
			} else if (*p == '\\' && p[1] == '\'') { /* '\'' */
				buf[u++] = '\'';
				p += 2;
			} else if (*p == '"') { /* only the task id, and /N after it */
				static const char id[] = "$SLURM_ARRAY_TASK_ID";
				const char *q = strchr(p + 1, '"');
				if (!q || strncmp(p + 1, id, sizeof id - 1))
					abort();
				for (const char *c = p + sizeof id; c < q; c++)
					if (!strchr("/0123456789", *c))
						abort();
				memcpy(buf + u, p + 1, (size_t)(q - p - 1));
				u += (size_t)(q - p - 1);
				p = q + 1;
			} else if (strchr(safe, *p)) {
				buf[u++] = *p++;
			} else {
				abort(); /* a metacharacter sh would act on */
			}
		}
		buf[u] = '\0';
		if (n == MAX_WORDS || !(w[n++] = strdup(buf)))
			abort();
	}
	return n;
}

/* Checks one script; want[0..nwant) the words its exec line must give
 * after "exec" and the program (NULL: not checked word by word). */
static void check(const char *text, size_t len, const char *exe, const char *const *want,
		  int nwant)
{
	if (strlen(text) != len || strncmp(text, "#!/bin/bash\n", 12) || !len ||
	    text[len - 1] != '\n')
		abort();
	for (const char *c = text; *c; c++)
		if ((unsigned char)*c < 0x20 && *c != '\n')
			abort();
	const char *line = text, *exec = NULL;
	for (const char *nl; (nl = strchr(line, '\n')); line = nl + 1) {
		if (line[0] == '#')
			continue;
		if (exec || strncmp(line, "exec ", 5))
			abort();
		exec = line;
	}
	if (!exec)
		abort();
	char *w[MAX_WORDS];
	int n = words(exec + 5, w);
	if (n < 1 || strcmp(w[0], exe))
		abort();
	for (int i = 0; want && i < nwant; i++)
		if (i + 1 >= n || strcmp(w[i + 1], want[i]))
			abort();
	for (int i = 0; i < n; i++)
		free(w[i]);
}

static void scripts(const struct ub_sbatch_job *j)
{
	const char *args[2 * UB_MAX_GIVEN];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
	ub_sbatch_shards(f, j);
	fclose(f);
	int n = ub_cli_args(j->cli, UB_ROLE_RUN, args, 2 * UB_MAX_GIVEN);
	check(text, len, j->exe, args, n); /* the run's options first, as given */
	free(text);
	f = open_memstream(&text, &len);
	if (!f)
		return;
	ub_sbatch_merge(f, j);
	fclose(f);
	check(text, len, j->exe, NULL, 0);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ub_sbatch_job j;
	static struct ub_cli cli;
	struct ub_error err;
	char *text = malloc(size + 1), *argv[MAX_ARGS + 2];
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	char *out = text, *cwd = strchr(out, '\n'), *rest = cwd ? strchr(cwd + 1, '\n') : NULL;
	if (!rest) {
		free(text);
		return 0;
	}
	*cwd++ = '\0';
	*rest++ = '\0';
	int argc = 0;
	argv[argc++] = "sbatch";
	for (char *p = rest; p < text + size && argc <= MAX_ARGS; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	optind = 0;
	opterr = 0;
	memset(&j, 0, sizeof j);
	j.cli = &cli;
	if (ub_cli_parse(argc, argv, &cli, &err) == 0) {
		snprintf(j.dir, sizeof j.dir, "%s", out);
		snprintf(j.cwd, sizeof j.cwd, "%s", cwd);
		snprintf(j.exe, sizeof j.exe, "/opt/it's here/ulpbench");
		snprintf(j.array, sizeof j.array, "0-3,7");
		j.name = cli.op ? cli.op : "op";
		j.threads = cli.cfg.threads > 0 ? cli.cfg.threads : 1;
		if (ub_sbatch_check(&j, &err) == 0)
			scripts(&j);
	}
	free(text);
	return 0;
}
