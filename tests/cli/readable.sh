#!/bin/sh
# Views people read: -b/--brief on every view, numbers in readable units,
# names that fit (--strip, --width).  Oracles: the full views (brief is
# them less their explanation), the profiles' stored values, and the
# widths of the lines themselves.
. "${top_srcdir:-.}/tests/cli/common.sh"
recdemo="$data/callgrind/recdemo/callgrind.out.recdemo"
amon="$data/amon/mutual/amon.out.mutual"

# ---- -b/--brief: the table alone ----
# cgtree text: exactly the full view from its column titles on
for args in "" "--inverted" "--threshold=0"; do
  expect 0 "$cgtree" $args "$recdemo" && sed -n '/^  incl%/,$p' "$tmp/out" >"$tmp/want"
  expect 0 "$cgtree" -b $args "$recdemo" && cmp -s "$tmp/out" "$tmp/want" \
    || fail "cgtree -b $args is not the full view's table: $(diff "$tmp/want" "$tmp/out" | head -4)"
done
expect 0 "$cgtree" --brief "$recdemo" && head -1 "$tmp/out" | grep -q '^  incl%' || fail "cgtree --brief: $(head -1 "$tmp/out")"
# cgmerge text: the table of functions from its titles on
expect 0 "$cgmerge" --format=text "$recdemo" && sed -n '/^  %self/,$p' "$tmp/out" >"$tmp/want"
expect 0 "$cgmerge" -b --format=text "$recdemo" && cmp -s "$tmp/out" "$tmp/want" || fail "cgmerge -b: $(head -2 "$tmp/out")"
# cgcost text: both tables, their short titles, no header lines
expect 0 "$cgcost" --format=text "$recdemo" && grep -v -e '^Profile:' -e '^Event:' -e '^Method:' -e '^Flat profile' \
  -e '^Call graph' -e '^those lines' -e '^$' "$tmp/out" >"$tmp/want"
expect 0 "$cgcost" -b --format=text "$recdemo" && [ "$(head -1 "$tmp/out")" = "Flat profile:" ] \
  || fail "cgcost -b: first line $(head -1 "$tmp/out")"
grep -q '^Call graph:$' "$tmp/out" || fail "cgcost -b: no call graph title"
grep -v -e '^Flat profile:$' -e '^Call graph:$' -e '^$' "$tmp/out" | cmp -s - "$tmp/want" || fail "cgcost -b: not the full report's tables"
# cgcycles text: the cycles without the explanation of what a cycle is
expect 0 "$cgcycles" -b --format=text "$recdemo" && [ "$(head -1 "$tmp/out")" = "2 cycles" ] \
  || fail "cgcycles -b: $(head -1 "$tmp/out")"
expect 0 "$cgcycles" --format=text "$recdemo" && sed 1d "$tmp/out" >"$tmp/want"
expect 0 "$cgcycles" -b --format=text "$recdemo" && sed 1d "$tmp/out" | cmp -s - "$tmp/want" || fail "cgcycles -b changes the cycles"
# dot: no label; html: no explanation of the lines or the keys
expect 0 "$cgtree" -b --format=dot "$recdemo" && grep -q 'label="cgtree:' "$tmp/out" && fail "cgtree -b --format=dot has the label"
expect 0 "$cgtree" --format=dot "$recdemo" && grep -q 'label="cgtree:' "$tmp/out" || fail "cgtree --format=dot lost its label"
expect 0 "$cgtree" -b --format=html "$recdemo" && grep -q -e 'Each line:' -e 'Keys:' "$tmp/out" && fail "cgtree -b --format=html explains"
finish
