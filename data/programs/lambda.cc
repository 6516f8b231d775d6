/* lambda.cc — a program whose hot function clang names with a '$': a
 * template instantiated with a lambda of main (clang++: _ZL5applyIZ4main
 * E3$_0ElT_l, "apply<main::$_0>"), a local symbol gprof does not count as
 * a function, placed after before() in memory.  main calls before() and
 * apply() 7 times each; apply's loop holds the time.
 * Used by tests/cli/gmon-lambda.sh. */
static volatile long sink;

template <class F>
__attribute__ ((noinline)) static long
apply (F f, long n)
{
  long s = 0;
  for (long i = 0; i < n; i++)
    s += f (i);
  return s;
}

__attribute__ ((noinline)) static long
before (long n)
{
  return n * 2 + sink;
}

int
main ()
{
  for (int r = 0; r < 7; r++)
    sink += before (r) + apply ([] (long i) { return i * 3 + sink; }, 150000000);
  return 0;
}
