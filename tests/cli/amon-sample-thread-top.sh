#!/bin/sh
# libamon's sampling clock (AMON_CLOCK=sample) in the -pg mode and a
# thread whose first profiled call lies deeper on its stack than its later
# ones: its start routine, built without the hooks as a library's is,
# reaches a() through a routine of its own with a large frame, then calls
# b() itself, then d() through that routine again.  The monitor read a
# frame's slot only under its thread's first call (a's), so b's callee,
# which had returned, was never found so, the walk up from d's call could
# not pass it, and d showed as that callee's callee (spin>d).  A thread's
# stack is now read up to its top: glibc puts the thread's descriptor
# there.  The oracle is the program's structure: a, b and d each call
# spin once, and nothing calls them (the start routine is not profiled).
# amon-sample-init.sh is the initial thread's case.
. "${top_srcdir:-.}/tests/cli/common.sh"
case $(uname -m) in x86_64) ;; *) skip "the -pg mode's sampling walk is for x86-64" ;; esac
amon_setup

cat >"$tmp/work.c" <<'EOF'
volatile long sink;
__attribute__ ((noinline)) long spin (long n)
{
  for (long i = 0; i < n; i++)
    sink += i;
  return sink;
}
__attribute__ ((noinline)) void a (void) { sink += spin (1000); }
__attribute__ ((noinline)) void b (void) { sink += spin (1000); }
__attribute__ ((noinline)) void d (void) { sink += spin (100000000); }
EOF
cat >"$tmp/start.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>
#include <string.h>
void a (void);
void b (void);
void d (void);
extern volatile long sink;
__attribute__ ((noinline)) void deep (void (*f) (void))
{
  char big[4096];
  memset (big, 1, sizeof big);
  sink += big[100];
  f ();
  sink += big[7];
}
static void *start (void *arg)
{
  deep (a);
  b ();
  deep (d);
  return arg;
}
int main (void)
{
  pthread_t t;
  if (pthread_create (&t, NULL, start, NULL) != 0 || pthread_join (t, NULL) != 0)
    return 2;
  printf ("%d\n", sink != 0);
  return 0;
}
EOF

want="a>spin:1 b>spin:1 d>spin:1 "
# check NAME FLAGS — work.c built with FLAGS, start.c without the hooks;
# runs it with each clock
check () {
  name=$1 flags=$2
  $CC -O2 $flags -c -o "$tmp/work.o" "$tmp/work.c" >"$tmp/build.log" 2>&1 \
    && $CC -O2 -c -o "$tmp/start.o" "$tmp/start.c" >"$tmp/build.log" 2>&1 \
    && $CC -O2 -pthread -o "$tmp/$name" "$tmp/work.o" "$tmp/start.o" -L"$libdir" -lamon -Wl,-rpath,"$libdir" \
      >"$tmp/build.log" 2>&1 \
    || { fail "building $name ($flags): $(head -c 300 "$tmp/build.log")"; return; }
  amon_arcs_both "$name" 1 "$want"
}

check recommended "$cflags"
[ -n "$portable" ] && [ "$portable" != "$cflags" ] && check portable "$portable"

finish
