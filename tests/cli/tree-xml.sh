#!/bin/sh
# cgtree --format=xml: the document validates against formats/cgtree.rng;
# on the bundled real profiles of every source format its functions carry
# the self costs and totals cgcost's tsv prints, its nodes are Kaes's tree
# (one per root and per arc, one master per function, a parent before its
# children, each arc's cost and calls under its caller), and it lists the
# same nodes in the same order and depth as the text view.
. "${top_srcdir:-.}/tests/cli/common.sh"
recdemo="$data/callgrind/recdemo/callgrind.out.recdemo"
sqlite="$data/callgrind/sqlite3-cte/callgrind.out.sqlite3-cte"
cc1="$data/callgrind/gcc-cc1-pngtest/callgrind.out.cc1"
folded="$data/folded/recdemo.folded"
mutual="$data/amon/mutual/amon.out.mutual"
exprparse="$data/gmon/exprparse"
tree_schema="$top_srcdir/formats/cgtree.rng"

# tables XML — from a cgtree document, $tmp/functions.tsv (index, label
# as cgcost's tsv writes it, self, total, estimated, cycle, master node)
# and $tmp/nodes.tsv (index, parent, function, calls, value, kind,
# estimated, depth), values times the event's scale (the tsv's unit)
tables () {
  awk -F '\t' -v functions="$tmp/functions.tsv" -v nodes="$tmp/nodes.tsv" -v CONVFMT=%.17g -v OFMT=%.17g '
    BEGIN { nf = nn = 0 }
    function unescape (s) { gsub (/&lt;/, "<", s); gsub (/&gt;/, ">", s); gsub (/&amp;/, "\\&", s); return s }
    function attribute (line, name) {
      if (!match (line, " " name "=\"[^\"]*\"")) return ""
      return substr (line, RSTART + length (name) + 3, RLENGTH - length (name) - 4)
    }
    /^ *<event / { scale = attribute($0, "scale"); if (scale == "") scale = 1; next }
    /^ *<object / { object[attribute($0, "id")] = attribute($0, "name"); next }
    /<function-rows>/ { section = "f"; next }
    /<node-rows>/ { section = "n"; next }
    /<\/(function|node)-rows>/ { section = ""; next }
    section == "f" && $0 != "" {
      name[nf] = unescape($1); obj[nf] = $2; row[nf] = ($3 * scale) "\t" ($4 * scale) "\t" $5 "\t" $6 "\t" $7
      uses[name[nf]]++; nf++
    }
    section == "n" && $0 != "" {
      depth[nn] = $1 == "" ? 0 : depth[$1] + 1
      print nn "\t" $1 "\t" $2 "\t" $3 "\t" ($4 * scale) "\t" $5 "\t" $6 "\t" depth[nn] > nodes
      nn++
    }
    END {
      for (i = 0; i < nf; i++)
        print i "\t" name[i] (uses[name[i]] > 1 ? " [" object[obj[i]] "]" : "") "\t" row[i] > functions
    }' "$1"
  : >>"$tmp/functions.tsv"
  : >>"$tmp/nodes.tsv"
}

# check_tree NAME [INVERTED] — the tables against cgcost's $tmp/totals.tsv
# and $tmp/arcs.tsv
check_tree () {
  awk -F '\t' -v inverted="${2:-}" -v arcs="$(($(wc -l <"$tmp/arcs.tsv") - 1))" '
    function near (a, b) { d = a - b; if (d < 0) d = -d; return d <= 1e-9 * (a < 0 ? -a : a) + 1e-9 }
    FILENAME ~ /totals/ { if (FNR > 1) { self[$1] = $3; total[$1] = $4 } next }
    FILENAME ~ /arcs/ { if (FNR > 1) { calls[$1 SUBSEP $2] = $3; cost[$1 SUBSEP $2] = $4 } next }
    FILENAME ~ /functions/ {
      label[$1] = $2; n_functions++
      if (!($2 in total)) { bad++; print "function " $2 " is not in the tsv"; next }
      if (!near($3, self[$2]) || !near($4, total[$2])) { bad++; print $2 ": self, total " $3 ", " $4 " != " self[$2] ", " total[$2] }
      master[$1] = $7
      next
    }
    {
      f = label[$3]
      if ($2 == "") {
        roots++
        if ($4 != "") { bad++; print "root " $1 " has calls" }
        if (!near($5, total[f])) { bad++; print "root " f ": " $5 " != " total[f] }
      } else {
        if ($2 + 0 >= $1 + 0) { bad++; print "node " $1 " comes before its parent " $2 }
        g = label[fn[$2]]
        arc = inverted ? f SUBSEP g : g SUBSEP f
        if (!(arc in calls)) { bad++; print "node " $1 ": no arc between " g " and " f; next }
        if ($4 != calls[arc] && !($4 == "" && calls[arc] == 0)) { bad++; print "node " $1 ": calls " $4 " != " calls[arc] }
        if (!inverted && !near($5, cost[arc])) { bad++; print "node " $1 " " g " -> " f ": " $5 " != " cost[arc] }
      }
      fn[$1] = $3
      if ($6 == "master") { masters[$3]++; if (master[$3] != $1) { bad++; print f ": master " master[$3] " != node " $1 } }
      nodes++
    }
    END {
      if (n_functions != length (total)) { bad++; print n_functions " functions, the tsv has " length (total) }
      for (i in label) if (masters[i] != 1) { bad++; print label[i] " has " masters[i] + 0 " master nodes" }
      if (nodes != roots + arcs) { bad++; print nodes " nodes, " roots " roots, " arcs " arcs" }
      exit bad > 0
    }' "$tmp/totals.tsv" "$tmp/arcs.tsv" "$tmp/functions.tsv" "$tmp/nodes.tsv" >"$tmp/why" \
    || fail "$1 ${2:+inverted}: $(head -n 5 "$tmp/why")"
}

# check_callers NAME — the tables of a callers tree (--inverted) against
# cgcost's tsv: every function with self cost is a root, most self cost
# first, at its self cost; every other node is a share of its parent's
# (no more than it, and siblings together no more than it), and where it
# names an arc, the arc is the tsv's (node's function calling its
# parent's) with its calls
check_callers () {
  awk -F '\t' '
    function over (a, b) { return a > b + 1e-9 * (b < 0 ? -b : b) + 1e-9 }
    FILENAME ~ /totals/ { if (FNR > 1) { self[$1] = $3; if ($3 + 0 > 0) with_self++ } next }
    FILENAME ~ /arcs/ { if (FNR > 1) calls[$1 SUBSEP $2] = $3; next }
    FILENAME ~ /functions/ { label[$1] = $2; next }
    {
      f = label[$3]; value[$1] = $5; fn[$1] = $3
      if ($2 == "") {
        roots++
        if (over($5, self[f]) || over(self[f], $5)) { bad++; print "root " f ": " $5 " != self " self[f] }
        if (roots > 1 && over($5, last_root)) { bad++; print "root " f " (" $5 ") after a smaller root" }
        last_root = $5
        if ($7 == "~") { bad++; print "root " f " estimated" }
        next
      }
      if (over($5, value[$2])) { bad++; print "node " $1 " " f ": " $5 " above its parent " value[$2] }
      below[$2] += $5
      if (over(below[$2], value[$2])) { bad++; print "children of node " $2 " add up to more than it" }
      g = label[fn[$2]]
      if ($4 != "" && calls[f SUBSEP g] != $4) { bad++; print "node " $1 ": calls " $4 " != " calls[f SUBSEP g] }
    }
    END {
      if (roots != with_self) { bad++; print roots " roots, " with_self " functions with self cost" }
      exit bad > 0
    }' "$tmp/totals.tsv" "$tmp/arcs.tsv" "$tmp/functions.tsv" "$tmp/nodes.tsv" >"$tmp/why" \
    || fail "$1 inverted: $(head -n 5 "$tmp/why")"
}

# ---- every source format: Kaes's tree with cgcost's numbers ----
for case in "recdemo|$recdemo" "sqlite|$sqlite" "folded|$folded" "amon|$mutual" \
  "gmon|--executable=$exprparse/exprparse $exprparse/gmon.out"; do
  name=${case%%|*}
  args=${case#*|}
  # shellcheck disable=SC2086 # args holds an option and a file
  "$cgcost" --format=tsv $args >"$tmp/totals.tsv" && "$cgcost" --format=tsv --arcs $args >"$tmp/arcs.tsv" \
    || { fail "$name: cgcost"; continue; }
  for inverted in "" --inverted; do
    # the whole graph, start-up code too (--startup)
    # shellcheck disable=SC2086
    expect 0 "$cgtree" --format=xml --startup $inverted $args || continue
    "$validator" "$tree_schema" "$tmp/out" || fail "$name $inverted: not valid cgtree XML"
    grep -q "inverted=\"$([ -n "$inverted" ] && echo yes || echo no)\"" "$tmp/out" || fail "$name $inverted: inverted="
    tables "$tmp/out"
    if [ -n "$inverted" ]; then check_callers "$name"; else check_tree "$name"; fi
  done
done

# ---- the same lines as the text view, in the same order ----
for options in "--threshold=1" "--threshold=0.1 --sort=calls --max-depth=4" "--threshold=0 --sort=name" \
  "--threshold=1 --inverted" "--focus=^(expr|fib)$ --threshold=0" "--root=fib --threshold=0"; do
  # shellcheck disable=SC2086 # options are words
  expect 0 "$cgtree" --no-fold --no-demangle $options "$recdemo" && parse_tree "$tmp/out" >"$tmp/text.tsv"
  # shellcheck disable=SC2086
  expect 0 "$cgtree" --format=xml $options "$recdemo" && tables "$tmp/out"
  cut -f 1,5 "$tmp/text.tsv" >"$tmp/text.lines"
  cut -f 8,5 "$tmp/nodes.tsv" | awk -F '\t' '{ print $2 "\t" $1 }' >"$tmp/xml.lines"
  [ -s "$tmp/text.lines" ] && cmp -s "$tmp/text.lines" "$tmp/xml.lines" \
    || fail "$options: text and xml differ: $(diff "$tmp/text.lines" "$tmp/xml.lines" | head -n 4)"
  # and the same masters and links
  cut -f 2 "$tmp/text.tsv" >"$tmp/text.kinds"
  cut -f 6 "$tmp/nodes.tsv" | cmp -s - "$tmp/text.kinds" || fail "$options: masters and links differ from text"
done
grep -q '<scope>Rooted at fib: ' "$tmp/out" || fail "--root=fib: no scope element"
# --focus over a call tree: the focused profile's own tree
expect 0 "$cgtree" --no-fold --focus='^run_sort$' --threshold=0 "$folded" && parse_tree "$tmp/out" samples >"$tmp/text.tsv"
expect 0 "$cgtree" --format=xml --focus='^run_sort$' "$folded" && tables "$tmp/out"
"$validator" "$tree_schema" "$tmp/out" || fail "--focus on folded stacks: not valid"
[ "$(cut -f 1,5 "$tmp/text.tsv" | tr '\t\n' ' ;')" = "$(awk -F '\t' '{ printf "%s %s;", $8, $5 }' "$tmp/nodes.tsv")" ] \
  && [ "$(wc -l <"$tmp/nodes.tsv")" -gt 1 ] || fail "--focus on folded stacks: text and xml differ"
grep -q '<scope>Focus: 1 function matching' "$tmp/out" || fail "--focus on folded stacks: no scope element"
grep -q ' threshold="0" max-depth="0" sort="total"' "$tmp/out" || fail "--root=fib: view attributes"

# ---- estimates are marked, cycles numbered ----
expect 0 "$cgtree" --format=xml --method=gprof "$sqlite" && tables "$tmp/out"
"$validator" "$tree_schema" "$tmp/out" || fail "sqlite gprof: not valid"
grep -q ' method="gprof" ' "$tmp/out" || fail "sqlite gprof: method"
awk -F '\t' '$7 == "~" { n++ } END { exit n == 0 }' "$tmp/nodes.tsv" || fail "sqlite gprof: no node marked estimated"
"$cgcycles" --format=text --no-demangle "$sqlite" >"$tmp/cycles.txt" || fail "cgcycles --format=text"
# each member's cycle number, as cgcycles lists them
awk '/^<cycle [0-9]+>:/ { k = substr ($2, 1, length ($2) - 2) } /^    +[0-9,.]+  / { sub (/^ +[0-9,.]+  /, ""); print $0 "\t" k }' \
  "$tmp/cycles.txt" | unlabel | sort >"$tmp/members.text"
awk -F '\t' '$6 != "" { print $2 "\t" $6 }' "$tmp/functions.tsv" | sort >"$tmp/members.xml"
[ -s "$tmp/members.xml" ] && cmp -s "$tmp/members.text" "$tmp/members.xml" \
  || fail "sqlite: cycle members differ from cgcycles: $(diff "$tmp/members.text" "$tmp/members.xml" | head -n 4)"

# ---- names that need escaping, and a compiler-sized tree ----
printf 'main;a<b>&c 3\nmain;d 2\n' >"$tmp/markup.folded"
expect 0 "$cgtree" --format=xml "$tmp/markup.folded" && "$validator" "$tree_schema" "$tmp/out" \
  || fail "markup: not valid"
grep -q '^a&lt;b&gt;&amp;c	0	3	3' "$tmp/out" || fail "markup: $(grep 'c	0' "$tmp/out")"
"$cgcost" --format=tsv "$cc1" >"$tmp/totals.tsv" && "$cgcost" --format=tsv --arcs "$cc1" >"$tmp/arcs.tsv"
expect 0 "$cgtree" --format=xml --startup -o "$tmp/cc1.tree.xml" "$cc1" && "$validator" "$tree_schema" "$tmp/cc1.tree.xml" \
  || fail "cc1: not valid"
tables "$tmp/cc1.tree.xml"
check_tree cc1
finish
