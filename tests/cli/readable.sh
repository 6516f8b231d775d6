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

# ---- units: times in s, ms, µs or ns, three significant digits or more ----
# amon's nanoseconds: the 0.109 s profile reads in ms, each root's total
# the tsv's seconds times 1000
"$cgcost" --format=tsv "$amon" >"$tmp/amon.tsv"
expect 0 "$cgtree" -b --threshold=0 "$amon" && parse_tree "$tmp/out" ms >"$tmp/lines.tsv"
head -1 "$tmp/out" | grep -q 'incl ms self ms' || fail "amon in ms: $(head -1 "$tmp/out")"
awk -F '\t' 'NR == FNR { total[$1] = $4; next }
  $1 == 0 { want = sprintf ("%.2f", total[$4] * 1000); if ($5 != want) { print $4 ": " $5 " != " want; bad = 1 } }
  END { exit bad }' "$tmp/amon.tsv" "$tmp/lines.tsv" || fail "amon: root totals in ms differ from the tsv's seconds"
expect 0 "$cgcost" -b --format=text "$amon" && grep -q '^  %self   self ms  %total  total ms' "$tmp/out" \
  || fail "cgcost text in ms: $(sed -n 3p "$tmp/out")"
main=$(awk -F '\t' '$1 == "main" { printf "%.2f", $4 * 1000 }' "$tmp/amon.tsv")
expect 0 "$cgmerge" --format=text "$amon" && grep -q " $main ms in all" "$tmp/out" || fail "cgmerge text: not $main ms in all"
expect 0 "$cgtree" --format=dot "$amon" && grep -q "$main ms in all" "$tmp/out" || fail "dot: not $main ms in all"
expect 0 "$cgtree" --format=html "$amon" && grep -q '"unit":"ms"' "$tmp/out" || fail "html: not in ms"
# half a millisecond in µs, a second and a half in s (by hand)
for case in "0.00005 500.00 µs" "0.15 1.50 s"; do
  set -- $case
  cat >"$tmp/t.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<cgtools version="1">
 <source format="gmon" path="by-hand"/>
 <events><event name="time" unit="seconds" kind="real" scale="$1"/></events>
 <objects><object id="0" name=""/></objects>
 <files><file id="0" name=""/></files>
 <functions>
  <function id="0" name="main" object="0" self="2" spontaneous="10"/>
  <function id="1" name="work" object="0" self="8"/>
 </functions>
 <arcs inclusive="yes"><arc id="0" caller="0" callee="1" calls="3" inclusive="8"/></arcs>
</cgtools>
EOF
  expect 0 "$cgtree" "$tmp/t.xml" && grep -q "$2 $3 in all" "$tmp/out" || fail "$1 s a sample: not $2 $3: $(head -1 "$tmp/out")"
  # the titles carry the unit, aligned on the columns (µ is one column)
  # (µ as u: awk counts bytes)
  sed 's/\xc2\xb5/u/g' "$tmp/out" | awk -v u="$(echo "$3" | sed 's/\xc2\xb5/u/')" -v t="$2" '
    /^  incl%/ { h = index ($0, "incl " u) + length ("incl " u) }
    / main$/ { v = index ($0, t) + length (t) } END { exit !(h > 0 && h == v) }' \
    || fail "$3: the title is not aligned with its column: $(grep -e incl% -e ' main$' "$tmp/out")"
done

# ---- calls: grouped as costs are; recursion as N+M where gprof has it ----
leaf=$("$cgcost" --format=tsv "$recdemo" | awk -F '\t' '$1 == "leaf" { print $2 }' | sed 's/\(...\)$/,\1/')
expect 0 "$cgmerge" --format=text "$recdemo" && grep -q " $leaf  leaf$" "$tmp/out" || fail "cgmerge text: leaf's calls not $leaf"
expect 0 "$cgcost" --format=text "$recdemo" && grep -q " $leaf  leaf$" "$tmp/out" || fail "cgcost text: leaf's calls not $leaf"
# fib: the tree's master line shows what gprof's layout shows, 1+N
gprof_fib=$("$cgcost" --format=gprof "$recdemo" | awk '/^\[[0-9]+\]/ && $(NF - 1) == "fib" { print $(NF - 2) }')
expect 0 "$cgtree" -b "$recdemo"
tree_fib=$(awk '/[-]fib$/ { gsub (/,/, "", $5); print $5 }' "$tmp/out")
case $gprof_fib in *+*) ;; *) fail "gprof's layout shows no recursion for fib: '$gprof_fib'" ;; esac
[ "$tree_fib" = "$gprof_fib" ] || fail "fib's calls: the tree shows '$tree_fib', gprof's layout '$gprof_fib'"
grep -q ' 28,657 ' "$tmp/out" || fail "cgtree: calls not grouped: $(grep leaf "$tmp/out")"
expect 0 "$cgtree" --format=dot "$recdemo" && grep -q '28,657×' "$tmp/out" || fail "dot: calls not grouped"
finish
