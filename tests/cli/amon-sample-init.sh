#!/bin/sh
# libamon's sampling clock (AMON_CLOCK=sample) in the -pg mode and
# constructors: a shared library's, which the dynamic linker calls, and
# the program's, which the C library calls before main.  The library's
# runs first, so it is the initial thread's first call, and the dynamic
# linker calls it from deeper on the stack than __libc_start_main calls
# the program's constructor and main.  The monitor read a frame's slot
# only under its thread's first call: the program's constructor, which
# had returned, was never found so (its slot and the walk up from main's
# call both lay above that first call), and main showed as called by it.
# pugixml 1.13's test program (the library shared, as Debian builds it)
# showed main, and its 894 static destructors, under its last
# constructor.  The oracle is the program's structure: lib_init calls
# lib_work once, prog_init calls work once, main calls work 200 times,
# and main and the constructors are roots (no arc leads to them).
. "${top_srcdir:-.}/tests/cli/common.sh"
case $(uname -m) in x86_64) ;; *) skip "the -pg mode's sampling walk is for x86-64" ;; esac
amon_setup

cat >"$tmp/lib.c" <<'EOF'
volatile unsigned long lib_sink;
__attribute__ ((noinline)) unsigned long lib_work (long n)
{
  for (long i = 0; i < n; i++)
    lib_sink += (unsigned long) i;
  return lib_sink;
}
__attribute__ ((constructor)) void lib_init (void) { lib_sink = lib_work (1000) + 1; }
EOF
cat >"$tmp/prog.c" <<'EOF'
#include <stdio.h>
extern volatile unsigned long lib_sink;
volatile unsigned long sink;
__attribute__ ((noinline)) unsigned long work (long n)
{
  for (long i = 0; i < n; i++)
    sink += (unsigned long) i;
  return sink;
}
__attribute__ ((constructor)) void prog_init (void) { sink = work (1000) + 1; }
int main (void)
{
  for (int i = 0; i < 200; i++)
    sink = work (200000) + 1;
  printf ("%d\n", lib_sink != 0 && sink != 0);
  return 0;
}
EOF

want="lib_init>lib_work:1 main>work:200 prog_init>work:1 "
# check NAME FLAGS — builds the library and the program with FLAGS, runs
# the program with each clock
check () {
  name=$1 flags=$2
  amon_build_with_lib "$CC" "$name" "$flags" "$tmp/lib.c" "$tmp/prog.c" || return
  amon_arcs_both "$name" 1 "$want"
}

check recommended "$cflags"
[ -n "$portable" ] && [ "$portable" != "$cflags" ] && check portable "$portable"

finish
