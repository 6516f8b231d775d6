#!/bin/sh
# libamon's sampling clock (AMON_CLOCK=sample) in the -pg mode and a
# signal handler called where the program sends itself a signal: the
# handler nests in the routine the signal interrupted.  dash 0.5.12's
# kill builtin calls number, which calls atomax (which calls strtoimax),
# and then kill(2), at whose return the kernel runs the handler; atomax's
# return-address slot, in the red zone under the builtin's frame, still
# held its address, and the walk up from the handler stopped at the
# signal trampoline, whose unwind rule it cannot read, so the handler was
# taken for atomax's callee, which had returned.  The program here has
# the same shape; the oracle is its structure: sender calls number,
# number calls atomax, and sender's kill runs the handler, 1000 times.
. "${top_srcdir:-.}/tests/cli/common.sh"
case $(uname -m) in x86_64) ;; *) skip "the -pg mode's sampling walk is for x86-64" ;; esac
amon_setup

cat >"$tmp/kill.c" <<'EOF'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
volatile unsigned long sink;
__attribute__ ((noinline)) void handler (int s) { (void) s; sink++; }
__attribute__ ((noinline)) long atomax (const char *s)
{
  char *end;
  long v = strtol (s, &end, 10);
  return *end ? -1 : v;
}
__attribute__ ((noinline)) long number (const char *s)
{
  long v = atomax (s);
  if (v < 0)
    abort ();
  return v;
}
__attribute__ ((noinline)) int sender (const char *arg)
{
  long pid = number (arg);
  int r = kill ((pid_t) pid, SIGUSR1);
  sink++; /* no tail call: kill returns into sender */
  return r;
}
int main (void)
{
  char buf[32];
  snprintf (buf, sizeof buf, "%ld", (long) getpid ());
  signal (SIGUSR1, handler);
  for (int i = 0; i < 1000; i++)
    if (sender (buf) != 0)
      return 2;
  printf ("%lu\n", sink / 2);
  return 0;
}
EOF

want="main>sender:1000 number>atomax:1000 sender>handler:1000 sender>number:1000 "
# check NAME FLAGS — builds with FLAGS, runs with each clock
check () {
  name=$1 flags=$2
  $CC -O2 $flags -o "$tmp/$name" "$tmp/kill.c" -L"$libdir" -lamon -Wl,-rpath,"$libdir" >"$tmp/build.log" 2>&1 \
    || { fail "building $name ($flags): $(head -c 300 "$tmp/build.log")"; return; }
  amon_arcs_both "$name" 1000 "$want"
}

check recommended "$cflags"
[ -n "$portable" ] && [ "$portable" != "$cflags" ] && check portable "$portable"

finish
