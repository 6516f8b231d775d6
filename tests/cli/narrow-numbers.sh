#!/bin/sh
# cgtree's text at a width (a terminal, --width=N): callgrind's billions
# of Ir, 13 columns each, show in millions (or thousands, billions) with
# two decimals, the multiple in the column titles and the header, and
# long call counts to three digits, so that the numbers leave the names
# room; the header keeps the exact total, and without a width (a pipe, a
# file, --width=0) the numbers stay whole.  Oracles: cgcost's tsv, and a
# callgrind run at test time.
. "${top_srcdir:-.}/tests/cli/common.sh"
cc1="$data/callgrind/gcc-cc1-pngtest/callgrind.out.cc1"

# millions <TSV> <FUNCTION>: its total in M Ir as the view rounds it
millions () {
  total_of "$1" "$2" | awk '{ x = sprintf ("%.2f", $1 / 1e6); n = split (x, p, /[.]/);
    s = p[1]; o = ""; while (length (s) > 3) { o = "," substr (s, length (s) - 2) o; s = substr (s, 1, length (s) - 3) }
    print s o "." p[2] }'
}

"$cgcost" --format=tsv "$cc1" >"$tmp/cc1.tsv"
expect 0 "$cgtree" --width=80 "$cc1"
grep -q '^Display tree (Kaes): event Ir, 1,124,636,478 Ir in all\.$' "$tmp/out" \
  || fail "the header's total is not exact: $(head -1 "$tmp/out")"
tr '\n' ' ' <"$tmp/out" | grep -q 'Numbers to fit the width: costs in M Ir (millions of Ir), to two decimals; calls of 10,000 or more to three digits' \
  || fail "no legend of the multiples: $(sed -n '/^Numbers/,/^$/p' "$tmp/out")"
grep -qx '  incl%   self% incl M Ir self M Ir       calls  function' "$tmp/out" \
  || fail "titles: $(grep '^  incl%' "$tmp/out")"
# the root, main, at its total in millions: 1,123,784,815 Ir
mir=$(millions "$tmp/cc1.tsv" main)
[ "$mir" = 1,123.78 ] || fail "the tsv's main: $mir"
grep -qE "^ +99\.92 +0\.00 +$mir +0\.00 +main > toplev::main" "$tmp/out" || fail "main's line: $(grep ' main > ' "$tmp/out")"
# a self-recursive call's counts, 5,565 on the arc and 73,714 of itself
grep -qE ' 5,565\+73\.7k +\|' "$tmp/out" || fail "calls not shortened: $(grep '5,565' "$tmp/out")"
# the numbers take 49 columns, where they took 58
[ "$(grep '^  incl%' "$tmp/out" | awk '{ print index ($0, "function") }')" = 50 ] || fail "the numbers' columns: $(grep '^  incl%' "$tmp/out")"
# without a width: whole numbers
expect 0 "$cgtree" --width=0 "$cc1" && grep -qE '^ +99\.92 +0\.00 +1,123,784,815 +1,102 +main > ' "$tmp/out" \
  && ! grep -q 'Numbers to fit' "$tmp/out" || fail "--width=0: $(grep ' main > ' "$tmp/out")"
# a profile under 100 million keeps its numbers whole at a width
expect 0 "$cgtree" --width=80 "$data/callgrind/recdemo/callgrind.out.recdemo" && grep -q ' 12,124,468 ' "$tmp/out" \
  || fail "recdemo at 80 columns: $(sed -n '/^  incl%/,+1p' "$tmp/out")"
# a diff's change column in the same multiple: cc1 against itself scaled
# (at a width a difference shows no self cost column: self% says it)
expect 0 "$cgtree" --width=80 --base="$cc1" "$cc1" && grep -qE "^ +99\.92 +0\.00 +$mir +\+0\.00 +main > " "$tmp/out" \
  || fail "a diff at 80 columns: $(grep ' main > ' "$tmp/out")"

# ---- a C++ program under callgrind, 100 million Ir and more ----
command -v valgrind >/dev/null 2>&1 || { finish; }
cxx=${CXX:-g++}
command -v "$cxx" >/dev/null 2>&1 || { finish; }
"$cxx" -O1 -g -o "$tmp/names" "$top_srcdir/data/programs/names-parser.cc" || fail "cannot build names-parser.cc"
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$tmp/names" 200 >"$tmp/run" 2>"$tmp/vg" \
  || fail "callgrind: $(tail -3 "$tmp/vg")"
"$cgcost" --format=tsv "$tmp/cg.out" >"$tmp/tsv"
full='app::Parser::HandleNext(app::Handler&)'
mir=$(millions "$tmp/tsv" "$full")
expect 0 "$cgtree" --width=100 --threshold=0 --root=HandleNext "$tmp/cg.out" \
  && grep -qE "^ +[0-9.]+ +[0-9.]+ +$mir +[0-9.,]+ +app::Parser::HandleNext" "$tmp/out" \
  || fail "HandleNext's total is not $mir M Ir: $(sed -n '/^  incl%/,+1p' "$tmp/out")"
# each Match call counted 4,000,000 times: 4.00M
grep -qE ' 4\.00M +[|`]-app::RegEx<app::Str>::Match' "$tmp/out" || fail "Match's calls: $(grep 'RegEx<app::Str>' "$tmp/out")"
finish
