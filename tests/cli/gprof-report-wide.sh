#!/bin/sh
# gprof prints an entry's "[index]" in 6 columns (GNU's cg_print.c and
# 4.4 BSD's printgprof.c alike, "%-6.6s"): from [10000] on the ']' is cut,
# "[10000   0.0    0.00    0.00       1         f9951 [10000]", and the
# BSDs' gprof (macOS's) cuts its index's cells so too ("[25689
# _PointLightExpandBo"), as GNU's -T does ("[10000 f9951").  Oracle: GNU
# gprof, on a program of 10,051 functions built with -pg here: its
# reports (gprof -b, gprof -b -T) give the arcs and calls of the gmon.out
# read itself, and are printed again as gprof printed them.
. "${top_srcdir:-.}/tests/cli/common.sh"
GPROF=$(command -v gprof) || skip "no gprof"

# hot, then f0 ... f10049 called once each from main
awk 'BEGIN {
  n = 10050
  print "volatile long s;"
  print "__attribute__((noinline)) void hot(long k) { for (long j = 0; j < k; j++) s += j; }"
  for (i = 0; i < n; i++) printf "void f%d(void) { s++; }\n", i
  print "int main(void) {"
  print "  hot(100000000L);"
  for (i = 0; i < n; i++) printf "  f%d();\n", i
  print "  return 0;"
  print "}" }' >"$tmp/wide.c"
${CC:-cc} -O0 -pg -o "$tmp/wide" "$tmp/wide.c" || skip "cannot build with -pg"
(cd "$tmp" && ./wide) || fail "test set-up: the program failed"
"$GPROF" -b "$tmp/wide" "$tmp/gmon.out" >"$tmp/b.txt" 2>/dev/null || fail "gprof -b"
"$GPROF" -b -T "$tmp/wide" "$tmp/gmon.out" >"$tmp/t.txt" 2>/dev/null || fail "gprof -b -T"
grep -q '^\[10000   0\.0 ' "$tmp/b.txt" || fail "test set-up: gprof printed no entry [10000 with its ']' cut"
grep -q ' \[10000 f9951 ' "$tmp/t.txt" || fail "test set-up: gprof -T printed no index cell [10000 with its ']' cut"
"$cgmerge" --executable="$tmp/wide" "$tmp/gmon.out" >"$tmp/gmon.xml" || fail "cgmerge gmon.out"

# arcs XML — "caller<TAB>callee<TAB>calls", sorted
arcs () {
  "$cgcost" --method=gprof --format=tsv --arcs "$1" | awk -F '\t' 'NR > 1 && $3 > 0 { print $1 "\t" $2 "\t" $3 }' | sort
}
arcs "$tmp/gmon.xml" >"$tmp/want"
[ "$(wc -l <"$tmp/want")" -eq 10051 ] || fail "test set-up: the gmon.out has $(wc -l <"$tmp/want") arcs, not 10051"

for report in b t; do
  "$cgmerge" "$tmp/$report.txt" >"$tmp/$report.xml" 2>"$tmp/err" || { fail "$report: $(head -c 300 "$tmp/err")"; continue; }
  arcs "$tmp/$report.xml" | cmp -s "$tmp/want" - || fail "$report: arcs differ from the gmon.out's"
  "$cgcost" --format=tsv "$tmp/$report.xml" | awk -F '\t' '$1 == "f9951" || $1 == "f9999" || $1 == "main" { print $1, $2 }' \
    | sort | tr '\n' ' ' >"$tmp/got"
  [ "$(cat "$tmp/got")" = "f9951 1 f9999 1 main 0 " ] || fail "$report: $(cat "$tmp/got")"
done
# printed again as gprof printed it
expect 0 "$cgcost" --format=gprof "$tmp/b.xml" \
  && { cmp -s "$tmp/b.txt" "$tmp/out" || fail "printed again differently: $(diff "$tmp/b.txt" "$tmp/out" | head -4)"; }
finish
