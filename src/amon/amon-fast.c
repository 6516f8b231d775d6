/* amon-fast.c — the -pg hooks' common case with the sampling clock,
 * compiled to leave the vector registers alone (-mgeneral-regs-only,
 * configure's AMON_FAST_CFLAGS), so that `mcount` and `__fentry__`
 * (amon-mcount-x86_64.S) keep only the integer registers around it, as
 * glibc's keep the argument registers for gprof, and the vector and x87
 * state only when it hands the call on to amon_pg_enter.  They make the
 * commonest calls themselves first, in registers (SAMPLED there), and
 * call this for the rest.  It is
 * amon_hook_enter_lazy's (amon-monitor.c) path when nothing is unusual:
 * the frames found gone are popped, the caller found (by a walk up the
 * stack where the thread knows its sites), then a transition pushed,
 * made if new where no memory need be mapped; anything else (a busy or
 * new thread, a walk through a site not known yet, memory to map, a new
 * depth) is left to amon_pg_enter, having changed nothing but the pops,
 * which it would make too.  Built without that option (__SSE__ defined), it hands
 * every call on. */
#define _GNU_SOURCE 1

#include "amon-hook.h"

#ifdef AMON_HAVE_PG

#include <stddef.h>

#include "amon-mcount.h"
#include "amon-offsets.h"
#include "amon-thread.h"
#include "amon-walk.h"

/* The layout the hooks' commonest events are made with in registers
 * (amon-offsets.h, amon-mcount-x86_64.S: SAMPLED, EXACT, TOLD), and the
 * constants written there as numbers. */
#define AMON_AT(type, field, off) _Static_assert (offsetof (type, field) == (off), #type "." #field " moved: amon-offsets.h")
AMON_AT (amon_thread, busy, AMON_OFF_T_BUSY);
AMON_AT (amon_thread, mode, AMON_OFF_T_MODE);
AMON_AT (amon_thread, blind, AMON_OFF_T_BLIND);
AMON_AT (amon_thread, top, AMON_OFF_T_TOP);
AMON_AT (amon_thread, limit, AMON_OFF_T_LIMIT);
AMON_AT (amon_thread, start, AMON_OFF_T_START);
AMON_AT (amon_thread, overhead, AMON_OFF_T_OVERHEAD);
AMON_AT (amon_thread, longish, AMON_OFF_T_LONGISH);
AMON_AT (amon_thread, countdown, AMON_OFF_T_COUNTDOWN);
AMON_AT (amon_thread, foreign_site, AMON_OFF_T_FOREIGN_SITE);
AMON_AT (amon_thread, foreign_ctx, AMON_OFF_T_FOREIGN_CTX);
AMON_AT (amon_thread, stack, AMON_OFF_T_STACK);
AMON_AT (amon_thread, home, AMON_OFF_T_HOME);
AMON_AT (amon_frame, fn, AMON_OFF_F_FN);
AMON_AT (amon_frame, site, AMON_OFF_F_SITE);
AMON_AT (amon_frame, sp, AMON_OFF_F_SP);
AMON_AT (amon_frame, ctx, AMON_OFF_F_CTX);
AMON_AT (amon_context, fn, AMON_OFF_C_FN);
AMON_AT (amon_context, entries, AMON_OFF_C_ENTRIES);
AMON_AT (amon_context, recursive, AMON_OFF_C_RECURSIVE);
AMON_AT (amon_context, time, AMON_OFF_C_TIME);
AMON_AT (amon_context, site_lo, AMON_OFF_C_SITE_LO);
AMON_AT (amon_context, site_span, AMON_OFF_C_SITE_SPAN);
AMON_AT (amon_context, far_at, AMON_OFF_C_FAR_AT);
AMON_AT (amon_context, tag, AMON_OFF_C_TAG);
AMON_AT (amon_context, told, AMON_OFF_C_TOLD);
AMON_AT (amon_context, near, AMON_OFF_C_NEAR);
AMON_AT (amon_pg_thread, busy, AMON_OFF_PG_BUSY);
AMON_AT (amon_pg_thread, top, AMON_OFF_PG_TOP);
AMON_AT (amon_pg_thread, limit, AMON_OFF_PG_LIMIT);
AMON_AT (amon_pg_thread, base, AMON_OFF_PG_BASE);
AMON_AT (amon_pg_frame, ret, AMON_OFF_PGF_RET);
AMON_AT (amon_pg_frame, slot, AMON_OFF_PGF_SLOT);
AMON_AT (amon_pg_frame, fn, AMON_OFF_PGF_FN);
AMON_AT (amon_pg_frame, restored, AMON_OFF_PGF_RESTORED);
AMON_AT (amon_cached, fn, AMON_OFF_CACHED_FN);
AMON_AT (amon_cached, to, AMON_OFF_CACHED_TO);
_Static_assert (sizeof (amon_frame) == AMON_SIZEOF_FRAME && sizeof (amon_cached) == AMON_SIZEOF_CACHED
                && sizeof (amon_pg_frame) == AMON_SIZEOF_PGF,
                "amon-offsets.h: sizes");
_Static_assert (sizeof (uintptr_t) == 8 && sizeof (((amon_context *) 0)->site_span) == 4
                && sizeof (((amon_thread *) 0)->mode) == 4 && sizeof (((amon_thread *) 0)->blind) == 4
                && sizeof (((amon_thread *) 0)->countdown) == 4
                && AMON_MODE_COUNTER == 0
                && sizeof (((amon_context *) 0)->far_at) == 4 && sizeof (((amon_context *) 0)->tag[0]) == 1
                && sizeof (((amon_context *) 0)->told) == 1 && sizeof (((amon_pg_frame *) 0)->restored) == 8,
                "amon-mcount-x86_64.S: field widths");
_Static_assert (AMON_NEAR == 2 && AMON_CACHE == 16 && AMON_STACK_WINDOW == 0x40000000 && AMON_READ_SPAN == 0x40000,
                "amon-mcount-x86_64.S: constants");

#ifndef __SSE__
/* A call that `__fentry__` or `mcount` left to C (SAMPLED): its cases
 * again, and besides a transition not in the cache, looked for in the
 * machine's table (amon_machine_find) or made there
 * (amon_machine_make_plain), and a call from a site not seen from the
 * top frame's routine, made by its caller (amon_lazy_padded) or found by
 * a walk up the stack that needs nothing the thread does not know
 * (amon_walk_site, plain): yaml-cpp 0.7's tests made 606,000 walks,
 * each with the vector state kept and the slow way's layers, most of
 * them at the first call from a new context.
 * (Before they made the common case themselves, this made a first try in
 * fewer registers and a second with these.) */
AMON_FN AMON_INLINE int
enter (uintptr_t *slot, void *fn)
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
  if (AMON_UNLIKELY (!known))
    {
      amon_frame *g = amon_lazy_padded (t, f, (uintptr_t) site);
      if (g == NULL)
        {
          /* the caller's frame pointer, as amon_hook_enter_lazy finds it */
          uintptr_t below = slot[-1];
          g = amon_walk_site (t, f, (uintptr_t) site, sp, below == (uintptr_t) fn ? AMON_NO_RBP : below, 1);
        }
      known = g != NULL;
      f = known ? g : f;
    }
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  t->top = f;
  int r = AMON_PUSH_SLOW;
  if (AMON_LIKELY (known))
    {
      r = amon_thread_push_fast (t, fn, site, sp);
      if (r == AMON_PUSH_MISS)
        {
          amon_context *to = amon_machine_find (&t->m, f->ctx, fn);
          if (to != NULL && !amon_cache_full (f->ctx))
            {
              amon_cache_put (f->ctx, fn, to);
              r = amon_thread_push_fast (t, fn, site, sp);
            }
          else if (to == NULL)
            {
              /* a new transition, made here unless memory must be
               * mapped (amon_machine_make_plain) */
              t->m.critical = 1;
              __atomic_signal_fence (__ATOMIC_SEQ_CST);
              to = amon_machine_make_plain (&t->m, f->ctx, fn);
              __atomic_signal_fence (__ATOMIC_SEQ_CST);
              t->m.critical = 0;
              if (to != NULL)
                r = amon_thread_push_fast (t, fn, site, sp);
            }
        }
    }
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  t->busy = 0;
  if (r != AMON_PUSHED && f->ctx->spilled)
    /* the slow way looks the transition up in the machine's table (or
     * makes it there), a line of tens of megabytes on a large profile
     * that is seldom in any cache: fetched now, it comes in while the
     * hook keeps the vector state and the monitor finds the caller */
    __builtin_prefetch (&t->m.trans[amon_trans_hash (f->ctx, fn) & t->m.trans_mask]);
  return r == AMON_PUSHED;
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
  return enter (slot, fn);
#endif
}

#endif
