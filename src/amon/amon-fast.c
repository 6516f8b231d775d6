/* amon-fast.c — the -pg hooks' common case with the sampling clock,
 * compiled to leave the vector registers alone (-mgeneral-regs-only,
 * configure's AMON_FAST_CFLAGS), so that `mcount` and `__fentry__`
 * (amon-mcount-x86_64.S) save only the integer argument registers around
 * it, as glibc's do for gprof, and the eight vector ones only when it
 * hands the call on to amon_pg_enter.  It is amon_hook_enter_lazy's
 * (amon-monitor.c) path when nothing is unusual: the frames found gone
 * are popped, then a known transition is pushed; anything else (a busy
 * or new thread, a call site not yet seen from the routine, a transition
 * not in the context's cache, a new depth) is left to amon_pg_enter,
 * having changed nothing but the pops, which it would make too.  Built
 * without that option (__SSE__ defined), it hands every call on. */
#define _GNU_SOURCE 1

#include "amon-hook.h"

#ifdef AMON_HAVE_PG

#include "amon-mcount.h"
#include "amon-thread.h"

AMON_FN int
amon_pg_enter_fast (uintptr_t *slot, void *fn)
{
#ifdef __SSE__
  (void) slot;
  (void) fn;
  return 0;
#else
  amon_thread *t = amon_self;
  uintptr_t sp = (uintptr_t) slot;
  void *site = (void *) *slot;
  if (AMON_UNLIKELY ((amon_pg_lazy == 0) | (t->busy != 0) | (__atomic_load_n (&amon_halt, __ATOMIC_RELAXED) != 0)))
    return 0;
  t->busy = sp;
  amon_frame *f = amon_lazy_live_top (t, sp);
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  t->top = f;
  const amon_context *c = f->ctx;
  if (AMON_UNLIKELY ((uintptr_t) site - c->site_lo > c->site_hi - c->site_lo)
      || amon_thread_push_fast (t, fn, site, sp) != AMON_PUSHED)
    {
      __atomic_signal_fence (__ATOMIC_SEQ_CST);
      t->busy = 0;
      return 0;
    }
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  t->busy = 0;
  return 1;
#endif
}

#endif
