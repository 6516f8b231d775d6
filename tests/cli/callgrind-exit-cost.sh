#!/bin/sh
# callgrind with --cache-sim=yes or --collect-systime counts the last
# block the program ran (the exit_group system call's, in _Exit) into
# the calls' inclusive costs and its summary: line, and writes it on no
# cost line: the program's root measured more than the self costs, and
# every such profile was said to overlap ("measured totals of Ir exceed
# the profile's total", "not exact").  The reader charges it to the leaf
# whose calls carried it.  Oracles: callgrind_annotate's PROGRAM TOTALS
# (the summary) and its inclusive costs; the file's totals: line.
. "${top_srcdir:-.}/tests/cli/common.sh"
[ -n "${VALGRIND:-}" ] && [ -x "$VALGRIND" ] || skip "valgrind is not installed"
annotate=${CALLGRIND_ANNOTATE:-}
[ -n "$annotate" ] && [ -x "$annotate" ] || skip "callgrind_annotate is not installed"
cat >"$tmp/exitcost.c" <<'EOF'
#include <stdio.h>
static volatile unsigned long sink;
static void __attribute__ ((noinline)) leaf (unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }
static void __attribute__ ((noinline)) work (void) { leaf (200000); leaf (100000); }
int main (void) { work (); printf ("%lu\n", sink); return 0; }
EOF
${CC:-cc} -O1 -g -o "$tmp/exitcost" "$tmp/exitcost.c" || skip "cannot compile the test program"

# annotated NAME FILE EVENT INCLUSIVE: callgrind_annotate's cost of NAME
# (PROGRAM TOTALS, or a function's row), as a plain number
annotated () {
  "$annotate" --show="$3" --sort="$3" --inclusive="$4" --threshold=100 --auto=no "$2" 2>/dev/null \
    | awk -v f="$1" '{ line = $0; sub (/^ *[0-9,]+ \([ 0-9.]+%\) +/, "", line) }
      line == f || line ~ ("[:]" f " \\[") { v = $1; gsub (/,/, "", v); print (v == "." ? 0 : v); exit }'
}

for opts in "--cache-sim=yes:Ir" "--collect-systime=nsec:sysCount"; do
  opt=${opts%%:*}
  event=${opts#*:}
  out="$tmp/callgrind.$event"
  (cd "$tmp" && "$VALGRIND" --tool=callgrind $opt --callgrind-out-file="$out" ./exitcost >/dev/null 2>&1) \
    || fail "valgrind $opt"
  index=$(awk '/^events:/ { for (i = 2; i <= NF; i++) if ($i == "'"$event"'") print i - 1; exit }' "$out")
  summary=$(awk -v i="$index" '/^summary:/ { print $(i + 1); exit }' "$out")
  totals=$(awk -v i="$index" '/^totals:/ { print $(i + 1); exit }' "$out")
  program=$(annotated "PROGRAM TOTALS" "$out" "$event" yes)
  [ -n "$program" ] && [ "$program" = "$summary" ] || fail "test set-up ($opt): callgrind_annotate's total '$program', summary '$summary'"
  # what this test is about: callgrind left some of its summary on no line
  [ -n "$totals" ] && [ "$totals" -lt "$summary" ] || { echo "SKIP part $opt: summary $summary, totals $totals"; continue; }

  expect 0 "$cgcost" --event="$event" --format=tsv "$out"
  grep -q 'exceed' "$tmp/err" && fail "$opt: $(cat "$tmp/err")"
  awk -F '\t' 'NR > 1 { s += $3 } END { printf "%.0f\n", s }' "$tmp/out" >"$tmp/selfsum"
  [ "$(cat "$tmp/selfsum")" = "$program" ] || fail "$opt: the self costs sum to $(cat "$tmp/selfsum"), callgrind_annotate's total is $program"
  # the root's total and main's are callgrind_annotate's inclusive costs
  root=$(awk -F '\t' 'NR == 2 { print $1 }' "$tmp/out")
  [ "$(awk -F '\t' 'NR == 2 { print $4 }' "$tmp/out")" = "$program" ] || fail "$opt: the root $root's total is not $program"
  for f in main work leaf; do
    want=$(annotated "$f" "$out" "$event" yes)
    got=$(total_of "$tmp/out" "$f")
    [ "$got" = "$want" ] || fail "$opt: $f's total $got, callgrind_annotate's $want"
  done
  [ "$(total_of "$tmp/out" leaf)" -gt 0 ] || [ "$event" != Ir ] || fail "$opt: leaf has no cost"
  expect 0 "$cgcost" --event="$event" --format=text "$out"
  grep -q 'overlap\|exceed' "$tmp/out" "$tmp/err" && fail "$opt: the text view says the costs overlap"
  grep -q 'every total is exact' "$tmp/out" || fail "$opt: the method is not exact: $(grep Method "$tmp/out")"
done
finish
