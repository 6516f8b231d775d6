/* amon-clock.c — clock set-up, calibration and the CPU-clock correction. */
#define _GNU_SOURCE 1

#include "amon-clock.h"

#include <string.h>
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

AMON_FN void
amon_clock_sync_start (amon_thread *t)
{
  if (used == NULL || !(used->kind == AMON_CLOCK_CPU && used->tsc))
    return;
  t->sync_cpu = amon_clock_ns (CLOCK_THREAD_CPUTIME_ID);
  t->sync_clock = amon_clock_read (used);
}

AMON_FN void
amon_clock_correct_cpu (amon_thread *t, amon_interval *log, uint32_t n)
{
  /* The window's logged intervals against the CPU time since the last
   * synchronisation.  Not against the TSC span since then: the thread may
   * also have been preempted outside the logged intervals (in the flush,
   * in this very system call), and that time is in no interval. */
  uint64_t cpu = amon_clock_ns (CLOCK_THREAD_CPUTIME_ID);
  double on_cpu = (double) (cpu > t->sync_cpu ? cpu - t->sync_cpu : 0) * used->tsc_per_ns;
  t->sync_cpu = cpu;
  uint64_t sum = 0;
  for (uint32_t i = 0; i < n; i++)
    sum += log[i].elapsed;
  if (on_cpu >= (double) sum)
    return;
  uint64_t deficit = (uint64_t) ((double) sum - on_cpu);
  uint64_t removed = 0;
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
          removed += take;
        }
    }
  t->offcpu_total += removed;
}
