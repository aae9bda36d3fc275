/* fuzz_ptx.c — PTX text (src/exec/ptx): parsed and decoded as the sim
 * does after NVRTC; every kernel of a module that parses is then run
 * three times on a small budget: 65 threads (one batch of 64 lanes and
 * one more), 2 threads thread by thread with the trace explain uses, and
 * 65 threads with the checks as the run binds outputs (ptx_check.h: some
 * buffers start unwritten, some must be written whole).  Each .param is
 * the address of a buffer of its own, zeroed, writable. */
#include "fuzz.h"
#include "ptx.h"
#include "ptx_internal.h"

#include <stdlib.h>
#include <string.h>

#define NBUF 8
#define BUFSIZE 512
#define BUDGET 2000

static void on_insn(void *user, const struct ptx_trace_event *ev)
{
	*(uint64_t *)user += ev->dst;
}

static void launch(const struct ptx_module *m, const struct ptx_func *f,
		   unsigned threads, int by_thread, int checked)
{
	struct ptx_bufcheck bc[NBUF];
	for (int i = 0; i < NBUF; i++)
		bc[i] = (struct ptx_bufcheck){.fresh = i % 2 == 0, .must_write = i % 3 == 1,
					      .elem = 1u << (i % 4), .hint = "fuzz"};
	struct ptx_run_opts opts = {.bufs = bc};
	static unsigned char mem[NBUF][BUFSIZE];
	struct ptx_buffer bufs[NBUF];
	uint64_t args[NBUF];
	memset(mem, 0, sizeof mem);
	for (int i = 0; i < NBUF; i++) {
		bufs[i] = (struct ptx_buffer){.base = mem[i], .size = BUFSIZE, .writable = 1};
		args[i] = (uint64_t)(uintptr_t)mem[i];
	}
	int np = ptx_entry_nparams(m, f->name);
	if (np < 0 || np > NBUF)
		return;
	struct ptx_launch l = {{1, 1, 1}, {threads, 1, 1}, args, np, bufs, NBUF,
			       BUDGET, by_thread, 0, 0, 0};
	struct ptx_run_info info;
	struct ub_error err;
	uint64_t sum = 0;
	struct ptx_trace t = {on_insn, &sum};
	if (checked)
		ptx_run_checked(m, f->name, &l, &opts, NULL, &info, &err);
	else
		ptx_run_traced(m, f->name, &l, by_thread ? &t : NULL, &info, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ptx_module *m = NULL;
	struct ub_error err;
	if (text && ptx_parse(text, &m, &err) == 0) {
		ptx_fusions(m);
		for (int i = 0; i < m->nfuncs; i++)
			if (m->funcs[i].is_entry) {
				launch(m, &m->funcs[i], 65, 0, 0);
				launch(m, &m->funcs[i], 2, 1, 0);
				launch(m, &m->funcs[i], 65, 0, 1);
			}
		ptx_free(m);
	}
	free(text);
	return 0;
}
