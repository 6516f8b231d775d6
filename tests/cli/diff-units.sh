#!/bin/sh
# Differences of times shown in ms: the views show a profile of under a
# second whose event counts seconds in ms, and the change beside each
# value must be in the same unit.  cgtree's change column and dot's
# arrows took the new profile's values in ms from the base's in seconds
# (a call of 300 ms that came down to 200 ms read "+199.70"), and
# cgcost --base --format=text printed seconds with two decimals (changes
# under 5 ms read +0.00) without naming the event or its unit.  Oracle:
# the two profiles written here, a program whose work took 0.30 s and
# then 0.20 s (main 0.01 s of its own, spin 0.20 s both times).
. "${top_srcdir:-.}/tests/cli/common.sh"

profile () {
  printf '<?xml version="1.0" encoding="UTF-8"?>\n<cgtools version="2">\n <events>\n'
  printf '  <event name="time" unit="seconds" kind="real" scale="0.01"/>\n </events>\n'
  printf ' <objects>\n  <object id="0" name=""/>\n </objects>\n <files/>\n <functions>\n  <function-rows>\n'
  printf 'main\t0\t\t\t1\nwork\t0\t\t\t%s\nspin\t0\t\t\t20\n</function-rows>\n </functions>\n' "$1"
  printf ' <arcs inclusive="no">\n  <arc-rows>\n0\t1\t1\n0\t2\t1\n</arc-rows>\n </arcs>\n</cgtools>\n'
}
profile 30 >"$tmp/base.xml"
profile 20 >"$tmp/new.xml"

# the text tree: incl in ms, the change beside it too
expect 0 "$cgtree" --base="$tmp/base.xml" "$tmp/new.xml" || fail "cgtree --base"
grep -q ' incl ms  *change ' "$tmp/out" || fail "cgtree --base: no ms column: $(cat "$tmp/out")"
line_of () { awk -v f="$1" '$NF ~ ("-" f "$") || $NF == f { print $(NF - 4), $(NF - 3) }' "$tmp/out"; }
[ "$(line_of work)" = "200.00 -100.00" ] || fail "cgtree --base: work's line: $(grep work "$tmp/out")"
[ "$(line_of spin)" = "200.00 +0.00" ] || fail "cgtree --base: spin's line: $(grep spin "$tmp/out")"

# dot: an arrow's change in the unit of its cost
expect 0 "$cgtree" -f dot --edge-threshold=0 --base="$tmp/base.xml" "$tmp/new.xml" || fail "cgtree -f dot --base"
grep -- '-> f1 ' "$tmp/out" | grep -q 'label="~[^"]*\\n200.00\\n1×\\n~-100.00", color="#[0-9a-f]\{4\}ff"' \
  || fail "dot --base: main -> work: $(grep -- '->' "$tmp/out")"
grep -- '-> f2 ' "$tmp/out" | grep -q 'label="~[^"]*\\n200.00\\n1×\\n~+0.00"' \
  || fail "dot --base: main -> spin: $(grep -- '->' "$tmp/out")"
# ... and a box's change in it too, as its arrows' (a box read "-0.1",
# the difference's seconds, and a perf profile's "+2991000000", its ns,
# beside arrows in s), the unit named in the graph's label
grep -q '^  f1 \[label="work\\n[^"]*\\n-100.00"' "$tmp/out" || fail "dot --base: work's box: $(grep 'f1 \[' "$tmp/out")"
grep -q '^  f2 \[label="spin\\n[^"]*\\n+0.00"' "$tmp/out" || fail "dot --base: spin's box: $(grep 'f2 \[' "$tmp/out")"
grep -q 'the change since the base in ms' "$tmp/out" || fail "dot --base: the label names no unit: $(grep 'graph \[' "$tmp/out")"

# cgcost's text: the event, its unit, and the changes in it
expect 0 "$cgcost" --base="$tmp/base.xml" --format=text "$tmp/new.xml" || fail "cgcost --base --format=text"
grep -qx 'Event: time, in ms' "$tmp/out" || fail "cgcost --base: no event line: $(head -5 "$tmp/out")"
grep -q '^Total: base 510.00 ms, new 410.00 ms, change -100.00 ms (-19.61%)$' "$tmp/out" \
  || fail "cgcost --base: total: $(grep Total "$tmp/out")"
[ "$(awk '$NF == "work" { print $1, $2, $3, $4 }' "$tmp/out")" = "-100.00 300.00 200.00 -100.00" ] \
  || fail "cgcost --base: work: $(grep work "$tmp/out")"
expect 0 "$cgcost" --base="$tmp/base.xml" --arcs --format=text "$tmp/new.xml" || fail "cgcost --base --arcs"
grep -qx 'Event: time, in ms' "$tmp/out" || fail "cgcost --base --arcs: no event line: $(head -5 "$tmp/out")"
[ "$(awk '$NF == "work" { print $1, $2, $3 }' "$tmp/out")" = "-100.00 300.00 200.00" ] \
  || fail "cgcost --base --arcs: main -> work: $(grep work "$tmp/out")"

# the tsv contract keeps the event's unit, seconds
expect 0 "$cgcost" --base="$tmp/base.xml" --format=tsv "$tmp/new.xml" || fail "cgcost --base --format=tsv"
awk -F '\t' '$1 == "work" { w = 1; ok = ($2 - 0.3)^2 < 1e-18 && ($3 - 0.2)^2 < 1e-18 && ($4 + 0.1)^2 < 1e-18 }
  END { exit !(w && ok) }' "$tmp/out" \
  || fail "cgcost --base --format=tsv: work: $(grep work "$tmp/out")"

# changes that read 0.00 in the unit shown are counted, not listed (ninja
# -O0 against -O2 in perf's cpu-clock: 1,126 of 1,598 rows read +0.00 s
# and -0.00 s); the tsv form lists them
perf_pair () { # WORK_NS TINY_NS: main -> work, main -> other (1 s), main -> tiny
  for s in "$1 work" "1000000000 other" "$2 tiny"; do
    set -- $s
    printf 'prog   100/100   [000]  1000.000001: %12s cpu-clock:u: \n\t            1234 %s+0x4 (/build/prog)\n\t            1100 main+0x20 (/build/prog)\n\n' "$1" "$2"
  done
}
perf_pair 500000000 1000 >"$tmp/base.perf"
perf_pair 625000000 2000 >"$tmp/new.perf"
expect 0 "$cgcost" --base="$tmp/base.perf" --format=text "$tmp/new.perf"
# (three samples a profile: work's change lies within their sampling noise, "?")
grep -q ' +0.12  *0.50  *0.62  *+0.12 ?  work$' "$tmp/out" || fail "cgcost --base: work: $(grep work "$tmp/out")"
grep -q 'tiny' "$tmp/out" && fail "cgcost --base: tiny's change of 1 µs is listed: $(grep tiny "$tmp/out")"
grep -q '^1 more function changed by at most 0.005 s each (it reads 0.00): not listed;$' "$tmp/out" \
  || fail "cgcost --base: no count of what reads 0.00: $(tail -3 "$tmp/out")"
expect 0 "$cgcost" --base="$tmp/base.perf" --arcs --format=text "$tmp/new.perf"
grep -q 'tiny' "$tmp/out" && fail "cgcost --base --arcs: main -> tiny is listed: $(grep tiny "$tmp/out")"
grep -q '^1 more arc changed by at most 0.005 s' "$tmp/out" || fail "cgcost --base --arcs: $(tail -3 "$tmp/out")"
expect 0 "$cgcost" --base="$tmp/base.perf" --format=tsv "$tmp/new.perf"
grep -q '^tiny	1000	2000	1000	' "$tmp/out" || fail "cgcost --base --format=tsv: tiny: $(grep tiny "$tmp/out")"
finish
