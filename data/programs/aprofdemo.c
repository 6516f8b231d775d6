/* aprofdemo.c — a context profile worth reading in gprof's layout.
 * tests/cli/amon-gprof.sh builds it with -finstrument-functions, links it
 * with libamon and reads its amon.out with `cgcost --format=gprof`.
 *
 * All CPU work is burn(N), N iterations of one loop, not instrumented, so
 * its time is its caller's self time.  Every count is exact:
 *   main     20 chains even(50) -> odd(49) -> ... -> even(0), then
 *            often() 20,000 times;
 *   even     burn(100,000), leaf(400,000), odd(n - 1) while n > 0;
 *   odd      burn(50,000), leaf(200,000), even(n - 1) while n > 0;
 *   often    leaf(1,000).
 * So leaf is called 520 times from even, 500 from odd and 20,000 from
 * often, but most of its time comes from even and odd: gprof's
 * average-time assumption hands about 95 % of it to often.  even and odd
 * recurse mutually, so Spivey's two views of their arcs differ.  The
 * program measures, with the thread's CPU clock around each call, what
 * leaf took for each caller and prints the three sums (nanoseconds, for
 * even, odd and often): the truth of this very run.
 *
 * Usage: aprofdemo [CHAINS]   (default 20) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__ ((noinline, no_instrument_function)) static void
burn (unsigned long n)
{
  for (unsigned long i = 0; i < n; i++)
    sink += i;
}

__attribute__ ((noinline)) static void
leaf (unsigned long n)
{
  burn (n);
}

static unsigned long long measured[3]; /* ns in leaf: even, odd, often */
static unsigned long long clock_cost;  /* two readings with nothing between */

__attribute__ ((no_instrument_function)) static unsigned long long
cpu_ns (void)
{
  struct timespec t;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t);
  return (unsigned long long) t.tv_sec * 1000000000u + (unsigned long long) t.tv_nsec;
}

__attribute__ ((no_instrument_function)) static void
timed_leaf (int who, unsigned long n)
{
  unsigned long long t0 = cpu_ns ();
  leaf (n);
  unsigned long long t = cpu_ns () - t0;
  measured[who] += t > clock_cost ? t - clock_cost : 0;
}

static void odd (unsigned n);

__attribute__ ((noinline)) static void
even (unsigned n)
{
  burn (100000);
  timed_leaf (0, 400000);
  if (n > 0)
    odd (n - 1);
}

__attribute__ ((noinline)) static void
odd (unsigned n)
{
  burn (50000);
  timed_leaf (1, 200000);
  if (n > 0)
    even (n - 1);
}

__attribute__ ((noinline)) static void
often (void)
{
  timed_leaf (2, 1000);
}

int
main (int argc, char **argv)
{
  unsigned long chains = argc > 1 ? strtoul (argv[1], NULL, 10) : 20;
  clock_cost = ~0ull;
  for (int i = 0; i < 2000; i++)
    {
      unsigned long long a = cpu_ns (), b = cpu_ns ();
      if (b - a < clock_cost)
        clock_cost = b - a;
    }
  for (unsigned long c = 0; c < chains; c++)
    even (50);
  for (unsigned long i = 0; i < 1000 * chains; i++)
    often ();
  printf ("%llu %llu %llu\n", measured[0], measured[1], measured[2]);
  return 0;
}
