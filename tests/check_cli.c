/* check_cli.c — unit tests of the option parser (src/cli/cli.c): parses
 * in one process do not depend on each other, also after one stopped in
 * the middle of a word (-Zq), which is what suite files and any caller
 * that parses twice rely on; refused options are named as written.
 *
 * Expected values are the options as written in each argv: a fresh parse
 * sets exactly those, the defaults (cli.h, cli.c) everything else. */
#include "suites.h"

#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* Parses a copy of the words (getopt permutes its argv), as a suite's run
 * line is; the copies of the parse before are freed first (cli points into
 * the last one only): a later parse must never read them again. */
static char **words_live;

static void drop_words(void)
{
	for (int i = 0; words_live && words_live[i]; i++)
		free(words_live[i]);
	free(words_live);
	words_live = NULL;
}

static int parse(const char *const *words, struct ub_cli *cli, struct ub_error *err)
{
	int argc = 0;
	drop_words();
	while (words[argc])
		argc++;
	words_live = calloc((size_t)argc + 1, sizeof *words_live);
	for (int i = 0; i < argc; i++)
		words_live[i] = strdup(words[i]);
	char **argv = malloc(((size_t)argc + 1) * sizeof *argv);
	memcpy(argv, words_live, ((size_t)argc + 1) * sizeof *argv);
	int s = ub_cli_parse(argc, argv, cli, err);
	free(argv);
	return s;
}

/* After a parse that failed on Z inside -Zq, the next parse starts afresh:
 * with optind = 1 glibc resumed at the stale q of the freed word. */
START_TEST(test_reparse_after_error)
{
	static const char *const bad[] = {"ulpbench", "--op", "atan_bwd", "-Zq", NULL};
	static const char *const good[] = {"ulpbench", "--op", "sqrt", "-n", "5", NULL};
	struct ub_cli cli;
	struct ub_error err;
	ck_assert_int_eq(parse(bad, &cli, &err), UB_USAGE);
	ck_assert_str_eq(err.msg, "unknown option '-Z' (see --help)");
	ck_assert_int_eq(parse(good, &cli, &err), 0);
	ck_assert_str_eq(cli.op, "sqrt");
	ck_assert_uint_eq(cli.cfg.n, 5);
	ck_assert_int_eq(cli.quiet, 0); /* the q of -Zq belongs to the first */
	drop_words();
}
END_TEST

/* Two run lines with different options: each gets its own, none of the
 * other's. */
START_TEST(test_two_parses)
{
	static const char *const a[] = {"ulpbench", "--op", "atan_bwd", "-qn", "300",
					"--dtype", "f16", "--mode", "nofma",
					"--kernel", "k.cu", NULL};
	static const char *const b[] = {"ulpbench", "--op", "sqrt", "-n", "200", NULL};
	struct ub_cli cli;
	struct ub_error err;
	ck_assert_int_eq(parse(a, &cli, &err), 0);
	ck_assert(cli.quiet && cli.cfg.n == 300 && cli.cfg.dtypes[0] == UB_F16 &&
		  cli.cfg.nmodes == 1 && !strcmp(cli.kernel, "k.cu"));
	ck_assert_int_eq(parse(b, &cli, &err), 0);
	ck_assert_str_eq(cli.op, "sqrt");
	ck_assert(!cli.quiet && cli.cfg.n == 200 && cli.cfg.ndtypes == 1 &&
		  cli.cfg.dtypes[0] == UB_F32 && cli.cfg.nmodes == UB_NMODES &&
		  !cli.kernel && !cli.modes_given);
	drop_words();
}
END_TEST

/* Refused options, named as the user wrote them. */
static const struct {
	const char *words[6], *msg;
} refused[] = {
	{{"ulpbench", "--op", "x", "-Zq", NULL}, "unknown option '-Z' (see --help)"},
	{{"ulpbench", "--op", "x", "-qZ", NULL}, "unknown option '-Z' (see --help)"},
	{{"ulpbench", "--quiet", "-Zq", NULL}, "unknown option '-Z' (see --help)"},
	{{"ulpbench", "--bogus=1", NULL}, "unknown option '--bogus' (see --help)"},
	{{"ulpbench", "--quiet=3", NULL}, "option '--quiet' takes no argument (see --help)"},
	{{"ulpbench", "--op", NULL}, "missing argument for '--op' (see --help)"},
	{{"ulpbench", "--op", "x", "-qn", NULL}, "missing argument for '-n' (see --help)"},
	{{"ulpbench", "--op", "x", "--mode", NULL}, "missing argument for '--mode' (see --help)"},
	{{"ulpbench", "--op", "x", "-n", "0", NULL},
	 "-n: '0' is not a whole number from 1 to 4294967296"},
	{{"ulpbench", "--op", "x", "--n", "-1", NULL},
	 "-n: '-1' is not a whole number from 1 to 4294967296"},
};

START_TEST(test_refused)
{
	struct ub_cli cli;
	struct ub_error err;
	ck_assert_int_eq(parse(refused[_i].words, &cli, &err), UB_USAGE);
	ck_assert_str_eq(err.msg, refused[_i].msg);
	drop_words();
}
END_TEST

Suite *ub_cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("parse");
	tcase_add_test(tc, test_reparse_after_error);
	tcase_add_test(tc, test_two_parses);
	tcase_add_loop_test(tc, test_refused, 0, (int)(sizeof refused / sizeof refused[0]));
	suite_add_tcase(s, tc);
	return s;
}
