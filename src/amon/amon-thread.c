/* amon-thread.c — shadow stack, resynchronisation and the interval log. */
#define _GNU_SOURCE 1

#include "amon-thread.h"

#include <string.h>

#include "amon-format.h"

AMON_FN int
amon_thread_init (amon_thread *t, const amon_limits *limits, uint64_t now)
{
  memset (t, 0, sizeof *t);
  int rc = amon_machine_init (&t->m, limits);
  if (rc)
    return rc;
  /* never above the limit: reaching the capacity is where it is checked */
  t->stack_cap = limits->max_depth < 1024 ? limits->max_depth : 1024;
  t->stack = amon_map ((size_t) t->stack_cap * sizeof *t->stack, &t->m.bytes, limits->max_memory);
  if (t->stack == NULL)
    {
      amon_machine_release (&t->m);
      return AMON_STOP_MEMORY;
    }
  t->cur = t->m.root;
  t->start = now;
  return 0;
}

AMON_FN void
amon_thread_release (amon_thread *t)
{
  amon_unmap (t->stack, (size_t) t->stack_cap * sizeof *t->stack, &t->m.bytes);
  t->stack = NULL;
  amon_machine_release (&t->m);
}

AMON_FN void
amon_thread_flush (amon_thread *t)
{
  uint32_t n = t->n_log;
  if (n && t->correct)
    t->correct (t, t->log, n);
  uint64_t c = t->overhead;
  for (uint32_t i = 0; i < n; i++)
    {
      uint64_t e = t->log[i].elapsed;
      uint64_t own = e < c ? e : c;
      t->overhead_total += own;
      amon_context *ctx = t->log[i].ctx;
      /* relaxed atomics: the writer may read while this thread runs */
      __atomic_store_n (&ctx->time, __atomic_load_n (&ctx->time, __ATOMIC_RELAXED) + (e - own), __ATOMIC_RELAXED);
    }
  t->n_log = 0;
}

/* Logs the interval that ends at @now; 1 when the log was flushed. */
AMON_FN static inline int
charge (amon_thread *t, uint64_t now)
{
  uint64_t e = now > t->start ? now - t->start : 0;
  t->start = now;
  t->log[t->n_log].ctx = t->cur;
  t->log[t->n_log].elapsed = e;
  if (AMON_UNLIKELY (++t->n_log == AMON_LOG_SIZE || (t->gap && e > t->gap)))
    {
      amon_thread_flush (t);
      return 1;
    }
  return 0;
}

AMON_FN void
amon_thread_charge_all (amon_thread *t, uint64_t now)
{
  charge (t, now);
  amon_thread_flush (t);
}

AMON_FN static inline int
same_stack (uintptr_t a, uintptr_t b)
{
  return (a > b ? a - b : b - a) < AMON_STACK_WINDOW;
}

AMON_FN static int
grow_stack (amon_thread *t)
{
  uint32_t cap = t->stack_cap * 2;
  if (cap > t->m.limits.max_depth)
    cap = t->m.limits.max_depth;
  if (cap <= t->stack_cap)
    return 0;
  amon_frame *s = amon_map ((size_t) cap * sizeof *s, &t->m.bytes, t->m.limits.max_memory);
  if (s == NULL)
    return 0;
  memcpy (s, t->stack, (size_t) t->depth * sizeof *s);
  amon_unmap (t->stack, (size_t) t->stack_cap * sizeof *s, &t->m.bytes);
  t->stack = s;
  t->stack_cap = cap;
  return 1;
}

AMON_FN static void
set_current (amon_thread *t)
{
  t->cur = t->depth ? t->stack[t->depth - 1].ctx : t->m.root;
}

/* Whether frame @f cannot be the caller of a routine entered with @sp
 * and @site: it is deeper, or at the same depth without being the frame
 * the callee was inlined into (an inlined callee's hooks run in its
 * container's frame and pass the container's return address). */
AMON_FN static inline int
stale (const amon_frame *f, void *site, uintptr_t sp)
{
  return (f->sp < sp || (f->sp == sp && f->site != site)) && same_stack (f->sp, sp);
}

AMON_FN int
amon_thread_enter (amon_thread *t, void *fn, void *site, uintptr_t sp, uint64_t now)
{
  int flushed = charge (t, now);
  if (AMON_UNLIKELY (t->depth && t->stack[t->depth - 1].sp <= sp) && stale (&t->stack[t->depth - 1], site, sp))
    {
      /* left by a longjmp */
      while (t->depth && stale (&t->stack[t->depth - 1], site, sp))
        t->depth--;
      t->resyncs++;
      set_current (t);
    }
  if (AMON_UNLIKELY (t->depth == t->stack_cap) && !grow_stack (t))
    {
      t->stop_reason = t->stack_cap >= t->m.limits.max_depth ? AMON_STOP_DEPTH : AMON_STOP_MEMORY;
      return flushed;
    }
  amon_context *next = amon_machine_call (&t->m, t->cur, fn);
  if (AMON_UNLIKELY (next == NULL))
    {
      t->stop_reason = t->m.stop_reason;
      return flushed;
    }
  amon_frame *f = &t->stack[t->depth++];
  f->fn = fn;
  f->site = site;
  f->sp = sp;
  f->ctx = next;
  t->cur = next;
  t->calls++;
  if (AMON_UNLIKELY (t->depth > t->max_depth))
    t->max_depth = t->depth;
  return flushed;
}

AMON_FN int
amon_thread_exit (amon_thread *t, void *fn, void *site, uintptr_t sp, uint64_t now)
{
  (void) sp; /* gcc may call the exit hook before or after the epilogue:
               * the stack address says nothing reliable here */
  int flushed = charge (t, now);
  uint32_t d = t->depth;
  if (AMON_LIKELY (d && t->stack[d - 1].fn == fn && t->stack[d - 1].site == site))
    {
      t->depth = d - 1;
      t->returns++;
      set_current (t);
      return flushed;
    }
  /* the frame of this routine and call site, below frames left by a
   * longjmp or an exception */
  while (d && !(t->stack[d - 1].fn == fn && t->stack[d - 1].site == site))
    d--;
  if (d == 0)
    {
      t->unmatched++;
      return flushed;
    }
  t->resyncs++;
  t->depth = d - 1;
  t->returns++;
  set_current (t);
  return flushed;
}

AMON_FN void
amon_thread_reset_counts (amon_thread *t, uint64_t now)
{
  t->n_log = 0;
  for (amon_context *c = t->m.root; c; c = c->next)
    c->time = c->entries = c->recursive = 0;
  t->calls = t->returns = t->resyncs = t->unmatched = t->overhead_total = t->offcpu_total = 0;
  t->max_depth = t->depth;
  t->start = now;
}
