/* native.c — choosing the executor (--exec, $ULPBENCH_EXEC) and telling,
 * once, why native code is not used (native.h). */
#include "native.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {
	[UB_EXEC_DEFAULT] = "",
#define X(id, name, help) [id] = name,
	UB_EXECS(X)
#undef X
};

int ub_exec_parse(const char *name, int *exec)
{
	for (int k = UB_EXEC_DEFAULT + 1; k < UB_NEXECS; k++)
		if (name && !strcmp(name, names[k]))
			return *exec = k, 0;
	return -1;
}

const char *ub_exec_names(void)
{
	static char buf[64];
	if (!buf[0])
		for (int k = UB_EXEC_DEFAULT + 1; k < UB_NEXECS; k++)
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s",
				 k > UB_EXEC_DEFAULT + 1 ? ", " : "", names[k]);
	return buf;
}

int ub_exec_resolve(int exec)
{
	int e;
	if (exec != UB_EXEC_DEFAULT)
		return exec;
	return ub_exec_parse(getenv("ULPBENCH_EXEC"), &e) ? UB_EXEC_NATIVE : e;
}

static FILE *notices;
static int told;   /* the notice was given */

void ub_native_notices(FILE *f)
{
	notices = f;
}

void ub_native_use(struct ptx_module *m, int exec)
{
	struct ub_error err;
	if (ub_exec_resolve(exec) != UB_EXEC_NATIVE || !ub_native_attach(m, &err))
		return;
	if (notices && !__atomic_exchange_n(&told, 1, __ATOMIC_RELAXED))
		fprintf(notices, "ulpbench: native code unavailable (%s): running on "
			"the interpreter\n", err.msg);
}

struct use_all {
	struct ptx_module **ms;
	int n, exec;
	int next;   /* the next module to take (atomic) */
};

static void *use_some(void *arg)
{
	struct use_all *u = arg;
	for (int k; (k = __atomic_fetch_add(&u->next, 1, __ATOMIC_RELAXED)) < u->n;)
		if (u->ms[k])
			ub_native_use(u->ms[k], u->exec);
	return NULL;
}

void ub_native_use_all(struct ptx_module **ms, int n, int exec, int threads)
{
	struct use_all u = { ms, n, exec, 0 };
	pthread_t tid[64];
	int extra = 0;
	if (ub_exec_resolve(exec) != UB_EXEC_NATIVE)
		return;
	/* the caller is one of the threads; one that cannot start is not
	 * needed (the others take its modules) */
	for (int t = 1; t < threads && t < n && extra < 64; t++)
		if (pthread_create(&tid[extra], NULL, use_some, &u) == 0)
			extra++;
	use_some(&u);
	for (int t = 0; t < extra; t++)
		pthread_join(tid[t], NULL);
}
