#!/bin/sh
# Oracle: callgrind itself.  data/programs/cgdemo.c is built and profiled
# now; the true total of a function F is what callgrind counts when it
# collects only while F is on the stack (--collect-atstart=no
# --toggle-collect=F), one run per function.  The totals cgtools computes
# from one ordinary run must equal them to the instruction, whatever
# options wrote the profile; and per-thread files must sum to the
# single-file profile.
. "${top_srcdir:-.}/tests/cli/common.sh"
[ -n "${VALGRIND:-}" ] && [ -x "$VALGRIND" ] || skip "valgrind is not installed"
${CC:-cc} -O1 -g -fno-optimize-sibling-calls -pthread -o "$tmp/cgdemo" "$data/programs/cgdemo.c" \
  || skip "cannot compile the test program"

functions="main workload work many_cheap_calls few_costly_calls depth_sum ping pong a3 b3 c3"

# callgrind NAME OPTIONS... — profile cgdemo (same arguments, same output
# redirection every time, so that every run executes the same instructions)
callgrind () {
  out="$tmp/callgrind.out.$1"
  shift
  (cd "$tmp" && "$VALGRIND" --tool=callgrind "$@" --callgrind-out-file="$out" ./cgdemo >/dev/null 2>&1) \
    || fail "valgrind $*"
}

for f in $functions; do
  callgrind "truth-$f" --collect-atstart=no --toggle-collect="$f"
  sed -n 's/^totals: //p' "$tmp/callgrind.out.truth-$f" >"$tmp/truth.$f"
done

# check_totals NAME TSV — every function's total equals its truth
check_totals () {
  for f in $functions; do
    want=$(cat "$tmp/truth.$f")
    got=$(total_of "$2" "$f")
    [ -n "$want" ] && [ "$got" = "$want" ] || fail "$1: total of $f is '$got', callgrind says '$want'"
  done
}

# profile PROFILES... | cgcycles | cgcost --format=tsv, validating the XML
pipeline () {
  "$cgmerge" "$@" >"$tmp/m.xml" && "$cgcycles" "$tmp/m.xml" >"$tmp/c.xml" \
    && "$cgcost" "$tmp/c.xml" >"$tmp/x.xml" && "$cgcost" --format=tsv "$tmp/x.xml" >"$tmp/totals.tsv" \
    || fail "the pipeline failed on $*"
  validate "$tmp/m.xml" "$tmp/c.xml" "$tmp/x.xml"
}

callgrind default
pipeline "$tmp/callgrind.out.default"
check_totals "default options" "$tmp/totals.tsv"
# gprof's average-time assumption would get this wrong: the arc carries
# the cost of the calls actually made from each caller
"$cgcost" --format=tsv --arcs "$tmp/callgrind.out.default" >"$tmp/arcs.tsv"
cheap=$(awk -F '\t' '$1 == "many_cheap_calls" && $2 == "work" { print $4 }' "$tmp/arcs.tsv")
costly=$(awk -F '\t' '$1 == "few_costly_calls" && $2 == "work" { print $4 }' "$tmp/arcs.tsv")
[ "$cheap" -lt 50000 ] && [ "$costly" -gt 1000000 ] || fail "arc costs of work: cheap $cheap, costly $costly"

for variant in "separate-callers --separate-callers=3" \
               "instr-jumps --dump-instr=yes --collect-jumps=yes" \
               "caches --cache-sim=yes --branch-sim=yes --collect-systime=nsec" \
               "combined-dumps --combine-dumps=yes --dump-every-bb=20000" \
               "uncompressed --compress-strings=no --compress-pos=no" \
               "callers-and-levels --separate-callers=2 --separate-recs=3"; do
  set -- $variant
  name=$1
  shift
  callgrind "$name" "$@"
  pipeline "$tmp/callgrind.out.$name"
  check_totals "$name" "$tmp/totals.tsv"
done
grep -q '^part: 3' "$tmp/callgrind.out.combined-dumps" || fail "--combine-dumps wrote fewer than three parts"
grep -q "^fn=.*'" "$tmp/callgrind.out.separate-callers" || fail "--separate-callers wrote no context names"

# one file per dump, summed
callgrind dumps --dump-every-bb=30000
ls "$tmp"/callgrind.out.dumps.* >/dev/null 2>&1 || fail "--dump-every-bb wrote no intermediate dumps"
pipeline "$tmp"/callgrind.out.dumps "$tmp"/callgrind.out.dumps.*
check_totals "one file per dump" "$tmp/totals.tsv"

# without the recursion split: self-recursion stays exact, a cycle's
# members get the cycle's total, marked estimated ("~")
callgrind recs1 --separate-recs=1
pipeline "$tmp/callgrind.out.recs1"
for f in main work depth_sum few_costly_calls; do
  [ "$(total_of "$tmp/totals.tsv" "$f")" = "$(cat "$tmp/truth.$f")" ] || fail "--separate-recs=1: $f is not exact"
done
"$cgcost" --format=text "$tmp/callgrind.out.recs1" >"$tmp/recs1.txt"
for f in ping pong a3 b3 c3; do
  grep -q "~ *[0-9.]* .*  $f <cycle" "$tmp/recs1.txt" || fail "--separate-recs=1: $f is not marked estimated"
done
[ "$(total_of "$tmp/totals.tsv" ping)" = "$(cat "$tmp/truth.ping")" ] || fail "ping's cycle total"

# threads: per-thread files sum to the one-file profile.  Two runs of a
# threaded program differ in thread creation and joining (scheduling), so
# only the threads' own deterministic work is compared, not main.
(cd "$tmp" && "$VALGRIND" --tool=callgrind --callgrind-out-file="$tmp/threads.one" ./cgdemo threads >/dev/null 2>&1)
(cd "$tmp" && "$VALGRIND" --tool=callgrind --separate-threads=yes --callgrind-out-file="$tmp/threads.each" \
   ./cgdemo threads >/dev/null 2>&1)
"$cgcost" --format=tsv "$tmp/threads.one" >"$tmp/one.tsv"
# the natural glob: it takes the empty file callgrind leaves beside them too
[ -f "$tmp/threads.each" ] && [ ! -s "$tmp/threads.each" ] || fail "--separate-threads=yes left no empty threads.each"
"$cgmerge" "$tmp"/threads.each* | "$cgcost" --format=tsv >"$tmp/each.tsv"
for f in workload work many_cheap_calls few_costly_calls depth_sum ping pong a3 b3 c3; do
  a=$(total_of "$tmp/one.tsv" "$f")
  b=$(total_of "$tmp/each.tsv" "$f")
  [ -n "$a" ] && [ "$a" = "$b" ] || fail "threads: $f is $a in one file, $b summed over per-thread files"
done
[ "$(total_of "$tmp/one.tsv" workload)" -gt "$(cat "$tmp/truth.workload")" ] || fail "threads: workload ran twice"

# a signal handler: callgrind leaves its cost out of summary: (which is
# then below the self costs); the handler starts spontaneously and runs
# the workload once more
(cd "$tmp" && "$VALGRIND" --tool=callgrind --callgrind-out-file="$tmp/signal.out" ./cgdemo signal >/dev/null 2>&1)
"$cgcost" --format=tsv "$tmp/signal.out" >"$tmp/signal.tsv" || fail "a profile with a signal handler was refused"
workload=$(cat "$tmp/truth.workload")
[ "$(total_of "$tmp/signal.tsv" workload)" = $((2 * workload)) ] || fail "signal: workload is not twice its truth"
[ "$(total_of "$tmp/signal.tsv" on_signal)" -gt "$workload" ] || fail "signal: the handler's total lacks its call"

# --cacheuse=yes: callgrind's summary: has 0 for its events, and no
# calls= line carries them: read, with a warning naming them; Ir exact
callgrind cacheuse --cacheuse=yes
"$cgcost" --format=tsv "$tmp/callgrind.out.cacheuse" >"$tmp/cacheuse.tsv" 2>"$tmp/cacheuse.err" \
  || fail "a --cacheuse=yes profile was refused: $(cat "$tmp/cacheuse.err")"
grep -q "no calls= line carries any cost of AcCost1 SpLoss1 AcCost2 SpLoss2" "$tmp/cacheuse.err" \
  || fail "--cacheuse=yes: no warning about its events: $(cat "$tmp/cacheuse.err")"
check_totals "cacheuse" "$tmp/cacheuse.tsv"
finish
