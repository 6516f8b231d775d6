/* amon-thread.h — one thread's monitor: the context machine, the shadow
 * stack of contexts, and the time charged to each context.
 *
 * Spivey 2004: at each call the new context is pushed on a stack that
 * shadows the program's; at each return it is popped.  Time is charged to
 * the current context at each change, from the clock reading the caller
 * passes in, so the tests can replay calls and returns with explicit
 * timestamps (amon-monitor.c passes real clock readings).
 *
 * The hot path is what a call or a return costs when nothing unusual
 * happens, and it is kept to a few dozen instructions with no call: the
 * current context is the top frame's (stack[0] is a sentinel frame for
 * the root, so the stack is never empty and needs no test); one pointer
 * (@limit) stands for both the stack's capacity and the deepest frame
 * seen so far, so one comparison finds both; the interval is charged to
 * the context at once (no log to replay later); the counts of calls and
 * returns are derived at the end from the contexts' counters instead of
 * being kept per event.  Everything rare (resynchronisation, growth, a
 * new transition, a long interval, the end of a correction window) is out
 * of line.
 *
 * Off-CPU time (clock cpu on the TSC, amon-clock.h): an interval longer
 * than @longish may contain time the thread spent off the processor, so
 * it is logged (context and length); shorter ones cannot hold a
 * preemption (a context switch away and back takes longer).  A window of
 * AMON_WINDOW events, or a full log, or an interval longer than @gap,
 * ends with a check against the thread's CPU clock (@correct), which
 * takes the time off the processor back from the logged intervals.  So
 * the system call costs a fraction of a nanosecond per event, and only
 * intervals that can hold a preemption are ever touched.
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
 * AMON_STACK_WINDOW are taken to be on another stack (a signal handler's,
 * sigaltstack): a call there pops nothing, but a call back on the
 * thread's own stack (@home) pops the frames on another above it, left
 * by a handler that jumped out.
 *
 * Signals: the sampling clock's SIGPROF handler reads top->ctx at any
 * moment, so a frame is written before @top points at it, and the stack
 * is never unmapped while @top points into it.
 */
#ifndef AMON_THREAD_H
#define AMON_THREAD_H

#include <time.h>

#include "amon-cfa.h"
#include "amon-format.h"
#include "amon-fsm.h"

#define AMON_LOG_SIZE 64          /* long intervals per correction window */
#define AMON_WINDOW 4096          /* events per correction window at most */
#define AMON_STACK_WINDOW ((uintptr_t) 1 << 30)
#define AMON_BUSY UINTPTR_MAX     /* busy, not in a hook: no jump leaves it */
/* Call sites whose routine a thread remembers (t->owners, amon-walk.h):
 * the hooks' common code walks only through sites it remembers, and
 * yaml-cpp 0.7's tests walk from some 70,000; with 4,096 remembered
 * 104,000 of its 606,000 walks found a site pushed out and took the slow
 * way, with 16,384 (512 KiB, mapped at the first walk and touched where
 * the sites fall) 70,000, about the sites never seen before. */
#define AMON_OWNERS 16384

typedef struct {
  void *fn;
  void *site;
  uintptr_t sp;
  amon_context *ctx; /* the context while this frame's routine runs */
} amon_frame;

typedef struct {
  amon_context *ctx;
  uint64_t elapsed; /* clock units, already charged to ctx */
} amon_interval;

typedef struct amon_thread amon_thread;

/* What the -pg mode with the sampling clock knows of a call site, a
 * return address: the start of its routine (amon_owner, 0: unknown) and
 * its frame at the call (amon_cfa_at; offset 0: unknown). */
typedef struct {
  uintptr_t site, owner;
  amon_cfa cfa;
} amon_site;

#define AMON_SITE_SLOT(site) (((site) >> 2) & (AMON_OWNERS - 1))

/* How the hooks learn the time (amon-monitor.c). */
#define AMON_MODE_COUNTER 0  /* the time-stamp counter, read inline */
#define AMON_MODE_SAMPLED 1  /* no clock in the hooks: SIGPROF charges */
#define AMON_MODE_CALL 2     /* a clock read by a call (clock_gettime) */

/* Ends a correction window at clock reading @now: takes the time off the
 * processor since the last window back from the logged intervals
 * t->log[0..t->n_log) (lowering their contexts' time and raising
 * t->offcpu_total) and starts the next window and the next interval
 * (t->start) after its own cost.  See amon-clock.h.  0 when it could not
 * check, having changed nothing (a child of vfork: the parent checks). */
typedef int (*amon_correct_fn) (amon_thread *t, uint64_t now);

struct amon_thread {
  /* hot: read at every call and return */
  volatile uintptr_t busy;   /* inside a hook: its stack address; AMON_BUSY: not for hooks (amon-monitor.c) */
  int mode;                  /* AMON_MODE_* */
  uint32_t blind;            /* a blind window: the hooks read no counter and charge nothing (amon-blind.h) */
  amon_frame *top;           /* the current frame; its ctx is the current context */
  amon_frame *limit;         /* a push to here takes the slow path */
  uint64_t start;            /* clock reading when the current interval began */
  uint64_t overhead;         /* clock units subtracted per interval */
  uint64_t longish;          /* intervals longer than this are logged (UINT64_MAX: never) */
  uint32_t countdown;        /* events left in this window */
  uint32_t n_log;
  /* the -pg mode with the sampling clock: the call site in no profiled
   * routine (a library's, calling back) that a walk last found called
   * under the top frame, and that frame's context (amon_lazy_site_known) */
  uintptr_t foreign_site;
  const amon_context *foreign_ctx;
  /* read by the sampling clock's common call too (amon-offsets.h): here,
   * where they lay past the machine, across two cache lines once it grew */
  amon_frame *stack;         /* stack[0]: the root's sentinel frame */
  uintptr_t home;            /* an address on the thread's own stack (0: unknown) */
  amon_machine m;
  /* cold */
  uint32_t stack_cap;        /* frames above the sentinel */
  uint32_t max_depth;        /* deepest frame pushed */
  uint32_t base_depth;       /* depth when the counts were last zeroed */
  uint32_t stop_reason;      /* AMON_STOP_*, 0 while profiling */
  amon_context *tail_root;   /* the sampling clock: the context of the routine at the bottom of
                              * the stack at the last sample (NULL: none), which the time after
                              * it goes to once every routine has returned (amon-monitor.c) */
  void (*on_stop) (uint32_t reason); /* nullable; told once */
  uint64_t gap;              /* an interval longer than this ends its window (0: never) */
  amon_correct_fn correct;   /* nullable */
  uint64_t origin;           /* clock reading when the counts were last zeroed */
  uint32_t cal_windows;      /* correction windows ended (amon-calibrate.h) */
  /* statistics */
  uint64_t returns, resyncs, discarded, unmatched, overhead_total, offcpu_total;
  uint64_t unseen;           /* calls a signal handler made while it interrupted a hook (amon-monitor.c,
                              * amon_hook_unseen): not profiled */
  /* used by amon-monitor.c and amon-clock.c */
  int finished;              /* the thread has exited */
  int end_rounds;            /* rounds of the key destructors it has seen (amon-monitor.c, thread_end) */
  amon_thread *next;         /* registry */
  uint64_t sync_clock, sync_cpu; /* last CPU-clock synchronisation */
  uint64_t origin_cpu;       /* the thread's CPU clock (ns) at @origin, for the CPU clock */
  uint64_t cpu_units;        /* its CPU time from then to the last check, in clock units (0: unknown) */
  /* with samples of its own code only (user_only, amon-measure.c): its
   * time in the kernel, from @origin_sys (ns) to the last check, in clock
   * units, which the samples cannot split */
  uint64_t sys_units, origin_sys;
  uint64_t sample_sys;       /* with the sampling clock: that time (ns) at its last sample */
  int user_only;
  /* the run's own measure of the monitor's cost (amon-measure.h) */
  uint64_t samples_program, samples_monitor; /* SIGPROF samples in the program's code, in the monitor's */
  /* blind windows (amon-blind.h): their events, their CPU time (clock
   * units) and their samples (counted in the two above too) */
  uint64_t blind_events, blind_units, blind_program, blind_monitor;
  uint64_t blind_seed;       /* the choice of the next window */
  uint32_t windows;          /* windows ended, up to AMON_BLIND_AFTER */
  double keep;               /* after the samples, the share of each context's charge it keeps (1: all) */
  double per_sample;         /* and the clock units it gets for each of its samples (0: none) */
  int64_t resid_total;       /* what that added in all */
  /* the estimates of the program's time it chose from, in clock units
   * (0: none): the calibrations' (over the blind windows too), all the
   * samples', the blind windows' samples' (amon-blind.h) */
  uint64_t cal_total, samples_total, blind_total;
  int checked;               /* it had the samples to check the calibrations */
  uint32_t split_permille;   /* their weight from the split's test where it set theirs (amon_measure_settle; 0: none) */
  /* the thread's source of samples, while has_timer (amon-measure.c): a
   * perf event on its task clock (sample_fd >= 0, whose kernel id is
   * sample_id), or else a POSIX timer on its CPU clock */
  timer_t timer;
  int has_timer;
  /* the thread's CPU clock: with the sampling clock another thread reads
   * it at exit when this one is still running (amon-monitor.c), with the
   * counter the checks read it (amon-clock.c) */
  clockid_t cpu_clock;
  int has_cpu_clock;
  int sample_fd;
  uint64_t sample_id;
  amon_interval log[AMON_LOG_SIZE];
  /* the -pg mode with the sampling clock: call sites' routines
   * (amon-owner.h) and CFA offsets (amon-cfa.h), AMON_OWNERS of them
   * direct-mapped by the site's address (AMON_SITE_SLOT), mapped at the
   * first walk (NULL before; amon-walk.c), or where that failed the one
   * in @owner_spare */
  amon_site *owners;
  amon_site owner_spare;
};

/* The calling thread's monitor (amon-monitor.c; a busy one while it has
 * none), and whether profiling is over. */
extern __thread amon_thread *amon_self __attribute__ ((tls_model ("initial-exec"))) AMON_HIDDEN;
extern int amon_halt AMON_HIDDEN;

/* 0 or AMON_STOP_MEMORY.  @now starts the first interval (in the root). */
int amon_thread_init (amon_thread *t, const amon_limits *limits, uint64_t now) AMON_HIDDEN;
void amon_thread_release (amon_thread *t) AMON_HIDDEN;

/* Frames on the shadow stack. */
AMON_FN static inline uint32_t
amon_thread_depth (const amon_thread *t)
{
  return (uint32_t) (t->top - t->stack);
}

/* Charges the time up to @now to the current context, ends the window and
 * sets the statistics that are derived rather than counted (returns,
 * overhead_total).  The thread may go on after. */
void amon_thread_charge_all (amon_thread *t, uint64_t now) AMON_HIDDEN;
/* Ends the window (without correction when t->correct is NULL) and sets
 * the derived statistics, for a thread that may be running elsewhere. */
void amon_thread_finish (amon_thread *t) AMON_HIDDEN;

/* Zeroes every counter (the child after fork starts afresh). */
void amon_thread_reset_counts (amon_thread *t, uint64_t now) AMON_HIDDEN;

/* Out of line: the rare cases of the hot path below. */
void amon_thread_long (amon_thread *t, amon_context *c, uint64_t e, uint64_t now) AMON_HIDDEN;
amon_frame *amon_thread_resync (amon_thread *t, void *fn, void *site, uintptr_t sp) AMON_HIDDEN;
amon_frame *amon_thread_deeper (amon_thread *t) AMON_HIDDEN;
void amon_thread_stop (amon_thread *t, uint32_t reason) AMON_HIDDEN;
void amon_thread_pop_slow (amon_thread *t, void *fn, void *site) AMON_HIDDEN;
void amon_thread_push_slow (amon_thread *t, void *fn, void *site, uintptr_t sp) AMON_HIDDEN;
void amon_thread_push_miss (amon_thread *t, void *fn, void *site, uintptr_t sp) AMON_HIDDEN;

/* ---- the hot path, inline in the hooks ----
 * amon_thread_enter: a call of routine @fn from return address @site, the
 * hook's frame at @sp, at clock reading @now; t->stop_reason is set
 * (and t->on_stop told) when a limit stopped profiling.
 * amon_thread_exit: the return from @fn (same arguments as the matching
 * call).  When a correction window ends, its check restarts the interval
 * after its own cost. */

/* Charges @e clock units, an interval that ends at @now less the
 * monitor's own cost, to the current context. */
AMON_FN AMON_INLINE void
amon_thread_add (amon_thread *t, uint64_t now, uint64_t e)
{
  t->start = now;
  amon_context *c = t->top->ctx;
  /* relaxed atomics: the writer may read while this thread runs */
  __atomic_store_n (&c->time, __atomic_load_n (&c->time, __ATOMIC_RELAXED) + e, __ATOMIC_RELAXED);
}

/* Charges the interval that ends at @now, less the monitor's own cost,
 * to the current context, and returns it. */
AMON_FN AMON_INLINE uint64_t
amon_thread_interval (amon_thread *t, uint64_t now)
{
  int64_t e = (int64_t) (now - t->start - t->overhead);
  if (e < 0 || AMON_UNLIKELY (t->blind))
    e = 0;
  amon_thread_add (t, now, (uint64_t) e);
  return (uint64_t) e;
}

/* Whether an interval of @e needs amon_thread_long: it may hold time off
 * the processor, or the window is over. */
AMON_FN AMON_INLINE int
amon_thread_rare (amon_thread *t, uint64_t e)
{
  return AMON_UNLIKELY (e > t->longish) || AMON_UNLIKELY (--t->countdown == 0);
}

AMON_FN AMON_INLINE void
amon_thread_charge (amon_thread *t, uint64_t now)
{
  uint64_t e = amon_thread_interval (t, now);
  if (amon_thread_rare (t, e))
    amon_thread_long (t, t->top->ctx, e, now);
}

AMON_FN AMON_INLINE int
amon_same_stack (uintptr_t a, uintptr_t b)
{
  return (a > b ? a - b : b - a) < AMON_STACK_WINDOW;
}

/* Whether frame @f cannot be the caller of a routine entered with @sp
 * and @site: on the same stack, it is deeper, or at the same depth
 * without being the frame the callee was inlined into (an inlined
 * callee's hooks run in its container's frame and pass the container's
 * return address); on another, the call is back on the thread's own
 * stack @home and @f is not on it.  Never the sentinel, whose @sp is the
 * highest address. */
AMON_FN AMON_INLINE int
amon_stale (const amon_frame *f, void *site, uintptr_t sp, uintptr_t home)
{
  if (amon_same_stack (f->sp, sp))
    return f->sp < sp || (f->sp == sp && f->site != site);
  return f->sp != UINTPTR_MAX && home && amon_same_stack (sp, home) && !amon_same_stack (f->sp, home);
}

/* Whether the top frame @f was left (amon_stale), tested quickly first:
 * a callee's frame lies less than AMON_STACK_WINDOW under its caller's. */
AMON_FN AMON_INLINE int
amon_left (const amon_thread *t, const amon_frame *f, void *site, uintptr_t sp)
{
  return AMON_UNLIKELY (f->sp - sp - 1 >= AMON_STACK_WINDOW - 1) && amon_stale (f, site, sp, t->home);
}

/* How far below the top of what it may read of the thread's stack
 * (@home) the -pg mode with the sampling clock reads it
 * (amon_slot_readable). */
#define AMON_READ_SPAN ((uintptr_t) 1 << 18)

/* Whether the word at @slot, a frame's return-address slot above a hook's
 * @sp, may be read: both lie on the stack the thread started on, below
 * @home (the top of that stack, or its first hook's frame) and less
 * than AMON_READ_SPAN from it, where the kernel keeps the stack mapped.  A frame left on another stack, such as
 * a coroutine's freed since, is never read (its memory may be gone). */
AMON_FN AMON_INLINE int
amon_slot_readable (const amon_thread *t, uintptr_t slot, uintptr_t sp)
{
  return slot - sp <= t->home - sp && t->home - sp < AMON_READ_SPAN;
}

/* The -pg mode with the sampling clock, which sees no returns: the
 * topmost frame of @t's shadow stack still live at a call whose
 * return-address slot is @sp.  Gone are the frames whose slot lies at or
 * below @sp on the same stack (a sibling called before, or a routine that
 * jumped to this one: a tail call, which then takes its place as in
 * gprof), and those above it whose return address is no longer in its
 * slot (their caller moved the stack pointer down since: arguments pushed
 * for this call, a library's deeper frames calling back).  Changes
 * nothing. */
AMON_FN AMON_INLINE amon_frame *
amon_lazy_live_top (amon_thread *t, uintptr_t sp)
{
  amon_frame *f = t->top;
  /* the sentinel's slot is the highest address, never at or below */
  while (AMON_UNLIKELY (sp - f->sp < AMON_STACK_WINDOW) && f != t->stack)
    f--;
  while (AMON_UNLIKELY (amon_slot_readable (t, f->sp, sp) && *(const uintptr_t *) f->sp != (uintptr_t) f->site))
    f--;
  return f;
}

/* Whether a call from return address @site, the top live frame's
 * context being @c, is taken as that frame's routine's without walking
 * the stack (the -pg mode with the sampling clock): @site lies among the
 * call sites seen from the routine, or it is the library's call site
 * that a walk last found calling back under a frame of context @c
 * (qsort(3)'s call of a comparison, 400,000 times in one sort of mujs
 * 1.3.2, each a walk before). */
AMON_FN AMON_INLINE int
amon_lazy_site_known (const amon_thread *t, const amon_context *c, uintptr_t site)
{
  return amon_site_seen (c, site) || (site == t->foreign_site && c == t->foreign_ctx);
}

/* How far the -pg mode's hook, whose return address names a routine, is
 * from the routine's start: __fentry__ is called first (after an endbr64),
 * mcount after the frame is set up. */
#define AMON_ENTRY_REACH 32

/* The -pg mode with the sampling clock: the frame below the top frame
 * @f when the call from return address @site, which @f's routine was
 * not seen to make (amon_lazy_site_known), was made by that frame's
 * routine, as the thread knows from an earlier walk (t->owners: the
 * routine that holds @site) and the site is among those seen from it:
 * @f returned, and its caller left its slot alone since (gcc pads the
 * stack before an odd number of pushed arguments, right over the
 * return address of the call before: jq 1.6's jv_dump_term, 165,000
 * times in a run); else NULL (a walk must tell). */
AMON_FN AMON_INLINE amon_frame *
amon_lazy_padded (const amon_thread *t, amon_frame *f, uintptr_t site)
{
  if (f == t->stack || t->owners == NULL)
    return NULL;
  const amon_site *e = &t->owners[AMON_SITE_SLOT (site)];
  if (e->site != site || e->owner == 0)
    return NULL;
  amon_frame *g = f - 1;
  if ((uintptr_t) g->fn - e->owner >= AMON_ENTRY_REACH || !amon_lazy_site_known (t, g->ctx, site))
    return NULL;
  return g;
}

#define AMON_PUSHED 0
#define AMON_PUSH_SLOW 1 /* amon_thread_push_slow must do it */
#define AMON_PUSH_MISS 2 /* so must amon_thread_push_miss: not in the cache */

/* The common case of a call: no frame left by a longjmp, no new depth,
 * a direct recursion or a transition in the caller's cache.  Returns
 * AMON_PUSHED, or having changed nothing, what must do it. */
AMON_FN AMON_INLINE int
amon_thread_push_fast (amon_thread *t, void *fn, void *site, uintptr_t sp)
{
  amon_frame *f = t->top;
  if (amon_left (t, f, site, sp))
    return AMON_PUSH_SLOW;
  if (AMON_UNLIKELY (f + 1 == t->limit))
    return AMON_PUSH_SLOW;
  amon_context *from = f->ctx, *to;
  if (fn == from->fn)
    {
      from->recursive++; /* A1 */
      to = from;
    }
  else
    {
      to = amon_cache_find (from, fn);
      if (AMON_UNLIKELY (to == NULL))
        return AMON_PUSH_MISS;
      to->entries++;
    }
  f[1].fn = fn;
  f[1].site = site;
  f[1].sp = sp;
  f[1].ctx = to;
  __atomic_signal_fence (__ATOMIC_RELEASE); /* the frame before the pointer to it */
  t->top = f + 1;
  return AMON_PUSHED;
}

/* The context change of a call, without charging time (amon_thread_enter
 * less the clock; the sampling clock charges from a signal handler). */
AMON_FN AMON_INLINE void
amon_thread_push (amon_thread *t, void *fn, void *site, uintptr_t sp)
{
  int r = amon_thread_push_fast (t, fn, site, sp);
  if (r == AMON_PUSH_MISS)
    amon_thread_push_miss (t, fn, site, sp);
  else if (r != AMON_PUSHED)
    amon_thread_push_slow (t, fn, site, sp);
}

/* The context change of a return, without charging time.  No stack
 * address: gcc may call the exit hook before or after the epilogue, so
 * it says nothing reliable here.  The sentinel's routine is NULL, which
 * no return names. */
AMON_FN AMON_INLINE void
amon_thread_pop (amon_thread *t, void *fn, void *site)
{
  amon_frame *f = t->top;
  if (AMON_LIKELY (f->fn == fn && f->site == site))
    t->top = f - 1;
  else
    amon_thread_pop_slow (t, fn, site);
}

AMON_FN AMON_INLINE void
amon_thread_enter (amon_thread *t, void *fn, void *site, uintptr_t sp, uint64_t now)
{
  amon_thread_charge (t, now);
  amon_thread_push (t, fn, site, sp);
}

AMON_FN AMON_INLINE void
amon_thread_exit (amon_thread *t, void *fn, void *site, uintptr_t sp, uint64_t now)
{
  (void) sp;
  amon_thread_charge (t, now);
  amon_thread_pop (t, fn, site);
}

#endif
