/* selftest_insns.c — `ulpbench selftest --insns`: every PTX instruction
 * form of kernels/ptx-insns.txt on the sim and on the GPU, bit for bit.
 *
 * Each form is one instruction run in a kernel of its own over special
 * values (every pair of them for two inputs) and seeded random inputs, in
 * the registers of the tests' one-instruction harness (tests/check_ptx.h:
 * inputs in %x0-2 / %y0-2 / %h0-2 / %p0-2, the result in %x3, %y3, %h3 or
 * %p3).  `--capture FILE` also writes the GPU's outputs, and `--replay
 * FILE` compares the sim with such a file instead of a GPU, which is how
 * the GPU's behaviour stays tested on machines without one.  A form that
 * does not compile or run is reported and counted, never stops the run.
 *
 * File format (little-endian): "UBINSNS1", u32 forms, u32 length and the
 * info text; per form: u16 length and the form's line, u32 n, u32 output
 * bytes (4 or 8), u64 hash of its inputs (FNV-1a steps from the offset
 * 1469598103934665603), then n outputs. */
#include "backend.h"
#include "commands.h"
#include "cuda_driver.h"
#include "outfile.h"
#include "paths.h"
#include "ptx.h"
#include "selftest_insns.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXFORMS 512
#define NRANDOM 1024

struct form {
	char type[8];  /* f32, f64, f16, bf16, f16x2, bf16x2, s32, u32, s64 */
	char out;      /* x, y, h, p */
	char text[200];/* the instruction */
	char line[240];/* "TYPE OUT TEXT": its name in files and reports */
	int arity;     /* inputs used: 1..3 */
};

/* --- the inputs ------------------------------------------------------- */

static const uint64_t sp32[] = {
	0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00000003, 0x0000ffff,
	0x00400000, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x00800001,
	0x01000000, 0x34000000, 0x3effffff, 0x3f000000, 0x3f7fffff, 0x3f800000,
	0xbf800000, 0x3f800001, 0x3fc00000, 0x40000000, 0xc0000000, 0x40490fdb,
	0x42f60000, 0xc2f60000, 0x4b000000, 0x4b800000, 0x7e800000, 0x7f000000,
	0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
	0x7f800001, 0xff800001, 0x7fa00000, 0x7fffffff, 0x4f000000, 0xcf000000,
	0x5f000000, 0x4effffff,
};
static const uint64_t sp64[] = {
	0, 0x8000000000000000, 1, 0x8000000000000001, 0x000fffffffffffff,
	0x0008000000000000, 0x0010000000000000, 0x8010000000000000,
	0x0010000000000001, 0x3ca0000000000000, 0x3fdfffffffffffff,
	0x3fe0000000000000, 0x3fefffffffffffff, 0x3ff0000000000000,
	0xbff0000000000000, 0x3ff0000000000001, 0x3ff8000000000000,
	0x4000000000000000, 0x400921fb54442d18, 0x4330000000000000,
	0x36a0000000000000, 0x3810000000000000, 0x380fffffffffffff,
	0x47efffffe0000000, 0x47effffff0000000, 0x7fe0000000000000,
	0x7fefffffffffffff, 0xffefffffffffffff, 0x7ff0000000000000,
	0xfff0000000000000, 0x7ff8000000000000, 0xfff8000000000000,
	0x7ff0000000000001, 0xfff0000000000001, 0x7ff4000000000000,
	0x7fffffffffffffff, 0x43e0000000000000, 0xc3e0000000000000,
};
static const uint64_t sp16[] = { /* f16 */
	0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0200, 0x0400, 0x8400, 0x0401,
	0x1400, 0x37ff, 0x3800, 0x3bff, 0x3c00, 0xbc00, 0x3c01, 0x3e00, 0x4000,
	0xc000, 0x4248, 0x6400, 0x7800, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00,
	0xfe00, 0x7c01, 0x7fff, 0x0003,
};
static const uint64_t spb16[] = { /* bf16 */
	0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x0040, 0x0080, 0x8080, 0x0081,
	0x3400, 0x3eff, 0x3f00, 0x3f7f, 0x3f80, 0xbf80, 0x3f81, 0x3fc0, 0x4000,
	0xc000, 0x4049, 0x4b00, 0x7f00, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0,
	0xffc0, 0x7f81, 0x7fff, 0x0003,
};
static const uint64_t spi32[] = {
	0, 1, 0xffffffff, 2, 0x00ffffff, 0x01000000, 0x01000001, 0x01000003,
	0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0x7fffff80, 0x7fffffc0,
	0x12345678, 0xfedcba98,
};
static const uint64_t spi64[] = {
	0, 1, ~0ull, 2, 0x001fffffffffffff, 0x0020000000000000, 0x0020000000000001,
	0x0020000000000003, 0x7fffffffffffffff, 0x8000000000000000,
	0x8000000000000001, 0x00000000ffffffff, 0x0000000100000001,
	0x7ffffe8000000000, 0xfffffffffffffffe, 0x123456789abcdef0,
};

/* For the forms of three inputs of type f32t, f64t and f16t: every
 * triple of these (zeros, the subnormal and normal ends, one below and
 * above 1, infinities, quiet and signaling NaNs of both signs). */
static const uint64_t sp32t[] = {
	0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x00800000,
	0x80800000, 0x3f7fffff, 0x3f800001, 0x3f800000, 0xbf800000, 0x7f7fffff,
	0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc00000, 0xff800001,
	0x7fa00000,
};
static const uint64_t sp64t[] = {
	0, 0x8000000000000000, 1, 0x8000000000000001, 0x000fffffffffffff,
	0x0010000000000000, 0x8010000000000000, 0x3fefffffffffffff,
	0x3ff0000000000001, 0x3ff0000000000000, 0xbff0000000000000,
	0x7fefffffffffffff, 0x7ff0000000000000, 0xfff0000000000000,
	0x7ff8000000000000, 0x7ff0000000000001, 0xfff8000000000000,
	0xfff0000000000001, 0x7ff4000000000000,
};
static const uint64_t sp16t[] = {
	0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x8400, 0x3bff, 0x3c01,
	0x3c00, 0xbc00, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0xfc01,
	0x7d00,
};
/* f32r: one input near 2^126 and 2^-126, where 1/x crosses the subnormal
 * boundary and the top of the range. */
static const uint64_t sp32r[] = {
	0x7e7fffff, 0x7e800000, 0x7e800001, 0x7e800002, 0x7effffff, 0x7f000000,
	0x7f000001, 0x7f7fffff, 0xfe800001, 0xfeffffff, 0x00800000, 0x00800001,
	0x00ffffff, 0x01000000, 0x007fffff, 0x00400001, 0x80800001, 0x7f800000,
	0x00000000, 0x7fc00000,
};

struct spec { const uint64_t *v; int n; int bits; };

static struct spec specials(const char *type)
{
#define S(a, b) (struct spec){ a, (int)(sizeof a / sizeof a[0]), b }
	if (!strcmp(type, "f32t"))
		return S(sp32t, 32);
	if (!strcmp(type, "f64t"))
		return S(sp64t, 64);
	if (!strcmp(type, "f16t"))
		return S(sp16t, 16);
	if (!strcmp(type, "f32r"))
		return S(sp32r, 32);
	if (!strcmp(type, "f64"))
		return S(sp64, 64);
	if (!strcmp(type, "f16") || !strcmp(type, "f16x2"))
		return S(sp16, 16);
	if (!strcmp(type, "bf16") || !strcmp(type, "bf16x2"))
		return S(spb16, 16);
	if (!strcmp(type, "s32") || !strcmp(type, "u32"))
		return S(spi32, 32);
	if (!strcmp(type, "s64"))
		return S(spi64, 64);
	return S(sp32, 32);
#undef S
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ z >> 27) * 0x94d049bb133111ebull;
	return z ^ z >> 31;
}

/* A random value of a float format of `bits`: half of them any encoding,
 * half with an exponent near the format's ends or near 1 (where flushing,
 * rounding at the subnormal boundary and overflow are decided). */
static uint64_t random_float(uint64_t *s, int bits)
{
	uint64_t r = splitmix(s);
	if (bits == 0) /* integers */
		return r;
	int m = bits == 64 ? 52 : bits == 32 ? 23 : 10, e = bits - 1 - m;
	uint64_t emax = (1ull << e) - 1, mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
	if (r & 1)
		return (r >> 1) & mask;
	uint64_t pick[] = {0, 1, 2, emax / 2 - 1, emax / 2, emax / 2 + 1, emax - 2, emax - 1,
			   m + 1, emax / 2 + m};
	uint64_t ex = pick[(r >> 1) % 10], sign = r >> 63;
	return (sign << (bits - 1) | ex << m | (splitmix(s) & ((1ull << m) - 1))) & mask;
}

static uint64_t fnv(uint64_t h, uint64_t v)
{
	for (int k = 0; k < 8; k++)
		h = (h ^ (v >> (8 * k) & 0xff)) * 1099511628211ull;
	return h;
}

/* The inputs of f: the specials (every pair, or every triple of the
 * first 12, as the arity asks), then NRANDOM random ones from a seed of
 * the form's own line.  bf16 is bf16 whatever the "bits" say, and the
 * packed types pair two random specials.  Returns n; *hash gets the
 * inputs' FNV-1a. */
static size_t make_inputs(const struct form *f, uint64_t **abc, uint64_t *hash)
{
	struct spec sp = specials(f->type);
	int packed = strstr(f->type, "x2") != NULL, isint = f->type[0] != 'f' &&
		     f->type[0] != 'b';
	int all3 = f->type[strlen(f->type) - 1] == 't', k3 = all3 || sp.n < 12 ? sp.n : 12;
	size_t ns = f->arity == 1 ? (size_t)sp.n : f->arity == 2 ? (size_t)sp.n * sp.n
		    : (size_t)k3 * k3 * k3;
	size_t n = ns + NRANDOM;
	for (int k = 0; k < 3; k++)
		abc[k] = calloc(n, 8);
	uint64_t seed = fnv(1469598103934665603ull, 0);
	for (const char *c = f->line; *c; c++)
		seed = (seed ^ (unsigned char)*c) * 1099511628211ull;
	for (size_t i = 0; i < ns; i++) {
		size_t q = i;
		int base = f->arity == 3 ? k3 : sp.n;
		for (int k = 0; k < f->arity; k++, q /= (size_t)base)
			abc[k][i] = sp.v[q % (size_t)base];
	}
	int rbits = isint ? 0 : sp.bits;
	for (size_t i = ns; i < n; i++)
		for (int k = 0; k < 3; k++) {
			uint64_t v = random_float(&seed, rbits);
			if (isint && sp.bits == 32)
				v &= 0xffffffff;
			abc[k][i] = v;
		}
	if (packed) /* the high half: another special or random value */
		for (size_t i = 0; i < n; i++)
			for (int k = 0; k < 3; k++)
				abc[k][i] = (abc[k][i] & 0xffff) |
					    (i % 3 ? sp.v[(i / 3 + (size_t)k) % (size_t)sp.n]
						   : random_float(&seed, 16)) << 16;
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 3; k++)
			h = fnv(h, abc[k][i]);
	*hash = h;
	return n;
}

/* --- the list ---------------------------------------------------------- */

static int parse_list(const char *path, struct form *forms, int *nforms,
		      struct ub_error *err)
{
	char *text;
	int s = ub_read_file(path, &text, err);
	if (s)
		return s;
	int n = 0;
	for (char *sv, *l = strtok_r(text, "\n", &sv); l; l = strtok_r(NULL, "\n", &sv)) {
		while (*l == ' ' || *l == '\t')
			l++;
		if (!*l || *l == '#')
			continue;
		struct form f = {0};
		int used = 0;
		if (sscanf(l, "%7s %c %n", f.type, &f.out, &used) != 2 || !l[used] ||
		    !strchr("xyhp", f.out) || strlen(l + used) >= sizeof f.text) {
			/* the line's number: the line ends before it (strtok_r
			 * made the ends of the lines it returned NULs) */
			int no = 1;
			for (const char *c = text; c < l; c++)
				no += *c == '\n' || *c == '\0';
			s = ub_fail(err, UB_USAGE, "%s:%d: a line is not 'TYPE OUT "
				    "INSTRUCTION': %.60s", path, no, l);
			free(text);
			return s;
		}
		snprintf(f.text, sizeof f.text, "%s", l + used);
		snprintf(f.line, sizeof f.line, "%s %c %s", f.type, f.out, f.text);
		for (int k = 0; k < 3; k++)
			for (const char *r = "xyhp"; *r; r++) {
				char reg[4] = {'%', *r, (char)('0' + k), 0};
				if (strstr(f.text, reg) && f.arity < k + 1)
					f.arity = k + 1;
			}
		if (!f.arity)
			f.arity = 1;
		if (n == MAXFORMS) {
			free(text);
			return ub_fail(err, UB_USAGE, "%s: more than %d forms", path, MAXFORMS);
		}
		forms[n++] = f;
	}
	free(text);
	*nforms = n;
	return n ? 0 : ub_fail(err, UB_USAGE, "%s: no instruction forms", path);
}

/* The kernel of one form: the harness registers loaded from a, b, c, the
 * instruction, the result register out.  In the asm template %0-%3 are the
 * operands and %%x0 the harness's register %x0. */
static const char *kernel_head =
	"extern \"C\" __global__ void ub_insn(const unsigned long long *a,\n"
	"    const unsigned long long *b, const unsigned long long *c,\n"
	"    unsigned long long *out, long long n)\n"
	"{\n"
	"    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
	"    if (i >= n)\n"
	"        return;\n"
	"    unsigned long long r;\n"
	"    asm volatile(\"{ .reg .b32 %%x<5>; .reg .b64 %%y<5>; .reg .b16 %%h<5>;\\n\"\n"
	"        \" .reg .pred %%p<5>, %%q<5>;\\n\"\n"
	"        \" mov.b64 %%y0, %1; mov.b64 %%y1, %2; mov.b64 %%y2, %3;\\n\"\n"
	"        \" cvt.u32.u64 %%x0, %%y0; cvt.u32.u64 %%x1, %%y1; cvt.u32.u64 %%x2, %%y2;\\n\"\n"
	"        \" cvt.u16.u64 %%h0, %%y0; cvt.u16.u64 %%h1, %%y1; cvt.u16.u64 %%h2, %%y2;\\n\"\n"
	"        \" setp.ne.u64 %%p0, %%y0, 0; setp.ne.u64 %%p1, %%y1, 0; setp.ne.u64 %%p2, %%y2, 0;\\n\"\n"
	"        \" mov.b32 %%x3, 0; mov.b64 %%y3, 0; mov.b16 %%h3, 0; setp.ne.u64 %%p3, %%y3, %%y3;\\n\"\n"
	"        \" ";
static const char *kernel_tail =
	" }\" : \"=l\"(r) : \"l\"(a[i]), \"l\"(b[i]), \"l\"(c[i]));\n"
	"    out[i] = r;\n"
	"}\n";

static void kernel_source(const struct form *f, char *src, size_t len)
{
	const char *get = f->out == 'y' ? "mov.b64 %0, %%y3;" :
			  f->out == 'x' ? "cvt.u64.u32 %0, %%x3;" :
			  f->out == 'h' ? "cvt.u64.u16 %0, %%h3;" :
					  "selp.u64 %0, 1, 0, %%p3;";
	size_t j = (size_t)snprintf(src, len, "/* selftest --insns: %s */\n%s", f->line,
				    kernel_head);
	for (const char *c = f->text; *c && j + 3 < len; c++) {
		if (*c == '%')
			src[j++] = '%';
		src[j++] = *c;
	}
	snprintf(src + j, len - j, "\\n\"\n        \" %s%s", get, kernel_tail);
}

/* Runs form f over the inputs on backend be; out gets n outputs. */
static int run_form(const struct ub_backend *be, const char *arch, int arch_set,
		    const struct form *f, uint64_t **abc, size_t n, uint64_t *out,
		    uint64_t *approx, struct ub_error *err)
{
	char src[4096];
	kernel_source(f, src, sizeof src);
	struct ub_array A = {UB_F64, n, abc[0]}, B = {UB_F64, n, abc[1]},
			C = {UB_F64, n, abc[2]}, O = {UB_F64, n, out};
	struct ub_karg args[] = {{.arr = &A}, {.arr = &B}, {.arr = &C},
				 {.arr = &O, .writable = 1}, {.value = n}};
	struct ub_job job = {
		.src = src, .name = "insn.cu", .opts = "", .entry = "ub_insn",
		.arch = be->arch(arch, arch_set), .args = args, .nargs = 5, .n = n,
		.what = f->text,
	};
	*approx = 0;
	return be->run(&job, approx, err);
}

/* --- capture files ----------------------------------------------------- */

struct captured {
	char line[240];
	uint32_t n, width;
	uint64_t hash;
	uint64_t *out;
};

static int write_u(FILE *f, uint64_t v, int bytes)
{
	unsigned char b[8];
	ub_le_set(b, v, bytes);
	return fwrite(b, 1, (size_t)bytes, f) == (size_t)bytes ? 0 : -1;
}

static int read_u(FILE *f, uint64_t *v, int bytes)
{
	unsigned char b[8];
	if (fread(b, 1, (size_t)bytes, f) != (size_t)bytes)
		return -1;
	*v = ub_le_get(b, bytes);
	return 0;
}

static int read_capture(const char *path, struct captured **caps, int *ncaps,
			char *info, size_t infolen, struct ub_error *err)
{
	FILE *f = fopen(path, "rb");
	char magic[8];
	uint64_t nf, il;
	if (!f)
		return ub_fail(err, UB_USAGE, "%s: cannot read", path);
	if (fread(magic, 1, 8, f) != 8 || memcmp(magic, "UBINSNS1", 8) ||
	    read_u(f, &nf, 4) || nf > MAXFORMS || read_u(f, &il, 4) || il >= infolen ||
	    fread(info, 1, il, f) != il) {
		fclose(f);
		return ub_fail(err, UB_USAGE, "%s: not a capture of selftest --insns", path);
	}
	info[il] = 0;
	*caps = calloc(nf ? nf : 1, sizeof **caps);
	int i = 0, bad = !*caps;
	for (; !bad && i < (int)nf; i++) {
		struct captured *c = &(*caps)[i];
		uint64_t len, n, w;
		bad = read_u(f, &len, 2) || len >= sizeof c->line ||
		      fread(c->line, 1, len, f) != len || read_u(f, &n, 4) ||
		      read_u(f, &w, 4) || (w != 4 && w != 8) || n > (1u << 24) ||
		      read_u(f, &c->hash, 8);
		if (bad)
			break;
		c->line[len] = 0;
		c->n = (uint32_t)n;
		c->width = (uint32_t)w;
		c->out = malloc(n * 8 + 8);
		for (uint64_t k = 0; !bad && k < n; k++)
			bad = !c->out || read_u(f, &c->out[k], (int)w);
		if (bad) { /* not counted in *ncaps: freed here */
			free(c->out);
			c->out = NULL;
		}
	}
	int extra = fgetc(f) != EOF;
	fclose(f);
	*ncaps = i;
	if (bad || extra)
		return ub_fail(err, UB_USAGE, "%s: cut short or damaged (form %d)", path, i + 1);
	return 0;
}

int ub_insns_read_files(const char *list, const char *capture, struct ub_error *err)
{
	static struct form forms[MAXFORMS];
	struct captured *caps = NULL;
	int nforms = 0, ncaps = 0, s = 0;
	char info[4096];
	if (list)
		s = parse_list(list, forms, &nforms, err);
	if (!s && capture)
		s = read_capture(capture, &caps, &ncaps, info, sizeof info, err);
	for (int k = 0; k < ncaps; k++)
		free(caps[k].out);
	free(caps);
	return s;
}

/* --- the run ----------------------------------------------------------- */

struct tally {
	int forms, exact, exact_bad, measured, measured_bad, modelled, modelled_bad, failed;
	int every;   /* print every differing input */
};


static void hexv(uint64_t v, int bits, char *buf, size_t len)
{
	snprintf(buf, len, "0x%0*llx", bits / 4, (unsigned long long)v);
}

/* Compares and prints one form's line. */
static void report(struct tally *t, const struct form *f, uint64_t **abc, size_t n,
		   const uint64_t *sim, const uint64_t *ref, uint64_t mask, uint64_t approx)
{
	size_t diff = 0, first = 0;
	for (size_t i = 0; i < n; i++)
		if ((sim[i] & mask) != (ref[i] & mask) && !diff++)
			first = i;
	int bits = specials(f->type).bits, obits = f->out == 'y' ? 64 : f->out == 'x' ? 32 :
		   f->out == 'h' ? 16 : 1;
	char where[400] = "-", v[3][24], s[24], r[24];
	if (diff) {
		for (int k = 0; k < 3; k++)
			hexv(abc[k][first], bits, v[k], sizeof v[k]);
		hexv(sim[first] & mask, obits < 4 ? 4 : obits, s, sizeof s);
		hexv(ref[first] & mask, obits < 4 ? 4 : obits, r, sizeof r);
		snprintf(where, sizeof where, "a=%s%s%s%s%s sim=%s gpu=%s", v[0],
			 f->arity > 1 ? " b=" : "", f->arity > 1 ? v[1] : "",
			 f->arity > 2 ? " c=" : "", f->arity > 2 ? v[2] : "", s, r);
	}
	if (t->every)
		for (size_t i = 0; i < n; i++)
			if ((sim[i] & mask) != (ref[i] & mask))
				printf("  differ: %s a=0x%llx b=0x%llx c=0x%llx sim=0x%llx gpu=0x%llx\n", f->text,
				       (unsigned long long)abc[0][i], (unsigned long long)abc[1][i],
				       (unsigned long long)abc[2][i], (unsigned long long)(sim[i] & mask),
				       (unsigned long long)(ref[i] & mask));
	/* modelled when the sim ran an approximate kind without a measured
	 * model; measured ones are exact (on sm_90) and checked as such */
	int modelled = (approx & PTX_AX_MODELLED_BITS) != 0,
	    measured = (approx & PTX_AX_MEASURED_BITS) != 0;
	printf("%-44s %-8s %6zu %6zu  %s\n", f->text,
	       modelled ? "modelled" : measured ? "measured" : "exact", n, diff, where);
	if (modelled) {
		t->modelled++;
		t->modelled_bad += diff > 0;
	} else if (measured) {
		t->measured++;
		t->measured_bad += diff > 0;
	} else {
		t->exact++;
		t->exact_bad += diff > 0;
	}
}

static uint64_t out_mask(const struct form *f)
{
	return f->out == 'y' ? ~0ull : f->out == 'x' ? 0xffffffffull :
	       f->out == 'h' ? 0xffff : 1;
}

int ub_selftest_insns(const struct ub_insns_opts *o, struct ub_error *err)
{
	static struct form forms[MAXFORMS];
	int nforms = 0, ncaps = 0, s;
	char path[4096], info[4096] = "";
	struct captured *caps = NULL;
	const struct ub_backend *sim, *gpu = NULL;
	const char *list = o->list;
	if (!list) {
		if ((s = ub_data_path("kernels/ptx-insns.txt", path, sizeof path, err)))
			return s;
		list = path;
	}
	if ((s = parse_list(list, forms, &nforms, err)) ||
	    (s = ub_backend_get("sim", &sim, err)))
		return s;
	if (o->replay) {
		if ((s = read_capture(o->replay, &caps, &ncaps, info, sizeof info, err)))
			goto done;
		printf("selftest --insns: sim against %s (%s)\n", o->replay, info);
	} else {
		const struct ub_cu *cu;
		const struct ub_cuda_device *dev;
		struct ub_error why;
		if ((s = ub_backend_get("cuda", &gpu, &why)) || (s = ub_cuda_open(&cu, &dev, &why))) {
			s = ub_fail(err, s, "selftest needs a GPU: %s", why.msg);
			goto done;
		}
		snprintf(info, sizeof info, "%s sm_%d%d driver %d.%d", dev->name, dev->major,
			 dev->minor, dev->driver / 1000, dev->driver % 1000 / 10);
		printf("selftest --insns: sim against cuda on %s\n", info);
	}
	printf("%-44s %-8s %6s %6s  %s\n", "instruction", "class", "n", "differ",
	       "first_difference");
	struct ub_outfile of;
	int capturing = o->capture != NULL;
	if (capturing) {
		if ((s = ub_outfile_open(&of, o->capture, err)))
			goto done;
		fwrite("UBINSNS1", 1, 8, of.f);
		write_u(of.f, (uint64_t)nforms, 4);
		write_u(of.f, strlen(info), 4);
		fwrite(info, 1, strlen(info), of.f);
	}
	struct tally t = {0};
	t.every = o->every;
	for (int i = 0; i < nforms; i++) {
		const struct form *f = &forms[i];
		uint64_t *abc[3], hash, approx;
		size_t n = make_inputs(f, abc, &hash);
		uint64_t *ys = calloc(n, 8), *yg = calloc(n, 8);
		const struct captured *c = NULL;
		struct ub_error e1;
		int s1 = 0, s2 = 0;
		if (caps) {
			for (int k = 0; k < ncaps && !c; k++)
				if (!strcmp(caps[k].line, f->line))
					c = &caps[k];
			if (!c) {
				printf("%-44s not in the capture\n", f->text);
				t.failed++;
			} else if (c->n == 0) {
				printf("%-44s the GPU did not run it when it was captured\n",
				       f->text);
				t.failed++;
				c = NULL;
			} else if (c->n != n || c->hash != hash) {
				printf("%-44s the capture's inputs are not this list's (another "
				       "version of ulpbench?)\n", f->text);
				t.failed++;
				c = NULL;
			} else {
				memcpy(yg, c->out, n * 8);
			}
		} else {
			s2 = run_form(gpu, o->arch, o->arch_set, f, abc, n, yg, &approx, &e1);
			if (s2) {
				printf("%-44s gpu: %s\n", f->text, e1.msg);
				t.failed++;
			}
		}
		if ((c || (!caps && !s2)) &&
		    (s1 = run_form(sim, "compute_90", 0, f, abc, n, ys, &approx, &e1))) {
			printf("%-44s sim: %s\n", f->text, e1.msg);
			t.failed++;
		}
		if ((c || (!caps && !s2)) && !s1)
			report(&t, f, abc, n, ys, yg, out_mask(f), approx & ~UB_APPROX_UNMARKED);
		if (capturing) {
			int w = f->out == 'y' ? 8 : 4;
			write_u(of.f, strlen(f->line), 2);
			fwrite(f->line, 1, strlen(f->line), of.f);
			write_u(of.f, s2 ? 0 : n, 4); /* a form the GPU did not run: none */
			write_u(of.f, (uint64_t)w, 4);
			write_u(of.f, hash, 8);
			for (size_t k = 0; !s2 && k < n; k++)
				write_u(of.f, yg[k] & out_mask(f), w);
		}
		fflush(stdout);
		for (int k = 0; k < 3; k++)
			free(abc[k]);
		free(ys);
		free(yg);
	}
	if (capturing && (s = ub_outfile_commit(&of, err)))
		goto done;
	printf("selftest --insns: %d forms; exact: %d, %d differ%s; measured: %d, %d differ%s; "
	       "modelled: %d, %d differ; %d not run\n", nforms, t.exact, t.exact_bad,
	       t.exact_bad ? " BUG" : "", t.measured, t.measured_bad,
	       t.measured_bad ? " BUG" : "", t.modelled, t.modelled_bad, t.failed);
	if (t.exact_bad + t.measured_bad)
		s = ub_fail(err, UB_EXPECT_FAILED, "selftest --insns: %d exact instruction "
			    "forms differ from the %s", t.exact_bad + t.measured_bad,
			    caps ? "capture" : "GPU");
	else if (t.failed)
		s = ub_fail(err, UB_RUNTIME, "selftest --insns: %d forms could not be "
			    "compared", t.failed);
done:
	for (int k = 0; k < ncaps; k++)
		free(caps[k].out);
	free(caps);
	return s;
}
