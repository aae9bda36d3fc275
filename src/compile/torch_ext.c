/* torch_ext.c — a PyTorch extension's .cu file (torch_ext.h): the flags
 * torch.utils.cpp_extension would give nvcc, asked of the torch that the
 * Python imports (kernels/torch_ext_flags.py), added to the unit's. */
#include "torch_ext.h"
#include "paths.h"
#include "spawn.h"
#include "tmpfiles.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *ub_torch_python(const char *python)
{
	const char *env = getenv("ULPBENCH_PYTHON");
	return python ? python : env && env[0] ? env : "python3";
}

int ub_torch_ext_uses(const char *src)
{
	static const char *const dirs[] = { "torch/", "ATen/", "c10/" };
	for (const char *p = src; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *q = p;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q++ != '#')
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, "include", 7))
			continue;
		q += 7;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != '<' && *q != '"')
			continue;
		q++;
		for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
			if (!strncmp(q, dirs[i], strlen(dirs[i])))
				return 1;
	}
	return 0;
}

/* The file's name alone, without its extension, as an identifier
 * (TORCH_EXTENSION_NAME): "my_ext" of "dir/my-ext.cu". */
static void ext_name(const char *file, char *buf, size_t len)
{
	const char *b = strrchr(file, '/');
	b = b ? b + 1 : file;
	size_t n = 0;
	for (; *b && *b != '.' && n + 1 < len; b++)
		buf[n++] = isalnum((unsigned char)*b) ? *b : '_';
	buf[n] = '\0';
	if (!n || isdigit((unsigned char)buf[0]))
		snprintf(buf, len, "ext");
}

/* Runs the helper into the file out: 0, or UB_USAGE with the reason. */
static int ask(const char *file, const char *python, const char *out,
	       struct ub_error *err)
{
	char helper[4096], name[128], *log = NULL, line[1100];
	int status = 0, s = ub_data_path("kernels/torch_ext_flags.py", helper,
					 sizeof helper, err);
	if (s)
		return s;
	ext_name(file, name, sizeof name);
	char *argv[] = { (char *)python, helper, name, (char *)out, NULL };
	if ((s = ub_spawn(argv, &log, &status, err)) != 0) {
		snprintf(line, sizeof line, "%s", err->msg);
		s = ub_fail(err, UB_USAGE, "%s: includes PyTorch's headers, whose "
			    "directories %s's torch gives: %s (name a Python that has "
			    "torch with --python PATH)", file, python, line);
	} else if (status) {
		const char *end = log + strlen(log), *start;
		while (end > log && (end[-1] == '\n' || end[-1] == ' '))
			end--;
		for (start = end; start > log && start[-1] != '\n'; start--)
			;
		s = ub_fail(err, UB_USAGE, "%s: includes PyTorch's headers, whose "
			    "directories and flags come from torch, which %s cannot "
			    "import (%.*s): name a Python that has it with --python "
			    "PATH", file, python, (int)(end - start), start);
	}
	free(log);
	return s;
}

int ub_torch_ext_flags(const char *file, const char *python,
		       struct ub_nvcc_unit *u, struct ub_error *err)
{
	char base[4096], tmp[4200], *text = NULL;
	const char *dir = getenv("TMPDIR");
	int slot;
	snprintf(base, sizeof base, "%s/ulpbench-torch", dir && dir[0] ? dir : "/tmp");
	int fd = ub_tmp_create(base, tmp, sizeof tmp, &slot);
	if (fd < 0)
		return ub_fail(err, UB_USAGE, "%s: cannot create a temporary file", base);
	close(fd);
	int s = ask(file, python, tmp, err);
	if (!s)
		s = ub_read_file(tmp, &text, err);
	ub_tmp_discard(slot);
	for (char *save, *l = s ? NULL : strtok_r(text, "\n", &save); l && !s;
	     l = strtok_r(NULL, "\n", &save)) {
		if (u->nflags == UB_NVCC_MAX_FLAGS)
			s = ub_fail(err, UB_USAGE, "%s: more than %d flags with "
				    "torch's", file, UB_NVCC_MAX_FLAGS);
		else if (!(u->flags[u->nflags] = strdup(l)))
			s = ub_fail(err, UB_RUNTIME, "out of memory");
		else
			u->nflags++;
	}
	free(text);
	return s;
}
