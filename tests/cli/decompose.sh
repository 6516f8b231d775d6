#!/bin/sh
# The decompose method end to end.  Oracle: gprof2dot's worked example
# (research/gprof2dot.md §c.7), whose numbers are derived by hand in
# tests/unit/test-decompose.c; auto's choice on arc-only data; valid,
# deterministic XML; and, for the record, how far the estimate is from the
# exact totals on profiles whose truth is known.
. "${top_srcdir:-.}/tests/cli/common.sh"

cat >"$tmp/tiny.callgrind" <<'EOF'
# callgrind format
events: Ir
fn=main
0 10
cfn=a
calls=1 0
0 500
cfn=d
calls=1 0
0 140
fn=a
0 100
cfn=b
calls=1 0
0 350
cfn=c
calls=1 0
0 100
fn=b
0 200
cfn=a
calls=1 0
0 120
cfn=c
calls=1 0
0 200
fn=c
0 300
cfn=c
calls=1 0
0 50
fn=d
0 40
cfn=b
calls=1 0
0 100
EOF

# near FILE KEY WANT — the value of row KEY (first column(s) joined by
# a blank) in the last column is WANT to 1e-9
near () {
  awk -F '\t' -v key="$2" -v want="$3" '
    { k = $1; if (NF == 4 && $3 !~ /^[0-9]+$/) k = $1; if (NF == 4 && FILENAME ~ /arcs/) k = $1 " " $2 }
    k == key { v = $NF; found = 1 }
    END { d = v - want; if (d < 0) d = -d; exit !(found && d <= 1e-9 * (want > 1 ? want : 1)) }' "$1" \
    || fail "$2: $(awk -F '\t' -v key="$2" '$1 == key || $1 " " $2 == key' "$1"), expected $3"
}

expect 0 "$cgcost" --method=decompose --format=tsv "$tmp/tiny.callgrind" && cp "$tmp/out" "$tmp/totals.tsv"
near "$tmp/totals.tsv" a 533.333333333333333
near "$tmp/totals.tsv" b 433.333333333333333
near "$tmp/totals.tsv" c 300
near "$tmp/totals.tsv" d 140
near "$tmp/totals.tsv" main 650
expect 0 "$cgcost" --method=decompose --format=tsv --arcs "$tmp/tiny.callgrind" && cp "$tmp/out" "$tmp/arcs.tsv"
near "$tmp/arcs.tsv" "a b" 333.333333333333333
near "$tmp/arcs.tsv" "b a" 33.3333333333333333
near "$tmp/arcs.tsv" "main a" 500
near "$tmp/arcs.tsv" "d b" 100
near "$tmp/arcs.tsv" "c c" 0

# the text form names the method and marks estimates, not c's exact total
expect 0 "$cgcost" --method=decompose --format=text "$tmp/tiny.callgrind" && cp "$tmp/out" "$tmp/text"
grep -q '^Method: decompose' "$tmp/text" || fail "no method line"
grep -Eq '^ +[0-9.]+ +[0-9,]+ ~ *[0-9.]+ .*  a <cycle 1>$' "$tmp/text" || fail "a's estimated total is not marked"
grep -Eq '~.*  c$' "$tmp/text" && fail "c's exact total is marked"

# XML: valid, and the same bytes every run
expect 0 "$cgcost" --method=decompose "$tmp/tiny.callgrind" && cp "$tmp/out" "$tmp/one.xml"
expect 0 "$cgcost" --method=decompose "$tmp/tiny.callgrind" && cmp -s "$tmp/out" "$tmp/one.xml" || fail "not deterministic"
validate "$tmp/one.xml"
grep -q '<costs method="decompose">' "$tmp/one.xml" || fail "no decompose costs in the XML"

# arc-only data (call counts, no inclusive costs, no stacks): auto picks decompose
cat >"$tmp/arcs.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<cgtools version="1">
 <events><event name="time" unit="ticks" kind="integer"/></events>
 <objects><object id="0" name=""/></objects>
 <files/>
 <functions>
  <function id="0" name="main" object="0"/>
  <function id="1" name="a" object="0" self="10"/>
  <function id="2" name="b" object="0" self="30"/>
 </functions>
 <arcs inclusive="no">
  <arc id="0" caller="0" callee="1" calls="1"/>
  <arc id="1" caller="0" callee="2" calls="3"/>
  <arc id="2" caller="1" callee="2" calls="1"/>
  <arc id="3" caller="2" callee="1" calls="1"/>
 </arcs>
</cgtools>
EOF
validate "$tmp/arcs.xml"
expect 0 "$cgcost" --format=text "$tmp/arcs.xml" && grep -q '^Method: decompose' "$tmp/out" || fail "auto on arc-only data"
# two entries into {a, b}: a 17.5, b 37.5 (derived in test-decompose.c)
expect 0 "$cgcost" --format=tsv "$tmp/arcs.xml" && cp "$tmp/out" "$tmp/two.tsv"
near "$tmp/two.tsv" a 17.5
near "$tmp/two.tsv" b 37.5
expect 1 "$cgcost" --method=exact "$tmp/arcs.xml" && expect_message "no call tree"

# where gprof2dot's numbers cannot be: a cycle {f, g} that no call enters
# (f a root of the stacks) gets its whole cost, 90, for each member, where
# gprof2dot gave 0, below f's self cost of 60; and a cycle {x, y} (20 of
# 22 Ir) whose two callers' calls weigh 0 is shared between them, where
# each was charged all of it and their caller a got 42 of the 22.  Both
# profiles' XML reads back (a reader refuses a total below a self cost or
# above the profile's total)
printf 'f;g;f;h 30\nf 60\n' >"$tmp/unentered.folded"
expect 0 "$cgcost" --method=decompose --format=tsv "$tmp/unentered.folded" && cp "$tmp/out" "$tmp/unentered.tsv"
near "$tmp/unentered.tsv" f 90
near "$tmp/unentered.tsv" g 90
near "$tmp/unentered.tsv" h 30
cat >"$tmp/zero.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<cgtools version="1">
 <events><event name="Ir" unit="Ir" kind="integer"/></events>
 <objects><object id="0" name="p"/></objects>
 <files/>
 <functions>
  <function id="0" name="a" object="0" self="1"/><function id="1" name="b" object="0" self="1"/>
  <function id="2" name="x" object="0" self="10"/><function id="3" name="y" object="0" self="10"/>
 </functions>
 <arcs inclusive="no">
  <arc id="0" caller="0" callee="1" calls="1"/><arc id="1" caller="0" callee="2" calls="0"/>
  <arc id="2" caller="1" callee="2" calls="0"/><arc id="3" caller="2" callee="3" calls="1"/>
  <arc id="4" caller="3" callee="2" calls="1"/>
 </arcs>
</cgtools>
XML
expect 0 "$cgcost" --method=decompose --format=tsv "$tmp/zero.xml" && cp "$tmp/out" "$tmp/zero.tsv"
near "$tmp/zero.tsv" a 22
near "$tmp/zero.tsv" b 11
for input in unentered.folded zero.xml; do
  expect 0 "$cgcost" --method=decompose --format=xml -o "$tmp/$input.costs.xml" "$tmp/$input" \
    && expect 0 "$cgtree" "$tmp/$input.costs.xml" || fail "decompose's own XML of $input does not read back"
done

# for the record: the estimate against exact totals (stacks) and against
# callgrind's measured totals, which are exact with its recursion split
report () {
  awk -F '\t' 'FNR == 1 { file++ } file == 1 && FNR > 1 { truth[$1] = $4 }
               file == 2 && FNR > 1 && truth[$1] > 0 {
                 e = ($4 - truth[$1]) / truth[$1]; if (e < 0) e = -e
                 if (e > worst) { worst = e; who = $1 } n++; if (e > 0.01) off++ }
               END { printf "  %s: %d totals, %d off by more than 1%%, worst %s by %.1f%%\n", name, n, off, who, 100 * worst }' \
    name="$1" "$2" "$3"
}
"$cgcost" --method=exact --format=tsv "$data/folded/recdemo.folded" >"$tmp/exact.tsv"
"$cgcost" --method=decompose --format=tsv "$data/folded/recdemo.folded" >"$tmp/dec.tsv"
report "decompose vs exact, folded/recdemo" "$tmp/exact.tsv" "$tmp/dec.tsv"
for profile in "$data"/callgrind/recdemo/callgrind.out.* "$data"/callgrind/sqlite3-cte/callgrind.out.*; do
  "$cgcost" --method=measured --format=tsv "$profile" >"$tmp/measured.tsv" || fail "measured on $profile"
  "$cgcost" --method=decompose --format=tsv "$profile" >"$tmp/dec.tsv" || fail "decompose on $profile"
  report "decompose vs measured, $(basename "$profile")" "$tmp/measured.tsv" "$tmp/dec.tsv"
done
finish
