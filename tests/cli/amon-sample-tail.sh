#!/bin/sh
# libamon's sampling clock (AMON_CLOCK=sample) and the time a thread used
# after its last sample, charged when the profile is written: libamon(3)
# gives it to the routine at the bottom of the thread's stack (main), or
# to the routine that called exit(3) from inside.  After main returned,
# the exit handlers run at the depth main ran at: an atexit(3) handler
# that had returned still had its address in its slot, was taken for
# live, and took that time (a program that spins with SIGPROF blocked,
# so that all of that spin is charged at exit, had its 29 ms in a handler
# that only counts).  The oracle is the program's own CPU clock around
# the blocked spin, and its structure: at_end does nothing, main spins.
. "${top_srcdir:-.}/tests/cli/common.sh"
case $(uname -m) in x86_64) ;; *) skip "the -pg mode's sampling walk is for x86-64" ;; esac
amon_setup

cat >"$tmp/tail.c" <<'EOF'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
volatile unsigned long sink;
__attribute__ ((noinline)) void work (long n) { for (long i = 0; i < n; i++) sink += (unsigned long) i * 7; }
__attribute__ ((noinline)) void at_end (void) { sink++; }
static double cpu (void)
{
  struct timespec t;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}
int main (void)
{
  sigset_t prof;
  atexit (at_end);
  work (20000000);
  /* no sample from here on: the spin is charged when the file is written */
  sigemptyset (&prof);
  sigaddset (&prof, SIGPROF);
  sigprocmask (SIG_BLOCK, &prof, NULL);
  double t0 = cpu ();
  work (200000000);
  printf ("%.6f\n", cpu () - t0);
  return 0;
}
EOF
# check NAME FLAGS
check () {
  name=$1 flags=$2
  $CC -O2 $flags -o "$tmp/$name" "$tmp/tail.c" -L"$libdir" -lamon -Wl,-rpath,"$libdir" >"$tmp/build.log" 2>&1 \
    || { fail "building $name ($flags): $(head -c 300 "$tmp/build.log")"; return; }
  rm -f "$tmp/amon.out"
  (cd "$tmp" && AMON_CLOCK=sample "./$name" >"$tmp/cpu" 2>"$tmp/err") || { fail "$name exited $?: $(cat "$tmp/err")"; return; }
  "$cgcost" --format=tsv "$tmp/amon.out" >"$tmp/tsv" 2>"$tmp/err" || { fail "$name: cgcost: $(cat "$tmp/err")"; return; }
  awk -F '\t' -v cpu="$(cat "$tmp/cpu")" '
    NR == 1 { next }
    $1 == "main" { m = $4 }
    $1 == "at_end" { a = $3 }
    END {
      if (cpu < 0.02) { print "the blocked spin took only " cpu " s"; exit 1 }
      if (a > 0.1 * cpu) { print "at_end, which does nothing, has " a " s of its own, the blocked spin " cpu " s"; exit 1 }
      if (m < 0.8 * cpu) { print "main has " m " s in all, its blocked spin alone " cpu " s"; exit 1 }
    }' "$tmp/tsv" >"$tmp/why" || fail "$name: $(cat "$tmp/why")"
}

check recommended "$cflags"
[ -n "$portable" ] && [ "$portable" != "$cflags" ] && check portable "$portable"

finish
