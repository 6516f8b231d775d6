/* busy.h — a call-heavy loop for the tests of libamon's samples
 * (tests/cli/amon-measure.sh, amon-events.sh): work() calls middle(),
 * which calls tiny() twice, until the calling thread has used *arg
 * seconds of CPU time. */
#ifndef AMON_TEST_BUSY_H
#define AMON_TEST_BUSY_H

#include <time.h>

static volatile long sink;
__attribute__ ((noinline)) static void tiny (long i) { sink += i; }
__attribute__ ((noinline)) static void middle (long i) { tiny (i); tiny (i + 1); }

static double
cpu (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__ ((noinline)) static void *
work (void *arg)
{
  double until = cpu () + *(double *) arg;
  while (cpu () < until)
    for (long i = 0; i < 100000; i++)
      middle (i);
  return 0;
}

#endif
