#!/bin/sh
# perf-noreturn.sh's program in C++: a caller's frame is named by its
# call (the return address less 1) in perf script's own text too, where
# perf demangles C++ names ("nr::victim" for _ZN2nr6victimEm) and the
# name check, which compared the object's linker names with perf's,
# never matched: main -> victim -> fail -> die -> burn, fail ending with
# its call to die and victim starting right after it, read from perf
# script's text (perf record -g) as victim calling die (the arc victim >
# die 143.5 ms of 196, 73 %), fail's other calls under a function [nr]
# and main calling [nr], where perf.data (read with --no-demangle) gave
# the program's structure.  Now the object's names are demangled as perf
# demangles them (no parameter list) and the caller named so, and in
# perf script --no-demangle's text by its linker name.  Oracle: the
# program's structure.  Without perf: text at the program's addresses.
. "${top_srcdir:-.}/tests/cli/common.sh"

cxx=${CXX:-c++}
cat >"$tmp/nr.cpp" <<'EOC'
#include <cstdlib>
volatile unsigned long sink;
namespace nr {
/* at -O0, so that it keeps its frame pointer: its caller is on its stacks */
__attribute__ ((noinline, optimize ("O0"))) void burn (unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }
[[noreturn]] __attribute__ ((noinline)) void die (unsigned long n) { burn (n); std::exit (0); }
__attribute__ ((noinline)) void fail (unsigned long n) { burn (n / 8); die (n); }
__attribute__ ((noinline)) void victim (unsigned long n) { burn (n / 4); fail (n); }
}
int main (int argc, char **argv) { nr::victim (argc > 1 ? std::strtoul (argv[1], 0, 10) : 1000); return 0; }
EOC
$cxx -O2 -g -fno-omit-frame-pointer -falign-functions=1 -o "$tmp/nr" "$tmp/nr.cpp" >"$tmp/cc.log" 2>&1 \
  || skip "cannot build the test program: $(head -c 300 "$tmp/cc.log")"
# fail's return address from die is victim's first byte
nm -S "$tmp/nr" | awk '$4 == "_ZN2nr4failEm" { e = sprintf ("%d", "0x" $1) + sprintf ("%d", "0x" $2) }
                      $4 == "_ZN2nr6victimEm" { v = sprintf ("%d", "0x" $1) }
                      END { exit !(e && e == v) }' \
  || skip "the compiler did not put victim right after fail: $(nm -nS "$tmp/nr" | grep -E 'nr[0-9]')"

# perf script's text at the program's addresses, without perf: the
# return address at victim's first byte is fail's call, under perf's
# default names and under --no-demangle's
addr () { nm "$tmp/nr" | awk -v f="$1" '$3 == f { print $1 }' | sed 's/^0*//'; }
victim=$(addr _ZN2nr6victimEm) die=$(addr _ZN2nr3dieEm) main=$(addr main)
frame () { printf '\t%16s %s (%s)\n' "$1" "$2" "$3"; }
for names in plain linker; do
  if [ $names = plain ]; then d=nr::die v=nr::victim; else d=_ZN2nr3dieEm v=_ZN2nr6victimEm; fi
  {
    printf 'nr 1/1     250000 cpu-clock: \n'
    frame "$die" "$d+0x4" "$tmp/nr"
    frame "$victim" "$v+0x0" "$tmp/nr"
    frame "$main" 'main+0x1e' "$tmp/nr"
    printf '\n'
  } >"$tmp/text.perf"
  expect 0 "$cgcost" --format=tsv --arcs --split=none "$tmp/text.perf" || fail "cgcost text.perf ($names)"
  if [ $names = plain ]; then
    printf 'caller\tcallee\tcalls\tinclusive\nmain\tnr::fail\t0\t250000\nnr::fail\tnr::die\t0\t250000\n' >"$tmp/want"
  else
    printf 'caller\tcallee\tcalls\tinclusive\n_ZN2nr4failEm\t_ZN2nr3dieEm\t0\t250000\nmain\t_ZN2nr4failEm\t0\t250000\n' >"$tmp/want"
  fi
  cmp -s "$tmp/want" "$tmp/out" || fail "text.perf's arcs ($names names): $(cat "$tmp/out")"
done

command -v perf >/dev/null 2>&1 || skip "perf is not installed (Debian: linux-perf)"
perf record -q -e cpu-clock -g -o "$tmp/probe.data" true >"$tmp/err" 2>&1 \
  && perf script -i "$tmp/probe.data" >/dev/null 2>&1 || skip "perf record cannot record here: $(head -c 300 "$tmp/err")"
perf record -q -e cpu-clock -g -o "$tmp/fp.data" "$tmp/nr" 120000000 >"$tmp/err" 2>&1 \
  || fail "perf record -g: $(head -c 300 "$tmp/err")"

perf script -i "$tmp/fp.data" >"$tmp/fp.txt" 2>/dev/null || fail "perf script"
noreturn_check "$tmp/fp.txt" "perf script, frame pointers" nr::
finish
