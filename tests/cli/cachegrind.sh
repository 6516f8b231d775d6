#!/bin/sh
# valgrind --tool=cachegrind's file, which cgmerge reads as the callgrind
# format it shares: made at test time from a program whose function work
# has a header's inline function in it (built -O2 -g), which cachegrind
# writes under the header's fl= with work's name.  Oracle: cg_annotate's
# rows (file:function) summed by function: one function work with all of
# its cost; cachegrind records no calls, so every total is the self
# cost, and a warning and the views' notes say so.  Skipped (77)
# without valgrind.
. "${top_srcdir:-.}/tests/cli/common.sh"

command -v valgrind >/dev/null 2>&1 && command -v cg_annotate >/dev/null 2>&1 || skip "valgrind is not installed"
cat >"$tmp/mix.h" <<'C'
static inline unsigned long
mix (unsigned long h, long i)
{
  for (int k = 0; k < 8; k++)
    h = h * 31 + (unsigned long) (i ^ k);
  return h;
}
C
cat >"$tmp/main.c" <<'C'
#include <stdlib.h>
#include "mix.h"
static volatile unsigned long sink;
__attribute__ ((noinline)) void
work (long n)
{
  unsigned long h = 0;
  for (long i = 0; i < n; i++)
    h = mix (h, i);
  sink += h;
}
int
main (int argc, char **argv)
{
  work (argc > 1 ? atol (argv[1]) : 100000);
  return 0;
}
C
${CC:-cc} -O2 -g -o "$tmp/prog" "$tmp/main.c" || fail "cannot build the program"
valgrind --tool=cachegrind --cachegrind-out-file="$tmp/cachegrind.out" "$tmp/prog" >"$tmp/log" 2>&1 \
  || skip "valgrind --tool=cachegrind cannot run here: $(tail -3 "$tmp/log")"
[ "$(grep -c '^fn=work$' "$tmp/cachegrind.out")" -ge 2 ] \
  || echo "note: cachegrind wrote work under one file only: $(grep -B1 '^fn=work$' "$tmp/cachegrind.out" | head -4)"

# cg_annotate's Ir by function, its files summed
cg_annotate --show=Ir --auto=no --threshold=0 "$tmp/cachegrind.out" 2>/dev/null \
  | awk '/^ *[0-9,]+ +\( *[0-9.]+%\) +[^ ]/ && !/PROGRAM TOTALS/ {
           v = $1; gsub (/,/, "", v); f = $0; sub (/^ *[0-9,]+ +\( *[0-9.]+%\) +/, "", f)
           f = substr (f, index (f, ":") + 1); ir[f] += v }
         END { for (f in ir) printf "%s\t%.0f\n", f, ir[f] }' | sort >"$tmp/want"
[ "$(wc -l <"$tmp/want")" -ge 5 ] || fail "test set-up: cg_annotate listed $(wc -l <"$tmp/want") functions"
# cg_annotate's own output is no profile: refused, and named
cg_annotate "$tmp/cachegrind.out" >"$tmp/annotated.txt" 2>/dev/null
expect 1 "$cgcost" "$tmp/annotated.txt" \
  && expect_message "annotated.txt:1: callgrind_annotate's or cg_annotate's output, which cgtools does not read"
expect 0 "$cgcost" --format=tsv "$tmp/cachegrind.out" || fail "cgcost on cachegrind's file"
expect_message "a cachegrind profile, which records no calls: every total is the function's own cost"
awk -F '\t' 'NR == FNR { want[$1] = $2; next }
  FNR > 1 && / \[/ { print "  a function in two: " $1; bad++ }
  FNR > 1 && $3 != $4 { print "  " $1 ": total " $4 " is not its self cost " $3; bad++ }
  FNR > 1 && ($1 in want) { n++; if ($3 != want[$1]) { print "  " $1 ": self " $3 ", cg_annotate " want[$1]; bad++ } }
  END { exit bad > 0 || n < 5 }' "$tmp/want" "$tmp/out" >"$tmp/cmp" \
  || fail "against cg_annotate: $(head -5 "$tmp/cmp")"
grep -q "^work	" "$tmp/want" || fail "test set-up: cg_annotate has no work"
# the views for people say so beside their method's line, which says
# so too, where it said that every total was exact (measured by callgrind)
note="cachegrind records no calls (valgrind --tool=callgrind records them): callers are not known, and each function's total is its own cost only."
method="(no calls recorded: each function's total is its own cost only)"
for view in "$cgcost --format=text" "$cgtree" "$cgmerge --format=text" "$cgtree --format=dot" "$cgtree --format=html" \
  "$cgcost --format=text --base=$tmp/cachegrind.out"; do
  # shellcheck disable=SC2086
  expect 0 $view "$tmp/cachegrind.out" || continue
  case $view in
    *merge* | *dot | *html) ;;
    *) notes "$tmp/out" | grep -F -q -- "$note" || fail "$view: no note that cachegrind records no calls: $(head -c 600 "$tmp/out")" ;;
  esac
  grep -o 'Method: [^<"]*' "$tmp/out" | grep exact && fail "$view: its method's line calls the totals exact"
  case $view in
    *merge*) ;;
    *base* | *html) grep -F -q "no calls recorded: each function" "$tmp/out" \
      || fail "$view: its method's line does not say that no call was recorded: $(grep Method "$tmp/out")" ;;
    *) grep -F -q -- "$method" "$tmp/out" \
      || fail "$view: its method's line does not say that no call was recorded: $(grep Method "$tmp/out" | head -c 300)" ;;
  esac
done
finish
