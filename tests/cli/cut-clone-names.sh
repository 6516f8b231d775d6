#!/bin/sh
# Text views cut a compiler's clone suffixes (.part.0, .constprop.0,
# .isra.0, .cold) before the name they follow, as they cut a library's
# symbol version: cgtree at 80 columns on GNU m4 1.4.19 under libamon
# read "add_…t.0" and "mult…t.0" for add_term.part.0 and
# mult_term.part.0, the suffix's digits kept and the function lost.
# A program whose hot function gcc -O2 clones
# (accumulate_weighted_squares.constprop.0) is profiled by callgrind at
# test time; at every width from 40 to 120 columns, cgtree's and cgcost's
# line of the clone shows its name whole, or the name and the mark
# ("accumulate_weighted_squares…"), or, narrower, the name cut alone, never
# a piece of the suffix.
. "${top_srcdir:-.}/tests/cli/common.sh"

command -v valgrind >/dev/null 2>&1 || skip "no valgrind"
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || skip "no C compiler"
cat >"$tmp/clone.c" <<'CEOF'
#include <stdio.h>
volatile unsigned long sink;
/* static, not inlined, always called with k = 3: gcc -O2 makes
 * accumulate_weighted_squares.constprop.0 */
static __attribute__ ((noinline)) long
accumulate_weighted_squares (long n, int k)
{
  long s = 0;
  for (long i = 0; i < n; i++)
    s += (long) (sink += (unsigned long) (i * i * k));
  return s;
}
__attribute__ ((noinline)) long
drive (long n)
{
  return accumulate_weighted_squares (n, 3) + accumulate_weighted_squares (n / 2, 3);
}
int
main (void)
{
  long s = 0;
  for (int i = 0; i < 20; i++)
    s += drive (5000);
  printf ("%d\n", s != 0);
  return 0;
}
CEOF
$CC -O2 -o "$tmp/clone" "$tmp/clone.c" >"$tmp/build.log" 2>&1 || skip "cannot build: $(head -c 200 "$tmp/build.log")"
clone=$(nm "$tmp/clone" 2>/dev/null | awk '$3 ~ /^accumulate_weighted_squares\./ { print $3 }')
[ -n "$clone" ] || skip "the compiler made no clone of accumulate_weighted_squares"
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$tmp/clone" >/dev/null 2>"$tmp/vg.log" \
  || skip "valgrind failed: $(tail -c 200 "$tmp/vg.log")"

# check WHAT FILE — the clone's line names it whole, as "NAME…", or by a
# cut of NAME alone (its start, the mark, its end); "marked" counts the
# second
name=accumulate_weighted_squares
marked=0
check () {
  line=$(grep -E '[0-9]+  (`-)?acc' "$2" | head -1)
  [ -n "$line" ] || { fail "$1: no line of the clone: $(cat "$2")"; return; }
  shown=${line##* }
  shown=${shown#\`-}
  case $shown in
    "$clone") return ;;
    "$name…") marked=$((marked + 1)); return ;;
  esac
  head=${shown%%…*} tail=${shown##*…}
  case $shown in
    *…*) case $name in "$head"*"$tail") return ;; esac ;;
  esac
  fail "$1: the clone shown as '$shown', not as $clone, $name… or a cut of $name"
}

for w in $(seq 40 4 120); do
  LC_ALL=C.UTF-8 expect 0 "$cgtree" -b --width="$w" "$tmp/cg.out" && check "cgtree --width=$w" "$tmp/out"
  LC_ALL=C.UTF-8 expect 0 "$cgcost" --format=text --width="$w" "$tmp/cg.out" && check "cgcost --width=$w" "$tmp/out"
done
[ "$marked" -gt 0 ] || fail "no width showed the clone as 'accumulate_weighted_squares…'"
# without a width the name is whole
expect 0 "$cgtree" -b "$tmp/cg.out"
grep -qF -- "$clone" "$tmp/out" || fail "no width: the clone's whole name is missing: $(cat "$tmp/out")"

finish
