#!/bin/sh
# perf's inlined frames share their caller's address: a helper gcc
# inlines into a function it calls back (tree -> step (inlined) -> tree
# ...), with a second helper inlined into the first, counts once per
# sample however often it is on the stack, under its own name, and is
# not merged into the function it was inlined into.  Built with -O2 -g
# and recorded here with perf record --call-graph dwarf; oracles: perf
# report --children --inline on the same perf.data (its shares, to two
# decimals), and a brute-force count over perf script --inline's text
# (each sample's period once for each distinct name on its stack).
# Skipped (77) where perf is missing or cannot record so.
. "${top_srcdir:-.}/tests/cli/common.sh"

command -v perf >/dev/null 2>&1 || skip "perf is not installed (Debian: linux-perf)"
cat >"$tmp/rec.c" <<'C'
#include <stdlib.h>
static volatile unsigned long sink;
static unsigned long tree (int depth, long n);
static inline unsigned long
mix (unsigned long h, long i)
{
  for (int k = 0; k < 6; k++)
    h = h * 31 + (unsigned long) (i ^ k);
  return h;
}
static inline unsigned long
step (int depth, long n)
{
  unsigned long h = 0;
  for (long i = 0; i < n; i++)
    h = mix (h, i);
  if (depth > 0)
    h += tree (depth - 1, n) + tree (depth - 2, n / 2);
  return h;
}
__attribute__ ((noinline)) static unsigned long
tree (int depth, long n)
{
  if (depth < 0)
    return 1;
  sink++;
  return step (depth, n) + 1;
}
int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 200000;
  for (int r = 0; r < 8; r++)
    sink += tree (9, n);
  return 0;
}
C
${CC:-cc} -O2 -g -o "$tmp/rec" "$tmp/rec.c" || fail "cannot build rec.c"
perf record -q --call-graph dwarf -e cpu-clock -o "$tmp/rec.data" "$tmp/rec" >"$tmp/err" 2>&1 \
  && perf script -i "$tmp/rec.data" >/dev/null 2>&1 \
  || skip "perf record --call-graph dwarf cannot record here: $(head -c 300 "$tmp/err")"
perf script -i "$tmp/rec.data" --inline -F comm,tid,period,event,ip,sym,dso >"$tmp/rec.txt" 2>/dev/null
grep -q '^	 *[0-9a-f]* step (inlined)$' "$tmp/rec.txt" || skip "gcc inlined no step here"
# the set-up holds what it is meant to: a sample with step inlined under
# tree twice or more (the recursion through the inlined helper)
awk '/^$/ { if (n >= 2) deep++; n = 0 } / step \(inlined\)$/ { n++ } END { exit !(deep > 0) }' "$tmp/rec.txt" \
  || fail "test set-up: no sample recursed through step"

# brute force over the text: each sample's period once for every name
awk '/^[^\t]/ { for (i = 1; i <= NF; i++) if ($i ~ /:$/ && $(i - 1) ~ /^[0-9]+$/) p = $(i - 1); next }
  /^$/ { for (f in seen) total[f] += p; delete seen; next }
  { f = $2; sub (/\+0x[0-9a-f]+$/, "", f); seen[f] = 1 }
  END { for (f in seen) total[f] += p
        for (f in total) if (f == "tree" || f == "step" || f == "mix" || f == "main") print f "\t" total[f] }' \
  "$tmp/rec.txt" | sort >"$tmp/brute"
[ "$(wc -l <"$tmp/brute")" = 4 ] || fail "test set-up: the brute force: $(cat "$tmp/brute")"
for input in "$tmp/rec.txt" "$tmp/rec.data"; do
  expect 0 "$cgcost" --format=tsv "$input" || { fail "cgcost $input"; continue; }
  awk -F '\t' 'NR == FNR { want[$1] = $2; next } ($1 in want) { if ($4 != want[$1]) print $1 ": ours " $4 ", brute force " want[$1]; n++ }
    END { if (n != 4) print "compared " n " of 4" }' "$tmp/brute" "$tmp/out" >"$tmp/diff"
  [ ! -s "$tmp/diff" ] || fail "$(basename "$input") against the brute force: $(cat "$tmp/diff")"
  cp "$tmp/out" "$tmp/ours.tsv"
done

# perf report --children --inline: one entry per name here (tree, and
# step and mix inlined), each sample counted once in each
perf report -i "$tmp/rec.data" --children --inline --stdio -g none --percent-limit 0 2>/dev/null \
  | awk '/^ +[0-9.]+%/ && $5 == "[.]" && ($6 == "tree" || $6 == "step" || $6 == "mix" || $6 == "main") {
           sub (/%/, "", $1); print $6, $1 }' >"$tmp/oracle"
[ "$(wc -l <"$tmp/oracle")" = 4 ] || fail "test set-up: perf report's entries: $(cat "$tmp/oracle")"
awk -F '\t' 'NR == FNR { split ($0, a, " "); want[a[1]] = a[2]; next }
  FNR == 1 { next } { total[$1] = $4; all += $3 }
  END { for (f in want) { p = 100 * total[f] / all; d = p - want[f]
          if (d > 0.0101 || d < -0.0101) printf "%s %.3f%%, perf report %s%%; ", f, p, want[f] } }' \
  "$tmp/oracle" "$tmp/ours.tsv" >"$tmp/diff"
[ ! -s "$tmp/diff" ] || fail "against perf report --children --inline: $(cat "$tmp/diff")"
finish
