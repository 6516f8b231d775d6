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

AMON_FN void
amon_thread_charge_all (amon_thread *t, uint64_t now)
{
  amon_thread_charge (t, now);
  amon_thread_flush (t);
}

AMON_FN int
amon_thread_grow_stack (amon_thread *t)
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
