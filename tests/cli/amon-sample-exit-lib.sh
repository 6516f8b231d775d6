#!/bin/sh
# libamon's sampling clock (AMON_CLOCK=sample) in the -pg mode and the
# static destructors of a shared C++ library at exit.  The program's own
# run from the C library's exit handlers; the library's from the dynamic
# linker's _dl_fini, through the library's __do_global_dtors_aux (the C
# runtime's start-up code, which has no CFI) and __cxa_finalize.  The
# program's last destructor had returned, its return address still in
# its slot; the walk up from the library's destructor's call stopped at
# __do_global_dtors_aux, and the library's destructors were taken for
# that destructor's callees (pugixml 1.13's test program: its static
# empty node set's; here Runner>Holder:2).  A routine that no FDE covers
# is now taken to keep a frame pointer, as crtstuff's routines do.  The
# oracle is the program's structure: main calls libfn once, each of the
# two Runners' destructors calls note once, each of the two Holders'
# calls release once, and nothing calls a destructor (they are roots).
. "${top_srcdir:-.}/tests/cli/common.sh"
case $(uname -m) in x86_64) ;; *) skip "the -pg mode's sampling walk is for x86-64" ;; esac
amon_setup
cxx=
for c in ${CXX:-} g++ clang++; do
  command -v "$c" >/dev/null 2>&1 && { cxx=$c; break; }
done
[ -n "$cxx" ] || skip "no C++ compiler"

cat >"$tmp/lib.cc" <<'EOF'
volatile long lib_sink;
extern "C" __attribute__ ((noinline)) void release (long n) { lib_sink += n; }
struct Holder { long n; Holder (long v) : n (v) {} ~Holder (); };
Holder::~Holder () { release (n); lib_sink++; }
Holder h1 (1), h2 (2);
extern "C" __attribute__ ((noinline)) long libfn (void) { return h1.n + h2.n; }
EOF
cat >"$tmp/prog.cc" <<'EOF'
#include <cstdio>
extern "C" long libfn (void);
volatile long sink;
extern "C" __attribute__ ((noinline)) void note (const char *s) { sink += s[0]; }
struct Runner { const char *name; Runner (const char *n) : name (n) {} ~Runner (); };
Runner::~Runner () { note (name); sink++; }
Runner r1 ("a"), r2 ("b");
int main () { std::printf ("%ld\n", libfn ()); return 0; }
EOF

want="Holder>release:2 Runner>note:2 main>libfn:1 "
# check NAME FLAGS — builds the library and the program with FLAGS, runs
# the program with each clock
check () {
  name=$1 flags=$2
  amon_build_with_lib "$cxx" "$name" "$flags" "$tmp/lib.cc" "$tmp/prog.cc" || return
  # a destructor by its class's name (its mangled names are two)
  amon_arcs_both "$name" 3 "$want" 'return s ~ /Holder/ ? "Holder" : s ~ /Runner/ ? "Runner" : s'
}

check recommended "$cflags"
[ -n "$portable" ] && [ "$portable" != "$cflags" ] && check portable "$portable"

finish
