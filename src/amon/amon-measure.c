/* amon-measure.c — per-thread sampling timers and the correction their
 * samples give. */
#define _GNU_SOURCE 1

#include "amon-measure.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "amon-clock.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

/* A timer on the calling thread's CPU clock that sends it SIGPROF every
 * AMON_SAMPLE_US of that time; 0 when it could not be made. */
AMON_FN static int
make_timer (timer_t *timer)
{
  struct sigevent ev;
  memset (&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = SIGPROF;
  ev.sigev_notify_thread_id = (pid_t) syscall (SYS_gettid);
  if (timer_create (CLOCK_THREAD_CPUTIME_ID, &ev, timer) != 0)
    return 0;
  struct itimerspec every = { { 0, AMON_SAMPLE_US * 1000L }, { 0, AMON_SAMPLE_US * 1000L } };
  if (timer_settime (*timer, 0, &every, NULL) != 0)
    {
      timer_delete (*timer);
      return 0;
    }
  return 1;
}

AMON_FN int
amon_measure_start (amon_thread *t)
{
  if (!make_timer (&t->timer))
    return 0;
  t->has_timer = 1;
  return 1;
}

AMON_FN int
amon_measure_possible (void)
{
  timer_t timer;
  if (!make_timer (&timer))
    return 0;
  timer_delete (timer);
  return 1;
}

AMON_FN void
amon_measure_stop (amon_thread *t)
{
  if (__atomic_exchange_n (&t->has_timer, 0, __ATOMIC_ACQ_REL))
    timer_delete (t->timer);
}

/* What the contexts from @first on would hold with @r per interval, and
 * (in @slope) the intervals of those not held at zero. */
AMON_FN static double
corrected_sum (const amon_context *first, double r, double *slope)
{
  double sum = 0, k = 0;
  for (const amon_context *c = first; c; c = __atomic_load_n (&c->next, __ATOMIC_ACQUIRE))
    {
      uint64_t n = __atomic_load_n (&c->intervals, __ATOMIC_RELAXED);
      uint64_t time = __atomic_load_n (&c->time, __ATOMIC_RELAXED);
      sum += (double) amon_measure_corrected (time, n, r);
      /* not held at zero: a context at zero counts, as a larger r raises it */
      if ((double) time + r * (double) n >= 0)
        k += (double) n;
    }
  *slope = k;
  return sum;
}

AMON_FN double
amon_measure_resid (const amon_context *first, double target)
{
  if (target < 0)
    target = 0;
  double r = 0, slope;
  for (int step = 0; step < 64; step++)
    {
      double sum = corrected_sum (first, r, &slope);
      if (slope == 0 || (sum - target < 0.5 && sum - target > -0.5))
        break;
      r -= (sum - target) / slope;
    }
  return r;
}

/* The square root of @x, by Newton's steps: libamon links no libm. */
AMON_FN static double
square_root (double x)
{
  if (!(x > 0))
    return 0;
  double r = x > 1 ? x : 1;
  for (int i = 0; i < 100; i++)
    {
      double next = (r + x / r) / 2;
      if (next >= r)
        break;
      r = next;
    }
  return r;
}

AMON_FN void
amon_measure_settle (amon_thread *t, uint64_t charged)
{
  t->resid = 0;
  t->resid_total = 0;
  t->checked = 0;
  uint64_t program = t->samples_program, all = program + t->samples_monitor;
  if (all < AMON_MEASURE_MIN || t->cpu_units == 0)
    return;
  t->checked = 1;
  double cpu = (double) t->cpu_units, n = (double) all;
  double own = cpu * (double) program / n;
  /* two standard errors of the program's time; the share smoothed by a
   * sample each way, so that a run whose samples all fell in the program
   * does not claim to know its time exactly */
  double f = ((double) program + 1) / (n + 2), error = 2 * cpu * square_root (f * (1 - f) / n);
  if ((double) charged <= own + error && (double) charged >= own - error)
    return; /* the calibrations agree with the samples */
  double slope;
  t->resid = amon_measure_resid (t->m.root, own);
  t->resid_total = (int64_t) corrected_sum (t->m.root, t->resid, &slope) - (int64_t) charged;
}
