/* amon-clock.h — the clocks the monitor charges time with.
 *
 * AMON_CLOCK selects one:
 *   cpu   (default) CPU time of each thread.  Linux serves
 *         CLOCK_THREAD_CPUTIME_ID only by a system call (~0.3 us), far too
 *         slow for every call and return, so where the processor has an
 *         invariant time-stamp counter the intervals are measured with the
 *         TSC (read inline by the hooks, ~25 cycles) and each window of
 *         events (amon-thread.h) is checked against the thread's CPU
 *         clock: when the window's span on the counter is more than the
 *         CPU time the thread got meanwhile, the difference (time off the
 *         processor: preempted, blocked) is taken back from the window's
 *         intervals longer than AMON_LONGISH_NS, the only ones it can lie
 *         in, longest first, or in proportion when it is small.  An
 *         interval longer than 50 us closes its window at once, so a long
 *         sleep is found in the interval it fell in.  Without an invariant
 *         TSC every event reads the system call.
 *   wall  CLOCK_MONOTONIC (served by the vDSO, no system call), in ns.
 *   tsc   the raw time-stamp counter (wall time in cycles).
 *   sample  no clock at calls and returns: each thread's SIGPROF timer
 *         (every AMON_SAMPLE_US of its CPU time, amon-measure.h) charges
 *         the CPU time the thread used since its last sample to its
 *         current context (Spivey's interrupt-driven variant, gprof's way
 *         of measuring time), and the time after the last one when the
 *         thread ends.  Cheapest; a statistical profile.
 * Readings are in clock units; the rate (units per second) of the TSC is
 * measured against CLOCK_MONOTONIC over the whole run.
 */
#ifndef AMON_CLOCK_H
#define AMON_CLOCK_H

#include <time.h>

#include "amon-format.h"
#include "amon-private.h"
#include "amon-thread.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define AMON_HAVE_TSC 1
#endif

#define AMON_SAMPLE_US 1000
/* No thread is switched off the processor and back in less than this, so
 * an interval this short holds no time off it. */
#define AMON_LONGISH_NS 1000.0

typedef struct {
  uint32_t kind;           /* AMON_CLOCK_* */
  int tsc;                 /* readings come from the TSC */
  int cpu_syscall;         /* CPU clock read by clock_gettime at every event */
  double tsc_per_ns;       /* TSC units per nanosecond (estimate at start) */
  uint64_t rate;           /* units per second, final after amon_clock_finish */
  uint64_t resolution_ps;  /* one unit, or the clock's resolution, in ps */
  uint64_t tsc0, mono0;    /* start of the rate measurement */
} amon_clock;

/* Chooses the clock named @name (NULL or "": cpu) and calibrates it.
 * Returns 0, or -1 for an unknown name (then the default is set up). */
int amon_clock_setup (amon_clock *c, const char *name) AMON_HIDDEN;

AMON_FN static inline uint64_t
amon_clock_ns (clockid_t id)
{
  struct timespec ts;
  clock_gettime (id, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

AMON_FN static inline uint64_t
amon_clock_read (const amon_clock *c)
{
#ifdef AMON_HAVE_TSC
  if (AMON_LIKELY (c->tsc))
    return __rdtsc ();
#endif
  return amon_clock_ns (c->cpu_syscall ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC);
}

/* Final rate and resolution, measured over the run. */
void amon_clock_finish (amon_clock *c) AMON_HIDDEN;

/* For the TSC-based CPU clock: starts @t's synchronisation, and the
 * correction of a window (an amon_correct_fn).  Uses the clock given to
 * amon_clock_use. */
void amon_clock_use (const amon_clock *c) AMON_HIDDEN;
void amon_clock_sync_start (amon_thread *t) AMON_HIDDEN;
int amon_clock_correct_cpu (amon_thread *t, uint64_t now) AMON_HIDDEN;
/* The calling thread's time in the kernel, in @ns (getrusage(2),
 * RUSAGE_THREAD); 0 when it cannot be read. */
int amon_clock_thread_sys (uint64_t *ns) AMON_HIDDEN;

#endif
