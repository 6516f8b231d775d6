#!/bin/sh
# cgtree's views (text, dot, html) and cgcost's callgrind output, end to
# end on the bundled real profiles.  Oracles: cgcost's totals, callgrind's
# own data read back, callgrind_annotate, Graphviz's dot, and a focus
# derived by hand.
. "${top_srcdir:-.}/tests/cli/common.sh"
recdemo="$data/callgrind/recdemo/callgrind.out.recdemo"
sqlite="$data/callgrind/sqlite3-cte/callgrind.out.sqlite3-cte"
cc1="$data/callgrind/gcc-cc1-pngtest/callgrind.out.cc1"

# ---- text: the display tree is Kaes's tree of the whole graph ----
for profile in "$recdemo" "$sqlite"; do
  name=$(basename "$profile")
  "$cgcost" --format=tsv "$profile" >"$tmp/long.tsv"
  short_objects "$tmp/long.tsv" >"$tmp/totals.tsv"
  "$cgcost" --format=tsv --arcs "$profile" >"$tmp/arcs.tsv"
  arcs=$(($(wc -l <"$tmp/arcs.tsv") - 1))
  for inverted in ""; do
    # the whole graph: start-up code shown (--startup)
    expect 0 "$cgtree" $inverted --startup --threshold=0 --no-fold "$profile" || continue
    grep -q "$(printf '\033')" "$tmp/out" && fail "$name: colour in a pipe"
    parse_tree "$tmp/out" >"$tmp/lines.tsv"
    # every function once as a master, with its self cost; one line per
    # root and per arc; roots show the totals cgcost computes; every
    # link number belongs to one master line
    awk -F '\t' -v arcs="$arcs" '
      NR == FNR { if (FNR > 1) { total[$1] = $4; self[$1] = $3 } next }
      {
        lines++
        if ($1 == 0) { roots++; if ($5 != total[$4]) { bad++; print "root " $4 ": " $5 " != " total[$4] } }
        if ($2 == "master") {
          masters[$4]++
          if ($6 != self[$4]) { bad++; print "self of " $4 ": " $6 " != " self[$4] }
          if ($3) numbered[$3] = $4
        } else links[$3] = $4
      }
      END {
        for (f in total) if (masters[f] != 1) { bad++; print f " has " masters[f] + 0 " master lines" }
        for (n in links) if (numbered[n] != links[n]) { bad++; print "link [" n "] to " links[n] " leads to " numbered[n] }
        if (lines != roots + arcs) { bad++; print lines " lines, " roots " roots, " arcs " arcs" }
        exit bad > 0
      }' "$tmp/totals.tsv" "$tmp/lines.tsv" >"$tmp/why" || fail "$name $inverted: $(head -n 5 "$tmp/why")"
  done

  # the callers tree: a root per function with self cost, most first, at
  # its self cost; every line below no more than the line above it
  expect 0 "$cgtree" --inverted --startup --threshold=0 --no-fold "$profile" && parse_tree "$tmp/out" >"$tmp/lines.tsv"
  awk -F '\t' '
    NR == FNR { if (FNR > 1 && $3 + 0 > 0) { self[$1] = $3; with_self++ } next }
    $1 == 0 {
      roots++
      if ($5 != self[$4]) { bad++; print "root " $4 ": " $5 " != " self[$4] }
      if (roots > 1 && $5 + 0 > last + 0) { bad++; print "root " $4 " after a smaller one" }
      last = $5
    }
    { held[$1] = $5; if ($1 > 0 && $5 + 0 > held[$1 - 1] + 0) { bad++; print $4 " above its parent" } }
    END { if (roots != with_self) { bad++; print roots " roots, " with_self " functions with self cost" }; exit bad > 0 }' \
    "$tmp/totals.tsv" "$tmp/lines.tsv" >"$tmp/why" || fail "$name --inverted: $(head -n 5 "$tmp/why")"

  # siblings in name order with --sort=name; only roots at --max-depth=1
  expect 0 "$cgtree" --sort=name --threshold=0 --no-fold "$profile" && parse_tree "$tmp/out" >"$tmp/lines.tsv"
  # (addresses sort as shown, without their leading zeros)
  awk -F '\t' '{ for (d in last) if (d + 0 > $1) delete last[d]
                 key = $4; if (key ~ /^0x0+[0-9a-f]/) { sub (/^0x0+/, "", key); key = "0x" key }
                 if (($1 in last) && last[$1] > key) bad = 1; last[$1] = key } END { exit bad }' "$tmp/lines.tsv" \
    || fail "$name: --sort=name leaves siblings out of order"
  expect 0 "$cgtree" --max-depth=1 --threshold=0 "$profile" && parse_tree "$tmp/out" >"$tmp/lines.tsv"
  awk -F '\t' '$1 > 0 { bad = 1 } END { exit bad || NR == 0 }' "$tmp/lines.tsv" || fail "$name: --max-depth=1"
done

# a compiler run at 1 %: about a screenful (a chain is not joined where
# a call below carries more than the call above, or where a function's
# total shows beside its call: 85 lines, against 75 when lines nested
# less), and the folded chains still start at the program's entry with
# its whole cost
expect 0 "$cgtree" --threshold=1 "$cc1"
[ "$(wc -l <"$tmp/out")" -le 90 ] || fail "cc1 at 1%: $(wc -l <"$tmp/out") lines"
# the first root is main, the start-up code above it folded (callgrind's
# own totals: main's inclusive cost is 1,123,784,815 Ir), and the header
# names what was folded
sed -n '/^  incl%/{n;p;q}' "$tmp/out" | grep -q '^  99\.92 .*1,123,784,815 .*  main > ' \
  || fail "cc1: the first root is not main: $(sed -n '/^  incl%/{n;p;q}' "$tmp/out")"
grep -q '^Start-up code (.*0x1ab70 \[ld-linux-x86-64\.so\.2\]' "$tmp/out" || fail "cc1: no start-up note"
expect 0 "$cgtree" --startup --threshold=1 "$cc1"
sed -n '/^  incl%/{n;p;q}' "$tmp/out" | grep -q '^ 100\.00 .*  0x1ab70 \[ld-linux-x86-64\.so\.2\] > (below main) \[cc1\] > ' \
  || fail "cc1 --startup: $(sed -n '/^  incl%/{n;p;q}' "$tmp/out")"

# ---- the callers tree: shares of the hot spots' self cost ----
# over stacks, exact: the folded file read by awk, each stack's samples
# given to the caller of its leaf function (the first frame up from the
# leaf of another function: recursion is followed out), for the two
# hottest functions; cgtree's first level under each root must agree
folded="$data/folded/recdemo.folded"
expect 0 "$cgtree" --inverted --threshold=0 --no-fold --max-depth=2 "$folded" && parse_tree "$tmp/out" samples >"$tmp/lines.tsv"
awk '{ n = split ($1, frame, ";"); leaf = frame[n]; self[leaf] += $2
       for (i = n - 1; i > 0 && frame[i] == leaf; i--) ;
       if (i > 0) share[leaf "\t" frame[i]] += $2 }
     END { for (k in share) print k "\t" share[k] }' "$folded" | sort >"$tmp/oracle"
awk -F '\t' '$1 == 0 { root = $4 } $1 == 1 { print root "\t" $4 "\t" $5 }' "$tmp/lines.tsv" | sort >"$tmp/ours"
for f in fib partition; do
  grep "^$f	" "$tmp/oracle" >"$tmp/want"
  grep "^$f	" "$tmp/ours" >"$tmp/got"
  [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got" || fail "callers of $f: $(diff "$tmp/want" "$tmp/got" | head -n 4)"
done
head -n 1 "$tmp/lines.tsv" | grep -q "^0	master	0	fib	1476	1476	" || fail "the hottest root is not fib: $(head -n 1 "$tmp/lines.tsv")"
grep -q '~' "$tmp/lines.tsv" && fail "exact shares marked estimated"
# over contexts, exact: leaf's time per caller as the program measured it
# (data/README: 80,733,503 ns from odd, 26,671,178 ns from even), each
# within 2 %
# (the XML's values, in the stored nanoseconds)
expect 0 "$cgtree" --inverted --format=xml --max-depth=2 "$data/amon/mutual/amon.out.mutual"
awk -F '\t' '/<function-rows>/ { s = "f"; next } /<node-rows>/ { s = "n"; next } /<\// { s = ""; next }
  s == "f" { name[nf++] = $1 } s == "n" { if ($1 == "") root = nn; else if ($1 == 0) print name[$2] "\t" $4; nn++ }' \
  "$tmp/out" >"$tmp/shares"
for pair in odd:80733503 even:26671178; do
  awk -F '\t' -v f="${pair%%:*}" -v want="${pair#*:}" '$1 == f { got = $2 }
    END { d = got - want; if (d < 0) d = -d; exit !(got > 0 && d <= 0.02 * want) }' "$tmp/shares" \
    || fail "amon: leaf through ${pair%%:*}: $(cat "$tmp/shares")"
done
grep -q '^leaf	' "$tmp/out" && sed -n '/<node-rows>/{n;p;q}' "$tmp/out" | grep -q '^	' || fail "amon: no root first"
# over a call graph: a function with one caller owes it all (exact,
# unmarked: qsort_rec's 3,362,495 Ir, data/README's truth); leaf, called
# from fib and main, is divided in proportion to the calls' costs, marked
expect 0 "$cgtree" --inverted --threshold=0 --no-fold --max-depth=2 "$recdemo" && parse_tree "$tmp/out" >"$tmp/lines.tsv"
head -n 1 "$tmp/lines.tsv" | grep -q "^0	master	0	qsort_rec	3362495	3362495	" || fail "recdemo: first root $(head -n 1 "$tmp/lines.tsv")"
sed -n 2p "$tmp/lines.tsv" | grep -q "^1	master	0	main	3362495	" || fail "recdemo: qsort_rec < main $(sed -n 2p "$tmp/lines.tsv")"
grep -q '^1	master	0	fib	.*	~ *[0-9.]*	' "$tmp/lines.tsv" || fail "recdemo: leaf < fib not marked estimated"

# ---- filters: --hide, --ignore (over stacks), --top, --focus on a graph ----
# --hide=^fib$: fib's frames go, their samples to the frame that called
# them; by awk over the stacks: run_fib's self is every sample whose stack
# ends in fib or in run_fib
expect 0 "$cgtree" --hide='^fib$' --threshold=0 --no-fold "$folded" && parse_tree "$tmp/out" samples >"$tmp/lines.tsv"
want=$(awk '{ n = split ($1, frame, ";"); k = n; while (k > 0 && frame[k] == "fib") k--
              if (k > 0 && frame[k] == "run_fib") s += $2 } END { print s }' "$folded")
awk -F '\t' '$2 == "master" && $4 == "run_fib" { print $6 }' "$tmp/lines.tsv" | grep -qx "$want" \
  || fail "--hide=^fib$: run_fib's self is not $want: $(grep run_fib "$tmp/lines.tsv")"
grep -q '	fib	' "$tmp/lines.tsv" && fail "--hide=^fib$: fib still shown"
grep -q "^Hidden: 1 function matching '^fib\$'" "$tmp/out" || fail "--hide: no note"
# --ignore=^run_fib$: the stacks through run_fib go; main's total is the
# samples of the others
expect 0 "$cgtree" --ignore='^run_fib$' --threshold=0 --no-fold "$folded" && parse_tree "$tmp/out" samples >"$tmp/lines.tsv"
want=$(awk '$1 !~ /(^|;)run_fib(;|$)/ && $1 ~ /;main(;|$)/ { s += $2 } END { print s }' "$folded")
awk -F '\t' '$1 == 0 && $4 == "main" { print $5 }' "$tmp/lines.tsv" | grep -qx "$want" \
  || fail "--ignore=^run_fib$: main is not $want: $(grep '^0	' "$tmp/lines.tsv")"
grep -q 'fib' "$tmp/lines.tsv" && fail "--ignore=^run_fib$: fib still shown"
# on a call graph alone (callgrind), --hide=^leaf$ hands leaf's self cost
# to its callers in proportion to what their calls carried, here all of
# it, as leaf calls nothing: each caller's self grows by its calls into
# leaf, against the profile's own tsv; totals stay
"$cgcost" --format=tsv "$recdemo" >"$tmp/fns.tsv" && "$cgcost" --arcs --format=tsv "$recdemo" >"$tmp/arcs.tsv" \
  || fail "cgcost tsv of recdemo"
self_of () { awk -F '\t' -v f="$1" '$1 == f { print $3 }' "$tmp/fns.tsv"; }
total_of () { awk -F '\t' -v f="$1" '$1 == f { print $4 }' "$tmp/fns.tsv"; }
arc_of () { awk -F '\t' -v c="$1" -v e="$2" '$1 == c && $2 == e { print $4 }' "$tmp/arcs.tsv"; }
expect 0 "$cgtree" --hide='^leaf$' --threshold=0 --no-fold "$recdemo" && parse_tree "$tmp/out" >"$tmp/lines.tsv"
for c in fib is_odd; do
  want=$(($(self_of $c) + $(arc_of $c leaf)))
  awk -F '\t' -v c=$c '$2 == "master" && $4 == c { print $6 }' "$tmp/lines.tsv" | grep -qx "$want" \
    || fail "--hide=^leaf$ on callgrind: $c's self is not $want: $(grep "	$c	" "$tmp/lines.tsv")"
done
grep -q '	leaf	' "$tmp/lines.tsv" && fail "--hide=^leaf$ on callgrind: leaf still shown"
awk -F '\t' '$1 == 0 && $4 == "main" { print $5 }' "$tmp/lines.tsv" | grep -qx "$(total_of main)" \
  || fail "--hide=^leaf$ on callgrind: main's total changed: $(grep '	main	' "$tmp/lines.tsv")"
grep -q "^Hidden: 1 function matching '^leaf\$', its cost charged to its callers in proportion" "$tmp/out" \
  || fail "--hide on callgrind: no note"
# --hide=^sprintf$: its calls move to main whole, its self cost with them
expect 0 "$cgtree" --hide='^sprintf$' --threshold=0 --no-fold "$recdemo" && parse_tree "$tmp/out" >"$tmp/lines.tsv"
awk -F '\t' '$1 == 0 && $4 == "main" { print $6 }' "$tmp/lines.tsv" | grep -qx "$(($(self_of main) + $(self_of sprintf)))" \
  || fail "--hide=^sprintf$: main's self: $(grep '	main	' "$tmp/lines.tsv")"
awk -F '\t' '$1 == 1 && $4 == "__vsprintf_internal" { print $5 }' "$tmp/lines.tsv" \
  | grep -qx "$(arc_of sprintf __vsprintf_internal)" \
  || fail "--hide=^sprintf$: main's calls of __vsprintf_internal: $(grep '__vsprintf_internal' "$tmp/lines.tsv")"
# gmon.out: scan_number, called by next_token alone, gives it its self time
exprparse="$data/gmon/exprparse"
"$cgcost" --executable="$exprparse/exprparse" --format=tsv "$exprparse/gmon.out" >"$tmp/g.tsv" || fail "cgcost gmon"
both=$(awk -F '\t' '$1 == "next_token" || $1 == "scan_number" { s += $3 } END { printf "%.2f", s }' "$tmp/g.tsv")
expect 0 "$cgtree" --executable="$exprparse/exprparse" --hide='^scan_number$' --threshold=0 --no-fold "$exprparse/gmon.out" \
  && parse_tree "$tmp/out" s >"$tmp/lines.tsv"
awk -F '\t' '$2 == "master" && $4 == "next_token" { print $6 }' "$tmp/lines.tsv" | grep -qx "$both" \
  || fail "--hide=^scan_number$ on gmon.out: next_token's self is not $both: $(grep next_token "$tmp/lines.tsv")"
grep -q "in proportion to their calls" "$tmp/out" || fail "--hide on gmon.out: no note"
# a flat profile: no function has 1 % of the self cost, and the callers
# tree still starts from the hottest (leaf_2000 and the others of 3
# samples), with a note
awk 'BEGIN { for (i = 1; i <= 2000; i++) print "main;caller_" (i % 50) ";leaf_" i, 1 + i % 3 }' >"$tmp/flat.folded"
expect 0 "$cgtree" --inverted "$tmp/flat.folded" && parse_tree "$tmp/out" samples >"$tmp/lines.tsv"
awk -F '\t' '$1 == 0 { n++; if ($6 != 3) bad = 1 } END { exit !(n > 0 && !bad) }' "$tmp/lines.tsv" \
  || fail "a flat profile's callers tree: roots $(awk -F '\t' '$1 == 0' "$tmp/lines.tsv" | head -3)"
grep -q "^No function has 1% of the self cost: the lines from 0.075%, the hottest one's share, are shown.$" "$tmp/out" \
  || fail "a flat profile's callers tree: no note: $(head -8 "$tmp/out")"
# --ignore needs the samples through a function, which a graph has not
expect 2 "$cgtree" --ignore=fib "$recdemo" && expect_message "--ignore needs a call tree"
expect 2 "$cgtree" --hide='(' "$folded"
expect 2 "$cgtree" --ignore=no_such_function "$folded" && expect_message "no function matches"
# --top=3: the three largest lines of the whole tree
expect 0 "$cgtree" --threshold=0 --no-fold "$recdemo" && parse_tree "$tmp/out" >"$tmp/lines.tsv"
cut -f 5 "$tmp/lines.tsv" | sort -rn | head -n 3 >"$tmp/want"
expect 0 "$cgtree" --top=3 --threshold=0 --no-fold "$recdemo" && parse_tree "$tmp/out" >"$tmp/lines.tsv"
cut -f 5 "$tmp/lines.tsv" | sort -rn >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || fail "--top=3: $(tr '\n' ' ' <"$tmp/got") not the largest $(tr '\n' ' ' <"$tmp/want")"
expect 2 "$cgtree" --top=-1 "$recdemo"
# --top=2 where a master's callees carry more than the call on its line
# (h, 70 in all, under f's line of 40): the lines a threshold can show
# are ranked by the least on their way from the root, so h's 70 does not
# raise the threshold over the 40 above it, which showed main alone
# (ninja's --top=5: 3 functions, do_syscall_64's 41.6 % under 27.1 %)
printf '%s\n' "main;a;f;h 30" "main;b;f;h 40" "main;c 25" >"$tmp/top.folded"
expect 0 "$cgtree" -b --no-fold --top=2 "$tmp/top.folded" && parse_tree "$tmp/out" samples >"$tmp/lines.tsv"
[ "$(cut -f 4 "$tmp/lines.tsv" | tr '\n' ' ')" = "main b f h " ] \
  || fail "--top=2 under a master: $(cut -f 4 "$tmp/lines.tsv" | tr '\n' ' ')"
# --top=4 where a chain of calls is joined on one line: four lines, the
# chain one of them (yaml-cpp's parser eight calls deep made --top=8 two)
printf 'main;a;b;c;d;e;f 100\nmain;x 30\nmain;y 20\nmain;z 10\nmain;w 5\n' >"$tmp/chain.folded"
expect 0 "$cgtree" -b --top=4 "$tmp/chain.folded" \
  && [ "$(sed 1d "$tmp/out" | sed 's/.*  //' | tr '\n' ';')" = 'main;|-a > b > c > d > e;| `-f;`-x;' ] \
  || fail "--top=4 over a joined chain: $(sed 1d "$tmp/out" | sed 's/.*  //' | tr '\n' ';')"
# --focus on a call graph: one root, the outermost of the matches (the
# man page's example: expr, which reaches term and factor), and the
# header says so
expect 0 "$cgtree" --focus='^(expr|term|factor)$' --threshold=0 --no-fold "$recdemo" && parse_tree "$tmp/out" >"$tmp/lines.tsv"
[ "$(awk -F '\t' '$1 == 0 { print $4 }' "$tmp/lines.tsv")" = expr ] || fail "--focus on a graph: roots $(awk -F '\t' '$1 == 0 { print $4 }' "$tmp/lines.tsv")"
grep -q 'The tree starts at the outermost of them, which reach the others: expr\.' "$tmp/out" || fail "--focus on a graph: no note"

# --root: the tree of one function, its total on top
expect 0 "$cgtree" --root=fib --threshold=0 --no-fold "$recdemo" && parse_tree "$tmp/out" >"$tmp/lines.tsv"
[ "$(head -n 1 "$tmp/lines.tsv" | cut -f 4,5)" = "$(printf 'fib\t1933543')" ] || fail "--root=fib: $(head -n 1 "$tmp/lines.tsv")"
grep -q '^Rooted at fib' "$tmp/out" || fail "--root=fib: no scope line"
expect 2 "$cgtree" --root=no_such_function "$recdemo" && expect_message "no such function"
expect 2 "$cgtree" --focus='[' "$recdemo" && expect_message "--focus=["
expect 2 "$cgtree" --focus=fib --root=fib "$recdemo"
expect 2 "$cgtree" --sort=size "$recdemo" && expect_message "--sort=size"
expect 2 "$cgtree" --color=sometimes "$recdemo"
# --focus on graph-only data: the chosen functions are the roots
expect 0 "$cgtree" --focus='^(expr|fib)$' --threshold=0 "$recdemo" && parse_tree "$tmp/out" >"$tmp/lines.tsv"
[ "$(awk -F '\t' '$1 == 0 { print $4 "=" $5 }' "$tmp/lines.tsv" | sort | tr '\n' ' ')" = "expr=600230 fib=1933543 " ] \
  || fail "--focus on a graph: roots $(awk -F '\t' '$1 == 0' "$tmp/lines.tsv")"
grep -q "no call tree" "$tmp/out" || fail "--focus on a graph does not say what it shows"

# --focus over a call tree (main -> a -> f -> a -> g, main -> g): by
# hand, a's profile is a 14 (its outer frame), f 12, g 5 under the inner
# a, nothing for main or g's other frame
cat >"$tmp/tree.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<cgtools version="1">
 <source format="folded" path="by-hand"/>
 <events><event name="samples" unit="samples" kind="integer"/></events>
 <objects><object id="0" name=""/></objects>
 <files><file id="0" name=""/></files>
 <functions>
  <function id="0" name="main" object="0" self="1"/>
  <function id="1" name="a" object="0" self="6"/>
  <function id="2" name="f" object="0" self="3"/>
  <function id="3" name="g" object="0" self="11"/>
 </functions>
 <arcs inclusive="no">
  <arc id="0" caller="0" callee="1" calls="0"/>
  <arc id="1" caller="1" callee="2" calls="0"/>
  <arc id="2" caller="2" callee="1" calls="0"/>
  <arc id="3" caller="1" callee="3" calls="0"/>
  <arc id="4" caller="0" callee="3" calls="0"/>
 </arcs>
 <tree>
  <frame id="0" function="0" self="1"/>
  <frame id="1" parent="0" function="1" self="2"/>
  <frame id="2" parent="1" function="2" self="3"/>
  <frame id="3" parent="2" function="1" self="4"/>
  <frame id="4" parent="3" function="3" self="5"/>
  <frame id="5" parent="0" function="3" self="6"/>
 </tree>
</cgtools>
EOF
validate "$tmp/tree.xml"
expect 0 "$cgtree" --focus='^a$' --threshold=0 "$tmp/tree.xml" && parse_tree "$tmp/out" samples >"$tmp/lines.tsv"
[ "$(cut -f 1,2,4,5,6 "$tmp/lines.tsv" | tr '\t\n' ' ;')" = "0 master a 14 6;1 master f 12 3;2 link a 0 ;1 master g 5 5;" ] \
  || fail "--focus over a tree: $(tr '\t\n' ' ;' <"$tmp/lines.tsv")"
grep -q '^ 100\.00 ' "$tmp/out" && grep -q "66.67% of the profile's 21 samples" "$tmp/out" \
  || fail "--focus over a tree: percentages are not of the focus"

# --event chooses the event; an event's scale gives its unit (gmon time
# is kept in ticks of 1/100 s): 200 ticks show as 2.00 seconds
cat >"$tmp/two-events.out" <<'EOF'
# callgrind format
version: 1
creator: by hand
events: Ir Dr
fn=main
1 10 1
cfn=work
calls=2 1
1 100 50
fn=work
1 100 50
totals: 110 51
EOF
expect 0 "$cgtree" --event=Dr --threshold=0 "$tmp/two-events.out" && parse_tree "$tmp/out" Dr >"$tmp/lines.tsv"
[ "$(cut -f 4,5,6 "$tmp/lines.tsv" | tr '\t\n' ' ;')" = "main 51 1;work 50 50;" ] \
  || fail "--event=Dr: $(tr '\t\n' ' ;' <"$tmp/lines.tsv")"
cat >"$tmp/scaled.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<cgtools version="1">
 <source format="gmon" path="by-hand"/>
 <events><event name="time" unit="seconds" kind="real" scale="0.01"/></events>
 <objects><object id="0" name=""/></objects>
 <files><file id="0" name=""/></files>
 <functions>
  <function id="0" name="main" object="0" self="50" spontaneous="200"/>
  <function id="1" name="work" object="0" self="150"/>
 </functions>
 <arcs inclusive="yes"><arc id="0" caller="0" callee="1" calls="3" inclusive="150"/></arcs>
</cgtools>
EOF
validate "$tmp/scaled.xml"
expect 0 "$cgtree" --threshold=0 "$tmp/scaled.xml" && parse_tree "$tmp/out" s >"$tmp/lines.tsv"
[ "$(cut -f 4,5,6 "$tmp/lines.tsv" | tr '\t\n' ' ;')" = "main 2.00 0.50;work 1.50 1.50;" ] \
  || fail "scaled event: $(tr '\t\n' ' ;' <"$tmp/lines.tsv")"
grep -q '2.00 s in all' "$tmp/out" || fail "scaled event: the header's total"
expect 0 "$cgtree" --format=dot "$tmp/scaled.xml" && grep -q '75.00%\\n1.50\\n3' "$tmp/out" \
  || fail "scaled event: the arc's label in dot"

# ---- colour: only on a terminal, never with NO_COLOR or TERM=dumb ----
esc=$(printf '\033')
expect 0 "$cgtree" --color=always "$recdemo" && grep -q "$esc\[" "$tmp/out" || fail "--color=always has no colour"
expect 0 env NO_COLOR=1 "$cgtree" --color=always "$recdemo" && grep -q "$esc\[" "$tmp/out" \
  || fail "--color=always must win over NO_COLOR"
expect 0 "$cgtree" --color=never "$recdemo" && grep -q "$esc" "$tmp/out" && fail "--color=never has colour"
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
  on_tty () { env "$@" script -qec "$cgtree --threshold=5 $recdemo" /dev/null </dev/null; }
  on_tty TERM=xterm >"$tmp/tty" 2>&1; grep -q "$esc\[" "$tmp/tty" || fail "no colour on a terminal"
  on_tty TERM=xterm NO_COLOR=1 >"$tmp/tty" 2>&1; grep -q "$esc\[" "$tmp/tty" && fail "colour despite NO_COLOR"
  on_tty TERM=dumb >"$tmp/tty" 2>&1; grep -q "$esc\[" "$tmp/tty" && fail "colour on a dumb terminal"
else
  echo "script(1) cannot make a terminal here: colour on a terminal not tested"
fi

# ---- dot: Graphviz accepts it; a box per function above the threshold ----
for profile in "$recdemo" "$cc1"; do
  name=$(basename "$profile")
  expect 0 "$cgtree" --format=dot --startup --threshold=1 --edge-threshold=0 "$profile" && cp "$tmp/out" "$tmp/graph.dot"
  "$cgcost" --format=tsv "$profile" >"$tmp/totals.tsv"
  "$cgcost" --format=tsv --arcs "$profile" >"$tmp/arcs.tsv"
  # the functions at 1 % or more that an arc joins to another one, and
  # those nobody calls (the roots)
  want=$(awk -F '\t' 'NR == FNR { if (FNR > 1) { all += $3; total[$1] = $4 } next }
                      FNR > 1 { called[$2] = 1; if ($1 != $2) { pair[$1] = pair[$1] SUBSEP $2; pair[$2] = pair[$2] SUBSEP $1 } }
                      END { for (f in total) if (100 * total[f] >= all) {
                              ok = !(f in called)
                              n_p = split (pair[f], other, SUBSEP)
                              for (i = 2; i <= n_p && !ok; i++) ok = 100 * total[other[i]] >= all
                              n += ok }
                            print n }' "$tmp/totals.tsv" "$tmp/arcs.tsv")
  got=$(grep -c '^  f[0-9]* \[label=' "$tmp/graph.dot")
  [ "$got" = "$want" ] || fail "$name: $got boxes in the dot graph, $want functions at 1% or more joined to another"
  if command -v dot >/dev/null 2>&1; then
    timeout 120 dot -Tsvg "$tmp/graph.dot" >"$tmp/graph.svg" 2>"$tmp/dot.err" && grep -q '<svg' "$tmp/graph.svg" \
      || fail "$name: dot -Tsvg refuses the graph: $(head -c 300 "$tmp/dot.err")"
  fi
done
command -v dot >/dev/null 2>&1 || echo "Graphviz is not installed: dot -Tsvg not tested"

# dot's two thresholds (gprof2dot's 0.5 % for boxes, 0.1 % for arrows by
# default), no box without an arrow but the roots', and arrow labels that
# read on white: WCAG 2's contrast ratio against #ffffff at least 4.5
for case in ":0.5:0.1" "--threshold=2 --edge-threshold=1:2:1"; do
  options=${case%%:*}
  rest=${case#*:}
  # shellcheck disable=SC2086
  expect 0 "$cgtree" --format=dot $options "$cc1" && cp "$tmp/out" "$tmp/graph.dot"
  expect 0 "$cgtree" --threshold=0 --max-depth=1 "$cc1" && parse_tree "$tmp/out" >"$tmp/roots.tsv"
  awk -v nodes="${rest%%:*}" -v edges="${rest#*:}" '
    function hex (h) { return index ("0123456789abcdef", tolower (h)) - 1 }
    function lin (c) { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ^ 2.4 }
    NR == FNR { root[$4] = 1; next }
    /^  f[0-9]+ \[label=/ {
      # the name may take several lines (long names wrap, an object goes
      # on a line of its own): it ends at the first percentage
      id = $1; name = $0; sub (/^[^"]*"/, "", name); sub (/\\n~?[0-9.]+%.*/, "", name); gsub (/\\n/, " ", name)
      pct = $0; match (pct, /\\n~?[0-9.]+%/); pct = substr (pct, RSTART + 2, RLENGTH - 3); sub (/^~/, "", pct)
      if (pct + 0 < nodes) { bad++; print "box " name " at " pct "%" }
      label[id] = name; boxes++
      next
    }
    /^  f[0-9]+ -> f[0-9]+ / {
      if ($1 == $3) next
      linked[$1] = linked[$3] = 1
      pct = $0; sub (/^[^"]*"~?/, "", pct); sub (/%.*/, "", pct)
      if (pct + 0 < edges) { bad++; print "arrow " $1 " -> " $3 " at " pct "%" }
      if (match ($0, /fontcolor="#[0-9a-f]+"/)) {
        c = substr ($0, RSTART + 12, 6)
        L = 0.2126 * lin(hex(substr (c, 1, 1)) * 16 + hex(substr (c, 2, 1))) \
          + 0.7152 * lin(hex(substr (c, 3, 1)) * 16 + hex(substr (c, 4, 1))) \
          + 0.0722 * lin(hex(substr (c, 5, 1)) * 16 + hex(substr (c, 6, 1)))
        if (1.05 / (L + 0.05) < 4.5) { bad++; print "arrow label #" c " on white: " 1.05 / (L + 0.05) }
      } else { bad++; print "arrow without a label colour" }
    }
    END {
      for (id in label) if (!(id in linked) && !(label[id] in root)) { bad++; print "box " label[id] " floats" }
      exit bad > 0 || boxes == 0
    }' "$tmp/roots.tsv" "$tmp/graph.dot" >"$tmp/why" || fail "cc1 dot $options: $(head -n 4 "$tmp/why")"
done
expect 2 "$cgtree" --format=dot --edge-threshold=101 "$cc1"

# ---- html: one page, nothing from outside, lighter than the XML ----
for profile in "$recdemo" "$cc1"; do
  name=$(basename "$profile")
  expect 0 "$cgtree" --format=html -o "$tmp/page.html" "$profile" || continue
  "$cgmerge" "$profile" >"$tmp/profile.xml"
  page=$(wc -c <"$tmp/page.html")
  xml=$(wc -c <"$tmp/profile.xml")
  echo "$name: page $page bytes, XML $xml bytes"
  [ "$page" -lt $((3 * xml)) ] || fail "$name: the page ($page bytes) is not under 3x the XML ($xml bytes)"
  grep -Eq 'https?:|<link|@import|url\(|src=' "$tmp/page.html" && fail "$name: the page refers to the outside"
  grep -q '<script id="cg-data" type="application/json">' "$tmp/page.html" || fail "$name: no data in the page"
done

# ---- callgrind: callgrind -> cgtools -> callgrind -> cgtools ----
annotate=${CALLGRIND_ANNOTATE:-}
for profile in "$data"/callgrind/*/callgrind.out.*; do
  name=$(basename "$profile")
  expect 0 "$cgcost" --format=callgrind -o "$tmp/again.out" "$profile" || continue
  [ -s "$tmp/err" ] && fail "$name: warnings writing callgrind: $(head -c 300 "$tmp/err")"
  for arcs in "" --arcs; do
    "$cgcost" --format=tsv $arcs "$profile" >"$tmp/first.tsv"
    "$cgcost" --format=tsv $arcs "$tmp/again.out" >"$tmp/second.tsv" || fail "$name: the callgrind output does not read"
    cmp -s "$tmp/first.tsv" "$tmp/second.tsv" || fail "$name $arcs: totals differ after the round trip"
  done
  # the other way a reader sums: self cost plus the calls' costs, which
  # callgrind_annotate takes for functions it finds uncalled, and for all
  # when it runs in the directory of the sources (it shortens fl= names
  # there, not cfi= names, so calls and blocks no longer match)
  "$cgcost" --format=tsv "$profile" >"$tmp/first.tsv"
  self_and_calls "$tmp/again.out" >"$tmp/sums.tsv"
  awk -F '\t' 'NR == FNR { if (FNR > 1) total[$1] = $4; next }
    ($1 in total) { n++; if (total[$1] != $2) { wrong++; if (wrong <= 5) print "  " $1 ": total " total[$1] ", self and calls " $2 } }
    END { exit !(n >= 40 && wrong == 0) }' "$tmp/first.tsv" "$tmp/sums.tsv" \
    || fail "$name: in the callgrind output, self cost plus calls is not each function's total"
  if [ -n "$annotate" ] && [ -x "$annotate" ]; then
    (cd "$tmp" && "$annotate" --inclusive=yes --threshold=100 --auto=no again.out) >"$tmp/annotate.txt" 2>"$tmp/err" \
      || fail "$name: callgrind_annotate refuses our output: $(head -c 300 "$tmp/err")"
    [ -s "$tmp/err" ] && fail "$name: callgrind_annotate warns: $(head -c 300 "$tmp/err")"
    "$cgcost" --format=tsv "$profile" >"$tmp/first.tsv"
    annotate_compare "$tmp/first.tsv" "$tmp/annotate.txt" || fail "$name: callgrind_annotate's inclusive totals differ"
  fi
done
[ -n "$annotate" ] || echo "callgrind_annotate is not installed: not compared"

# a context profile with mutual recursion: Spivey's arcs (per most recent
# activation) add up to more than a member's total, so the callgrind
# output carries the calls into outermost activations; the totals come
# back (in the stored unit, nanoseconds), and self plus calls is each one
amon="$data/amon/mutual/amon.out.mutual"
"$cgcost" --format=callgrind -o "$tmp/amon.out" "$amon" 2>"$tmp/err" || fail "amon: --format=callgrind"
grep -q 'arcs carry more than their total' "$tmp/err" && fail "amon: $(cat "$tmp/err")"
"$cgcost" --format=tsv "$amon" | awk -F '\t' 'NR > 1 { printf "%s\t%.0f\n", $1, $4 * 1e9 }' | sort >"$tmp/want"
"$cgcost" --format=tsv "$tmp/amon.out" | awk -F '\t' 'NR > 1 { print $1 "\t" $4 }' | sort >"$tmp/got"
[ "$(awk -F '\t' '$1 == "even" || $1 == "odd"' "$tmp/want" | wc -l)" -eq 2 ] \
  || fail "amon: no mutual recursion in the bundled profile"
cmp -s "$tmp/want" "$tmp/got" || fail "amon: totals differ after the callgrind round trip: $(diff "$tmp/want" "$tmp/got" | head -4)"
self_and_calls "$tmp/amon.out" | sort | join -t "$(printf '\t')" - "$tmp/want" \
  | awk -F '\t' '$2 != $3 { print "  " $0; bad = 1 } END { exit bad }' \
  || fail "amon: in the callgrind output, self cost plus calls is not each function's total"

# --focus over contexts: Spivey's focused profile, the focus's root at
# its whole total (odd is active in 98.24% of the profile's time)
"$cgtree" --quiet --focus='^odd$' "$amon" >"$tmp/focus.txt" || fail "amon: cgtree --focus"
grep -q "costs recomputed over the contexts (Spivey): 98.24% of the profile" "$tmp/focus.txt" \
  || fail "amon: --focus did not recompute over the contexts: $(sed -n 2p "$tmp/focus.txt")"
grep -q '^ 100.00 .* odd <cycle 1> \[1\]$' "$tmp/focus.txt" || fail "amon: --focus's root is not odd at 100%"
finish
