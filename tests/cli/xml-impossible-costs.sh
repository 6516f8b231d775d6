#!/bin/sh
# Stored costs that no method can give are refused where cgtools XML is
# read (formats/cgtools-xml.md, Costs): a mutated total made cgcost's
# text print main at 451 % of the run, a total above the profile's total
# (the sum of the self costs, which design §3's methods never exceed).
# Each method's own XML of data/ reads back and validates; each mutation
# exits 1 naming the file, the line and what was expected; the schema
# refuses a minus sign; and a measured total above the profile's total
# that the measured method itself gives (a callgrind file whose calls'
# inclusive costs overlap) still reads back.
. "${top_srcdir:-.}/tests/cli/common.sh"

cg="$data/callgrind/recdemo/callgrind.out.recdemo"
for m in measured gprof decompose; do
  expect 0 "$cgcost" --format=xml --method=$m -o "$tmp/$m.xml" "$cg" || continue
  validate "$tmp/$m.xml"
  expect 0 "$cgtree" "$tmp/$m.xml" || fail "cgtree refuses cgcost's own $m XML"
  expect 0 "$cgcost" --format=text "$tmp/$m.xml" || fail "cgcost refuses its own $m XML"
done
expect 0 "$cgcost" --format=xml -o "$tmp/exact.xml" "$data/folded/recdemo.folded" \
  && expect 0 "$cgtree" "$tmp/exact.xml" || fail "cgtree refuses cgcost's own exact XML"

# the rows of the measured XML: totals by function id, arc costs by arc id
line_of () { grep -n "<$1>" "$tmp/measured.xml" | head -1 | cut -d: -f1; }
totals=$(line_of total-rows)
arc_costs=$(line_of arc-cost-rows)
"$cgcost" --format=tsv "$cg" >"$tmp/tsv"
all=$(awk -F '\t' 'NR > 1 { s += $3 } END { printf "%.0f", s }' "$tmp/tsv")
[ "$all" = 12248083 ] || fail "test set-up: the profile's total is $all, not 12248083"

# mutate LINE VALUE NAME: the measured XML with the row at LINE set to
# VALUE, as NAME.xml
mutate () {
  awk -v n="$1" -v v="$2" 'NR == n { sub (/^[0-9.]+/, v) } { print }' "$tmp/measured.xml" >"$tmp/$3.xml"
}
# main is function 0 (first row), fib function 1; arc 1 is main -> printf
mutate $((totals + 1)) 55246846 high
expect 1 "$cgcost" --format=text "$tmp/high.xml" \
  && expect_message "high.xml:$((totals + 1)): <total-rows>: main's total, 55246846, is above the profile's total, 12248083: expected at most that"
expect 1 "$cgtree" "$tmp/high.xml" && expect_message "high.xml:$((totals + 1)):"
mutate $((totals + 2)) 1 low
expect 1 "$cgtree" "$tmp/low.xml" \
  && expect_message "low.xml:$((totals + 2)): <total-rows>: fib's total, 1, is below its self cost, 758606: expected at least that"
mutate $((arc_costs + 2)) 99999999 arc
expect 1 "$cgcost" --format=text "$tmp/arc.xml" \
  && expect_message "arc.xml:$((arc_costs + 2)): <arc-cost-rows>: the arc main -> printf's cost, 99999999, is above main's total, 12124468: expected at most that"
# the differences read stored costs too
expect 1 "$cgcost" --format=text --base="$tmp/measured.xml" "$tmp/high.xml" && expect_message "high.xml:$((totals + 1)):"

# a real event in element form: a negative self cost, a negative total,
# a missing total, totals after the arcs' costs
doc () {
  cat <<X
<?xml version="1.0" encoding="UTF-8"?>
<cgtools version="1">
 <events><event name="time" unit="seconds" kind="real"/></events>
 <objects><object id="0" name="prog"/></objects>
 <files/>
 <functions>
  <function id="0" name="a" object="0" self="$1"/>
  <function id="1" name="b" object="0" self="1.5"/>
 </functions>
 <arcs inclusive="no"><arc id="0" caller="0" callee="1" calls="3"/></arcs>
 <costs method="decompose">
$2
 </costs>
</cgtools>
X
}
t0='  <total function="0" value="3.5" estimated="yes"/>'
t1='  <total function="1" value="1.5"/>'
ac='  <arc-cost arc="0" value="1.5"/>'
doc 2 "$t0
$t1
$ac" >"$tmp/good.xml"
validate "$tmp/good.xml"
expect 0 "$cgcost" --format=tsv "$tmp/good.xml" || fail "a possible real profile is refused"
doc -2 "$t0
$t1
$ac" >"$tmp/neg-self.xml"
"$validator" "$schema" "$tmp/neg-self.xml" >/dev/null 2>&1 && fail "the schema takes a negative self cost"
expect 1 "$cgcost" "$tmp/neg-self.xml" \
  && expect_message 'neg-self.xml:7: <function self="-2">: a negative cost: expected costs of at least 0'
doc 2 "$t0
$t1
  <arc-cost arc=\"0\" value=\"-0.25\"/>" >"$tmp/neg-arc.xml"
"$validator" "$schema" "$tmp/neg-arc.xml" >/dev/null 2>&1 && fail "the schema takes a negative arc cost"
expect 1 "$cgtree" "$tmp/neg-arc.xml" \
  && expect_message "neg-arc.xml:14: <arc-cost>: the arc a -> b's cost, -0.25, is negative: expected a cost of at least 0"
doc 2 "$t1" >"$tmp/missing.xml"
expect 1 "$cgtree" "$tmp/missing.xml" \
  && expect_message "missing.xml:11: <costs> gives a no total, so 0: a's total, 0, is below its self cost, 2: expected at least that"
doc 2 "$t0
$ac
$t1" >"$tmp/order.xml"
expect 1 "$cgtree" "$tmp/order.xml" \
  && expect_message "order.xml:14: <total>: after the arcs' costs: expected every total before them"

# measured totals above the profile's total where the producer's calls
# overlap: the method's own, read back (with its note); a larger one not
printf 'events: Ir\nfn=main\n1 10\ncfn=work\ncalls=1 0\n1 1000\nfn=work\n1 5\n' >"$tmp/overlap.out"
expect 0 "$cgcost" --format=xml -o "$tmp/overlap.xml" "$tmp/overlap.out" || fail "cgcost on overlapping calls"
expect 0 "$cgtree" "$tmp/overlap.xml" || fail "cgtree refuses the measured method's own total above 100 %"
grep -q '6733.33 %' "$tmp/out" || fail "cgtree lost main's measured total, 6733.33 %: $(grep main "$tmp/out")"
awk '/<total-rows>/ { n = NR + 1 } NR == n { sub (/^1010/, "2000") } { print }' "$tmp/overlap.xml" >"$tmp/overlap2.xml"
expect 1 "$cgtree" "$tmp/overlap2.xml" && expect_message "main's total, 2000, is above the profile's total, 15"

finish
