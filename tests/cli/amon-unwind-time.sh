#!/bin/sh
# libamon's -pg mode and the time an exception takes to unwind.  A
# routine with a cleanup (a local with a destructor) that an exception
# passes runs it and goes on unwinding by _Unwind_Resume, from its own
# frame: perf(1) charges what the unwinder takes from there to that
# routine, the nearest frame of the program, and the sampling clock did
# too.  The default clock charged it all to the routine that threw, whose
# frame stayed on top until the catch: fmt 9.1's tests gave its
# throw_format_error 83% and vformat, whose cleanup resumed, 0.1%, where
# perf gives the bare program 72% and 11%.
#
# The program's structure is the oracle: thrower is called by mid, which
# has a cleanup and is called through 30 frames of up without any, which
# the unwinder walks after mid's cleanup (perf on the bare program: mid
# 43%, thrower 56%).  With each clock, mid's own time must be at least a
# third of thrower's (before: 0.001 s for 0.766 s).
. "${top_srcdir:-.}/tests/cli/common.sh"
amon_setup
case $cflags in *-pg*) ;; *) skip "the -pg mode is x86-64 only" ;; esac
cxx=
for c in ${CXX:-} g++ clang++; do
  command -v "$c" >/dev/null 2>&1 && { cxx=$c; break; }
done
[ -n "$cxx" ] || skip "no C++ compiler"

cat >"$tmp/unw.cc" <<'EOF2'
#include <cstdio>
#include <stdexcept>
#include <string>
__attribute__ ((noinline)) void thrower (int i) { if (i >= 0) throw std::runtime_error ("no"); }
/* a cleanup: the unwinding goes on from here by _Unwind_Resume */
__attribute__ ((noinline)) int
mid (int i)
{
  std::string s (40, 'x');
  thrower (i);
  return (int) s.size ();
}
/* frames without cleanups, which the unwinder walks after mid's */
__attribute__ ((noinline)) int
up (int n, int i)
{
  int r = n ? up (n - 1, i) : mid (i);
  __asm__ volatile ("" : "+r" (r));
  return r;
}
int
main ()
{
  long caught = 0;
  for (int i = 0; i < 50000; i++)
    try
      {
        up (30, i);
      }
    catch (const std::exception &)
      {
        caught++;
      }
  std::printf ("%ld\n", caught);
}
EOF2
# clang has no -minstrument-return: the portable flags
case $cxx in *clang*) flags=$portable ;; *) flags=$cflags ;; esac
$cxx -O2 $flags -o "$tmp/unw" "$tmp/unw.cc" -L"$libdir" -lamon -Wl,-rpath,"$libdir" >"$tmp/build.log" 2>&1 \
  || { cat "$tmp/build.log"; fail "building unw"; finish; }

for clock in cpu sample; do
  rm -f "$tmp/amon.out"
  (cd "$tmp" && AMON_CLOCK=$clock ./unw >"$tmp/out" 2>"$tmp/err") || { fail "AMON_CLOCK=$clock: unw exited $?: $(cat "$tmp/err")"; continue; }
  [ "$(cat "$tmp/out")" = 50000 ] || fail "AMON_CLOCK=$clock: unw printed '$(cat "$tmp/out")'"
  "$cgcost" --format=tsv "$tmp/amon.out" >"$tmp/tsv" 2>"$tmp/err" || { fail "cgcost: $(cat "$tmp/err")"; continue; }
  awk -F '\t' '$1 == "_Z7throweri" { t = $3 } $1 == "_Z3midi" { m = $3 }
    END { if (!(t > 0) || m < t / 3) { printf "mid %s s of its own, thrower %s s\n", m, t; exit 1 } }' "$tmp/tsv" >"$tmp/why" \
    || fail "AMON_CLOCK=$clock: the unwinding after mid's cleanup is not mid's: $(cat "$tmp/why")"
done
finish
