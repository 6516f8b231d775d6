/* gmonprog.c — a small program for the benchmark's 100 gmon.out files:
 * recursion and a cycle, its work set by the argument. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__ ((noinline)) static unsigned long
leaf (unsigned long n)
{
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; i++)
    s += i ^ (s >> 2);
  return s;
}

__attribute__ ((noinline)) static unsigned long odd (unsigned n);

__attribute__ ((noinline)) static unsigned long
even (unsigned n)
{
  return n == 0 ? leaf (1000) : odd (n - 1) + leaf (100);
}

__attribute__ ((noinline)) static unsigned long
odd (unsigned n)
{
  return n == 0 ? leaf (2000) : even (n - 1);
}

__attribute__ ((noinline)) static unsigned long
fib (unsigned n)
{
  return n < 2 ? leaf (50) : fib (n - 1) + fib (n - 2);
}

int
main (int argc, char **argv)
{
  unsigned k = argc > 1 ? (unsigned) atoi (argv[1]) : 5;
  for (unsigned r = 0; r < 20 * k; r++)
    sink += even (200) + fib (12);
  printf ("%lu\n", sink);
  return 0;
}
