/* amon-fast.c — the -pg hooks' common case with the sampling clock,
 * compiled to leave the vector registers alone (-mgeneral-regs-only,
 * configure's AMON_FAST_CFLAGS), so that `mcount` and `__fentry__`
 * (amon-mcount-x86_64.S) keep only the integer registers around it, as
 * glibc's keep the argument registers for gprof, and the vector and x87
 * state only when it hands the call on to amon_pg_enter.  It is
 * amon_hook_enter_lazy's (amon-monitor.c) path when nothing is unusual:
 * the frames found gone are popped, then a known transition is pushed;
 * anything else (a busy or new thread, a call site not yet seen from the
 * routine, a transition the machine does not have yet, a new depth) is
 * left to amon_pg_enter, having changed nothing but the pops, which it
 * would make too.  Built without that option (__SSE__ defined), it hands
 * every call on. */
#define _GNU_SOURCE 1

#include "amon-hook.h"

#ifdef AMON_HAVE_PG

#include "amon-mcount.h"
#include "amon-thread.h"

#ifndef __SSE__
static int enter_closer (uintptr_t *slot, void *fn);

/* The common case.  With @closer, two cases that take more registers
 * than the first try may keep are handled too, so that only the second
 * try, made when the first met one of them, does: a transition not in
 * the cache, looked for in the machine's table (amon_machine_find), and
 * a call from a site not seen from the top frame's routine, made by its
 * caller (amon_lazy_padded). */
AMON_FN AMON_INLINE int
enter (uintptr_t *slot, void *fn, int closer)
{
  amon_thread *t = amon_self;
  uintptr_t sp = (uintptr_t) slot;
  void *site = (void *) *slot;
  if (AMON_UNLIKELY ((amon_pg_lazy == 0) | (t->busy != 0) | (__atomic_load_n (&amon_halt, __ATOMIC_RELAXED) != 0)))
    /* once profiling stopped, nothing to do (amon-exact.c, halted): not
     * the slow way, whose hook saves the vector state first */
    return __atomic_load_n (&amon_halt, __ATOMIC_RELAXED) != 0;
  t->busy = sp;
  amon_frame *f = amon_lazy_live_top (t, sp);
  int known = amon_lazy_site_known (t, f->ctx, (uintptr_t) site);
  if (AMON_UNLIKELY (!known) && closer)
    {
      amon_frame *g = amon_lazy_padded (t, f, (uintptr_t) site);
      known = g != NULL;
      f = known ? g : f;
    }
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  t->top = f;
  int r = AMON_PUSH_SLOW;
  if (AMON_LIKELY (known))
    {
      r = amon_thread_push_fast (t, fn, site, sp);
      if (closer && r == AMON_PUSH_MISS)
        {
          amon_context *to = amon_machine_find (&t->m, f->ctx, fn);
          if (to != NULL && !amon_cache_full (f->ctx))
            {
              amon_cache_put (f->ctx, fn, to);
              r = amon_thread_push_fast (t, fn, site, sp);
            }
        }
    }
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  t->busy = 0;
  if (AMON_UNLIKELY ((r == AMON_PUSH_MISS) | !known) && !closer)
    return enter_closer (slot, fn);
  if (closer && r != AMON_PUSHED)
    /* the slow way looks the transition up in the machine's table (or
     * makes it there), a line of tens of megabytes on a large profile
     * that is seldom in any cache: fetched now, it comes in while the
     * hook keeps the vector state and the monitor finds the caller */
    __builtin_prefetch (&t->m.trans[amon_trans_hash (f->ctx, fn) & t->m.trans_mask]);
  return r == AMON_PUSHED;
}

AMON_FN __attribute__ ((noinline)) static int
enter_closer (uintptr_t *slot, void *fn)
{
  return enter (slot, fn, 1);
}
#endif

AMON_FN int
amon_pg_enter_fast (uintptr_t *slot, void *fn)
{
#ifdef __SSE__
  (void) slot;
  (void) fn;
  return 0;
#else
  return enter (slot, fn, 0);
#endif
}

#endif
