/* pg-plugin.c — a plugin for pg-program.c's "plugin" mode, built as a
 * shared object with the program's -pg flags and loaded by dlopen(3) after
 * the program's first calls.  Its padder calls a sibling, then a routine
 * that takes nine arguments, three on the stack, padded right over the
 * sibling's return address (as pg-program.c's stackargs): in the profile
 * each call is the padder's.  plugin_run returns the calls it made of
 * each: plug_padder, plug_sibling, plug_many9.
 */
#define NOINLINE __attribute__ ((noinline, noclone))

static volatile long sink;
static unsigned long n_padder, n_sibling, n_many9;

NOINLINE long plug_many9 (long a, long b, long c, long d, long e, long f, long g, long h, long i);

NOINLINE long
plug_many9 (long a, long b, long c, long d, long e, long f, long g, long h, long i)
{
  n_many9++;
  return a + b + c + d + e + f + g + h + i;
}

NOINLINE static long
plug_sibling (long x)
{
  n_sibling++;
  sink = x;
  return x + 1;
}

NOINLINE static long
plug_padder (long x)
{
  n_padder++;
  long s = plug_sibling (x);
  return plug_many9 (x, s, 2, 3, 4, 5, 6, 7, 8) + 1;
}

long plugin_run (int n, unsigned long *counts);

long
plugin_run (int n, unsigned long *counts)
{
  long s = 0;
  for (int i = 0; i < n; i++)
    s += plug_padder (i);
  counts[0] = n_padder;
  counts[1] = n_sibling;
  counts[2] = n_many9;
  return s;
}
