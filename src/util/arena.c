/* arena.c — see arena.h. */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#define UB_ARENA_PER_PIECE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UB_ARENA_PER_PIECE 1
#endif
#endif

#define HUGE ((size_t)2 << 20)   /* a transparent huge page (x86-64, arm64) */

/* Each piece is followed by SKEW bytes: pieces of a power-of-two size
 * back to back would start at the same offset in every page and map the
 * same elements of every array to the same cache sets (huge pages are
 * contiguous in physical memory too), and a loop over a few such arrays
 * would evict its own lines.  17 cache lines: 16 pieces in a row start
 * at different offsets within a 4 KiB page. */
#define SKEW (17 * UB_ARENA_ALIGN)

size_t ub_arena_size(size_t n)
{
	return ((n + UB_ARENA_ALIGN - 1) & ~(size_t)(UB_ARENA_ALIGN - 1)) + SKEW;
}

int ub_arena_init(struct ub_arena *a, size_t cap)
{
	memset(a, 0, sizeof *a);
#ifdef UB_ARENA_PER_PIECE
	a->cap = cap;
	return 0;
#else
	/* whole huge pages, from a boundary of one: map one more, trim */
	size_t len = (cap + HUGE - 1) & ~(HUGE - 1);
	if (!len)
		len = HUGE;
	unsigned char *p = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	size_t lead = (HUGE - (uintptr_t)p % HUGE) % HUGE;
	if (lead)
		munmap(p, lead);
	if (HUGE - lead)
		munmap(p + lead + len, HUGE - lead);
	a->base = p + lead;
	a->len = len;
	a->cap = cap;
#ifdef MADV_HUGEPAGE
	(void)madvise(a->base, len, MADV_HUGEPAGE);   /* a hint: may be refused */
#endif
	return 0;
#endif
}

void *ub_arena_get(struct ub_arena *a, size_t n)
{
	size_t sz = ub_arena_size(n ? n : 1);
	if (sz > a->cap - a->used)
		return NULL;
#ifdef UB_ARENA_PER_PIECE
	size_t whole = sz - SKEW;   /* n rounded up to the alignment */
	void **list = realloc(a->piece, (a->n + 1) * sizeof *list);
	if (!list)
		return NULL;
	a->piece = list;
	void *p = aligned_alloc(UB_ARENA_ALIGN, whole);
	if (!p)
		return NULL;
	memset(p, 0, whole);
	a->piece[a->n] = p;
#else
	void *p = a->base + a->used;
#endif
	a->n++;
	a->used += sz;
	return p;
}

void ub_arena_free(struct ub_arena *a)
{
#ifdef UB_ARENA_PER_PIECE
	for (size_t i = 0; i < a->n; i++)
		free(a->piece[i]);
	free(a->piece);
#else
	if (a->base)
		munmap(a->base, a->len);
#endif
	memset(a, 0, sizeof *a);
}
