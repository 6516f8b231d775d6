#!/bin/sh
# Oracle: GNU gprof.  data/programs/gmondemo.c (two cycles, self recursion,
# a function never called, ties, two static functions of one name) is
# built with gcc -pg as a non-PIE, a PIE and (where multilib works) a
# 32-bit program and run; `cgmerge --executable=EXE ... | cgcost --format=gprof`
# must print exactly what `gprof -b` prints on the same files, for the
# default report, -p, -q, -z, two files summed and gprof -s's gmon.sum.
# The bundled exprparse case (data/gmon/exprparse) is compared with the
# gprof outputs saved with it, options included, without needing gprof.
. "${top_srcdir:-.}/tests/cli/common.sh"
exprparse="$data/gmon/exprparse"

# same NAME FILE1 FILE2 — the two files are identical
same () {
  cmp -s "$2" "$3" || fail "$1: cgtools differs from gprof: $(diff "$2" "$3" | head -6)"
}

# ---- the bundled real case, against its saved gprof outputs ----
"$cgmerge" --executable="$exprparse/exprparse" "$exprparse/gmon.out" >"$tmp/e.xml" || fail "cgmerge exprparse"
validate "$tmp/e.xml"
"$cgcost" --format=gprof "$tmp/e.xml" >"$tmp/out" || fail "cgcost exprparse"
same "exprparse -b" "$exprparse/gprof-b.txt" "$tmp/out"
"$cgcycles" "$tmp/e.xml" | "$cgcost" --method=gprof --format=gprof -p >"$tmp/out"
same "exprparse -b -p through cgcycles" "$exprparse/gprof-b-p.txt" "$tmp/out"
"$cgcost" --format=gprof -q "$tmp/e.xml" >"$tmp/out"
same "exprparse -b -q" "$exprparse/gprof-b-q.txt" "$tmp/out"
"$cgcost" --format=gprof -p -z "$tmp/e.xml" >"$tmp/out"
same "exprparse -b -p -z" "$exprparse/gprof-b-p-z.txt" "$tmp/out"
"$cgmerge" --executable="$exprparse/exprparse" "$exprparse/gmon.out" "$exprparse/gmon.part2.out" >"$tmp/two.xml"
validate "$tmp/two.xml"
"$cgcost" --format=gprof -p "$tmp/two.xml" >"$tmp/out"
same "exprparse two files" "$exprparse/gprof-two-files-b-p.txt" "$tmp/out"
for s in p q; do
  "$cgcost" --executable="$exprparse/exprparse" --format=gprof -$s "$exprparse/gmon.sum" >"$tmp/out"
  same "exprparse gmon.sum -$s" "$exprparse/gprof-sum-b-$s.txt" "$tmp/out"
done
# cgcycles reads gmon.out directly too, given its executable
"$cgcycles" --format=text "$tmp/e.xml" >"$tmp/want"
"$cgcycles" --format=text --executable="$exprparse/exprparse" "$exprparse/gmon.out" >"$tmp/out" \
  || fail "cgcycles --executable"
cmp -s "$tmp/want" "$tmp/out" || fail "cgcycles --executable lists other cycles than cgmerge --executable | cgcycles"
grep -q 'cycle 1' "$tmp/out" || fail "cgcycles --executable: no cycle in exprparse"
# gprof's options, each against the file gprof wrote with it
option () {
  want="$exprparse/options/$1"
  shift
  "$cgcost" --executable="$exprparse/exprparse" --format=gprof "$@" "$exprparse/gmon.out" >"$tmp/out" \
    || fail "cgcost $*"
  same "exprparse $*" "$want" "$tmp/out"
}
option E-next_token.txt -E next_token
option e-next_token.txt --hide-entry=next_token
option F-expr.txt -F expr
option f-expr.txt --show-entry=expr
option k-term-factor.txt -q -k term/factor
option k-any-next_token.txt -q -k /next_token
option p-scan_number.txt -pscan_number
option P-scan_number.txt -Pscan_number
option q-term.txt -qterm
option Q-term.txt -Qterm
option w120.txt -q -w 120
option z-both.txt -z
option graph-unary.txt --graph=unary
option c-static-call-graph.txt -q -c
# the tsv contract, in seconds
"$cgcost" --format=tsv "$tmp/e.xml" >"$tmp/t.tsv"
[ "$(head -1 "$tmp/t.tsv")" = "$(printf 'function\tcalls\tself\ttotal')" ] || fail "tsv header"
[ "$(awk -F '\t' '$1 == "scan_number" { print $2 }' "$tmp/t.tsv")" = 54293415 ] || fail "tsv calls of scan_number"
awk -F '\t' '$1 == "eval_all" { exit !($4 > 1.33 && $4 < 1.34) }' "$tmp/t.tsv" || fail "tsv total of eval_all in seconds"

# bad data: exit 1 with the file and the offset; bad usage: exit 2
head -c 4000 "$exprparse/gmon.out" >"$tmp/cut.out"
expect 1 "$cgmerge" --executable="$exprparse/exprparse" "$tmp/cut.out" \
  && expect_message "cgmerge: $tmp/cut.out: offset 4000: the file ends inside a call-graph arc"
expect 1 "$cgmerge" --executable="$tmp/no-such-exe" "$exprparse/gmon.out" && expect_message "$tmp/no-such-exe: "
expect 1 "$cgmerge" --executable="$exprparse/gmon.sum" "$exprparse/gmon.out" && expect_message "not an ELF executable"
expect 2 "$cgcost" --format=gprof --method=measured "$tmp/e.xml"
expect 2 "$cgcost" --format=gprof -E "" "$tmp/e.xml"

# ---- programs built now, against gprof itself ----
GPROF=$(command -v gprof) || { finish; }
cc=${CC:-cc}
built=0
for variant in nopie pie m32; do
  flags=$(variant_flags $variant)
  exe="$tmp/gmondemo-$variant"
  # -fno-inline and no sibling calls keep the recursion the source has
  $cc -pg -O1 -fno-inline -fno-optimize-sibling-calls $flags -o "$exe" \
    "$data/programs/gmondemo.c" "$data/programs/gmondemo-util.c" 2>/dev/null || continue
  run="$tmp/run-$variant"
  mkdir -p "$run"
  (cd "$run" && "$exe" 6000 >/dev/null && GMON_OUT_PREFIX=part "$exe" 2500 >/dev/null && mv part.* gmon2.out) \
    || { fail "$variant: the program failed"; continue; }
  built=$((built + 1))
  "$cgmerge" --executable="$exe" "$run/gmon.out" >"$tmp/$variant.xml" || fail "$variant: cgmerge"
  validate "$tmp/$variant.xml"
  for opts in "" "-p" "-q" "-z" "-p -z"; do
    # shellcheck disable=SC2086
    "$GPROF" -b $opts "$exe" "$run/gmon.out" >"$tmp/want" 2>/dev/null
    # shellcheck disable=SC2086
    "$cgcost" --format=gprof $opts "$tmp/$variant.xml" >"$tmp/out" || fail "$variant: cgcost $opts"
    same "$variant gprof -b $opts" "$tmp/want" "$tmp/out"
  done
  "$GPROF" -b "$exe" "$run/gmon.out" "$run/gmon2.out" >"$tmp/want"
  "$cgmerge" --executable="$exe" "$run/gmon.out" "$run/gmon2.out" | "$cgcost" --format=gprof >"$tmp/out"
  same "$variant two files" "$tmp/want" "$tmp/out"
  (cd "$run" && "$GPROF" -s "$exe" gmon.out gmon2.out)
  "$GPROF" -b "$exe" "$run/gmon.sum" >"$tmp/want"
  "$cgcost" --executable="$exe" --format=gprof "$run/gmon.sum" >"$tmp/out"
  same "$variant gmon.sum" "$tmp/want" "$tmp/out"
  # cgcycles numbers cycles as gprof does: the members of <cycle N>
  "$GPROF" -b -q "$exe" "$run/gmon.out" | sed -n 's/^  *[0-9.]*  *[0-9.]*  *[0-9+]*  *\([a-z_]*\) <cycle \([0-9]*\)> \[.*/\2 \1/p' \
    | sort -u >"$tmp/want"
  "$cgcycles" --format=text "$tmp/$variant.xml" \
    | awk '/^<cycle/ { split($0, a, "[ >]"); c = a[2] } /^    / { print c, $2 }' | sort -u >"$tmp/got"
  same "$variant cycle numbers" "$tmp/want" "$tmp/got"
done

# another build of the program: the bundled exprparse's gmon.out read
# with exprparse.c built at -O0 (whose text spans the -O2 one's range,
# so no address check fails).  gprof prints call counts of whatever
# functions the addresses fall in; cgmerge reads it so too, and warns
# that the callee addresses follow no call of the profiling hook
ex="$data/gmon/exprparse"
if $cc -pg -O0 -no-pie -o "$tmp/exprparse-O0" "$ex/source/exprparse.c" 2>/dev/null; then
  expect 0 "$cgmerge" --executable="$tmp/exprparse-O0" "$ex/gmon.out" \
    && expect_message "call records name callees at no return from a profiling hook in $tmp/exprparse-O0"
  expect 0 "$cgmerge" --executable="$ex/exprparse" "$ex/gmon.out"
  [ -s "$tmp/err" ] && fail "the right executable: $(head -c 300 "$tmp/err")"
fi
[ "$built" -gt 0 ] || skip "cannot build programs with gcc -pg"
finish
