#!/bin/sh
# V8's CPU profiles (.cpuprofile JSON, formats/v8.md), made at test time by
# `node --cpu-prof` on data/v8/rec.js (direct recursion, mutual
# recursion, a shared leaf, an anonymous callback).  Oracle: a brute-force
# reference written in JavaScript (data/v8/min-e.js), which reads the same
# file and applies the definitions directly (each sample's time, and Min_E:
# a sample counts once for every distinct function on its stack); every
# function's self and total, in ns and in samples, must be cgcost's.  Then a
# hand-made profile whose numbers are worked out below, out-of-order
# samples included, and hand-made damage, each an error naming the file
# and where.  Skipped (77) where node is missing (Debian: nodejs).
. "${top_srcdir:-.}/tests/cli/common.sh"

command -v node >/dev/null 2>&1 || skip "node is not installed (Debian: nodejs)"
node --cpu-prof --cpu-prof-dir="$tmp/probe" -e 0 >/dev/null 2>&1 || skip "this node has no --cpu-prof"

# ---- a real profile ----
cp "$data/v8/rec.js" "$tmp/" || exit 99
node --cpu-prof --cpu-prof-interval 200 --cpu-prof-dir="$tmp" --cpu-prof-name=rec.cpuprofile "$tmp/rec.js" \
  >"$tmp/node.log" 2>&1 || { fail "node --cpu-prof: $(head -c 400 "$tmp/node.log")"; finish; }
node "$data/v8/min-e.js" "$tmp/rec.cpuprofile" >"$tmp/ref" || fail "min-e.js failed"

# compare TSV COLUMN WHAT: every function of the reference has our self and
# total (the reference's columns COLUMN and COLUMN+1), and we have no other
compare () {
  awk -F '\t' -v c="$2" 'NR == FNR { self[$1] = $c; total[$1] = $(c + 1); n++; next }
    FNR > 1 { if (!($1 in self)) { extra++; print "  ours only: " $1; next }
              seen++
              if ($3 != self[$1] || $4 != total[$1]) { wrong++; print "  " $1 ": ours " $3 " " $4 ", reference " self[$1] " " total[$1] } }
    END { printf "%d of the reference'"'"'s %d functions compared, %d different, %d ours only\n", seen, n, wrong, extra
          exit (wrong > 0 || extra > 0 || seen != n || n == 0) }' "$tmp/ref" "$1" >"$tmp/cmp" \
    || fail "$3 against min-e.js: $(cat "$tmp/cmp")"
  echo "$3 against min-e.js: $(tail -n 1 "$tmp/cmp")"
}
# read without naming the format: it is detected
expect 0 "$cgcost" --format=tsv "$tmp/rec.cpuprofile" && cp "$tmp/out" "$tmp/wall.tsv"
compare "$tmp/wall.tsv" 2 "wall time (ns)"
expect 0 "$cgcost" --format=tsv --event=samples "$tmp/rec.cpuprofile" && cp "$tmp/out" "$tmp/samples.tsv"
compare "$tmp/samples.tsv" 4 "samples"
# the structure rec.js has: down and ping are called from main, apart, and
# recursion counts once (summed over frames, down's total would be some
# 15 times main's)
t_main=$(total_of "$tmp/wall.tsv" main) t_down=$(total_of "$tmp/wall.tsv" down)
t_ping=$(total_of "$tmp/wall.tsv" ping) t_pong=$(total_of "$tmp/wall.tsv" pong)
[ -n "$t_down" ] && [ -n "$t_ping" ] && [ -n "$t_pong" ] && [ "$((t_down + t_ping))" -le "$t_main" ] \
  && [ "$t_pong" -le "$t_ping" ] && [ "$t_down" -gt 0 ] \
  || fail "totals: main $t_main, down $t_down, ping $t_ping, pong $t_pong (down + ping <= main, pong <= ping)"
# pretty-printed and compressed, the same profile reads the same
node -e 'const fs = require("fs"); fs.writeFileSync(process.argv[2],
  JSON.stringify(JSON.parse(fs.readFileSync(process.argv[1], "utf8")), null, 2))' \
  "$tmp/rec.cpuprofile" "$tmp/pretty.cpuprofile"
gzip -c "$tmp/pretty.cpuprofile" >"$tmp/pretty.cpuprofile.gz"
expect 0 "$cgcost" --format=tsv "$tmp/pretty.cpuprofile.gz" && cmp -s "$tmp/out" "$tmp/wall.tsv" \
  || fail "the pretty-printed, gzipped profile reads otherwise"
expect 0 "$cgtree" "$tmp/rec.cpuprofile" && grep -q 'down' "$tmp/out" || fail "cgtree shows no down"

# ---- by hand: f calls g calls f, which calls two anonymous functions;
# GC beside.  The samples' times: 1010 f, 1020 f>g>f, 1040 f>g>f>anon@9,
# 1045 f>g>f>anon@10, 1035 GC (a negative delta: out of order), 1065
# f>g>f; in time order each lasts until the next, the last until endTime
# 1100: f 10, f>g>f 15, GC 5, anon@9 5, anon@10 20, f>g>f 35 (us).
# Min_E: f's total is 85 (every sample but GC's, once), g's 75.
cat >"$tmp/hand.cpuprofile" <<'EOF'
{"nodes":[
 {"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"hitCount":0,"children":[2,5]},
 {"id":2,"callFrame":{"functionName":"f","scriptId":"1","url":"file:///x.js","lineNumber":0,"columnNumber":10},"hitCount":1,"children":[3]},
 {"id":3,"callFrame":{"functionName":"g","scriptId":"1","url":"file:///x.js","lineNumber":4,"columnNumber":10},"hitCount":0,"children":[4]},
 {"id":4,"callFrame":{"functionName":"f","scriptId":"1","url":"file:///x.js","lineNumber":0,"columnNumber":10},"hitCount":2,"children":[6,7]},
 {"id":5,"callFrame":{"functionName":"(garbage collector)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"hitCount":1},
 {"id":6,"callFrame":{"functionName":"","scriptId":"1","url":"file:///x.js","lineNumber":8,"columnNumber":2},"hitCount":1},
 {"id":7,"callFrame":{"functionName":"","scriptId":"1","url":"file:///x.js","lineNumber":9,"columnNumber":2},"hitCount":1}
],
"startTime":1000,"endTime":1100,"samples":[2,4,6,7,5,4],"timeDeltas":[10,10,20,5,-10,30]}
EOF
expect 0 "$cgcost" --format=tsv "$tmp/hand.cpuprofile"
cat >"$tmp/hand.want" <<'EOF'
function	calls	self	total
f	0	60000	85000
g	0	0	75000
(anonymous) [file:///x.js@10]	0	20000	20000
(anonymous) [file:///x.js@9]	0	5000	5000
(garbage collector)	0	5000	5000
EOF
diff "$tmp/hand.want" "$tmp/out" >"$tmp/diff" || fail "the hand-made profile: $(cat "$tmp/diff")"
expect 0 "$cgcost" --format=tsv --event=samples "$tmp/hand.cpuprofile"
[ "$(total_of "$tmp/out" f)" = 5 ] && [ "$(total_of "$tmp/out" g)" = 4 ] \
  || fail "samples: f $(total_of "$tmp/out" f), g $(total_of "$tmp/out" g) (expected 5 and 4)"
expect 0 "$cgmerge" --format=text "$tmp/hand.cpuprofile" && grep -q 'Event wall: 90.00 µs in all' "$tmp/out" \
  || fail "the hand-made profile's wall time is not 90 us: $(grep Event "$tmp/out")"

# ---- damage: each an error naming the file and where, exit 1 ----
# bad NAME MESSAGE JSON: JSON, read as a V8 profile, fails with MESSAGE
bad () {
  printf '%s' "$3" >"$tmp/$1.cpuprofile"
  expect 1 "$cgmerge" --input-format=v8 "$tmp/$1.cpuprofile" && expect_message "cgmerge: $tmp/$1.cpuprofile$2"
}
root='{"id":1,"callFrame":{"functionName":"(root)","url":""}'
a='"callFrame":{"functionName":"a","url":"x.js","lineNumber":0,"columnNumber":0}'
tail='"startTime":0,"endTime":10,"samples":[2],"timeDeltas":[1]}'
bad cycle ': nodes[2] (id 3) is its own ancestor: the children lists form a cycle' "{\"nodes\":[$root},{\"id\":2,$a,\"children\":[3]},{\"id\":3,$a,\"children\":[2]}],$tail"
bad self-child ': nodes[1] (id 2) is its own ancestor' "{\"nodes\":[$root},{\"id\":2,$a,\"children\":[2]}],$tail"
bad repeated-id ": nodes[2].id: 2 is nodes[1]'s id too" "{\"nodes\":[$root,\"children\":[2]},{\"id\":2,$a},{\"id\":2,$a}],$tail"
bad two-parents ': nodes[2].children[0]: nodes[1] is a child of nodes[0] already' \
  "{\"nodes\":[$root,\"children\":[2]},{\"id\":2,$a},{\"id\":3,$a,\"children\":[2]}],$tail"
bad no-child ': nodes[0].children[0]: no node has the id 7' "{\"nodes\":[$root,\"children\":[7]},{\"id\":2,$a}],$tail"
bad no-id ': nodes[1].id: missing' "{\"nodes\":[$root},{$a}],$tail"
bad no-sample ': samples[0]: no node has the id 2' "{\"nodes\":[$root}],$tail"
bad lengths ': timeDeltas: 2 deltas for 1 samples' "{\"nodes\":[$root},{\"id\":2,$a}],\"startTime\":0,\"endTime\":10,\"samples\":[2],\"timeDeltas\":[1,1]}"
bad late ': timeDeltas[0]: the sample'"'"'s time (11 us' "{\"nodes\":[$root},{\"id\":2,$a}],\"startTime\":0,\"endTime\":10,\"samples\":[2],\"timeDeltas\":[11]}"
bad fraction ': timeDeltas[0]: expected an integer' "{\"nodes\":[$root},{\"id\":2,$a}],\"startTime\":0,\"endTime\":10,\"samples\":[2],\"timeDeltas\":[0.5]}"
bad no-frame ': nodes[1].callFrame: missing' "{\"nodes\":[$root},{\"id\":2}],$tail"
bad not-object ': expected a JSON object' '[1, 2]'
# json-glib reads an integer past 64 bits as a wrong value without an
# error (this delta as -1 us, 18446744073709551617 as 1): refused first
bad huge-delta ':1:210: an integer past 64 bits' "{\"nodes\":[$root},{\"id\":2,$a}],\"startTime\":0,\"endTime\":10,\"samples\":[2],\"timeDeltas\":[99999999999999999999]}"
bad wrapped-id ':2:2: an integer past 64 bits' "$(printf '{"x":\n 18446744073709551617}')"
bad not-json ':2:8: not JSON: ' "$(printf '{"nodes":[\n{"id":1,\n    nope}')"
# json-glib names the last token it took: the ',' after which a key was
# expected, above.  V8's profile nests 4 deep; json-glib would recurse
# through a million (the 64th '[' after '{"nodes":[],"x":' is column 80)
awk 'BEGIN { printf "{\"nodes\":[],\"x\":"; for (i = 0; i < 1000000; i++) printf "["; print "" }' >"$tmp/deep.cpuprofile"
expect 1 "$cgmerge" --input-format=v8 "$tmp/deep.cpuprofile" && expect_message "$tmp/deep.cpuprofile:1:80: arrays and objects nested deeper than 64"
printf '{"nodes":[],"samples":[],"timeDeltas":[],"startTime":0,"endTime":0,"x":"\377"}' >"$tmp/latin1.cpuprofile"
expect 1 "$cgmerge" --input-format=v8 "$tmp/latin1.cpuprofile" && expect_message "$tmp/latin1.cpuprofile:1:73: not JSON: a byte that is not UTF-8"
# cut short: still detected, and the reader says where it ends
head -c 3000 "$tmp/rec.cpuprofile" >"$tmp/cut.cpuprofile"
expect 1 "$cgmerge" "$tmp/cut.cpuprofile" && expect_message "$tmp/cut.cpuprofile:1:" && expect_message ": not JSON: "
finish
