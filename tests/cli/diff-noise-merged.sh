#!/bin/sh
# A profile whose functions are merged after reading keeps its samples,
# what a difference's noise is reckoned from: perf record --call-graph
# dwarf's inlined frames, which the perf reader merges into their
# functions, and cgcycles --collapse, which merges each cycle, lost them
# (cg_merge_functions and cg_collapse_cycles copied the events without
# their samples), so cgcost --base of two perf.data of zstd -T4 (1,975
# and 937 samples, --call-graph dwarf) printed no "Sampled:" line and no
# "?" on changes of one or two samples, as it does under perf record -g.
# Checks: two folded profiles with a cycle, collapsed, keep their 60 and
# 72 samples in the XML and in the diff; two perf.data of a program with
# an inlined function, recorded with --call-graph dwarf at test time, say
# the samples perf script counts (skipped where perf cannot record).
. "${top_srcdir:-.}/tests/cli/common.sh"

# ---- cgcycles --collapse ----
printf 'main;a;b;a;leaf 30\nmain;a;b 20\nmain;c 10\n' >"$tmp/base.folded"
printf 'main;a;b;a;leaf 40\nmain;a;b 20\nmain;c 12\n' >"$tmp/new.folded"
for p in base new; do
  expect 0 "$cgcycles" --collapse "$tmp/$p.folded" && cp "$tmp/out" "$tmp/$p.xml"
done
grep -qF '&lt;cycle 1&gt;' "$tmp/base.xml" || fail "collapse: no cycle in $(cat "$tmp/base.xml")"
grep -q '<event name="samples" [^>]*samples="60"' "$tmp/base.xml" \
  || fail "collapse: the samples lost: $(grep '<event ' "$tmp/base.xml")"
expect 0 "$cgcost" --base="$tmp/base.xml" --format=text "$tmp/new.xml"
grep -qx 'Sampled: 60 samples in the base, 72 in the new profile.' "$tmp/out" \
  || fail "collapse: the diff says no samples: $(sed -n 1,6p "$tmp/out")"

# ---- perf record --call-graph dwarf ----
# without what it needs, the part is skipped, not the checks above
skip_part () {
  echo "SKIP part: $*"
  finish
}
command -v perf >/dev/null 2>&1 || skip_part "no perf"
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || skip_part "no C compiler"
cat >"$tmp/inl.c" <<'CEOF'
#include <stdio.h>
#include <stdlib.h>
volatile unsigned long sink;
static inline __attribute__ ((always_inline)) unsigned long
mix (unsigned long x)
{
  x ^= x >> 13;
  x *= 0x9e3779b97f4a7c15UL;
  return x ^ (x >> 29);
}
__attribute__ ((noinline)) unsigned long
hot (long n)
{
  unsigned long s = 0;
  for (long i = 0; i < n; i++)
    s += mix ((unsigned long) i + sink);
  return s;
}
int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 1000000;
  printf ("%d\n", hot (40 * n) != 0);
  return 0;
}
CEOF
$CC -O2 -g -o "$tmp/inl" "$tmp/inl.c" >"$tmp/build.log" 2>&1 || skip_part "cannot build: $(head -c 200 "$tmp/build.log")"
for n in 500000 1000000; do
  perf record -q --call-graph dwarf -e cpu-clock -o "$tmp/p$n.data" "$tmp/inl" $n >/dev/null 2>&1 \
    || skip_part "perf cannot record here"
done
count () { perf script -i "$1" -F event 2>/dev/null | grep -c 'cpu-clock'; }
# perf printed inlined frames, which the reader merges
perf script -i "$tmp/p500000.data" 2>/dev/null | grep -q '(inlined)' || skip_part "perf printed no inlined frame"
expect 0 "$cgmerge" "$tmp/p500000.data"
grep -q "<event name=\"cpu-clock\" [^>]*samples=\"$(count "$tmp/p500000.data")\"" "$tmp/out" \
  || fail "dwarf: the samples lost: $(grep '<event ' "$tmp/out")"
expect 0 "$cgcost" --base="$tmp/p500000.data" --format=text "$tmp/p1000000.data"
said=$(sed -n 's/^Sampled: \([0-9,]*\) samples in the base, \([0-9,]*\) in.*/\1 \2/p' "$tmp/out" | tr -d ,)
[ "$said" = "$(count "$tmp/p500000.data") $(count "$tmp/p1000000.data")" ] \
  || fail "dwarf: the samples said, '$said', against perf script's $(count "$tmp/p500000.data") $(count "$tmp/p1000000.data")"

finish
