/* sbatch_script.c — the job scripts of `ulpbench sbatch` (sbatch.h). */
#include "sbatch.h"

#include <string.h>

/* s as one word for sh: in single quotes, each ' as '\'' */
static void quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

static int is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/* s for a one-line message: at most 120 characters, control characters
 * as \n, \r, \t or \xNN. */
static const char *shown(const char *s, char *buf, size_t len)
{
	size_t u = 0;
	for (; *s && u + 8 < len && u < 120; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\n' || c == '\r' || c == '\t')
			u += (size_t)snprintf(buf + u, len - u, "\\%c",
					      c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
		else if (is_control(c))
			u += (size_t)snprintf(buf + u, len - u, "\\x%02x", c);
		else
			buf[u++] = (char)c;
	}
	buf[u] = '\0';
	if (*s && u + 4 < len)
		strcat(buf, "...");
	return buf;
}

int ub_sbatch_path_ok(const char *what, const char *path, struct ub_error *err)
{
	char buf[200];
	for (const char *p = path; *p; p++)
		if (*p == ' ' || *p == '%' || is_control((unsigned char)*p))
			return ub_fail(err, UB_USAGE, "sbatch: %s '%s': a path for #SBATCH "
				       "lines can hold no space, control character or '%%'",
				       what, shown(path, buf, sizeof buf));
	if (strlen(path) + 64 > PATH_MAX)
		return ub_fail(err, UB_USAGE, "sbatch: %s '%s': too long", what,
			       shown(path, buf, sizeof buf));
	return 0;
}

int ub_sbatch_check(const struct ub_sbatch_job *j, struct ub_error *err)
{
	char buf[200];
	for (int i = 0; i < j->cli->nsbatch; i++) {
		const char *o = j->cli->sbatch[i];
		int bad = o[0] != '-';
		for (const char *p = o; *p && !bad; p++)
			bad = is_control((unsigned char)*p);
		if (bad)
			return ub_fail(err, UB_USAGE, "sbatch: --sbatch '%s': an option of "
				       "sbatch's (it starts with '-') on one line, without "
				       "control characters, goes on an #SBATCH line",
				       shown(o, buf, sizeof buf));
	}
	/* every other value is quoted on the exec line, but one line each:
	 * no newline or other control character either */
	const char *args[2 * UB_MAX_GIVEN + 4];
	int n = ub_cli_args(j->cli, UB_ROLE_RUN, args, 2 * UB_MAX_GIVEN);
	n += ub_cli_args(j->cli, UB_ROLE_LOCAL, args + n, 2 * UB_MAX_GIVEN - n);
	const char *const more[] = {j->cli->csv, j->cli->json, j->cli->html, j->exe};
	for (int i = 0; i < 4; i++)
		if (more[i])
			args[n++] = more[i];
	for (int i = 0; i < n; i++)
		for (const char *p = args[i]; *p; p++)
			if (is_control((unsigned char)*p))
				return ub_fail(err, UB_USAGE, "sbatch: '%s': a value with a "
					       "control character cannot go into a job script",
					       shown(args[i], buf, sizeof buf));
	int s = ub_sbatch_path_ok("--out", j->dir, err);
	if (!s)
		s = ub_sbatch_path_ok("the working directory", j->cwd, err);
	return s;
}

static void header(FILE *f, const struct ub_sbatch_job *j, const char *what,
		   const char *log)
{
	fprintf(f, "#!/bin/bash\n# %s, written by ulpbench sbatch\n", what);
	fputs("#SBATCH --job-name=ulpbench-", f);
	for (const char *p = j->name; *p; p++) /* a name, never an option */
		fputc(strchr("_.+-", *p) || (*p >= '0' && *p <= '9') ||
		      ((*p | 32) >= 'a' && (*p | 32) <= 'z') ? *p : '_', f);
	fprintf(f, "\n#SBATCH --output=%s/logs/%s\n", j->dir, log);
	fprintf(f, "#SBATCH --chdir=%s\n", j->cwd);
	for (int i = 0; i < j->cli->nsbatch; i++)
		fprintf(f, "#SBATCH %s\n", j->cli->sbatch[i]);
}

void ub_sbatch_shards(FILE *f, const struct ub_sbatch_job *j)
{
	const char *args[2 * UB_MAX_GIVEN];
	char what[96];
	snprintf(what, sizeof what, "the %zu shards of a run", j->cli->shards);
	header(f, j, what, "shard.%a.out");
	fprintf(f, "#SBATCH --array=%s\n#SBATCH --cpus-per-task=%d\n", j->array, j->threads);
	fputs("exec ", f);
	quoted(f, j->exe);
	int n = ub_cli_args(j->cli, UB_ROLE_RUN, args, 2 * UB_MAX_GIVEN);
	for (int i = 0; i < n; i++) {
		fputc(' ', f);
		quoted(f, args[i]);
	}
	n = ub_cli_args(j->cli, UB_ROLE_LOCAL, args, 2 * UB_MAX_GIVEN);
	for (int i = 0; i < n; i++) /* --threads once, below */
		if (strcmp(args[i], "--threads") && (i == 0 || strcmp(args[i - 1], "--threads"))) {
			fputc(' ', f);
			quoted(f, args[i]);
		}
	fprintf(f, " --threads %d --shard \"$SLURM_ARRAY_TASK_ID/%zu\" --partial ",
		j->threads, j->cli->shards);
	quoted(f, j->dir);
	fputs("/part.\"$SLURM_ARRAY_TASK_ID\" --resume\n", f);
}

void ub_sbatch_merge(FILE *f, const struct ub_sbatch_job *j)
{
	header(f, j, "the merge of the shards' parts", "merge.out");
	fputs("exec ", f);
	quoted(f, j->exe);
	fputs(" merge", f);
	const char *const name[] = {"--csv", "--json", "--html"};
	const char *const file[] = {j->cli->csv, j->cli->json, j->cli->html};
	for (int i = 0; i < 3; i++)
		if (file[i]) {
			fprintf(f, " %s ", name[i]);
			quoted(f, file[i]);
		}
	fputs(" ", f);
	quoted(f, j->dir);
	fputc('\n', f);
}
