#!/bin/sh
# Context profiles in gprof's layout (cgcost --format=gprof), as Spivey's
# aprof printed them: exact totals, caller lines with self2/child2 (the
# arc seen from the callee), callee lines with self1/child1 (seen from the
# caller), the other view noted where it prints differently.  Oracles:
#  - the programs' structure: call counts exactly;
#  - the programs' own CPU-clock measurement of what leaf took for each
#    caller (data/README for data/amon/mutual; data/programs/aprofdemo.c
#    prints it), within 2% or the layout's 0.01 s;
#  - gprof's own invariant, which exact data keep: an entry's caller lines
#    add up to its self and children columns, its callee lines to its
#    children column (within the rounding of the printed digits);
#  - the tsv contract's four arc times (tested against brute force in
#    test-amon): each line prints the pair its side calls for.
. "${top_srcdir:-.}/tests/cli/common.sh"

# check_graph REPORT — gprof's partition invariant on every entry
check_graph () {
  awk '
    function flush() {
      if (primary && nparents > 0 && !bare) {
        if (abs(ps - self) > 0.005 * (nparents + 1) + 1e-9 || abs(pc - kids) > 0.005 * (nparents + 1) + 1e-9)
          { printf "%s: callers add up to %.2f %.2f, not %.2f %.2f\n", name, ps, pc, self, kids; bad = 1 }
      }
      if (primary && nchildren > 0 && abs(cs - kids) > 0.005 * (2 * nchildren + 1) + 1e-9)
        { printf "%s: callees add up to %.2f, not %.2f\n", name, cs, kids; bad = 1 }
      primary = 0; nparents = nchildren = 0; ps = pc = cs = 0; bare = 0
    }
    function abs(x) { return x < 0 ? -x : x }
    /^index % time/ { graph = 1; next }
    !graph { next }
    /^Index by function name/ { graph = 0; next }
    /^-----/ { flush(); next }
    /^\[/ { primary = 1; self = $3; kids = $4; name = $0; next }
    $1 == "<spontaneous>" { bare = 1; next }
    $1 ~ /^[0-9]+\.[0-9][0-9]$/ {
      if (!primary) { nparents++; ps += $1; pc += $2 } else { nchildren++; cs += $1 + $2 }
    }
    END { exit bad }
  ' "$1" || fail "$1: the lines of an entry do not add up"
}

# check_views REPORT TSV — each arc line prints its side's pair (parents
# self2/child2, children self1/child1) and notes the other pair exactly
# when it prints differently
check_views () {
  awk -F '\t' -v report="$1" '
    FILENAME != report { if (FNR > 1) { s1[$1 "/" $2] = sprintf("%.2f %.2f", $5, $6);
                                        s2[$1 "/" $2] = sprintf("%.2f %.2f", $7, $8) } next }
    /^index % time/ { graph = 1; next }
    /^Index by function name/ { graph = 0 }
    !graph { next }
    /^-----/ { primary = ""; next }
    /^\[/ { n = split($0, f, " "); primary = f[n - 1]; next }
    {
      split($0, f, " ")
      if (f[1] !~ /^[0-9]+\.[0-9][0-9]$/ || f[3] !~ /\//) next
      other = f[4]
      shown = f[1] " " f[2]
      note = ""
      if (match($0, /\(self[12] [0-9.]+, child[12] [0-9.]+\)$/)) {
        split(substr($0, RSTART + 1, RLENGTH - 2), g, /[ ,]+/); note = g[2] " " g[4]
      }
      if (primary == "") next
      key = primary "/" other
      if (!(key in s1)) { print "no tsv row for " key; bad = 1; next }
      if (shown != s1[key]) { print key ": callee line shows " shown ", self1 child1 are " s1[key]; bad = 1 }
      if ((s1[key] != s2[key]) != (note != "") || (note != "" && note != s2[key]))
        { print key ": callee line notes \"" note "\", self2 child2 are " s2[key]; bad = 1 }
    }
    END { exit bad }
  ' "$2" "$1" || fail "$1: a callee line does not show Spivey's outgoing view"
  # caller lines: the incoming view, checked entry by entry
  awk -F '\t' -v report="$1" '
    FILENAME != report { if (FNR > 1) { s1[$1 "/" $2] = sprintf("%.2f %.2f", $5, $6);
                                        s2[$1 "/" $2] = sprintf("%.2f %.2f", $7, $8) } next }
    /^index % time/ { graph = 1; next }
    /^Index by function name/ { graph = 0 }
    !graph { next }
    /^-----/ { np = 0; next }
    /^\[/ {
      n = split($0, f, " "); callee = f[n - 1]
      for (i = 1; i <= np; i++) {
        key = caller[i] "/" callee
        if (!(key in s2)) { print "no tsv row for " key; bad = 1; continue }
        if (shown[i] != s2[key]) { print key ": caller line shows " shown[i] ", self2 child2 are " s2[key]; bad = 1 }
        if ((s1[key] != s2[key]) != (note[i] != "") || (note[i] != "" && note[i] != s1[key]))
          { print key ": caller line notes \"" note[i] "\", self1 child1 are " s1[key]; bad = 1 }
      }
      np = -1000000; next
    }
    np >= 0 {
      split($0, f, " ")
      if (f[1] !~ /^[0-9]+\.[0-9][0-9]$/ || f[3] !~ /\//) next
      np++; caller[np] = f[4]; shown[np] = f[1] " " f[2]; note[np] = ""
      if (match($0, /\(self[12] [0-9.]+, child[12] [0-9.]+\)$/)) {
        split(substr($0, RSTART + 1, RLENGTH - 2), g, /[ ,]+/); note[np] = g[2] " " g[4]
      }
    }
    END { exit bad }
  ' "$2" "$1" || fail "$1: a caller line does not show Spivey's incoming view"
}

# arc_line REPORT ENTRY OTHER SIDE — "self children count/total" of the
# line for OTHER in ENTRY's callers (SIDE=parent) or callees (child)
arc_line () {
  awk -v entry="$2" -v other="$3" -v side="$4" '
    /^index % time/ { graph = 1; next }
    !graph { next }
    /^-----/ { if (hit) exit; n = 0; next }
    /^\[/ { split($0, f, " "); m = split($0, g, " "); if (g[m - 1] == entry) { hit = 1;
              if (side == "parent") for (i = 1; i <= n; i++) if (name[i] == other) print line[i] }
            next }
    { split($0, f, " "); if (f[3] !~ /\//) next
      if (hit && side == "child" && f[4] == other) print f[1], f[2], f[3]
      if (!hit) { n++; name[n] = f[4]; line[n] = f[1] " " f[2] " " f[3] } }
  ' "$1"
}

# near X Y TOLERANCE — |X - Y| <= TOLERANCE
near () {
  awk -v x="$1" -v y="$2" -v t="$3" 'BEGIN { d = x - y; if (d < 0) d = -d; exit !(d <= t + 1e-9) }'
}

# ---- the bundled profile (data/amon/mutual) ----
mutual="$data/amon/mutual/amon.out.mutual"
"$cgcost" --format=gprof "$mutual" >"$tmp/mutual.gprof" || fail "cgcost --format=gprof on amon.out.mutual"
grep -q '^Times are exact, from [0-9]* contexts, in seconds\.$' "$tmp/mutual.gprof" || fail "mutual: no exact-times line"
grep -q '^granularity: exact times of [0-9]* contexts, 0.11 seconds in all$' "$tmp/mutual.gprof" \
  || fail "mutual: no exact granularity line"
"$cgcost" --method=exact --format=tsv --arcs "$mutual" >"$tmp/mutual.arcs"
check_graph "$tmp/mutual.gprof"
check_views "$tmp/mutual.gprof" "$tmp/mutual.arcs"
# the program's structure (data/README): 20 chains, 1,000 calls each way
for want in "main even child 20/1020" "even odd child 1000/1000" "odd even child 1000/1020" \
  "leaf even parent 1020/2020" "leaf odd parent 1000/2020"; do
  set -- $want
  got=$(arc_line "$tmp/mutual.gprof" "$1" "$2" "$3" | awk '{ print $3 }')
  [ "$got" = "$4" ] || fail "mutual: $1's $3 line for $2 counts '$got', the program made $4"
done
# what leaf took for each caller, as the program measured it (data/README)
got=$(arc_line "$tmp/mutual.gprof" leaf even parent | awk '{ print $1 }')
near "$got" 0.026671178 0.01 || fail "mutual: leaf from even shows $got s, the program measured 0.0267 s"
got=$(arc_line "$tmp/mutual.gprof" leaf odd parent | awk '{ print $1 }')
near "$got" 0.080733503 0.01 || fail "mutual: leaf from odd shows $got s, the program measured 0.0807 s"
# sections and options as in gprof; function specs are refused
"$cgcost" --format=gprof -p "$mutual" >"$tmp/p" && "$cgcost" --format=gprof -q "$mutual" >"$tmp/q" \
  || fail "cgcost --format=gprof -p / -q on context data"
# each led by the note of what libamon took out, and its blank line
drop_notes () { awk 'NR == 1 && /^Note/ { skip = 1 } skip { if ($0 == "") skip = 0; next } { print }' "$1"; }
for f in p q mutual.gprof; do
  head -1 "$tmp/$f" | grep -q '^Note (.*): instrumentation cost taken out' || fail "mutual: $f does not say what was taken out"
done
drop_notes "$tmp/mutual.gprof" >"$tmp/mutual.gprof.bare"
{ drop_notes "$tmp/p"; printf '\f\n'; drop_notes "$tmp/q"; } | cmp -s - "$tmp/mutual.gprof.bare" || fail "mutual: -p and -q are not the two sections"
expect 2 "$cgcost" --format=gprof -E leaf "$mutual" && expect_message "take none"
expect 1 "$cgcost" --format=gprof --method=exact "$data/callgrind/recdemo/callgrind.out.recdemo" \
  && expect_message "needs a context profile"
# gprof's own analysis of the same data stays available
"$cgcost" --format=gprof --method=gprof "$mutual" >"$tmp/estimate" || fail "--method=gprof on context data"
grep -q '<cycle 1 as a whole>' "$tmp/estimate" || fail "gprof's analysis of the contexts has no cycle"

# ---- a program profiled now ----
lib="$top_builddir/src/amon/libamon.la"
[ -f "$lib" ] || { echo "libamon was not built: no program profiled"; finish; }
LIBTOOL=${LIBTOOL:-"$top_builddir/libtool"}
${CC:-cc} -O1 -g -finstrument-functions -c -o "$tmp/aprofdemo.o" "$data/programs/aprofdemo.c" \
  || { echo "cannot compile aprofdemo: no program profiled"; finish; }
$LIBTOOL --mode=link --tag=CC ${CC:-cc} -static -o "$tmp/aprofdemo" "$tmp/aprofdemo.o" "$lib" -pthread \
  >"$tmp/link.log" 2>&1 || { cat "$tmp/link.log"; fail "linking aprofdemo"; finish; }

# one run with 10 chains; the profile's per-caller times of leaf must be
# the program's measurement (2%, or the 0.01 s the layout prints); a
# loaded machine may make one run miss, so up to three are made
accurate=no
for try in 1 2 3; do
  (cd "$tmp" && AMON_OUT="$tmp/demo.out" ./aprofdemo 10 >"$tmp/demo.stdout") || { fail "aprofdemo failed"; break; }
  "$cgcost" --format=gprof "$tmp/demo.out" >"$tmp/demo.gprof" || fail "cgcost --format=gprof on aprofdemo"
  ok=yes
  for k in "even 1" "odd 2" "often 3"; do
    set -- $k
    got=$(arc_line "$tmp/demo.gprof" leaf "$1" parent | awk '{ print $1 }')
    truth=$(awk -v k="$2" '{ printf "%.6f", $k / 1e9 }' "$tmp/demo.stdout")
    tol=$(awk -v t="$truth" 'BEGIN { x = 0.02 * t; printf "%.6f", (x > 0.0101 ? x : 0.0101) }')
    near "$got" "$truth" "$tol" || { ok=no; echo "run $try: leaf from $1 shows $got s, the program measured $truth s"; }
  done
  [ $ok = yes ] && { accurate=yes; break; }
done
[ $accurate = yes ] || fail "aprofdemo: leaf's caller lines do not carry what the program measured (three runs)"

"$cgcost" --method=exact --format=tsv --arcs "$tmp/demo.out" >"$tmp/demo.arcs"
check_graph "$tmp/demo.gprof"
check_views "$tmp/demo.gprof" "$tmp/demo.arcs"
for want in "main even child 10/260" "main often child 10000/10000" "even odd child 250/250" \
  "odd even child 250/260" "leaf even parent 260/10510" "leaf odd parent 250/10510" \
  "leaf often parent 10000/10510"; do
  set -- $want
  got=$(arc_line "$tmp/demo.gprof" "$1" "$2" "$3" | awk '{ print $3 }')
  [ "$got" = "$4" ] || fail "aprofdemo: $1's $3 line for $2 counts '$got', the program made $4"
done
# mutual recursion: the arcs between even and odd are seen differently
# from their two ends; leaf's arcs are not
grep -q '  odd \[[0-9]*\]  (self[12] ' "$tmp/demo.gprof" || fail "aprofdemo: no note on an arc between even and odd"
if grep ' leaf \[[0-9]*\]  (self' "$tmp/demo.gprof" >/dev/null; then
  fail "aprofdemo: an arc into leaf, which never recurses, has two views"
fi
# gprof's estimate of the same data hands leaf's time out by calls: often
# gets most of it, though the program measured little
"$cgcost" --format=gprof --method=gprof "$tmp/demo.out" >"$tmp/demo.estimate" || fail "--method=gprof on aprofdemo"
est=$(arc_line "$tmp/demo.estimate" leaf often parent | awk '{ print $1 }')
truth=$(awk '{ printf "%.6f", $3 / 1e9 }' "$tmp/demo.stdout")
awk -v e="$est" -v t="$truth" 'BEGIN { exit !(e > 5 * t) }' \
  || fail "aprofdemo: gprof's estimate of leaf from often ($est s) is not far from the truth ($truth s)"
# through the pipeline, with the costs in the document: the same report
"$cgmerge" "$tmp/demo.out" | "$cgcycles" | "$cgcost" --method=exact >"$tmp/demo.xml" || fail "pipeline"
validate "$tmp/demo.xml"
"$cgcost" --format=gprof "$tmp/demo.xml" | cmp -s - "$tmp/demo.gprof" || fail "aprofdemo: the pipeline's report differs"
# a collapsed cycle is one function with its exact total, even's
"$cgmerge" "$tmp/demo.out" | "$cgcycles" --collapse | "$cgcost" --format=gprof >"$tmp/collapsed.gprof" \
  || fail "collapsed"
check_graph "$tmp/collapsed.gprof"
cycle=$(awk '/^\[/ && / <cycle 1> \[/ { print $4 + $3 }' "$tmp/collapsed.gprof")
even=$(awk '/^\[/ && / even \[/ { print $4 + $3 }' "$tmp/demo.gprof")
near "$cycle" "$even" 0.011 || fail "collapsed: <cycle 1> totals $cycle, even $even"
finish
