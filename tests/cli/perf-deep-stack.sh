#!/bin/sh
# A perf.data whose call chains are longer than perf script prints by
# default (--max-stack, the machine's kernel.perf_event_max_stack: 127):
# cgmerge's own perf script prints them whole.  Oracle: the program's
# structure: main calls deep, which recurses 300 deep and calls spin at
# the bottom, so every sample in spin has main on its stack, and main's
# total is at least spin's.  Cut at 127 frames, main had none of it (GNU
# make's $(call) recursion, recorded with --call-graph dwarf,65528).
# Skipped (77) without cc or perf, or where perf cannot record here.
. "${top_srcdir:-.}/tests/cli/common.sh"
command -v cc >/dev/null 2>&1 && command -v perf >/dev/null 2>&1 || skip "cc or perf missing"
cat >"$tmp/deep.c" <<'C'
#include <stdlib.h>
volatile double sink;
static double __attribute__ ((noinline)) spin (int n)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (double) i / (i + 3);
  return s;
}
static double __attribute__ ((noinline)) deep (int d, int n)
{
  if (d == 0)
    return spin (n);
  double r = deep (d - 1, n);
  sink = r;
  return r + 1;
}
int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 3000;
  for (int k = 0; k < n; k++)
    sink = deep (300, 20000);
  return 0;
}
C
cc -O1 -g -fno-omit-frame-pointer -o "$tmp/deep" "$tmp/deep.c" || skip "cc failed"
perf record -q --call-graph dwarf,65528 -e cpu-clock -F 1000 -o "$tmp/deep.data" "$tmp/deep" >"$tmp/err" 2>&1 \
  || skip "perf record cannot record here: $(head -c 200 "$tmp/err")"
# the recording must hold chains longer than 127 frames for the test to
# mean anything (perf prints them with a larger --max-stack)
perf script --max-stack=65535 -i "$tmp/deep.data" -F ip 2>/dev/null \
  | awk '/^[^\t]/ { if (n > m) m = n; n = 0; next } /^\t/ { n++ } END { if (n > m) m = n; exit m > 200 ? 0 : 1 }' \
  || skip "perf unwound no chain longer than 200 frames here"
expect 0 "$cgcost" --format=tsv "$tmp/deep.data" || fail "cgcost deep.data"
spin=$(awk -F '\t' '$1 == "spin" { print $4 }' "$tmp/out")
main=$(awk -F '\t' '$1 == "main" { print $4 }' "$tmp/out")
[ -n "$spin" ] && [ "$spin" -gt 0 ] || fail "no samples in spin: $(head -5 "$tmp/out")"
[ -n "$main" ] && [ "$main" -ge "$spin" ] \
  || fail "main's total ${main:-none} is below spin's $spin: chains cut at perf script's default --max-stack"
finish
