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
  # rows "  1,234 (12.3%)  file:function [object]"
  awk -F '\t' '
    NR == FNR { if (FNR > 1) ours[$1] = $4; next }
    match ($0, /^ *[0-9,]+ \( *[0-9.]+%\)  /) {
      value = substr ($0, 1, RLENGTH); gsub (/ *\(.*$|[ ,]/, "", value)
      rest = substr ($0, RLENGTH + 1)
      if (rest !~ /\]$/) next
      object_start = 0
      for (i = length (rest); i > 0; i--) if (substr (rest, i, 2) == " [") { object_start = i; break }
      key = substr (rest, 1, object_start - 1)
      fn = substr (key, index (key, ":") + 1)
      if (fn ~ /'"'"'/ || fn == "PROGRAM TOTALS") next
      rows++
      seen[fn]++
      annotated[fn] = value
    }
    END {
      for (fn in annotated) {
        if (seen[fn] > 1 || !(fn in ours)) { skipped++; continue }   # one name, several files or objects
        compared++
        if (ours[fn] != annotated[fn]) { wrong++; if (wrong <= 5) print "  " fn ": ours " ours[fn] ", callgrind_annotate " annotated[fn] > "/dev/stderr" }
      }
      printf "%d rows, %d compared, %d left out, %d different\n", rows, compared, skipped, wrong
      exit (wrong > 0 || compared < rows * 0.8)
    }' "$tmp/ours.tsv" "$tmp/annotate.txt" || fail "$name: totals differ from callgrind_annotate"
done
finish
