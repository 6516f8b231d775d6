#!/bin/sh
# cgtree --format=svg: a flame graph of the tree the text view shows.  On
# profiles made at test time (callgrind of a small recursive C program,
# and its gmon.out, whose estimates the text marks "~"), the oracle is
# the text view at the same threshold (--no-fold: one line per node):
# one box per line in the same order, each box as wide as its line's
# incl share (times the scale its tooltip states, where a function's
# callees carry more than the call below them), every box within its
# parent's extent, the same "~" marks.  The file parses (xmllint) and is
# valid against the SVG 1.1 DTD where w3c-sgml-lib provides it; hostile
# names (folded stacks with "<script>", "&", quotes, invalid UTF-8) come
# out escaped.
. "${top_srcdir:-.}/tests/cli/common.sh"
command -v xmllint >/dev/null || skip "no xmllint"
dtd=/usr/share/xml/w3c-sgml-lib/schema/dtd/REC-SVG11-20110816/svg11.dtd
cc=${CC:-cc}
width=1200

cat >"$tmp/rec.c" <<'CEOF'
#include <stdlib.h>
volatile long sink;
__attribute__ ((noinline)) long leaf (long n) { long s = 0; for (long i = 0; i < n; i++) s += i * i; return s; }
__attribute__ ((noinline)) long fib (int n) { return n < 2 ? leaf (60) : fib (n - 1) + fib (n - 2); }
long odd (int n);
__attribute__ ((noinline)) long even (int n) { return n == 0 ? leaf (3000) : odd (n - 1); }
__attribute__ ((noinline)) long odd (int n) { return n == 0 ? leaf (900) : even (n - 1); }
__attribute__ ((noinline)) long shared (void) { return leaf (4000); }
__attribute__ ((noinline)) long alpha (void) { long s = 0; for (int i = 0; i < 150; i++) s += shared (); return s; }
__attribute__ ((noinline)) long beta (void) { long s = 0; for (int i = 0; i < 60; i++) s += shared () + even (i % 7); return s; }
int main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 1;
  for (int r = 0; r < rounds; r++)
    {
      sink += fib (16) + alpha () + beta ();
      for (int i = 0; i < 200; i++)
        sink += even (i % 9);
    }
  return 0;
}
CEOF

# boxes SVG — one row per box of the file, "all" first: depth (-1 for
# "all"), x, width, incl% (its tooltip's), "~" or "-", the scale its
# tooltip states (1 where none), and its label, tab-separated
boxes () {
  awk -v bottom_row=16 '
    /^<g class="f/ {
      line = $0
      match (line, /<title>[^&<]*/); label = substr (line, RSTART + 7, RLENGTH - 7)
      match (line, / x="[0-9.]+"/); x = substr (line, RSTART + 4, RLENGTH - 5)
      match (line, / y="[0-9.]+"/); y = substr (line, RSTART + 4, RLENGTH - 5)
      match (line, / width="[0-9.]+"/); w = substr (line, RSTART + 8, RLENGTH - 9)
      est = index (line, "&#10;incl: ~") ? "~" : "-"
      pct = 100
      if (match (line, /&#10;incl: ~?[0-9.]+%/)) { pct = substr (line, RSTART + 11, RLENGTH - 12); sub (/^~/, "", pct) }
      scale = 1
      if (match (line, /drawn at [0-9.]+%/)) scale = substr (line, RSTART + 9, RLENGTH - 10) / 100
      if (line ~ /class="f all"/) base = y
      printf "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", (base - y) / 16 - 1, x, w, pct, est, scale, label
    }' "$1"
}

# check NAME TEXT SVG — the flame graph SVG against the text view TEXT
# (--no-fold, at the same threshold)
check () {
  name=$1
  xmllint --noout "$3" 2>"$tmp/xmllint.err" || { fail "$name: not well-formed XML: $(head -3 "$tmp/xmllint.err")"; return; }
  if [ -f "$dtd" ]; then
    xmllint --noout --nonet --dtdvalid "$dtd" "$3" 2>"$tmp/xmllint.err" \
      || fail "$name: not valid SVG 1.1: $(head -3 "$tmp/xmllint.err")"
  fi
  grep -q 'href=\|@import\|url(' "$3" && fail "$name: refers to something outside the file"
  boxes "$3" >"$tmp/boxes.tsv"
  # the text's lines: "~" mark, depth and function (parse_tree), incl%
  unit=$(sed -n 's/^  incl%  *self%  *incl \([^ ]*\) .*/\1/p' "$2")
  parse_tree "$2" "$unit" >"$tmp/lines.tsv"
  awk '/^  incl%/ { on = 1; next } on { print (substr ($0, 1, 1) == "~" ? "~" : "-") }' "$2" >"$tmp/marks"
  paste "$tmp/lines.tsv" "$tmp/marks" >"$tmp/text.tsv"
  [ -s "$tmp/text.tsv" ] || { fail "$name: the text view has no line"; return; }
  awk -F '\t' -v width="$width" '
    # an address reads 0x10c0 [object] in the views, parse_tree pads it
    function addr (s) { if (s ~ /^0x/) { sub (/ \[.*$/, "", s); sub (/^0x0*/, "0x", s) } return s }
    NR == FNR { n++; depth[n] = $1; fn[n] = addr($4); pct[n] = $7; gsub (/[~ ]/, "", pct[n]); mark[n] = $10; next }
    $1 == -1 { all_x = $2; all_w = $3; top[0] = 0; px[0] = $2; pw[0] = $3; next }
    {
      b++
      if (b > n) { bad++; print "box " b " (" $7 ") has no line"; next }
      if ($1 != depth[b]) { bad++; print "box " b " (" $7 ") at depth " $1 ", its line at " depth[b] }
      if (addr($7) != fn[b]) { bad++; print "box " b " is " $7 ", its line " fn[b] }
      if ($4 != pct[b]) { bad++; print fn[b] ": box says " $4 "%, line " pct[b] "%" }
      if ($5 != mark[b]) { bad++; print fn[b] ": box mark " $5 ", line mark " mark[b] }
      want = pct[b] / 100 * all_w * $6
      d = $3 - want; if (d < 0) d = -d
      # the tooltip rounds incl% to 0.01: 0.005% of the width, and 0.01 px
      if (d > 0.00005 * all_w * $6 + 0.011) { bad++; print fn[b] ": width " $3 ", its share " want }
      # within its parent (the last box one level down)
      p = $1
      if ($2 < px[p] - 0.011 || $2 + $3 > px[p] + pw[p] + 0.03) {
        bad++; print fn[b] ": [" $2 ", " $2 + $3 "] out of its parent [" px[p] ", " px[p] + pw[p] "]"
      }
      px[$1 + 1] = $2; pw[$1 + 1] = $3
      if ($6 < 1) scaled++
    }
    END {
      if (b != n) { bad++; print b " boxes, " n " lines" }
      if (all_w != width - 20) { bad++; print "all is " all_w " px wide" }
      print "scaled " scaled + 0 >"/dev/stderr"
      exit bad > 0
    }' "$tmp/text.tsv" "$tmp/boxes.tsv" >"$tmp/why" 2>"$tmp/scaled" || fail "$name: $(head -n 6 "$tmp/why")"
}

# ---- callgrind of the program: measured totals, recursion, a cycle ----
if command -v valgrind >/dev/null; then
  (cd "$tmp" && "$cc" -O1 -g -o rec rec.c) || fail "cannot build rec.c"
  (cd "$tmp" && valgrind --tool=callgrind --callgrind-out-file=callgrind.out ./rec 1 >/dev/null 2>&1) \
    || fail "callgrind failed"
  for args in "--threshold=0.5" "--threshold=0" "--threshold=2 --inverted" "--threshold=0.5 --method=gprof" \
    "--threshold=0.5 --method=decompose"; do
    # shellcheck disable=SC2086
    expect 0 "$cgtree" --no-fold $args "$tmp/callgrind.out" && cp "$tmp/out" "$tmp/text"
    # shellcheck disable=SC2086
    expect 0 "$cgtree" --format=svg $args "$tmp/callgrind.out" && cp "$tmp/out" "$tmp/svg"
    check "callgrind $args" "$tmp/text" "$tmp/svg"
  done
  # gprof's method marks estimates "~", as the text does
  "$cgtree" --format=svg --threshold=0.5 --method=gprof "$tmp/callgrind.out" | grep -q 'incl: ~' \
    || fail "callgrind --method=gprof: no box marked ~"
  # the mutual recursion even/odd is a cycle: its boxes say so and are marked
  "$cgtree" --format=svg --threshold=0 "$tmp/callgrind.out" >"$tmp/svg"
  grep 'class="f[^"]*cycle' "$tmp/svg" | grep -q '<title>even&#10;&lt;cycle 1&gt;' \
    || fail "callgrind: even is not marked a member of cycle 1"
  # a link (shared's, under its other caller) is drawn as one and says where
  grep '<g class="f link' "$tmp/svg" | grep -q '<title>shared&#10;-&gt; \[[0-9]*\]' \
    || fail "callgrind: no link box for shared"
  # --width sets the drawing's width
  "$cgtree" --format=svg --width=600 "$tmp/callgrind.out" | grep -q '<svg [^>]*width="600"' \
    || fail "--width=600: not 600 px wide"
else
  echo "SKIP: no valgrind, no callgrind profile"
fi

# ---- gmon.out of the program: estimates ("~") ----
if command -v gprof >/dev/null && (cd "$tmp" && "$cc" -O1 -pg -o recpg rec.c) 2>/dev/null; then
  (cd "$tmp" && ./recpg 2000) || fail "recpg failed"
  for args in "--threshold=0.5" "--threshold=1 --method=gprof" "--threshold=1 --inverted"; do
    # shellcheck disable=SC2086
    expect 0 "$cgtree" --no-fold --executable="$tmp/recpg" $args "$tmp/gmon.out" && cp "$tmp/out" "$tmp/text"
    # shellcheck disable=SC2086
    expect 0 "$cgtree" --format=svg --executable="$tmp/recpg" $args "$tmp/gmon.out" && cp "$tmp/out" "$tmp/svg"
    check "gmon.out $args" "$tmp/text" "$tmp/svg"
    case $args in
      *inverted*) ;;
      *)
        grep -q '^~' "$tmp/text" || fail "gmon.out $args: the text marks no estimate"
        grep -q 'estimate' "$tmp/svg" || fail "gmon.out $args: the legend does not say what is estimated"
        ;;
    esac
  done
else
  echo "SKIP: no gprof or no -pg build"
fi

# ---- hostile names: escaped, the file well-formed ----
printf 'main;<script>alert(1)</script> 60\nmain;a&b;"q'"'"'uote" 30\nmain;std::map<int, std::vector<int> >::find 25\nmain;bad\377name 20\n' \
  >"$tmp/hostile.folded"
expect 0 "$cgtree" --format=svg "$tmp/hostile.folded" && cp "$tmp/out" "$tmp/hostile.svg"
xmllint --noout "$tmp/hostile.svg" 2>"$tmp/xmllint.err" || fail "hostile names: not well-formed: $(head -3 "$tmp/xmllint.err")"
[ "$(xmllint --xpath 'count(//*[local-name()="script"])' "$tmp/hostile.svg")" = 1 ] \
  || fail "hostile names: a name made a script element"
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$tmp/hostile.svg" || fail "hostile names: <script> not escaped"
grep -q '<title>a&amp;b&#10;' "$tmp/hostile.svg" || fail "hostile names: & not escaped"
grep -q '&quot;q&apos;uote&quot;' "$tmp/hostile.svg" || fail "hostile names: quotes not escaped"
grep -q 'std::map&lt;int, std::vector&lt;int&gt; &gt;::find' "$tmp/hostile.svg" || fail "hostile names: template not escaped"
# the invalid byte shows as the reader spells it
grep -q 'bad\\xFFname' "$tmp/hostile.svg" || fail "hostile names: invalid UTF-8 lost"
# the tooltip, read by an XML parser, gives the name back
xmllint --xpath 'string(//*[local-name()="title"][contains(., "alert")])' "$tmp/hostile.svg" | head -n 1 \
  | grep -qx '<script>alert(1)</script>' || fail "hostile names: the tooltip does not read back"
if [ -f "$dtd" ]; then
  xmllint --noout --nonet --dtdvalid "$dtd" "$tmp/hostile.svg" 2>"$tmp/xmllint.err" \
    || fail "hostile names: not valid SVG 1.1: $(head -3 "$tmp/xmllint.err")"
fi

# ---- a chain 100,000 calls deep on a small stack: no recursion ----
{ seq 0 99999 | sed 's/^/f/' | paste -s -d ';' -; } | sed 's/$/ 7/' >"$tmp/deep.folded"
(ulimit -s 512 && "$cgtree" --format=svg --threshold=0 "$tmp/deep.folded" >"$tmp/deep.svg") \
  || fail "a chain 100,000 deep failed"
[ "$(grep -c '^<g class="f' "$tmp/deep.svg")" = 100001 ] || fail "a chain 100,000 deep: not 100,001 boxes"

# ---- the script in a real browser: headless Chromium opens the graph
# with "#selftest"; its script zooms to a box with children and checks
# where every box went, searches a name and checks the sum against the
# tooltips, clears, resets and checks every box is back, and writes what
# it saw into the drawing, which Chromium dumps.  Any console message
# fails.  Skipped where Chromium is missing or cannot start here. ----
browser=
for candidate in chromium chromium-browser google-chrome; do
  command -v "$candidate" >/dev/null 2>&1 && { browser=$candidate; break; }
done
dir=$(cd "$tmp" && pwd)
open_svg () {
  rm -rf "$dir/profile"
  mkdir "$dir/profile"
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$dir/profile" \
    --enable-logging=stderr --v=0 --window-size=1280,900 --virtual-time-budget=3000 \
    --dump-dom "file://$1#selftest" >"$tmp/dom.txt" 2>"$tmp/browser.err"
}
if [ -z "$browser" ]; then
  echo "SKIP: no Chromium, the script is not run"
elif [ -f "$tmp/callgrind.out" ]; then
  for args in "--threshold=0.5" "--threshold=0.5 --inverted" "--threshold=0.5 --method=gprof"; do
    # shellcheck disable=SC2086
    "$cgtree" --format=svg $args -o "$dir/graph.svg" "$tmp/callgrind.out" || { fail "svg $args: cgtree failed"; continue; }
    open_svg "$dir/graph.svg"
    if ! grep -q '<text id="selftest" ' "$tmp/dom.txt"; then
      if grep -q 'class="frames"' "$tmp/dom.txt"; then
        fail "svg $args: the script wrote no self-test: $(grep CONSOLE "$tmp/browser.err" | head -c 400)"
      else
        echo "SKIP: $browser cannot run here: $(tail -c 300 "$tmp/browser.err")"
        break
      fi
    fi
    result=$(sed -n 's/.*<text id="selftest" [^>]*>\([^<]*\)<.*/\1/p' "$tmp/dom.txt")
    echo "svg $args: $result"
    case $result in
      "selftest: ok"*) ;;
      *) fail "svg $args: the script's self-test: $(echo "$result" | head -c 600)" ;;
    esac
    grep 'CONSOLE' "$tmp/browser.err" >"$tmp/console" && fail "svg $args: console messages: $(head -c 400 "$tmp/console")"
  done
fi

finish
