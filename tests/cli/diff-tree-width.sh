#!/bin/sh
# cgtree --base at a width leaves the self cost to self%, so that the
# change column does not take the names' room: at 80 columns the
# difference's numbers took 60 columns of callgrind's profile of Lua 5.4
# (-O0 against -O2), 44 of its 71 lines ran past 80, and luaD_pcall and
# luaD_precall both read "luaD…all".  Two callgrind runs of
# data/programs/tree-width.c made at test time (six levels of names of 16
# to 21 characters): at 80 columns every line of the program's functions
# without a mark "in all" shows its names whole (each one of the tsv's
# functions), and each line's numbers are those of the same line of the
# whole view (--width=0), which keeps the self cost column.
. "${top_srcdir:-.}/tests/cli/common.sh"
command -v valgrind >/dev/null 2>&1 || skip "no valgrind"
${CC:-cc} -O1 -g -o "$tmp/prog" "$top_srcdir/data/programs/tree-width.c" || skip "no C compiler"
for n in 100 150; do
  valgrind -q --tool=callgrind --callgrind-out-file="$tmp/cg$n.out" "$tmp/prog" $n >/dev/null 2>&1 \
    || skip "valgrind cannot run the program"
done
"$cgcost" --format=tsv "$tmp/cg150.out" | cut -f 1 >"$tmp/names"

expect 0 "$cgtree" --base="$tmp/cg100.out" --width=80 --color=never "$tmp/cg150.out" && cp "$tmp/out" "$tmp/w80"
expect 0 "$cgtree" --base="$tmp/cg100.out" --width=0 --color=never "$tmp/cg150.out" && cp "$tmp/out" "$tmp/whole"
# the program's lines: the first after the titles, as many as the whole
# view has naming level* or leaf* (at 80 columns a cut name may not)
after () { sed -n '/^ *incl% /,$p' "$1" | sed 1d; }
after "$tmp/whole" | grep -E 'level|leaf' >"$tmp/whole.lines"
after "$tmp/w80" | head -n "$(wc -l <"$tmp/whole.lines")" >"$tmp/w80.lines"
[ "$(wc -l <"$tmp/w80.lines")" -ge 15 ] || fail "too few lines of the program: $(cat "$tmp/w80")"
# names: the text after the tree art, less "-> [n]", "[n]" and "(... in all)"
# (from the column of the title "function" on, less the tree's art)
at=$(grep '^ *incl% ' "$tmp/w80" | awk '{ print index ($0, "function") }')
grep -v 'in all)' "$tmp/w80.lines" | cut -c "$at"- | sed -E 's/^[| ]*([|`]-)?//' \
  | sed -E 's/ *(-> )?\[[0-9]+\]$//' | tr -s ' ' '\n' | grep -v '^>$' | grep -v '^$' | sort -u >"$tmp/shown"
grep -qx level5_table_ops "$tmp/shown" || fail "the names' oracle: $(cat "$tmp/shown")"
bad=$(grep -vxF -f "$tmp/names" "$tmp/shown" | tr '\n' ' ')
[ -z "$bad" ] || fail "names cut at 80 columns: $bad: $(grep -v 'in all)' "$tmp/w80.lines" | head -20)"
# the numbers: incl%, self%, incl and change as the whole view's, line by
# line (the whole view's self cost column is left out)
awk '{ print $1, $2, $3, $4 }' "$tmp/w80.lines" >"$tmp/n80"
awk '{ print $1, $2, $3, $4 }' "$tmp/whole.lines" >"$tmp/nwhole"
cmp -s "$tmp/n80" "$tmp/nwhole" || fail "numbers differ from the whole view's: $(diff "$tmp/nwhole" "$tmp/n80" | head -6)"
grep -q '^  incl%   self% .* change calls  function$' "$tmp/w80" || fail "titles at 80 columns: $(grep 'incl%' "$tmp/w80")"
grep -q 'self%' "$tmp/whole" && grep -q ' self Ir ' "$tmp/whole" || fail "the whole view lost its self cost: $(grep 'incl%' "$tmp/whole")"
grep -q 'The self cost shows as self% alone' "$tmp/w80" || fail "the header does not say where the self cost went"
# without --base the self cost stays at any width
expect 0 "$cgtree" --width=80 "$tmp/cg150.out"
grep -q ' self Ir ' "$tmp/out" || fail "without --base: no self cost column: $(grep 'incl%' "$tmp/out")"
finish
