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
#    worker_start, where perf puts half in lzma_mf_hc4_find.  Here the
#    worker's total must hold its CPU time (within 20%) and work() must
#    hold at least 80% of it (it held none);
#  - with the default clock its calibrated cost went unchecked (xz -T4's
#    profile said 5.6-5.9 s for 3.4-4.1 s of CPU time), the note saying
#    that none of the 2 threads had the samples to check it.
. "${top_srcdir:-.}/tests/cli/common.sh"
amon_setup

cat >"$tmp/blocked.c" <<'EOF'
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int done;
static double worker_cpu;
volatile unsigned long sink;
__attribute__ ((noinline)) void work (long n) { for (long i = 0; i < n; i++) sink += (unsigned long) i * 7; }
static double cpu (void)
{
  struct timespec t;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}
__attribute__ ((noinline)) void *worker (void *arg)
{
  (void) arg;
  work (600000000);
  pthread_mutex_lock (&lock);
  worker_cpu = cpu ();
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
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  if (pthread_create (&th, NULL, worker, NULL) != 0)
    return 2;
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  pthread_mutex_lock (&lock);
  while (!done)
    pthread_cond_wait (&cond, &lock);
  printf ("%.6f\n", worker_cpu);
  pthread_mutex_unlock (&lock);
  return 0;
}
EOF
$CC -O2 $cflags -pthread -o "$tmp/blocked" "$tmp/blocked.c" -L"$libdir" -lamon -Wl,-rpath,"$libdir" >"$tmp/build.log" 2>&1 \
  || { cat "$tmp/build.log"; fail "building blocked ($cflags)"; finish; }

(cd "$tmp" && AMON_CLOCK=sample ./blocked >"$tmp/cpu" 2>"$tmp/err") || fail "blocked exited $?: $(cat "$tmp/err")"
"$cgcost" --format=tsv "$tmp/amon.out" >"$tmp/tsv" 2>"$tmp/err" || fail "cgcost: $(cat "$tmp/err")"
awk -F '\t' -v cpu="$(cat "$tmp/cpu")" '
  NR == 1 { next }
  $1 == "worker" { w = $4 }
  $1 == "work" { s = $3 }
  END {
    if (cpu < 0.05) { print "the worker spun only " cpu " s"; exit 1 }
    if (w < 0.8 * cpu || w > 1.2 * cpu) { print "worker total " w " s, its own CPU clock said " cpu " s"; exit 1 }
    if (s < 0.8 * cpu) { print "work() has " s " s of its own, the worker spun " cpu " s in it"; exit 1 }
  }' "$tmp/tsv" >"$tmp/why" || fail "AMON_CLOCK=sample: $(cat "$tmp/why")"

rm -f "$tmp/amon.out"
(cd "$tmp" && AMON_CLOCK=cpu ./blocked >"$tmp/cpu" 2>"$tmp/err") || fail "blocked (AMON_CLOCK=cpu) exited $?: $(cat "$tmp/err")"
"$cgcost" --format=text "$tmp/amon.out" >"$tmp/text" 2>"$tmp/err" || fail "cgcost: $(cat "$tmp/err")"
if grep -q "^Note: .*calibrations over the run" "$tmp/text"; then
  grep -q "^Note: .*the run's own samples, [0-9]* of [0-9]* in the program's code" "$tmp/text" \
    && ! grep -q "^Note: .*none of the 2 threads had the samples" "$tmp/text" \
    || fail "AMON_CLOCK=cpu: the worker's samples did not check the calibrations: $(grep '^Note' "$tmp/text")"
fi

finish
