/* arena.h — one region for the buffers a worker thread keeps while it
 * runs (stream_chunk.c's: a chunk's inputs, reference, results and
 * statistics, a few MB), taken from the system at once and given back at
 * once.
 *
 * Each 4 KiB page of fresh memory costs a page fault when first touched,
 * a few microseconds each on some machines: a worker's ~1,100 of them
 * were most of the time of its first chunk.  The region asks for
 * transparent huge pages (madvise MADV_HUGEPAGE, 2 MiB each, where the
 * system gives them; on others the pages are the usual ones), so that a
 * worker faults a few times instead.  Memory is zeroed, as from calloc.
 *
 * Under AddressSanitizer every piece is its own allocation instead, so
 * that a run past one is still caught. */
#ifndef UB_ARENA_H
#define UB_ARENA_H

#include <stddef.h>

#define UB_ARENA_ALIGN 64    /* every piece starts at such a boundary */

struct ub_arena {
	unsigned char *base;     /* the mapping (NULL under ASan) */
	size_t len;              /* its bytes: cap in whole huge pages */
	size_t cap, used;        /* bytes it may hand out; handed out */
	size_t n;                /* pieces handed out */
	void **piece;            /* ASan's build: each one's allocation */
};

/* The bytes that n bytes take in an arena (n rounded up to the
 * alignment): what to add up for ub_arena_init's cap. */
size_t ub_arena_size(size_t n);
/* An arena of cap bytes (the sum of ub_arena_size of its pieces); 0, or
 * -1 when the system has no memory for it (*a then empty). */
int ub_arena_init(struct ub_arena *a, size_t cap);
/* n zeroed bytes of a, aligned; NULL when a has no room left (a caller
 * that sized cap from its pieces never sees it) or, under ASan, no
 * memory. */
void *ub_arena_get(struct ub_arena *a, size_t n);
/* Gives everything back; a is empty after (and may be freed again). */
void ub_arena_free(struct ub_arena *a);

#endif
