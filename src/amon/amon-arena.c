/* amon-arena.c — chunks of 64 KiB, each twice the one before up to
 * 8 MiB (or as large as a block needs), populated when mapped, bump
 * allocation. */
#define _GNU_SOURCE 1

#include "amon-arena.h"

#include <sys/mman.h>

#define CHUNK_MIN ((size_t) 64 * 1024)
/* Chunks double up to this: yaml-cpp 0.7's tests make 514,000 contexts
 * in some 80 MB, which took 1,200 chunks of 64 KiB, each mapped on the
 * hooks' slow way (amon_machine_make_plain maps nothing).  Not advised
 * onto huge pages as the machine's tables are: its 2 MiB pages, each
 * zeroed at its first touch, made that run slower (1.08 s against
 * 0.86 s), where the tables' random look-ups gain; so did they populated
 * when mapped (MADV_HUGEPAGE, then MADV_POPULATE_WRITE: 0.65 s against
 * 0.62 s with the sampling clock, best of 7 interleaved). */
#define CHUNK_MAX ((size_t) 8 * 1024 * 1024)

struct amon_chunk {
  amon_chunk *next;
  size_t size; /* of the whole mapping */
};

AMON_FN static void *
map_flags (size_t size, uint64_t *bytes, uint64_t limit, int flags)
{
  if (size == 0 || (limit != 0 && (size > limit || *bytes > limit - size)))
    return NULL;
  void *p = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | flags, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  *bytes += size;
  return p;
}

AMON_FN void *
amon_map (size_t size, uint64_t *bytes, uint64_t limit)
{
  return map_flags (size, bytes, limit, 0);
}

AMON_FN void
amon_unmap (void *p, size_t size, uint64_t *bytes)
{
  if (p == NULL)
    return;
  munmap (p, size);
  *bytes -= size;
}

AMON_FN void
amon_arena_init (amon_arena *a, uint64_t *bytes, uint64_t limit)
{
  a->chunks = NULL;
  a->next = a->end = NULL;
  a->bytes = bytes;
  a->limit = limit;
}

AMON_FN void *
amon_arena_alloc_aligned (amon_arena *a, size_t size, size_t align)
{
  size = (size + 7) & ~(size_t) 7;
  size_t pad = (align - ((uintptr_t) a->next & (align - 1))) & (align - 1);
  if (a->next == NULL || (size_t) (a->end - a->next) < size + pad)
    {
      size_t want = (size + align + sizeof (amon_chunk) + 4095) & ~(size_t) 4095;
      size_t least = want < CHUNK_MIN ? CHUNK_MIN : want;
      size_t chunk = a->chunks == NULL ? CHUNK_MIN : a->chunks->size >= CHUNK_MAX / 2 ? CHUNK_MAX : a->chunks->size * 2;
      chunk = chunk < least ? least : chunk;
      /* populated now, in one system call, where each of its pages
       * was a fault as contexts filled it (yaml-cpp 0.7's tests: 80 MB
       * of contexts, the kernel's fault path some 4% of the run); the
       * chunks double, so what is populated and not yet used is at
       * most what is */
      amon_chunk *c = map_flags (chunk, a->bytes, a->limit, MAP_POPULATE);
      if (c == NULL && chunk > least)
        {
          /* near the limit: only what the block needs */
          chunk = least;
          c = map_flags (chunk, a->bytes, a->limit, MAP_POPULATE);
        }
      if (c == NULL)
        return NULL;
      c->next = a->chunks;
      c->size = chunk;
      a->chunks = c;
      a->next = (char *) c + ((sizeof (amon_chunk) + 7) & ~(size_t) 7);
      a->end = (char *) c + chunk;
      pad = (align - ((uintptr_t) a->next & (align - 1))) & (align - 1);
    }
  a->next += pad;
  void *p = a->next;
  a->next += size;
  return p; /* fresh mappings are zero */
}

AMON_FN void
amon_arena_release (amon_arena *a)
{
  while (a->chunks)
    {
      amon_chunk *c = a->chunks;
      a->chunks = c->next;
      amon_unmap (c, c->size, a->bytes);
    }
  a->next = a->end = NULL;
}

AMON_FN void *
amon_arena_alloc (amon_arena *a, size_t size)
{
  return amon_arena_alloc_aligned (a, size, 8);
}
