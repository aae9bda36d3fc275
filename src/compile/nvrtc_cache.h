/* nvrtc_cache.h — NVRTC's output cached on disk, so that a second run
 * does not compile again.
 *
 * Directory: $XDG_CACHE_HOME/ulpbench, else ~/.cache/ulpbench; one file per
 * (source, name, options, architecture, NVRTC version, include
 * directories, kernels/ulpbench.h).  ULPBENCH_CACHE=0 (or off) turns it
 * off.  A missing, damaged (checksum), unreadable or non-regular entry is
 * a miss, never an error, and is compiled again; a cache that cannot be
 * written is no cache.  NVRTC's kernels include nothing but ulpbench.h
 * and the toolkit's headers; a --kernel file compiled by nvcc is checked
 * against every file its compilation read (nvcc.c). */
#ifndef UB_NVRTC_CACHE_H
#define UB_NVRTC_CACHE_H

#include <stdio.h>

#include "ub.h"

struct ub_cache_key {
	const char *src, *name, *opts, *arch, *version, *includes;
};

/* The entry's path into path; 0 when the cache is off. */
int ub_cache_path(const struct ub_cache_key *key, char *path, size_t len);
/* The same with another suffix than ".ptx" (".dep": what an nvcc
 * compilation read, nvcc.c). */
int ub_cache_path_ext(const struct ub_cache_key *key, const char *ext,
		      char *path, size_t len);
/* The cache's hash of n bytes, as 32 hex digits into hex. */
void ub_cache_hash(const char *data, size_t n, char hex[33]);
/* The cached PTX (malloc'd), or NULL: a miss. */
char *ub_cache_get(const char *path);
/* Stores ptx under path, atomically; failures are silent. */
void ub_cache_put(const char *path, const char *ptx);
/* Where to say, in one line each, which entries were discarded and why
 * (ulpbench -v: stderr); NULL (the default): nowhere. */
void ub_cache_notices(FILE *f);
/* Hits and misses so far (ULPBENCH_CACHE_DEBUG=1 prints them at exit). */
void ub_cache_counts(int *hits, int *misses);
/* Counts a lookup that read several entries (nvcc.c: the manifest, then
 * the PTX) as one hit or one miss after the counts h0, m0 it began at. */
void ub_cache_recount(int h0, int m0, int hit);

#endif
