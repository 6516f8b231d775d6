#!/bin/sh
# libamon and a thread started with every signal blocked, still running
# when the program exits.  xz 5.4's liblzma starts its worker threads so
# (that signals go to the program's own threads) and, in a release
# build, never ends them: they wait on a condition variable when xz
# exits.  The program here does the same with one worker that spins in
# work() and then waits for ever; the oracle is the worker's own CPU
# clock, read by itself before it waits.
#
# The samples' signal, SIGPROF, is the monitor's, sent to each thread
# alone, so the monitor lets it through in every thread it times.  Held
# pending instead, a worker had no samples at all:
#  - with AMON_CLOCK=sample its time was charged when the program ended,
#    to its start routine: xz -T4's profile put 99.5% of its time in
#    worker_start, where perf puts half in lzma_mf_hc4_find.  Here
#    work() must hold at least 80% of the time the worker spun in it (it
#    held none), and the worker's total at least that and at most its CPU
#    time (its calls' cost to the monitor is no routine's);
#  - with the default clock its calibrated cost went unchecked (xz -T4's
#    profile said 5.6-5.9 s for 3.4-4.1 s of CPU time), the note saying
#    that none of the 2 threads had the samples to check it.
# The program blocked every signal so that none interrupts the worker's
# system calls, so its samples come from an event that counts its time
# in its own code only: one that counts the kernel's time too overflows
# there, and a call that waits next fails with EINTR (10-25 times in
# 20,000 nanosleep(2) and poll(2) calls).  The worker makes such calls
# after work(), pushing 256 KiB through a pipe and making 4,000 calls
# before each, and none may fail so.  Where the kernel gives no perf event (perf_event_paranoid, a
# seccomp filter) the monitor leaves the signal blocked, and the worker
# has no samples (its total is then all it can check).
. "${top_srcdir:-.}/tests/cli/common.sh"
amon_setup

cat >"$tmp/blocked.c" <<'EOF'
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int done, fds[2];
static long eintr;
static double worker_cpu, work_cpu, worker_sys;
volatile unsigned long sink;
__attribute__ ((noinline)) void work (long n) { for (long i = 0; i < n; i++) sink += (unsigned long) i * 7; }
static double cpu (void)
{
  struct timespec t;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}
__attribute__ ((noinline)) long leaf (long i) { return i * 5 + 1; }
__attribute__ ((noinline)) long rec (int n) { return n ? rec (n - 1) + leaf (n) : 0; }
__attribute__ ((noinline)) void io (void)
{
  sink += (unsigned long) rec (2000);
  static char out[64 * 1024], in[64 * 1024];
  struct timespec ts = { 0, 1000 };
  struct pollfd p = { fds[0], POLLIN, 0 };
  for (int k = 0; k < 4; k++)
    if (write (fds[1], out, sizeof out) < 0 || read (fds[0], in, sizeof in) < 0)
      eintr += errno == EINTR;
  if (nanosleep (&ts, NULL) != 0)
    eintr += errno == EINTR;
  if (poll (&p, 1, 0) < 0)
    eintr += errno == EINTR;
}
__attribute__ ((noinline)) void *worker (void *arg)
{
  (void) arg;
  work (300000000);
  work_cpu = cpu ();
  for (int i = 0; i < 10000; i++)
    io ();
  pthread_mutex_lock (&lock);
  worker_cpu = cpu ();
  struct rusage ru;
  getrusage (RUSAGE_THREAD, &ru);
  worker_sys = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
  done = 1;
  pthread_cond_broadcast (&cond);
  for (;;) /* as liblzma's workers: wait for more, never end */
    pthread_cond_wait (&cond, &lock);
  return NULL;
}
int main (void)
{
  sigset_t all, old;
  pthread_t th;
  if (pipe (fds) != 0)
    return 2;
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  if (pthread_create (&th, NULL, worker, NULL) != 0)
    return 2;
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  pthread_mutex_lock (&lock);
  while (!done)
    pthread_cond_wait (&cond, &lock);
  printf ("%.6f %.6f %ld %.6f\n", worker_cpu, work_cpu, eintr, worker_sys);
  pthread_mutex_unlock (&lock);
  return 0;
}
EOF
$CC -O2 $cflags -pthread -o "$tmp/blocked" "$tmp/blocked.c" -L"$libdir" -lamon -Wl,-rpath,"$libdir" >"$tmp/build.log" 2>&1 \
  || { cat "$tmp/build.log"; fail "building blocked ($cflags)"; finish; }

# whether the kernel gives this user a perf event on a thread's own code
cat >"$tmp/probe.c" <<'EOF'
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
int main (void)
{
  struct perf_event_attr a;
  memset (&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_TASK_CLOCK;
  a.sample_period = 1000000;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  return syscall (SYS_perf_event_open, &a, 0, -1, -1, 0) >= 0 ? 0 : 1;
}
EOF
events=0
$CC -o "$tmp/probe" "$tmp/probe.c" >/dev/null 2>&1 && "$tmp/probe" && events=1

for clock in sample cpu; do
  rm -f "$tmp/amon.out"
  (cd "$tmp" && AMON_CLOCK=$clock ./blocked >"$tmp/cpu" 2>"$tmp/err") || fail "blocked (AMON_CLOCK=$clock) exited $?: $(cat "$tmp/err")"
  read -r all spun eintr sys <"$tmp/cpu"
  [ "$eintr" = 0 ] || fail "AMON_CLOCK=$clock: $eintr of the worker's system calls failed with EINTR"
  "$cgcost" --format=tsv "$tmp/amon.out" >"$tmp/tsv" 2>"$tmp/err" || fail "cgcost: $(cat "$tmp/err")"
  # the note in full: how each measure was found
  "$cgmerge" --format=text "$tmp/amon.out" >"$tmp/text" 2>"$tmp/err" || fail "cgmerge: $(cat "$tmp/err")"
  cp "$tmp/tsv" "$tmp/$clock.tsv"
  cp "$tmp/cpu" "$tmp/$clock.cpu"
  [ $clock = sample ] || continue
  awk -F '\t' -v all="$all" -v spun="$spun" -v events=$events '
    NR == 1 { next }
    $1 == "worker" { w = $4 }
    $1 == "work" { s = $3 }
    END {
      if (spun < 0.05) { print "the worker spun only " spun " s"; exit 1 }
      if (w < spun || w > 1.2 * all) { print "worker total " w " s, for " spun " s in work() and " all " s of CPU time"; exit 1 }
      if (events && s < 0.8 * spun) { print "work() has " s " s of its own, the worker spun " spun " s in it"; exit 1 }
    }' "$tmp/tsv" >"$tmp/why" || fail "AMON_CLOCK=sample: $(cat "$tmp/why")"
done
# the worker's time in the kernel, which its samples do not see, is the
# program's: its total holds it (with a quarter of this kernel time the
# default clock split it as the samples split the rest, and kept 0.15 s
# of 0.33; the sampling clock dropped it with each sample that fell in
# the monitor's code, and kept 0.34-0.43 s of 0.91)
if [ $events = 1 ]; then
  for clock in sample cpu; do
    read -r all spun eintr sys <"$tmp/$clock.cpu"
    awk -F '\t' -v spun="$spun" -v sys="$sys" '
      $1 == "worker" { w = $4 }
      END { if (w < spun + 0.7 * sys) { print "worker total " w " s, for " spun " s in work() and " sys " s in the kernel"; exit 1 } }' \
      "$tmp/$clock.tsv" >"$tmp/why" || fail "AMON_CLOCK=$clock: $(cat "$tmp/why")"
  done
fi
if [ $events = 1 ] && notes "$tmp/text" | grep -q "^Note: .*calibrations over the run"; then
  notes "$tmp/text" | grep -q "^Note: .*the run's own samples, [0-9]* of [0-9]* in the program's code" \
    && ! notes "$tmp/text" | grep -q "^Note: .*none of the 2 threads had the samples" \
    || fail "AMON_CLOCK=cpu: the worker's samples did not check the calibrations: $(grep '^Note' "$tmp/text")"
fi

finish
