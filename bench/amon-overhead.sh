#!/bin/bash
# amon-overhead.sh — libamon's overhead against gcc -pg, in the form of
# Spivey's Tables I and II (make bench; not part of make check).
#
# Builds bench/programs/calls.c (a recursive-descent parser, a Huffman
# compressor, a B-tree database; all call-heavy) five ways: bare -O2; -pg
# (gprof); -finstrument-functions with libamon, run with AMON_CLOCK=cpu (the
# default) and AMON_CLOCK=sample; -finstrument-functions with empty hooks
# (the cost of calling the hooks at all).  Each run's CPU time (user +
# system) is the best of REPS runs (default 3).  Prints, per program, the
# sizes and statistics of Table I (functions called, calls, contexts,
# transitions, history depth, profiling memory, amon.out and gmon.out
# sizes, and the share of calls step B1 resolved) and the times of Table II.
#
# Environment: top_srcdir, top_builddir (default: this script's tree and
# the working directory), CC (cc), REPS (3).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$here/..}
top_builddir=${top_builddir:-.}
CC=${CC:-cc}
REPS=${REPS:-3}
lib=$top_builddir/src/amon/.libs/libamon.a
[ -f "$lib" ] || { echo "amon-overhead: build libamon first (make)" >&2; exit 1; }
out=$top_builddir/bench/out
mkdir -p "$out"
src=$top_srcdir/bench/programs
$CC -O2 -o "$out/bare" "$src/calls.c"
$CC -O2 -pg -o "$out/gprof" "$src/calls.c"
$CC -O2 -finstrument-functions -o "$out/amon" "$src/calls.c" "$lib" -pthread
$CC -O2 -finstrument-functions -o "$out/dummy" "$src/calls.c" "$src/dummy.c"

# cpu SECONDS of the best of REPS runs of COMMAND...
best () {
  local b="" t
  for _ in $(seq "$REPS"); do
    t=$( { TIMEFORMAT='%3U %3S'; time "$@" >/dev/null 2>&1; } 2>&1 | awk '{ print $1 + $2 }')
    if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t; fi
  done
  echo "$b"
}

# u32 / u64 FILE OFFSET
u32 () { od -A n -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }
u64 () { od -A n -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }

# section FILE TAG — offset of the payload of section TAG
section () {
  local pos tag len
  pos=$(u32 "$1" 12)
  while :; do
    tag=$(u32 "$1" "$pos")
    len=$(u64 "$1" $((pos + 8)))
    [ "$tag" = "$2" ] && { echo $((pos + 16)); return; }
    [ "$tag" = 0 ] && return 1
    pos=$((pos + 16 + len))
  done
}

pct () { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.0f%%", 100 * (a - b) / b }'; }

printf 'Table I. Data sizes\n\n'
printf '%-7s %9s %6s %10s %8s %8s %6s %4s %10s %10s %10s %7s\n' \
  program text funcs calls states trans depth max memory amon.out gmon.out B1
table2=""
for p in parse huff btree; do
  bare=$(best "$out/bare" $p)
  (cd "$out" && rm -f gmon.out && ./gprof $p >/dev/null)
  gmon=$(stat -c %s "$out/gmon.out")
  gprof=$(best sh -c "cd '$out' && ./gprof $p")
  amon=$(best env AMON_OUT="$out/amon.out" "$out/amon" $p)
  sample=$(best env AMON_CLOCK=sample AMON_OUT="$out/amon-sample.out" "$out/amon" $p)
  dummy=$(best "$out/dummy" $p)
  f=$out/amon.out
  t=$(section "$f" 4)
  r=$(section "$f" 2)
  calls=$(u64 "$f" $((t + 8)))
  rec=$(u64 "$f" $((t + 16)))
  states=$(u64 "$f" $((t + 48)))
  trans=$(u64 "$f" $((t + 56)))
  b2=$(u64 "$f" $((t + 64)))
  maxh=$(u64 "$f" $((t + 72)))
  sumh=$(u64 "$f" $((t + 80)))
  mem=$(u64 "$f" $((t + 112)))
  text=$(size -A "$out/bare" | awk '$1 == ".text" { print $2 }')
  printf '%-7s %9s %6s %10s %8s %8s %6.2f %4s %9.2fM %10s %10s %6.3f%%\n' \
    $p "$text" "$(u32 "$f" "$r")" $((calls + rec)) "$states" "$trans" \
    "$(awk -v s="$sumh" -v n="$states" 'BEGIN { print n ? s / n : 0 }')" "$maxh" \
    "$(awk -v m="$mem" 'BEGIN { print m / 1048576 }')" "$(stat -c %s "$f")" "$gmon" \
    "$(awk -v c="$calls" -v r="$rec" -v s="$states" -v b="$b2" 'BEGIN { print 100 * (1 - (s + b) / (c + r)) }')"
  table2="$table2$(printf '%-7s %7ss %8ss %6s %8ss %6s %8ss %6s %8ss %6s' $p "$bare" \
    "$amon" "$(pct "$amon" "$bare")" "$sample" "$(pct "$sample" "$bare")" \
    "$gprof" "$(pct "$gprof" "$bare")" "$dummy" "$(pct "$dummy" "$bare")")
"
done
printf '\nTable II. CPU times (user + system, best of %s runs)\n\n' "$REPS"
printf '%-7s %8s %15s %15s %15s %15s\n' program bare "amon (cpu)" "amon (sample)" gprof dummy
printf '%s' "$table2"
printf '\nB1: calls that needed no new transition (direct recursion or an existing one), of\nall calls (Spivey: 99.9%%).\n'
