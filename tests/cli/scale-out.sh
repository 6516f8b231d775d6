#!/bin/sh
# Scale-out: merging is associative and commutative.  100 profiles merged
# as a tree of merges (in parallel, with xargs -P) give the same document
# as one flat merge, byte for byte, as long as the leaves keep their
# order; in any order, the same numbers.
. "${top_srcdir:-.}/tests/cli/common.sh"
recdemo="$data/callgrind/recdemo/callgrind.out.recdemo"
sqlite="$data/callgrind/sqlite3-cte/callgrind.out.sqlite3-cte"

# 100 different profiles: the bundled ones with every cost multiplied by i
i=1
while [ $i -le 100 ]; do
  src=$recdemo
  [ $((i % 3)) -eq 0 ] && src=$sqlite
  awk -v k=$i '
    /^[0-9+*-]/ { for (f = 2; f <= NF; f++) $f = sprintf ("%.0f", $f * k); print; next }
    /^totals:/ || /^summary:/ { for (f = 2; f <= NF; f++) $f = sprintf ("%.0f", $f * k); print; next }
    { print }' "$src" >"$tmp/p$(printf %03d $i).cg"
  i=$((i + 1))
done
ls "$tmp"/p*.cg >"$tmp/list"
expect 0 "$cgmerge" $(cat "$tmp/list") && cp "$tmp/out" "$tmp/flat.xml"
validate "$tmp/flat.xml"

# a tree: groups of 10 in parallel, then the 10 partial sums, in order
mkdir "$tmp/level1"
split -l 10 -d "$tmp/list" "$tmp/group."
ls "$tmp"/group.* | xargs -P 4 -I{} sh -c '"$0" $(cat "$1") >"$1.xml"' "$cgmerge" {} || fail "the parallel merges failed"
expect 0 "$cgmerge" $(ls "$tmp"/group.*.xml) && cp "$tmp/out" "$tmp/tree.xml"
cmp -s "$tmp/flat.xml" "$tmp/tree.xml" || fail "a tree of merges differs from the flat merge"
# another shape: pairs, then pairs of pairs ... (a binary tree)
cp "$tmp/list" "$tmp/level"
n=0
while [ "$(wc -l <"$tmp/level")" -gt 1 ]; do
  n=$((n + 1))
  : >"$tmp/next"
  paste -d ' ' - - <"$tmp/level" | while read -r a b; do
    out="$tmp/b$n.$(basename "$a").xml"
    "$cgmerge" $a $b >"$out" || echo "fail" >"$tmp/failed"
    echo "$out" >>"$tmp/next"
  done
  mv "$tmp/next" "$tmp/level"
done
[ ! -e "$tmp/failed" ] || fail "a pairwise merge failed"
cmp -s "$tmp/flat.xml" "$(cat "$tmp/level")" || fail "a binary tree of merges differs from the flat merge"

# any order: the same numbers
expect 0 "$cgmerge" $(sort -r "$tmp/list") && cp "$tmp/out" "$tmp/reversed.xml"
"$cgcost" --format=tsv "$tmp/flat.xml" >"$tmp/flat.tsv"
"$cgcost" --format=tsv "$tmp/reversed.xml" >"$tmp/reversed.tsv"
cmp -s "$tmp/flat.tsv" "$tmp/reversed.tsv" || fail "merging in another order changed the totals"
"$cgcost" --format=tsv --arcs "$tmp/flat.xml" >"$tmp/flat-arcs.tsv"
"$cgcost" --format=tsv --arcs "$tmp/reversed.xml" >"$tmp/reversed-arcs.tsv"
cmp -s "$tmp/flat-arcs.tsv" "$tmp/reversed-arcs.tsv" || fail "merging in another order changed the arcs"
# and the sum is right: main's total is sum over i of i times its total
want=$(awk 'BEGIN { s = 0; for (i = 1; i <= 100; i++) if (i % 3 != 0) s += i; printf "%.0f", s * 12124468 }')
got=$(total_of "$tmp/flat.tsv" main)
[ "$got" = "$want" ] || fail "main's merged total is $got, expected $want"
finish
