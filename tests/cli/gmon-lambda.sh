#!/bin/sh
# clang names the functions it instantiates with a lambda after it, with a
# '$' (apply<main::$_0>: _ZL5applyIZ4mainE3$_0ElT_l), and gprof counts no
# local symbol with a '$' as a function: it charges their samples and
# calls to the symbol before them in memory.  In data/programs/lambda.cc
# built with clang++ -O2 -pg, gprof showed before(long) called 14 times
# with 100 % of the time, where before() is called 7 times and does
# nothing, and apply<main::$_0> (7 calls) holds the time; cgmerge said
# nothing, and --symbols=all, which makes gcc's clones functions, kept
# gprof's choice for these.
# Oracles: GNU gprof (cgtools' gprof-format output must stay its byte for
# byte by default) and the program's loop counts.  By default a warning
# names the function and its share of the samples; --symbols=all makes it
# a function with its 7 calls and its time, before() keeping its own 7.
# Skipped (77) without clang++ or gprof, or where clang names the
# instance without a '$'.
. "${top_srcdir:-.}/tests/cli/common.sh"
GPROF=$(command -v gprof) || skip "no gprof"
command -v clang++ >/dev/null 2>&1 || skip "no clang++"
command -v nm >/dev/null 2>&1 || skip "no nm"
clang++ -O2 -pg -o "$tmp/lambda" "$data/programs/lambda.cc" 2>"$tmp/build.log" \
  || skip "clang++ cannot build with -pg: $(head -c 200 "$tmp/build.log")"
lambda=$(nm "$tmp/lambda" | awk '$2 == "t" && $3 ~ /apply/ && $3 ~ /\$/ { print $3; exit }')
[ -n "$lambda" ] || skip "clang named apply's instance without a '\$' (nm: $(nm "$tmp/lambda" | grep apply))"
before=$(nm "$tmp/lambda" | awk '$3 ~ /before/ { print $3; exit }')
(cd "$tmp" && ./lambda) || fail "the program failed"
[ -f "$tmp/gmon.out" ] || fail "no gmon.out"

# gprof's choice, the default: gprof's report byte for byte, and a warning
"$GPROF" -b "$tmp/lambda" "$tmp/gmon.out" >"$tmp/want" 2>/dev/null || fail "gprof failed"
grep -q 'apply' "$tmp/want" && skip "this gprof counts $lambda as a function"
expect 0 "$cgmerge" --executable="$tmp/lambda" "$tmp/gmon.out" && mv "$tmp/out" "$tmp/gprof.xml"
expect_message "warning: $tmp/gmon.out: "
expect_message "clang's functions named after a lambda"
expect_message "apply<main::\$_0>"
awk 'match($0, /: [0-9.]+% of the samples/) { split(substr($0, RSTART + 2), w, "%"); exit !(w[1] >= 90) }
  END { if (NR == 0) exit 1 }' "$tmp/err" || fail "the warning does not give apply 90 % of the samples: $(cat "$tmp/err")"
expect 0 "$cgcost" --format=gprof "$tmp/gprof.xml"
cmp -s "$tmp/want" "$tmp/out" || fail "cgcost --format=gprof differs from gprof -b: $(diff "$tmp/want" "$tmp/out" | head -6)"

# all symbols: apply's instance is a function, with its calls and its
# time; before keeps its own calls
expect 0 "$cgcost" --format=tsv --symbols=all --executable="$tmp/lambda" "$tmp/gmon.out"
grep -q "does not count as functions" "$tmp/err" && fail "--symbols=all warned: $(cat "$tmp/err")"
row=$(awk -F '\t' -v f="$lambda" '$1 == f { print $2, $3 }' "$tmp/out")
calls=${row% *}
[ "$calls" = 7 ] || fail "--symbols=all: $lambda: '${row}', expected 7 calls: $(head -5 "$tmp/out")"
[ "$(awk -F '\t' -v f="$before" '$1 == f { print $2 }' "$tmp/out")" = 7 ] \
  || fail "--symbols=all: $before: $(grep before "$tmp/out"), expected 7 calls"
all=$(awk -F '\t' 'NR > 1 { s += $3 } END { print s }' "$tmp/out")
awk -v a="${row#* }" -v t="$all" 'BEGIN { exit !(t > 0 && a >= 0.9 * t) }' \
  || fail "--symbols=all: $lambda holds ${row#* } of $all s"
echo "--symbols=all: $lambda $calls calls, ${row#* } of $all s; $before $(awk -F '\t' -v f="$before" '$1 == f { print $2 }' "$tmp/out") calls"
finish
