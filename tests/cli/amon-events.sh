#!/bin/sh
# The samples come from a perf event on each thread's task clock where the
# kernel gives one (src/amon/amon-measure.c): a sample every 1 ms of the
# thread's time, where a timer on its CPU clock gives at most one per
# tick (4 ms at 250 Hz), and fewer on a loaded machine.  The event is a
# file descriptor in the program's table, so:
#  - a run of 0.5 s of CPU time has more than a tick's worth of samples
#    (the note's count; skipped where the kernel refuses perf events, as
#    Debian's does to users at perf_event_paranoid 3);
#  - a program that closes every descriptor and opens a file under the
#    number the event had keeps that file open when the thread ends (the
#    monitor closes only its own event, known by its id);
#  - a program whose descriptor limit is low keeps the lower half of it:
#    40 threads alive at once under a limit of 64 leave it 29 or more to
#    open (an event each would leave it 21);
#  - a child of fork and a program it execs inherit no event descriptor.
# Each for gcc's hooks and for amon.pc's flags (the -pg mode on x86-64).
. "${top_srcdir:-.}/tests/cli/common.sh"
lib="$top_builddir/src/amon/libamon.la"
[ -f "$lib" ] || skip "libamon was not built"
LIBTOOL=${LIBTOOL:-"$top_builddir/libtool"}
grep -q '^flags.* constant_tsc' /proc/cpuinfo 2>/dev/null || skip "no invariant time-stamp counter: the default clock takes no samples"

cat >"$tmp/events.c" <<'EOF'
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "busy.h"
/* the descriptors open that are perf events: how many, and the highest */
static int highest_event;
static int events_open (void)
{
  int n = 0;
  highest_event = -1;
  DIR *d = opendir ("/proc/self/fd");
  struct dirent *e;
  char path[300], target[300];
  while (d && (e = readdir (d)))
    {
      snprintf (path, sizeof path, "/proc/self/fd/%s", e->d_name);
      ssize_t len = readlink (path, target, sizeof target - 1);
      if (len > 0 && (target[len] = 0, strstr (target, "perf_event")))
        {
          n++;
          if (atoi (e->d_name) > highest_event)
            highest_event = atoi (e->d_name);
        }
    }
  if (d)
    closedir (d);
  return n;
}
static int opened_fd = -1;
/* closes every descriptor but the standard ones, opens a file under the
 * number of its own event (the newest), and works */
__attribute__ ((noinline)) static void *closer (void *arg)
{
  double t = 0.05;
  work (&t);
  events_open ();
  int own = highest_event;
  for (int fd = 3; fd < 1024; fd++)
    close (fd);
  opened_fd = open ("/dev/null", O_RDONLY);
  if (own >= 0 && opened_fd != own && dup2 (opened_fd, own) == own)
    {
      close (opened_fd);
      opened_fd = own;
    }
  work (&t);
  (void) arg;
  return 0;
}
static pthread_barrier_t all_alive, may_end;
__attribute__ ((noinline)) static void *waiter (void *arg)
{
  (void) arg;
  tiny (1);
  pthread_barrier_wait (&all_alive);
  pthread_barrier_wait (&may_end);
  return 0;
}
int main (void)
{
  /* 1: can this process have a perf event at all? */
  struct perf_event_attr a;
  memset (&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_TASK_CLOCK;
  int fd = (int) syscall (SYS_perf_event_open, &a, 0, -1, -1, 0);
  printf ("events %d\n", fd >= 0);
  if (fd >= 0)
    close (fd);
  double t = 0.5;
  work (&t);
  /* 2: fork, exec (the main thread's event open meanwhile) */
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      printf ("child %d\n", events_open ());
      fflush (stdout);
      /* a program without libamon, whose descriptors are those it inherited */
      execl ("/bin/sh", "sh", "-c", "echo exec $(ls -l /proc/self/fd | grep -c perf_event)", (char *) 0);
      _exit (9);
    }
  int status;
  if (waitpid (pid, &status, 0) != pid || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    return 5;
  /* 3: a thread whose event's number the program takes over */
  pthread_t th;
  pthread_create (&th, 0, closer, 0);
  pthread_join (th, 0);
  printf ("kept %d\n", opened_fd >= 3 && fcntl (opened_fd, F_GETFD) != -1);
  /* 4: 40 threads alive under a limit of 64 descriptors */
  struct rlimit old, low = { 64, 64 };
  getrlimit (RLIMIT_NOFILE, &old);
  low.rlim_max = old.rlim_max < 64 ? old.rlim_max : 64;
  setrlimit (RLIMIT_NOFILE, &low);
  pthread_t ts[40];
  pthread_barrier_init (&all_alive, 0, 41);
  pthread_barrier_init (&may_end, 0, 41);
  for (int i = 0; i < 40; i++)
    pthread_create (&ts[i], 0, waiter, 0);
  pthread_barrier_wait (&all_alive);
  int fds[64], n = 0;
  while (n < 64 && (fds[n] = open ("/dev/null", O_RDONLY)) >= 0)
    n++;
  printf ("free %d\n", n);
  while (n > 0)
    close (fds[--n]);
  pthread_barrier_wait (&may_end);
  for (int i = 0; i < 40; i++)
    pthread_join (ts[i], 0);
  return 0;
}
EOF

# check NAME FLAGS... — builds events.c so, runs it, checks what it printed
check () {
  name=$1
  shift
  ${CC:-cc} -O1 "$@" -pthread -I"$top_srcdir/tests/amon" -c -o "$tmp/$name.o" "$tmp/events.c" || { fail "$name: cannot compile"; return; }
  $LIBTOOL --mode=link --tag=CC ${CC:-cc} -static -pthread -o "$tmp/$name" "$tmp/$name.o" "$lib" >"$tmp/link.log" 2>&1 \
    || { cat "$tmp/link.log"; fail "$name: link"; return; }
  (cd "$tmp" && AMON_OUT="$tmp/$name.out" "./$name" >"$tmp/$name.said" 2>"$tmp/$name.err") \
    || { fail "$name exited $?: $(cat "$tmp/$name.err")"; return; }
  said () { awk -v k="$1" '$1 == k { print $2 }' "$tmp/$name.said"; }
  [ "$(said kept)" = 1 ] || fail "$name: the file the program opened under the event's number was closed"
  free=$(said free)
  [ -n "$free" ] && [ "$free" -ge 29 ] || fail "$name: with 40 threads alive under a limit of 64 descriptors, the program could open $free"
  [ "$(said child)" = 0 ] || fail "$name: the child of fork has $(said child) perf event descriptors"
  [ "$(said exec)" = 0 ] || fail "$name: the program the child execs has $(said exec) perf event descriptors"
  "$cgmerge" --format=text "$tmp/$name.out" >"$tmp/$name.txt" 2>&1 || { fail "$name: cgmerge"; return; }
  samples=$(sed -n "s/.*the run's own samples, [0-9]* of \([0-9]*\) in.*/\1/p" "$tmp/$name.txt")
  echo "$name: free $free, samples ${samples:-none}, events $(said events)"
  if [ "$(said events)" = 1 ]; then
    # 0.5 s of the main thread's time: 500 samples at 1 ms, 125 a tick
    [ -n "$samples" ] && [ "$samples" -ge 300 ] || fail "$name: ${samples:-no} samples in 0.5 s of CPU time, where a perf event was to be had"
  fi
}
check gcc -finstrument-functions
flags=$(sed -n 's/^Cflags: *//p' "$top_builddir/src/amon/amon.pc" 2>/dev/null)
case $flags in *-pg*) check rec $flags ;; esac
finish
