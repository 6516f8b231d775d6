/* amon-thread.c — shadow stack, resynchronisation, correction windows:
 * the rare cases of the hot path in amon-thread.h. */
#define _GNU_SOURCE 1

#include "amon-thread.h"

#include <string.h>

#include "amon-format.h"
#include "amon-measure.h"

/* Points @limit at the first frame a push may not reach without the slow
 * path: one above the deepest frame seen, or the end of the capacity. */
AMON_FN static void
set_limit (amon_thread *t)
{
  uint32_t deepest = t->max_depth < t->stack_cap ? t->max_depth : t->stack_cap;
  t->limit = t->stack + deepest + 1;
}

AMON_FN int
amon_thread_init (amon_thread *t, const amon_limits *limits, uint64_t now)
{
  memset (t, 0, sizeof *t);
  int rc = amon_machine_init (&t->m, limits);
  if (rc)
    return rc;
  /* never above the limit: reaching the capacity is where it is checked */
  t->stack_cap = limits->max_depth < 1024 ? limits->max_depth : 1024;
  t->stack = amon_map ((size_t) (t->stack_cap + 1) * sizeof *t->stack, &t->m.bytes, limits->max_memory);
  if (t->stack == NULL)
    {
      amon_machine_release (&t->m);
      return AMON_STOP_MEMORY;
    }
  t->stack[0] = (amon_frame) { NULL, NULL, UINTPTR_MAX, t->m.root };
  t->top = t->stack;
  set_limit (t);
  t->longish = UINT64_MAX;
  t->countdown = AMON_WINDOW;
  t->keep = 1;
  t->start = t->origin = now;
  return 0;
}

AMON_FN void
amon_thread_release (amon_thread *t)
{
  amon_unmap (t->stack, (size_t) (t->stack_cap + 1) * sizeof *t->stack, &t->m.bytes);
  t->stack = t->top = t->limit = NULL;
  amon_unmap (t->owners, t->owners ? AMON_OWNERS * sizeof *t->owners : 0, &t->m.bytes);
  t->owners = NULL;
  amon_machine_release (&t->m);
}

AMON_FN void
amon_thread_stop (amon_thread *t, uint32_t reason)
{
  if (t->stop_reason)
    return;
  t->stop_reason = reason;
  /* A limit stops it in a hook that has just charged its interval: the
   * correction window ends here, so that the CPU time the monitor
   * compares with what it charged (derive) is read at the stop, not at
   * the last check up to 4096 events before, whose charges after it then
   * outweighed the monitor's cost ("0 s taken out of 0.00057 s measured
   * (11210 calls and returns ...)"), nor at exit.  Not after a jump out
   * of a hook, whose interval and log may be half written. */
  if (t->correct && reason != AMON_STOP_JUMPED && t->correct (t, t->start))
    {
      t->n_log = 0;
      t->countdown = AMON_WINDOW;
    }
  if (t->on_stop)
    t->on_stop (reason);
}

AMON_FN void
amon_thread_long (amon_thread *t, amon_context *c, uint64_t e, uint64_t now)
{
  if (e > t->longish)
    t->log[t->n_log++] = (amon_interval) { c, e };
  if (t->n_log < AMON_LOG_SIZE && t->countdown && !(t->gap && e > t->gap))
    return;
  /* the check counts a blind window's events by what is left of it
   * (amon-blind.h): the count starts again after it */
  int checked = t->correct == NULL || t->correct (t, now);
  t->countdown = AMON_WINDOW;
  /* a check refused (a child of vfork) leaves the intervals to the
   * parent's next, unless the log is full */
  if (!checked && t->n_log < AMON_LOG_SIZE)
    return;
  t->n_log = 0;
}

AMON_FN amon_frame *
amon_thread_resync (amon_thread *t, void *fn, void *site, uintptr_t sp)
{
  amon_frame *f = t->top;
  while (f != t->stack && amon_stale (f, site, sp, t->home))
    f--;
  /* Deeper frames were left, so a longjmp or an exception came back to a
   * caller, which may be calling again from the same site: then the frame
   * of this routine at this depth and site (and any inlined into it above)
   * is left too.  Not so without a jump: gcc inlines a recursive routine
   * into itself, repeating routine, site and depth. */
  if (f != t->top)
    {
      amon_frame *same = NULL;
      for (amon_frame *g = f; g != t->stack && g->sp == sp && g->site == site; g--)
        if (g->fn == fn)
          same = g;
      if (same)
        f = same - 1;
    }
  t->discarded += (uint64_t) (t->top - f);
  t->resyncs++;
  t->top = f;
  return f;
}

/* Doubles the shadow stack up to the depth limit; 0 when it cannot.  The
 * old stack stays mapped until @top has moved to the new one. */
AMON_FN static int
grow_stack (amon_thread *t)
{
  uint32_t cap = t->stack_cap * 2;
  if (cap > t->m.limits.max_depth)
    cap = t->m.limits.max_depth;
  if (cap <= t->stack_cap)
    return 0;
  amon_frame *s = amon_map ((size_t) (cap + 1) * sizeof *s, &t->m.bytes, t->m.limits.max_memory);
  if (s == NULL)
    return 0;
  amon_frame *old = t->stack;
  uint32_t depth = amon_thread_depth (t), old_cap = t->stack_cap;
  memcpy (s, old, (size_t) (depth + 1) * sizeof *s);
  t->stack = s;
  t->stack_cap = cap;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  t->top = s + depth;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  amon_unmap (old, (size_t) (old_cap + 1) * sizeof *old, &t->m.bytes);
  return 1;
}

AMON_FN amon_frame *
amon_thread_deeper (amon_thread *t)
{
  uint32_t depth = amon_thread_depth (t);
  /* the stack and its limit change together (amon_machine.critical) */
  t->m.critical = 1;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  if (depth == t->stack_cap && !grow_stack (t))
    {
      amon_thread_stop (t, t->stack_cap >= t->m.limits.max_depth ? AMON_STOP_DEPTH : AMON_STOP_MEMORY);
      t->m.critical = 0;
      return NULL;
    }
  if (depth + 1 > t->max_depth)
    t->max_depth = depth + 1;
  set_limit (t);
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  t->m.critical = 0;
  return t->top;
}

/* Pushes the frame of @fn above @f in context @next (NULL: the machine
 * hit a limit and profiling stops). */
static inline void
push_frame (amon_thread *t, amon_frame *f, void *fn, void *site, uintptr_t sp, amon_context *next)
{
  if (next == NULL)
    {
      amon_thread_stop (t, t->m.stop_reason);
      return;
    }
  f[1] = (amon_frame) { fn, site, sp, next };
  __atomic_signal_fence (__ATOMIC_RELEASE); /* the frame before the pointer to it */
  t->top = f + 1;
}

AMON_FN void
amon_thread_push_slow (amon_thread *t, void *fn, void *site, uintptr_t sp)
{
  amon_frame *f = t->top;
  if (amon_left (t, f, site, sp))
    f = amon_thread_resync (t, fn, site, sp); /* left by a longjmp */
  if (f + 1 == t->limit && (f = amon_thread_deeper (t)) == NULL)
    return;
  amon_context *next = amon_machine_call (&t->m, f->ctx, fn);
  push_frame (t, f, fn, site, sp, next);
}

AMON_FN void
amon_thread_push_miss (amon_thread *t, void *fn, void *site, uintptr_t sp)
{
  /* amon_thread_push_fast checked the stack and found no transition in
   * the caller's home slots: straight to the machine's miss path */
  amon_frame *f = t->top;
  amon_context *next = amon_machine_call_miss (&t->m, f->ctx, fn);
  push_frame (t, f, fn, site, sp, next);
}

AMON_FN void
amon_thread_pop_slow (amon_thread *t, void *fn, void *site)
{
  /* the frame of this routine and call site, below frames left by a
   * longjmp or an exception */
  amon_frame *f = t->top;
  while (f != t->stack && !(f->fn == fn && f->site == site))
    f--;
  if (f == t->stack)
    {
      t->unmatched++;
      return;
    }
  t->resyncs++;
  t->discarded += (uint64_t) (t->top - f);
  t->top = f - 1;
}

/* What is derived rather than counted: a return is a push less what is
 * still on the stack and what resynchronisation threw away; the
 * monitor's own cost is the clock's span less what was charged (with the
 * sampling clock, the time of the samples that fell in its code). */
AMON_FN static void
derive (amon_thread *t)
{
  uint64_t pushes = 0, charged = 0;
  for (amon_context *c = t->m.root; c; c = c->next)
    {
      pushes += c->entries + c->recursive;
      charged += __atomic_load_n (&c->time, __ATOMIC_RELAXED);
    }
  uint64_t above = amon_thread_depth (t) > t->base_depth ? amon_thread_depth (t) - t->base_depth : 0;
  t->returns = pushes > above + t->discarded ? pushes - above - t->discarded : 0;
  uint64_t span = t->start > t->origin ? t->start - t->origin : 0;
  if (t->mode == AMON_MODE_SAMPLED)
    {
      t->overhead_total = span > charged ? span - charged : 0;
      return;
    }
  t->overhead_total = span > charged + t->offcpu_total ? span - charged - t->offcpu_total : 0;
  /* on the CPU clock, time off the processor outside every interval (in
   * a check's system call, a calibration) is no cost of the monitor's:
   * its cost is the CPU time it did not charge */
  if (t->cpu_units)
    {
      /* and its samples may show the calibrated cost wrong (amon-measure.h) */
      amon_measure_settle (t, charged);
      uint64_t kept = (uint64_t) ((int64_t) charged + t->resid_total);
      t->overhead_total = t->cpu_units > kept ? t->cpu_units - kept : 0;
    }
}

AMON_FN void
amon_thread_finish (amon_thread *t)
{
  if (t->correct)
    t->correct (t, t->start);
  t->n_log = 0;
  t->countdown = AMON_WINDOW;
  derive (t);
}

AMON_FN void
amon_thread_charge_all (amon_thread *t, uint64_t now)
{
  if (t->mode != AMON_MODE_SAMPLED)
    amon_thread_charge (t, now);
  amon_thread_finish (t);
}

AMON_FN void
amon_thread_reset_counts (amon_thread *t, uint64_t now)
{
  t->n_log = 0;
  t->countdown = AMON_WINDOW;
  for (amon_context *c = t->m.root; c; c = c->next)
    c->time = c->entries = c->recursive = c->samples = 0;
  t->samples_program = t->samples_monitor = 0;
  t->blind_events = t->blind_units = t->blind_program = t->blind_monitor = 0;
  t->keep = 1;
  t->per_sample = 0;
  t->resid_total = 0;
  t->checked = 0;
  t->split_permille = 0;
  t->returns = t->resyncs = t->discarded = t->unmatched = t->overhead_total = t->offcpu_total = t->unseen = 0;
  t->base_depth = t->max_depth = amon_thread_depth (t);
  set_limit (t);
  t->start = t->origin = now;
}
