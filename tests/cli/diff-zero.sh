#!/bin/sh
# A change that rounds to zero in the digits a view shows reads "+0.00",
# never "-0.00": the sign is that of what is printed (cg-text.h,
# cg_append_change_human).  Two cases where the change is a hair below
# zero: a base normalized to the new total (7 samples scaled by 29/7 make
# 29.000000000000004, so main's change is -4e-15 samples) and two perf
# profiles in ns shown in seconds whose totals differ by -1 µs (each 2
# s).  Every view of a difference is checked: cgcost's text (functions and
# arcs), cgtree's text and dot, and the HTML page in headless Chromium
# where installed.  The tsv keeps its exact values.
. "${top_srcdir:-.}/tests/cli/common.sh"
dir=$(cd "$tmp" && pwd)

# negative_zero FILE WHAT — FILE prints no "-0", "-0.00" or "-0.00%"
negative_zero () {
  if grep -E -- '-0(\.0+)?([^.0-9]|$)' "$1" >"$tmp/neg"; then
    fail "$2 prints a negative zero: $(head -c 300 "$tmp/neg")"
  fi
}

printf '%s\n' "main;a 3" "main;b 3" "main 1" >"$dir/b.folded"
printf '%s\n' "main;a 10" "main;b 15" "main 4" >"$dir/n.folded"
# the oracle: main's change from the normalized base, as awk's doubles
# make it, lies below zero and reads zero to two decimals
awk 'BEGIN { c = 29 - 7 * (29 / 7); if (!(c < 0 && c > -0.005)) exit 1 }' \
  || skip "this awk's doubles do not leave main's change below zero"

# two perf runs of 1 s of work and 1 s of other, the new one's work 1 µs
# shorter: totals 2 s and 1.999999 s
perf_pair () { # WORK_NS
  for s in "$1 work" "1000000000 other"; do
    set -- $s
    printf 'prog   100/100   [000]  1000.000001: %12s cpu-clock:u: \n\t            1234 %s+0x4 (/build/prog)\n\t            1100 main+0x20 (/build/prog)\n\n' "$1" "$2"
  done
}
perf_pair 1000000000 >"$dir/b.perf"
perf_pair 999999000 >"$dir/n.perf"

for pair in "folded --normalize" "perf"; do
  set -- $pair
  ext=$1
  shift
  b="$dir/b.$ext" n="$dir/n.$ext"
  expect 0 "$cgcost" --format=text --base="$b" "$@" "$n" && cp "$tmp/out" "$tmp/text"
  negative_zero "$tmp/text" "cgcost --format=text ($ext)"
  grep -q '^Total: .* change +0\.00 [a-z]* (+0\.00%)$' "$tmp/text" \
    || fail "cgcost --format=text ($ext): the total's change $(grep '^Total' "$tmp/text")"
  expect 0 "$cgcost" --format=text --arcs --base="$b" "$@" "$n" && negative_zero "$tmp/out" "cgcost --arcs ($ext)"
  expect 0 "$cgtree" -b --threshold=0 --base="$b" "$@" "$n" && cp "$tmp/out" "$tmp/tree"
  negative_zero "$tmp/tree" "cgtree ($ext)"
  # main's line: a change that reads zero, dim and "?" as any no-change
  grep -q '^ *100\.00 .* +0\.00? .*[ -]main$' "$tmp/tree" || fail "cgtree ($ext): main's line $(grep 'main$' "$tmp/tree")"
  expect 0 "$cgtree" --format=dot --base="$b" "$@" "$n" && negative_zero "$tmp/out" "cgtree --format=dot ($ext)"
  grep -q 'label="main.*\\n+0\.00"' "$tmp/out" || fail "cgtree --format=dot ($ext): $(grep 'label="main' "$tmp/out")"
  grep -q 'label="main[^"]*", fillcolor="#ffffff"' "$tmp/out" || fail "cgtree --format=dot ($ext): main coloured as a change"
done
# the folded pair's main is listed for its self change (-0.14), its total's
# change reading zero
"$cgcost" --format=text --base="$dir/b.folded" --normalize "$dir/n.folded" >"$tmp/text" || fail "cgcost (folded)"
grep -q '^ *+0\.00  *29\.00  *29\.00  *-0\.14  *main$' "$tmp/text" \
  || fail "cgcost --format=text: main's row $(grep 'main$' "$tmp/text")"
# the tsv is a contract: its exact change, below zero, stays
"$cgcost" --format=tsv --base="$dir/b.folded" --normalize "$dir/n.folded" >"$tmp/tsv" || fail "cgcost --format=tsv"
awk -F '\t' '$1 == "main" { exit !($4 < 0 && $4 > -1e-9) } END { }' "$tmp/tsv" \
  || fail "cgcost --format=tsv: main's exact change $(grep '^main' "$tmp/tsv")"

# the page: its script prints the change column; its self-test lists each
# line's change and checks the root's cell's colour class against its sign
browser=
for candidate in chromium chromium-browser google-chrome; do
  command -v "$candidate" >/dev/null 2>&1 && { browser=$candidate; break; }
done
if [ -n "$browser" ]; then
  "$cgtree" --format=html -o "$dir/page.html" --base="$dir/b.folded" --normalize "$dir/n.folded" \
    || fail "cgtree --format=html"
  rm -rf "$dir/profile" && mkdir "$dir/profile"
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$dir/profile" \
    --enable-logging=stderr --v=0 --window-size=1280,900 --virtual-time-budget=3000 \
    --dump-dom "file://$dir/page.html#selftest" >"$tmp/dom.html" 2>"$tmp/browser.err"
  sed -n '/<pre id="selftest">/,/<\/pre>/p' "$tmp/dom.html" | sed 's/<[^>]*>//g' >"$tmp/selftest"
  if grep -q '^selftest:' "$tmp/selftest"; then
    grep -q '^selftest: ok' "$tmp/selftest" || fail "the page's self-test: $(grep -v '^ok' "$tmp/selftest" | head -5)"
    grep -qx 'change main +0.00?' "$tmp/selftest" || fail "the page: $(grep 'change main' "$tmp/selftest")"
    negative_zero "$tmp/selftest" "the page"
  else
    echo "the page was not tested: $browser did not run it ($(tail -c 200 "$tmp/browser.err"))"
  fi
fi
finish
