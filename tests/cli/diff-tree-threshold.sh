#!/bin/sh
# cgtree --base keeps a line whose change reaches the threshold, however
# small the line is now: the threshold hid lines by the new profile's
# cost alone, so the largest change of a comparison could be hidden. xz
# 5.4.1 under libamon, 4 threads against 1, showed worker_start "new" at
# 21.82 s and no line for main, which carried 18.35 s in the base and
# 0.08 s now (-18.27 s, 83% of the total; cgcost --base lists it). The
# oracle is a join of the two profiles' Min_E totals by awk over the
# folded stacks, as in diff.sh, and cgcost --base's tsv.
. "${top_srcdir:-.}/tests/cli/common.sh"

printf 'main;work;a 900\nmain;work;b 100\nmain;work;c 3\nmain 10\n' >"$tmp/base.folded"
printf 'main;work;a 5\nmain;work;b 995\nmain;work;c 2\nmain 10\n' >"$tmp/new.folded"

# the oracle: a's total 900 -> 5, b's 100 -> 995, c's 3 -> 2, of 1,012 now
want_a=$(awk '$1 ~ /;a$/ { s += $2 } END { print s }' "$tmp/new.folded")
base_a=$(awk '$1 ~ /;a$/ { s += $2 } END { print s }' "$tmp/base.folded")
expect 0 "$cgcost" --base="$tmp/base.folded" --format=tsv "$tmp/new.folded" || finish
[ "$(awk -F '\t' '$1 == "a" { print $4 }' "$tmp/out")" = $((want_a - base_a)) ] \
  || fail "cgcost --base: a's change is not $((want_a - base_a)): $(cat "$tmp/out")"

# lines NAME CHANGE from the tree's table (the function column last; the
# change without its mark of sampling noise, which diff-noise.sh checks)
lines () {
  sed -n '/^  incl%/,$p' "$tmp/out" | sed 1d | awk '{ f = $NF; sub (/^[|`-]+/, "", f); c = $4; sub (/\?$/, "", c); print f, c }'
}
expect 0 "$cgtree" --base="$tmp/base.folded" "$tmp/new.folded" || finish
lines >"$tmp/lines"
grep -q "^a $((want_a - base_a))\$" "$tmp/lines" \
  || fail "a's line (0.49% now, $((want_a - base_a)) since the base) is not shown: $(cat "$tmp/lines")"
grep -q '^b +895$' "$tmp/lines" || fail "b's line: $(cat "$tmp/lines")"
# c is under 1% and changed by under 1%: hidden as before
grep -q '^c ' "$tmp/lines" && fail "c (0.2%, changed by 0.1%) is shown: $(cat "$tmp/lines")"
tr '\n' ' ' <"$tmp/out" | grep -q 'Lines below 1% are hidden unless they changed by 1% or more' \
  || fail "the header does not say so: $(grep 'hidden' "$tmp/out")"
# a lower threshold shows c too, with its change
expect 0 "$cgtree" --threshold=0.05 --base="$tmp/base.folded" "$tmp/new.folded" && lines >"$tmp/lines" \
  && grep -q '^c -1$' "$tmp/lines" || fail "--threshold=0.05: c's line: $(cat "$tmp/lines")"
# without a base the threshold is the cost's alone
expect 0 "$cgtree" "$tmp/new.folded" && sed -n '/^  incl%/,$p' "$tmp/out" | grep -q ' a$' \
  && fail "without --base, a (0.49%) is shown: $(cat "$tmp/out")"
# the page holds every line (its slider hides them): a's too, with its change
expect 0 "$cgtree" --format=html --base="$tmp/base.folded" "$tmp/new.folded" && grep -q '"names":\[[^]]*"a"' "$tmp/out" \
  || fail "the page lacks a's line"
finish
