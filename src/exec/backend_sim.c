/* backend_sim.c — the sim backend: NVRTC to PTX, then the PTX interpreter
 * (sim.h) on the CPU. */
#include "backend.h"
#include "launcher.h"
#include "nvrtc.h"

#include <stdio.h>
#include <stdlib.h>

static int sim_probe(struct ub_error *err)
{
	(void)err;
	return 0;
}

static const char *sim_arch(const char *arch, int arch_set)
{
	(void)arch_set;
	return arch;
}

static int sim_run(const struct ub_job *job, uint64_t *approx,
		   struct ub_error *err)
{
	char *ptx = NULL, label[600];
	size_t size;
	struct ptx_run_info info;
	struct ub_geom geom = job->geom;
	snprintf(label, sizeof label, "%s: kernel %s, %s", job->name,
		 job->shown ? job->shown : job->entry, job->what ? job->what : "run");
	geom.label = geom.label ? geom.label : label;
	int s = job->ptx ? 0 : ub_job_compile(job, 0, &ptx, &size, err);
	if (!s && job->launcher && job->trace)
		s = ub_fail(err, UB_USAGE, "%s: explain traces one kernel, not a --launcher's",
			    job->name);
	if (!s && job->launcher) {  /* the host function launches the kernels */
		s = ub_launcher_call(job->launcher, job->ptx ? job->ptx : ptx, job->args,
				     job->nargs, &job->geom, approx, err);
		if (s)
			ub_prefix(err, s, "%s: %s: ", job->name, job->what ? job->what : "run");
		free(ptx);
		return s;
	}
	if (!s && (s = ub_sim_run_exec(job->ptx ? job->ptx : ptx, job->entry,
				       job->args, job->nargs, job->n, &geom,
				       job->trace, job->exec, &info, err)) == UB_RUNTIME)
		ub_prefix(err, s, "%s: kernel %s, %s: ", job->name,
			  job->shown ? job->shown : job->entry,
			  job->what ? job->what : "run"); /* PTX the user never saw */
	if (!s)
		*approx |= info.approx_mask | (info.unmarked_fp ? UB_APPROX_UNMARKED : 0);
	if (!s && job->checks)
		ub_checks_add(job->checks, &info);
	free(ptx);
	return s;
}

const struct ub_backend ub_backend_sim = {
	.name = "sim", .probe = sim_probe, .arch = sim_arch, .run = sim_run,
};
