#!/bin/sh
# Python's profile statistics read directly (formats/pstats.md), written
# at test time by `python3 -m cProfile -o` and `python3 -m profile -o` on
# tests/cli/producers/pstats-workload.py (direct and mutual recursion, a
# generator, built-ins, one name at two lines).  Oracle: python3's own
# pstats module, each function's tottime and cumtime and each caller's
# count from Stats.stats: cgcost's self is tottime (to the nanosecond),
# its calls the calls from other functions, every total it calls exact is
# cumtime and every other one at least that; and where pyprof2calltree is
# installed, the profile equals the one its conversion gives (the same
# cgtools XML, its times rounded as ours; truncated as it writes them, the
# same functions and calls, each self at most 1 ns below).  Then two files
# summed (pstats.Stats(a, b)), compressed and archived, and the errors:
# hand-made damage and the file cut at every offset, each exit 1 with a
# message.  Skipped (77) where python3 is missing.
. "${top_srcdir:-.}/tests/cli/common.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
here=$(cd "$top_srcdir/tests/cli/producers" && pwd)

(cd "$tmp" && python3 -m cProfile -o c.prof "$here/pstats-workload.py" && python3 -m profile -o p.prof \
  "$here/pstats-workload.py" && python3 -m cProfile -o c2.prof "$here/pstats-workload.py") >"$tmp/log" 2>&1 \
  || { fail "python3 -m cProfile: $(tail -3 "$tmp/log")"; finish; }
# the views name the method without naming another producer (they said
# "callgrind's measured inclusive costs" of Python's)
for view in "$cgcost --format=text" "$cgtree"; do
  $view "$tmp/c.prof" >"$tmp/view" 2>&1 || fail "$view c.prof"
  grep -q "^Method: measured (measured inclusive costs, as the producer timed the calls" "$tmp/view" \
    && ! grep -qi callgrind "$tmp/view" || fail "$view c.prof: $(grep -i 'method\|callgrind' "$tmp/view")"
done

# oracle FILE... — pstats' view of the files summed: "F label calls self
# cumtime" per function, "A caller callee count" per caller, in ns
# rounded, labelled as cgcost labels them (pyprof2calltree's names:
# "name:line" for one name at two lines of a file; "name [file]" for a
# name in two files; the profile module's command, a code object, is
# "<code object>")
oracle () {
  python3 -c 'import pstats, sys, collections
st = pstats.Stats(*sys.argv[1:]).stats
def name(k):
    return k[2] if isinstance(k[2], str) else "<code object>"
count = collections.Counter((k[0], name(k)) for k in st)
def munged(k):
    return name(k) if count[(k[0], name(k))] == 1 else "%s:%d" % (name(k), k[1])
files = collections.defaultdict(set)
for k in st:
    files[munged(k)].add(k[0])
def label(k):
    m = munged(k)
    return m if len(files[m]) == 1 else "%s [%s]" % (m, k[0])
def ns(x):
    return int(x * 1e9 + 0.5)
def calls(v):
    return v[0] if isinstance(v, tuple) else v
for k, (cc, nc, tt, ct, callers) in st.items():
    print("F\t%s\t%d\t%d\t%d" % (label(k), sum(calls(v) for c, v in callers.items() if c != k), ns(tt), ns(ct)))
    for c, v in callers.items():
        print("A\t%s\t%s\t%d" % (label(c), label(k), calls(v)))' "$@"
}

# agree WHAT TOLERANCE FILE... — cgcost's tsv of FILE... against the
# oracle: the same functions, calls and arcs' calls; self within
# TOLERANCE ns; exact totals cumtime (within TOLERANCE), others at least
agree () {
  what=$1 tolerance=$2
  shift 2
  oracle "$@" >"$tmp/oracle" || { fail "$what: pstats failed"; return; }
  expect 0 "$cgcost" --format=tsv --exactness "$@" || return
  cp "$tmp/out" "$tmp/functions"
  expect 0 "$cgcost" --format=tsv --arcs "$@" || return
  awk -F '\t' -v t="$tolerance" 'function d(a, b) { return a > b ? a - b : b - a }
    FILENAME == ARGV[1] && $1 == "F" { n++; calls[$2] = $3; self[$2] = $4; ct[$2] = $5; next }
    FILENAME == ARGV[1] && $1 == "A" { arcs++; arc[$2 "\t" $3] = $4; next }
    FILENAME == ARGV[2] && FNR > 1 {
      if (!($1 in self)) { bad++; print "  ours only: " $1; next }
      seen++
      # (the profile module'"'"'s own frame never returns: pstats says 0)
      if ($1 == "profiler" && ct[$1] == 0) ct[$1] = $4
      if ($2 != calls[$1] || d($3, self[$1]) > t || ($5 == "exact" ? d($4, ct[$1]) > t : $4 < ct[$1] - t)) {
        bad++; print "  " $1 ": ours " $2 " " $3 " " $4 " " $5 ", pstats " calls[$1] " " self[$1] " " ct[$1]
      }
      if ($5 == "exact") exact++
      next
    }
    FILENAME == ARGV[3] && FNR > 1 {
      if (!(($1 "\t" $2) in arc) || arc[$1 "\t" $2] != $3) { bad++; print "  arc " $1 " -> " $2 ": " $3 " calls" }
      arcs_seen++
    }
    END { printf "%d functions (%d exact totals), %d arcs, %d different\n", seen, exact, arcs_seen, bad
          exit (bad > 0 || seen != n || arcs_seen != arcs || n < 10) }' \
    "$tmp/oracle" "$tmp/functions" "$tmp/out" >"$tmp/cmp" || fail "$what against pstats: $(cat "$tmp/cmp")"
  echo "$what against pstats: $(tail -n 1 "$tmp/cmp")"
}

agree cProfile 0 "$tmp/c.prof"
grep -q '^fib	40	' "$tmp/functions" || fail "cProfile: fib's calls from main: $(grep '^fib' "$tmp/functions")"
grep -q '^step:32	200	' "$tmp/functions" || fail "cProfile: the second step is not step:32"
# no total below self plus calls: the times rounded give back cProfile's
# nanoseconds, whose sums agree (pyprof2calltree's truncations did not)
expect 0 "$cgcost" --format=tsv "$tmp/c.prof" && [ ! -s "$tmp/err" ] || fail "cProfile: a warning: $(cat "$tmp/err")"
agree profile 0 "$tmp/p.prof"
grep -q '^<code object>	1	' "$tmp/functions" || fail "profile: its command's code object is not <code object>"
agree "two cProfile files" 2 "$tmp/c.prof" "$tmp/c2.prof"
expect 0 "$cgmerge" "$tmp/c.prof" && grep -q '<source format="pstats" path="[^"]*c.prof" creator="cProfile"/>' "$tmp/out" \
  || fail "cProfile: the source: $(grep '<source' "$tmp/out")"
validate "$tmp/out"

# every marshal version python3 writes (0 and 1: floats as text; 0 to 2:
# no references) reads as the file cProfile wrote (version 4)
"$cgcost" --format=tsv --arcs "$tmp/c.prof" >"$tmp/v.tsv" 2>/dev/null
for v in 0 1 2 3 4; do
  python3 -c 'import marshal, sys
open(sys.argv[2], "wb").write(marshal.dumps(marshal.load(open(sys.argv[1], "rb")), int(sys.argv[3])))' \
    "$tmp/c.prof" "$tmp/v$v.prof" "$v" || fail "test set-up: marshal version $v"
  expect 0 "$cgcost" --format=tsv --arcs "$tmp/v$v.prof" && cmp -s "$tmp/out" "$tmp/v.tsv" \
    || fail "marshal version $v: not read as cProfile's file: $(diff "$tmp/v.tsv" "$tmp/out" | head -4)"
done

# compressed, archived, on standard input: the same sum
"$cgcost" --format=tsv "$tmp/c.prof" "$tmp/c2.prof" >"$tmp/two.tsv" 2>/dev/null
gzip -c "$tmp/c.prof" >"$tmp/c.prof.gz"
(cd "$tmp" && tar cf two.tar c.prof c2.prof)
expect 0 "$cgcost" --format=tsv "$tmp/c.prof.gz" "$tmp/c2.prof" && cmp -s "$tmp/out" "$tmp/two.tsv" \
  || fail "a gzip'd .prof is not read as the file"
expect 0 sh -c "'$cgcost' --format=tsv <'$tmp/two.tar'" && cmp -s "$tmp/out" "$tmp/two.tsv" \
  || fail "a tar of two .prof files is not their sum"

# pyprof2calltree's conversion: the same profile
p2c=$(command -v pyprof2calltree || true)
if [ -n "$p2c" ]; then
  interpreter=$(head -n 1 "$p2c" | sed 's/^#! *//')
  for f in c c2; do
    # its own code, its times rounded as ours (int(x * 1e9 + 0.5))
    $interpreter -c 'import sys, pyprof2calltree
pyprof2calltree.int = lambda v: int(v + 0.5)
with open(sys.argv[2], "w") as out:
    pyprof2calltree.CalltreeConverter(sys.argv[1]).output(out)' "$tmp/$f.prof" "$tmp/$f.round" \
      || fail "pyprof2calltree, rounded: failed"
    "$p2c" -i "$tmp/$f.prof" -o "$tmp/$f.out" >/dev/null 2>&1 || fail "pyprof2calltree failed"
  done
  "$cgmerge" "$tmp/c.prof" "$tmp/c2.prof" 2>/dev/null | grep -v '<source ' >"$tmp/ours.xml"
  "$cgmerge" "$tmp/c.round" "$tmp/c2.round" 2>/dev/null | grep -v '<source ' >"$tmp/theirs.xml"
  [ -s "$tmp/ours.xml" ] && cmp -s "$tmp/ours.xml" "$tmp/theirs.xml" \
    || fail "pyprof2calltree: not the profile of its conversion: $(diff "$tmp/ours.xml" "$tmp/theirs.xml" | head -6)"
  # as it writes them: truncated, each self 0 or 1 ns below
  "$cgcost" --format=tsv "$tmp/c.out" 2>/dev/null >"$tmp/theirs.tsv"
  "$cgcost" --format=tsv "$tmp/c.prof" 2>/dev/null >"$tmp/ours.tsv"
  awk -F '\t' 'NR == FNR { calls[$1] = $2; self[$1] = $3; n++; next }
    !($1 in self) || $2 != calls[$1] || self[$1] - $3 < 0 || self[$1] - $3 > 1 { bad++; print $0 }
    { m++ } END { exit (bad > 0 || m != n) }' "$tmp/ours.tsv" "$tmp/theirs.tsv" >"$tmp/cmp" \
    || fail "pyprof2calltree: its truncated conversion differs by more: $(head -4 "$tmp/cmp")"
  echo "pyprof2calltree: its conversion's profile"
else
  echo "pyprof2calltree is not installed: its conversion not compared"
fi

# ---- errors ----
# bad NAME MESSAGE PYTHON-EXPRESSION — marshal.dumps of the expression
# (or the bytes it gives) is exit 1, naming the file and MESSAGE
bad () {
  python3 -c 'import marshal, sys
v = eval(sys.argv[2])
open(sys.argv[1], "wb").write(v if isinstance(v, bytes) else marshal.dumps(v))' "$tmp/$1.prof" "$3" \
    || { fail "test set-up: $1"; return; }
  expect 1 "$cgcost" --input-format=pstats "$tmp/$1.prof" && expect_message "$tmp/$1.prof: offset " \
    && expect_message "$2"
}
f='("a.py", 1, "f")'
g='("a.py", 2, "g")'
bad negative "own time (tt) of -0.5 s" "{$f: (1, 1, -0.5, 0.1, {})}"
bad nan "cumulative time (ct) of nan s" "{$f: (1, 1, 0.5, float('nan'), {})}"
bad infinite "past 2^63 ns" "{$f: (1, 1, 0.5, 1e300, {})}"
bad inf "expected a finite time" "{$f: (1, 1, float('inf'), 1.0, {})}"
bad huge "past 64 bits" "{$f: (1, 2**70, 0.5, 0.5, {})}"
bad negative-count "calls (nc) of -3, below 0" "{$f: (1, -3, 0.5, 0.5, {})}"
bad absent "a caller (a.py:2(g)) that is no key of the dict" "{$f: (1, 1, 0.5, 0.5, {$g: (1, 1, 0.5, 0.5)})}"
bad short-key "expected a function's key" "{(\"a.py\", 1): (1, 1, 0.5, 0.5, {})}"
bad string-line "expected a line number (an integer), found a string" "{(\"a.py\", \"1\", \"f\"): (1, 1, 0.5, 0.5, {})}"
bad value "expected a function's statistics (a tuple of cc, nc, tt, ct and callers), found a tuple of 4" \
  "{$f: (1, 1, 0.5, 0.5)}"
bad caller-entry "expected a caller's entry" "{$f: (1, 1, 0.5, 0.5, {$f: 0.5})}"
bad list "expected the dict of the function's callers" "{$f: (1, 1, 0.5, 0.5, [])}"
bad after "bytes after pstats' dict" "marshal.dumps({$f: (1, 1, 0.5, 0.5, {})}) + b'N'"
bad type-byte "type byte 0x3f is no marshal type" "marshal.dumps({$f: (1, 1, 0.5, 0.5, {})})[:-2] + b'?0'"
bad reference "a reference to object 99" \
  "marshal.dumps({$f: (1, 1, 0.5, 0.5, {})})[:-2] + b'r' + (99).to_bytes(4, 'little') + b'00'"
bad truncated-long "(truncated)" "b'{)\x03z\x04a.pyi\x01\x00\x00\x00z\x01f)\x05l\x05\x00\x00\x00\x01\x00'"

# the profile module's command, a code object, in two keys (the second a
# reference to it)
python3 -c 'import marshal, sys
code = compile("x = 1", "cmd.py", "exec")
st = {("profile", 0, code): (1, 1, 0.5, 2.0, {}), ("a.py", 1, "f"): (1, 1, 1.5, 1.5, {("profile", 0, code): 1})}
open(sys.argv[1], "wb").write(marshal.dumps(st))' "$tmp/code.prof" || fail "test set-up: code.prof"
expect 0 "$cgcost" --format=tsv "$tmp/code.prof" && [ "$(grep -c '^<code object>	0	500000000	2000000000$' "$tmp/out")" = 1 ] \
  && grep -q '^f	1	1500000000	1500000000$' "$tmp/out" || fail "a code object twice in keys: $(cat "$tmp/out" "$tmp/err")"

# every prefix of a small profile, and of the workload's every 7 bytes:
# exit 1 with a message, never a crash (under make check-valgrind, where
# a run takes a second, every 13th and 97th)
step_small=1 step_big=7
[ -z "${CG_VALGRIND:-}" ] || step_small=13 step_big=97
python3 -c 'import cProfile
cProfile.run("sorted([3, 1, 2])", "'"$tmp"'/small.prof")' >/dev/null || fail "test set-up: small.prof"
size=$(wc -c <"$tmp/small.prof")
big=$(wc -c <"$tmp/c.prof")
cut=0 odd=""
n=1
while [ "$n" -lt "$big" ]; do
  if [ "$n" -lt "$size" ]; then src="$tmp/small.prof"; else src="$tmp/c.prof"; fi
  head -c "$n" "$src" >"$tmp/cut.prof"
  "$cgcost" --format=tsv --input-format=pstats "$tmp/cut.prof" >/dev/null 2>"$tmp/cut.err"
  status=$?
  if [ "$status" -ne 1 ] || ! grep -q "cut.prof: offset [0-9]*: " "$tmp/cut.err"; then
    odd="$odd $n:$status"
  fi
  cut=$((cut + 1))
  if [ "$n" -lt "$size" ]; then n=$((n + step_small)); else n=$((n + step_big)); fi
done
[ -z "$odd" ] || fail "truncations not exit 1 with an offset (length:status):$(echo "$odd" | cut -c 1-300)"
echo "$cut truncations: exit 1, each naming its offset"


# an empty profile: what cProfile.Profile().dump_stats() writes of a
# profiler never enabled, marshal's empty dict ("{0", flagged), is told
# and read as an empty profile, as a callgrind file without functions is
# (formats/pstats.md, "Detection"): every view exits 0 with "0.00 s in
# all"; so does the unflagged dict, from stdin and gzip'd; with a byte
# after it, it is no profile
python3 -c 'import cProfile; cProfile.Profile().dump_stats("'"$tmp"'/empty.prof")' >/dev/null \
  || fail "test set-up: empty.prof"
printf '{0' >"$tmp/empty0.prof"
gzip -c "$tmp/empty.prof" >"$tmp/empty.prof.gz"
for f in empty.prof empty0.prof empty.prof.gz; do
  expect 0 "$cgcost" --format=tsv "$tmp/$f" && [ "$(cat "$tmp/out")" = "$(printf 'function\tcalls\tself\ttotal')" ] \
    || fail "the empty profile $f: $(head -c 200 "$tmp/out")"
  expect 0 "$cgcost" --format=text "$tmp/$f" && grep -q '^Event: ns (Nanoseconds), 0\.00 s in all$' "$tmp/out" \
    || fail "the empty profile $f (cgcost text): $(head -3 "$tmp/out")"
  expect 0 "$cgtree" "$tmp/$f" && grep -q 'event ns, 0\.00 s in all' "$tmp/out" \
    || fail "the empty profile $f (cgtree): $(head -1 "$tmp/out")"
  expect 0 "$cgcycles" --format=text "$tmp/$f" && grep -q '^0 cycles' "$tmp/out" \
    || fail "the empty profile $f (cgcycles): $(head -1 "$tmp/out")"
  for view in svg html dot; do
    expect 0 "$cgtree" --format=$view "$tmp/$f" || fail "the empty profile $f (cgtree --format=$view)"
  done
done
expect 0 "$cgmerge" - <"$tmp/empty.prof" && grep -q '<source format="pstats" path="&lt;stdin&gt;"/>' "$tmp/out" \
  || fail "the empty profile from stdin: $(head -c 300 "$tmp/out")"
printf '{0\n' >"$tmp/empty-more.prof"
expect 1 "$cgmerge" "$tmp/empty-more.prof" && expect_message "unknown input format"

finish
