/* amon-fsm.h — Spivey's finite-state machine of contexts.
 *
 * Spivey 2004, "Data structures for fast profiling".  A context is a
 * history s_1..s_n of routines with mark bits: the item s_{i-1}[s_i]s_{i+1}
 * belongs to the context when m_i is set, i.e. s_i is the most recent
 * activation of its routine, with its incoming and outgoing arcs.  On a
 * call of routine P from context C:
 *   A1  P = s_n (direct recursion): the context stays C;
 *   B1  else the transition C --P--> C' is looked up (a small cache in C,
 *       then the machine's transition table);
 *   B2  else the history of C' is computed by steps A2-A5 and looked up in
 *       the history table, unless all its entries are marked (then only
 *       this transition makes it: amon-fsm.c, history_shared);
 *   B3  else a new context with that history is created (and kept in the
 *       history table where B2 may look for it).
 * B1 is the common case: a cache probe or one hash-table probe, no
 * allocation, no lock, no system call.  A context caches its transitions
 * at two levels.  The first AMON_NEAR routines called from it are kept
 * in its first cache line, beside the counters a call changes, so that a
 * context that calls one or two routines (most of a large program's)
 * costs a call one line of the caller and one of the callee.  The others
 * go to a far cache of AMON_CACHE transitions, made when the first of
 * them is called: a context whose routine calls a few others in turn (a
 * parser's factor calling skip, number and expr) finds each there, where
 * a one-entry cache would miss half the time and send the call to the
 * hash table.  The far cache is two-way set-associative: a routine's set
 * is chosen by bits of its address, both ways are probed inline, and a
 * miss found in the transition table goes to the first way and moves the
 * first way's transition to the second, so each set keeps the two
 * transitions last taken.
 *
 * Histories are stored as routine indexes of this machine (index << 1 |
 * mark), so they are compact and independent of addresses; a machine's
 * routine table maps indexes to entry addresses.  Everything a machine
 * allocates comes from its arena or its own mappings and never moves
 * (amon-arena.h); contexts are linked in creation order and published with
 * release stores, so another thread may walk them while this one runs.
 *
 * Complexity: B1 O(1); B2/B3 O(n) in the history length, which is at most
 * 3R + 2 for R distinct routines (each routine is marked at most once and
 * A4 leaves at most two unmarked entries between marked ones).
 */
#ifndef AMON_FSM_H
#define AMON_FSM_H

#include "amon-arena.h"
#include "amon-private.h"

typedef struct amon_context amon_context;

/* amon_context.parent and .id: none known (ids past 2^32 - 2 are this). */
#define AMON_NO_PARENT UINT32_MAX

/* The far cache's transitions, 16 (256 bytes): a routine that calls more
 * than a few others from one context is rare outside an interpreter's
 * loop, and jq's, Tcl's and the Lua-like bench's cache misses were none
 * with 16 as with 32. */
#define AMON_CACHE 16

/* The first way of routine @fn's set in a far cache (the second is the
 * next slot).  Functions are aligned to 16 bytes, or to 32 or 64 with
 * -falign-functions, so the bits just above 16 alone would put them in
 * half or a quarter of the sets (and the entry offset, 9 bytes past the
 * start with -mfentry and endbr64, made one set of yaml-cpp's twice as
 * full as the others); three groups of bits folded together spread any
 * of these evenly. */
#define AMON_CACHE_HOME(fn) \
  (((((uintptr_t) (fn) >> 4) ^ ((uintptr_t) (fn) >> 7) ^ ((uintptr_t) (fn) >> 10)) & (AMON_CACHE / 2 - 1)) << 1)

/* A near slot's tag for routine @fn: never 0, which marks a free slot.
 * Only a filter (the slot's context says its routine, amon_cache_find):
 * it saves reading the line of a context that another routine enters. */
#define AMON_NEAR_TAG(fn) ((uint8_t) (((uintptr_t) (fn) >> 4 ^ (uintptr_t) (fn) >> 12) | 0x80))

/* Transitions a context keeps itself besides the far cache. */
#define AMON_NEAR 2

typedef struct {
  void *fn;
  amon_context *to;
} amon_cached;

struct amon_context {
  /* The first cache line holds all that a call reads and writes of its
   * caller's context and of the callee's: yaml-cpp's tests make 97
   * million calls in 514,000 contexts, most of which call one or two
   * routines or none, and each call read three lines, of which most
   * missed the caches (the caller's counters, a separate line of its
   * transitions, the callee's counters), where now it reads two. */
  void *fn;            /* entry address of s_n (NULL: the root) */
  /* counters (the owning thread writes them; see amon-thread.h) */
  uint64_t entries;    /* calls that entered it (steps B1-B3) */
  uint64_t recursive;  /* direct recursive calls made in it (step A1) */
  uint64_t time;       /* clock units charged to this context */
  /* return addresses of calls seen made by s_n, from fn + site_lo to
   * fn + site_lo + site_span (the -pg mode with the sampling clock:
   * amon_hook_enter_lazy, amon_site_seen); 0, 0 when none */
  int32_t site_lo;
  uint32_t site_span;
  /* the far cache, AMON_CACHE transitions two-way set-associative, made
   * when a third routine is called from here: its distance from the
   * context in 64-byte units (amon_far; 0: none), in 4 bytes where a
   * pointer would push a field out of the line */
  int32_t far_at;
  /* the tags of the near slots, in the order they were filled (0: free) */
  uint8_t tag[AMON_NEAR];
  /* s_n tells its returns itself (gcc -minstrument-return=call calls
   * `__return__` before each of them), seen at one: the -pg mode then
   * stops swapping its return address (amon-mcount.c) */
  uint8_t told;
  /* 1 once a transition from here may be in the transition table but not
   * in the caches (a far cache's second way pushed out, or no far cache
   * to be had): only then is the table asked when the caches miss
   * (amon_machine_find).  A context that calls no more routines than its
   * caches keep, most of a large program's, so finds a transition it
   * never made new without reading the table, a line of tens of
   * megabytes that is seldom in any cache (yaml-cpp's tests: 514,000
   * contexts, each made after such a miss).  Only then are its
   * transitions in the table at all, every one of them (amon-fsm.c,
   * spill) */
  uint8_t spilled;
  /* the first AMON_NEAR routines called from here, each slot filled once
   * and kept: the contexts they entered */
  amon_context *near[AMON_NEAR];
  uint32_t len;
  uint32_t id;             /* creation number: the root 0, then 1, 2, ... */
  amon_context *next;      /* all contexts in creation order */
  /* the default clock's samples in the program's code with this context
   * current (amon-measure.h); here, out of the calls' cache lines */
  uint64_t samples;
  /* the id of the context whose history this one's extends by its last
   * entry (it was made from that one by step A2 alone), AMON_NO_PARENT
   * when none is known: amon.out then writes the last entry alone
   * (amon-write.c) */
  uint32_t parent;
  uint32_t hist[];         /* routine << 1 | AMON_ENTRY_MARKED */
};

/* Return addresses from @lo to @lo + @span bytes past a routine's entry
 * (0, 0: none), as a context keeps them (amon_context.site_lo). */
typedef struct {
  int32_t lo;
  uint32_t span;
} amon_site_range;

typedef struct {
  amon_context *from;
  void *fn;
  amon_context *to;
} amon_transition;

/* A slot of the history table: a context and its history's hash, so
 * that a look-up reads only the contexts whose hash is the one looked
 * for (chained through the contexts, a look-up for a new history read
 * one or two contexts' lines, each from memory: a third of the time of
 * making a context on yaml-cpp's tests). */
typedef struct {
  uint32_t hash;
  amon_context *c; /* NULL: free */
} amon_hist_slot;

typedef struct {
  amon_arena arena;
  uint64_t bytes;          /* mapped by this machine */
  amon_limits limits;
  amon_context *root;      /* the empty history: outside every routine */
  amon_context *last;      /* newest context (root when none) */
  /* transitions: open addressing, at most half full.  Only those of
   * contexts whose caches lost one (amon_context.spilled), all of
   * theirs: the others' are in their caches alone (amon_machine_find) */
  amon_transition *trans;
  uint32_t trans_mask, trans_count;
  /* histories with an unmarked entry (those B2 looks up): open
   * addressing, at most half full */
  amon_hist_slot *hist;
  uint32_t hist_mask, hist_count;
  /* routines: index -> address, and an address index */
  void **routine;
  /* index -> 1 once a context of the routine told a return (-pg with
   * -minstrument-return=call): a new context of it starts told
   * (amon_machine_told) */
  uint8_t *routine_told;
  /* index -> the call sites seen from any context of the routine (the
   * -pg mode with the sampling clock): a new context of it starts with
   * them (amon_machine_learn) */
  amon_site_range *routine_sites;
  uint32_t n_routines, routine_cap;
  uint32_t *routine_slot;  /* index + 1, 0 = empty */
  uint32_t routine_mask;
  uint32_t *scratch;       /* one history being computed */
  uint32_t scratch_cap;
  /* statistics (Spivey's Table I): n_transitions counts every
   * transition made, in the table or not */
  uint64_t n_contexts, n_b2, n_transitions, sum_history;
  uint32_t max_history;
  uint32_t stop_reason;    /* AMON_STOP_*, 0 while running */
  volatile uint32_t critical; /* the tables or the shadow stack are being changed */
} amon_machine;

/* 0 on success, else AMON_STOP_MEMORY. */
int amon_machine_init (amon_machine *m, const amon_limits *limits) AMON_HIDDEN;
void amon_machine_release (amon_machine *m) AMON_HIDDEN;

/* Steps B2-B3 for a call of routine @fn from @from when no transition
 * exists yet (B1 failed: amon_machine_find).  Counts the entry.  NULL when a limit stopped
 * the machine (m->stop_reason says which). */
amon_context *amon_machine_call_slow (amon_machine *m, amon_context *from, void *fn) AMON_HIDDEN;
/* Steps B2-B3 for a call of @fn from @from that missed @from's caches
 * and the transition table, when no memory need be mapped for them: the
 * context it enters, the transition recorded, the entry not counted;
 * NULL, nothing changed, when memory would be needed or a limit is
 * reached (the slow way, amon_machine_call_slow, then does it).  Uses no
 * vector register and calls nothing (libamon-fast.la), so the -pg hooks
 * call it without keeping the vector state.  The caller sets
 * m->critical around it, as amon_machine_call_miss does. */
amon_context *amon_machine_make_plain (amon_machine *m, amon_context *from, void *fn) AMON_HIDDEN;
/* A call that missed @from's cache: step B1 in the transition table, then
 * B2-B3; counts the entry and fills the cache.  NULL as above.  Sets
 * m->critical while it adds to the tables: a signal handler that
 * interrupts that and jumps out leaves tables that cannot be trusted. */
amon_context *amon_machine_call_miss (amon_machine *m, amon_context *from, void *fn) AMON_HIDDEN;

/* Slot of the transition (@from, @fn) in the transition table. */
AMON_FN static inline uint32_t
amon_trans_hash (const amon_context *from, const void *fn)
{
  /* both pointers are aligned and close to others of their kind: mix
   * every bit into the high half before it is masked */
  uint64_t x = ((uint64_t) (uintptr_t) from * 0x9e3779b97f4a7c15ULL) ^ (uint64_t) (uintptr_t) fn;
  x *= 0xff51afd7ed558ccdULL;
  return (uint32_t) (x >> 32 ^ x >> 50);
}

/* Step B1 in the transition table: the context that a call of routine
 * @fn from @from enters, or NULL when the machine has none yet (steps
 * B2-B3 must make it); for a call that missed @from's caches (the table
 * holds every transition of a context that spilled, and none of
 * another's).  Reads only, so the hooks' common cases may look
 * before they change anything: a context whose routine calls more
 * routines than its cache holds (an interpreter's dispatch loop) finds
 * them here, one probe usually, without the rare path. */
AMON_FN AMON_INLINE amon_context *
amon_machine_find (const amon_machine *m, const amon_context *from, const void *fn)
{
  if (!from->spilled)
    return NULL; /* every transition from @from is in its caches */
  for (uint32_t j = amon_trans_hash (from, fn) & m->trans_mask;; j = (j + 1) & m->trans_mask)
    {
      const amon_transition *t = &m->trans[j];
      if (t->from == from && t->fn == fn)
        return t->to;
      if (t->from == NULL)
        return NULL;
    }
}

/* Step B1 in @from's own caches: the context that a call of routine
 * @fn from @from enters, or NULL when neither the near slots nor the
 * far cache hold it.  The one probe of the caches: the hooks' common
 * cases (amon_thread_push_fast, amon-exact.c) and the machine's call
 * all use it.  A near slot whose tag matches is taken only when its
 * context's routine is @fn: every context in @from's slots was entered
 * from @from, by its own routine, so that identifies the transition,
 * and reads the line the call writes anyway (its entries). */
/* @c's far cache (its far_at not 0). */
AMON_FN AMON_INLINE amon_cached *
amon_far (const amon_context *c)
{
  return (amon_cached *) ((uintptr_t) c + (uintptr_t) ((intptr_t) c->far_at * 64));
}

AMON_FN AMON_INLINE amon_context *
amon_cache_find (const amon_context *from, const void *fn)
{
  uint8_t tag = AMON_NEAR_TAG (fn);
  amon_context *to;
  if (from->tag[0] == tag && (to = from->near[0])->fn == fn)
    return to;
  if (from->tag[1] == tag && (to = from->near[1])->fn == fn)
    return to;
  if (from->far_at == 0)
    return NULL;
  const amon_cached *far = amon_far (from);
  uintptr_t h = AMON_CACHE_HOME (fn);
  if (far[h].fn == fn)
    return far[h].to;
  if (far[h ^ 1].fn == fn)
    return far[h ^ 1].to;
  return NULL;
}

/* Whether a transition put into @from's caches needs its far cache
 * made first (amon_machine_call_miss): the near slots are taken (they
 * fill in order) and it has none.  The hooks' common cases, which
 * allocate nothing, leave such a call to the slow way. */
AMON_FN AMON_INLINE int
amon_cache_full (const amon_context *from)
{
  return from->tag[AMON_NEAR - 1] != 0 && from->far_at == 0;
}

/* Puts the transition (@fn, @to) into a free near slot of @from, else
 * into the first way of its set in @from's far cache (which must exist:
 * amon_cache_full), the first way's moved to the second.  A near slot's
 * context is written before its tag, and a far slot's routine is cleared
 * while the slot changes, so that a signal handler jumping out midway
 * leaves no slot pairing a routine with another's context, only a slot
 * that misses. */
AMON_FN AMON_INLINE void
amon_cache_put (amon_context *from, void *fn, amon_context *to)
{
  for (int i = 0; i < AMON_NEAR; i++)
    if (from->tag[i] == 0)
      {
        from->near[i] = to;
        __atomic_signal_fence (__ATOMIC_SEQ_CST);
        from->tag[i] = AMON_NEAR_TAG (fn);
        return;
      }
  uintptr_t h = AMON_CACHE_HOME (fn);
  amon_cached *home = &amon_far (from)[h], *other = &amon_far (from)[h ^ 1];
  /* the second way's transition goes: @from spilled already, so the
   * table has it (the machine spills a context before its caches lose
   * one: amon-fsm.c, spill) */
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  other->fn = NULL;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  other->to = home->to;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  other->fn = home->fn;
  home->fn = NULL;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  home->to = to;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  home->fn = fn;
}

/* Whether return address @site lies among those seen from @c's routine
 * (the root: every one, the calls made outside every routine). */
AMON_FN AMON_INLINE int
amon_site_seen (const amon_context *c, uintptr_t site)
{
  return AMON_LIKELY (site - (uintptr_t) c->fn - (uintptr_t) (intptr_t) c->site_lo <= c->site_span) || c->fn == NULL;
}

/* Widens range @r of routine @fn's call sites to hold return addresses
 * @lo to @hi, unless it would then start more than 2 GB from the
 * routine's entry or span more than 4 GB (a call from there then stays
 * unseen: a walk tells its caller each time). */
AMON_FN AMON_INLINE void
amon_site_widen (amon_site_range *r, uintptr_t fn, uintptr_t lo, uintptr_t hi)
{
  if (r->lo != 0 || r->span != 0)
    {
      uintptr_t old = fn + (uintptr_t) (intptr_t) r->lo;
      lo = old < lo ? old : lo;
      hi = old + r->span > hi ? old + r->span : hi;
    }
  intptr_t off = (intptr_t) (lo - fn);
  if (hi - lo > UINT32_MAX || off < INT32_MIN || off > INT32_MAX)
    return;
  r->lo = (int32_t) off;
  r->span = (uint32_t) (hi - lo);
}

/* Adds @site to those seen from @c's routine (amon_site_widen). */
AMON_FN AMON_INLINE void
amon_site_learn (amon_context *c, uintptr_t site)
{
  amon_site_range r = { c->site_lo, c->site_span };
  amon_site_widen (&r, (uintptr_t) c->fn, site, site);
  c->site_lo = r.lo;
  c->site_span = r.span;
}

/* amon_site_learn, and the sites seen from every context of @c's
 * routine widened to hold @c's, so that a context of the routine made
 * from now on starts knowing them (amon_machine_make_plain): a site is
 * the routine's whatever the context, and each new context's first
 * calls from sites its routine was seen to call from were each a walk
 * up the stack (yaml-cpp 0.7's tests: 514,000 contexts, 606,000 walks
 * from some 70,000 sites). */
AMON_FN AMON_INLINE void
amon_machine_learn (amon_machine *m, amon_context *c, uintptr_t site)
{
  amon_site_learn (c, site);
  if (c->len > 0 && (c->site_lo != 0 || c->site_span != 0))
    {
      uintptr_t lo = (uintptr_t) c->fn + (uintptr_t) (intptr_t) c->site_lo;
      amon_site_widen (&m->routine_sites[c->hist[c->len - 1] >> 1], (uintptr_t) c->fn, lo, lo + c->site_span);
    }
}

/* A call of routine @fn in context @from: the new context, its entry (or
 * @from's direct recursion) counted.  NULL when a limit was reached. */
AMON_FN AMON_INLINE amon_context *
amon_machine_call (amon_machine *m, amon_context *from, void *fn)
{
  if (fn == from->fn)
    {
      from->recursive++;
      return from;
    }
  amon_context *to = amon_cache_find (from, fn);
  if (to == NULL)
    return amon_machine_call_miss (m, from, fn);
  to->entries++;
  return to;
}

/* Steps A2-A5: writes to @out (room for @n + 1 entries) the history after
 * routine @p is called from history @h of @n entries, and returns its
 * length.  @p must differ from the routine of h[n-1] (A1).  Pure; exposed
 * for the tests that compare it with a literal reading of the paper. */
uint32_t amon_history_call (const uint32_t *h, uint32_t n, uint32_t p, uint32_t *out) AMON_HIDDEN;

/* @c's routine told a return (amon_hook_leave): @c and every context
 * of its routine made from now on need no return address swapped.  A
 * routine built with -minstrument-return=call tells every return, so
 * this is a fact of the routine, learnt once: kept per context only, each
 * new context's first return went through the trampoline and the hooks'
 * slow way (yaml-cpp's tests: 514,000 of them). */
AMON_FN static inline void
amon_machine_told (amon_machine *m, amon_context *c)
{
  c->told = 1;
  if (c->len > 0)
    m->routine_told[c->hist[c->len - 1] >> 1] = 1;
}

/* Address of routine @index. */
AMON_FN static inline void *
amon_machine_routine (const amon_machine *m, uint32_t index)
{
  return m->routine[index];
}

#endif
