#!/bin/sh
# pprof's profile.proto, made at test time by Go: `go test -cpuprofile` on
# data/pprof/rec (direct recursion, mutual recursion, an inlined function)
# and hand-made profiles of known shape and of known damage
# (data/pprof/mkprof).  Oracle: Go's own `go tool pprof -top`, whose flat
# and cum columns are each function's self and total (pprof counts a
# sample once per function on its stack, so cum is right under
# recursion), for every function and both sample types.  Skipped (77)
# where go is missing (Debian: golang-go).  Go is kept inside $tmp: its
# cache, home and module paths, no network (GOPROXY=off; the modules have
# no dependencies).
. "${top_srcdir:-.}/tests/cli/common.sh"

command -v go >/dev/null 2>&1 || skip "go is not installed (Debian: golang-go)"
HOME=$tmp/home GOCACHE=$tmp/gocache GOPATH=$tmp/gopath GOENV=off GOFLAGS=-mod=mod GOPROXY=off \
  GOTOOLCHAIN=local GOTELEMETRY=off CGO_ENABLED=0 PPROF_TMPDIR=$tmp/pprof
export HOME GOCACHE GOPATH GOENV GOFLAGS GOPROXY GOTOOLCHAIN GOTELEMETRY CGO_ENABLED PPROF_TMPDIR
mkdir -p "$HOME" "$PPROF_TMPDIR"
cp -R "$data/pprof/rec" "$data/pprof/mkprof" "$tmp/" && chmod -R u+w "$tmp/rec" "$tmp/mkprof" || exit 99

# top PROFILE SAMPLE_INDEX UNIT: pprof's flat and cum per function, as
# NAME<TAB>FLAT<TAB>CUM in UNIT ("(inline)" and "(partial-inline)", pprof's
# marks of a function inlined everywhere or in places, left out)
top () {
  go tool pprof -top -nodecount=100000 -nodefraction=0 -edgefraction=0 -sample_index="$2" -unit="$3" "$1" \
    2>/dev/null | awk -v u="$3" '
    /^ *flat  *flat%/ { table = 1; next }
    table && NF >= 6 { name = $6; for (i = 7; i <= NF; i++) name = name " " $i
                       sub(/ \((partial-)?inline\)$/, "", name); f = $1; c = $4; sub(u "$", "", f); sub(u "$", "", c)
                       printf "%s\t%s\t%s\n", name, f, c }'
}

# compare TSV TOP DIVISOR WHAT: every function of pprof's has our self and
# total (divided by DIVISOR) equal to its flat and cum, and every function
# of ours with a cost is pprof's; prints how many were compared
compare () {
  awk -F '\t' -v d="$3" 'NR == FNR { flat[$1] = $2; cum[$1] = $3; n++; next }
    FNR > 1 { if (!($1 in flat)) { if ($4 != 0) { extra++; print "  ours only: " $1 } ; next }
              seen++; s = $3 / d; t = $4 / d
              if (s != flat[$1] || t != cum[$1]) { wrong++; print "  " $1 ": ours " s " " t ", pprof " flat[$1] " " cum[$1] } }
    END { printf "%d of pprof'"'"'s %d functions compared, %d different, %d ours only\n", seen, n, wrong, extra
          exit (wrong > 0 || extra > 0 || seen != n || n == 0) }' "$2" "$1" >"$tmp/cmp" \
    || fail "$4 against go tool pprof -top: $(cat "$tmp/cmp")"
  echo "$4 against go tool pprof -top: $(tail -n 1 "$tmp/cmp")"
}

# ---- a real profile: go test -cpuprofile ----
(cd "$tmp/rec" && go test -count=1 -cpuprofile "$tmp/cpu.pprof" -run TestWork . >"$tmp/go.log" 2>&1) \
  || { fail "go test -cpuprofile: $(head -c 600 "$tmp/go.log")"; finish; }
top "$tmp/cpu.pprof" cpu ms >"$tmp/top-cpu"
top "$tmp/cpu.pprof" samples "" >"$tmp/top-samples"
[ -s "$tmp/top-cpu" ] || fail "go tool pprof -top printed no functions"
"$cgcost" --format=tsv "$tmp/cpu.pprof" >"$tmp/tsv" || fail "cgcost on go test's profile: $(head -c 400 "$tmp/tsv")"
# cpu in ns (pprof's "nanoseconds") is the default event, as it is pprof's
compare "$tmp/tsv" "$tmp/top-cpu" 1000000 "cpu time (ms)"
"$cgcost" --format=tsv --event=samples "$tmp/cpu.pprof" >"$tmp/tsv-samples" || fail "cgcost --event=samples"
compare "$tmp/tsv-samples" "$tmp/top-samples" 1 "samples"
# go tool pprof -callgrind of the same profile names its event "cpu(ms)",
# the unit in the name without Xdebug's underscore: a time, shown in ms
# or s (where it was "980 cpu(ms) in all"); each function's self is -top's
# flat, and its total -top's cum where cgcost says it is exact
if go tool pprof -callgrind "$tmp/cpu.pprof" >"$tmp/cpu.callgrind" 2>/dev/null \
   && grep -qx 'events: cpu(ms)' "$tmp/cpu.callgrind"; then
  expect 0 "$cgcost" --format=text "$tmp/cpu.callgrind" \
    && { grep -Eq '^Event: cpu\(ms\), [0-9.,]+ m?s in all$' "$tmp/out" || fail "pprof -callgrind's unit: $(sed -n 2p "$tmp/out")"; }
  "$cgcost" --format=tsv --exactness "$tmp/cpu.callgrind" >"$tmp/tsv-cg" || fail "cgcost on pprof -callgrind's file"
  awk -F '\t' 'NR == FNR { flat[$1] = $2; cum[$1] = $3; next }
    FNR > 1 && ($1 in flat) { n++; if ($3 != flat[$1] || ($5 == "exact" && $4 != cum[$1])) { print "  " $0 "; pprof " flat[$1] " " cum[$1]; bad++ } }
    END { if (n < 5) print "  only " n " functions"; exit bad > 0 || n < 5 }' "$tmp/top-cpu" "$tmp/tsv-cg" >"$tmp/cmp" \
    || fail "pprof -callgrind against go tool pprof -top: $(head -4 "$tmp/cmp")"
else
  fail "test set-up: go tool pprof -callgrind wrote no 'events: cpu(ms)'"
fi
# with -call_tree pprof names each node of its tree apart as a callee
# ("example.com/rec.even [6/14]") but writes every node's costs and calls
# under the plain name, whose total then sums them all, nested ones too
# (even's 8,550 ms of a 980 ms profile): warned of, where nothing was said
if go tool pprof -callgrind -call_tree "$tmp/cpu.pprof" >"$tmp/tree.callgrind" 2>/dev/null \
   && grep -q '^cfn=.* \[[0-9]*/[0-9]*\]$' "$tmp/tree.callgrind"; then
  expect 0 "$cgcost" --format=tsv "$tmp/tree.callgrind" \
    && expect_message "named as pprof -call_tree names its call tree's nodes (the first: "
  expect 0 "$cgcost" --format=tsv "$tmp/cpu.callgrind" && grep -q 'call_tree' "$tmp/err" \
    && fail "pprof -callgrind without -call_tree warned of: $(cat "$tmp/err")"
else
  fail "test set-up: go tool pprof -callgrind -call_tree named no node [I/N]"
fi
samples=$(awk -F '\t' '{ s += $2 } END { print s + 0 }' "$tmp/top-samples")
echo "$samples samples"
for f in fib even odd spin; do
  grep -q "^example.com/rec\.$f	" "$tmp/tsv" || fail "example.com/rec.$f missing from the profile"
done
# the mutual recursion is a cycle of the graph
"$cgcycles" --format=text "$tmp/cpu.pprof" >"$tmp/cycles" || fail "cgcycles"
grep -q "example.com/rec.even" "$tmp/cycles" && grep -q "example.com/rec.odd" "$tmp/cycles" \
  || fail "even and odd are no cycle: $(cat "$tmp/cycles")"
# mix, inlined into spin, is a frame of its own under spin (where pprof
# shows it at all: a sample must land in its code)
if grep -q "^example.com/rec\.mix	" "$tmp/top-cpu"; then
  "$cgcost" --format=tsv --arcs "$tmp/cpu.pprof" >"$tmp/arcs" || fail "cgcost --arcs"
  grep -q "^example.com/rec.spin	example.com/rec.mix	" "$tmp/arcs" || fail "no arc spin -> mix (inlined)"
fi
# uncompressed, and through a pipe, the same
gzip -dc <"$tmp/cpu.pprof" >"$tmp/cpu.pb" || fail "gzip -d"
"$cgmerge" <"$tmp/cpu.pb" | "$cgcost" --format=tsv >"$tmp/tsv-raw" || fail "the uncompressed profile through a pipe"
cmp -s "$tmp/tsv" "$tmp/tsv-raw" || fail "uncompressed: $(diff "$tmp/tsv" "$tmp/tsv-raw" | head -5)"
# cgtools XML keeps it: XML valid, the totals the same after the round trip
"$cgmerge" -o "$tmp/cpu.xml" "$tmp/cpu.pprof" || fail "cgmerge -o"
validate "$tmp/cpu.xml"
"$cgcost" --format=tsv "$tmp/cpu.xml" | cmp -s "$tmp/tsv" - || fail "cgtools XML of the profile reads otherwise"
# two profiles merged: every cost doubled
"$cgcost" --format=tsv "$tmp/cpu.pprof" "$tmp/cpu.pb" >"$tmp/tsv-two" || fail "cgcost on two profiles"
awk -F '\t' 'NR == FNR { s[$1] = $3; t[$1] = $4; next } FNR > 1 && ($3 != 2 * s[$1] || $4 != 2 * t[$1]) { bad++ }
  END { exit bad > 0 }' "$tmp/tsv" "$tmp/tsv-two" || fail "two profiles merged are not twice one"
# pprof's own writer (its field order and encoding) reads the same, and
# its merge of the two is cgtools' merge
go tool pprof -proto "$tmp/cpu.pprof" >"$tmp/re.pprof" 2>/dev/null || fail "go tool pprof -proto"
"$cgcost" --format=tsv "$tmp/re.pprof" | cmp -s "$tmp/tsv" - || fail "the profile as pprof -proto writes it reads otherwise"
go tool pprof -proto "$tmp/cpu.pprof" "$tmp/cpu.pb" >"$tmp/merged.pprof" 2>/dev/null || fail "go tool pprof -proto A B"
"$cgcost" --format=tsv "$tmp/merged.pprof" | cmp -s "$tmp/tsv-two" - || fail "pprof's merge of two reads otherwise than cgtools' merge"

# ---- hand-made profiles ----
(cd "$tmp/mkprof" && go build -o "$tmp/mkprof.exe" . >"$tmp/go.log" 2>&1) \
  || { fail "go build mkprof: $(head -c 600 "$tmp/go.log")"; finish; }
"$tmp/mkprof.exe" shapes >"$tmp/shapes.pb" || fail "mkprof shapes"
gzip -n -c "$tmp/shapes.pb" >"$tmp/shapes.pb.gz"
"$cgcost" --format=tsv "$tmp/shapes.pb.gz" >"$tmp/shapes.tsv" || fail "cgcost on the hand-made profile"
# its structure (mkprof/main.go): main > outer > inner (inlined into
# outer: one location, two lines) 10 ns; the same with [libfoo.so] (a
# location without lines, named after its mapping's file) under inner,
# 20 ns; main > rec > rec > rec 30 ns; a sample without locations 40 ns
cat >"$tmp/shapes.want" <<'EOF'
function	calls	self	total
main	0	0	60
<unknown>	0	40	40
inner	0	10	30
outer	0	0	30
rec	0	30	30
[libfoo.so]	0	20	20
EOF
cmp -s "$tmp/shapes.want" "$tmp/shapes.tsv" || fail "the hand-made profile: $(diff "$tmp/shapes.want" "$tmp/shapes.tsv")"
# pprof agrees on every function it shows (it shows no node for the
# sample without locations, and counts it in its total only)
top "$tmp/shapes.pb" cpu ns >"$tmp/top-shapes"
grep -v '^<unknown>' "$tmp/shapes.tsv" >"$tmp/shapes-located.tsv"
compare "$tmp/shapes-located.tsv" "$tmp/top-shapes" 1 "the hand-made profile"
"$cgcost" --format=tsv --arcs "$tmp/shapes.pb" | grep -q "^outer	inner	" || fail "no arc outer -> inner (inlined)"
# drop_frames and keep_frames, as pprof applies them (against pprof, and
# against the structure: inner goes, and [libfoo.so] below it, their cost
# outer's; outer's location goes whole, its cost main's, rec kept)
for kind in drop drop-whole drop-root; do
  "$tmp/mkprof.exe" "$kind" >"$tmp/$kind.pb" || fail "mkprof $kind"
  "$cgcost" --format=tsv "$tmp/$kind.pb" >"$tmp/$kind.tsv" 2>"$tmp/err" || fail "cgcost on $kind: $(cat "$tmp/err")"
  top "$tmp/$kind.pb" cpu ns >"$tmp/top-$kind"
  grep -v '^<unknown>' "$tmp/$kind.tsv" >"$tmp/$kind-located.tsv"
  compare "$tmp/$kind-located.tsv" "$tmp/top-$kind" 1 "the hand-made profile with $kind"
done
grep -q "^outer	0	30	30$" "$tmp/drop.tsv" && ! grep -q "^inner	" "$tmp/drop.tsv" \
  && ! grep -q "^\[libfoo.so\]" "$tmp/drop.tsv" || fail "drop_frames inn.*: $(cat "$tmp/drop.tsv")"
grep -q "^main	0	30	60$" "$tmp/drop-whole.tsv" && grep -q "^rec	0	30	30$" "$tmp/drop-whole.tsv" \
  && ! grep -q "^outer	" "$tmp/drop-whole.tsv" || fail "drop_frames outer|rec, keep_frames rec: $(cat "$tmp/drop-whole.tsv")"
cmp -s "$tmp/shapes.tsv" "$tmp/drop-root.tsv" || fail "drop_frames main: $(diff "$tmp/shapes.tsv" "$tmp/drop-root.tsv")"
"$cgcost" --format=tsv --event=samples "$tmp/shapes.pb" | grep -q "^rec	0	3	3$" || fail "the samples event"

# ---- damage: exit 1, the file, the offset and what was expected ----
# a cut that falls between two of the Profile's fields leaves a shorter
# message, whose error is what it lacks (a string index outside the
# table); each field takes two bytes or more, so of two cuts a byte apart
# one falls inside a field
for n in 40 300 "$(($(wc -c <"$tmp/cpu.pb") - 3))"; do
  inside=
  for m in "$n" "$((n + 1))"; do
    head -c "$m" "$tmp/cpu.pb" >"$tmp/cut.pb"
    expect 1 "$cgcost" --format=tsv "$tmp/cut.pb" && expect_message "cut.pb: offset "
    grep -E -q "runs past the end|ends inside" "$tmp/err" && inside=$m
  done
  [ -n "$inside" ] || fail "cut at $n and $((n + 1)): $(cat "$tmp/err")"
done
echo "cut 2 bytes short: $(cat "$tmp/err")"
head -c 300 "$tmp/cpu.pb" | gzip -n >"$tmp/cut.pprof"
expect 1 "$cgcost" --format=tsv "$tmp/cut.pprof" && expect_message "cut.pprof: offset "
while read -r kind message; do
  "$tmp/mkprof.exe" "$kind" >"$tmp/$kind.pb" || fail "mkprof $kind"
  expect 1 "$cgcost" --format=tsv "$tmp/$kind.pb" && expect_message "$kind.pb: offset " && expect_message "$message"
done <<'EOF'
string-index Function's name: string index 99 outside the string table (expected 0 to 12)
repeated-id Function id 4 repeated
missing-function Line's function_id refers to Function id 77, which no Function has
missing-location Sample's location_id refers to Location id 55, which no Location has
negative a negative sample value, -5
values a Sample with 3 values, where the profile has 2 sample_types
overlong a varint longer than 64 bits
EOF
# drop_frames (a|aa)* against names of many a's and a b: PCRE backtracks
# to its limit on each, which is an error at the first, where it cost a
# limit's work per function
expect 1 "$cgcost" --format=tsv "$top_srcdir/fuzz/regressions/pprof/drop-frames-backtracking.pb" \
  && expect_message "drop-frames-backtracking.pb: offset 4008: drop_frames or keep_frames cannot be matched"
# string_table[0] must be "": not taken for a profile at all
"$tmp/mkprof.exe" string0 >"$tmp/string0.pb"
expect 1 "$cgcost" --format=tsv "$tmp/string0.pb" && expect_message "unknown input format"
finish
