#!/bin/sh
# cgcost --base on sampled profiles (perf, gmon.out, folded stacks) marks
# "?" the functions whose changes lie within their sampling noise, and
# says how many samples each profile holds, where it said nothing: a
# gmon.out pair of Lua 5.4 (100 samples a second) listed lua_type +0.03 s
# from 0, three samples, as a change beside internshrstr's +0.60 s.
# Oracle: awk over the difference's own tsv (a fixed contract) and the
# stacks' counts: a function of c of a profile's T samples varies by
# c·(1 - c/T) (binomial), the two profiles' variances add, and a change
# within twice the square root of that is noise.
. "${top_srcdir:-.}/tests/cli/common.sh"

# folded stacks, each count a sample: hot beyond its noise, warm and cold
# within theirs, tiny (3 -> 30) beyond
printf 'main;a;hot 1000\nmain;a;warm 100\nmain;b;cold 10\nmain;b;tiny 3\n' >"$tmp/base.folded"
printf 'main;a;hot 1300\nmain;a;warm 108\nmain;b;cold 16\nmain;b;tiny 30\n' >"$tmp/new.folded"
sum () { awk '{ s += $NF } END { print s }' "$1"; }

# within BASE_SAMPLES NEW_SAMPLES TSV — the names whose changes of total
# and self are both within twice their standard deviation, sorted
within () {
  awk -F '\t' -v B="$1" -v N="$2" '
    function var (c, t) { return c * (1 - c / t) }
    function noise (b, n) { return 2 * sqrt (var (b, B) + var (n, N)) }
    function abs (x) { return x < 0 ? -x : x }
    NR > 1 && abs ($4) <= noise ($2, $3) && abs ($7) <= noise ($5, $6) { print $1 }' "$3" | sort
}
# marked TEXT — the names the text marks "?", sorted
marked () {
  sed -n '/^ *total change /,/^$/p' "$1" | sed '1d;$d' | sed -nE 's/^( *[^ ]+ ){4}\?..//p' | sort
}
check_pair () { # WHAT BASE NEW SAMPLES_BASE SAMPLES_NEW
  expect 0 "$cgcost" --base="$2" --format=tsv "$3" && cp "$tmp/out" "$tmp/pair.tsv"
  expect 0 "$cgcost" --base="$2" --format=text "$3" && cp "$tmp/out" "$tmp/pair.txt"
  within "$4" "$5" "$tmp/pair.tsv" >"$tmp/want"
  marked "$tmp/pair.txt" >"$tmp/got"
  [ -s "$tmp/want" ] || fail "$1: the oracle finds no change within the noise"
  cmp -s "$tmp/want" "$tmp/got" || fail "$1: marked $(tr '\n' ' ' <"$tmp/got"), the oracle $(tr '\n' ' ' <"$tmp/want")"
  grep -qx "Sampled: $(printf '%s' "$4" | sed ':a
s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/
ta') samples in the base, $(printf '%s' "$5" | sed ':a
s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/
ta') in the new profile." "$tmp/pair.txt" || fail "$1: the samples: $(grep Sampled "$tmp/pair.txt")"
}
B=$(sum "$tmp/base.folded") N=$(sum "$tmp/new.folded")
check_pair folded "$tmp/base.folded" "$tmp/new.folded" "$B" "$N"
[ "$(tr '\n' ' ' <"$tmp/want")" = "cold warm " ] || fail "folded: the oracle's noise: $(cat "$tmp/want")"
# through cgmerge's XML the samples stay (each input's added)
expect 0 "$cgmerge" "$tmp/base.folded" && cp "$tmp/out" "$tmp/base.xml"
expect 0 "$cgmerge" "$tmp/new.folded" && cp "$tmp/out" "$tmp/new.xml"
validate "$tmp/base.xml"
check_pair "folded through XML" "$tmp/base.xml" "$tmp/new.xml" "$B" "$N"
expect 0 "$cgmerge" "$tmp/base.folded" "$tmp/base.folded" && cp "$tmp/out" "$tmp/twice.xml"
grep -q "samples=\"$((2 * B))\"" "$tmp/twice.xml" || fail "two inputs' samples: $(grep '<event ' "$tmp/twice.xml")"
# cgtree says the samples too, and what is noise
expect 0 "$cgtree" --base="$tmp/base.folded" "$tmp/new.folded"
grep -qx "Sampled: 1,113 samples in the base, 1,454 in the new profile." "$tmp/out" \
  || fail "cgtree --base: the samples: $(grep Sampled "$tmp/out")"
grep -q "within the" "$tmp/out" || fail "cgtree --base: no word of the noise: $(sed -n 1,20p "$tmp/out")"
# instructions are no samples: no line, no mark
recdemo="$data/callgrind/recdemo/callgrind.out.recdemo"
expect 0 "$cgcost" --base="$recdemo" --format=text "$recdemo"
grep -q '^Sampled' "$tmp/out" && fail "callgrind against itself says it was sampled"
grep -q '?  ' "$tmp/out" && fail "callgrind against itself: a row marked: $(grep '?  ' "$tmp/out")"
expect 0 "$cgtree" --base="$recdemo" "$recdemo"
grep -q '^Sampled' "$tmp/out" && fail "cgtree: callgrind against itself says it was sampled"

# perf, where it records: the samples said are those perf report counts
if command -v perf >/dev/null 2>&1 && command -v "${CC:-cc}" >/dev/null 2>&1 \
  && ${CC:-cc} -O1 -g -o "$tmp/prog" "$top_srcdir/data/programs/diff-order.c"; then
  n=0
  for arg in 300000 600000; do
    perf record -q -e cpu-clock -g -o "$tmp/p$arg.data" "$tmp/prog" $arg >/dev/null 2>&1 || break
    n=$((n + 1))
  done
  if [ $n -eq 2 ]; then
    count () { perf script -i "$1" -F event 2>/dev/null | grep -c 'cpu-clock'; }
    expect 0 "$cgcost" --base="$tmp/p300000.data" --format=text "$tmp/p600000.data"
    grep -qx "Sampled: .* samples in the base, .* in the new profile." "$tmp/out" \
      || fail "perf: no samples said: $(sed -n 1,6p "$tmp/out")"
    said=$(sed -n 's/^Sampled: \([0-9,]*\) samples in the base, \([0-9,]*\) in.*/\1 \2/p' "$tmp/out" | tr -d ,)
    [ "$said" = "$(count "$tmp/p300000.data") $(count "$tmp/p600000.data")" ] \
      || fail "perf: the samples said, $said, against perf script's $(count "$tmp/p300000.data") $(count "$tmp/p600000.data")"
  else
    echo "SKIP part: perf cannot record here"
  fi
fi
finish
