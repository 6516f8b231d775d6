/* perfrec.c — the truth for tests/cli/perf-real.sh, sampled by
 * perf record -g.  ping and pong call each other down to depth 0; each
 * activation of ping burns two units in burn(), each of pong one, and
 * main calls ping(9) (five pings, five pongs) REPS times.  So:
 *  - of burn's time, 2/3 comes through ping and 1/3 through pong;
 *  - ping's exact total is all of main's, pong's all but the outermost
 *    ping's burn: 13/15 of it (a tool that adds a recursive function's
 *    frames counts ping five times over).
 * Built with -fno-omit-frame-pointer (and leaf frame pointers) so that
 * perf's frame-pointer call chains are whole; the work after each call
 * keeps the compiler from turning it into a jump. */
#include <stdlib.h>

#define UNIT 400000L

static volatile unsigned long sink;

__attribute__((noinline)) void
burn (long n)
{
  for (long i = 0; i < n; i++)
    sink += (unsigned long) i;
}

void pong (int depth);

__attribute__((noinline)) void
ping (int depth)
{
  burn (2 * UNIT);
  if (depth > 0)
    pong (depth - 1);
  sink++;
}

__attribute__((noinline)) void
pong (int depth)
{
  burn (UNIT);
  if (depth > 0)
    ping (depth - 1);
  sink++;
}

int
main (int argc, char **argv)
{
  int reps = argc > 1 ? atoi (argv[1]) : 60;
  for (int r = 0; r < reps; r++)
    ping (9);
  return 0;
}
