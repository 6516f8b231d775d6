#!/bin/sh
# Measured totals above the profile's total.  A producer's callgrind file
# whose inclusive costs of calls overlap (a JRuby profile's root at 219 %:
# it timed Thread#join while the threads ran, and their time is in their
# own self costs too) gives totals that are no share of the profile; every
# view says so, where it said "every total is exact", and the tsv's rows
# stay as they are (a warning on standard error).  The file below is
# shaped like it: self costs 10 + 90 + 0 = 100 ns, (top)'s calls carry
# 90 + 119 = 209 ns, so (top)'s total is 219 ns, 219 %, and Thread#join's
# 119 %.  A file whose calls do not overlap (data/callgrind's recdemo)
# says nothing of it.
. "${top_srcdir:-.}/tests/cli/common.sh"

printf '# callgrind format\nversion: 1\ncreator: hand-made, shaped like a JRuby profile\npositions: line\nevents: ns\n' >"$tmp/jr.callgrind"
printf 'fl=(1) script.rb\nfn=(1) (top)\n1 10\ncfn=(2) Worker#run\ncalls=2 1\n1 90\ncfn=(3) Thread#join\ncalls=2 1\n1 119\n' >>"$tmp/jr.callgrind"
printf 'fn=(2)\n2 90\nfn=(3)\n3 0\n' >>"$tmp/jr.callgrind"

note="Note: Measured totals exceed the profile's total (its self costs, 100 %): (top)'s is 219.00 %, and 1 other function's is above 100 % too."
warning="warning: measured totals of ns exceed the profile's total (its self costs): (top)'s is 219.00 % of it, and 2 functions in all above 100 %"
# has_note WHAT: the view in $tmp/out holds the note (its lines joined)
has_note () {
  notes "$tmp/out" | grep -F -q -- "$note" || fail "$1: no note that totals exceed the profile's: $(head -c 1500 "$tmp/out")"
  grep -q 'every total is exact' "$tmp/out" && fail "$1 says every total is exact: $(head -c 600 "$tmp/out")"
}

expect 0 "$cgtree" "$tmp/jr.callgrind" || fail "cgtree"
has_note "cgtree"
grep -q '^ 219.00   10.00     219      10        (top)$' "$tmp/out" || fail "cgtree's root line: $(cat "$tmp/out")"
expect_message "$warning"
expect 0 "$cgtree" --brief "$tmp/jr.callgrind" || fail "cgtree --brief"
has_note "cgtree --brief"
expect 0 "$cgtree" --format=html "$tmp/jr.callgrind" || fail "cgtree --format=html"
sed "s/&apos;/'/g" "$tmp/out" >"$tmp/html"
grep -F -q -- "$note" "$tmp/html" || fail "the HTML view has no note: $(head -c 600 "$tmp/out")"
expect 0 "$cgtree" --format=dot "$tmp/jr.callgrind" || fail "cgtree --format=dot"
tr -d '\n' <"$tmp/out" | sed 's/\\n      / /g' | grep -F -q -- "$note" || fail "the dot view has no note: $(head -c 600 "$tmp/out")"
expect 0 "$cgcost" --format=text "$tmp/jr.callgrind" || fail "cgcost --format=text"
has_note "cgcost --format=text"
expect 0 "$cgcost" --format=text --brief "$tmp/jr.callgrind" || fail "cgcost --format=text --brief"
has_note "cgcost --format=text --brief"
# through cgtools XML, which keeps the costs but no note
expect 0 "$cgcost" -o "$tmp/jr.xml" "$tmp/jr.callgrind" || fail "cgcost -o"
expect 0 "$cgtree" "$tmp/jr.xml" || fail "cgtree on cgcost's XML"
has_note "cgtree on cgcost's XML"
# the tsv: its rows as they were, the warning on standard error
expect 0 "$cgcost" --format=tsv "$tmp/jr.callgrind" || fail "cgcost --format=tsv"
printf 'function\tcalls\tself\ttotal\n(top)\t0\t10\t219\nThread#join\t2\t0\t119\nWorker#run\t2\t90\t90\n' >"$tmp/want"
cmp -s "$tmp/want" "$tmp/out" || fail "the tsv changed: $(cat "$tmp/out")"
expect_message "$warning"

# a difference: each profile's note, and no difference said to be exact
# (the base: Thread#join's 19 ns, (top) at 119 %)
sed 's/^1 119$/1 19/' "$tmp/jr.callgrind" >"$tmp/base.callgrind"
for view in "$cgtree" "$cgcost --format=text" "$cgcost --format=text --arcs"; do
  expect 0 $view --base="$tmp/base.callgrind" "$tmp/jr.callgrind" || fail "$view --base"
  notes "$tmp/out" | grep -F -q -- "Note (base): Measured totals exceed the profile's total (its self costs, 100 %): (top)'s is 119.00 %." \
    || fail "$view --base: no base note: $(head -c 1500 "$tmp/out")"
  notes "$tmp/out" | grep -F -q -- "Note (new): Measured totals exceed the profile's total (its self costs, 100 %): (top)'s is 219.00 %," \
    || fail "$view --base: no new note: $(head -c 1500 "$tmp/out")"
  grep -q 'exact, as both\|every total is exact\|every arc.s cost is exact' "$tmp/out" && fail "$view --base says exact: $(head -c 1500 "$tmp/out")"
done

# calls that do not overlap: no note, no warning
expect 0 "$cgtree" "$data/callgrind/recdemo/callgrind.out.recdemo" || fail "cgtree recdemo"
grep -q 'totals exceed' "$tmp/out" "$tmp/err" && fail "recdemo's totals said to exceed: $(grep 'totals exceed' "$tmp/out" "$tmp/err")"
grep -q 'every total is exact' "$tmp/out" || fail "recdemo's method line: $(head -3 "$tmp/out")"
finish
