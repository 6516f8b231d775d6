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
# sampled stacks count no calls: a cycle they went round 8 times in 10
# samples is not "entered 0 times from outside, 0 calls between members"
# (perf record -g of pugixml's XPath read so); the arcs say how
printf 'main;a;b;a 5\nmain;a 3\nmain;c 2\n' >"$tmp/cycle.folded"
expect 0 "$cgcycles" --format=text "$tmp/cycle.folded" \
  && grep -qx '  entered through 1 arc from outside, 2 arcs between members (no call counts: sampled stacks)' "$tmp/out" \
  || fail "cgcycles on sampled stacks: $(cat "$tmp/out")"
# the members' self costs are a column, right-aligned, whatever their
# magnitudes (GNU make's $(call) cycle: 20.00 above 0.00 left the names
# ragged): a 1500 + 200 + 3 samples, b 5, c none, the names in one column
printf 'main;a;b;a 1500\nmain;a;b 5\nmain;a;c;a 3\nmain;a 200\n' >"$tmp/members.folded"
expect 0 "$cgcycles" --format=text "$tmp/members.folded" \
  && [ "$(grep '^    ' "$tmp/out")" = "$(printf '    1,703  a\n        5  b\n        0  c')" ] \
  || fail "cgcycles' members are not a right-aligned column: $(cat "$tmp/out")"
# dot: no label; html: no explanation of the lines or the keys
expect 0 "$cgtree" -b --format=dot "$recdemo" && grep -q 'label="cgtree:' "$tmp/out" && fail "cgtree -b --format=dot has the label"
expect 0 "$cgtree" --format=dot "$recdemo" && grep -q 'label="cgtree:' "$tmp/out" || fail "cgtree --format=dot lost its label"
expect 0 "$cgtree" -b --format=html "$recdemo" && grep -q -e 'Each line:' -e 'Keys:' "$tmp/out" && fail "cgtree -b --format=html explains"

# ---- calls: sampled stacks count none, and show none, not "0 calls" ----
printf 'main;a;b 5\nmain;a 3\nmain;c 2\n' >"$tmp/calls.folded"
expect 0 "$cgcost" --format=text "$tmp/calls.folded" && grep -qx 'Calls: not counted (sampled stacks record calls, not how many): the calls columns are empty' "$tmp/out" \
  || fail "cgcost text of sampled stacks does not say its calls are not counted: $(head -5 "$tmp/out")"
sed -n '/^  %self/,/^$/p' "$tmp/out" | grep -E '^ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9,]+ +[a-z]+$' \
  && fail "cgcost text of sampled stacks shows call counts: $(cat "$tmp/out")"
[ "$(sed -n '/^  %self/,/^$/p' "$tmp/out" | grep -cE '^ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[a-z]+$')" = 4 ] \
  || fail "cgcost text of sampled stacks: not four functions without calls: $(cat "$tmp/out")"
# a profile that counts them shows them (callgrind's)
expect 0 "$cgcost" --format=text "$recdemo" && ! grep -q '^Calls:' "$tmp/out" \
  && sed -n '/^  %self/,/^$/p' "$tmp/out" | grep -qE '^ +[0-9.]+ +[0-9,.]+ +[0-9.]+ +[0-9,.]+ +[1-9][0-9,]* ' \
  || fail "cgcost text of callgrind's counted calls: $(head -12 "$tmp/out")"

# ---- units: times in s, ms, µs or ns, three significant digits or more ----
# amon's nanoseconds: the 0.109 s profile reads in ms, each root's total
# the tsv's seconds times 1000
"$cgcost" --format=tsv "$amon" >"$tmp/amon.tsv"
expect 0 "$cgtree" -b --threshold=0 "$amon" && parse_tree "$tmp/out" ms >"$tmp/lines.tsv"
# (the notes of what libamon took out above them, which -b keeps)
notes "$tmp/out" | sed -n 2p | grep -q 'incl ms self ms' || fail "amon in ms: $(head -1 "$tmp/out")"
notes "$tmp/out" | head -1 | grep -q '^Note (.*): instrumentation cost taken out' || fail "amon -b: no note: $(head -1 "$tmp/out")"
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

# ---- the call graph's order: gprof's ----
# callers in increasing order of the cost their calls carried (the
# largest next to the function), callees in decreasing order, as gprof
# lists them, where the arcs' own order put ninja's 0.93 s callee
# between ones of 0.32 s and 0.01 s among two hundred, and leaf's
# callers largest first
printf '%s\n' "main;alpha 1" "main;beta 5" "main;gamma 3" "main;beta;leaf 4" "main;gamma;leaf 2" "main;alpha;leaf 1" \
  >"$tmp/order.folded"
expect 0 "$cgcost" --format=text -b "$tmp/order.folded"
# the lines of an entry: what follows its [n] line up to the next rule
entry_lines () { awk -v f="$1" '/^-----/ { blk = ""; next } { blk = blk $0 "\n" }
                                /^\[[0-9]+\]/ && $NF ~ /^\[/ && $(NF - 1) == f { print blk; exit }' "$tmp/out"; }
callees=$(awk '/^\[[0-9]+\]/ && $(NF - 1) == "main" { on = 1; next } /^-----/ { on = 0 } on { printf "%s ", $(NF - 1) }' "$tmp/out")
[ "$callees" = "beta gamma alpha " ] || fail "cgcost text: main's callees in the order '$callees', not by cost decreasing"
callers=$(entry_lines leaf | awk '!/^\[/ && NF >= 2 { printf "%s ", $(NF - 1) }')
[ "$callers" = "alpha gamma beta " ] || fail "cgcost text: leaf's callers in the order '$callers', not by cost increasing"

# ---- names that fit: --strip, --width, dot's wrapped labels ----
# C++ names as libiberty prints them; what gprof2dot's -s leaves, by hand
cat >"$tmp/cxx.folded" <<'EOF'
main;void std::vector<int, std::allocator<int> >::push_back(int const&) 40
main;std::ostream& std::operator<< <std::char_traits<char> >(std::ostream&, char const*) 30
main;Foo::operator()(int) const 20
main;(anonymous namespace)::bar(int) 10
main;bool operator<(Foo const&, Foo const&) 5
main;void std::__sort<__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > >, __gnu_cxx::__ops::_Iter_less_iter>(__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > >, __gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > >, __gnu_cxx::__ops::_Iter_less_iter) 3
EOF
printf '%s\n' main "void std::vector::push_back" "std::ostream& std::operator<<" "Foo::operator()" \
  "(anonymous namespace)::bar" "bool operator<" "void std::__sort" | sort >"$tmp/want"
expect 0 "$cgtree" --strip -b --threshold=0 --no-fold "$tmp/cxx.folded" && parse_tree "$tmp/out" samples | cut -f 4 | sort >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || fail "--strip: $(diff "$tmp/want" "$tmp/got")"
expect 0 "$cgtree" -f dot --strip "$tmp/cxx.folded" && grep -q 'label="void std::__sort\\n' "$tmp/out" || fail "dot --strip"
# without --strip, dot's labels wrap at 40 characters
expect 0 "$cgtree" -f dot "$tmp/cxx.folded"
grep '^  f[0-9]* \[label=' "$tmp/out" | grep -o 'label="[^"]*"' | sed 's/\\n/\n/g' | awk 'length > 48 { print; bad = 1 } END { exit bad }' \
  || fail "dot: a label line wider than 40 characters"
grep -q '_Iter_less_iter' "$tmp/out" || fail "dot: the wrapped name lost its end"
# --width: every line fits, a C++ name cut keeps the function's own name,
# its template arguments and parameter list out first ("<...>", "(...)"),
# where a cut in the middle read "void std::_...er_less_iter)"
expect 0 "$cgtree" --width=70 --threshold=0 "$tmp/cxx.folded"
awk 'length > 70 { print; bad = 1 } END { exit bad }' "$tmp/out" || fail "--width=70: lines wider"
grep -q '^.* `-\.\.\.std::__sort<\.\.\.>(\.\.\.)$' "$tmp/out" \
  || fail "--width=70: the cut name: $(grep __sort "$tmp/out")"
# a pipe: no limit, the names whole
expect 0 "$cgtree" --threshold=0 "$tmp/cxx.folded" && grep -q '__normal_iterator<int\*, std::vector<int, std::allocator<int> > >, __gnu_cxx::__ops::_Iter_less_iter)$' "$tmp/out" \
  || fail "a pipe cut the names"
# a terminal 60 columns wide: lines fit it
if command -v script >/dev/null; then
  script -qc "stty cols 60 rows 50; '$cgtree' --color=never --threshold=0 '$tmp/cxx.folded'" /dev/null >"$tmp/tty" 2>&1
  tr -d '\r' <"$tmp/tty" | awk 'length > 60 { print; bad = 1 } END { exit bad }' || fail "a 60-column terminal: lines wider"
  tr -d '\r' <"$tmp/tty" | grep -q '`-\.\.\.\(std::\)\{0,1\}__sort[.<(]' || fail "a 60-column terminal: no tree: $(head -3 "$tmp/tty")"
fi
expect 2 "$cgtree" --width=-5 "$tmp/cxx.folded" && expect_message "--width=-5"
# --width where the marks leave the names little room (an interpreter's
# tree, as Tcl's is at 80 columns): a mark is never cut, whatever the
# width (a cut made "getVacantSS ....25% in all)" and "TclpAlloc... in
# all)" of "(2.25% in all)"); a joined chain loses whole functions from
# its middle, its ends whole where they fit (a cut across names made
# "main > Tcl_...> TclEvalEx")
cat >"$tmp/fit.folded" <<'EOF'
main;interpreter_run;dispatch_command;prepare_arguments;execute_bytecode;hash_table_lookup;string_from_object 50
main;interpreter_run;dispatch_command;prepare_arguments;execute_bytecode;hash_table_lookup 20
main;interpreter_run;format_command;string_from_object 30
main;interpreter_run;format_command 5
EOF
expect 0 "$cgtree" -b "$tmp/fit.folded" && cp "$tmp/out" "$tmp/fit.full"
grep -q '\[1\] (76.19% in all)$' "$tmp/fit.full" || fail "the full tree lacks its marks: $(cat "$tmp/fit.full")"
# line_marks FILE — per line, its link mark and its total in all, "|"
# between them (either empty)
line_marks () {
  all=' (~\{0,1\}[0-9.]*% in all)'
  sed -e "s/.* -> \(\[[0-9]*\]\)\($all\)\{0,1\}\$/-> \1|\2/" -e t \
      -e "s/.* \(\[[0-9]*\]\)\($all\)\{0,1\}\$/\1|\2/" -e t -e "s/.*\($all\)\$/|\1/" -e t -e 's/.*/|/' "$1"
}
line_marks "$tmp/fit.full" >"$tmp/fit.want"
# a mark is whole or, a total in all where the width would cut the name
# short (tests/cli/tree-deep-width.sh), gone; a link mark never goes
for w in 40 50 60 70 80 90; do
  expect 0 "$cgtree" -b --width=$w "$tmp/fit.folded"
  [ "$(wc -l <"$tmp/out")" -eq "$(wc -l <"$tmp/fit.full")" ] || fail "--width=$w: other lines"
  line_marks "$tmp/out" | paste -d '\n' "$tmp/fit.want" - | paste - - \
    | awk -F '\t' '{ split ($1, want, "|"); split ($2, got, "|")
                     if (want[1] != got[1] || (got[2] != "" && got[2] != want[2])) { print; bad = 1 } }
                   END { exit bad }' >"$tmp/fit.bad" || fail "--width=$w: marks cut: $(head -4 "$tmp/fit.bad")"
done
expect 0 "$cgtree" -b --width=90 "$tmp/fit.folded"
grep -q -e '|-dispatch_command > \.\.\. > execute_bytecode$' -e '|-dispatch_command > … > execute_bytecode$' "$tmp/out" \
  || fail "--width=90: the chain: $(grep dispatch "$tmp/out")"
awk 'length > 90 { print; bad = 1 } END { exit bad }' "$tmp/out" || fail "--width=90: lines wider"
# a C++ name too wide loses the middle of its parameter list where that
# is enough, its function's name whole (ninja's tree at 100 columns read
# "Builder::FinishCommand...d::allocator<char> >*)" and
# "Plan::EdgeFin...tor<char> >*)")
printf '%s\n' 'main;Builder::FinishCommand(CommandRunner::Result*, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >*) 10' \
  'main;other 10' >"$tmp/params.folded"
expect 0 "$cgtree" -b --width=80 "$tmp/params.folded"
awk 'length > 80 { print; bad = 1 } END { exit bad }' "$tmp/out" || fail "--width=80: lines wider"
grep -q -e '-Builder::FinishCommand(.*\(\.\.\.\|…\).*>\*)$' "$tmp/out" \
  || fail "--width=80: the C++ name: $(grep -e '-Builder' "$tmp/out")"
# where the parameter list cannot give all that must go, it goes whole
# and what stands before the function's own name loses its middle:
# tinyxml2 9.0's tree at 80 columns read "tinyxml2:...r const*) >
# tinyxml2:...IO_FILE*)" for LoadFile's two overloads and
# "tinyxml2::XMLEl...es(char*, int*)", no function named at all
printf '%s\n' 'main;tinyxml2::XMLDocument::LoadFile(char const*);tinyxml2::XMLNode::ParseDeep(char*, tinyxml2::StrPair*, int*);tinyxml2::XMLElement::ParseAttributes(char*, int*) 10' \
  'main;tinyxml2::XMLDocument::LoadFile(char const*);tinyxml2::XMLNode::ParseDeep(char*, tinyxml2::StrPair*, int*);tinyxml2::XMLElement::ParseDeep(char*, tinyxml2::StrPair*, int*) 10' \
  'main;tinyxml2::XMLDocument::LoadFile(char const*);tinyxml2::XMLNode::ParseDeep(char*, tinyxml2::StrPair*, int*);tinyxml2::StrPair::GetStr() 10' \
  'main;other 10' >"$tmp/own.folded"
expect 0 "$cgtree" -b --width=70 "$tmp/own.folded"
awk 'length > 70 { print; bad = 1 } END { exit bad }' "$tmp/out" || fail "--width=70: lines wider"
for f in 'ParseAttributes(\.\.\.)' '::ParseDeep(\.\.\.)' '::GetStr()'; do
  grep -q -e "-.*$f\$" "$tmp/out" || fail "--width=70: no $f: $(cat "$tmp/out")"
done
# a name in two objects shows its object (file name) in dot, on its own line
expect 0 "$cgtree" --startup -f dot "$recdemo" && grep -q 'label="(below main)\\n\[libc.so.6\]\\n' "$tmp/out" \
  || fail "dot: an ambiguous name without its object: $(grep 'below main' "$tmp/out")"
finish
