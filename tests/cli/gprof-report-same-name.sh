#!/bin/sh
# Two functions of one name in a gprof report (static functions of two
# files, printed without their files; a C++ class's deleting and complete
# destructors, both "X::~X()") each keep their own flat profile row.  The
# flat profile lists them by self time, but the call graph may name the
# light one first (main calls it, and main's entry comes before the heavy
# one's), and the rows were taken in that order: the light "work" (20000
# calls) read with the heavy one's 0.11 s, heavy_driver's total 0.02 s
# where gprof printed 0.11 (tinyxml2 9.0's report: main 0.31 s, gprof
# 0.30, ~XMLUnknown()'s 10 ms on its 780-call twin).  Oracle: gprof -b's
# own call-graph entries, made here from a program built with -pg.
. "${top_srcdir:-.}/tests/cli/common.sh"
CC=${CC:-cc}
command -v gprof >/dev/null 2>&1 || skip "no gprof"
cat >"$tmp/a.c" <<'SRC'
long heavy_driver (long n);
volatile long sink;
static long work (long n) { volatile long s = 0; for (long i = 0; i < n; i++) s += i; return s; }
int main (void)
{
  volatile long s = 0;
  for (long i = 0; i < 100000000; i++)
    s += i;
  for (int i = 0; i < 20000; i++)
    s += work (2000);
  sink = s + heavy_driver (400);
  return 0;
}
SRC
cat >"$tmp/b.c" <<'SRC'
static long work (long n) { volatile long s = 0; for (long i = 0; i < n * 1000000; i++) s += i; return s; }
long heavy_driver (long n) { long s = 0; for (int i = 0; i < 4; i++) s += work (n / 4); return s; }
SRC
(cd "$tmp" && $CC -O1 -fno-inline -pg a.c b.c -o ab && ./ab) >/dev/null 2>&1 || skip "cannot build or run a -pg program"
(cd "$tmp" && gprof -b ab gmon.out) >"$tmp/report.txt" 2>/dev/null || fail "gprof -b"

# the case: the light work is named (in main's entry) before the heavy
# one's entry, and the flat profile lists the heavy one first
heavy=$(awk '/^\[[0-9]+\]/ && $5 == 4 && $6 == "work" { print $1 }' "$tmp/report.txt")
light=$(awk '/^\[[0-9]+\]/ && $5 == 20000 && $6 == "work" { print $1 }' "$tmp/report.txt")
first=$(grep -n -F "work $light" "$tmp/report.txt" | head -1 | cut -d: -f1)
entry=$(grep -n -F "$heavy" "$tmp/report.txt" | grep -F "work $heavy" | head -1 | cut -d: -f1)
[ -n "$heavy" ] && [ -n "$light" ] && [ "$first" -lt "$entry" ] \
  || echo "note: this report names the heavy work first; the case is not shown"

# gprof's entries: self seconds of each work, and heavy_driver's total
want_heavy=$(awk -v i="$heavy" '$1 == i { print $3 }' "$tmp/report.txt")
want_light=$(awk -v i="$light" '$1 == i { print $3 }' "$tmp/report.txt")
want_driver=$(awk '/^\[[0-9]+\]/ && $NF ~ /^\[/ && $(NF-1) == "heavy_driver" { printf "%.2f", $3 + $4 }' "$tmp/report.txt")
expect 0 "$cgcost" --format=tsv "$tmp/report.txt" || fail "cgcost --format=tsv"
got_heavy=$(awk -F '\t' '$1 ~ /^work / && $2 == 4 { printf "%.2f", $3 }' "$tmp/out")
got_light=$(awk -F '\t' '$1 ~ /^work / && $2 == 20000 { printf "%.2f", $3 }' "$tmp/out")
got_driver=$(awk -F '\t' '$1 == "heavy_driver" { printf "%.2f", $4 }' "$tmp/out")
[ "$got_heavy" = "$want_heavy" ] || fail "the work of 4 calls: self $got_heavy s, gprof's entry $want_heavy"
[ "$got_light" = "$want_light" ] || fail "the work of 20000 calls: self $got_light s, gprof's entry $want_light"
[ "$got_driver" = "$want_driver" ] || fail "heavy_driver: total $got_driver s, gprof's entry $want_driver"

# and the report printed again is gprof's, but for its percentages: the
# reader has the seconds as printed, to 0.01 s, and a percentage that
# gprof took from the unrounded time can print 0.1 apart from one taken
# from them (6.3 against 6.2 in one run of this test)
expect 0 "$cgcost" --format=gprof -b "$tmp/report.txt" || fail "cgcost --format=gprof"
no_percent () {
  awk '/^Flat profile/ { flat = 1 } /Call graph/ { flat = 0 }
    flat && $1 ~ /^[0-9]+\.[0-9]+$/ { sub(/[0-9]+\.[0-9]+/, "%") }
    /^\[[0-9]+\]/ { sub(/ [0-9]+\.[0-9]+ /, " % ") } { print }' "$1"
}
no_percent "$tmp/report.txt" >"$tmp/want.np"
no_percent "$tmp/out" >"$tmp/got.np"
cmp -s "$tmp/want.np" "$tmp/got.np" || fail "printed again differently: $(diff "$tmp/want.np" "$tmp/got.np" | head -5)"
finish
