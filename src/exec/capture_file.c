/* capture_file.c — write and read capture-approx files (capture_file.h;
 * layout in docs/approx-capture.md).  All numbers little-endian. */
#include "capture_file.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NAME_LEN 32
#define NO_BASE 0xffffffffu
#define TABLE_HEADER (NAME_LEN + 4 + 4 + 8 + 4 + 8 + 8)

void ub_sweep_inputs(enum ub_capture_sweep kind, int bits, uint64_t param,
		     uint32_t count, uint32_t *in)
{
	for (uint32_t i = 0; i < count; i++) {
		if (kind == UB_SWEEP_MANTISSA) {
			in[i] = (uint32_t)param << 23 | i << (23 - bits);
			continue;
		}
		if (kind == UB_SWEEP_TURNS || kind == UB_SWEEP_ALL16) {
			in[i] = (uint32_t)param + i;
			continue;
		}
		/* splitmix64 (Steele, Lea, Flood 2014): output number i+1 */
		uint64_t z = param + (uint64_t)(i + 1) * UINT64_C(0x9e3779b97f4a7c15);
		z = (z ^ z >> 30) * UINT64_C(0xbf58476d1ce4e5b9);
		z = (z ^ z >> 27) * UINT64_C(0x94d049bb133111eb);
		in[i] = (uint32_t)(z ^ z >> 31);
	}
}

const char *ub_sweep_describe(const struct ub_capture_table *t, char *buf,
			      size_t len)
{
	int sign = (int)(t->param >> 8 & 1), e = (int)(t->param & 0xff);
	if (t->kind == UB_SWEEP_MANTISSA && e == 0)
		snprintf(buf, len, "%ssubnormals", sign ? "-" : "");
	else if (t->kind == UB_SWEEP_MANTISSA)
		snprintf(buf, len, "mantissas of %s[2^%d, 2^%d)", sign ? "-" : "",
			 e - 127, e - 126);
	else if (t->kind == UB_SWEEP_RANDOM)
		snprintf(buf, len, "random, seed %llu", (unsigned long long)t->param);
	else if (t->kind == UB_SWEEP_TURNS)
		snprintf(buf, len, "turns %llu.. of 2^%d", (unsigned long long)t->param,
			 t->bits);
	else if (t->kind == UB_SWEEP_ALL16)
		snprintf(buf, len, "all 2^16 inputs");
	else
		snprintf(buf, len, "list");
	return buf;
}

uint32_t ub_capture_predict(const struct ub_capture_table *t, uint32_t i, uint32_t in)
{
	if (t->kind == UB_SWEEP_TURNS)
		return ub_approx_predict_at(ub_approx[t->insn].fn,
					    (double)(t->param + i) / (double)(UINT64_C(1) << t->bits));
	return ub_approx_predict(t->insn, in);
}

int ub_capture_add(struct ub_capture *c, const struct ub_capture_table *t,
		   struct ub_error *err)
{
	struct ub_capture_table *nt = realloc(c->tables, (size_t)(c->ntables + 1) * sizeof *nt);
	if (!nt) {
		free(t->in);
		free(t->out);
		return ub_fail(err, UB_RUNTIME, "out of memory");
	}
	c->tables = nt;
	c->tables[c->ntables++] = *t;
	return 0;
}

void ub_capture_free(struct ub_capture *c)
{
	for (int i = 0; i < c->ntables; i++) {
		free(c->tables[i].in);
		free(c->tables[i].out);
	}
	free(c->tables);
	memset(c, 0, sizeof *c);
}

uint64_t ub_capture_hash(const uint32_t *v, uint32_t n)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	for (uint32_t i = 0; i < n; i++)
		for (int b = 0; b < 4; b++)
			h = (h ^ (v[i] >> (8 * b) & 0xff)) * UINT64_C(0x100000001b3);
	return h;
}

static void put_le(struct ub_bytes *b, uint64_t v, int nbytes)
{
	unsigned char buf[8];
	ub_le_set(buf, v, nbytes);
	ub_bytes_put(b, buf, (size_t)nbytes);
}

/* The last earlier table over the same inputs of an instruction of the
 * same function (the .ftz form for a plain one), or -1. */
static int find_base(const struct ub_capture *c, int k)
{
	const struct ub_capture_table *t = &c->tables[k];
	for (int j = k - 1; j >= 0; j--) {
		const struct ub_capture_table *b = &c->tables[j];
		if (ub_approx[b->insn].fn == ub_approx[t->insn].fn && b->kind == t->kind &&
		    b->bits == t->bits && b->param == t->param && b->count == t->count &&
		    memcmp(b->in, t->in, (size_t)t->count * 4) == 0)
			return j;
	}
	return -1;
}

/* How far the outputs are from the predictor. */
static void stats(struct ub_capture_table *t, const uint32_t *model)
{
	t->differ = 0;
	t->max_dist = 0;
	for (uint32_t i = 0; i < t->count; i++) {
		int64_t d = ub_ord32(t->out[i]) - ub_ord32(model[i]);
		t->differ += d != 0;
		if (d < 0)
			d = -d;
		if (d > t->max_dist)
			t->max_dist = d;
	}
}

/* Codes table k every way it may be stored and keeps the smallest in best. */
static int code_table(struct ub_capture *c, int k, struct ub_bytes *best)
{
	struct ub_capture_table *t = &c->tables[k];
	uint32_t *model = malloc((size_t)t->count * 4 + 4);
	if (!model)
		return -1;
	for (uint32_t i = 0; i < t->count; i++)
		model[i] = ub_capture_predict(t, i, t->in[i]);
	stats(t, model);
	t->hash = ub_capture_hash(t->out, t->count);
	int base = find_base(c, k);
	const uint32_t *preds[2] = {model, base >= 0 ? c->tables[base].out : NULL};
	int same = base >= 0 && !memcmp(preds[1], t->out, (size_t)t->count * 4);
	int s = 0;
	for (int p = same ? 1 : 0; !s && p < (base >= 0 ? 2 : 1); p++)
		for (int coding = 0; !s && coding < (same ? 1 : 2); coding++) {
			struct ub_bytes b = {0};
			s = ub_code_encode(t->out, preds[p], t->count, (enum ub_coding)coding, &b);
			if (!s && (!best->p || b.len < best->len)) {
				ub_bytes_free(best);
				*best = b;
				t->pred = p ? UB_PRED_TABLE : UB_PRED_MODEL;
				t->coding = (enum ub_coding)coding;
				t->base = p ? base : -1;
			} else {
				ub_bytes_free(&b);
			}
		}
	free(model);
	return s;
}

/* Writes table k, coded in code. */
static int write_table(FILE *f, struct ub_capture *c, int k,
		       const struct ub_bytes *code, struct ub_error *err)
{
	struct ub_capture_table *t = &c->tables[k];
	struct ub_bytes head = {0};
	char name[NAME_LEN] = {0};
	t->bytes = code->len;
	snprintf(name, sizeof name, "%s", ub_approx[t->insn].ptx);
	ub_bytes_put(&head, name, NAME_LEN);
	put_le(&head, (uint64_t)t->kind | (uint64_t)t->pred << 8 |
	       (uint64_t)t->coding << 16 | (uint64_t)t->bits << 24, 4);
	put_le(&head, t->count, 4);
	put_le(&head, t->param, 8);
	put_le(&head, t->pred == UB_PRED_TABLE ? (uint32_t)t->base : NO_BASE, 4);
	put_le(&head, t->hash, 8);
	put_le(&head, (t->kind == UB_SWEEP_LIST ? 4 * (uint64_t)t->count : 0) + code->len, 8);
	if (t->kind == UB_SWEEP_LIST)
		for (uint32_t i = 0; i < t->count; i++)
			put_le(&head, t->in[i], 4);
	int bad = head.oom || fwrite(head.p, 1, head.len, f) != head.len ||
		  fwrite(code->p, 1, code->len, f) != code->len;
	ub_bytes_free(&head);
	return bad ? ub_fail(err, UB_IO, "cannot write: %s", strerror(errno)) : 0;
}

/* Tables coded by worker threads, each taking the next table not taken. */
struct coding {
	struct ub_capture *c;
	struct ub_bytes *codes;
	int next, failed;
	pthread_mutex_t lock;
};

static void *worker(void *arg)
{
	struct coding *w = arg;
	for (;;) {
		pthread_mutex_lock(&w->lock);
		int k = w->next++;
		pthread_mutex_unlock(&w->lock);
		if (k >= w->c->ntables)
			return NULL;
		if (code_table(w->c, k, &w->codes[k])) {
			pthread_mutex_lock(&w->lock);
			w->failed = 1;
			pthread_mutex_unlock(&w->lock);
		}
	}
}

/* Codes every table, on as many threads as there are CPUs (16 at most). */
static int code_all(struct coding *w)
{
	enum { MAX_THREADS = 16 };
	pthread_t th[MAX_THREADS];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int n = cpus < 1 ? 1 : cpus > MAX_THREADS ? MAX_THREADS : (int)cpus, started = 0;
	if (n > w->c->ntables)
		n = w->c->ntables;
	pthread_mutex_init(&w->lock, NULL);
	for (int i = 0; i < n; i++)
		started += pthread_create(&th[started], NULL, worker, w) == 0;
	if (!started) /* no threads: code them here */
		worker(w);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&w->lock);
	return w->failed ? -1 : 0;
}

int ub_capture_write(FILE *f, struct ub_capture *c, struct ub_error *err)
{
	struct ub_bytes head = {0};
	struct coding w = {.c = c, .codes = calloc((size_t)c->ntables + 1, sizeof *w.codes)};
	size_t infolen = strlen(c->info);
	int s = 0;
	if (!w.codes || code_all(&w))
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	ub_bytes_put(&head, UB_CAPTURE_MAGIC, 8);
	put_le(&head, UB_CAPTURE_VERSION, 4);
	put_le(&head, (uint64_t)c->ntables, 4);
	put_le(&head, infolen, 4);
	ub_bytes_put(&head, c->info, infolen);
	if (!s && (head.oom || fwrite(head.p, 1, head.len, f) != head.len))
		s = ub_fail(err, UB_IO, "cannot write: %s", strerror(errno));
	ub_bytes_free(&head);
	for (int k = 0; !s && k < c->ntables; k++)
		s = write_table(f, c, k, &w.codes[k], err);
	for (int k = 0; w.codes && k < c->ntables; k++)
		ub_bytes_free(&w.codes[k]);
	free(w.codes);
	return s;
}

/* ----- reading ----- */

struct reader {
	const unsigned char *p, *end;
	const char *path;
};

static int need(struct reader *r, uint64_t n, const char *what, struct ub_error *err)
{
	if ((uint64_t)(r->end - r->p) < n)
		return ub_fail(err, UB_USAGE, "%s: truncated (%s)", r->path, what);
	return 0;
}

static uint64_t get_le(struct reader *r, int nbytes)
{
	uint64_t v = ub_le_get(r->p, nbytes);
	r->p += nbytes;
	return v;
}

/* The fixed part of table k's header, checked. */
static int read_head(struct reader *r, struct ub_capture *c, int k,
		     struct ub_capture_table *t, uint64_t *size, struct ub_error *err)
{
	char name[NAME_LEN + 1] = {0};
	int s = need(r, TABLE_HEADER, "table header", err);
	if (s)
		return s;
	memcpy(name, r->p, NAME_LEN);
	r->p += NAME_LEN;
	int insn = ub_approx_find(name);
	uint64_t kinds = get_le(r, 4);
	t->kind = (enum ub_capture_sweep)(kinds & 0xff);
	t->pred = (enum ub_pred)(kinds >> 8 & 0xff);
	t->coding = (enum ub_coding)(kinds >> 16 & 0xff);
	t->bits = (int)(kinds >> 24);
	t->count = (uint32_t)get_le(r, 4);
	t->param = get_le(r, 8);
	uint32_t base = (uint32_t)get_le(r, 4);
	t->hash = get_le(r, 8);
	*size = get_le(r, 8);
	t->base = t->pred == UB_PRED_TABLE ? (int)base : -1;
	int fmt = insn < 0 ? 0 : ub_approx[insn].fmt;
	if (insn < 0 || t->kind > UB_SWEEP_ALL16 || t->pred > UB_PRED_TABLE ||
	    t->coding > UB_CODE_DELTA || t->count > UB_CAPTURE_MAX ||
	    (fmt == 32) != (t->kind != UB_SWEEP_ALL16) ||
	    (t->kind == UB_SWEEP_MANTISSA &&
	    (t->bits < 1 || t->bits > 23 || t->count != 1u << t->bits || t->param > 511)) ||
	    (t->kind == UB_SWEEP_TURNS &&
	    (t->bits < 1 || t->bits > 31 || (ub_approx[insn].fn != UB_AF_SIN &&
	     ub_approx[insn].fn != UB_AF_COS) || t->param + t->count > UINT64_C(1) << t->bits)) ||
	    (t->kind == UB_SWEEP_ALL16 && (t->count != 65536 || t->param != 0)) ||
	    (t->pred == UB_PRED_TABLE && (base >= (uint32_t)k ||
	     c->tables[base].count != t->count)))
		return ub_fail(err, UB_USAGE, "%s: table %d: bad header (%.32s)",
			       r->path, k, name);
	t->insn = (enum ub_approx_insn)insn;
	return 0;
}

static int read_table(struct reader *r, struct ub_capture *c, int k,
		      struct ub_error *err)
{
	struct ub_capture_table t = {0};
	uint64_t size;
	int s = read_head(r, c, k, &t, &size, err);
	if (!s)
		s = need(r, size, "table data", err);
	if (!s && t.kind == UB_SWEEP_LIST && size < 4 * (uint64_t)t.count)
		s = ub_fail(err, UB_USAGE, "%s: table %d: list cut short", r->path, k);
	if (s)
		return s;
	t.in = malloc((size_t)t.count * 4 + 4);
	t.out = malloc((size_t)t.count * 4 + 4);
	uint32_t *model = malloc((size_t)t.count * 4 + 4);
	if (!t.in || !t.out || !model) {
		free(t.in);
		free(t.out);
		free(model);
		return ub_fail(err, UB_RUNTIME, "out of memory");
	}
	const unsigned char *data = r->p;
	if (t.kind == UB_SWEEP_LIST) {
		for (uint32_t i = 0; i < t.count; i++)
			t.in[i] = (uint32_t)get_le(r, 4);
		data = r->p;
		size -= 4 * (uint64_t)t.count;
	} else {
		ub_sweep_inputs(t.kind, t.bits, t.param, t.count, t.in);
	}
	for (uint32_t i = 0; i < t.count; i++)
		model[i] = ub_capture_predict(&t, i, t.in[i]);
	const uint32_t *pred = t.pred == UB_PRED_MODEL ? model :
			       t.pred == UB_PRED_TABLE ? c->tables[t.base].out : NULL;
	if (ub_code_decode(data, size, pred, t.count, t.coding, t.out) ||
	    ub_capture_hash(t.out, t.count) != t.hash)
		s = ub_fail(err, UB_USAGE, "%s: table %d (%s): corrupt data", r->path,
			    k, ub_approx[t.insn].ptx);
	else
		stats(&t, model);
	free(model);
	t.bytes = size;
	r->p = data + size;
	int a = ub_capture_add(c, &t, err);
	return s ? s : a;
}

static int parse(struct reader *r, struct ub_capture *c, struct ub_error *err)
{
	int s = need(r, 20, "header", err);
	if (!s && memcmp(r->p, UB_CAPTURE_MAGIC, 8) != 0)
		s = ub_fail(err, UB_USAGE, "%s: not a capture-approx file", r->path);
	if (s)
		return s;
	r->p += 8;
	uint64_t version = get_le(r, 4), ntables = get_le(r, 4), infolen = get_le(r, 4);
	if (version != UB_CAPTURE_VERSION && version != 1)
		return ub_fail(err, UB_USAGE, "%s: format version %llu, this ulpbench "
			       "reads %d", r->path, (unsigned long long)version,
			       UB_CAPTURE_VERSION);
	if (infolen >= sizeof c->info || (s = need(r, infolen, "info", err)))
		return s ? s : ub_fail(err, UB_USAGE, "%s: info too long", r->path);
	memcpy(c->info, r->p, infolen);
	c->info[infolen] = '\0';
	r->p += infolen;
	for (uint64_t k = 0; !s && k < ntables; k++)
		s = read_table(r, c, (int)k, err);
	if (!s && r->p != r->end)
		s = ub_fail(err, UB_USAGE, "%s: %zu bytes after the last table",
			    r->path, (size_t)(r->end - r->p));
	return s;
}

int ub_capture_read(const char *path, struct ub_capture *c, struct ub_error *err)
{
	memset(c, 0, sizeof *c);
	FILE *f = fopen(path, "rb");
	if (!f)
		return ub_fail(err, UB_USAGE, "%s: cannot read: %s", path, strerror(errno));
	struct ub_bytes b = {0};
	unsigned char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		ub_bytes_put(&b, buf, n);
	int bad = ferror(f) || b.oom;
	fclose(f);
	if (bad) {
		ub_bytes_free(&b);
		return ub_fail(err, UB_USAGE, "%s: cannot read", path);
	}
	if (!b.p) /* nothing read: no buffer, and no pointer to offset */
		return ub_fail(err, UB_USAGE, "%s: empty file", path);
	struct reader r = {b.p, b.p + b.len, path};
	int s = parse(&r, c, err);
	ub_bytes_free(&b);
	return s;
}
