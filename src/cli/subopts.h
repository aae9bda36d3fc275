/* subopts.h — option parsing for subcommands (`ulpbench NAME ...`): each
 * command declares its options in one table, which drives getopt_long and
 * its --help alike, as cli.h does for the main command. */
#ifndef UB_SUBOPTS_H
#define UB_SUBOPTS_H

#include <stdint.h>
#include <stdio.h>

#include "ub.h"

struct ub_subopt {
	const char *name; /* long name; "help" prints the help */
	int has_arg;
	const char *arg, *help;
};

/* Calls opt(ctx, name, arg, err) for every option of argv[1..] in order
 * (argv[0] is the command's name); the arguments that are no options are
 * left in argv[*first .. argc-1].  "--help" prints the help on stdout and
 * returns -1.  Errors: UB_USAGE, "COMMAND: unknown option '--x' (see
 * ulpbench COMMAND --help)", or whatever opt() returns. */
int ub_subopts_parse(int argc, char **argv, const struct ub_subopt *opts,
		     int nopts, const char *usage,
		     int (*opt)(void *ctx, const char *name, const char *arg,
				struct ub_error *err),
		     void *ctx, int *first, struct ub_error *err);

void ub_subopts_help(FILE *f, const char *usage, const struct ub_subopt *opts,
		     int nopts);

/* Every getopt_long parse starts with this: glibc and musl reinitialize
 * on optind = 0, forgetting the position inside a word such as -qn that
 * an earlier parse stopped in (optind = 1 keeps it: the next parse would
 * go on reading the old, perhaps freed, argv). */
void ub_getopt_reset(void);

struct option;
/* What getopt_long refused when it returned c ('?' or ':'), named as the
 * user wrote it, into buf: "unknown option '-Z'" (also inside -Zq),
 * "unknown option '--bogus'", "option '--quiet' takes no argument",
 * "missing argument for '-n'" or "... '--mode'". */
const char *ub_getopt_error(int c, char **argv, const struct option *lopts,
			    char *buf, size_t len);

/* "1000", "1e6", "2^20" -> a whole number in [lo, hi]; errors name the
 * option (-n for a one-letter name, else --name) and the range. */
int ub_subopt_count(const char *opt, const char *s, uint64_t lo, uint64_t hi,
		    uint64_t *out, struct ub_error *err);

#endif
