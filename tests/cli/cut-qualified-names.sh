#!/bin/sh
# Text views cut a qualified name without a parameter list (as --strip
# shows C++ names) as they cut one with a list, by what stands before its
# own name first, then its ABI tags, then the own name's end: cgtree
# --strip at 80 columns on ninja 1.11's callgrind profile read
# "Edge…11] > Edge…ing [1]" for Edge::EvaluateCommand[abi:cxx11] and
# Edge::GetBinding, "std:…end" for std::__cxx11::basic_string::_M_append,
# the middle of the whole name cut, the function's own name lost.  A C++
# program of two members of interpreter::Machine (one returns a
# std::string, so its name carries [abi:cxx11]) is profiled by callgrind at
# test time; at every fourth width from 40 to 120 columns the two
# functions' lines in cgtree --strip and cgcost --strip --format=text
# show the start of their own names, whole or after a mark or "::", and
# cgtree's without --strip never a piece of the ABI tag (it read
# "…EvaluateCommandLine[abi:cxx1…" at 80 columns).
. "${top_srcdir:-.}/tests/cli/common.sh"

command -v valgrind >/dev/null 2>&1 || skip "no valgrind"
CXX=${CXX:-c++}
command -v "$CXX" >/dev/null 2>&1 || skip "no C++ compiler"
cat >"$tmp/q.cc" <<'CEOF'
#include <cstdio>
#include <string>
namespace interpreter {
struct Machine {
  __attribute__ ((noinline)) std::string EvaluateCommandLine (int n);
  __attribute__ ((noinline)) long AccumulateRegisterFile (int n);
};
volatile unsigned long sink;
long Machine::AccumulateRegisterFile (int n)
{
  long s = 0;
  for (int i = 0; i < n; i++)
    s += (long) (sink += (unsigned long) i);
  return s;
}
std::string Machine::EvaluateCommandLine (int n)
{
  long s = AccumulateRegisterFile (n);
  return std::string (s & 1 ? "odd" : "even");
}
}
int main ()
{
  interpreter::Machine m;
  size_t len = 0;
  for (int i = 0; i < 200; i++)
    len += m.EvaluateCommandLine (5000 + i).size ();
  std::printf ("%zu\n", len);
  return 0;
}
CEOF
$CXX -O2 -o "$tmp/q" "$tmp/q.cc" >"$tmp/build.log" 2>&1 || skip "cannot build: $(head -c 200 "$tmp/build.log")"
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$tmp/q" >/dev/null 2>"$tmp/vg.log" \
  || skip "valgrind failed: $(tail -c 200 "$tmp/vg.log")"
expect 0 "$cgtree" --strip -b "$tmp/cg.out"
grep -qF 'interpreter::Machine::EvaluateCommandLine[abi:cxx11]' "$tmp/out" \
  || skip "the compiler's names differ: $(cat "$tmp/out")"

# check WHAT SHOWN OWN — SHOWN (a name as a view shows it) holds the
# start of the own name OWN, at its start or after a mark or "::"
check () {
  start=$(printf '%s' "$3" | cut -c1-4)
  case $2 in
    "$start"* | *…"$start"* | *::"$start"*) ;;
    *) fail "$1: $3 shown as '$2', without the start of its own name" ;;
  esac
}

for w in $(seq 40 4 120); do
  LC_ALL=C.UTF-8 expect 0 "$cgtree" --strip -b --width="$w" "$tmp/cg.out" || continue
  evaluate=$(grep -F 'main > ' "$tmp/out" | head -1 | sed 's/.*main > //')
  accumulate=$(grep -A1 -F 'main > ' "$tmp/out" | sed -n '2s/.*`-//p')
  check "cgtree --width=$w" "$evaluate" EvaluateCommandLine
  check "cgtree --width=$w" "$accumulate" AccumulateRegisterFile
  # without --strip, where the own name does not fit whole, its ABI tag
  # goes first, never cut ("…EvaluateCommandLine[abi:cxx1…" at 80)
  LC_ALL=C.UTF-8 expect 0 "$cgtree" -b --width="$w" "$tmp/cg.out" || continue
  evaluate=$(grep -F 'main > ' "$tmp/out" | head -1 | sed 's/.*main > //')
  check "cgtree --width=$w, not stripped" "$evaluate" EvaluateCommandLine
  case $evaluate in
    *"[abi:cxx11]"*) ;;
    *"["*) fail "cgtree --width=$w, not stripped: the ABI tag cut: '$evaluate'" ;;
  esac
  LC_ALL=C.UTF-8 expect 0 "$cgcost" --strip --format=text --width="$w" "$tmp/cg.out" || continue
  awk '/^Flat profile/ { f = 1; next } f && /^$/ && n++ > 0 { exit } f && $5 == 200 { print $6 }' "$tmp/out" >"$tmp/flat"
  [ "$(wc -l <"$tmp/flat")" -eq 2 ] || { fail "cgcost --width=$w: not two rows of 200 calls: $(cat "$tmp/out")"; continue; }
  check "cgcost --width=$w" "$(grep -v Accu "$tmp/flat" | grep -v 'Regi' | head -1)" EvaluateCommandLine
  check "cgcost --width=$w" "$(grep -E 'Accu|Regi' "$tmp/flat" | head -1)" AccumulateRegisterFile
done

finish
