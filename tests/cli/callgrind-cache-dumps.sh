#!/bin/sh
# callgrind --cache-sim=yes with --dump-every-bb (as callgrind_control
# --dump makes them), the dumps summed: once the cache is warm, a part
# has no miss at all, and no calls= line of it carries one.  The warning
# meant for --cacheuse's events, which callgrind writes on no calls= line
# ("no calls= line carries any cost of I1mr ... so their totals count no
# callee's cost"), was given for such a part when an earlier file had
# misses in the functions its calls entered, though nothing was missing.
# Oracle: one run without dumps, whose totals in every event the parts
# sum to (the cache simulation runs on across a dump); no warning.
# Skipped (77) without valgrind.
. "${top_srcdir:-.}/tests/cli/common.sh"
[ -n "${VALGRIND:-}" ] && [ -x "$VALGRIND" ] || skip "valgrind is not installed"
cat >"$tmp/warm.c" <<'C'
static volatile unsigned long sink;
static unsigned long table[64];
__attribute__ ((noipa)) void
work (int n)
{
  for (int r = 0; r < n; r++)
    for (int i = 0; i < 64; i++)
      sink += table[i] += (unsigned long) r;
}
int
main (void)
{
  for (int k = 0; k < 40; k++)
    work (2000);
  return 0;
}
C
${CC:-cc} -O1 -g -o "$tmp/warm" "$tmp/warm.c" || skip "cannot compile the test program"
(cd "$tmp" && "$VALGRIND" --tool=callgrind --cache-sim=yes --dump-every-bb=2000000 \
   --callgrind-out-file="$tmp/parts.out" ./warm >/dev/null 2>&1) || fail "valgrind --dump-every-bb"
(cd "$tmp" && "$VALGRIND" --tool=callgrind --cache-sim=yes --callgrind-out-file="$tmp/one.out" ./warm >/dev/null 2>&1) \
  || fail "valgrind"
# set-up: a part without misses, after one with misses in a function a
# call entered (work's first instructions)
ls "$tmp"/parts.out.* >/dev/null 2>&1 || fail "test set-up: --dump-every-bb wrote no intermediate dumps"
awk '/^summary:/ { if (NF <= 4 || ($5 == 0 && $8 == 0)) warm = 1; else cold = 1 } END { exit !(warm && cold) }' \
  "$tmp"/parts.out* || fail "test set-up: no part without cache misses beside one with them"

for event in Ir I1mr D1mr DLmr; do
  "$cgcost" --format=tsv --event=$event "$tmp/one.out" >"$tmp/one.tsv" 2>"$tmp/one.err" || fail "cgcost one.out"
  expect 0 "$cgcost" --format=tsv --event=$event "$tmp"/parts.out* || continue
  cmp -s "$tmp/one.tsv" "$tmp/out" || fail "$event: the parts' sum differs from the run's: $(diff "$tmp/one.tsv" "$tmp/out" | head -4)"
  grep -q "carries any cost" "$tmp/err" && fail "$event: a part without misses said to leave out its calls' costs: $(head -c 400 "$tmp/err")"
done
finish
