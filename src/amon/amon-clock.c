/* amon-clock.c — clock set-up, calibration and the CPU-clock correction. */
#define _GNU_SOURCE 1

#include "amon-clock.h"

#include "amon-blind.h"

#include <pthread.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#ifdef AMON_HAVE_TSC
#include <cpuid.h>
#endif

static const amon_clock *used; /* the process's clock, for the correction */

AMON_FN static int
invariant_tsc (void)
{
#ifdef AMON_HAVE_TSC
  unsigned a, b, c, d;
  if (!__get_cpuid (0x80000000u, &a, &b, &c, &d) || a < 0x80000007u)
    return 0;
  __get_cpuid (0x80000007u, &a, &b, &c, &d);
  return (d >> 8) & 1;
#else
  return 0;
#endif
}

AMON_FN static uint64_t
res_ps (clockid_t id)
{
  struct timespec ts;
  if (clock_getres (id, &ts) != 0)
    return 1000;
  return ((uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec) * 1000u;
}

#ifdef AMON_HAVE_TSC
/* A TSC reading and a CLOCK_MONOTONIC reading taken at the same moment:
 * the TSC read on both sides, the pair with the narrowest gap of a few
 * kept, so that a preemption between the two reads cannot skew a rate. */
AMON_FN static void
tsc_and_mono (uint64_t *tsc, uint64_t *mono)
{
  uint64_t best = UINT64_MAX;
  for (int i = 0; i < 8; i++)
    {
      uint64_t t0 = __rdtsc (), m = amon_clock_ns (CLOCK_MONOTONIC), t1 = __rdtsc ();
      if (t1 - t0 < best)
        {
          best = t1 - t0;
          *tsc = t0 + (t1 - t0) / 2;
          *mono = m;
        }
    }
}
#endif

AMON_FN int
amon_clock_setup (amon_clock *c, const char *name)
{
  int rc = 0;
  memset (c, 0, sizeof *c);
  if (name == NULL || *name == 0 || strcmp (name, "cpu") == 0)
    c->kind = AMON_CLOCK_CPU;
  else if (strcmp (name, "wall") == 0)
    c->kind = AMON_CLOCK_WALL;
  else if (strcmp (name, "tsc") == 0)
    c->kind = AMON_CLOCK_TSC;
  else if (strcmp (name, "sample") == 0)
    c->kind = AMON_CLOCK_SAMPLE;
  else
    {
      c->kind = AMON_CLOCK_CPU;
      rc = -1;
    }
#ifdef AMON_HAVE_TSC
  c->tsc = c->kind == AMON_CLOCK_TSC || (c->kind == AMON_CLOCK_CPU && invariant_tsc ());
#endif
  c->cpu_syscall = c->kind == AMON_CLOCK_CPU && !c->tsc;
  c->rate = 1000000000u;
  c->resolution_ps = res_ps (c->cpu_syscall ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC);
  if (c->kind == AMON_CLOCK_SAMPLE)
    c->resolution_ps = (uint64_t) AMON_SAMPLE_US * 1000000u; /* where a sample falls */
  c->tsc_per_ns = 1.0;
#ifdef AMON_HAVE_TSC
  if (c->tsc)
    {
      /* a first estimate of the TSC's rate over 1 ms; the final one is
       * taken over the whole run */
      uint64_t m0, t0, m1, t1;
      tsc_and_mono (&t0, &m0);
      do
        tsc_and_mono (&t1, &m1);
      while (m1 - m0 < 1000000u);
      c->tsc_per_ns = (double) (t1 - t0) / (double) (m1 - m0);
      if (!(c->tsc_per_ns > 0))
        c->tsc_per_ns = 1.0;
      c->rate = (uint64_t) (c->tsc_per_ns * 1e9 + 0.5);
      c->resolution_ps = (uint64_t) (1000.0 / c->tsc_per_ns + 0.5);
      tsc_and_mono (&c->tsc0, &c->mono0);
    }
#endif
  return rc;
}

AMON_FN void
amon_clock_finish (amon_clock *c)
{
#ifdef AMON_HAVE_TSC
  if (!c->tsc)
    return;
  uint64_t m1, t1;
  tsc_and_mono (&t1, &m1);
  if (m1 - c->mono0 >= 10000000u && t1 > c->tsc0)
    {
      double per_ns = (double) (t1 - c->tsc0) / (double) (m1 - c->mono0);
      c->rate = (uint64_t) (per_ns * 1e9 + 0.5);
      c->resolution_ps = (uint64_t) (1000.0 / per_ns + 0.5);
    }
#else
  (void) c;
#endif
}

AMON_FN void
amon_clock_use (const amon_clock *c)
{
  used = c;
}

/* @t's CPU time in @ns, read by its own clock (t->cpu_clock), not by
 * CLOCK_THREAD_CPUTIME_ID: a child of vfork runs on its parent's memory,
 * and its hooks on the parent's monitor, until it execs, and the
 * parent's clock, which the kernel keeps from another process, tells it
 * apart.  0 there (and when the clock is gone). */
AMON_FN static int
thread_cpu (const amon_thread *t, uint64_t *ns)
{
  struct timespec ts;
  if (clock_gettime (t->has_cpu_clock ? t->cpu_clock : CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return 0;
  *ns = (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
  return 1;
}

AMON_FN int
amon_clock_thread_sys (uint64_t *ns)
{
  struct rusage ru;
  if (getrusage (RUSAGE_THREAD, &ru) != 0)
    return 0;
  *ns = (uint64_t) ru.ru_stime.tv_sec * 1000000000u + (uint64_t) ru.ru_stime.tv_usec * 1000u;
  return 1;
}

AMON_FN void
amon_clock_sync_start (amon_thread *t)
{
  if (used == NULL || !(used->kind == AMON_CLOCK_CPU && used->tsc))
    return;
  /* the calling thread's, which a child of fork is anew */
  t->has_cpu_clock = pthread_getcpuclockid (pthread_self (), &t->cpu_clock) == 0;
  if (!thread_cpu (t, &t->origin_cpu))
    t->origin_cpu = 0;
  t->sync_cpu = t->origin_cpu;
  t->cpu_units = t->sys_units = 0;
  if (t->user_only && !amon_clock_thread_sys (&t->origin_sys))
    t->origin_sys = 0;
  t->start = t->sync_clock = amon_clock_read (used);
}

AMON_FN int
amon_clock_correct_cpu (amon_thread *t, uint64_t now)
{
  /* The intervals of the window span the counter from the end of the
   * last check to @now; the CPU time the thread got from inside the last
   * check's system call to inside this one covers that span, so where it
   * is less, the difference is time off the processor in the window's
   * intervals (never that of a preemption in a check itself, which no
   * interval holds), and it can only lie in the logged intervals: the
   * others are too short to hold a context switch away and back.  The
   * next interval starts after this check. */
  uint64_t cpu, mono = amon_clock_ns (CLOCK_MONOTONIC);
  /* a child of vfork, whose clock is not its parent's: the window's
   * intervals are the parent's, and so is what corrects them (had the
   * child's CPU time been taken for the parent's, the parent's next
   * check would find more CPU time than its span, and leave the time it
   * waited for the child in the intervals: 179 ms for 64 ms of CPU) */
  if (!thread_cpu (t, &cpu))
    return 0;
  uint64_t after = amon_clock_read (used);
  /* The counter's rate, measured from the start of the run: the first
   * estimate (over 1 ms) may be off by 1e-3 on a busy machine, which
   * would be 2 us of a 2 ms sleep; after 20 ms the error is 1e-5 or less. */
  double per_ns = used->tsc_per_ns;
  if (mono > used->mono0 + 20000000u && after > used->tsc0)
    per_ns = (double) (after - used->tsc0) / (double) (mono - used->mono0);
  double on_cpu = (double) (cpu > t->sync_cpu ? cpu - t->sync_cpu : 0) * per_ns;
  uint64_t span = now > t->sync_clock ? now - t->sync_clock : 0;
  t->sync_cpu = cpu;
  /* what the thread had of the processor, all the monitor measured: what
   * it did not charge of it is its own cost (amon-thread.c, derive) */
  t->cpu_units = (uint64_t) ((double) (cpu > t->origin_cpu ? cpu - t->origin_cpu : 0) * per_ns);
  uint64_t sys;
  if (t->user_only && amon_clock_thread_sys (&sys))
    t->sys_units = (uint64_t) ((double) (sys > t->origin_sys ? sys - t->origin_sys : 0) * per_ns);
  t->start = t->sync_clock = after;
  /* a blind window charged nothing: its CPU time and events measure the
   * program's own time (amon-blind.h); the next window is chosen */
  if (t->blind)
    {
      t->blind_units += (uint64_t) on_cpu;
      t->blind_events += AMON_WINDOW - t->countdown;
    }
  amon_blind_next (t, after ^ (uintptr_t) t);
  uint32_t n = t->n_log;
  if (n == 0 || on_cpu >= (double) span)
    return 1;
  amon_interval *log = t->log;
  uint64_t deficit = (uint64_t) ((double) span - on_cpu), removed = 0, sum = 0;
  for (uint32_t i = 0; i < n; i++)
    sum += log[i].elapsed;
  if (deficit > sum)
    deficit = sum;
  /* a large deficit is a preemption or a blocking call: it happened in
   * the longest intervals */
  for (int round = 0; round < 8 && deficit - removed > sum / 50; round++)
    {
      uint32_t longest = 0;
      for (uint32_t i = 1; i < n; i++)
        if (log[i].elapsed > log[longest].elapsed)
          longest = i;
      uint64_t take = log[longest].elapsed < deficit - removed ? log[longest].elapsed : deficit - removed;
      if (take == 0)
        break;
      log[longest].elapsed -= take;
      amon_context *c = log[longest].ctx;
      __atomic_store_n (&c->time, __atomic_load_n (&c->time, __ATOMIC_RELAXED) - take, __ATOMIC_RELAXED);
      removed += take;
      sum -= take;
    }
  /* what remains is small: spread in proportion */
  uint64_t rest = deficit - removed;
  if (rest && sum)
    {
      double f = (double) rest / (double) sum;
      for (uint32_t i = 0; i < n; i++)
        {
          uint64_t take = (uint64_t) ((double) log[i].elapsed * f);
          if (take > log[i].elapsed)
            take = log[i].elapsed;
          log[i].elapsed -= take;
          amon_context *c = log[i].ctx;
          __atomic_store_n (&c->time, __atomic_load_n (&c->time, __ATOMIC_RELAXED) - take, __ATOMIC_RELAXED);
          removed += take;
        }
    }
  t->offcpu_total += removed;
  return 1;
}
