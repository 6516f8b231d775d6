/* amon-arena.h — the runtime's memory: mmap, never malloc.
 *
 * The monitor must not call the host program's allocator (it may be
 * instrumented, or not reentrant at the point of a call), and what it
 * allocates must never move, so that the writer can read another thread's
 * contexts while that thread runs on.  An arena hands out 8-byte aligned
 * (or more) blocks from mmap'd chunks and frees them all at once; amon_map is for
 * tables that are replaced when they grow.  Every byte is counted against
 * the owner's limit.
 */
#ifndef AMON_ARENA_H
#define AMON_ARENA_H

#include "amon-private.h"

typedef struct amon_chunk amon_chunk;

typedef struct {
  amon_chunk *chunks;  /* most recent first */
  char *next, *end;    /* free space in the newest chunk */
  uint64_t *bytes;     /* the owner's counter of mapped bytes */
  uint64_t limit;      /* the owner's limit (0: none) */
} amon_arena;

void amon_arena_init (amon_arena *a, uint64_t *bytes, uint64_t limit) AMON_HIDDEN;
/* Zeroed block of @size bytes, or NULL when mmap fails or the limit is reached. */
void *amon_arena_alloc (amon_arena *a, size_t size) AMON_HIDDEN;
/* The same, starting at a multiple of @align (a power of two, at most
 * 4096): a context on a cache line of its own (amon-fsm.h). */
void *amon_arena_alloc_aligned (amon_arena *a, size_t size, size_t align) AMON_HIDDEN;
void amon_arena_release (amon_arena *a) AMON_HIDDEN;

/* Zeroed mapping of @size bytes counted in *@bytes, or NULL (mmap failed or
 * *@bytes + @size > @limit when @limit is not 0). */
void *amon_map (size_t size, uint64_t *bytes, uint64_t limit) AMON_HIDDEN;
void amon_unmap (void *p, size_t size, uint64_t *bytes) AMON_HIDDEN;

#endif
