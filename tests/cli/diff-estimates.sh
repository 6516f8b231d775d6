#!/bin/sh
# A difference of gmon.out profiles compares totals that gprof's method
# estimated (the average-time assumption): the views mark a change "~"
# where the total or the call is an estimate in either profile, not only
# in the new one.  diff-inline.c's work calls helper, which -O2 inlines:
# work's total is exact at -O2 (a leaf) and estimated at -O0, so that its
# change is a difference against an estimate.  Oracles: cgcost's tsv of
# each profile, with its exactness column.
. "${top_srcdir:-.}/tests/cli/common.sh"
inline_builds 300000
for o in O0 O2; do
  "$cgcost" --format=tsv --exactness "$tmp/$o.xml" >"$tmp/$o.tsv"
done
# the premise: work estimated at -O0, where it calls helper; exact at -O2
[ "$(awk -F '\t' '$1 == "work" { print $5 }' "$tmp/O0.tsv")" = estimated ] || fail "work at -O0: $(grep work "$tmp/O0.tsv")"
[ "$(awk -F '\t' '$1 == "work" { print $5 }' "$tmp/O2.tsv")" = exact ] || fail "work at -O2: $(grep work "$tmp/O2.tsv")"
grep -q '^helper' "$tmp/O2.tsv" && fail "helper is not inlined at -O2"
[ "$(total_of "$tmp/O2.tsv" work)" != 0 ] || skip "no sample fell in work"

# dot: work's box is exact in the new profile (no "~" before its share),
# and its change, the tsv's totals' difference, is marked an estimate
expect 0 "$cgtree" --format=dot --threshold=0 --base="$tmp/O0.xml" "$tmp/O2.xml"
unit=$(sed -n 's/.*the change since the base in \([a-zµ]*\) (red slower, blue faster); \\"~\\" before a change: a difference of estimates, in either profile.*/\1/p' "$tmp/out")
[ -n "$unit" ] || fail "the dot label does not say what \"~\" before a change is: $(grep 'graph \[label' "$tmp/out")"
factor=$(case $unit in s) echo 1 ;; ms) echo 1000 ;; *) echo 1000000 ;; esac)
change=$(awk -F '\t' -v f="$factor" 'NR == FNR { if ($1 == "work") base = $4; next }
  $1 == "work" { printf "%+.2f", ($4 - base) * f }' "$tmp/O0.tsv" "$tmp/O2.tsv")
grep -E '\[label="work\\n[0-9.]+%\\n\([0-9.]+%\)\\n1×\\n~' "$tmp/out" | grep -qF "\\n~$change\"" \
  || fail "work's box: not exact with the change ~$change: $(grep 'label="work' "$tmp/out")"
# and the arrow into it: the call's cost is an estimate in the base
grep -E -- '-> f[0-9]+ \[label="~[0-9.]+%\\n' "$tmp/out" | grep -qF "\\n~$change\"" \
  || fail "main -> work: the change ~$change: $(grep -- '->' "$tmp/out")"
finish
