/* amon-exact.c — the -pg hooks' common case with the exact clock (the
 * time-stamp counter), compiled, like amon-fast.c, to leave the vector
 * registers alone (-mgeneral-regs-only), so that `__fentry__`, `mcount`
 * and the return trampoline (amon-mcount-x86_64.S) save only the integer
 * registers around it, and the vector and x87 state only when it hands
 * the event on to amon_pg_enter, amon_pg_exit or amon_pg_leave.
 *
 * The slow way is two layers, each with its own TLS load, busy flag and
 * checks: the stack of swapped return addresses (amon-mcount.c), then the
 * monitor (amon-monitor.c, hook_enter and hook_exit).  Here both are one
 * function per event: every condition of both layers' common cases is
 * tested first, changing nothing (a busy or unstarted thread, a frame
 * left by a jump, a tail call, a full stack, an interval that ends a
 * correction window, a transition the machine does not have yet, a
 * return that does not match the top frame); only when all hold are both
 * stacks and the interval written (and logged, when it may hold time off
 * the processor: exact_kind).  Anything else returns 0 with nothing
 * changed, and the slow way does it all, as it would have.  The counter is read first, so that its latency (some
 * 25 cycles here, the larger part of the hook's cost) overlaps the loads
 * and tests.  `__return__` makes the commonest told return itself first,
 * in registers (amon-mcount-x86_64.S, TOLD), and calls
 * amon_pg_leave_exact for the rest; `__fentry__` and `mcount` likewise
 * make the commonest call (EXACT) and hand a long interval or a
 * transition not in the caches to amon_pg_enter_exact_at with their
 * reading, anything else to amon_pg_enter_exact.  Built without that
 * option (__SSE__ defined), every event goes the slow way.
 */
#define _GNU_SOURCE 1

#include "amon-hook.h"

#ifdef AMON_HAVE_PG

#include <x86intrin.h>

#include "amon-mcount.h"
#include "amon-thread.h"

#define TRAMPOLINE ((uintptr_t) amon_pg_return)

/* The interval that ends at @now less the calibrated cost, clamped at
 * 0 without a branch: a short interval less that cost falls either side
 * of 0 at random, and a branch on its sign, mispredicted half the time,
 * cost 2-5 ns a call. */
AMON_FN AMON_INLINE uint64_t
exact_length (const amon_thread *t, uint64_t now)
{
  int64_t e = (int64_t) (now - t->start - t->overhead);
  if (AMON_UNLIKELY (t->blind))
    return 0; /* nothing timed in a blind window (amon-blind.h) */
  return (uint64_t) (e & ~(e >> 63));
}

/* What an interval of @e needs: EXACT_SHORT, charged; EXACT_LONG, it
 * may hold time off the processor (longer than t->longish), charged and
 * logged, as amon_thread_long would; EXACT_RARE, the monitor's rare path
 * (amon_thread_long: it ends the correction window, by its count of
 * events, its length past t->gap or a full log).  The first try of each
 * hook (@second 0) tells short from the rest only, in few registers, and
 * leaves the rest to a second try, which tells them apart: calls into the
 * C library that take a few microseconds would otherwise each take the
 * rare path, which keeps the vector state. */
#define EXACT_SHORT 0
#define EXACT_LONG 1
#define EXACT_RARE 2
#define EXACT_SECOND 3 /* the first try's answer for the rest */

AMON_FN AMON_INLINE int
exact_kind (const amon_thread *t, uint64_t e, int second)
{
  if (!second)
    return ((e > t->longish) | (t->countdown == 1)) ? EXACT_SECOND : EXACT_SHORT;
  if (t->countdown == 1 || (e > t->longish && ((t->n_log + 1 >= AMON_LOG_SIZE) || (t->gap != 0 && e > t->gap))))
    return EXACT_RARE;
  return e > t->longish ? EXACT_LONG : EXACT_SHORT;
}

/* Charges an interval of @e, of kind @kind (short or long), that ends at
 * @now; a window counts the short ones (amon_thread_charge). */
AMON_FN AMON_INLINE void
exact_charge (amon_thread *t, uint64_t now, uint64_t e, int kind)
{
  if (kind == EXACT_LONG)
    t->log[t->n_log++] = (amon_interval) { t->top->ctx, e };
  else
    t->countdown--;
  amon_thread_add (t, now, e);
}

#ifndef __SSE__
/* Once a limit stopped profiling (or the profile was written), a call or
 * a told return has nothing left to do: nothing is timed, and a return
 * address swapped now would only cost its return a trip through the
 * trampoline.  1 (handled) then, so that the hook does not save the
 * vector state to hand it on: a program that went on after the stop ran
 * 15 times slower than while it was profiled (60 million calls, 22.6 s
 * of CPU time for 1.5 s, nearly all of it in the hooks' xsave).  A frame swapped before the stop still returns
 * through the trampoline, which the slow way pops. */
AMON_FN AMON_INLINE int
halted (void)
{
  return __atomic_load_n (&amon_halt, __ATOMIC_RELAXED) != 0;
}

static int enter_second (uintptr_t *slot, void *fn, uint64_t now);

/* amon_pg_enter_exact's work, the call made at counter reading @now.
 * The second try (@second), made when the first met a long interval or
 * a transition not in the cache, handles those too, with the first's
 * reading: a transition is then looked for in the machine's table
 * (amon_machine_find), which takes more registers than the cache's
 * probe (3.5% of jq 1.6's calls). */
AMON_FN AMON_INLINE int
enter (uintptr_t *slot, void *fn, int second, uint64_t now)
{
  amon_pg_thread *p = amon_pg_self;
  amon_thread *t = amon_self;
  uintptr_t s = (uintptr_t) slot, ret = *slot;
  amon_pg_frame *pf = p->top;
  /* amon_pg_enter's common case: not busy, the entry on top (if any) is
   * an ancestor's (above, on this stack), not a tail call; the monitor
   * running on the counter and not busy */
  if (AMON_UNLIKELY (p->busy | t->busy | ((pf != p->base) & (pf->slot - s - 1 >= AMON_STACK_WINDOW - 1))
                     | (ret == TRAMPOLINE) | (t->mode != AMON_MODE_COUNTER)
                     | __atomic_load_n (&amon_halt, __ATOMIC_RELAXED)))
    return halted ();
  /* amon_thread_push_fast's, except that a frame at or below @s is gone
   * in this mode (amon_hook_gone), whatever its return address, and so
   * is one above whose slot holds neither its return address nor the
   * trampoline's (an exception passed it: amon_hook_gone); the slot,
   * within the window above @s, is on this stack */
  amon_frame *f = t->top;
  void *site = (void *) ret;
  if (AMON_UNLIKELY (f->sp - s - 1 >= AMON_STACK_WINDOW - 1) || AMON_UNLIKELY (f + 1 == t->limit))
    return 0;
  uint64_t e = exact_length (t, now);
  int kind = exact_kind (t, e, second);
  if (AMON_UNLIKELY (kind == EXACT_SECOND))
    return enter_second (slot, fn, now); /* nothing changed yet */
  if (AMON_UNLIKELY (kind == EXACT_RARE))
    return 0;
  uintptr_t held = *(const uintptr_t *) f->sp;
  if (AMON_UNLIKELY ((held != (uintptr_t) f->site) & (held != TRAMPOLINE)))
    return 0;
  amon_context *from = f->ctx, *to = from;
  int found = 0; /* in the machine's table, not the cache */
  if (fn != from->fn && AMON_UNLIKELY ((to = amon_cache_find (from, fn)) == NULL))
    {
      if (!second)
        return enter_second (slot, fn, now); /* nothing changed yet */
      to = amon_machine_find (&t->m, from, fn);
      if (to == NULL)
        {
          /* a new transition, made here unless memory must be mapped
           * (amon_machine_make_plain); then the call is the cache's */
          p->busy = s;
          t->busy = s;
          t->m.critical = 1;
          __atomic_signal_fence (__ATOMIC_SEQ_CST);
          to = amon_machine_make_plain (&t->m, from, fn);
          __atomic_signal_fence (__ATOMIC_SEQ_CST);
          t->m.critical = 0;
          t->busy = 0;
          p->busy = 0;
          if (to == NULL)
            return 0;
        }
      /* not when the cache needs memory: the slow way makes it */
      else if (amon_cache_full (from))
        return 0;
      else
        found = 1;
    }
  /* a routine that tells its returns keeps its return address */
  int swap = !to->told;
  if (AMON_UNLIKELY (swap & (pf + 1 == p->limit)))
    return 0;
  p->busy = s;
  t->busy = s;
  __atomic_signal_fence (__ATOMIC_SEQ_CST); /* busy before anything changes */
  if (swap)
    {
      pf[1].ret = ret;
      pf[1].slot = s;
      pf[1].fn = fn;
      pf[1].restored = 0;
      __atomic_signal_fence (__ATOMIC_SEQ_CST); /* the entry before the pointer to it */
      p->top = pf + 1;
      *slot = TRAMPOLINE;
    }
  exact_charge (t, now, e, kind);
  if (found)
    amon_cache_put (from, fn, to);
  if (to == from)
    from->recursive++; /* A1 */
  else
    to->entries++;
  f[1].fn = fn;
  f[1].site = site;
  f[1].sp = s;
  f[1].ctx = to;
  __atomic_signal_fence (__ATOMIC_SEQ_CST); /* the frame before the pointer to it */
  t->top = f + 1;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  t->busy = 0;
  p->busy = 0;
  return 1;
}

AMON_FN __attribute__ ((noinline)) static int
enter_second (uintptr_t *slot, void *fn, uint64_t now)
{
  return enter (slot, fn, 1, now);
}

static uintptr_t exit_second (uintptr_t sp, uint64_t now);

/* amon_pg_exit_exact's work, the return at counter reading @now; the
 * second try (@second) as enter's. */
AMON_FN AMON_INLINE uintptr_t
exit_common (uintptr_t sp, int second, uint64_t now)
{
  amon_pg_thread *p = amon_pg_self;
  amon_thread *t = amon_self;
  uintptr_t s = sp - 8;
  amon_pg_frame *pf = p->top;
  amon_frame *f = t->top;
  /* amon_pg_exit's common case: the entry on top is the routine's, not
   * busy; hook_exit's: the top frame is the routine's call, the monitor
   * running on the counter and not busy */
  if (AMON_UNLIKELY ((pf->slot != s) | p->busy | t->busy | (t->mode != AMON_MODE_COUNTER)
                     | __atomic_load_n (&amon_halt, __ATOMIC_RELAXED)))
    return 0;
  uintptr_t ret = pf->ret;
  if (AMON_UNLIKELY ((f->fn != pf->fn) | ((uintptr_t) f->site != ret)))
    return 0;
  uint64_t e = exact_length (t, now);
  int kind = exact_kind (t, e, second);
  if (AMON_UNLIKELY (kind == EXACT_SECOND))
    return exit_second (sp, now);
  if (AMON_UNLIKELY (kind == EXACT_RARE))
    return 0;
  p->busy = s;
  t->busy = s;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  p->top = pf - 1;
  exact_charge (t, now, e, kind);
  t->top = f - 1;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  t->busy = 0;
  p->busy = 0;
  return ret;
}

AMON_FN __attribute__ ((noinline)) static uintptr_t
exit_second (uintptr_t sp, uint64_t now)
{
  return exit_common (sp, 1, now);
}

static int leave_second (uintptr_t s, uint64_t now);

/* amon_pg_leave_exact's work, the told return at counter reading @now;
 * the second try (@second) as enter's. */
AMON_FN AMON_INLINE int
leave (uintptr_t s, int second, uint64_t now)
{
  amon_pg_thread *p = amon_pg_self;
  amon_thread *t = amon_self;
  amon_pg_frame *pf = p->top;
  /* the common case: the frame on top is the routine's, its return
   * address not swapped (no entry at @s: the one on top, if any, is an
   * ancestor's, above), neither layer busy, the monitor on the counter */
  if (AMON_UNLIKELY (p->busy | t->busy | ((pf != p->base) & (pf->slot - s - 1 >= AMON_STACK_WINDOW - 1))
                     | (t->mode != AMON_MODE_COUNTER) | __atomic_load_n (&amon_halt, __ATOMIC_RELAXED)))
    return halted ();
  amon_frame *f = t->top;
  if (AMON_UNLIKELY ((f->sp != s) | ((uintptr_t) f->site != *(const uintptr_t *) s)))
    return 0;
  uint64_t e = exact_length (t, now);
  int kind = exact_kind (t, e, second);
  if (AMON_UNLIKELY (kind == EXACT_SECOND))
    return leave_second (s, now);
  if (AMON_UNLIKELY (kind == EXACT_RARE))
    return 0;
  p->busy = s;
  t->busy = s;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  exact_charge (t, now, e, kind);
  t->top = f - 1;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  t->busy = 0;
  p->busy = 0;
  return 1;
}

AMON_FN __attribute__ ((noinline)) static int
leave_second (uintptr_t s, uint64_t now)
{
  return leave (s, 1, now);
}
#endif

/* The common cases: the counter read first, so that its latency (some
 * 25 cycles here, the larger part of the hook's cost) overlaps the loads
 * and tests. */
AMON_FN int
amon_pg_enter_exact (uintptr_t *slot, void *fn)
{
#ifdef __SSE__
  (void) slot;
  (void) fn;
  return 0;
#else
  return enter (slot, fn, 0, __rdtsc ());
#endif
}

AMON_FN int
amon_pg_enter_exact_at (uintptr_t *slot, void *fn, uint64_t now)
{
#ifdef __SSE__
  (void) slot;
  (void) fn;
  (void) now;
  return 0;
#else
  return enter (slot, fn, 1, now);
#endif
}

AMON_FN uintptr_t
amon_pg_exit_exact (uintptr_t sp)
{
#ifdef __SSE__
  (void) sp;
  return 0;
#else
  return exit_common (sp, 0, __rdtsc ());
#endif
}

/* The slow way's tail (a routine that longjmp(3)s out of a recursion 6
 * deep, 2 million times: the routine called next took 18% of the
 * profile, the recursion 16%, where perf(1) gives them under 1% and 5%
 * of the bare run; xrstor alone was 33% of the instrumented run's). */
AMON_FN void
amon_pg_restart (void)
{
#ifndef __SSE__
  const amon_pg_thread *p = amon_pg_self;
  amon_thread *t = amon_self;
  if (!(p->busy | t->busy | (t->mode != AMON_MODE_COUNTER) | halted ()))
    t->start = __rdtsc ();
#endif
}

AMON_FN int
amon_pg_leave_exact (uintptr_t s)
{
#ifdef __SSE__
  (void) s;
  return 0;
#else
  return leave (s, 0, __rdtsc ());
#endif
}

#endif
