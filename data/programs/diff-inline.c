/* diff-inline.c — for tests/cli/diff-estimates.sh: work calls helper,
 * which -O2 inlines, so that work is a leaf there and its total exact,
 * where at -O0 gprof's method estimates it. */
#include <stdio.h>
#include <stdlib.h>
static double helper (double x, int n)
{
  for (int i = 0; i < n; i++)
    x = x * 1.0000001 + 0.5;
  return x;
}
__attribute__ ((noinline)) double work (int n)
{
  double s = 0;
  for (int i = 0; i < 200; i++)
    s += helper (s, n);
  return s;
}
__attribute__ ((noinline)) double other (int n)
{
  double s = 1;
  for (int i = 0; i < n * 100; i++)
    s = s * 0.9999999 + 1;
  return s;
}
int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 100000;
  printf ("%g %g\n", work (n), other (n));
  return 0;
}
