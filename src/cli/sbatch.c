/* sbatch.c — `ulpbench sbatch [RUN OPTIONS] --shards N --out DIR
 * [--submit] [--sbatch OPTION]... [--csv F] [--json F] [--html F]`: a
 * run split into N shards as a Slurm job array, and the job that merges
 * them (docs/cluster.md).
 *
 * DIR/shards.sbatch is the array: task K runs this ulpbench with the
 * run's options, --threads T (the --threads given, else 1; the task asks
 * for T CPUs), --shard K/N --partial DIR/part.K --resume.  DIR/merge.sbatch
 * runs `ulpbench merge` on DIR into the reports asked for.  With --submit
 * both are given to sbatch, the merge with --dependency=afterok on the
 * array, so it runs when every task succeeded.  A shard whose DIR/part.K
 * is already the complete part of this run is left out of the array (a
 * rerun after a failure runs only what is missing); when none is left,
 * only the merge is submitted.  The run is set up here first (catalog,
 * op, kernel), so a mistake fails now rather than in N tasks. */
#include "clash.h"
#include "commands.h"
#include "outfile.h"
#include "partial.h"
#include "report.h"
#include "sbatch.h"
#include "setup.h"
#include "user_kernel.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* "0-3,5,7-9": the shards of dir without a complete part of run id. */
static void todo(struct ub_sbatch_job *j, const struct ub_run_id *id)
{
	size_t n = j->cli->shards, used = 0, run = 0;
	j->todo = 0;
	j->array[0] = '\0';
	for (size_t k = 0; k <= n; k++) {
		int need = 0;
		if (k < n) {
			char path[PATH_MAX + 32];
			struct ub_partial p;
			struct ub_error e;
			snprintf(path, sizeof path, "%s/part.%zu", j->dir, k);
			need = access(path, F_OK) != 0 || ub_partial_read(path, &p, &e) != 0;
			if (!need) {
				need = ub_run_id_diff(&p.id, id) >= 0 || p.shard != k;
				ub_partial_free(&p);
			}
		}
		if (need) {
			run++;
			j->todo++;
			continue;
		}
		if (run && used < sizeof j->array - 48) /* a range ends at k - 1 */
			used += (size_t)snprintf(j->array + used, sizeof j->array - used,
						 run > 1 ? "%s%zu-%zu" : "%s%zu", used ? "," : "",
						 k - run, k - 1);
		run = 0;
	}
}

static int write_shards(const struct ub_sbatch_job *j, const char *path,
			struct ub_error *err)
{
	struct ub_outfile o;
	int s = ub_outfile_open(&o, path, err);
	if (s)
		return s;
	ub_sbatch_shards(o.f, j);
	return ub_outfile_commit(&o, err);
}

static int write_merge(const struct ub_sbatch_job *j, const char *path,
		       struct ub_error *err)
{
	struct ub_outfile o;
	int s = ub_outfile_open(&o, path, err);
	if (s)
		return s;
	ub_sbatch_merge(o.f, j);
	return ub_outfile_commit(&o, err);
}

/* Runs sbatch with args; its --parsable output's job id into id. */
static int submit(const char *const *args, char *id, size_t len, struct ub_error *err)
{
	int fd[2], status;
	if (pipe(fd))
		return ub_fail(err, UB_RUNTIME, "sbatch: pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execvp("sbatch", (char *const *)args);
		fprintf(stderr, "ulpbench: sbatch: cannot run sbatch: %s (is Slurm "
			"installed, and sbatch on the PATH?)\n", strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	ssize_t got = pid < 0 ? -1 : read(fd[0], id, len - 1);
	close(fd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return ub_fail(err, UB_RUNTIME, "sbatch: cannot run sbatch: %s", strerror(errno));
	id[got > 0 ? got : 0] = '\0';
	id[strcspn(id, ";\n")] = '\0'; /* "JOBID[;CLUSTER]" */
	if (!WIFEXITED(status) || WEXITSTATUS(status) || !id[0])
		return ub_fail(err, UB_RUNTIME, "sbatch: sbatch %s failed (exit %d; "
			       "its message is above)", args[2], WIFEXITED(status) ?
			       WEXITSTATUS(status) : -1);
	return 0;
}

static int scripts(struct ub_sbatch_job *j, const struct ub_run_id *id, struct ub_error *err)
{
	char shards[PATH_MAX + 32], merge[PATH_MAX + 32], logs[PATH_MAX + 8];
	char jobid[64] = "", mjob[64], dep[96];
	snprintf(logs, sizeof logs, "%s/logs", j->dir);
	if (mkdir(logs, 0777) && errno != EEXIST)
		return ub_fail(err, UB_IO, "%s: cannot create directory: %s", logs, strerror(errno));
	snprintf(shards, sizeof shards, "%s/shards.sbatch", j->dir);
	snprintf(merge, sizeof merge, "%s/merge.sbatch", j->dir);
	todo(j, id);
	int s = j->todo ? write_shards(j, shards, err) : 0;
	if (!s)
		s = write_merge(j, merge, err);
	if (!s && !j->cli->submit) {
		if (j->todo)
			printf("%s: %zu of %zu shards (array %s)\n%s\nsubmit them with --submit, "
			       "or: sbatch --parsable %s (prints JOBID), then sbatch "
			       "--dependency=afterok:JOBID %s\n", shards, j->todo,
			       j->cli->shards, j->array, merge, shards, merge);
		else
			printf("every part is complete; %s\nsubmit it with --submit, or: "
			       "sbatch %s\n", merge, merge);
		return 0;
	}
	if (!s && j->todo) {
		const char *a[] = {"sbatch", "--parsable", shards, NULL};
		s = submit(a, jobid, sizeof jobid, err);
	}
	snprintf(dep, sizeof dep, "--dependency=afterok:%s", jobid);
	const char *m[] = {"sbatch", "--parsable", merge, NULL, NULL};
	if (jobid[0])
		m[2] = dep, m[3] = merge;
	if (!s)
		s = submit(m, mjob, sizeof mjob, err);
	if (!s && jobid[0])
		printf("shards: job %s, array %s (%zu of %zu shards)\nmerge: job %s, "
		       "after every shard succeeded\n", jobid, j->array, j->todo,
		       j->cli->shards, mjob);
	else if (!s)
		printf("shards: none to run (the %zu parts are complete)\nmerge: job %s\n",
		       j->cli->shards, mjob);
	return s;
}

/* The run as the shards will run it, set up here to fail early. */
static int check_run(struct ub_cli *cli, struct ub_run_id *id, struct ub_error *err)
{
	struct ub_catalog cat = {0};
	struct ub_op op;
	struct ub_config cfg;
	struct ub_user_kernel uk = {0};
	int s = !cli->shards || !cli->out ?
		ub_fail(err, UB_USAGE, "sbatch: needs --shards N and --out DIR "
			"(see ulpbench sbatch --help)") :
		cli->nshards || cli->partial || cli->resume ?
		ub_fail(err, UB_USAGE, "sbatch: --shard, --partial and --resume are "
			"what it gives each task") :
		cli->dump || cli->append || cli->ninputs ?
		ub_fail(err, UB_USAGE, "sbatch: --dump, --append and --input do not "
			"go with shards") :
		cli->why || cli->fix_dir ?
		ub_fail(err, UB_USAGE, "sbatch: --why needs every element in one process "
			"(run ulpbench why on the run, or on a smaller one)") : 0;
	if (!s)
		s = ub_load_catalogs(cli, &cat, err);
	if (!s)
		s = ub_setup_op(cli, &cat, &op, &cfg, &uk, err);
	cfg.nshards = cli->shards;
	if (!s)
		s = ub_run_id_make(cli, &cfg, id, err);
	if (!s) { /* the merge job's reports (clash.h) */
		struct ub_clash c = {0};
		int r = ub_clash_outputs(&c, cli, "sbatch's lines") |
			ub_clash_inputs(&c, cli, &op);
		s = r ? ub_fail(err, UB_RUNTIME, "out of memory") : ub_clash_check(&c, err);
		ub_clash_free(&c);
	}
	ub_user_kernel_free(&uk);
	ub_catalog_free(&cat);
	return s;
}

/* The merge job's reports: not in --out (the parts' and logs' place, which
 * the merge reads), and writable now, as the main command checks them. */
static int check_reports(const struct ub_sbatch_job *j, struct ub_error *err)
{
	const char *const name[] = {"--csv", "--json", "--html"};
	const char *const file[] = {j->cli->csv, j->cli->json, j->cli->html};
	size_t dl = strlen(j->dir);
	for (int i = 0; i < 3; i++) {
		char dir[PATH_MAX], abs[PATH_MAX];
		if (!file[i] || !strcmp(file[i], "-"))
			continue;
		const char *slash = strrchr(file[i], '/');
		snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - file[i]) + 1 : 1,
			 slash ? file[i] : ".");
		int inside = realpath(dir, abs) && (!strncmp(abs, j->dir, dl) &&
						    (abs[dl] == '/' || !abs[dl]));
		inside |= realpath(file[i], abs) && !strcmp(abs, j->dir);
		if (inside)
			return ub_fail(err, UB_USAGE, "sbatch: %s %s is in --out %s, where the "
				       "shards' parts and logs go: write the reports elsewhere",
				       name[i], file[i], j->cli->out);
	}
	struct ub_outputs o;
	int s = ub_outputs_open(&o, j->cli->csv, 0, j->cli->json, j->cli->html, err);
	if (!s)
		ub_outputs_abort(&o);
	return s;
}

/* --out made (or found) and checked, with the working directory, the
 * --sbatch options and the reports; a directory made here is removed
 * again when something is refused. */
static int out_dir(struct ub_sbatch_job *j, struct ub_error *err)
{
	const struct ub_cli *cli = j->cli;
	int s = 0, made = 0;
	if (!realpath(".", j->cwd))
		return ub_fail(err, UB_USAGE, "sbatch: the working directory: %s",
			       strerror(errno));
	snprintf(j->dir, sizeof j->dir, "%s", cli->out); /* as given, first */
	s = ub_sbatch_check(j, err);
	if (!s && mkdir(cli->out, 0777) == 0)
		made = 1;
	else if (!s && errno != EEXIST)
		s = ub_fail(err, UB_IO, "%s: cannot create directory: %s", cli->out,
			    strerror(errno));
	if (!s && !realpath(cli->out, j->dir))
		s = ub_fail(err, UB_USAGE, "sbatch: --out %s: %s", cli->out, strerror(errno));
	if (!s)
		s = ub_sbatch_check(j, err);
	if (!s)
		s = check_reports(j, err);
	if (s && made)
		rmdir(cli->out);
	return s;
}

int ub_cmd_sbatch(int argc, char **argv, struct ub_error *err)
{
	static struct ub_cli cli;
	static struct ub_run_id id;
	static struct ub_sbatch_job j;
	int s = ub_cli_parse(argc, argv, &cli, err);
	if (!s && cli.action == UB_ACT_HELP) {
		printf("usage: ulpbench sbatch [RUN OPTIONS] --shards N --out DIR [--submit]\n"
		       "         [--sbatch OPTION]... [--csv FILE] [--json FILE] [--html FILE]\n"
		       "Writes a Slurm job array of N shards of the run (DIR/shards.sbatch) and\n"
		       "the job that merges them into the reports (DIR/merge.sbatch); --submit\n"
		       "submits both.  Shards whose DIR/part.K is complete are left out.\n"
		       "RUN OPTIONS are ulpbench --op's (ulpbench --help); docs/cluster.md.\n");
		return 0;
	}
	memset(&j, 0, sizeof j);
	j.cli = &cli;
	if (!s)
		s = check_run(&cli, &id, err);
	if (!s)
		s = out_dir(&j, err);
	if (!s && !realpath("/proc/self/exe", j.exe))
		s = ub_fail(err, UB_RUNTIME, "sbatch: where is this ulpbench? %s", strerror(errno));
	j.name = cli.op;
	j.threads = cli.cfg.threads > 0 ? cli.cfg.threads : 1;
	return s ? s : scripts(&j, &id, err);
}
