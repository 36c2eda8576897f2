/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A file mapped read-only, with what the parameter tiers need to know about it: whether the file
 * on disk is still the one mapped, how much of it the page cache holds, and a hint to read it in.
 * Parameter files are read through a mapping (no copy into a buffer), and a daemon keeps the
 * mapping of a set it evicted from memory (its WARM tier) so that loading it again reads no disk.
 */
#ifndef CUZK_FILE_MAP_H
#define CUZK_FILE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const uint8_t *data; /* NULL for an empty file or a closed map */
  size_t len;
  uint64_t dev, ino, mtime_ns; /* the file's identity when it was mapped */
} cuzk_file_map;

/* Maps a regular file (MAP_PRIVATE, read-only). false with errno set (ENOENT, EISDIR for a
 * non-regular file, ...); *m is then empty. */
bool cuzk_file_map_open(cuzk_file_map *m, const char *path);
/* Unmaps; *m becomes empty. A no-op on an empty map. */
void cuzk_file_map_close(cuzk_file_map *m);

/* true if path still names the mapped file, unchanged (device, inode, size, modification time):
 * a file replaced or rewritten since must be mapped afresh (a mapping of a file truncated in
 * place faults on access). */
bool cuzk_file_map_current(const cuzk_file_map *m, const char *path);

/* Bytes of the mapping in the page cache now (mincore), 0 for an empty map. */
size_t cuzk_file_map_resident(const cuzk_file_map *m);

/* Asks the kernel to read the whole file in (MADV_WILLNEED: asynchronous readahead). */
void cuzk_file_map_willneed(const cuzk_file_map *m);
/* Tells it the mapping will be read front to back once (MADV_SEQUENTIAL: larger readahead). */
void cuzk_file_map_sequential(const cuzk_file_map *m);

#ifdef __cplusplus
}
#endif
#endif
