/* kernel_roles.c — a binding's TARGET[:ROLE[=ARG]] and a scratch buffer's
 * size expression (kernel_roles.h). */
#include "kernel_roles.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char *const names[UB_NROLES] = {
	[UB_RL_NONE] = "",
#define X(id, name, arg, what) [id] = name,
	UB_ROLES(X)
#undef X
};

const char *ub_role_list(void)
{
	return "OUT:inplace=INPUT, OUT:acc=INPUT, scratch:size=EXPR";
}

int ub_role_parse(const char *param, const char *text, struct ub_role *r,
		  struct ub_error *err)
{
	const char *colon = strchr(text, ':'), *eq = colon ? strchr(colon, '=') : NULL;
	size_t tl = colon ? (size_t)(colon - text) : strlen(text);
	memset(r, 0, sizeof *r);
	if (tl >= sizeof r->target)
		return ub_fail(err, UB_USAGE, "--args: %s=%s: the name is too long", param, text);
	memcpy(r->target, text, tl);
	if (!colon)
		return 0;
	size_t rl = eq ? (size_t)(eq - colon - 1) : strlen(colon + 1);
	for (int k = 1; k < UB_NROLES; k++)
		if (strlen(names[k]) == rl && !strncmp(colon + 1, names[k], rl))
			r->role = (enum ub_role_id)k;
	if (!r->role)
		return ub_fail(err, UB_USAGE, "--args: %s=%s: '%.*s' is not a role (roles: "
			       "%s)", param, text, (int)rl, colon + 1, ub_role_list());
	if (!eq && r->role == UB_RL_INPLACE) {   /* the input of the output's name */
		strcpy(r->arg, r->target);
		return 0;
	}
	if (!eq || !eq[1] || strlen(eq + 1) >= sizeof r->arg)
		return ub_fail(err, UB_USAGE, "--args: %s=%s: :%s takes =%s (roles: %s)",
			       param, text, names[r->role],
			       r->role == UB_RL_SIZE ? "EXPR" : "INPUT", ub_role_list());
	strcpy(r->arg, eq + 1);
	if ((r->role == UB_RL_SIZE) != !strcmp(r->target, "scratch"))
		return ub_fail(err, UB_USAGE, "--args: %s=%s: %s", param, text,
			       r->role == UB_RL_SIZE ? ":size is for scratch (P=scratch:size=EXPR)"
			       : "scratch takes :size=EXPR");
	return 0;
}

/* A recursive descent over the expression: sum, product, atom. */
struct ex {
	const char *p;
	unsigned long long n, rows, cols;
	int bad;
};

static unsigned long long sum(struct ex *e);

static void blanks(struct ex *e)
{
	while (*e->p == ' ')
		e->p++;
}

static unsigned long long atom(struct ex *e)
{
	blanks(e);
	if (*e->p == '(') {
		e->p++;
		unsigned long long v = sum(e);
		blanks(e);
		e->bad |= *e->p != ')';
		e->p += *e->p == ')';
		return v;
	}
	if (isdigit((unsigned char)*e->p)) {
		unsigned long long v = 0;
		while (isdigit((unsigned char)*e->p)) {
			e->bad |= v > (1ull << 50);
			v = v * 10 + (unsigned long long)(*e->p++ - '0');
		}
		return v;
	}
	static const char *const vars[] = {"rows", "cols", "n"};
	for (int i = 0; i < 3; i++)
		if (!strncmp(e->p, vars[i], strlen(vars[i])) &&
		    !isalnum((unsigned char)e->p[strlen(vars[i])])) {
			e->p += strlen(vars[i]);
			return i == 0 ? e->rows : i == 1 ? e->cols : e->n;
		}
	e->bad = 1;
	return 0;
}

static unsigned long long product(struct ex *e)
{
	unsigned long long v = atom(e);
	for (blanks(e); !e->bad && (*e->p == '*' || *e->p == '/'); blanks(e)) {
		char op = *e->p++;
		unsigned long long w = atom(e);
		e->bad |= (op == '/' && w == 0) || (op == '*' && w && v > (1ull << 50) / w);
		v = e->bad ? 0 : op == '*' ? v * w : v / w;
	}
	return v;
}

static unsigned long long sum(struct ex *e)
{
	unsigned long long v = product(e);
	for (blanks(e); !e->bad && (*e->p == '+' || *e->p == '-'); blanks(e)) {
		char op = *e->p++;
		unsigned long long w = product(e);
		e->bad |= op == '-' && w > v;
		v = e->bad ? 0 : op == '+' ? v + w : v - w;
	}
	return v;
}

int ub_role_size(const char *expr, unsigned long long n, unsigned long long rows,
		 unsigned long long cols, unsigned long long *v, struct ub_error *err)
{
	struct ex e = {expr, n, rows, cols, 0};
	*v = sum(&e);
	if (e.bad || *e.p || *v < 1 || *v > (1ull << 40))
		return ub_fail(err, UB_USAGE, "--args: scratch:size=%s: expected a count in "
			       "1..2^40 from whole numbers, n, rows, cols, + - * / and "
			       "parentheses (here n=%llu, rows=%llu, cols=%llu)", expr, n,
			       rows, cols);
	return 0;
}
