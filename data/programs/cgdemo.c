/* cgdemo.c — a small program with every shape of recursion a call-graph
 * profiler must get right, for cgtools' tests and examples:
 *   - direct (self) recursion: depth_sum;
 *   - a two-function cycle: ping <-> pong;
 *   - a three-function cycle entered through two of its members:
 *     a3 -> b3 -> c3 -> a3, entered at a3 and at c3;
 *   - a function called from two callers with very different costs per
 *     call: work, 1000 cheap calls from many_cheap_calls and 10 costly ones
 *     from few_costly_calls (gprof's average-time assumption would give the
 *     cheap caller almost all of work's time);
 *   - with the argument "threads", the same workload in two threads too;
 *   - with the argument "signal", the workload once more in a signal
 *     handler (callgrind leaves a handler's cost out of its summary: line).
 * noipa keeps GCC from inlining, cloning or hoisting calls (work is pure,
 * and would otherwise be called once instead of 1000 times), and
 * -fno-optimize-sibling-calls keeps tail calls as calls, so that the
 * calls in the source are the calls in the profile.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#define NOINLINE __attribute__ ((noipa))

static volatile unsigned long sink;

/* the leaf: cost proportional to n */
NOINLINE static unsigned long
work (unsigned long n)
{
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; i++)
    s += (i * i) ^ (s >> 3);
  return s;
}

NOINLINE static void
many_cheap_calls (void)
{
  for (int i = 0; i < 1000; i++)
    sink += work (2);
}

NOINLINE static void
few_costly_calls (void)
{
  for (int i = 0; i < 10; i++)
    sink += work (20000);
}

NOINLINE static unsigned long
depth_sum (unsigned n)
{
  if (n == 0)
    return work (50);
  return work (n) + depth_sum (n - 1);
}

NOINLINE static unsigned long pong (unsigned n);

NOINLINE static unsigned long
ping (unsigned n)
{
  if (n == 0)
    return work (10);
  return work (3) + pong (n - 1);
}

NOINLINE static unsigned long
pong (unsigned n)
{
  if (n == 0)
    return work (20);
  return ping (n - 1) + 1;
}

NOINLINE static unsigned long b3 (unsigned n);
NOINLINE static unsigned long c3 (unsigned n);

NOINLINE static unsigned long
a3 (unsigned n)
{
  return n == 0 ? work (7) : b3 (n - 1) + work (1);
}

NOINLINE static unsigned long
b3 (unsigned n)
{
  return n == 0 ? work (9) : c3 (n - 1) + 2;
}

NOINLINE static unsigned long
c3 (unsigned n)
{
  return n == 0 ? work (11) : a3 (n - 1) + work (n % 5);
}

NOINLINE static void *
workload (void *arg)
{
  (void) arg;
  many_cheap_calls ();
  few_costly_calls ();
  sink += depth_sum (200);
  sink += ping (300);
  sink += a3 (150);
  sink += c3 (99);
  return NULL;
}

NOINLINE static void
on_signal (int sig)
{
  (void) sig;
  workload (NULL);
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "threads") == 0)
    {
      pthread_t t;
      if (pthread_create (&t, NULL, workload, NULL) != 0)
        return 1;
      workload (NULL);
      pthread_join (t, NULL);
    }
  else
    workload (NULL);
  if (argc > 1 && strcmp (argv[1], "signal") == 0 && (signal (SIGUSR1, on_signal) == SIG_ERR || raise (SIGUSR1) != 0))
    return 1;
  printf ("%lu\n", sink);
  return 0;
}
