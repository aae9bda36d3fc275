/* subopts.c — option tables of subcommands (subopts.h). */
#include "subopts.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPTS 32

void ub_subopts_help(FILE *f, const char *usage, const struct ub_subopt *opts,
		     int nopts)
{
	fprintf(f, "%s\n\n", usage);
	for (int i = 0; i < nopts; i++) {
		char lhs[64];
		snprintf(lhs, sizeof lhs, "-%s%s%s%s", opts[i].name[1] ? "-" : "", opts[i].name,
			 opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
		fprintf(f, "  %-24s %s\n", lhs, opts[i].help);
	}
}

void ub_getopt_reset(void)
{
	optind = 0;
	opterr = 0;
}

const char *ub_getopt_error(int c, char **argv, const struct option *lopts,
			    char *buf, size_t len)
{
	/* the last word getopt consumed: the option's own, except for a
	 * letter inside a cluster (-Zq: optind stays on it), named by optopt */
	const char *word = argv[optind - 1], *name = NULL;
	int is_long = strncmp(word, "--", 2) == 0;
	size_t wl = is_long ? strcspn(word + 2, "=") : 0;
	/* a long option by the word (--cs for --csv as getopt takes it: the
	 * one name it begins, or the name it is), never by its val, which
	 * several options may share; a letter by optopt */
	const char *exact = NULL, *prefix = NULL;
	int nprefix = 0;
	for (int i = 0; is_long && wl && lopts[i].name; i++)
		if (!strncmp(lopts[i].name, word + 2, wl)) {
			if (strlen(lopts[i].name) == wl)
				exact = lopts[i].name;
			prefix = lopts[i].name;
			nprefix++;
		}
	/* an abbreviation of several options names none */
	name = exact ? exact : nprefix == 1 ? prefix : NULL;
	/* a letter of a cluster after a long option (--quiet -Zq): the word
	 * is the long option's, but optopt is the letter, not its val */
	for (int i = 0; is_long && name && optopt && lopts[i].name; i++)
		if (lopts[i].name == name && lopts[i].val != optopt)
			is_long = 0, name = NULL;
	for (int i = 0; !is_long && optopt && lopts[i].name; i++)
		if (lopts[i].val == optopt)
			name = lopts[i].name;
	if (c == '?' && is_long && !name) /* unknown, or ambiguous: up to its '=' */
		snprintf(buf, len, "unknown option '%.*s'", (int)strcspn(word, "="), word);
	else if (c == '?' && is_long) /* --quiet=3 */
		snprintf(buf, len, "option '--%s' takes no argument", name);
	else if (c == '?')
		snprintf(buf, len, "unknown option '-%c'", optopt);
	else if (is_long && name)
		snprintf(buf, len, "missing argument for '--%s'", name);
	else
		snprintf(buf, len, "missing argument for '-%c'", optopt);
	return buf;
}

int ub_subopts_parse(int argc, char **argv, const struct ub_subopt *opts,
		     int nopts, const char *usage,
		     int (*opt)(void *ctx, const char *name, const char *arg,
				struct ub_error *err),
		     void *ctx, int *first, struct ub_error *err)
{
	struct option lopts[MAX_OPTS + 1];
	char sopts[2 * MAX_OPTS + 2] = ":";
	size_t sl = 1;
	if (nopts > MAX_OPTS)
		return ub_fail(err, UB_USAGE, "%s: too many options", argv[0]);
	for (int i = 0; i < nopts; i++) {
		lopts[i] = (struct option){opts[i].name, opts[i].has_arg, NULL, i};
		if (!opts[i].name[1]) { /* one letter: -n as well as --n */
			sopts[sl++] = opts[i].name[0];
			if (opts[i].has_arg)
				sopts[sl++] = ':';
		}
	}
	sopts[sl] = '\0';
	lopts[nopts] = (struct option){0};
	ub_getopt_reset();
	for (;;) {
		char why[128];
		int c = getopt_long(argc, argv, sopts, lopts, NULL);
		if (c == -1)
			break;
		for (int i = 0; c >= MAX_OPTS && c != '?' && c != ':' && i < nopts; i++)
			if (!opts[i].name[1] && opts[i].name[0] == c)
				c = i;
		if (c == '?' || c == ':')
			return ub_fail(err, UB_USAGE, "%s: %s (see ulpbench %s --help)",
				       argv[0], ub_getopt_error(c, argv, lopts, why, sizeof why),
				       argv[0]);
		if (strcmp(opts[c].name, "help") == 0) {
			ub_subopts_help(stdout, usage, opts, nopts);
			return -1;
		}
		int s = opt(ctx, opts[c].name, optarg, err);
		if (s)
			return s;
	}
	*first = optind;
	return 0;
}

int ub_subopt_count(const char *opt, const char *s, uint64_t lo, uint64_t hi,
		    uint64_t *out, struct ub_error *err)
{
	char *end;
	double v;
	errno = 0;
	if (strncmp(s, "2^", 2) == 0)
		v = ldexp(1, (int)strtol(s + 2, &end, 10));
	else
		v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= (double)lo) || v != floor(v) ||
	    v > (double)hi)
		return ub_fail(err, UB_USAGE, "-%s%s: '%s' is not a whole number "
			       "from %llu to %llu", opt[1] ? "-" : "", opt, s,
			       (unsigned long long)lo, (unsigned long long)hi);
	*out = (uint64_t)v;
	return 0;
}
