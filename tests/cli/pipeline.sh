#!/bin/sh
# The four filters end to end on the real profiles in data/: every XML
# validates, every stage computes what its input lacks, merging sums.
. "${top_srcdir:-.}/tests/cli/common.sh"

for profile in "$data"/callgrind/*/callgrind.out.*; do
  name=$(basename "$profile")
  expect 0 "$cgmerge" "$profile" && cp "$tmp/out" "$tmp/merged.xml" || continue
  expect 0 "$cgcycles" "$tmp/merged.xml" && cp "$tmp/out" "$tmp/cycles.xml"
  expect 0 "$cgcost" "$tmp/cycles.xml" && cp "$tmp/out" "$tmp/cost.xml"
  expect 0 "$cgcycles" --collapse "$tmp/merged.xml" && cp "$tmp/out" "$tmp/collapsed.xml"
  validate "$tmp/merged.xml" "$tmp/cycles.xml" "$tmp/cost.xml" "$tmp/collapsed.xml"
  grep -q '<cycles>' "$tmp/cycles.xml" || fail "$name: cgcycles wrote no <cycles>"
  grep -q '<costs method="measured">' "$tmp/cost.xml" || fail "$name: cgcost wrote no measured costs"

  # the tsv contract: the same rows however the input was prepared
  expect 0 "$cgcost" --format=tsv "$tmp/cost.xml" && cp "$tmp/out" "$tmp/a.tsv"
  expect 0 "$cgcost" --format=tsv "$profile" && cp "$tmp/out" "$tmp/b.tsv"
  cmp -s "$tmp/a.tsv" "$tmp/b.tsv" || fail "$name: tsv differs between the pipeline and the raw profile"
  [ "$(head -n 1 "$tmp/a.tsv")" = "$(printf 'function\tcalls\tself\ttotal')" ] || fail "$name: tsv header"
  expect 0 "$cgcost" --format=tsv --arcs "$tmp/cost.xml"
  [ "$(head -n 1 "$tmp/out")" = "$(printf 'caller\tcallee\tcalls\tinclusive')" ] || fail "$name: arcs header"
  # rows are sorted by total, descending, and every total covers its self cost
  awk -F '\t' 'NR > 2 && $4 + 0 > prev + 0 { bad = 1 } NR > 1 { prev = $4; if ($4 + 0 < $3 + 0) bad = 1 }
               END { exit bad }' "$tmp/a.tsv" || fail "$name: tsv not sorted, or a total below its self cost"

  # the text forms
  expect 0 "$cgcost" --format=text "$tmp/cost.xml" && grep -q "^Method: measured" "$tmp/out" || fail "$name: cgcost text"
  expect 0 "$cgcycles" --format=text "$tmp/merged.xml" && grep -q "cycle" "$tmp/out" || fail "$name: cgcycles text"
  expect 0 "$cgtree" "$tmp/cost.xml" && cp "$tmp/out" "$tmp/tree-from-xml.txt"
  expect 0 "$cgtree" "$profile" && cmp -s "$tmp/out" "$tmp/tree-from-xml.txt" || fail "$name: cgtree differs on raw input"
  # the program's entry carries everything, shown with the start-up code
  expect 0 "$cgtree" --startup "$tmp/cost.xml"
  grep -q '^ 100.00 ' "$tmp/out" || fail "$name: no root at 100%"

  # a collapsed graph has no cycles left, and the same program total
  expect 0 "$cgcycles" --format=text "$tmp/collapsed.xml" && grep -q "^0 cycles" "$tmp/out" || fail "$name: cycles left after --collapse"

  # merging a profile with itself doubles it
  expect 0 "$cgmerge" "$profile" "$tmp/merged.xml" && cp "$tmp/out" "$tmp/double.xml"
  validate "$tmp/double.xml"
  expect 0 "$cgcost" --format=tsv "$tmp/double.xml"
  awk -F '\t' 'NR == FNR { if (FNR > 1) { self[$1] = $3; total[$1] = $4 } next }
               FNR > 1 && ($3 != 2 * self[$1] || $4 != 2 * total[$1]) { bad = 1 } END { exit bad }' \
      "$tmp/a.tsv" "$tmp/out" || fail "$name: merging a profile with itself does not double it"
done

# the main job of README on the bundled example
recdemo="$data/callgrind/recdemo/callgrind.out.recdemo"
"$cgmerge" "$recdemo" | "$cgcycles" | "$cgcost" | "$cgtree" >"$tmp/tree.txt" || fail "the pipeline failed"
for f in main fib qsort_rec expr term factor; do
  grep -Eq -- "(-|> |^ .*  )$f( |\$)" "$tmp/tree.txt" || fail "the display tree lacks $f"
done
"$cgcost" --format=tsv "$recdemo" >"$tmp/recdemo.tsv"
for pair in qsort_rec:3362495 fib:1933543 expr:600230 term:599970 factor:599330 is_even:14214 main:12124468; do
  f=${pair%%:*}
  want=${pair#*:}
  got=$(total_of "$tmp/recdemo.tsv" "$f")
  [ "$got" = "$want" ] || fail "recdemo: total of $f is $got, expected $want"
done
finish
