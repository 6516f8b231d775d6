#!/bin/sh
# libamon's sampling clock (AMON_CLOCK=sample) on threads, with programs
# built with the flags amon.pc gives (the -pg mode on x86-64) and with
# -finstrument-functions (the hooks of other architectures):
#  - 300 threads one after another, each spinning 2.5 ms of its CPU time
#    in spin(): the profile's total (the sum of cgcost's self column) is
#    within 10% of the CPU time of the program's code, which the program
#    reads with CLOCK_THREAD_CPUTIME_ID at the end of each thread's start
#    routine and of main (the oracle).  A thread's time after its last
#    sample is charged when it ends: without that, a thread that ended
#    before the kernel's next check of CPU timers (a tick, 4 ms at 250 Hz)
#    lost it, and the profile kept 0.16 s of 0.65 s; with a perf event's
#    sample every 1 ms of the thread's time the last half millisecond is
#    lost (0.64 s of 0.83 s).  (The process's CPU time holds the threads'
#    creation and ends too, which are no routine's: at a load of 10 on
#    two cores the profile was 0.87 to 0.91 of it, 0.94 to 0.98 of the
#    threads' own.  And 2 ms, a multiple of the samples' period, left no
#    tail to lose: the profile kept 0.64 s of 0.69 s without it.)
#  - the main thread asleep in nanosleep(2) and another thread in poll(2)
#    for the whole run, while a third spins with every signal blocked (as
#    a server's workers leave signals to the main thread): neither call
#    fails with EINTR.  Each thread has its own timer on its own CPU
#    clock, which does not run while it sleeps, and its signal waits while
#    the thread blocks it.  A timer of the process sent SIGPROF to a
#    thread of the kernel's choice (the main thread first on older
#    kernels; on recent ones the thread that ran, unless it blocks the
#    signal), so the main thread's sleep failed at the spinner's first
#    sample.
#  - a routine called 50 million times: the time of the samples that fell
#    in the monitor's code, which the profile leaves out, is in the note,
#    and with the profile's total makes the process's CPU time (within 15%).
#  - a routine called 3 million times that works some 100 ns a call: the
#    monitor has well under half the samples, and the note still says
#    that the program's own code ran slower beside it, so that its times
#    may read high (said before only where the monitor had most of them:
#    jsonnet 0.18's bench.06, the monitor 28% of the samples, summed to
#    6.14 s for 4.01 s bare, and the note said nothing of it).
# Counts of CPU time, not of wall time: a loaded machine makes the runs
# longer, not the totals different.
. "${top_srcdir:-.}/tests/cli/common.sh"
libdir=$(cd "$top_builddir/src/amon/.libs" 2>/dev/null && pwd) || skip "libamon was not built"
[ -f "$libdir/libamon.so" ] || skip "libamon was not built shared"
CC=${CC:-cc}
pg=$(PKG_CONFIG_PATH="$top_builddir/src/amon" pkg-config --cflags amon 2>/dev/null) || pg=""

cat >"$tmp/short.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>
#include <time.h>
static volatile long sink;
static double now (clockid_t clock)
{
  struct timespec ts;
  clock_gettime (clock, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}
__attribute__ ((noinline)) static void spin (void)
{
  double until = now (CLOCK_THREAD_CPUTIME_ID) + 0.0025;
  while (now (CLOCK_THREAD_CPUTIME_ID) < until)
    for (int i = 0; i < 1000; i++)
      sink++;
}
static double threads_cpu; /* of the threads that ended, one at a time */
__attribute__ ((noinline)) static void *run (void *arg)
{
  spin ();
  threads_cpu += now (CLOCK_THREAD_CPUTIME_ID);
  return arg;
}
int main (void)
{
  for (int i = 0; i < 300; i++)
    {
      pthread_t t;
      if (pthread_create (&t, 0, run, 0) != 0 || pthread_join (t, 0) != 0)
        return 2;
    }
  printf ("%.6f\n", threads_cpu + now (CLOCK_THREAD_CPUTIME_ID));
  return 0;
}
EOF

cat >"$tmp/sleepers.c" <<'EOF'
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
static volatile int done;
static volatile long sink;
static int polled;
__attribute__ ((noinline)) static void step (void)
{
  for (int i = 0; i < 1000; i++)
    sink++;
}
__attribute__ ((noinline)) static void *spinner (void *arg)
{
  /* as a server's workers do, leaving signals to the main thread */
  sigset_t all;
  sigfillset (&all);
  pthread_sigmask (SIG_BLOCK, &all, NULL);
  while (!done)
    step ();
  return arg;
}
__attribute__ ((noinline)) static void *poller (void *arg)
{
  int r = poll (NULL, 0, 500);
  polled = r == 0 ? 1 : errno == EINTR ? -1 : -2;
  return arg;
}
__attribute__ ((noinline)) static int sleeper (void)
{
  struct timespec ts = { 0, 500000000 };
  return nanosleep (&ts, 0) == 0 ? 1 : errno == EINTR ? -1 : -2;
}
int main (void)
{
  pthread_t s, p;
  if (pthread_create (&s, 0, spinner, 0) != 0 || pthread_create (&p, 0, poller, 0) != 0)
    return 2;
  int slept = sleeper ();
  pthread_join (p, 0);
  done = 1;
  pthread_join (s, 0);
  printf ("nanosleep %s, poll %s\n", slept == 1 ? "slept" : slept == -1 ? "EINTR" : "failed",
          polled == 1 ? "slept" : polled == -1 ? "EINTR" : "failed");
  return slept == 1 && polled == 1 ? 0 : 3;
}
EOF

# calls 50 million times a routine that does next to nothing: most of the
# time is the monitor's, whose samples the profile leaves out and the
# note must count (what was left out and the profile's total make the
# process's CPU time)
cat >"$tmp/dense.c" <<'EOF'
#include <stdio.h>
#include <time.h>
static volatile long sink;
__attribute__ ((noinline)) void tiny (long i) { sink += i; }
int main (void)
{
  for (long i = 0; i < 50000000; i++)
    tiny (i);
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  printf ("%.6f\n", ts.tv_sec + ts.tv_nsec / 1e9);
  return 0;
}
EOF

cat >"$tmp/sparse.c" <<'EOF'
static volatile long sink;
__attribute__ ((noinline)) void work (long i)
{
  for (int k = 0; k < 600; k++)
    sink += i ^ k;
}
int main (void)
{
  for (long i = 0; i < 300000; i++)
    work (i);
  return 0;
}
EOF

# build PROGRAM-MODE FLAGS... — $tmp/PROGRAM-MODE from $tmp/PROGRAM.c, linked with -lamon (shared)
build () {
  name=$1
  shift
  $CC -O2 "$@" -pthread -o "$tmp/$name" "$tmp/${name%%-*}.c" -L"$libdir" -lamon -Wl,-rpath,"$libdir" \
    >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "building $name ($CC $*)"; return 1; }
}

for mode in pc instrument; do
  if [ $mode = pc ]; then
    [ -n "$pg" ] || continue
    flags=$pg
  else
    flags=-finstrument-functions
  fi
  # shellcheck disable=SC2086 # the flags are words
  if build short-$mode $flags; then
    (cd "$tmp" && AMON_CLOCK=sample AMON_OUT="$tmp/short-$mode.out" "./short-$mode" >"$tmp/short-$mode.cpu" 2>"$tmp/err") \
      || fail "short threads ($flags) failed: $(head -c 300 "$tmp/err")"
    "$cgcost" --format=tsv "$tmp/short-$mode.out" >"$tmp/short-$mode.tsv" 2>"$tmp/err" || fail "cgcost: $(cat "$tmp/err")"
    awk -F '\t' -v flags="$flags" -v cpu="$(cat "$tmp/short-$mode.cpu")" '
      NR > 1 { total += $3; if ($1 == "spin") calls = $2 }
      END {
        printf "short threads (%s): profile %.3f s, the program'"'"'s CPU time %.3f s, spin called %d times\n", flags, total, cpu, calls
        exit !(cpu > 0.5 && total > 0.9 * cpu && total < 1.1 * cpu && calls == 300) }' "$tmp/short-$mode.tsv" \
      || fail "short threads ($flags): the profile's total is not within 10% of the program's CPU time: $(cat "$tmp/short-$mode.tsv")"
  fi
  # shellcheck disable=SC2086
  if build dense-$mode $flags; then
    (cd "$tmp" && AMON_CLOCK=sample AMON_OUT="$tmp/dense-$mode.out" "./dense-$mode" >"$tmp/dense-$mode.cpu" 2>"$tmp/err") \
      || fail "dense calls ($flags) failed: $(head -c 300 "$tmp/err")"
    "$cgcost" --format=text "$tmp/dense-$mode.out" >"$tmp/dense.txt" 2>"$tmp/err" || fail "cgcost: $(cat "$tmp/err")"
    "$cgcost" --format=tsv "$tmp/dense-$mode.out" >"$tmp/dense.tsv" 2>"$tmp/err" || fail "cgcost: $(cat "$tmp/err")"
    out=$(notes "$tmp/dense.txt" | sed -n 's/^Note: the monitor.s own time is left out: \([0-9.e+-]*\) s of the \([0-9.e+-]*\) s sampled.*/\1 \2/p')
    awk -F '\t' -v flags="$flags" -v cpu="$(cat "$tmp/dense-$mode.cpu")" -v out="$out" '
      NR > 1 { total += $3 }
      END {
        split (out, n, " ")
        printf "dense calls (%s): left out %s s of %s s sampled, profile %.3f s, the process'"'"'s CPU time %.3f s\n", flags, n[1], n[2], total, cpu
        # the note rounds to three digits
        exit !(n[1] > 0.3 * cpu && n[1] + total > 0.85 * cpu && n[1] + total < 1.15 * cpu && n[2] > 0.85 * cpu && n[2] < 1.15 * cpu) }' \
      "$tmp/dense.tsv" || fail "dense calls ($flags): what the note left out is not the rest of the process's CPU time: $(head -6 "$tmp/dense.txt")"
    notes "$tmp/dense.txt" | grep -q "^Note: .*the times are dominated by the probe: [0-9]*% of the time was the monitor's" \
      || fail "dense calls ($flags): no warning that the probe dominates: $(head -6 "$tmp/dense.txt")"
  fi
  # shellcheck disable=SC2086
  if build sparse-$mode $flags; then
    (cd "$tmp" && AMON_CLOCK=sample AMON_OUT="$tmp/sparse-$mode.out" "./sparse-$mode" 2>"$tmp/err") \
      || fail "sparse calls ($flags) failed: $(head -c 300 "$tmp/err")"
    "$cgcost" --format=text "$tmp/sparse-$mode.out" >"$tmp/sparse.txt" 2>"$tmp/err" || fail "cgcost: $(cat "$tmp/err")"
    note=$(notes "$tmp/sparse.txt" | grep "^Note: the monitor.s own time is left out")
    echo "sparse calls ($flags): $note"
    # A slow or busy machine can give the monitor half the samples even
    # here; the note must then say the probe dominates instead.
    if [ -n "$note" ]; then
      if echo "$note" | awk '{ match ($0, /left out: [0-9.e+-]* s of the [0-9.e+-]* s/)
                               split (substr ($0, RSTART, RLENGTH), w, " ")
                               exit !(w[3] < 0.5 * w[7]) }'; then
        echo "$note" | grep -q "the program's own code may run slower beside .* so its times may read high" \
          || fail "sparse calls ($flags): no warning that the program's code may run slower beside the monitor: $note"
        echo "$note" | grep -q "dominated by the probe" \
          && fail "sparse calls ($flags): the monitor had less than half the samples, yet the note says it dominates: $note"
      else
        echo "$note" | grep -q "the times are dominated by the probe: [0-9]*% of the time was the monitor's" \
          || fail "sparse calls ($flags): the monitor had half the samples or more, and the note does not say it dominates: $note"
      fi
    fi
  fi
  # shellcheck disable=SC2086
  if build sleepers-$mode $flags; then
    (cd "$tmp" && AMON_CLOCK=sample AMON_OUT="$tmp/sleepers-$mode.out" "./sleepers-$mode" >"$tmp/sleepers.txt" 2>"$tmp/err")
    rc=$?
    cat "$tmp/sleepers.txt"
    [ $rc -eq 0 ] || fail "sleepers ($flags) exited $rc: $(cat "$tmp/sleepers.txt") $(head -c 300 "$tmp/err")"
    "$cgcost" --format=tsv "$tmp/sleepers-$mode.out" >"$tmp/sleepers.tsv" 2>"$tmp/err" || fail "cgcost: $(cat "$tmp/err")"
    grep -q "^spinner	0	" "$tmp/sleepers.tsv" || fail "sleepers ($flags): no spinner in the profile: $(cat "$tmp/sleepers.tsv")"
  fi
done
finish
