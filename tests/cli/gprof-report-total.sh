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

# The same for a call graph printed without its flat profile (gprof -q):
# its self times are printed to a hundredth too, and bins split between
# two functions make them add up to more than the whole (ninja 1.11's
# -q report: 0.21 s, where its granularity line and main's entry said
# 0.20), which the totals and percentages took.  The entries' % time
# and the granularity line's seconds say what they were.  The bundled
# exprparse gmon.out with a sample added to each bin that straddles two
# of its functions: gprof -b -q's entries add up to 1.64 s, its whole
# is 1.63.  Oracle: gprof's report itself, printed again.
command -v gprof >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1 || finish
ex="$data/gmon/exprparse"
# the functions after main's start, up to atexit (libc's, linked in)
nm -n "$ex/exprparse" | awk '$2 ~ /^[tT]$/ && $3 == "atexit" { exit } on && $2 ~ /^[tT]$/ { print $1 }
  $3 == "main" { on = 1 }' >"$tmp/starts"
python3 - "$ex/gmon.out" "$tmp/starts" "$tmp/gmon.out" <<'EOF2' || fail "test set-up: the gmon.out's histogram"
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
assert d[20] == 0  # the histogram record first, after the header
lo, hi, n = struct.unpack('<QQI', d[21:41])
base, w = 20 + 1 + 40, (hi - lo) / n
for s in (int(x, 16) for x in open(sys.argv[2])):
    b = int((s - lo) / w)
    if lo <= s < hi and lo + b * w < s < lo + (b + 1) * w:
        c, = struct.unpack('<H', d[base + 2 * b:base + 2 * b + 2])
        d[base + 2 * b:base + 2 * b + 2] = struct.pack('<H', c + 1)
open(sys.argv[3], 'wb').write(d)
EOF2
gprof -b -q "$ex/exprparse" "$tmp/gmon.out" >"$tmp/q.txt" 2>/dev/null || fail "gprof -b -q"
whole=$(sed -n 's/^granularity: .* of \([0-9.]*\) seconds$/\1/p' "$tmp/q.txt")
printed=$(awk '/^\[/ && !/as a whole/ { s += $3 } END { printf "%.2f", s }' "$tmp/q.txt")
[ "$printed" != "$whole" ] || echo "note: the entries' self times add up to the whole, $whole s, this time"
expect 0 "$cgcost" --format=tsv "$tmp/q.txt" || fail "cgcost --format=tsv of gprof -q's report"
sum=$(awk -F '\t' 'NR > 1 { s += $3 } END { printf "%.2f", s }' "$tmp/out")
[ "$sum" = "$whole" ] || fail "gprof -q: the self times add up to $sum s, gprof printed $whole (its entries $printed)"
expect 0 "$cgcost" --format=gprof -b -q "$tmp/q.txt" || fail "cgcost --format=gprof -q"
cmp -s "$tmp/q.txt" "$tmp/out" || fail "gprof -q printed again differently: $(diff "$tmp/q.txt" "$tmp/out" | head -5)"
finish
