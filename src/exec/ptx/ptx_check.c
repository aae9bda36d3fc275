/* ptx_check.c — initcheck and racecheck of a launch (ptx_check.h). */
#include "ptx_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define W 32
#define NO_THREAD 0xffffu

enum { RAW, WAR, WAW };
static const char *const kind_name[] = { "read after write", "write after read",
					  "write after write" };

static unsigned log2_of(unsigned v)
{
	unsigned s = 0;
	while ((1u << s) < v && s < 6)
		s++;
	return (1u << s) == v ? s : 0;
}

static int shadow_alloc(struct ptx_shadow *s, uint64_t lo, uint64_t size,
			unsigned shift, int start, int race)
{
	size_t n = (size_t)((size + (1u << shift) - 1) >> shift);
	s->lo = lo;
	s->size = size;
	s->shift = shift;
	s->init = malloc(n + 1);
	s->rec = race ? calloc(n + 1, sizeof *s->rec) : NULL;
	if (!s->init || (race && !s->rec))
		return -1;
	memset(s->init, start, n + 1);
	return 0;
}

int ptx_chk_init(struct ptx_chk *k, const struct ptx_module *m,
		 const struct ptx_func *f, const struct ptx_launch *l,
		 const struct ptx_bufcheck *bc, uint64_t shared_size,
		 size_t local_size)
{
	static const struct ptx_bufcheck held = { 0, 0, 1, NULL };
	memset(k, 0, sizeof *k);
	k->f = f;
	k->m = m;
	k->nthreads = l->block[0] * l->block[1] * l->block[2];
	memcpy(k->bdim, l->block, sizeof k->bdim);
	for (int i = 0; i < l->nbufs && k->nbufs < PTX_CHK_MAX_BUFS; i++) {
		const struct ptx_buffer *b = &l->bufs[i];
		if (!b->writable)
			continue;
		const struct ptx_bufcheck *c = bc ? &bc[i] : &held;
		unsigned shift = log2_of(c->elem ? c->elem : 1);
		struct ptx_shadow *s = &k->bufs[k->nbufs++];
		s->buf = b;
		s->bc = c;
		if (shadow_alloc(s, (uint64_t)(uintptr_t)b->base, b->size, shift,
				 c->fresh ? 0 : PTX_INIT_READABLE, 1))
			return -1;
	}
	k->local_size = local_size;
	k->local_init = malloc((size_t)k->nthreads * local_size + 1);
	size_t nw = (k->nthreads + W - 1) / W;
	k->vc = malloc(nw * W * W * sizeof *k->vc);
	k->vc_live = calloc(nw, 1);
	if (!k->local_init || !k->vc || !k->vc_live ||
	    shadow_alloc(&k->shared, 0, shared_size, 0, 0, 1))
		return -1;
	return 0;
}

void ptx_chk_free(struct ptx_chk *k)
{
	for (int i = 0; i < k->nbufs; i++) {
		free(k->bufs[i].init);
		free(k->bufs[i].rec);
	}
	free(k->shared.init);
	free(k->shared.rec);
	free(k->local_init);
	free(k->vc);
	free(k->vc_live);
}

/* A new epoch; at the wrap of the counter every record is forgotten (an
 * old epoch must never equal a new one). */
static void next_epoch(struct ptx_chk *k)
{
	if (++k->epoch)
		return;
	for (int i = 0; i < k->nbufs; i++)
		memset(k->bufs[i].rec, 0, (size_t)(k->bufs[i].size >> k->bufs[i].shift) *
		       sizeof *k->bufs[i].rec);
	memset(k->shared.rec, 0, (size_t)k->shared.size * sizeof *k->shared.rec);
	k->epoch = 1;
}

void ptx_chk_block(struct ptx_chk *k, const unsigned *blk)
{
	if (k->off)
		return;
	memcpy(k->blk, blk, sizeof k->blk);
	memset(k->shared.init, 0, (size_t)k->shared.size);
	memset(k->local_init, 0, (size_t)k->nthreads * k->local_size);
	memset(k->vc_live, 0, (k->nthreads + W - 1) / W);
	next_epoch(k);
}

void ptx_chk_barrier(struct ptx_chk *k)
{
	if (k->off)
		return;
	next_epoch(k);
}

/* Warp wi's clocks: lane l's view of lane j's clock at vc[l * W + j]. */
static uint32_t *clocks(struct ptx_chk *k, unsigned wi)
{
	uint32_t *c = k->vc + (size_t)wi * W * W;
	if (!k->vc_live[wi]) {   /* a fresh start: each lane at 1, knowing 0 */
		memset(c, 0, W * W * sizeof *c);
		for (unsigned l = 0; l < W; l++)
			c[l * W + l] = 1;
		k->vc_live[wi] = 1;
	}
	return c;
}

void ptx_chk_syncwarp(struct ptx_chk *k, unsigned wi, uint32_t mask)
{
	if (k->off)
		return;
	uint32_t *c = clocks(k, wi), j[W] = { 0 };
	for (uint32_t m = mask; m; m &= m - 1)
		for (unsigned x = 0, l = (unsigned)__builtin_ctz(m); x < W; x++)
			j[x] = c[l * W + x] > j[x] ? c[l * W + x] : j[x];
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		memcpy(c + l * W, j, sizeof j);
		c[l * W + l]++;
	}
}

/* Thread t's own clock. */
static uint32_t clock_of(const struct ptx_chk *k, unsigned t)
{
	unsigned wi = t / W, l = t % W;
	return k->vc_live[wi] ? k->vc[((size_t)wi * W + l) * W + l] : 1;
}

/* Whether thread a's access at its clock ca is ordered before what
 * thread b does now (same epoch). */
static int ordered(const struct ptx_chk *k, unsigned a, uint32_t ca, unsigned b)
{
	if (a == b)
		return 1;
	if (a / W != b / W || !k->vc_live[a / W])
		return 0;
	return k->vc[((size_t)(b / W) * W + b % W) * W + a % W] >= ca;
}

/* "line 40 (k.cu:12)" for instruction pc. */
static const char *where(const struct ptx_chk *k, uint32_t pc, char *buf, size_t len)
{
	char src[160];
	if (ptx_src_line(k->f, pc, src, sizeof src))
		snprintf(buf, len, "%s at line %u (%s)", k->f->text[pc], k->f->lines[pc], src);
	else
		snprintf(buf, len, "%s at line %u", k->f->text[pc], k->f->lines[pc]);
	return buf;
}

static void thread_text(const struct ptx_chk *k, unsigned t, char *buf, size_t len)
{
	snprintf(buf, len, "%u,%u,%u", t % k->bdim[0], t / k->bdim[0] % k->bdim[1],
		 t / k->bdim[0] / k->bdim[1]);
}

/* A __shared__ variable's name as the source wrote it: the last name of
 * a mangled "_ZZ...E<len><name>", else the PTX name. */
static const char *plain_name(const char *n, char *buf, size_t len)
{
	const char *e = strrchr(n, 'E');
	if (strncmp(n, "_ZZ", 3) || !e || e[1] < '1' || e[1] > '9')
		return n;
	char *end;
	unsigned long l = strtoul(e + 1, &end, 10);
	snprintf(buf, len, "%.*s", (int)(l < len ? l : len - 1), end);
	return strlen(end) >= l ? buf : n;
}

/* What granule g of s is: "element 7 of output 'out'", "byte 0x404 of
 * .shared memory (element 1 of __shared__ 'tile', 4 bytes each)". */
static void what_of(const struct ptx_chk *k, const struct ptx_shadow *s,
		    uint64_t off, uint64_t n, char *buf, size_t len)
{
	char nm[128];
	if (s->buf) {
		snprintf(buf, len, "element %" PRIu64 " of %s", off >> s->shift,
			 s->buf->name ? s->buf->name : "a buffer");
		return;
	}
	for (int v = 0; v < k->m->nsvars; v++) {
		const struct ptx_svar *sv = &k->m->svars[v];
		if (off - sv->off < sv->size) {
			snprintf(buf, len, "element %" PRIu64 " of __shared__ '%s' (%" PRIu64
				 " bytes each; byte 0x%" PRIx64 " of .shared memory)",
				 (off - sv->off) / n, plain_name(sv->name, nm, sizeof nm), n, off);
			return;
		}
	}
	snprintf(buf, len, "byte 0x%" PRIx64 " of the block's .shared memory%s", off,
		 off >= k->m->shared_static ? " (its dynamic part)" : "");
}

static void hazard(struct ptx_chk *k, const struct ptx_shadow *s, uint64_t off,
		   uint64_t n, int kind, unsigned t1, uint32_t pc1, unsigned t2,
		   uint32_t pc2)
{
	for (int i = 0; i < k->nseen; i++)
		if (k->seen[i].pc1 == pc1 && k->seen[i].pc2 == pc2 && k->seen[i].kind == kind)
			return;
	if (k->nseen == PTX_CHK_MAX_PAIRS)   /* counted up to there */
		return;
	k->seen[k->nseen++] = (struct ptx_hazard_key){ pc1, pc2, kind };
	if (k->hazards++)
		return;
	char what[300], w1[200], w2[200], a[40], b[40];
	what_of(k, s, off, n, what, sizeof what);
	thread_text(k, t1, a, sizeof a);
	thread_text(k, t2, b, sizeof b);
	snprintf(k->first, sizeof k->first, "%s hazard on %s: thread %s %s by %s, then "
		 "thread %s %s by %s, in block %u,%u,%u with no barrier (__syncthreads, "
		 "__syncwarp) between them", kind_name[kind], what, a,
		 kind == WAR ? "read it" : "wrote it", where(k, pc1, w1, sizeof w1), b,
		 kind == RAW ? "read it" : "wrote it", where(k, pc2, w2, sizeof w2),
		 k->blk[0], k->blk[1], k->blk[2]);
}

/* The race check of one granule g (at byte offset off of s). */
static void race(struct ptx_chk *k, const struct ptx_shadow *s, size_t g,
		 uint64_t off, uint64_t n, int write, unsigned t, uint32_t pc)
{
	struct ptx_rec *r = &s->rec[g];
	uint32_t ep = k->epoch, clk = clock_of(k, t);
	if (r->wep == ep && !ordered(k, r->wt, r->wclk, t))
		hazard(k, s, off, n, write ? WAW : RAW, r->wt, r->wpc, t, pc);
	if (write) {
		for (int i = 0; r->rep == ep && i < 2; i++)
			if (r->rt[i] != NO_THREAD && !ordered(k, r->rt[i], r->rclk[i], t))
				hazard(k, s, off, n, WAR, r->rt[i], r->rpc[i], t, pc);
		*r = (struct ptx_rec){ .wep = ep, .wclk = clk, .wpc = pc, .wt = (uint16_t)t,
				       .rt = { NO_THREAD, NO_THREAD } };
		return;
	}
	int i = r->rep != ep ? 0 : r->rt[0] == t ? 0 : 1;
	if (r->rep != ep) {
		r->rep = ep;
		r->rt[1] = NO_THREAD;
	}
	r->rt[i] = (uint16_t)t;
	r->rclk[i] = clk;
	r->rpc[i] = pc;
}

/* The initcheck failure of a read of granule off of s. */
static int unwritten(struct ptx_chk *k, const struct ptx_shadow *s, uint64_t off,
		     uint64_t n, uint32_t pc)
{
	char what[300], w[200];
	what_of(k, s, off, n, what, sizeof what);
	const char *hint = s->buf ? (s->bc->hint ? s->bc->hint : "")
			   : ": .shared memory starts uninitialized on a GPU (write it "
			     "before any thread reads it, and __syncthreads() between)";
	snprintf(k->msg, sizeof k->msg, "%s reads %s, which nothing wrote before%s%s",
		 where(k, pc, w, sizeof w), what, s->buf && hint[0] ? ": " : "", hint);
	return UB_RUNTIME;
}

/* An access of [off, off + n) in s (offsets from s->lo). */
static int access(struct ptx_chk *k, const struct ptx_shadow *s, uint64_t off,
		  uint64_t n, int kind, unsigned t, uint32_t pc, int changes)
{
	size_t g0 = (size_t)(off >> s->shift), g1 = (size_t)((off + n - 1) >> s->shift);
	for (size_t g = g0; g <= g1; g++) {
		if (kind != PTX_CHK_WRITE && !(s->init[g] & PTX_INIT_READABLE))
			return unwritten(k, s, g << s->shift, n, pc);
		if (kind != PTX_CHK_READ)
			s->init[g] = PTX_INIT_READABLE | PTX_INIT_WRITTEN;
		if (s->rec && kind != PTX_CHK_ATOM && (kind == PTX_CHK_READ || changes))
			race(k, s, g, (uint64_t)g << s->shift, n, kind == PTX_CHK_WRITE, t, pc);
	}
	return 0;
}

int ptx_chk_global(struct ptx_chk *k, uint64_t a, uint64_t n, int kind,
		   unsigned t, uint32_t pc, const void *p)
{
	if (k->off)
		return 0;
	for (int i = 0; i < k->nbufs; i++) {
		const struct ptx_shadow *s = &k->bufs[i];
		if (a - s->lo >= s->size)
			continue;
		int changes = kind == PTX_CHK_WRITE && memcmp((const void *)(uintptr_t)a, p, n);
		return access(k, s, a - s->lo, n, kind, t, pc, changes);
	}
	return 0;
}

int ptx_chk_shared(struct ptx_chk *k, uint64_t off, uint64_t n, int kind,
		   unsigned t, uint32_t pc, const void *p, const void *mem)
{
	if (k->off)
		return 0;
	int changes = kind == PTX_CHK_WRITE && memcmp(mem, p, n);
	return access(k, &k->shared, off, n, kind, t, pc, changes);
}

int ptx_chk_local(struct ptx_chk *k, uint64_t off, uint64_t n, int kind,
		  unsigned t, uint32_t pc)
{
	if (k->off)
		return 0;
	uint8_t *init = k->local_init + (size_t)t * k->local_size;
	for (uint64_t i = off; i < off + n; i++) {
		if (kind != PTX_CHK_WRITE && !init[i]) {
			char w[200];
			snprintf(k->msg, sizeof k->msg, "%s reads byte 0x%" PRIx64 " of the "
				 "thread's .local memory (a local array or a spilled "
				 "variable), which it never wrote: .local memory starts "
				 "uninitialized", where(k, pc, w, sizeof w), i);
			return UB_RUNTIME;
		}
		init[i] = 1;
	}
	return 0;
}

size_t ptx_chk_unwritten(const struct ptx_chk *k, const struct ptx_buffer *b,
			 size_t *first)
{
	size_t count = 0;
	*first = SIZE_MAX;
	for (int i = 0; i < k->nbufs; i++) {
		const struct ptx_shadow *s = &k->bufs[i];
		size_t n = (size_t)(s->size >> s->shift);
		for (size_t g = 0; s->buf == b && g < n; g++)
			if (!(s->init[g] & PTX_INIT_WRITTEN)) {
				*first = count++ ? *first : g;
			}
	}
	return count;
}
