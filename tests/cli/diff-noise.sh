#!/bin/sh
# cgcost --base on sampled profiles (perf, gmon.out, folded stacks, V8,
# gperftools, pprof, libamon's sampling clock) marks
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
# and marks the lines so, as cgcost's text marks the functions: each leaf
# is one line, its change the function's
tree_marked=$(awk '/^ *incl% / { t = 1; next } t && $4 ~ /\?$/ { print $NF }' "$tmp/out" | sed 's/^`-//; s/^|-//' | sort | tr '\n' ' ')
[ "$tree_marked" = "cold warm " ] || fail "cgtree --base: marked '$tree_marked' (expected cold warm): $(tail -8 "$tmp/out")"
# instructions are no samples: no line, no mark
recdemo="$data/callgrind/recdemo/callgrind.out.recdemo"
expect 0 "$cgcost" --base="$recdemo" --format=text "$recdemo"
grep -q '^Sampled' "$tmp/out" && fail "callgrind against itself says it was sampled"
grep -q '?  ' "$tmp/out" && fail "callgrind against itself: a row marked: $(grep '?  ' "$tmp/out")"
expect 0 "$cgtree" --base="$recdemo" "$recdemo"
grep -q '^Sampled' "$tmp/out" && fail "cgtree: callgrind against itself says it was sampled"

# perf, where it records: the samples said are those perf report counts
prog_built=
command -v "${CC:-cc}" >/dev/null 2>&1 && ${CC:-cc} -O1 -g -o "$tmp/prog" "$top_srcdir/data/programs/diff-order.c" \
  && prog_built=yes
if command -v perf >/dev/null 2>&1 && [ -n "$prog_built" ]; then
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

# V8's CPU profiles: each sample counts, of its time (here 100 us each,
# so that the oracle's counts are the samples event's tsv)
v8 () { # NAME HOT WARM COLD: samples of three leaves under main
  awk -v h="$2" -v w="$3" -v c="$4" 'BEGIN {
    printf "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"scriptId\":\"0\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1},\"children\":[2]},"
    printf "{\"id\":2,\"callFrame\":{\"functionName\":\"main\",\"scriptId\":\"1\",\"url\":\"file:///m.js\",\"lineNumber\":0,\"columnNumber\":0},\"children\":[3,4,5]},"
    split ("hot warm cold", f, " ")
    for (i = 1; i <= 3; i++)
      printf "{\"id\":%d,\"callFrame\":{\"functionName\":\"%s\",\"scriptId\":\"1\",\"url\":\"file:///m.js\",\"lineNumber\":%d,\"columnNumber\":0}}%s", i + 2, f[i], i, i < 3 ? "," : ""
    n = h + w + c
    printf "],\"startTime\":0,\"endTime\":%d,\"samples\":[", 100 * n
    for (i = 0; i < n; i++) printf "%s%d", i ? "," : "", i < h ? 3 : i < h + w ? 4 : 5
    printf "],\"timeDeltas\":["
    for (i = 0; i < n; i++) printf "%s100", i ? "," : ""
    printf "]}\n" }' >"$tmp/$1.cpuprofile"
}
v8 base 400 60 20
v8 new 520 66 26
expect 0 "$cgcost" --base="$tmp/base.cpuprofile" --format=tsv --event=samples "$tmp/new.cpuprofile" \
  && within 480 612 "$tmp/out" >"$tmp/v8.want"
[ "$(tr '\n' ' ' <"$tmp/v8.want")" = "cold warm " ] || fail "V8: the oracle's noise: $(cat "$tmp/v8.want")"
expect 0 "$cgcost" --base="$tmp/base.cpuprofile" --format=text "$tmp/new.cpuprofile" && cp "$tmp/out" "$tmp/v8.txt"
marked "$tmp/v8.txt" >"$tmp/v8.got"
cmp -s "$tmp/v8.want" "$tmp/v8.got" || fail "V8: marked $(tr '\n' ' ' <"$tmp/v8.got"), the oracle $(tr '\n' ' ' <"$tmp/v8.want")"
grep -qx "Sampled: 480 samples in the base, 612 in the new profile." "$tmp/v8.txt" \
  || fail "V8: the samples: $(grep Sampled "$tmp/v8.txt")"

# gperftools' CPU profiles, and the same as pprof's profile.proto (go
# tool pprof -proto writes Go's sample types, samples and cpu): the
# samples said are those google-pprof counts
libprofiler=$(${CC:-cc} -print-file-name=libprofiler.so)
if command -v google-pprof >/dev/null 2>&1 && [ -f "$libprofiler" ] && [ -n "${prog_built:-}" ]; then
  for arg in 300000 600000; do
    CPUPROFILE="$tmp/g$arg.prof" CPUPROFILE_FREQUENCY=1000 LD_PRELOAD="$libprofiler" "$tmp/prog" $arg >/dev/null 2>&1
  done
  gcount () { google-pprof --text "$tmp/prog" "$1" 2>/dev/null | sed -n 's/^Total: \([0-9]*\) samples$/\1/p'; }
  b=$(gcount "$tmp/g300000.prof") n=$(gcount "$tmp/g600000.prof")
  if [ "${b:-0}" -gt 0 ] && [ "${n:-0}" -gt 0 ]; then
    expect 0 "$cgcost" --base="$tmp/g300000.prof" --format=text "$tmp/g600000.prof"
    said=$(sed -n 's/^Sampled: \([0-9,]*\) samples in the base, \([0-9,]*\) in.*/\1 \2/p' "$tmp/out" | tr -d ,)
    [ "$said" = "$b $n" ] || fail "gperftools: the samples said, '$said', against google-pprof's $b $n"
    if command -v go >/dev/null 2>&1; then
      for arg in 300000 600000; do
        HOME=$tmp/home GOCACHE=$tmp/gocache GOENV=off GOTOOLCHAIN=local GOTELEMETRY=off PPROF_TMPDIR=$tmp \
          go tool pprof -proto "$tmp/prog" "$tmp/g$arg.prof" >"$tmp/g$arg.pb.gz" 2>/dev/null
      done
      if [ -s "$tmp/g300000.pb.gz" ] && [ -s "$tmp/g600000.pb.gz" ]; then
        expect 0 "$cgcost" --base="$tmp/g300000.pb.gz" --format=text "$tmp/g600000.pb.gz"
        said=$(sed -n 's/^Sampled: \([0-9,]*\) samples in the base, \([0-9,]*\) in.*/\1 \2/p' "$tmp/out" | tr -d ,)
        [ "$said" = "$b $n" ] || fail "pprof: the samples said, '$said', against google-pprof's $b $n"
      else
        echo "SKIP part: go tool pprof -proto wrote nothing"
      fi
    fi
  else
    echo "SKIP part: libprofiler recorded no samples"
  fi
fi

# libamon's sampling clock: a sample every period of CPU time (the
# header's resolution, 1 ms), so a profile of T ms of the program's time
# holds about T samples; the marks follow the binomial rule on the
# costs counted in samples of T/samples each
if [ -n "$prog_built" ] && [ -f "$top_builddir/src/amon/.libs/libamon.so" ] && command -v pkg-config >/dev/null 2>&1; then
  amon_setup
  # shellcheck disable=SC2086 # the flags are words
  # two routines sharing the time 2:1, run twice alike: their changes
  # are run-to-run noise, as the marks should say
  cat >"$tmp/two.c" <<'EOF'
#include <stdlib.h>
static volatile unsigned long sink;
__attribute__ ((noinline)) static void spin (unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }
__attribute__ ((noinline)) static void hot (unsigned long n) { spin (2 * n); }
__attribute__ ((noinline)) static void warm (unsigned long n) { spin (n); }
int main (int argc, char **argv)
{
  unsigned long n = strtoul (argv[1], 0, 10);
  for (int i = 0; i < 100; i++) { hot (n); warm (n); }
  return 0;
}
EOF
  if $CC -O1 $cflags -o "$tmp/aprog" "$tmp/two.c" -L"$libdir" -lamon -Wl,-rpath,"$libdir" \
       -Wl,-z,now 2>"$tmp/build.log"; then
    for f in a1 a2; do
      (cd "$tmp" && AMON_CLOCK=sample AMON_OUT="$tmp/$f.out" ./aprog 500000 >/dev/null) || fail "the libamon build did not run"
    done
    # the period (header bytes 32-39, picoseconds, little-endian) and the
    # profile's time in ns (cpu-time's tsv total of its roots, in s)
    period_ps () { od -An -tu8 -j32 -N8 "$1" | tr -d ' '; }
    time_ns () { "$cgcost" --format=tsv "$1" | awk -F '\t' 'NR > 1 && $2 == 0 { s += $4 } END { printf "%.0f", s * 1e9 }'; }
    for f in a1 a2; do
      eval "n_$f=\$(awk -v t=\"\$(time_ns \"$tmp/$f.out\")\" -v p=\"\$(period_ps \"$tmp/$f.out\")\" 'BEGIN { printf \"%.0f\", t * 1000 / p }')"
    done
    expect 0 "$cgcost" --base="$tmp/a1.out" --format=text "$tmp/a2.out" && cp "$tmp/out" "$tmp/amon.txt"
    said=$(sed -n 's/^Sampled: \([0-9,]*\) samples in the base, \([0-9,]*\) in.*/\1 \2/p' "$tmp/amon.txt" | tr -d ,)
    [ "$said" = "$n_a1 $n_a2" ] && [ "$n_a1" -gt 0 ] \
      || fail "amon.out: the samples said, '$said', against the times over the period: $n_a1 $n_a2"
    # the oracle's marks, in ns: a cost c of a profile of T ns in S
    # samples of p = T/S ns each varies by p·c·(1 - c/T)
    expect 0 "$cgcost" --base="$tmp/a1.out" --format=tsv "$tmp/a2.out" && cp "$tmp/out" "$tmp/amon.tsv"
    bt=$(time_ns "$tmp/a1.out") nt=$(time_ns "$tmp/a2.out")
    sed -n '/^ *total change /,/^$/p' "$tmp/amon.txt" | sed '1d;$d' | awk '{ print $NF }' | sort >"$tmp/amon.listed"
    awk -F '\t' -v B="$bt" -v Sb="$n_a1" -v N="$nt" -v Sn="$n_a2" '
      function var (c, t, s) { return (t / s) * c * (1 - c / t) }
      function noise (b, n) { return 2 * sqrt (var (b, B, Sb) + var (n, N, Sn)) }
      function abs (x) { return x < 0 ? -x : x }
      NR > 1 && abs ($3 - $2) * 1e9 <= noise ($2 * 1e9, $3 * 1e9) && abs ($6 - $5) * 1e9 <= noise ($5 * 1e9, $6 * 1e9) { print $1 }' \
      "$tmp/amon.tsv" | sort | comm -12 - "$tmp/amon.listed" >"$tmp/amon.want"
    marked "$tmp/amon.txt" >"$tmp/amon.got"
    [ "$(wc -l <"$tmp/amon.listed")" -ge 2 ] || fail "amon.out: the text lists $(cat "$tmp/amon.listed")"
    cmp -s "$tmp/amon.want" "$tmp/amon.got" \
      || fail "amon.out: marked $(tr '\n' ' ' <"$tmp/amon.got"), the oracle $(tr '\n' ' ' <"$tmp/amon.want")"
  else
    fail "cannot build a program with libamon: $(head -c 300 "$tmp/build.log")"
  fi
fi
finish
