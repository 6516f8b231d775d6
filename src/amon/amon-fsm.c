/* amon-fsm.c — histories, the transition table and the history table. */
#define _GNU_SOURCE 1

#include "amon-fsm.h"

#include <string.h>
#include <sys/mman.h>

#include "amon-format.h"

#define MARKED AMON_ENTRY_MARKED

AMON_FN static inline uint64_t
mix64 (uint64_t x)
{
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

#define trans_hash amon_trans_hash

AMON_FN static uint32_t
history_hash (const uint32_t *h, uint32_t n)
{
  uint64_t x = 0xcbf29ce484222325ULL ^ n;
  for (uint32_t i = 0; i < n; i++)
    x = (x ^ h[i]) * 0x100000001b3ULL;
  return (uint32_t) mix64 (x);
}

AMON_FN uint32_t
amon_history_call (const uint32_t *h, uint32_t n, uint32_t p, uint32_t *out)
{
  /* A2 and A3: the sequence e_0..e_n is h with every earlier entry of p
   * unmarked, then p marked.  A4 deletes an unmarked entry whose two
   * neighbours are unmarked, repeatedly: of each maximal run of unmarked
   * entries exactly the first and the last survive (the run's ends have a
   * marked neighbour or are s_1, and e_n is marked).  So one pass keeps an
   * unmarked e_i unless e_{i-1} and e_{i+1} are both unmarked. */
  uint32_t k = 0;
  /* the commonest call, of a routine not in the history: A2 alone (the
   * history's runs are already as A4 and A5 leave them) */
  for (; k < n && (h[k] >> 1) != p; k++)
    out[k] = h[k];
  if (k == n)
    {
      out[n] = p << 1 | MARKED;
      return n + 1;
    }
  uint32_t total = n + 1;
  uint32_t prev = MARKED; /* mark of e_{i-1}; e_0 has none, treated as marked */
  k = 0;
  for (uint32_t i = 0; i < total; i++)
    {
      uint32_t e = i < n ? ((h[i] >> 1) == p ? h[i] & ~MARKED : h[i]) : (p << 1 | MARKED);
      uint32_t next = i + 1 < n ? ((h[i + 1] >> 1) == p ? 0 : h[i + 1] & MARKED) : MARKED;
      uint32_t mark = e & MARKED;
      if (!mark && !prev && !next && i > 0)
        {
          prev = mark;
          continue; /* A4 */
        }
      prev = mark;
      out[k++] = e;
    }
  /* A5: two adjacent unmarked entries of one routine keep the later.
   * After A4 unmarked runs have at most two entries, so one pass does. */
  uint32_t j = 0;
  for (uint32_t i = 0; i < k; i++)
    {
      if (i + 1 < k && !(out[i] & MARKED) && !(out[i + 1] & MARKED) && (out[i] >> 1) == (out[i + 1] >> 1))
        continue;
      out[j++] = out[i];
    }
  return j;
}

AMON_FN static int
stop (amon_machine *m, uint32_t reason)
{
  if (m->stop_reason == 0)
    m->stop_reason = reason;
  return 0;
}

/* ---- tables ---- */

/* Unmaps a table that a larger one replaced, once the machine points at
 * the new one: a signal handler that interrupts the growth (the sampling
 * clock's, or a program's that exits, writing the profile) reads the old
 * table or the new one, never an unmapped one. */
AMON_FN static void
retire (void *old, size_t bytes, uint64_t *counter)
{
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  amon_unmap (old, bytes, counter);
}

/* A table of @size bytes: past 2 MB, on huge pages where the kernel
 * gives them (transparent huge pages, "madvise"), as its look-ups land
 * at random and each would miss the TLB as well as the caches. */
AMON_FN static void *
map_table (amon_machine *m, size_t size)
{
  void *t = amon_map (size, &m->bytes, m->limits.max_memory);
#ifdef MADV_HUGEPAGE
  if (t != NULL && size >= ((size_t) 2 << 20))
    (void) madvise (t, size, MADV_HUGEPAGE);
#endif
  return t;
}

AMON_FN static int
grow_trans (amon_machine *m)
{
  uint32_t old_size = m->trans ? m->trans_mask + 1 : 0, size = old_size ? old_size * 2 : 1024;
  if (size == 0)
    return stop (m, AMON_STOP_MEMORY);
  amon_transition *t = map_table (m, (size_t) size * sizeof *t);
  if (t == NULL)
    return stop (m, AMON_STOP_MEMORY);
  for (uint32_t i = 0; i < old_size; i++)
    {
      amon_transition *o = &m->trans[i];
      if (o->from == NULL)
        continue;
      uint32_t j = trans_hash (o->from, o->fn) & (size - 1);
      while (t[j].from)
        j = (j + 1) & (size - 1);
      t[j] = *o;
    }
  amon_transition *old = m->trans;
  m->trans = t;
  m->trans_mask = size - 1;
  retire (old, (size_t) old_size * sizeof *t, &m->bytes);
  return 1;
}

AMON_FN static int
grow_hist (amon_machine *m)
{
  uint32_t old_size = m->hist ? m->hist_mask + 1 : 0, size = old_size ? old_size * 2 : 1024;
  if (size == 0)
    return stop (m, AMON_STOP_MEMORY);
  amon_hist_slot *t = map_table (m, (size_t) size * sizeof *t);
  if (t == NULL)
    return stop (m, AMON_STOP_MEMORY);
  for (uint32_t i = 0; i < old_size; i++)
    {
      amon_hist_slot *o = &m->hist[i];
      if (o->c == NULL)
        continue;
      uint32_t j = o->hash & (size - 1);
      while (t[j].c)
        j = (j + 1) & (size - 1);
      t[j] = *o;
    }
  amon_hist_slot *old = m->hist;
  m->hist = t;
  m->hist_mask = size - 1;
  retire (old, (size_t) old_size * sizeof *t, &m->bytes);
  return 1;
}

AMON_FN static inline uint32_t
addr_hash (const void *fn)
{
  return (uint32_t) mix64 ((uint64_t) (uintptr_t) fn);
}

AMON_FN static int
grow_routines (amon_machine *m)
{
  uint32_t cap = m->routine_cap ? m->routine_cap * 2 : 256;
  if (cap == 0 || cap > (1u << 30))
    return stop (m, AMON_STOP_ROUTINES);
  void **r = amon_map ((size_t) cap * sizeof *r, &m->bytes, m->limits.max_memory);
  uint32_t *slots = r ? amon_map ((size_t) cap * 2 * sizeof *slots, &m->bytes, m->limits.max_memory) : NULL;
  uint8_t *told = slots ? amon_map (cap, &m->bytes, m->limits.max_memory) : NULL;
  amon_site_range *sites = told ? amon_map ((size_t) cap * sizeof *sites, &m->bytes, m->limits.max_memory) : NULL;
  if (sites == NULL)
    {
      amon_unmap (told, cap, &m->bytes);
      amon_unmap (slots, (size_t) cap * 2 * sizeof *slots, &m->bytes);
      amon_unmap (r, (size_t) cap * sizeof *r, &m->bytes);
      return stop (m, AMON_STOP_MEMORY);
    }
  uint32_t mask = cap * 2 - 1;
  for (uint32_t i = 0; i < m->n_routines; i++)
    {
      r[i] = m->routine[i];
      told[i] = m->routine_told[i];
      sites[i] = m->routine_sites[i];
      uint32_t j = addr_hash (r[i]) & mask;
      while (slots[j])
        j = (j + 1) & mask;
      slots[j] = i + 1;
    }
  void **old = m->routine;
  uint32_t *old_slots = m->routine_slot, old_cap = m->routine_cap;
  uint8_t *old_told = m->routine_told;
  amon_site_range *old_sites = m->routine_sites;
  m->routine = r;
  m->routine_told = told;
  m->routine_sites = sites;
  m->routine_slot = slots;
  m->routine_mask = mask;
  m->routine_cap = cap;
  retire (old, (size_t) old_cap * sizeof *r, &m->bytes);
  retire (old_slots, (size_t) old_cap * 2 * sizeof *slots, &m->bytes);
  retire (old_told, old_cap, &m->bytes);
  retire (old_sites, (size_t) old_cap * sizeof *sites, &m->bytes);
  return 1;
}

/* Index of routine @fn, added when new; UINT32_MAX when a limit is hit. */
AMON_FN static uint32_t
routine_index (amon_machine *m, void *fn)
{
  uint32_t j = addr_hash (fn) & m->routine_mask;
  for (; m->routine_slot[j]; j = (j + 1) & m->routine_mask)
    if (m->routine[m->routine_slot[j] - 1] == fn)
      return m->routine_slot[j] - 1;
  if (m->n_routines == m->routine_cap)
    {
      if (!grow_routines (m))
        return UINT32_MAX;
      for (j = addr_hash (fn) & m->routine_mask; m->routine_slot[j];)
        j = (j + 1) & m->routine_mask;
    }
  uint32_t index = m->n_routines++;
  m->routine[index] = fn;
  m->routine_slot[j] = index + 1;
  return index;
}

/* Contexts start on a cache line (amon_arena_alloc_aligned), so that a
 * call reads the counters, s_n, its flags and its near slots in one line:
 * unaligned, a context's first 64 bytes straddled two lines, and Tcl 8.6
 * and yaml-cpp's tests ran 3-7% slower. */
_Static_assert (offsetof (amon_context, len) == 64, "a call's fields fill a context's first cache line");
_Static_assert (offsetof (amon_context, tag) + AMON_NEAR <= offsetof (amon_context, told), "a tag per near slot");
_Static_assert (offsetof (amon_context, spilled) < 64, "the caches' flag in the line a call reads");

/* ---- the machine ---- */

AMON_FN int
amon_machine_init (amon_machine *m, const amon_limits *limits)
{
  memset (m, 0, sizeof *m);
  m->limits = *limits;
  amon_arena_init (&m->arena, &m->bytes, limits->max_memory);
  m->root = m->last = amon_arena_alloc_aligned (&m->arena, sizeof *m->root, 64);
  if (m->root != NULL)
    m->root->parent = AMON_NO_PARENT; /* its id is 0 */
  if (m->root == NULL || !grow_trans (m) || !grow_hist (m) || !grow_routines (m))
    {
      amon_machine_release (m);
      return AMON_STOP_MEMORY;
    }
  return 0;
}

AMON_FN void
amon_machine_release (amon_machine *m)
{
  amon_unmap (m->trans, m->trans ? (size_t) (m->trans_mask + 1) * sizeof *m->trans : 0, &m->bytes);
  amon_unmap (m->hist, m->hist ? (size_t) (m->hist_mask + 1) * sizeof *m->hist : 0, &m->bytes);
  amon_unmap (m->routine, (size_t) m->routine_cap * sizeof *m->routine, &m->bytes);
  amon_unmap (m->routine_slot, (size_t) m->routine_cap * 2 * sizeof *m->routine_slot, &m->bytes);
  amon_unmap (m->routine_told, m->routine_cap, &m->bytes);
  amon_unmap (m->routine_sites, (size_t) m->routine_cap * sizeof *m->routine_sites, &m->bytes);
  amon_unmap (m->scratch, (size_t) m->scratch_cap * sizeof *m->scratch, &m->bytes);
  amon_arena_release (&m->arena);
  m->trans = NULL;
  m->hist = NULL;
  m->routine = NULL;
  m->routine_slot = NULL;
  m->routine_told = NULL;
  m->routine_sites = NULL;
  m->scratch = NULL;
}

AMON_FN static int
ensure_scratch (amon_machine *m, uint32_t n)
{
  if (n <= m->scratch_cap)
    return 1;
  uint32_t cap = m->scratch_cap ? m->scratch_cap : 64;
  while (cap < n)
    cap *= 2;
  uint32_t *s = amon_map ((size_t) cap * sizeof *s, &m->bytes, m->limits.max_memory);
  if (s == NULL)
    return stop (m, AMON_STOP_MEMORY);
  amon_unmap (m->scratch, (size_t) m->scratch_cap * sizeof *s, &m->bytes);
  m->scratch = s;
  m->scratch_cap = cap;
  return 1;
}

/* Transitions the table may gain in one call of make: the new one and
 * every one its caller's caches hold (spill). */
#define TRANS_AT_ONCE (1 + AMON_NEAR + AMON_CACHE)

/* Adds the transition (@from, @fn, @to) to the table, which has room. */
AMON_FN static void
trans_add (amon_machine *m, amon_context *from, void *fn, amon_context *to)
{
  uint32_t j;
  for (j = trans_hash (from, fn) & m->trans_mask; m->trans[j].from;)
    j = (j + 1) & m->trans_mask;
  m->trans[j] = (amon_transition) { from, fn, to };
  m->trans_count++;
}

/* @from's caches are to lose a transition, or cannot take one: every
 * transition they hold goes to the table (which has room for them), and
 * @from is marked spilled, so that each made from it from now on goes
 * there too and a call that misses the caches asks the table
 * (amon_machine_find).  Until then a context's transitions are in its
 * caches only: the table held every transition, a million slots (24 MB)
 * on yaml-cpp 0.7's tests, of which a call read almost none, and its
 * growth and its lines from memory were a sixth of the run's time. */
AMON_FN static void
spill (amon_machine *m, amon_context *from)
{
  for (int i = 0; i < AMON_NEAR; i++)
    if (from->tag[i] != 0)
      trans_add (m, from, from->near[i]->fn, from->near[i]);
  if (from->far_at != 0)
    {
      const amon_cached *far = amon_far (from);
      for (int i = 0; i < AMON_CACHE; i++)
        if (far[i].fn != NULL)
          trans_add (m, from, far[i].fn, far[i].to);
    }
  __atomic_signal_fence (__ATOMIC_SEQ_CST); /* in the table before it is asked */
  from->spilled = 1;
}

/* Whether putting a transition of routine @fn into @from's caches, whose
 * far cache exists or need not, pushes another out (the far cache's set
 * is full). */
AMON_FN static int
cache_loses (const amon_context *from, const void *fn)
{
  if (from->tag[AMON_NEAR - 1] == 0)
    return 0;
  return amon_far (from)[AMON_CACHE_HOME (fn) ^ 1].fn != NULL;
}

/* Makes @from's far cache; 0 when it cannot be had (no memory, or
 * further than 128 GB from the context, which the arena's mappings never
 * are in practice). */
AMON_FN static int
make_far (amon_machine *m, amon_context *from)
{
  amon_cached *far = amon_arena_alloc_aligned (&m->arena, AMON_CACHE * sizeof *far, 64);
  intptr_t at = far ? ((intptr_t) far - (intptr_t) from) / 64 : 0;
  if (at == 0 || at < INT32_MIN || at > INT32_MAX)
    return 0;
  __atomic_signal_fence (__ATOMIC_SEQ_CST); /* zeroed before it is seen */
  from->far_at = (int32_t) at;
  return 1;
}

/* A new transition of @from's (@fn, @to), recorded: in @from's caches,
 * the far cache made first when @from needs it (a third routine called
 * from it), and in the table where @from spilled, @from spilled first
 * when the caches would lose one.  When the far cache cannot be made
 * (make_far), @from spills and the table keeps the transition, where the
 * next call finds it. */
AMON_FN static void
record (amon_machine *m, amon_context *from, void *fn, amon_context *to)
{
  m->n_transitions++;
  if (amon_cache_full (from) && !make_far (m, from))
    {
      if (!from->spilled)
        spill (m, from);
      trans_add (m, from, fn, to);
      return;
    }
  if (!from->spilled && cache_loses (from, fn))
    spill (m, from);
  if (from->spilled)
    trans_add (m, from, fn, to);
  amon_cache_put (from, fn, to);
}

/* The index of routine @fn, UINT32_MAX when it has none yet. */
AMON_FN static uint32_t
routine_known (const amon_machine *m, const void *fn)
{
  for (uint32_t j = addr_hash (fn) & m->routine_mask; m->routine_slot[j]; j = (j + 1) & m->routine_mask)
    if (m->routine[m->routine_slot[j] - 1] == fn)
      return m->routine_slot[j] - 1;
  return UINT32_MAX;
}

/* Whether steps B2-B3 and the caches of a call of @fn from @from can be
 * had without mapping memory: the routine known or room for it, the
 * history's scratch, a new context (and @from's far cache, if it needs
 * one) in the arena's chunk, both tables below half full after it, no
 * limit reached or near.  amon_machine_make's plain case. */
AMON_FN static int
has_room (const amon_machine *m, const amon_context *from, const void *fn)
{
  uint32_t n = from->len + 1; /* the new history's length at most */
  size_t need = (sizeof (amon_context) + (size_t) n * 4 + 7 + 63) + (amon_cache_full (from) ? AMON_CACHE * sizeof (amon_cached) + 63 : 0);
  return !m->stop_reason && from->len < m->limits.max_history && n <= m->scratch_cap
         && (m->n_routines < m->routine_cap || routine_known (m, fn) != UINT32_MAX)
         && (m->hist_count + 1) * 2 <= m->hist_mask + 1 && (m->trans_count + TRANS_AT_ONCE) * 2 <= m->trans_mask + 1
         && m->arena.next != NULL && (size_t) (m->arena.end - m->arena.next) >= need;
}

AMON_FN static int
same_history (const uint32_t *a, const uint32_t *b, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++)
    if (a[i] != b[i])
      return 0;
  return 1;
}

/* Whether history @h of @n entries, made by a call of a routine from a
 * context, can be made by a call from another context too, so that B2
 * must look it up and B3 keep it for later look-ups: only when one of
 * its entries is unmarked.  An unmarked entry that A3 makes or A2 finds
 * leaves one in the result (A4 keeps the first of each run of them, A5
 * the last of each pair), so a history all marked came from one whose
 * entries were all marked and did not hold the routine called, by A2
 * alone: it is its parent's history and the routine, and its parent's
 * is unique, so only that transition makes it, and B1 finds that
 * transition once made.  yaml-cpp 0.7's tests: 380,000 of 514,000 new
 * contexts, each of whose look-ups read a line of the history table
 * from memory (a tenth of the run's time, with 1,088 of them found). */
AMON_FN static int
history_shared (const uint32_t *h, uint32_t n)
{
  uint32_t marked = MARKED;
  for (uint32_t i = 0; i < n; i++)
    marked &= h[i];
  return !marked;
}

/* Steps B2-B3 and the caches for a transition not made yet: the context
 * that a call of @fn from @from enters, the transition recorded in the
 * table and in @from's caches, the entry not counted.  With @plain,
 * only when has_room: NULL then, nothing changed, when memory would have
 * to be mapped.  Otherwise NULL when a limit stopped the machine.  Built,
 * like the whole file, to use no vector register and to call nothing
 * when @plain, so that the hooks make a context without keeping the
 * vector state (amon-exact.c, amon-fast.c): with it kept (XSAVEC and
 * XRSTOR) and the layers of the slow way, a new context cost some
 * 1.1 us on yaml-cpp's tests, 514,000 of them in 0.15 s of the bare run. */
AMON_FN static amon_context *
make (amon_machine *m, amon_context *from, void *fn, int plain)
{
  if (plain && !has_room (m, from, fn))
    return NULL;
  if (m->stop_reason)
    return NULL;
  /* the transition's slot, written below where @from spilled, a line of
   * a large table that is seldom in any cache: fetched while the history
   * is made and looked up (another such line), not after */
  if (from->spilled)
    __builtin_prefetch (&m->trans[trans_hash (from, fn) & m->trans_mask], 1);
  uint32_t j = 0; /* the history's slot, where B2 looks for it */
  /* B2: the new history by A2-A5, then the history table */
  uint32_t p = routine_index (m, fn);
  if (p == UINT32_MAX)
    return NULL;
  if (from->len >= m->limits.max_history)
    {
      stop (m, AMON_STOP_HISTORY);
      return NULL;
    }
  if (!ensure_scratch (m, from->len + 1))
    return NULL;
  uint32_t n = amon_history_call (from->hist, from->len, p, m->scratch);
  int shared = history_shared (m->scratch, n);
  uint32_t hash = 0;
  amon_context *to = NULL;
  if (shared)
    {
      hash = history_hash (m->scratch, n);
      for (j = hash & m->hist_mask; (to = m->hist[j].c) != NULL; j = (j + 1) & m->hist_mask)
        if (m->hist[j].hash == hash && to->len == n && same_history (to->hist, m->scratch, n))
          break;
    }
  if (to)
    m->n_b2++;
  else
    {
      /* B3 */
      if (shared && (m->hist_count + 1) * 2 > m->hist_mask + 1)
        {
          if (!grow_hist (m))
            return NULL;
          for (j = hash & m->hist_mask; m->hist[j].c;)
            j = (j + 1) & m->hist_mask;
        }
      to = amon_arena_alloc_aligned (&m->arena, sizeof *to + (size_t) n * 4, 64);
      if (to == NULL)
        {
          stop (m, AMON_STOP_MEMORY);
          return NULL;
        }
      for (uint32_t i = 0; i < n; i++)
        to->hist[i] = m->scratch[i];
      to->len = n;
      to->fn = fn;
      to->id = m->n_contexts < AMON_NO_PARENT - 1 ? (uint32_t) m->n_contexts + 1 : AMON_NO_PARENT;
      /* A2 alone: @from's history and the routine (the file writes the
       * routine alone) */
      to->parent = n == from->len + 1 && same_history (from->hist, m->scratch, from->len) ? from->id : AMON_NO_PARENT;
      /* the sites its routine was seen to call from (amon_machine_learn) */
      to->site_lo = m->routine_sites[p].lo;
      to->site_span = m->routine_sites[p].span;
      if (shared)
        {
          m->hist[j] = (amon_hist_slot) { hash, to };
          m->hist_count++;
        }
      m->n_contexts++;
      m->sum_history += n;
      if (n > m->max_history)
        m->max_history = n;
      /* published last: a reader that sees it sees it whole */
      __atomic_store_n (&m->last->next, to, __ATOMIC_RELEASE);
      m->last = to;
    }
  if (m->routine_told[p] && !to->told)
    to->told = 1;
  while ((m->trans_count + TRANS_AT_ONCE) * 2 > m->trans_mask + 1)
    if (!grow_trans (m))
      return NULL;
  record (m, from, fn, to);
  return to;
}

AMON_FN amon_context *
amon_machine_make_plain (amon_machine *m, amon_context *from, void *fn)
{
  return make (m, from, fn, 1);
}

AMON_FN amon_context *
amon_machine_call_slow (amon_machine *m, amon_context *from, void *fn)
{
  amon_context *to = make (m, from, fn, 0);
  if (to != NULL)
    to->entries++;
  return to;
}

AMON_FN amon_context *
amon_machine_call_miss (amon_machine *m, amon_context *from, void *fn)
{
  amon_context *to = amon_machine_find (m, from, fn);
  if (to != NULL && !amon_cache_full (from))
    {
      amon_cache_put (from, fn, to);
      to->entries++;
      return to;
    }
  /* the arena changes with a new far cache as with a new context */
  m->critical = 1;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  if (to == NULL)
    to = amon_machine_call_slow (m, from, fn);
  else
    {
      /* found in the table (@from spilled), its far cache to be made:
       * else the table alone keeps it, as it does */
      if (make_far (m, from))
        amon_cache_put (from, fn, to);
      to->entries++;
    }
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  m->critical = 0;
  return to;
}
