/* diff-order.c — for tests/cli/diff-order.sh: a chain of callers that
 * only pass calls on (as an interpreter's dispatch does) above two
 * leaves; the argument sets how much work one leaf does, so that two runs
 * differ in that leaf's own cost alone and every caller above it carries
 * the same change in its total. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned sink;

__attribute__ ((noinline)) static void hash_key (unsigned n)
{
  unsigned h = 2166136261u;
  for (unsigned i = 0; i < n; i++)
    h = (h ^ i) * 16777619u;
  sink = h;
}

__attribute__ ((noinline)) static void copy_key (void)
{
  unsigned s = 0;
  for (unsigned i = 0; i < 3000; i++)
    s += i * 7;
  sink = s;
}

__attribute__ ((noinline)) static void dispatch (unsigned n)
{
  hash_key (n);
  copy_key ();
}

__attribute__ ((noinline)) static void step (unsigned n) { dispatch (n); }
__attribute__ ((noinline)) static void execute (unsigned n) { step (n); }
__attribute__ ((noinline)) static void call_protected (unsigned n) { execute (n); }
__attribute__ ((noinline)) static void run (unsigned n) { call_protected (n); }

int main (int argc, char **argv)
{
  unsigned n = argc > 1 ? (unsigned) atoi (argv[1]) : 1000;
  for (int i = 0; i < 200; i++)
    run (n);
  printf ("%u\n", sink);
  return 0;
}
