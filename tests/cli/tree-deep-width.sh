#!/bin/sh
# cgtree's text at a width on a deep tree: a function's total "in all"
# ("(80.46% in all)", 16 columns) goes whole before the line's names are
# cut under 16 columns (CG_FIT_LINE_READABLE), and the header says so; the
# link marks ("[1]", "-> [1]") stay.  At 80 columns Tcl's deep lines,
# whose numbers take 46 columns, read "TclS…loc [5] (4.50% in all)" and
# "Tcl_…ces (395,874 Ir in all)", eight columns of name.  A synthetic
# tree twelve levels deep whose deepest function is called from a second
# caller too, and, where tclsh and valgrind are installed, tclsh's own
# callgrind profile of a recursive script.
. "${top_srcdir:-.}/tests/cli/common.sh"

awk 'BEGIN { s = "main"; for (i = 1; i <= 12; i++) { s = s ";level_" i "_dispatch"; print s ";side_" i " 1" }
             print s ";TclStackAllocWords 40"; print "main;other_caller;TclStackAllocWords 30"
             print "main;other_caller 5" }' >"$tmp/deep.folded"
# the line of TclStackAllocWords's master node: its name, its marks
expect 0 "$cgtree" --width=0 "$tmp/deep.folded" \
  && grep -q '|-TclStackAllocWords \[1\] (80\.46% in all)$' "$tmp/out" \
  || fail "--width=0: the mark in all: $(grep 'TclStack' "$tmp/out" | head -1)"
expect 0 "$cgtree" --width=200 "$tmp/deep.folded" \
  && grep -q '|-TclStackAllocWords \[1\] (80\.46% in all)$' "$tmp/out" \
  || fail "--width=200: the mark in all: $(grep 'TclStack' "$tmp/out" | head -1)"
expect 0 "$cgtree" --width=80 "$tmp/deep.folded" && cp "$tmp/out" "$tmp/w80"
awk 'length > 80 { print; bad = 1 } END { exit bad }' "$tmp/w80" >"$tmp/bad" || fail "--width=80: lines wider: $(head -2 "$tmp/bad")"
line=$(grep -v -e '-> \[1\]$' "$tmp/w80" | grep 'Tcl.*\[1\]')
name=$(echo "$line" | sed 's/.*[|`]-\(.*\) \[1\]$/\1/')
case "$name" in
  TclStac*) [ ${#name} -ge 16 ] || fail "--width=80: the name cut to ${#name} columns: $line" ;;
  *) fail "--width=80: TclStackAllocWords's master line: '$line'" ;;
esac
grep -q -- '-> \[1\]$' "$tmp/w80" || fail "--width=80: the link mark: $(grep 'TclStack' "$tmp/w80")"
sed -n '1,/^ *incl%/p' "$tmp/w80" | tr '\n' ' ' | grep -q 'left out where the width would cut the name short' \
  || fail "--width=80: the header does not say the mark in all may be left out"
expect 0 "$cgtree" --width=0 "$tmp/deep.folded" && ! grep -q 'left out where the width' "$tmp/out" \
  || fail "--width=0: the header speaks of a width"

# tclsh under callgrind: no name beside a mark in all is cut under 16
# columns, and no line that runs past 80 columns keeps one (before: 35 of
# 92 lines ran past 80 columns in the C locale, names such as "Tcl...ks
# [3] (70.03% in all)"; 5 do now, chains and links at their shortest)
if command -v tclsh >/dev/null 2>&1 && command -v valgrind >/dev/null 2>&1; then
  cat >"$tmp/deep.tcl" <<'TCL'
proc fib {n} { if {$n < 2} { return $n }; return [expr {[fib [expr {$n-1}]] + [fib [expr {$n-2}]]}] }
proc walk {d} { if {$d == 0} { return [fib 10] }; return [walk [expr {$d-1}]] }
set s 0
for {set i 0} {$i < 5} {incr i} { incr s [walk 30] }
puts $s
TCL
  if valgrind --tool=callgrind --callgrind-out-file="$tmp/tcl.out" tclsh "$tmp/deep.tcl" >"$tmp/tcl.log" 2>&1; then
    expect 0 "$cgtree" --width=80 "$tmp/tcl.out" && cp "$tmp/out" "$tmp/tcl80"
    # what still runs past 80 columns (a chain whose names are at their
    # shortest, "0xccf70 > Tcl...ny [5]", as the rules allow) has left out
    # its marks in all
    awk 'length > 80 && /in all\)$/ { print; bad = 1 } END { exit bad }' "$tmp/tcl80" >"$tmp/bad" \
      || fail "tclsh at 80 columns: lines wider with a mark in all: $(head -2 "$tmp/bad")"
    awk '/in all\)$/ && /[|`]-/ { s = $0; sub (/ \(~?[0-9.,]+[^()]* in all\)$/, "", s); sub (/ (-> )?\[[0-9]+\]$/, "", s)
           sub (/ <cycle [0-9]+>$/, "", s); n = split (s, part, /[|`]-/); name = part[n]
           if (index (name, "...") && length (name) < 16) { print; bad = 1 } } END { exit bad }' "$tmp/tcl80" >"$tmp/bad" \
      || fail "tclsh at 80 columns: names cut short beside a mark in all: $(head -3 "$tmp/bad")"
    echo "tclsh at 80 columns: $(grep -c 'in all)$' "$tmp/tcl80") lines keep their mark in all," \
      "$(grep -c '' "$tmp/tcl80") lines"
  else
    echo "tclsh under callgrind failed: $(tail -2 "$tmp/tcl.log")"
  fi
fi
finish
