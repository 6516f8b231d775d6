/* amon-write.c — global routine indexes, merged contexts, the file. */
#define _GNU_SOURCE 1

#include "amon-write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "amon-measure.h"
#include "amon-output.h"
#include "amon-symbols.h"

typedef struct merged merged;
struct merged {
  merged *next;  /* hash chain */
  merged *order; /* list in first-seen order */
  uint64_t time, entries, recursive;
  uint32_t hash, len;
  /* 1 + the index in the file of the context whose history is this
   * one's less its last entry, which alone is then written; 0: none */
  uint32_t parent;
  uint32_t index; /* in the file (UINT32_MAX past 2^32 - 2) */
  /* @own, or the history of a context of the thread merged first, which
   * is written as it is (merge_thread) */
  const uint32_t *hist;
  uint32_t own[];
};

struct amon_merge {
  amon_arena arena;
  uint64_t bytes;
  amon_arena per_thread; /* scratch for one merged thread */
  uint64_t per_thread_bytes;
  uint64_t totals[AMON_TOTAL_N];
  /* routines */
  uintptr_t *addr;
  uint32_t n_routines, routine_cap;
  uint32_t *slot; /* index + 1 */
  uint32_t slot_mask;
  /* contexts */
  merged **table;
  uint32_t table_mask, n_contexts;
  merged *first, *last;
  int unhashed;   /* the contexts are not in the table yet (merge_thread) */
  /* a thread that runs alone: its contexts are written straight from its
   * machine (merge_alone), not copied into merged ones first; each id's
   * index in the file (UINT32_MAX: not written), the last context seen
   * and the CONTEXTS section's length */
  amon_thread *alone;
  uint32_t *index_of, ids;
  const amon_context *alone_last;
  uint64_t alone_len;
  uint32_t *scratch;
  uint64_t outside;
  /* the default clock's samples (amon-measure.h), all threads */
  uint64_t samples_program, samples_monitor;
  int64_t resid_total;
  uint64_t threads_checked;
  uint32_t threads_split, split_permille; /* threads whose split the samples set, their largest weight */
  /* the blind windows and the estimates (amon-blind.h, amon-measure.h) */
  uint64_t blind_events, blind_units, blind_program, blind_monitor, threads_blind;
  uint64_t cal_total, samples_total, blind_total;
  int failed;
};
typedef struct amon_merge Merge;

AMON_FN static uint64_t
mix (uint64_t x)
{
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

AMON_FN static int
grow_routines (Merge *g)
{
  uint32_t cap = g->routine_cap ? g->routine_cap * 2 : 1024;
  uintptr_t *addr = amon_arena_alloc (&g->arena, (size_t) cap * sizeof *addr);
  uint32_t *slot = amon_arena_alloc (&g->arena, (size_t) cap * 2 * sizeof *slot);
  if (addr == NULL || slot == NULL)
    return 0;
  uint32_t mask = cap * 2 - 1;
  for (uint32_t i = 0; i < g->n_routines; i++)
    {
      addr[i] = g->addr[i];
      uint32_t j = (uint32_t) mix (addr[i]) & mask;
      while (slot[j])
        j = (j + 1) & mask;
      slot[j] = i + 1;
    }
  g->addr = addr;
  g->slot = slot;
  g->slot_mask = mask;
  g->routine_cap = cap;
  return 1;
}

AMON_FN static uint32_t
global_routine (Merge *g, uintptr_t a)
{
  uint32_t j = (uint32_t) mix (a) & g->slot_mask;
  for (; g->slot[j]; j = (j + 1) & g->slot_mask)
    if (g->addr[g->slot[j] - 1] == a)
      return g->slot[j] - 1;
  if (g->n_routines == g->routine_cap)
    {
      if (!grow_routines (g))
        return UINT32_MAX;
      for (j = (uint32_t) mix (a) & g->slot_mask; g->slot[j];)
        j = (j + 1) & g->slot_mask;
    }
  g->addr[g->n_routines] = a;
  g->slot[j] = g->n_routines + 1;
  return g->n_routines++;
}

AMON_FN static int
grow_table (Merge *g)
{
  uint32_t size = g->table ? (g->table_mask + 1) * 2 : 4096;
  merged **t = amon_arena_alloc (&g->arena, (size_t) size * sizeof *t);
  if (t == NULL)
    return 0;
  for (merged *c = g->first; c; c = c->order)
    {
      c->next = t[c->hash & (size - 1)];
      t[c->hash & (size - 1)] = c;
    }
  g->table = t;
  g->table_mask = size - 1;
  return 1;
}

AMON_FN static uint32_t
hist_hash (const uint32_t *hist, uint32_t len)
{
  uint64_t x = 0xcbf29ce484222325ULL ^ len;
  for (uint32_t i = 0; i < len; i++)
    x = (x ^ hist[i]) * 0x100000001b3ULL;
  return (uint32_t) mix (x);
}

/* Adds a context to the list, its counters 0; @hist is copied unless
 * @shared (it outlives the merge's writing). */
AMON_FN static merged *
append_context (Merge *g, const uint32_t *hist, uint32_t len, int shared)
{
  merged *c = amon_arena_alloc (&g->arena, sizeof *c + (shared ? 0 : (size_t) len * 4));
  if (c == NULL)
    {
      g->failed = 1;
      return NULL;
    }
  c->hist = hist;
  if (!shared)
    c->hist = memcpy (c->own, hist, (size_t) len * 4);
  c->len = len;
  c->parent = 0;
  c->index = g->n_contexts < UINT32_MAX ? (uint32_t) g->n_contexts : UINT32_MAX;
  if (g->last)
    g->last->order = c;
  else
    g->first = c;
  g->last = c;
  g->n_contexts++;
  return c;
}

/* Puts the contexts merged without a look-up into the table, once a
 * second thread needs it. */
AMON_FN static int
hash_all (Merge *g)
{
  for (merged *c = g->first; c; c = c->order)
    c->hash = hist_hash (c->hist, c->len);
  do
    if (!grow_table (g))
      return 0;
  while ((g->n_contexts + 1) * 2 > g->table_mask + 1);
  g->unhashed = 0;
  return 1;
}

/* The merged context of history @hist, found or appended (*@made set);
 * NULL when memory failed. */
AMON_FN static merged *
add_context (Merge *g, const uint32_t *hist, uint32_t len, uint64_t time, uint64_t entries, uint64_t recursive, int *made)
{
  *made = 0;
  uint32_t hash = hist_hash (hist, len);
  merged *c = g->table[hash & g->table_mask];
  while (c && !(c->hash == hash && c->len == len && memcmp (c->hist, hist, (size_t) len * 4) == 0))
    c = c->next;
  if (c == NULL)
    {
      if ((g->n_contexts + 1) * 2 > g->table_mask + 1 && !grow_table (g))
        {
          g->failed = 1;
          return NULL;
        }
      if ((c = append_context (g, hist, len, 0)) == NULL)
        return NULL;
      *made = 1;
      c->hash = hash;
      c->next = g->table[hash & g->table_mask];
      g->table[hash & g->table_mask] = c;
    }
  c->time += time;
  c->entries += entries;
  c->recursive += recursive;
  return c;
}

AMON_FN amon_merge *
amon_merge_new (void)
{
  uint64_t bytes = 0;
  Merge *g = amon_map (sizeof *g, &bytes, 0);
  if (g == NULL)
    return NULL;
  amon_arena_init (&g->arena, &g->bytes, 0);
  amon_arena_init (&g->per_thread, &g->per_thread_bytes, 0);
  if (!grow_routines (g) || !grow_table (g))
    {
      amon_merge_free (g);
      return NULL;
    }
  return g;
}

AMON_FN void
amon_merge_free (amon_merge *g)
{
  if (g == NULL)
    return;
  uint64_t bytes = sizeof *g;
  amon_arena_release (&g->arena);
  amon_arena_release (&g->per_thread);
  amon_unmap (g, sizeof *g, &bytes);
}

/* Context @c's time, corrected as its thread's samples say (amon-measure.h). */
AMON_FN static uint64_t
corrected_time (const amon_thread *t, const amon_context *c)
{
  return amon_measure_corrected (__atomic_load_n (&c->time, __ATOMIC_RELAXED),
                                 __atomic_load_n (&c->samples, __ATOMIC_RELAXED), t->keep, t->per_sample);
}

/* Whether @c (not a root) goes into the file: it has a count or a time
 * (@time, corrected), and its history is whole (no longer than the
 * longest made, every routine one of the first @n the machine knows). */
AMON_FN static int
written (const amon_machine *m, uint32_t n, const amon_context *c, uint64_t time)
{
  if (time == 0 && c->entries == 0 && c->recursive == 0)
    return 0;
  if (c->len > m->max_history)
    return 0;
  for (uint32_t i = 0; i < c->len; i++)
    if ((c->hist[i] >> 1) >= n)
      return 0;
  return 1;
}

/* The parent to write for @c, whose thread's contexts' indexes by id
 * are @index_of (@ids of them): 1 + the index of the context its history
 * extends by one entry, 0 where that was not written. */
AMON_FN static uint32_t
parent_of (const amon_context *c, const uint32_t *index_of, uint32_t ids)
{
  return c->parent < ids && index_of[c->parent] != UINT32_MAX ? index_of[c->parent] + 1 : 0;
}

/* The first thread, where it runs alone: its routine indexes are the
 * global ones and its histories distinct, so its contexts are written
 * from its machine as they are (out_alone), where copying each into a
 * merged one first took memory for 514,000 of them (yaml-cpp 0.7's tests:
 * 28 MB mapped and populated) and four passes over them in all, where
 * now two.  Here only their indexes in the file, the time outside every
 * routine and the CONTEXTS section's length are found; the contexts seen
 * are the ones written (those made after are left out). */
AMON_FN static void
merge_alone (Merge *g, amon_thread *t, uint32_t ids, uint32_t *index_of)
{
  const amon_machine *m = &t->m;
  uint32_t n = __atomic_load_n (&m->n_routines, __ATOMIC_ACQUIRE);
  uint64_t len = 8;
  const amon_context *last = NULL;
  for (const amon_context *c = m->root; c; c = __atomic_load_n (&c->next, __ATOMIC_ACQUIRE))
    {
      if (c->id >= ids)
        break; /* made after the count was read */
      last = c;
      index_of[c->id] = UINT32_MAX;
      uint64_t time = corrected_time (t, c);
      if (c->len == 0)
        {
          g->outside += time;
          continue;
        }
      if (!written (m, n, c, time))
        continue;
      len += AMON_CONTEXT_FIXED + (uint64_t) (parent_of (c, index_of, ids) ? 1 : c->len) * 4;
      index_of[c->id] = g->n_contexts < UINT32_MAX ? (uint32_t) g->n_contexts : UINT32_MAX;
      g->n_contexts++;
    }
  g->alone = t;
  g->index_of = index_of;
  g->ids = ids;
  g->alone_last = last;
  g->alone_len = len;
}

/* Adds @t's contexts.  The first thread merged needs no look-up: the
 * machine made each of its histories once, and its routine indexes are
 * the global ones, so its contexts are appended as they are, their
 * histories shared with the thread where @in_place (it outlives the
 * writing), and put into the table only when another thread comes; or,
 * where it is @alone (no other thread to merge) and @in_place, written
 * from its machine (merge_alone). */
AMON_FN static void
merge_thread (Merge *g, amon_thread *t, int in_place, int alone)
{
  amon_machine *m = &t->m;
  int first = g->n_contexts == 0 && g->n_routines == 0;
  if (!first && g->unhashed && !hash_all (g))
    {
      g->failed = 1;
      return;
    }
  uint32_t n = __atomic_load_n (&m->n_routines, __ATOMIC_ACQUIRE);
  amon_arena_release (&g->per_thread);
  uint32_t *map = amon_arena_alloc (&g->per_thread, (size_t) (n ? n : 1) * sizeof *map);
  uint32_t *buf = amon_arena_alloc (&g->per_thread, (size_t) (m->max_history + 1) * sizeof *buf);
  /* the thread's contexts by id: their index in the file, so that a new
   * one made from another by step A2 alone names it and writes one entry
   * (yaml-cpp 0.7's tests: 508,000 of 514,000, a 48 MB file made 19 MB);
   * those made while this runs are left out */
  uint64_t known = __atomic_load_n (&m->n_contexts, __ATOMIC_RELAXED);
  uint32_t ids = known < AMON_NO_PARENT - 1 ? (uint32_t) known + 1 : AMON_NO_PARENT;
  uint32_t *index_of = amon_arena_alloc (&g->per_thread, (size_t) ids * sizeof *index_of);
  if (map == NULL || buf == NULL || index_of == NULL)
    {
      g->failed = 1;
      return;
    }
  for (uint32_t i = 0; i < n; i++)
    if ((map[i] = global_routine (g, (uintptr_t) m->routine[i])) == UINT32_MAX)
      {
        g->failed = 1;
        return;
      }
  if (first && alone && in_place && ids != AMON_NO_PARENT)
    {
      merge_alone (g, t, ids, index_of);
      return;
    }
  for (amon_context *c = m->root; c && !g->failed; c = __atomic_load_n (&c->next, __ATOMIC_ACQUIRE))
    {
      uint64_t time = corrected_time (t, c);
      if (c->id < ids)
        index_of[c->id] = UINT32_MAX;
      if (c->len == 0)
        {
          g->outside += time;
          continue;
        }
      if (!written (m, n, c, time))
        continue;
      for (uint32_t i = 0; i < c->len; i++)
        buf[i] = map[c->hist[i] >> 1] << 1 | (c->hist[i] & AMON_ENTRY_MARKED);
      int made = 1;
      merged *d = first ? append_context (g, in_place ? c->hist : buf, c->len, in_place)
                        : add_context (g, buf, c->len, time, c->entries, c->recursive, &made);
      if (d == NULL)
        continue;
      if (first)
        {
          d->time = time;
          d->entries = c->entries;
          d->recursive = c->recursive;
        }
      /* the parent's merged context has the parent's history: an earlier
       * one, which this thread's or another's made */
      if (made)
        d->parent = parent_of (c, index_of, ids);
      if (c->id < ids)
        index_of[c->id] = d->index;
    }
  g->unhashed |= first;
}

/* ---- output ---- */

typedef struct {
  amon_output file;
  int err;
  size_t n;
  unsigned char buf[65536];
} Out;

AMON_FN static void
out_flush (Out *o)
{
  if (!o->err && o->n)
    o->err = amon_output_write (&o->file, o->buf, o->n);
  o->n = 0;
}

AMON_FN static void
out_bytes (Out *o, const void *p, size_t n)
{
  const unsigned char *s = p;
  while (n)
    {
      if (o->n == sizeof o->buf)
        out_flush (o);
      size_t k = sizeof o->buf - o->n < n ? sizeof o->buf - o->n : n;
      memcpy (o->buf + o->n, s, k);
      o->n += k;
      s += k;
      n -= k;
    }
}

/* little-endian whatever the host; straight into the buffer where it
 * has room (one store on a little-endian host), as a profile's contexts
 * are written a few words each, millions of them */
AMON_FN static inline void
out_u32 (Out *o, uint32_t v)
{
  if (AMON_UNLIKELY (sizeof o->buf - o->n < 4))
    out_flush (o);
  unsigned char *b = o->buf + o->n;
  b[0] = (unsigned char) v;
  b[1] = (unsigned char) (v >> 8);
  b[2] = (unsigned char) (v >> 16);
  b[3] = (unsigned char) (v >> 24);
  o->n += 4;
}

AMON_FN static inline void
out_u64 (Out *o, uint64_t v)
{
  out_u32 (o, (uint32_t) v);
  out_u32 (o, (uint32_t) (v >> 32));
}

AMON_FN static inline unsigned char *
put_u32 (unsigned char *b, uint32_t v)
{
  b[0] = (unsigned char) v;
  b[1] = (unsigned char) (v >> 8);
  b[2] = (unsigned char) (v >> 16);
  b[3] = (unsigned char) (v >> 24);
  return b + 4;
}

AMON_FN static inline unsigned char *
put_u64 (unsigned char *b, uint64_t v)
{
  return put_u32 (put_u32 (b, (uint32_t) v), (uint32_t) (v >> 32));
}

/* A context's record: built in the buffer through a local pointer, where
 * out_u32 stores byte by byte through the buffer and reads its fill back
 * after each byte (the bytes may alias it): on yaml-cpp 0.7's tests,
 * 2.6 million words, writing the profile took a quarter less time so. */
AMON_FN static void
out_context (Out *o, uint32_t len, uint32_t parent, uint64_t time, uint64_t entries, uint64_t recursive,
             const uint32_t *hist)
{
  uint32_t from = parent ? len - 1 : 0;
  if ((size_t) (len - from) > (sizeof o->buf - AMON_CONTEXT_FIXED) / 4)
    {
      /* longer than the buffer holds: word by word */
      out_u32 (o, len);
      out_u32 (o, parent);
      out_u64 (o, time);
      out_u64 (o, entries);
      out_u64 (o, recursive);
      for (uint32_t i = from; i < len; i++)
        out_u32 (o, hist[i]);
      return;
    }
  if (sizeof o->buf - o->n < AMON_CONTEXT_FIXED + (size_t) (len - from) * 4)
    out_flush (o);
  unsigned char *b = o->buf + o->n;
  b = put_u32 (b, len);
  b = put_u32 (b, parent);
  b = put_u64 (b, time);
  b = put_u64 (b, entries);
  b = put_u64 (b, recursive);
  for (uint32_t i = from; i < len; i++)
    b = put_u32 (b, hist[i]);
  o->n = (size_t) (b - o->buf);
}

AMON_FN static void
add_totals (uint64_t *totals, uint64_t time, uint64_t entries, uint64_t recursive)
{
  totals[AMON_TOTAL_TIME] += time;
  totals[AMON_TOTAL_CALLS] += entries;
  totals[AMON_TOTAL_RECURSIVE] += recursive;
}

AMON_FN static void out_section (Out *o, uint32_t tag, uint64_t length);

/* The CONTEXTS section of a thread that ran alone, from its machine: the
 * contexts merge_alone saw and chose, in their order, each with the
 * counters it has now (the program is stopping; a count a hook adds
 * meanwhile is in the totals as in the context) */
AMON_FN static void
out_alone (Out *o, Merge *g)
{
  const amon_thread *t = g->alone;
  out_section (o, AMON_SECTION_CONTEXTS, g->alone_len);
  out_u64 (o, g->n_contexts);
  for (const amon_context *c = t->m.root; c; c = __atomic_load_n (&c->next, __ATOMIC_ACQUIRE))
    {
      /* fewer than 2^32 - 2 contexts (merge_thread): no index is UINT32_MAX */
      if (g->index_of[c->id] != UINT32_MAX)
        {
          uint64_t time = corrected_time (t, c);
          uint64_t entries = __atomic_load_n (&c->entries, __ATOMIC_RELAXED);
          uint64_t recursive = __atomic_load_n (&c->recursive, __ATOMIC_RELAXED);
          out_context (o, c->len, parent_of (c, g->index_of, g->ids), time, entries, recursive, c->hist);
          add_totals (g->totals, time, entries, recursive);
        }
      if (c == g->alone_last)
        break;
    }
}

AMON_FN static void
out_section (Out *o, uint32_t tag, uint64_t length)
{
  out_u32 (o, tag);
  out_u32 (o, 0);
  out_u64 (o, length);
}

AMON_FN static size_t
bounded_strlen (const char *s)
{
  size_t n = s ? strlen (s) : 0;
  return n > 65535 ? 65535 : n;
}

AMON_FN static int write_merged (const amon_run *run, Merge *gp, const char *path);

AMON_FN static int
merge_with (amon_merge *g, amon_thread *t, int in_place, int alone)
{
  if (g->failed)
    return ENOMEM;
  merge_thread (g, t, in_place, alone);
  uint64_t *totals = g->totals;
  totals[AMON_TOTAL_THREADS]++;
  totals[AMON_TOTAL_RETURNS] += t->returns;
  totals[AMON_TOTAL_STATES] += t->m.n_contexts;
  totals[AMON_TOTAL_TRANSITIONS] += t->m.n_transitions;
  totals[AMON_TOTAL_B2] += t->m.n_b2;
  if (t->m.max_history > totals[AMON_TOTAL_MAX_HISTORY])
    totals[AMON_TOTAL_MAX_HISTORY] = t->m.max_history;
  totals[AMON_TOTAL_SUM_HISTORY] += t->m.sum_history;
  if (t->max_depth > totals[AMON_TOTAL_MAX_DEPTH])
    totals[AMON_TOTAL_MAX_DEPTH] = t->max_depth;
  totals[AMON_TOTAL_RESYNCS] += t->resyncs;
  totals[AMON_TOTAL_UNMATCHED] += t->unmatched;
  totals[AMON_TOTAL_MEMORY] += t->m.bytes;
  totals[AMON_TOTAL_OVERHEAD] += t->overhead_total;
  totals[AMON_TOTAL_OFFCPU] += t->offcpu_total;
  totals[AMON_TOTAL_UNSEEN] += t->unseen;
  g->samples_program += t->samples_program;
  g->samples_monitor += t->samples_monitor;
  g->resid_total += t->resid_total;
  g->threads_checked += (uint64_t) t->checked;
  g->blind_events += t->blind_events;
  g->blind_units += t->blind_units;
  g->blind_program += t->blind_program;
  g->blind_monitor += t->blind_monitor;
  g->threads_blind += t->blind_total != 0;
  g->cal_total += t->cal_total;
  g->samples_total += t->samples_total;
  g->blind_total += t->blind_total;
  if (t->split_permille)
    {
      g->threads_split++;
      g->split_permille = t->split_permille > g->split_permille ? t->split_permille : g->split_permille;
    }
  return g->failed ? ENOMEM : 0;
}

AMON_FN int
amon_merge_thread (amon_merge *g, amon_thread *t)
{
  return merge_with (g, t, 0, 0);
}

AMON_FN int
amon_write_file (const amon_run *run, amon_merge *retired, const char *path)
{
  Merge *own = retired ? NULL : amon_merge_new ();
  Merge *gp = retired ? retired : own;
  if (gp == NULL)
    return ENOMEM;
  /* one thread and none retired: written from its machine (merge_alone) */
  int alone = retired == NULL && run->threads != NULL && run->threads->next == NULL;
  for (amon_thread *t = run->threads; t && !gp->failed; t = t->next)
    merge_with (gp, t, 1, alone);
  int err = gp->failed ? ENOMEM : write_merged (run, gp, path);
  amon_merge_free (own);
  return err;
}

AMON_FN static int
write_merged (const amon_run *run, Merge *gp, const char *path)
{
  Merge *g = gp;
  uint64_t *totals = g->totals;
  uint64_t oa_bytes = 0;
  amon_arena oa; /* what writing needs; the merge's own arenas stay */
  amon_arena_init (&oa, &oa_bytes, 0);
  totals[AMON_TOTAL_OUTSIDE] = g->outside;
  totals[AMON_TOTAL_TIME] = g->outside;

  /* objects and names */
  amon_objects objs;
  if (amon_objects_collect (&objs, &oa) != 0)
    objs.n = 0;
  uint32_t *obj_of = amon_arena_alloc (&oa, (size_t) (g->n_routines ? g->n_routines : 1) * sizeof *obj_of);
  const char **name_of = amon_arena_alloc (&oa, (size_t) (g->n_routines ? g->n_routines : 1) * sizeof *name_of);
  uint32_t *written = amon_arena_alloc (&oa, (size_t) (objs.n ? objs.n : 1) * sizeof *written);
  uintptr_t *entry_of = amon_arena_alloc (&oa, (size_t) (g->n_routines ? g->n_routines : 1) * sizeof *entry_of);
  if (obj_of == NULL || name_of == NULL || written == NULL || entry_of == NULL)
    {
      amon_objects_release (&objs);
      amon_arena_release (&oa);
      return ENOMEM;
    }
  uint32_t n_written = 0;
  for (uint32_t i = 0; i < objs.n; i++)
    written[i] = AMON_NO_OBJECT;
  for (uint32_t r = 0; r < g->n_routines; r++)
    {
      uint32_t ob = amon_objects_find (&objs, g->addr[r]);
      name_of[r] = amon_objects_name (&objs, ob, g->addr[r], &entry_of[r]);
      if (ob != AMON_NO_OBJECT && written[ob] == AMON_NO_OBJECT)
        written[ob] = n_written++;
      obj_of[r] = ob;
    }

  Out *o = amon_arena_alloc (&oa, sizeof *o);
  if (o == NULL)
    {
      amon_objects_release (&objs);
      amon_arena_release (&oa);
      return ENOMEM;
    }
  int e = amon_output_open (&o->file, path, run->secure, (unsigned long) run->pid);
  if (e)
    {
      amon_output_close (&o->file, e);
      amon_objects_release (&objs);
      amon_arena_release (&oa);
      return e;
    }

  /* header */
  out_bytes (o, AMON_MAGIC, AMON_MAGIC_LEN);
  out_u32 (o, AMON_VERSION);
  out_u32 (o, AMON_HEADER_SIZE);
  out_u32 (o, (run->stop_reason ? AMON_FLAG_STOPPED : 0) | (run->untimed ? AMON_FLAG_UNTIMED : 0));
  out_u32 (o, run->clock->kind);
  out_u64 (o, run->clock->rate);
  out_u64 (o, run->clock->resolution_ps);
  out_u64 (o, run->overhead_ps);
  out_u64 (o, run->pid);
  out_u64 (o, 0);

  /* objects, in the order of first use by a routine */
  uint64_t len = 4;
  for (uint32_t i = 0; i < objs.n; i++)
    if (written[i] != AMON_NO_OBJECT)
      len += AMON_OBJECT_FIXED + bounded_strlen (objs.objects[i].path);
  out_section (o, AMON_SECTION_OBJECTS, len);
  out_u32 (o, n_written);
  for (uint32_t k = 0; k < n_written; k++)
    for (uint32_t i = 0; i < objs.n; i++)
      if (written[i] == k)
        {
          size_t n = bounded_strlen (objs.objects[i].path);
          out_u64 (o, objs.objects[i].bias);
          out_u32 (o, objs.objects[i].is_main ? AMON_OBJECT_MAIN : 0);
          out_u32 (o, (uint32_t) n);
          out_bytes (o, objs.objects[i].path, n);
        }

  /* routines */
  len = 4;
  for (uint32_t r = 0; r < g->n_routines; r++)
    len += AMON_ROUTINE_FIXED + bounded_strlen (name_of[r]);
  out_section (o, AMON_SECTION_ROUTINES, len);
  out_u32 (o, g->n_routines);
  for (uint32_t r = 0; r < g->n_routines; r++)
    {
      size_t n = bounded_strlen (name_of[r]);
      out_u64 (o, entry_of[r]);
      out_u32 (o, obj_of[r] == AMON_NO_OBJECT ? AMON_NO_OBJECT : written[obj_of[r]]);
      out_u32 (o, (uint32_t) n);
      out_bytes (o, name_of[r], n);
    }

  /* contexts, the totals of their counters with them */
  if (g->alone)
    out_alone (o, g);
  else
    {
      len = 8;
      for (merged *c = g->first; c; c = c->order)
        len += AMON_CONTEXT_FIXED + (uint64_t) (c->parent ? 1 : c->len) * 4;
      out_section (o, AMON_SECTION_CONTEXTS, len);
      out_u64 (o, g->n_contexts);
      for (merged *c = g->first; c; c = c->order)
        {
          out_context (o, c->len, c->parent, c->time, c->entries, c->recursive, c->hist);
          add_totals (totals, c->time, c->entries, c->recursive);
        }
    }

  out_section (o, AMON_SECTION_TOTALS, 8 * AMON_TOTAL_N);
  for (int i = 0; i < AMON_TOTAL_N; i++)
    out_u64 (o, totals[i]);

  if (run->stop_reason)
    {
      size_t n = bounded_strlen (run->stop_message);
      out_section (o, AMON_SECTION_STOPPED, 8 + n);
      out_u32 (o, run->stop_reason);
      out_u32 (o, (uint32_t) n);
      out_bytes (o, run->stop_message, n);
    }
  if (run->calibrations)
    {
      out_section (o, AMON_SECTION_CALIBRATION, AMON_CALIBRATION_SIZE);
      out_u64 (o, run->calibrations);
      out_u32 (o, run->recent);
      out_u32 (o, 0);
      out_u64 (o, run->overhead_ps);
      out_u64 (o, run->lowest_ps);
      out_u64 (o, run->median_ps);
      out_u64 (o, run->highest_ps);
      out_u64 (o, g->samples_program);
      out_u64 (o, g->samples_monitor);
      out_u64 (o, (uint64_t) g->resid_total);
      out_u64 (o, g->threads_checked);
      out_u32 (o, g->threads_split);
      out_u32 (o, g->split_permille);
      out_u64 (o, g->blind_events);
      out_u64 (o, g->blind_units);
      out_u64 (o, g->blind_program);
      out_u64 (o, g->blind_monitor);
      out_u64 (o, g->threads_blind);
      out_u64 (o, g->cal_total);
      out_u64 (o, g->samples_total);
      out_u64 (o, g->blind_total);
    }
  out_section (o, AMON_SECTION_END, 0);
  out_flush (o);
  int err = amon_output_close (&o->file, o->err);
  amon_objects_release (&objs);
  amon_arena_release (&oa);
  return err;
}
