/* stream.h — the pipeline in chunks, on several threads (run.h's ub_run
 * when cfg->stream is set).
 *
 * Every kernel (the torch plan's steps, each mode) is compiled and parsed
 * once; then the elements are cut into chunks of UB_STATS_CHUNK (metrics.h)
 * that cfg->threads threads take in turn: each makes its chunk's inputs
 * (samples: inputs.h's ub_inputs_generate_at; --exhaustive: the sweep; .npy
 * files: the chunk's elements, read with pread from the files opened and
 * checked once), evaluates the reference, runs
 * the torch plan and each mode, and keeps only that chunk's statistics and
 * worst inputs (--shard K/N: only the chunks c with c mod N = K).  The
 * statistics are merged in chunk order at the end, so
 * every figure, the worst input and the CSV are the same for any number of
 * threads, and the same as the whole-array path's.  Memory: a few MiB per
 * thread plus about 200 bytes per chunk and row (54 MiB for 2^32 inputs and
 * four rows), whatever the number of elements. */
#ifndef UB_STREAM_H
#define UB_STREAM_H

#include "result.h"

/* Runs dtype d->dt of res->cfg (src: the kernel file's source, NULL for
 * a generated kernel) and appends its rows to res; d gets dt, nin and
 * shape but no arrays. */
int ub_stream_dtype(struct ub_result *res, struct ub_data *d,
		    const char *src, struct ub_error *err);

/* cfg->threads, or the online CPUs when 0 (at least 1). */
int ub_stream_threads(const struct ub_config *cfg);

#endif
