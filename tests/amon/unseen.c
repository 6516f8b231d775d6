/* unseen.c — a SIGALRM handler that calls routines, for libamon
 * (tests/cli/amon-unseen.sh).  A timer of real time fires every 200 us
 * while the main loop makes small calls, so that many signals interrupt
 * one of the monitor's hooks, whose tables are then half changed: the
 * monitor leaves the handler's calls out and counts them.  The program
 * counts every call its handler makes (its own call included) and its
 * main loop's calls of leaf, and prints "handler N" and "leaf N" once the
 * handler has run 300 times. */
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>

#if defined(__clang__)
#define NOINLINE __attribute__ ((noinline))
#else
#define NOINLINE __attribute__ ((noinline, noclone))
#endif

static volatile unsigned long n_handler, n_leaf, alarms, sink;

NOINLINE void
alarm_leaf (void)
{
  n_handler++;
  sink++;
}

NOINLINE void
alarm_work (void)
{
  n_handler++;
  for (int i = 0; i < 3; i++)
    alarm_leaf ();
  sink++; /* no tail call */
}

NOINLINE void
on_alarm (int sig)
{
  (void) sig;
  n_handler++;
  alarm_work ();
  alarms++;
}

NOINLINE long
leaf (long x)
{
  n_leaf++;
  return x * 3 + 1;
}

NOINLINE long
mid (long x)
{
  long r = leaf (x) + leaf (x + 1);
  sink++;
  return r;
}

int
main (void)
{
  struct sigaction sa = { 0 };
  sa.sa_handler = on_alarm;
  sigaction (SIGALRM, &sa, NULL);
  struct itimerval every = { { 0, 200 }, { 0, 200 } };
  setitimer (ITIMER_REAL, &every, NULL);
  long s = 0;
  while (alarms < 300)
    for (long j = 0; j < 1000; j++)
      s += mid (j);
  struct itimerval stop = { { 0, 0 }, { 0, 0 } };
  setitimer (ITIMER_REAL, &stop, NULL);
  printf ("handler %lu\nleaf %lu\n", n_handler, n_leaf);
  return s == 0;
}
