/* gmondemo.c — a small program whose gprof profile has everything gprof's
 * analysis treats specially: two cycles (even/odd, and ring_a -> ring_b ->
 * ring_c -> ring_a), self recursion (fact), a function never called
 * (never_called), two callees with equal calls and time (twin_a, twin_b:
 * ties in the sort), and a static function whose name another file uses
 * too (helper, see gmondemo-util.c).  tests/cli/gmon.sh builds it with
 * gcc -pg, runs it and compares cgtools' report with GNU gprof's.
 *
 * Usage: gmondemo [ROUNDS]   (default 300) */
#include <stdio.h>
#include <stdlib.h>

unsigned long util_work (unsigned long n);

static volatile unsigned long sink;

static unsigned long
spin (unsigned long n)
{
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; i++)
    s += i * i ^ (s >> 3);
  return s;
}

static unsigned long
helper (unsigned long n)
{
  return spin (n + 7);
}

static unsigned long odd (unsigned n);

static unsigned long
even (unsigned n)
{
  sink += spin (900);
  return n == 0 ? 1 : odd (n - 1);
}

static unsigned long
odd (unsigned n)
{
  sink += spin (1300);
  return n == 0 ? 0 : even (n - 1);
}

static unsigned long
fact (unsigned n)
{
  sink += spin (700);
  return n <= 1 ? 1 : n * fact (n - 1);
}

static unsigned long ring_b (unsigned n);
static unsigned long ring_c (unsigned n);

static unsigned long
ring_a (unsigned n)
{
  sink += helper (400);
  return n == 0 ? 0 : ring_b (n - 1) + 1;
}

static unsigned long
ring_b (unsigned n)
{
  sink += spin (600);
  return n == 0 ? 0 : ring_c (n - 1) + 1;
}

static unsigned long
ring_c (unsigned n)
{
  sink += spin (500);
  return n == 0 ? 0 : ring_a (n - 1) + 1;
}

static unsigned long
twin_a (void)
{
  return spin (2000);
}

static unsigned long
twin_b (void)
{
  return spin (2000);
}

void never_called (void);

void
never_called (void)
{
  sink += spin (10);
}

int
main (int argc, char **argv)
{
  unsigned rounds = argc > 1 ? (unsigned) atoi (argv[1]) : 300;
  unsigned long total = 0;
  for (unsigned r = 0; r < rounds; r++)
    {
      total += even (r % 40) + fact (r % 12 + 1) + ring_a (r % 30);
      total += twin_a () + twin_b () + util_work (r % 7 + 300);
    }
  printf ("%lu\n", total + sink);
  return 0;
}
