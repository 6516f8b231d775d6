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

# Static functions of one name in two files: callgrind keeps them apart
# (by file), and so must we.  callgrind_annotate lists each as FILE:helper;
# ours are "helper [OBJECT]" and "helper [OBJECT (FILE)]".
if [ -n "${VALGRIND:-}" ] && [ -x "$VALGRIND" ] \
  && ${CC:-cc} -O1 -g -fno-inline -o "$tmp/statics" "$data/programs/statics-a.c" "$data/programs/statics-b.c"; then
  (cd "$tmp" && "$VALGRIND" --tool=callgrind --callgrind-out-file="$tmp/callgrind.out.statics" ./statics 6 \
    >/dev/null 2>&1) || fail "valgrind on the statics program"
  "$cgcost" --format=tsv "$tmp/callgrind.out.statics" >"$tmp/statics.tsv" || fail "statics: cgcost failed"
  "$annotate" --inclusive=yes --threshold=100 --auto=no "$tmp/callgrind.out.statics" >"$tmp/statics.txt" 2>/dev/null \
    || fail "statics: callgrind_annotate failed"
  awk -F '\t' -v exe="$tmp/statics" '
    NR == FNR {
      if ($1 == "helper [" exe "]") plain = $4
      else if (index ($1, "helper [" exe " (") == 1) { f = substr ($1, length (exe) + 11); sub (/\)\]$/, "", f); ours[f] = $4; n++ }
      next
    }
    substr ($0, length ($0) - length (exe) - 9) == ":helper [" exe "]" {
      value = $0; sub (/ *\(.*$/, "", value); gsub (/[ ,]/, "", value)
      key = $0; sub (/^[^)]*\)  /, "", key); sub (/:helper \[.*$/, "", key)
      theirs[key] = value; m++
    }
    END {
      if (m != 2 || n != 1 || plain == "") { print "helpers: ours " n + (plain != "") ", theirs " m; exit 1 }
      # callgrind_annotate shortens paths under its working directory
      for (f in ours) {
        for (k in theirs) if (substr (f, length (f) - length (k) + 1) == k) break
        if (theirs[k] != ours[f]) { print f ": ours " ours[f] ", theirs " theirs[k]; exit 1 }
        delete theirs[k]
      }
      for (f in theirs) if (theirs[f] != plain) { print f ": ours " plain ", theirs " theirs[f]; exit 1 }
    }' "$tmp/statics.tsv" "$tmp/statics.txt" || fail "statics: the two helpers differ from callgrind_annotate"
fi
finish
