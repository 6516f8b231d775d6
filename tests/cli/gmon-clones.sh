#!/bin/sh
# gcc -O2 makes clones of static functions (IPA-SRA's NAME.isra.0,
# NAME.constprop.0.isra.0, partial inlining's NAME.part.0, NAME.cold)
# that gprof does not count as functions (formats/gmon.md, "Symbols"): it
# charges their samples and calls to the symbol before them in memory.
# In data/programs/clones.c gcc clones spin(), where all the time goes,
# as spin.constprop.0.isra.0 (or another dotted name; the test finds it
# with nm and skips without one), and gprof shows 100 % in crt's
# frame_dummy.
# Oracles: GNU gprof (cgtools' gprof-format output must stay its byte for
# byte by default) and the program's loop counts (outer() runs 50 times,
# leaf() 4 times each: 200 calls of the clone, and no other function
# works).  By default a warning names the clone and the share of samples
# it holds; --symbols=all makes the clone a function with the time and
# the 200 calls; --symbols=gprof keeps gprof's choice without a warning;
# the option is a usage error for inputs it cannot apply to.  A cold
# part (NAME.cold) is NAME's with all symbols, as the perf reader counts
# it, where gprof's choice charged check's calls of report to report.
. "${top_srcdir:-.}/tests/cli/common.sh"
GPROF=$(command -v gprof) || skip "no gprof"
command -v nm >/dev/null 2>&1 || skip "no nm"
${CC:-cc} -O2 -pg -o "$tmp/clones" "$data/programs/clones.c" 2>"$tmp/build.log" || skip "cannot build with -pg: $(head -c 200 "$tmp/build.log")"
clone=$(nm "$tmp/clones" | awk '$3 ~ /^spin\./ { print $3; exit }')
[ -n "$clone" ] || skip "gcc did not clone spin() (nm: $(nm "$tmp/clones" | grep spin))"
(cd "$tmp" && ./clones) || fail "the program failed"
[ -f "$tmp/gmon.out" ] || fail "no gmon.out"

# gprof's choice, the default: gprof's report byte for byte, and a warning
"$GPROF" -b "$tmp/clones" "$tmp/gmon.out" >"$tmp/want" 2>/dev/null || fail "gprof failed"
grep -q "$clone" "$tmp/want" && skip "this gprof counts $clone as a function"
expect 0 "$cgmerge" --executable="$tmp/clones" "$tmp/gmon.out"
mv "$tmp/out" "$tmp/gprof.xml"
expect_message "warning: $tmp/gmon.out: "
expect_message "does not count as functions, gcc's clones and split parts ($clone)"
awk -v f="$tmp/err" 'match($0, /: [0-9.]+% of the samples/) {
    split(substr($0, RSTART + 2), w, "%"); exit !(w[1] >= 90) }
  END { if (NR == 0) exit 1 }' "$tmp/err" || fail "the warning does not give the clone 90 % of the samples: $(cat "$tmp/err")"
expect 0 "$cgcost" --format=gprof "$tmp/gprof.xml"
cmp -s "$tmp/want" "$tmp/out" || fail "cgcost --format=gprof differs from gprof -b: $(diff "$tmp/want" "$tmp/out" | head -6)"

# many runs' files (a program's forked children, GMON_OUT_PREFIX) draw the
# warning once, whole, and one line for the rest: it was printed for each
mkdir "$tmp/runs"
(cd "$tmp/runs" && ../clones && mv gmon.out run1.out && ../clones && mv gmon.out run2.out && ../clones \
  && mv gmon.out run3.out) || fail "the program failed"
expect 0 "$cgcost" --executable="$tmp/clones" --format=tsv "$tmp/runs/run1.out" "$tmp/runs/run2.out" "$tmp/runs/run3.out"
[ "$(grep -c "does not count as functions" "$tmp/err")" = 1 ] || fail "three runs: not one warning whole: $(cat "$tmp/err")"
expect_message "warning: $tmp/runs/run1.out: "
expect_message "warning: 2 more inputs (the last: $tmp/runs/run3.out) drew the warning \"$tmp/runs/run1.out: "
[ "$(wc -l <"$tmp/err")" = 2 ] || fail "three runs: not two lines of warning: $(cat "$tmp/err")"
# the same runs in a tar archive: its members are inputs so
if command -v tar >/dev/null 2>&1; then
  mv "$tmp/out" "$tmp/runs.tsv"
  (cd "$tmp/runs" && tar -cf ../runs.tar run1.out run2.out run3.out) || fail "tar"
  expect 0 "$cgcost" --executable="$tmp/clones" --format=tsv "$tmp/runs.tar"
  cmp -s "$tmp/runs.tsv" "$tmp/out" || fail "the runs' archive: $(diff "$tmp/runs.tsv" "$tmp/out" | head -5)"
  expect_message "warning: $tmp/runs.tar(run1.out): "
  expect_message "warning: 2 more inputs (the last: $tmp/runs.tar(run3.out)) drew the warning \"$tmp/runs.tar(run1.out): "
  [ "$(wc -l <"$tmp/err")" = 2 ] || fail "the runs' archive: not two lines of warning: $(cat "$tmp/err")"
fi

# all symbols: the clone is a function, with the time and the 200 calls
expect 0 "$cgcost" --symbols=all --executable="$tmp/clones" --format=tsv "$tmp/gmon.out"
[ -s "$tmp/err" ] && fail "--symbols=all warns: $(head -c 300 "$tmp/err")"
awk -F '\t' -v c="$clone" '$1 == c { calls = $2; self = $3 } NR > 1 { all += $3 } END {
    printf "%s: %s calls, self %s of %s s\n", c, calls, self, all
    exit !(calls == 200 && all > 0 && self >= 0.9 * all) }' "$tmp/out" \
  || fail "--symbols=all does not give $clone 200 calls and 90 % of the time: $(head -5 "$tmp/out")"
awk -F '\t' '$1 == "frame_dummy" && $3 > 0 { exit 1 }' "$tmp/out" \
  || fail "--symbols=all still charges frame_dummy: $(grep frame_dummy "$tmp/out")"

# gprof's choice asked for: no warning
expect 0 "$cgcost" --symbols=gprof --executable="$tmp/clones" --format=gprof "$tmp/gmon.out"
[ -s "$tmp/err" ] && fail "--symbols=gprof warns: $(head -c 300 "$tmp/err")"
cmp -s "$tmp/want" "$tmp/out" || fail "--symbols=gprof differs from gprof -b"

# a cold part (check.cold: hot/cold splitting) lies after report() in
# memory, so gprof's choice charges check's 10,000 calls of report to
# report itself, a recursion the program does not have; with all
# symbols the part is check's, as the perf reader counts it
cat >"$tmp/cold.c" <<'CEOF'
#include <stdlib.h>
volatile unsigned long sink;
__attribute__ ((noinline, cold)) void
report (long i)
{
  for (long k = 0; k < 20000; k++)
    sink += (unsigned long) (k ^ i);
}
__attribute__ ((noinline)) void
check (long i)
{
  if (__builtin_expect (i % 3 == 0, 0))
    {
      report (i);
      if (sink == 1)
        abort ();
    }
  for (int k = 0; k < 100; k++)
    sink += (unsigned long) k;
}
int
main (void)
{
  for (long i = 0; i < 30000; i++)
    check (i);
  return 0;
}
CEOF
mkdir "$tmp/cold"
if ${CC:-cc} -O2 -pg -o "$tmp/cold/cold" "$tmp/cold.c" 2>/dev/null && nm "$tmp/cold/cold" | grep -q ' check\.cold'; then
  (cd "$tmp/cold" && ./cold) || fail "the cold program failed"
  expect 0 "$cgcost" --executable="$tmp/cold/cold" --format=tsv --arcs "$tmp/cold/gmon.out"
  expect_message "(check.cold)"
  # the cold part runs 10000 times in a run of a few ms: on a slow or
  # loaded machine one of its few samples may fall there (1 of 6 in a
  # CI-like run of the sanitizer build), which the warning then counts
  grep -E -q ": (none|[0-9.]+%) of the samples and 10000 of the 40000 calls lie in" "$tmp/err" \
    || fail "the warning does not count check.cold's 10000 calls: $(head -c 400 "$tmp/err")"
  expect 0 "$cgcost" --symbols=all --executable="$tmp/cold/cold" --format=tsv --arcs "$tmp/cold/gmon.out"
  awk -F '\t' '{ calls[$1 ">" $2] = $3 } END { exit !(calls["check>report"] == 10000 && calls["main>check"] == 30000 \
      && !("report>report" in calls) && !("check.cold>report" in calls)) }' "$tmp/out" \
    || fail "--symbols=all: check.cold is not check's: $(cat "$tmp/out")"
  expect 0 "$cgcost" --symbols=all --executable="$tmp/cold/cold" --format=tsv "$tmp/cold/gmon.out"
  grep -q '^check\.cold' "$tmp/out" && fail "--symbols=all lists check.cold apart: $(cat "$tmp/out")"
else
  echo "gcc made no check.cold: the cold part's case is not checked"
fi

# usage errors: a bad choice, and an input the option cannot apply to
expect 2 "$cgcost" --symbols=some --executable="$tmp/clones" "$tmp/gmon.out"
expect_message "--symbols"
printf 'main;f 3\n' >"$tmp/stacks.folded"
expect 2 "$cgcost" --symbols=all "$tmp/stacks.folded"
expect_message "--symbols"
expect 2 "$cgcost" --symbols=all "$tmp/gprof.xml"
expect_message "give the option to the cgmerge that reads the gmon.out"
finish
