#!/bin/sh
# Oracle: callgrind_annotate --inclusive=yes.  Its inclusive figures are
# right for functions without the "'N" suffix, except where it merges
# functions of one name from different objects (it keys by file:function):
# those rows are left out, every other row must equal our total exactly.
. "${top_srcdir:-.}/tests/cli/common.sh"
annotate=${CALLGRIND_ANNOTATE:-}
[ -n "$annotate" ] && [ -x "$annotate" ] || skip "callgrind_annotate is not installed"

for profile in "$data"/callgrind/*/callgrind.out.*; do
  name=$(basename "$profile")
  "$cgcost" --format=tsv "$profile" >"$tmp/ours.tsv" || { fail "$name: cgcost failed"; continue; }
  "$annotate" --inclusive=yes --threshold=100 --auto=no "$profile" >"$tmp/annotate.txt" 2>/dev/null \
    || { fail "$name: callgrind_annotate failed"; continue; }
  annotate_compare "$tmp/ours.tsv" "$tmp/annotate.txt" || fail "$name: totals differ from callgrind_annotate"
done
finish
