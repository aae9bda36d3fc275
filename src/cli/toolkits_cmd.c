/* toolkits_cmd.c — `ulpbench toolkits`: the CUDA toolkits found
 * (toolkit.h), what each holds, and the pip line that installs another. */
#include "commands.h"
#include "nvcc.h"
#include "nvrtc.h"
#include "subopts.h"
#include "toolkit.h"

#include <stdio.h>
#include <string.h>

#define USAGE "usage: ulpbench toolkits [--pip RELEASE] [--id]\n" \
	"Lists the CUDA toolkits ulpbench finds (the default first), each usable\n" \
	"as --toolkit NAME or --torch-toolkit NAME, and how to install another\n" \
	"from PyPI's wheels (docs/toolkits.md)."

static const struct ub_subopt opts[] = {
	{"pip", 1, "RELEASE", "print only the pip command that installs RELEASE (e.g. 12.9)"},
	{"id", 0, NULL, "also each toolkit's identity (release and library digest: the compile cache's key)"},
	{"help", 0, NULL, "show this help"},
};
#define NOPTS (int)(sizeof opts / sizeof opts[0])

struct tkcmd {
	const char *pip;
	int id;
};

static int option(void *ctx, const char *name, const char *arg, struct ub_error *err)
{
	struct tkcmd *c = ctx;
	(void)err;
	if (!strcmp(name, "pip"))
		c->pip = arg;
	else if (!strcmp(name, "id"))
		c->id = 1;
	return 0;
}

/* One line: name, compilers, where, and where it came from. */
static void print_one(const struct ub_toolkit *tk, int id)
{
	char what[160];
	snprintf(what, sizeof what, "%s%s%s%s", tk->origin,
		 tk->wheel[0] ? ", " : "", tk->wheel, tk->slot == 0 ? ", default" : "");
	printf("%-6s %-12s %s (%s)\n", tk->name,
	       ub_nvcc_has(tk) ? "nvrtc,nvcc" : "nvrtc", tk->dir, what);
	if (id)
		printf("       identity %s\n", ub_toolkit_id(tk));
}

int ub_cmd_toolkits(int argc, char **argv, struct ub_error *err)
{
	struct tkcmd c = {0};
	const struct ub_toolkit *all[UB_TK_MAX];
	char line[1400], home[4200], names[200];
	int first = 0;
	int s = ub_subopts_parse(argc, argv, opts, NOPTS, USAGE, option, &c, &first, err);
	if (s < 0)
		return 0;   /* --help */
	if (!s && first < argc)
		s = ub_fail(err, UB_USAGE, "toolkits: unexpected argument '%s' (see "
			    "ulpbench toolkits --help)", argv[first]);
	if (s)
		return s;
	ub_toolkit_pip_names(names, sizeof names);
	if (c.pip) {
		if (!ub_toolkit_pip_line(c.pip, ub_toolkit_home(c.pip, home, sizeof home),
					 line, sizeof line))
			return ub_fail(err, UB_USAGE, "toolkits --pip: no pinned wheels "
				       "known for '%s' (known: %s)", c.pip, names);
		printf("%s\n", line);
		return 0;
	}
	int n = ub_toolkit_scan(all, UB_TK_MAX);
	printf("%-6s %-12s %s\n", "name", "compilers", "where");
	for (int i = 0; i < n; i++)
		print_one(all[i], c.id);
	printf("\nAnother release from PyPI (pinned wheels known for %s), e.g.:\n  %s\n",
	       names, ub_toolkit_pip_line("12.9", ub_toolkit_home("12.9", home, sizeof home),
					  line, sizeof line));
	return 0;
}
