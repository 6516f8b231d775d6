#!/bin/sh
# libamon and a program that exits from a signal handler which
# interrupted one of the monitor's hooks: the way libamon(3) gives a
# server stopped by SIGINT or SIGTERM to write its profile.  In a program
# that makes calls all the time the hooks hold most of its time, so the
# signal often lands in one (1 run in 6 of a recursive loop stopped by
# SIGINT).  The thread's frames may then be half written, and the monitor
# left the thread as it was, deriving nothing at the end: the views said
# "instrumentation cost taken out: 0 s of 0.0361 s measured (5387661 calls
# and returns, 0.00 ns each ...)".  Here the handler of a timer's signal
# exits only when it interrupted libamon's code, which with
# -finstrument-functions (every processor) is inside a hook; the profile
# must then say what was taken out: at least a nanosecond for each call
# and return, as no calibration costs less.
. "${top_srcdir:-.}/tests/cli/common.sh"
amon_setup
case $(uname -m) in x86_64 | aarch64) ;; *) skip "reads the interrupted address on x86-64 and aarch64 only" ;; esac

cat >"$tmp/stop.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <ucontext.h>
volatile long sink;
__attribute__ ((noinline)) long leaf (long i) { return i * 5 + 1; }
__attribute__ ((noinline)) long rec (int n) { return n ? rec (n - 1) + leaf (n) : 0; }
__attribute__ ((no_instrument_function)) static void
stop (int sig, siginfo_t *si, void *p)
{
  ucontext_t *uc = p;
  Dl_info di;
  (void) sig; (void) si;
#if defined(__x86_64__)
  void *ip = (void *) uc->uc_mcontext.gregs[REG_RIP];
#else
  void *ip = (void *) uc->uc_mcontext.pc;
#endif
  if (dladdr (ip, &di) && di.dli_fname && strstr (di.dli_fname, "libamon"))
    exit (3);
}
int main (void)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = stop;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction (SIGALRM, &sa, NULL);
  struct itimerval it = { { 0, 500 }, { 0, 500 } };
  setitimer (ITIMER_REAL, &it, NULL);
  for (long k = 0; k < 2000000000; k++)
    sink += rec ((int) (k % 300));
  return 0;
}
EOF
$CC -O2 -finstrument-functions -o "$tmp/stop" "$tmp/stop.c" -L"$libdir" -lamon -ldl -Wl,-rpath,"$libdir" >"$tmp/build.log" 2>&1 \
  || { cat "$tmp/build.log"; fail "building stop"; finish; }

(cd "$tmp" && AMON_CLOCK=cpu ./stop >"$tmp/out" 2>"$tmp/err")
rc=$?
[ "$rc" = 3 ] || fail "stop exited $rc, not 3 from its handler: $(cat "$tmp/err")"
"$cgcost" --format=text "$tmp/amon.out" >"$tmp/text" 2>"$tmp/err" || fail "cgcost: $(cat "$tmp/err")"
note=$(notes "$tmp/text" | grep '^Note: instrumentation cost taken out')
echo "$note" | awk '{
    for (i = 1; i <= NF; i++) {
      if ($i == "out:") out = $(i + 1)
      if ($i == "calls" && $(i + 1) == "and" && $(i + 2) ~ /^returns[,)]/) events = $(i - 1)
    }
    gsub(/[(]/, "", events)
    if (events + 0 < 1000) { print "only " events " calls and returns"; exit 1 }
    if (out + 0 < 1e-9 * events) { print out " s taken out for " events " calls and returns"; exit 1 }
  }' >"$tmp/why" || fail "exit inside a hook: $(cat "$tmp/why"): $note"
finish
