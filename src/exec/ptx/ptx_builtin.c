/* ptx_builtin.c — what the CUDA runtime's device functions do on the
 * interpreter: __assertfail (a failed `assert`) and vprintf (`printf`).
 * nvcc declares both `.extern .func` and calls them with their arguments
 * in call-site .param variables (ptx_insn_more.c makes each call an
 * instruction of its own, ASSERTFAIL or PRINTF, holding the addresses of
 * those variables).
 *
 * __assertfail(message, file, line, function, charSize): the thread stops
 * and the run with it, with the message the GPU prints ("FILE:LINE:
 * FUNCTION: block [..], thread [..] Assertion `MESSAGE` failed.") as an
 * error; a passing assert never calls it and costs its compare.
 *
 * vprintf(format, args): args points at the arguments packed as nvcc
 * packs them, each aligned to its size: 4 bytes for char, short and int
 * (promoted), 8 for long, long long, double (float is promoted) and
 * pointers.  The text, after the block and thread, is kept in the
 * launch's c->pf while whole lines fit (ptx_run_info hands them on; sim.c
 * shows them); vprintf returns the number of arguments it read, as the
 * CUDA programming guide says printf does. */
#include "ptx_exec.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Up to len - 1 bytes of the NUL-terminated string at generic address a
 * (module arrays, the launch's buffers, the thread's .local memory) into
 * buf; "(bad string pointer)" when a is none of those. */
static void read_string(const struct ptx_ctx *c, uint64_t a,
			const unsigned char *lbuf, char *buf, size_t len)
{
	uint64_t lo, size;
	size_t n = 0;
	if (!a || !ptx_mem_region(c, PTX_LD_GENERIC, a, 1, lbuf, &lo, &size)) {
		snprintf(buf, len, "(bad string pointer 0x%llx)", (unsigned long long)a);
		return;
	}
	const char *p = (const char *)(uintptr_t)a;
	while (n + 1 < len && a - lo + n < size && p[n])
		buf[n] = p[n], n++;
	buf[n] = '\0';
}

/* n bytes (at most 8) at generic address a, little-endian, into *v; 0, or
 * -1 when a is outside the thread's memory. */
static int read_value(const struct ptx_ctx *c, uint64_t a, unsigned n,
		      const unsigned char *lbuf, uint64_t *v)
{
	uint64_t lo, size;
	*v = 0;
	if (!ptx_mem_region(c, PTX_LD_GENERIC, a, n, lbuf, &lo, &size))
		return -1;
	memcpy(v, (const void *)(uintptr_t)a, n);
	return 0;
}

/* The value of call argument k: 8 bytes of its .param variable. */
static uint64_t arg(const struct ptx_ctx *c, const struct ptx_insn *in,
		    const uint64_t *R, size_t S, const unsigned char *lbuf,
		    int k, unsigned n)
{
	uint64_t v = 0;
	read_value(c, R[(size_t)in->src[k] * S], n, lbuf, &v);
	return v;
}

/* path as a shell in the current directory names it: a path under it
 * (nvcc's __FILE__ of a file included by its absolute path) relative. */
static const char *relative(const char *path)
{
	char cwd[4096];
	size_t n;
	if (path[0] != '/' || !getcwd(cwd, sizeof cwd) || !(n = strlen(cwd)) ||
	    strncmp(path, cwd, n) || path[n] != '/')
		return path;
	return path + n + 1;
}

void ptx_assert_message(const struct ptx_ctx *c, const struct ptx_insn *in,
			const uint64_t *R, size_t S, const unsigned char *lbuf,
			char *buf, size_t len)
{
	char msg[160], file[400], func[160];
	read_string(c, arg(c, in, R, S, lbuf, 0, 8), lbuf, msg, sizeof msg);
	read_string(c, arg(c, in, R, S, lbuf, 1, 8), lbuf, file, sizeof file);
	read_string(c, arg(c, in, R, S, lbuf, 3, 8), lbuf, func, sizeof func);
	unsigned line = (unsigned)arg(c, in, R, S, lbuf, 2, 4);
	snprintf(buf, len, "device assertion failed: %s:%u: %s: Assertion `%s` "
		 "failed", relative(file), line, func, msg);
}

/* The state of a format's walk over the packed arguments. */
struct pf {
	const struct ptx_ctx *c;
	const unsigned char *lbuf;
	uint64_t at;      /* address of the next argument */
	int nargs;        /* read so far */
	char out[1024];
	size_t len;
};

/* The next argument of n bytes, aligned to n. */
static uint64_t next_arg(struct pf *f, unsigned n)
{
	uint64_t v = 0;
	f->at = (f->at + n - 1) / n * n;
	read_value(f->c, f->at, n, f->lbuf, &v);
	f->at += n;
	f->nargs++;
	return v;
}

static void put(struct pf *f, const char *s, size_t n)
{
	size_t room = sizeof f->out - 1 - f->len;
	if (n > room)
		n = room;
	memcpy(f->out + f->len, s, n);
	f->len += n;
	f->out[f->len] = '\0';
}

/* One conversion spec at s ("%-08.3lf"), its length into *used. */
static void conversion(struct pf *f, const char *s, size_t *used)
{
	char spec[32], piece[512];
	size_t k = 1;
	int star[2], nstar = 0, longs = 0;
	while (s[k] && strchr("-+ #0", s[k]))
		k++;
	for (int part = 0; part < 2; part++) {   /* width, then .precision */
		if (part && s[k] != '.')
			break;
		k += part;
		if (s[k] == '*') {   /* at most 200 wide or precise */
			int v = (int)(int32_t)next_arg(f, 4);
			star[nstar++] = v < -200 ? -200 : v > 200 ? 200 : v;
			k++;
		}
		while (s[k] >= '0' && s[k] <= '9')
			k++;
	}
	size_t head = k;   /* flags, width, precision */
	while (s[k] && strchr("hlLzjt", s[k]))
		longs += s[k] == 'l' || s[k] == 'L' || s[k] == 'z' || s[k] == 'j' ||
			 s[k] == 't', k++;
	char conv = s[k];
	*used = conv ? k + 1 : k;
	if (!conv || !strchr("diuoxXcfFeEgGaAsp%", conv) || head > 8) {
		put(f, s, *used);   /* not a conversion: the text as it is */
		return;
	}
	snprintf(spec, sizeof spec, "%.*s%s%c", (int)head, s,
		 strchr("diuoxX", conv) ? "ll" : "", conv);
	int w = nstar > 0 ? star[0] : 0, p = nstar > 1 ? star[1] : 0;
	if (conv == '%') {
		put(f, "%", 1);
		return;
	}
	if (strchr("fFeEgGaA", conv)) {
		uint64_t v = next_arg(f, 8);
		double d;
		memcpy(&d, &v, sizeof d);
		if (nstar == 2)
			snprintf(piece, sizeof piece, spec, w, p, d);
		else if (nstar == 1)
			snprintf(piece, sizeof piece, spec, w, d);
		else if (nstar == 0)
			snprintf(piece, sizeof piece, spec, d);
	} else if (conv == 's') {
		char str[256];
		read_string(f->c, next_arg(f, 8), f->lbuf, str, sizeof str);
		if (nstar == 2)
			snprintf(piece, sizeof piece, spec, w, p, str);
		else if (nstar == 1)
			snprintf(piece, sizeof piece, spec, w, str);
		else
			snprintf(piece, sizeof piece, spec, str);
	} else if (conv == 'p') {
		snprintf(piece, sizeof piece, "0x%llx", (unsigned long long)next_arg(f, 8));
	} else if (conv == 'c') {   /* an int's low byte (C's %c) */
		int ch = (unsigned char)next_arg(f, longs ? 8 : 4);
		if (nstar == 2)
			snprintf(piece, sizeof piece, spec, w, p, ch);
		else if (nstar == 1)
			snprintf(piece, sizeof piece, spec, w, ch);
		else
			snprintf(piece, sizeof piece, spec, ch);
	} else {
		unsigned n = longs ? 8 : 4;
		uint64_t v = next_arg(f, n);
		long long x = n == 8 ? (long long)v : strchr("di", conv) ?
			      (long long)(int32_t)v : (long long)(uint32_t)v;
		if (nstar == 2)
			snprintf(piece, sizeof piece, spec, w, p, x);
		else if (nstar == 1)
			snprintf(piece, sizeof piece, spec, w, x);
		else
			snprintf(piece, sizeof piece, spec, x);
	}
	put(f, piece, strlen(piece));
}

void ptx_printf(struct ptx_ctx *c, const struct ptx_insn *in, const uint64_t *R,
		size_t S, const unsigned char *lbuf)
{
	char format[512], line[1200];
	struct pf f = { .c = c, .lbuf = lbuf };
	read_string(c, arg(c, in, R, S, lbuf, 0, 8), lbuf, format, sizeof format);
	f.at = arg(c, in, R, S, lbuf, 1, 8);
	for (const char *s = format; *s;) {
		size_t n = strcspn(s, "%");
		put(&f, s, n);
		s += n;
		if (*s) {
			conversion(&f, s, &n);
			s += n;
		}
	}
	const uint64_t *sr = R + (size_t)PTX_SLOT_SREG * S;
#define SR(k) ((unsigned)sr[(size_t)(PTX_SR_##k) * S])
	int n = snprintf(line, sizeof line, "(block %u,%u,%u thread %u,%u,%u): %s%s",
			 SR(CTAID_X), SR(CTAID_Y), SR(CTAID_Z), SR(TID_X), SR(TID_Y),
			 SR(TID_Z), f.out, f.len && f.out[f.len - 1] == '\n' ? "" : "\n");
#undef SR
	/* whole lines, in order: none after the first that does not fit */
	if (!c->pf_full && n > 0 && c->pf_len + (size_t)n < sizeof c->pf) {
		memcpy(c->pf + c->pf_len, line, (size_t)n + 1);
		c->pf_len += (size_t)n;
	} else {
		c->pf_full = 1;
	}
	c->pf_calls++;
	uint64_t r = in->src[2] == PTX_SLOT_SINK ? 0 : R[(size_t)in->src[2] * S], lo, size;
	int32_t ret = f.nargs;
	if (r && ptx_mem_region(c, PTX_ST_LOCAL, r, 4, lbuf, &lo, &size))
		memcpy((void *)(uintptr_t)r, &ret, sizeof ret);
}
