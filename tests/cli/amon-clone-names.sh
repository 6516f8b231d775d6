#!/bin/sh
# A routine of a stripped program that libamon left unnamed is named
# from the unstripped program given with --executable, by the symbol
# that holds the address the -pg mode knows (inside the routine, after
# its call of the hook).  gcc -O2 clones static functions (spin() of
# data/programs/clones.c, as spin.constprop.0.isra.0 or another dotted
# name, found with nm):
# named by gprof's choice of symbols, which takes no such clone for a
# function, the clone was named after the symbol before it in memory
# (crt's frame_dummy), with spin's 200 calls.  Oracle: nm's name for the
# clone and the program's loop counts (outer() 50 times, leaf() 4 times
# each: 200 calls of the clone).
. "${top_srcdir:-.}/tests/cli/common.sh"
amon_setup
command -v nm >/dev/null 2>&1 || skip "no nm"
command -v strip >/dev/null 2>&1 || skip "no strip"
# shellcheck disable=SC2086 # the flags are words
$CC -O2 $cflags -o "$tmp/clones" "$data/programs/clones.c" -L"$libdir" -lamon -Wl,-rpath,"$libdir" >"$tmp/build.log" 2>&1 \
  || { cat "$tmp/build.log"; fail "building the program ($cflags)"; finish; }
clone=$(nm "$tmp/clones" | awk '$3 ~ /^spin\./ { print $3; exit }')
[ -n "$clone" ] || skip "gcc did not clone spin() (nm: $(nm "$tmp/clones" | grep spin))"
cp "$tmp/clones" "$tmp/stripped" && strip "$tmp/stripped"
(cd "$tmp" && AMON_OUT="$tmp/amon.out" ./stripped 1000) || fail "the stripped program failed"
expect 0 "$cgcost" --executable="$tmp/clones" --format=tsv "$tmp/amon.out"
awk -F '\t' -v c="$clone" '$1 == c { calls = $2 } END { exit calls != 200 }' "$tmp/out" \
  || fail "the clone is not $clone with 200 calls: $(cat "$tmp/out")"
grep -q '^frame_dummy	' "$tmp/out" && fail "a routine is named frame_dummy: $(cat "$tmp/out")"
finish
