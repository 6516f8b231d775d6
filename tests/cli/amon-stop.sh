#!/bin/sh
# libamon and a run that a limit stopped early (AMON_MAX_DEPTH here; the
# memory limit takes the same path, and so does every hook after the
# profile is written at exit).  The profile covers the run until the
# stop, and the program must run on at no more than the hooks' own cost.
#
# 1. What the monitor says it took out for its own cost must be what it
#    cost until the stop.  It read the thread's CPU clock once more at
#    exit, so that all the time the program ran after the stop was "taken
#    out": a recursion 50 deep stopped by AMON_MAX_DEPTH=10, then 2 s of
#    plain loops, made "instrumentation cost taken out: 2.01 s of 2.01 s
#    measured (10 calls and returns, 201161029.51 ns each ...)" and "the
#    times are dominated by the probe".  Here main recurses past the
#    limit, then spins some 0.3 s without a call: the profile must take
#    out less than a tenth of that.
# 2. After the stop the -pg mode's hooks went the slow way at every call,
#    saving the vector state (xsave) to hand on a call that nothing then
#    counted, and went on swapping return addresses for the trampoline: a
#    program that made 60 million calls after the stop ran 15 times
#    slower than while profiled (22.6 s of CPU time for 1.5 s).  Without
#    timing anything: a function first called after the stop must return
#    straight to its caller, not through libamon's trampoline, and a
#    call's hook must touch no more of the stack below it than while the
#    run is profiled (2,700 bytes after the stop against 190, xsave's
#    area).
# 3. And it must not take out less than its cost until the stop: the CPU
#    time it compares with its charges was the last check's, up to 4096
#    calls and returns before the stop, and charges after it outweighed
#    the cost ("0 s taken out of 0.00057 s measured (11210 calls and
#    returns ...)"; gawk 5.2.1 stopped by AMON_MAX_MEMORY early on).
#    Here 5,600 calls that do some work each come before the stop: at
#    least a nanosecond a call and return must be taken out, as no
#    calibration costs less.
. "${top_srcdir:-.}/tests/cli/common.sh"
amon_setup

# rec.h: the recursion both programs below stop in
cat >"$tmp/rec.h" <<'EOF2'
volatile long sink;
/* the empty asm keeps the recursion a recursion (gcc makes a loop of it) */
__attribute__ ((noinline)) long
rec (int n)
{
  if (n == 0)
    return 0;
  long r = rec (n - 1) + 1;
  __asm__ volatile ("" : "+r" (r));
  return r;
}
EOF2

cat >"$tmp/stop.c" <<'EOF2'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "rec.h"
/* first called after the stop: where does it return to? */
static const char *where;
__attribute__ ((noinline)) void
fresh (void)
{
  Dl_info di;
  void *ra = __builtin_return_address (0);
  where = dladdr (ra, &di) && di.dli_fname ? di.dli_fname : "?";
  __asm__ volatile ("");
}
/* how many bytes of stack a call of empty(), its hook's included,
 * touches below touched()'s frame: paint and scan, which are not
 * instrumented, have the same frame at the same place */
#define DEPTH 16384
__attribute__ ((noinline, no_instrument_function)) static void
paint (void)
{
  volatile unsigned char buf[DEPTH];
  for (int i = 0; i < DEPTH; i++)
    buf[i] = 0xa5;
}
__attribute__ ((noinline, no_instrument_function)) static int
scan (void)
{
  volatile unsigned char buf[DEPTH];
  int i = 0;
  while (i < DEPTH && buf[i] == 0xa5)
    i++;
  return DEPTH - i;
}
__attribute__ ((noinline)) void
empty (void)
{
  __asm__ volatile ("");
}
__attribute__ ((noinline, no_instrument_function)) static int
touched (void)
{
  paint ();
  empty ();
  return scan ();
}
int
main (void)
{
  long r = rec (50);
  touched ();
  int bytes = touched ();
  fresh ();
  struct timespec t0, t;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t0);
  do
    {
      for (int i = 0; i < 100000; i++)
        sink += i;
      clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t);
    }
  while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 300000000L);
  printf ("%ld %s %d\n", r, strstr (where, "libamon") ? "libamon" : "program", bytes);
  return 0;
}
EOF2
$CC -O2 $cflags -o "$tmp/stop" "$tmp/stop.c" -L"$libdir" -lamon -ldl -Wl,-rpath,"$libdir" >"$tmp/build.log" 2>&1 \
  || { cat "$tmp/build.log"; fail "building stop"; finish; }

# run CLOCK DEPTH — runs stop, its output in $tmp/out, the profile read by cgcost into $tmp/text
run () {
  rm -f "$tmp/amon.out"
  (cd "$tmp" && AMON_CLOCK=$1 AMON_MAX_DEPTH=$2 ./stop >"$tmp/out" 2>"$tmp/err")
  rc=$?
  [ "$rc" = 0 ] && [ "$(cut -d ' ' -f 1 "$tmp/out")" = 50 ] \
    || { fail "AMON_CLOCK=$1 AMON_MAX_DEPTH=$2: stop exited $rc printing '$(cat "$tmp/out")'"; return 1; }
  "$cgcost" --format=text "$tmp/amon.out" >"$tmp/text" 2>"$tmp/cgcost.err" \
    || { fail "cgcost: $(cat "$tmp/cgcost.err")"; return 1; }
}

for clock in cpu wall tsc; do
  run $clock 10 || continue
  grep -q 'stopped early' "$tmp/err" || fail "AMON_CLOCK=$clock: no word of the stop: $(cat "$tmp/err")"
  grep -q 'stopped early' "$tmp/cgcost.err" || fail "AMON_CLOCK=$clock: cgcost says nothing of the stop"
  note=$(grep '^Note: instrumentation cost taken out' "$tmp/text")
  [ -n "$note" ] || { fail "AMON_CLOCK=$clock: no note of the cost taken out"; continue; }
  echo "$note" | awk '{
      for (i = 1; i <= NF; i++)
        if ($i == "out:") out = $(i + 1)
      if (out + 0 > 0.03) { print out " s taken out"; exit 1 }
    }' >"$tmp/why" || fail "AMON_CLOCK=$clock, stopped early: $(cat "$tmp/why"): $note"
  # the probe said to dominate because of the time after the stop (2.01
  # s of 2.01 s); before the stop, its 10 calls' slow way (new contexts,
  # the vector state saved) is the monitor's time and may well be most of
  # the 25 us measured
  echo "$note" | awk '{ for (i = 1; i <= NF; i++) if ($i == "out:") out = $(i + 1); exit !(out + 0 > 0.001) }' \
    && grep -q 'dominated by the probe' "$tmp/text" && fail "AMON_CLOCK=$clock, stopped early: the probe said to dominate: $note"
done

# the cost until the stop, with calls that work before it
cat >"$tmp/before.c" <<'EOF2'
#include <stdio.h>
#include "rec.h"
__attribute__ ((noinline)) void
work (void)
{
  for (int i = 0; i < 150; i++)
    sink += i;
}
int
main (void)
{
  for (int i = 0; i < 5600; i++)
    work ();
  printf ("%ld\n", rec (50));
  return 0;
}
EOF2
if $CC -O2 $cflags -o "$tmp/before" "$tmp/before.c" -L"$libdir" -lamon -Wl,-rpath,"$libdir" >"$tmp/build.log" 2>&1; then
  for i in 1 2 3; do
    rm -f "$tmp/amon.out"
    (cd "$tmp" && AMON_CLOCK=cpu AMON_MAX_DEPTH=10 ./before >"$tmp/out" 2>"$tmp/err") \
      || { fail "before exited $?: $(cat "$tmp/err")"; break; }
    # the note, its lines joined
    note=$("$cgcost" --format=text "$tmp/amon.out" 2>/dev/null \
      | awk '/^Note: instrumentation/ { on = 1; printf "%s", $0; next } on && /^      / { printf " %s", $0; next } { on = 0 }')
    echo "$note" | awk '{
        for (i = 1; i <= NF; i++) {
          if ($i == "out:") out = $(i + 1)
          if ($i == "calls" && $(i + 1) == "and" && $(i + 2) ~ /^returns[,)]/) events = $(i - 1)
        }
        gsub(/[(]/, "", events)
        if (events + 0 < 10000) { print "only " events " calls and returns"; exit 1 }
        if (out + 0 < 1e-9 * events) { print out " s taken out for " events " calls and returns"; exit 1 }
      }' >"$tmp/why" || { fail "stopped after calls that work: $(cat "$tmp/why"): $note"; break; }
  done
else
  cat "$tmp/build.log"
  fail "building before"
fi

# the hooks after the stop, in the -pg mode (x86-64), with each clock's hooks
case $cflags in
  *-pg*)
    for clock in cpu sample; do
      run $clock 4194304 || continue
      profiled=$(cut -d ' ' -f 3 "$tmp/out")
      run $clock 10 || continue
      set -- $(cat "$tmp/out")
      [ "$2" = program ] || fail "AMON_CLOCK=$clock: after the stop, a function's return address was still swapped for the trampoline's"
      [ "$3" -le "$profiled" ] \
        || fail "AMON_CLOCK=$clock: after the stop, a call's hook touched $3 bytes of stack, $profiled while profiled (the slow way, saving the vector state)"
    done
    ;;
esac
finish
