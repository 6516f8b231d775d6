/* measure.c — runs a shell command and prints its wall time, CPU time
 * (user + system, children included) and peak resident set size, for the
 * benchmark.  Uses wait4(2), so nothing beyond libc is needed.
 *
 *   measure COMMAND   ->   "WALL_S CPU_S MAXRSS_KB STATUS" on stdout
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: measure 'SHELL COMMAND'\n");
      return 2;
    }
  struct timespec t0, t1;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  pid_t pid = fork ();
  if (pid < 0)
    return 2;
  if (pid == 0)
    {
      execl ("/bin/sh", "sh", "-c", argv[1], (char *) NULL);
      _exit (127);
    }
  int status;
  struct rusage ru;
  if (wait4 (pid, &status, 0, &ru) < 0)
    return 2;
  clock_gettime (CLOCK_MONOTONIC, &t1);
  double wall = (double) (t1.tv_sec - t0.tv_sec) + (double) (t1.tv_nsec - t0.tv_nsec) / 1e9;
  double cpu = (double) ru.ru_utime.tv_sec + (double) ru.ru_utime.tv_usec / 1e6
               + (double) ru.ru_stime.tv_sec + (double) ru.ru_stime.tv_usec / 1e6;
  /* microseconds: the report rounds to milliseconds, but the ratios are
   * taken from these, as two runs of a few milliseconds each are too
   * close for rounded figures to compare */
  printf ("%.6f %.6f %ld %d\n", wall, cpu, ru.ru_maxrss,
          WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status));
  return 0;
}
