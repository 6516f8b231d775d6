#!/bin/sh
# A gprof report read back has the number of samples gprof printed: the
# last flat row's cumulative seconds (and the call graph's "of 0.33
# seconds"), not the nearest count to the sum of the rows' rounded
# seconds.  The flat profile below is what gprof 2.40 printed today
# (gprof -b -p) for a C++ program that runs pugixml 1.13's XPath
# (names shortened to their last component): 33 samples of 0.01 s, rows
# of 10, 10, 3, 2.5, 2, 2, 1, 1, 1 and 0.5 samples (bins that straddle
# two functions split their samples).  The printed seconds add up to
# 0.34, and 34 samples fit every row's percentage too (30.30 % of 34 is
# 10.3 samples, printed 0.10), so the report was read as 34 samples,
# every function 3 % slower than gprof measured, and printed again with
# a cumulative column of 0.21, 0.24 ... 0.34 where gprof's reads 0.20,
# 0.23 ... 0.33.  Oracle: gprof's own cumulative column and total.
. "${top_srcdir:-.}/tests/cli/common.sh"

cat >"$tmp/flat.txt" <<'EOF2'
Flat profile:

Each sample counts as 0.01 seconds.
  %   cumulative   self              self     total           
 time   seconds   seconds    calls  ms/call  ms/call  name    
 30.30      0.10     0.10  9291450     0.00     0.00  eval_node_set
 30.30      0.20     0.10  9117000     0.00     0.00  eval_boolean
  9.09      0.23     0.03  9120750     0.00     0.00  convert_string_to_number
  7.58      0.26     0.03  9831300     0.00     0.00  revert
  6.06      0.28     0.02  9117150     0.00     0.00  eval_number
  6.06      0.30     0.02                             _init
  3.03      0.31     0.01 10334550     0.00     0.00  push_back_grow
  3.03      0.32     0.01   270000     0.00     0.00  compare_rel
  3.03      0.33     0.01   174450     0.00     0.00  apply_predicate
  1.52      0.33     0.01                             unspecified_bool_xml_attribute
EOF2

expect 0 "$cgcost" --format=tsv "$tmp/flat.txt" || fail "cgcost --format=tsv"
sum=$(awk -F '\t' 'NR > 1 { s += $3 } END { printf "%.2f", s }' "$tmp/out")
[ "$sum" = 0.33 ] || fail "the self times add up to $sum s, gprof printed 0.33: $(cat "$tmp/out")"

expect 0 "$cgcost" --format=gprof -p "$tmp/flat.txt" || fail "cgcost --format=gprof -p"
awk '$1 ~ /^[0-9.]+$/ { print $2 }' "$tmp/flat.txt" >"$tmp/theirs"
awk '$1 ~ /^[0-9.]+$/ { print $2 }' "$tmp/out" >"$tmp/ours"
cmp -s "$tmp/theirs" "$tmp/ours" \
  || fail "cumulative seconds $(tr '\n' ' ' <"$tmp/ours"), gprof printed $(tr '\n' ' ' <"$tmp/theirs")"
finish
