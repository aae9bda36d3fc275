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

#include <stdint.h>
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
/* The same, counted neither as a hit nor as a miss, and said nowhere
 * (NVRTC's cached version, nvrtc.c). */
char *ub_cache_peek(const char *path);
/* Stores ptx under path, atomically; failures are silent. */
void ub_cache_put(const char *path, const char *ptx);
/* Where to say, in one line each, which entries were discarded and why
 * (ulpbench -v: stderr); NULL (the default): nowhere. */
void ub_cache_notices(FILE *f);
/* What the cache of native code (src/exec/native/) shares with this one:
 * the directory into buf (0 when the cache is off or unknown); mkdir -p
 * of it; the whole file at path if it is a regular file (a FIFO, device
 * or symlink is never opened for reading: O_NONBLOCK, O_NOFOLLOW, then
 * fstat), else NULL with why (why NULL: no such file); writing n bytes
 * to fd (0 on success). */
int ub_cache_dir(char *buf, size_t len);
int ub_cache_mkdir(char *dir);
char *ub_cache_slurp(const char *path, size_t *len, const char **why);
int ub_cache_write_all(int fd, const char *p, size_t n);

/* Hits and misses so far (ULPBENCH_CACHE_DEBUG=1 prints them at exit). */
void ub_cache_counts(int *hits, int *misses);
/* Counts a lookup that read several entries (nvcc.c: the manifest, then
 * the PTX) as one hit or one miss after the counts h0, m0 it began at. */
void ub_cache_recount(int h0, int m0, int hit);

#endif
