/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A file's next bytes read into the page cache by a thread of their own while the caller
 * computes on the current ones (docs/groth16.md "Parameters read in place"). madvise and
 * posix_fadvise WILLNEED read at most the device's readahead size (8 MiB here) of what they are
 * asked, so a streamed MSM's next 96-192 MB chunk would otherwise come in by page faults, one
 * stall at a time, while the cores wait. The thread reads with pread into a 1 MiB buffer that
 * stays in cache (the kernel's sequential readahead runs ahead of it), so the pages land in the
 * page cache and never in this process's resident set.
 *
 * One pending request: a new one replaces it, and the thread leaves the old one at its next
 * step. The thread sleeps when there is nothing to read; it is an I/O thread, not a worker.
 */
#ifndef CUZK_UTIL_PREFETCH_H
#define CUZK_UTIL_PREFETCH_H

#include <stdint.h>

typedef struct cuzk_prefetch cuzk_prefetch;

/* Starts the thread over path's file, or NULL (out of memory, the file cannot be opened, or
 * it is not the file with this device and inode: the caller then reads without it). */
cuzk_prefetch *cuzk_prefetch_start(const char *path, uint64_t dev, uint64_t ino);
/* Asks for bytes [off, off + len) to be read in, replacing the pending request; never blocks on
 * I/O. */
void cuzk_prefetch_want(cuzk_prefetch *p, uint64_t off, uint64_t len);
/* Bytes read in since the start (for tests and logs). */
uint64_t cuzk_prefetch_bytes(const cuzk_prefetch *p);
/* Requests completed or replaced since the start: the thread has finished with request k once
 * this reaches k (the first want is request 1). */
uint64_t cuzk_prefetch_served(const cuzk_prefetch *p);
/* Stops the thread (its current step ends first) and frees p; NULL is a no-op. */
void cuzk_prefetch_stop(cuzk_prefetch *p);

#endif
