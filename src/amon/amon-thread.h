/* amon-thread.h — one thread's monitor: the context machine, the shadow
 * stack of contexts, and the time charged to each context.
 *
 * Spivey 2004: at each call the new context is pushed on a stack that
 * shadows the program's; at each return it is popped.  Time is charged to
 * the current context at each change, from the clock reading the caller
 * passes in, so the tests can replay calls and returns with explicit
 * timestamps (amon-monitor.c passes real clock readings).
 *
 * Charging is deferred: each event appends (context, elapsed) to a short
 * log, and the log is applied when full.  The hot path then writes one
 * sequential record instead of a counter in a random context, and the
 * flush is where a clock that needs correcting (the CPU clock built on the
 * TSC, amon-clock.h) corrects a whole window at once.  A flush subtracts
 * the monitor's own calibrated cost from every interval.
 *
 * Resynchronisation, for longjmp, exceptions and exits that do not match:
 * each frame records the stack address the hook saw (@sp, the caller's
 * frame) and the return address (@site).  A call whose @sp is above the
 * top frame's cannot be that frame's callee, nor can one at the same @sp
 * with another @site: such frames were left by a longjmp and are popped.
 * (Equal @sp and @site is a callee the compiler inlined: gcc still calls
 * the hooks for it, from its container's frame with its container's
 * return address.)  A return pops its frame, found by routine and call
 * site (the same in the exit hook as in the entry hook), with the frames
 * above it; a return that matches no frame is counted and ignored.  (The
 * stack address is no use on return: gcc calls the exit hook before or
 * after the epilogue.)  Stack addresses further apart than
 * AMON_STACK_WINDOW are taken to be on another stack (sigaltstack) and
 * never cause pops.
 */
#ifndef AMON_THREAD_H
#define AMON_THREAD_H

#include "amon-format.h"
#include "amon-fsm.h"

#define AMON_LOG_SIZE 256
#define AMON_STACK_WINDOW ((uintptr_t) 1 << 30)

typedef struct {
  void *fn;
  void *site;
  uintptr_t sp;
  amon_context *ctx; /* the context while this frame's routine runs */
} amon_frame;

typedef struct {
  amon_context *ctx;
  uint64_t elapsed; /* clock units */
} amon_interval;

typedef struct amon_thread amon_thread;

/* Adjusts the @n intervals of a window before they are charged (may
 * lower them); see amon-clock.h. */
typedef void (*amon_correct_fn) (amon_thread *t, amon_interval *log, uint32_t n);

struct amon_thread {
  amon_machine m;
  amon_context *cur;
  amon_frame *stack;
  uint32_t depth, stack_cap;
  uint64_t start;            /* clock reading when the current interval began */
  uint64_t overhead;         /* clock units subtracted per interval */
  uint64_t gap;              /* an interval longer than this flushes at once (0: never) */
  amon_correct_fn correct;   /* nullable */
  uint32_t n_log;
  amon_interval log[AMON_LOG_SIZE];
  /* statistics */
  uint64_t calls, returns, resyncs, unmatched, overhead_total, offcpu_total;
  uint32_t max_depth;
  uint32_t stop_reason;      /* AMON_STOP_*, 0 while profiling */
  /* used by amon-monitor.c and amon-clock.c */
  volatile int busy;         /* inside a hook */
  int finished;              /* the thread has exited */
  amon_thread *next;         /* registry */
  uint64_t sync_clock, sync_cpu; /* last CPU-clock synchronisation */
};

/* 0 or AMON_STOP_MEMORY.  @now starts the first interval (in the root). */
int amon_thread_init (amon_thread *t, const amon_limits *limits, uint64_t now) AMON_HIDDEN;
void amon_thread_release (amon_thread *t) AMON_HIDDEN;

/* Charges the time up to @now to the current context and applies the log. */
void amon_thread_charge_all (amon_thread *t, uint64_t now) AMON_HIDDEN;
/* Applies the log. */
void amon_thread_flush (amon_thread *t) AMON_HIDDEN;
/* Doubles the shadow stack up to the depth limit; 0 when it cannot. */
int amon_thread_grow_stack (amon_thread *t) AMON_HIDDEN;

/* Zeroes every counter (the child after fork starts afresh). */
void amon_thread_reset_counts (amon_thread *t, uint64_t now) AMON_HIDDEN;

/* ---- the hot path, inline in the hooks ----
 * amon_thread_enter: a call of routine @fn from return address @site, the
 * hook's frame at @sp, at clock reading @now.  Returns 1 when the log was
 * flushed (the caller may restart the interval after the flush's own
 * cost), 0 otherwise; t->stop_reason is set when a limit stopped
 * profiling.  amon_thread_exit: the return from @fn (same arguments as
 * the matching call). */

/* Logs the interval that ends at @now; 1 when the log was flushed. */
AMON_FN AMON_INLINE int
amon_thread_charge (amon_thread *t, uint64_t now)
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

AMON_FN AMON_INLINE int
amon_same_stack (uintptr_t a, uintptr_t b)
{
  return (a > b ? a - b : b - a) < AMON_STACK_WINDOW;
}

AMON_FN AMON_INLINE void
amon_thread_set_current (amon_thread *t)
{
  t->cur = t->depth ? t->stack[t->depth - 1].ctx : t->m.root;
}

/* Whether frame @f cannot be the caller of a routine entered with @sp
 * and @site: it is deeper, or at the same depth without being the frame
 * the callee was inlined into (an inlined callee's hooks run in its
 * container's frame and pass the container's return address). */
AMON_FN AMON_INLINE int
stale (const amon_frame *f, void *site, uintptr_t sp)
{
  return (f->sp < sp || (f->sp == sp && f->site != site)) && amon_same_stack (f->sp, sp);
}

/* The context change of a call, without charging time (amon_thread_enter
 * less the clock; the sampling clock charges from a signal handler). */
AMON_FN AMON_INLINE void
amon_thread_push (amon_thread *t, void *fn, void *site, uintptr_t sp)
{
  if (AMON_UNLIKELY (t->depth && t->stack[t->depth - 1].sp <= sp) && stale (&t->stack[t->depth - 1], site, sp))
    {
      /* left by a longjmp */
      while (t->depth && stale (&t->stack[t->depth - 1], site, sp))
        t->depth--;
      t->resyncs++;
      amon_thread_set_current (t);
    }
  if (AMON_UNLIKELY (t->depth == t->stack_cap) && !amon_thread_grow_stack (t))
    {
      t->stop_reason = t->stack_cap >= t->m.limits.max_depth ? AMON_STOP_DEPTH : AMON_STOP_MEMORY;
      return;
    }
  amon_context *next = amon_machine_call (&t->m, t->cur, fn);
  if (AMON_UNLIKELY (next == NULL))
    {
      t->stop_reason = t->m.stop_reason;
      return;
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
}

/* The context change of a return, without charging time.  No stack
 * address: gcc may call the exit hook before or after the epilogue, so
 * it says nothing reliable here. */
AMON_FN AMON_INLINE void
amon_thread_pop (amon_thread *t, void *fn, void *site)
{
  uint32_t d = t->depth;
  if (AMON_LIKELY (d && t->stack[d - 1].fn == fn && t->stack[d - 1].site == site))
    {
      t->depth = d - 1;
      t->returns++;
      amon_thread_set_current (t);
      return;
    }
  /* the frame of this routine and call site, below frames left by a
   * longjmp or an exception */
  while (d && !(t->stack[d - 1].fn == fn && t->stack[d - 1].site == site))
    d--;
  if (d == 0)
    {
      t->unmatched++;
      return;
    }
  t->resyncs++;
  t->depth = d - 1;
  t->returns++;
  amon_thread_set_current (t);
}

AMON_FN AMON_INLINE int
amon_thread_enter (amon_thread *t, void *fn, void *site, uintptr_t sp, uint64_t now)
{
  int flushed = amon_thread_charge (t, now);
  amon_thread_push (t, fn, site, sp);
  return flushed;
}

AMON_FN AMON_INLINE int
amon_thread_exit (amon_thread *t, void *fn, void *site, uintptr_t sp, uint64_t now)
{
  (void) sp;
  int flushed = amon_thread_charge (t, now);
  amon_thread_pop (t, fn, site);
  return flushed;
}


#endif
