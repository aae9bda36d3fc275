/* fuzz_cli.c — the command line (src/cli/cli.c): the input is one or more
 * command lines, one a line ('\n'), each argument of a line ended by a
 * NUL; each is parsed after the one before, as a suite's run lines are,
 * with its own copy of the text, freed after its parse (the parser must
 * keep no state from one command line to the next).  Each input starts
 * from getopt's initial state, so that what one input finds does not
 * depend on the inputs run before it in the same process.  A line that parses
 * is then set up against the shipped catalog as a run would be (the op,
 * dtypes, --domain, --input names, modes; no file is read), a shaped
 * op's --shape parsed (a matrix op's M,N,K and its kin), and its --args
 * bindings read as the binder reads each (kernel_roles.h: the role, a
 * scratch buffer's size expression). */
#include "fuzz.h"
#include "cli.h"
#include "inputs.h"
#include "kernel_roles.h"
#include "setup.h"
#include "shaped_mm.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 64
#define MAX_LINES 8

static struct ub_catalog cat;
static int have_cat = -1;

static void command_line(const uint8_t *data, size_t size)
{
	struct ub_error err;
	char *text = malloc(size + 1), *argv[MAX_ARGS + 2];
	if (!text)
		return;
	memcpy(text, data, size);
	text[size] = 0;
	int argc = 0;
	argv[argc++] = "ulpbench";
	for (char *p = text; p < text + size && argc <= MAX_ARGS; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	struct ub_cli cli;
	int parsed = ub_cli_parse(argc, argv, &cli, &err) == 0;
	char *args = parsed && cli.args ? strdup(cli.args) : NULL;
	for (char *save, *it = args ? strtok_r(args, ",", &save) : NULL; it;
	     it = strtok_r(NULL, ",", &save)) {
		struct ub_role r;
		unsigned long long v;
		char *eq = strchr(it, '=');
		if (eq && ub_role_parse("p", eq + 1, &r, &err) == 0 && r.role == UB_RL_SIZE)
			ub_role_size(r.arg, 1000, 8, 125, &v, &err);
	}
	free(args);
	if (parsed && cli.action == UB_ACT_RUN && cli.op && have_cat) {
		struct ub_op op;
		struct ub_config cfg;
		if (ub_setup_op(&cli, &cat, &op, &cfg, NULL, &err) == 0 && cfg.exhaustive)
			ub_exhaustive_check(&op, cfg.dtypes, cfg.ndtypes, &cfg.range, &err);
	}
	const struct ub_shaped_op *sop = parsed && cli.op && cli.shape ?
					 ub_shaped_find(cli.op) : NULL;
	if (sop) {   /* --shape of a shaped op: rows,cols, or a matrix op's sizes */
		struct ub_shaped_req q = {.op = sop, .batch = 1};
		if (ub_shaped_is_mm(sop))
			ub_mm_shape_parse(sop, cli.shape, &q, &err);
		else
			ub_shape_parse(cli.shape, &q.rows, &q.cols, &err);
	}
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ub_error err;
	if (have_cat < 0)
		have_cat = ub_load_catalog(NULL, &cat, &err) == 0;
	char *none[] = {"fuzz", NULL};
	optind = 0; /* glibc: initialise everything at the next call */
	opterr = 0;
	getopt(1, none, "");
	const uint8_t *end = data + size;
	for (int i = 0; i < MAX_LINES && data < end; i++) {
		const uint8_t *nl = memchr(data, '\n', (size_t)(end - data));
		size_t len = nl ? (size_t)(nl - data) : (size_t)(end - data);
		command_line(data, len);
		data += len + (nl != NULL);
	}
	return 0;
}
