#!/bin/sh
# A program given as a profile, where gprof takes it ("gprof PROG
# gmon.out"), is named as an executable with what to do, where every tool
# said "PROG:1: unknown input format (expected an amon.out, a gmon.out,
# ...)" (mawk built with -pg, "cgcost --format=gprof ./mawk gmon.out").
# Given with --executable as well, it is named so, where the old BSD
# gmon.out reader said "not a gmon.out file".  Exit 1, and the command the message gives prints gprof -b's report
# byte for byte (the oracle), for a program built with -pg here.
. "${top_srcdir:-.}/tests/cli/common.sh"
cc=${CC:-cc}
GPROF=$(command -v gprof) || skip "no gprof"
cat >"$tmp/p.c" <<'CEOF'
volatile unsigned long sink;
__attribute__ ((noinline)) void leaf (unsigned long i) { for (int k = 0; k < 200; k++) sink += i * k; }
int main (void) { for (unsigned long i = 0; i < 200000; i++) leaf (i); return 0; }
CEOF
(cd "$tmp" && "$cc" -O1 -pg -o p p.c) 2>"$tmp/cc.err" || skip "cannot build with -pg: $(head -3 "$tmp/cc.err")"
(cd "$tmp" && ./p) || fail "the program failed"
[ -s "$tmp/gmon.out" ] || skip "no gmon.out written"
for tool in "$cgcost --format=gprof" "$cgtree" "$cgmerge" "$cgcycles"; do
  # shellcheck disable=SC2086
  expect 1 $tool "$tmp/p" "$tmp/gmon.out" \
    && expect_message "$tmp/p: an ELF executable or library, not a profile: name a gmon.out's or amon.out's program with --executable=$tmp/p"
done
# the program named twice: as --executable and among the profiles
for tool in "$cgcost --format=gprof" "$cgmerge"; do
  # shellcheck disable=SC2086
  expect 1 $tool --executable="$tmp/p" "$tmp/gmon.out" "$tmp/p" \
    && expect_message "$tmp/p: an ELF executable or library, not a profile: --executable names the program ($tmp/p); give only profiles as FILEs"
done
"$GPROF" -b "$tmp/p" "$tmp/gmon.out" >"$tmp/gprof" 2>/dev/null || fail "gprof -b"
expect 0 "$cgcost" --format=gprof --executable="$tmp/p" "$tmp/gmon.out" && cmp -s "$tmp/gprof" "$tmp/out" \
  || fail "the suggested command: $(diff "$tmp/gprof" "$tmp/out" | head -5)"
finish
