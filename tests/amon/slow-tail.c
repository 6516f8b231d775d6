/* slow-tail.c — a routine that longjmp(3)s out of a recursion, for
 * libamon's exact clock (tests/cli/amon-slow-tail.sh).  The call made
 * next (after) finds the frames the jump left and takes the hooks' slow
 * way, which saves and restores the vector state; twin, called just after
 * it, does the same work and takes the common way.  The two should be
 * charged alike. */
#include <setjmp.h>
#include <stdio.h>

#if defined(__clang__)
#define NOINLINE __attribute__ ((noinline))
#else
#define NOINLINE __attribute__ ((noinline, noclone))
#endif

static jmp_buf back;
static volatile long sink;

NOINLINE void
thrower (int d)
{
  sink += d;
  longjmp (back, 1);
}

NOINLINE long
down (int d)
{
  if (d == 0)
    thrower (d);
  long r = down (d - 1);
  sink++;
  return r + 1;
}

NOINLINE void
after (void)
{
  sink++;
}

NOINLINE void
twin (void)
{
  sink++;
}

NOINLINE long
work (long x)
{
  long s = 0;
  for (int i = 0; i < 40; i++)
    s += (x * i) ^ (s >> 3);
  sink += s;
  return s;
}

int
main (void)
{
  long s = 0;
  for (long i = 0; i < 500000; i++)
    {
      if (setjmp (back) == 0)
        down (5);
      after ();
      twin ();
      s += work (i);
    }
  printf ("%ld\n", s != 0);
  return 0;
}
