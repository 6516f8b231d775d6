/* clones.c — a program whose hot function gcc -O2 clones: spin() uses
 * one field of a struct passed by value and not its int argument, so
 * IPA-SRA makes spin.isra.0 (with constant propagation,
 * spin.constprop.0.isra.0), a local symbol gprof does not count as a
 * function.  main calls outer() 50 times, outer calls leaf() 4 times
 * and leaf calls the clone: 200 calls, where all the time goes.
 * argv[1]: spin's loop length (default 1000000).
 * Used by tests/cli/gmon-clones.sh and amon-clone-names.sh. */
#include <stdio.h>
#include <stdlib.h>

struct big
{
  long a[8];
};

volatile unsigned long sink;

static __attribute__ ((noinline)) unsigned long
spin (struct big s, int x)
{
  unsigned long r = 0;
  for (long i = 0; i < s.a[0]; i++)
    r += (unsigned long) i * 7 + (unsigned long) (r >> 3);
  sink += r;
  return r;
}

static __attribute__ ((noinline)) unsigned long
leaf (long n)
{
  if (__builtin_expect (n < 0, 0))
    {
      fprintf (stderr, "negative %ld\n", n);
      abort ();
    }
  struct big s = { { n } };
  return spin (s, 3);
}

__attribute__ ((noinline)) unsigned long
outer (long n)
{
  unsigned long r = 0;
  for (int k = 0; k < 4; k++)
    r += leaf (n);
  return r;
}

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 1000000;
  for (int i = 0; i < 50; i++)
    sink += outer (n);
  return 0;
}
