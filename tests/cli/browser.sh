#!/bin/sh
# The HTML page in a real browser.  Headless Chromium opens each page
# with "#selftest": the page's own script then does what a reader does —
# moves the threshold slider, clicks a node open, moves and collapses
# with the arrow keys, clicks a link and checks that its master node is
# selected, focused and on screen, goes back, searches, checks that
# single-call chains fold as in the text view, that the self column shows
# the self cost in the event's unit and a self-recursive function's
# calls read N+M, opens a line from its link (#callees/N), toggles to the
# callers tree and back — and writes what
# it saw into the page, which Chromium dumps.  Any console message
# (uncaught errors included) fails the test.  Skipped (77) when no
# Chromium is installed or it cannot start here.
. "${top_srcdir:-.}/tests/cli/common.sh"
browser=
for candidate in chromium chromium-browser google-chrome; do
  if command -v "$candidate" >/dev/null 2>&1; then
    browser=$candidate
    break
  fi
done
[ -n "$browser" ] || skip "Chromium is not installed (Debian: apt-get install chromium)"
dir=$(cd "$tmp" && pwd)

# open PAGE — the dumped DOM in $tmp/dom.html, the browser's log in
# $tmp/browser.err.  The flags keep a machine without network (or a
# container, as root) from stalling or refusing it; the profile
# directory is new and empty each time.
open_page () {
  rm -rf "$dir/profile"
  mkdir "$dir/profile"
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$dir/profile" \
    --enable-logging=stderr --v=0 --window-size=1280,900 --virtual-time-budget=3000 \
    --dump-dom "file://$1#selftest" >"$tmp/dom.html" 2>"$tmp/browser.err"
}

printf '<!DOCTYPE html><html><body><p id="x">up</p></body></html>\n' >"$dir/probe.html"
open_page "$dir/probe.html"
grep -q '<p id="x">up</p>' "$tmp/dom.html" || skip "$browser cannot run here: $(tail -c 300 "$tmp/browser.err")"

recdemo="$data/callgrind/recdemo/callgrind.out.recdemo"
cc1="$data/callgrind/gcc-cc1-pngtest/callgrind.out.cc1"
check_page () {
  what=$1
  shift
  "$cgtree" --format=html -o "$dir/page.html" "$@" || { fail "$what: cgtree failed"; return; }
  start=$(date +%s)
  open_page "$dir/page.html"
  echo "$what: $(wc -c <"$dir/page.html") bytes, opened and tested in $(($(date +%s) - start)) s"
  sed -n '/<pre id="selftest">/,/<\/pre>/p' "$tmp/dom.html" | sed 's/<[^>]*>//g' >"$tmp/selftest"
  cat "$tmp/selftest"
  grep -q '^selftest: ok' "$tmp/selftest" || fail "$what: the page's self-test did not pass"
  if grep 'CONSOLE' "$tmp/browser.err" >"$tmp/console"; then
    fail "$what: console messages: $(head -c 400 "$tmp/console")"
  fi
}
check_page "recdemo" "$recdemo"
# a chain of forty single calls with long names: its rows keep their ends
# readable (the page's self-test measures them), as the text view cuts a
# chain in its middle
awk 'BEGIN { s = "main"; for (i = 1; i <= 40; i++) s = s ";stage_" i "_of_the_long_pipeline"; print s ";leaf 100"
             print "main;other 5" }' >"$tmp/chain.folded"
check_page "a long chain" "$tmp/chain.folded"
# a chain whose last function's total (93.33 %) is below the first
# call's cost (93.90 %): that function keeps its row, as in the text
printf 'main;A;B;X;Y 9300\nmain;A 50\nmain;A;B 40\nmain;C;X;Y 33\nmain 577\n' >"$tmp/total.folded"
check_page "a total below a chain's cost" "$tmp/total.folded"
# a flat profile: no function has 0.1 % of the self cost, and the callers
# tree the page toggles to still starts from the hottest ones
awk 'BEGIN { for (i = 1; i <= 2000; i++) print "main;caller_" (i % 50) ";leaf_" i, 1 + i % 3 }' >"$tmp/flat.folded"
check_page "a flat profile" "$tmp/flat.folded"
# a joined row whose last function's callees all lie below the threshold:
# no twisty opens onto nothing
awk 'BEGIN { for (i = 1; i <= 50; i++) print "main;parse;lex;token_" i, 1; print "main;other 500" }' \
  >"$tmp/below.folded"
check_page "callees all below the threshold" "$tmp/below.folded"
check_page "recdemo, callers tree" --inverted --threshold=0.5 "$recdemo"
check_page "recdemo, callers tree, one row per node" --inverted --no-fold --threshold=0.5 "$recdemo"
check_page "cc1 (a compiler run)" "$cc1"
check_page "exprparse (gmon.out: estimated totals, seconds)" --executable="$data/gmon/exprparse/exprparse" \
  "$data/gmon/exprparse/gmon.out"
# an estimated total in all reads "~" as the text view's does: next_token's
# "(~65.52% in all)" read "(65.52% in all)" on the page
"$cgtree" --width=0 --executable="$data/gmon/exprparse/exprparse" "$data/gmon/exprparse/gmon.out" >"$tmp/text" \
  || fail "exprparse: cgtree's text failed"
grep -o '(~[0-9.]*% in all)' "$tmp/text" | sort >"$tmp/text.marks"
grep -o 'class="all"[^>]*>([^<]*' "$tmp/dom.html" | sed 's/.*>//' | grep '^(~' | sort >"$tmp/page.marks"
[ -s "$tmp/text.marks" ] || fail "exprparse: the text view has no estimated total in all"
cmp -s "$tmp/text.marks" "$tmp/page.marks" \
  || fail "exprparse: estimated totals in all: text $(tr '\n' ' ' <"$tmp/text.marks"), page $(tr '\n' ' ' <"$tmp/page.marks")"
# --base: the change column on the page; each line's change (the page's
# self-test lists them) against cgcost --base's tsv, where every function
# has one caller so a line's change is its function's total's
printf '%s\n' "main;parse;expr;term 100" "main;parse;expr 50" "main;work.constprop.0;leaf 200" "main;gone 30" \
  >"$dir/a.folded"
printf '%s\n' "main;parse;expr;term 130" "main;parse;expr 50" "main;work.constprop.1;leaf 400" "main;added 10" \
  >"$dir/b.folded"
check_page "a folded pair with --base" --base="$dir/a.folded" "$dir/b.folded"
"$cgcost" --base="$dir/a.folded" --format=tsv "$dir/b.folded" >"$tmp/diff.tsv" || fail "cgcost --base"
for f in main parse expr term work.constprop.1 leaf; do
  want=$(awk -F '\t' -v f="$f" '$1 == f { print ($4 > 0 ? "+" : "") $4 }' "$tmp/diff.tsv")
  got=$(awk -v f="$f" '$1 == "change" && $2 == f { print $3; exit }' "$tmp/selftest")
  [ "$got" = "$want" ] || fail "the page's change of $f: $got, cgcost --base's $want"
done
grep -qx "change added new" "$tmp/selftest" || fail "the page: a call the base lacks: $(grep added "$tmp/selftest")"
grep -q 'class="num chg"' "$dir/page.html" || fail "the page has no change column"
# numbers exactly half-way at two decimals (perf's cpu-clock in ns, shown
# in s: 0.625 s) round as the text rounds them, to the even digit: the
# page read 0.63 s and +0.13 beside the text's 0.62 and +0.12 (Tcl's
# profiles, 0.5 ms samples, tie at every odd multiple of 5 ms)
perf_pair () { # WORK_NS: main -> work (WORK_NS), main -> other (1 s)
  for s in "$1 work" "1000000000 other"; do
    set -- $s
    printf 'prog   100/100   [000]  1000.000001: %12s cpu-clock:u: \n\t            1234 %s+0x4 (/build/prog)\n\t            1100 main+0x20 (/build/prog)\n\n' "$1" "$2"
  done
}
perf_pair 500000000 >"$dir/tie-base.perf"
perf_pair 625000000 >"$dir/tie-new.perf"
check_page "half-way numbers with --base" --base="$dir/tie-base.perf" "$dir/tie-new.perf"
"$cgtree" -b --threshold=0 --base="$dir/tie-base.perf" "$dir/tie-new.perf" >"$tmp/tie.txt" || fail "cgtree --base (text)"
for f in main work other; do
  want=$(awk -v f="$f" '$NF == f || $NF == ("`-" f) || $NF == ("|-" f) { print $1 "% " $3 " " $4 }' "$tmp/tie.txt")
  got=$(awk -v f="$f" '$1 == "row" && $2 == f { print $3, $4, $5; exit }' "$tmp/selftest")
  [ -n "$want" ] && [ "$got" = "$want" ] || fail "half-way: $f's row on the page '$got', in the text '$want'"
done
grep -q ' 0.62  *+0.12[?]* .*work$' "$tmp/tie.txt" || fail "half-way: the text's work: $(grep work "$tmp/tie.txt")"
# a master line's total in all is marked as the text marks it (fd4cc9b):
# leaf's 1,000,000,000 Ir in all beside the 999,999,000 of main's call
# print alike as percentages (10.00 % both), so as a cost, where the page
# read "(10.00% in all)" beside an incl of 10.00 %
cat >"$dir/in-all.out" <<'EOF'
events: Ir
fn=main
1 9000000000
cfn=leaf
calls=999999 1
1 999999000
cfn=other
calls=1 1
1 1010
fn=other
1 10
cfn=leaf
calls=1 1
1 1000
fn=leaf
1 1000000000
EOF
check_page "a total in all that prints as the incl" --threshold=0 "$dir/in-all.out"
grep -q "^ok no total in all prints as its line's incl (1 shown)" "$tmp/selftest" \
  || fail "the page's totals in all: $(grep 'in all' "$tmp/selftest")"
finish
