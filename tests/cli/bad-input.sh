#!/bin/sh
# Bad input: a clear "PROG: FILE:LINE: message", exit status 1, never a
# crash and never a partial output file.
. "${top_srcdir:-.}/tests/cli/common.sh"
recdemo="$data/callgrind/recdemo/callgrind.out.recdemo"

# truncated in the middle of the body
head -c 40000 "$recdemo" >"$tmp/truncated"
expect 1 "$cgmerge" "$tmp/truncated" && expect_message "cgmerge: $tmp/truncated:"
grep -q "truncated" "$tmp/err" || fail "truncation not named: $(cat "$tmp/err")"
# truncated right after a calls= line
awk '{ print } /^calls=/ && ++n == 3 { exit }' "$recdemo" >"$tmp/after-calls"
lines=$(wc -l <"$tmp/after-calls")
expect 1 "$cgmerge" "$tmp/after-calls" && expect_message "$tmp/after-calls:$lines: the file ends after the calls="
# a garbled line in the middle
awk 'NR == 500 { print "#@!garbage line"; print "x y z" } { print }' "$recdemo" >"$tmp/garbled"
expect 1 "$cgmerge" "$tmp/garbled" && expect_message "$tmp/garbled:501: not a callgrind line"
# a cost that does not add up to totals:
sed 's/^totals: 12248083$/totals: 12248084/' "$recdemo" >"$tmp/wrong-totals"
expect 1 "$cgmerge" "$tmp/wrong-totals" && expect_message "totals: at line"
expect 0 "$cgmerge" --lenient "$tmp/wrong-totals" && expect_message "warning:"
# unknown format, empty file, binary garbage
printf 'hello, world\n' >"$tmp/text"
expect 1 "$cgmerge" "$tmp/text" && expect_message "cgmerge: $tmp/text:1: unknown input format"
# text cut by a NUL byte: the lines before it are folded stacks, and the
# message names the byte's line and offset (9 bytes of line 1, then
# 'main;'), where it said 'line 1: unknown input format'
printf 'main;a 1\nmain;\000b 2\n' >"$tmp/nul.folded"
expect 1 "$cgmerge" "$tmp/nul.folded" \
  && expect_message "cgmerge: $tmp/nul.folded:2: a NUL byte at offset 14, where the lines before read as folded stacks"
# what perf report prints (its table, or -g folded's lines with the
# count first) is no input, and the message says what to give instead
printf '%s\n' "# To display the perf.data header info, please use --header/--header-only options." '#' '#' \
  '# Total Lost Samples: 0' '#' "# Samples: 577  of event 'cpu-clock'" '# Event count (approx.): 288500000' '#' \
  '# Children      Self  Command  Shared Object  Symbol' '#' \
  '    81.11%     0.00%  zstd     libc.so.6      [.] start_thread' >"$tmp/report.txt"
expect 1 "$cgmerge" "$tmp/report.txt" \
  && expect_message "cgmerge: $tmp/report.txt:1: perf report's output, which cgtools does not read: give it the perf.data itself"
printf '320 start_thread;POOL_thread;ZSTD_compressBlock_lazy_row\n3 start_thread;POOL_thread\n' >"$tmp/countfirst.txt"
expect 1 "$cgtree" "$tmp/countfirst.txt" \
  && expect_message "cgtree: $tmp/countfirst.txt:1: a count before each stack, as perf report -g folded prints them"
# gprof -C's execution counts (written so by gprof 2.40)
printf '%s\n' '/src/lapi.c:60: (index2value:0x88f0) 14330992 executions' \
  '/src/lapi.c:109: (lua_checkstack:0x8a70) 100017 executions' >"$tmp/counts.txt"
expect 1 "$cgmerge" "$tmp/counts.txt" \
  && expect_message "cgmerge: $tmp/counts.txt:1: the execution counts gprof -C prints, not a profile of calls"
# perf script -F -ip (perf 6.1 on ninja 1.11): sample headers alone, no
# frames to charge, where the message said 'unknown input format'
printf '%s\n' '           ninja 29278 71994.366366:     250000 cpu-clock: ' \
  '           ninja 29278 71994.366616:     250000 cpu-clock: ' >"$tmp/noip.txt"
expect 1 "$cgcost" "$tmp/noip.txt" \
  && expect_message "cgcost: $tmp/noip.txt:1: perf script's sample lines without frames (its -F left out ip"
printf '%s\n' '           ninja 29278 71994.366366: cpu-clock: ' '           ninja 29278 71994.366616: cpu-clock: ' \
  | gzip >"$tmp/noip.gz"
expect 1 "$cgmerge" "$tmp/noip.gz" && expect_message "cgmerge: $tmp/noip.gz:1: perf script's sample lines without frames"
: >"$tmp/empty"
expect 1 "$cgmerge" "$tmp/empty" && expect_message "cgmerge: $tmp/empty: empty input"
# one of several inputs may be empty (callgrind --separate-threads=yes
# leaves an empty callgrind.out.PID beside the threads' files), not all
expect 1 "$cgmerge" "$tmp/empty" "$tmp/empty" && expect_message "cgmerge: all 2 inputs are empty"
expect 0 "$cgcost" --format=tsv "$tmp/empty" "$recdemo" && expect_message "cgcost: warning: $tmp/empty: empty input, skipped"
"$cgcost" --format=tsv "$recdemo" | cmp -s - "$tmp/out" || fail "an empty input changed the result"
head -c 3000 /dev/urandom >"$tmp/random" 2>/dev/null || printf '\001\002\003' >"$tmp/random"
expect 1 "$cgcost" "$tmp/random"
# stage inputs that are not (valid) cgtools XML
printf '<?xml version="1.0"?>\n<cgtools version="1">\n<events>\n' >"$tmp/cut.xml"
expect 1 "$cgcycles" "$tmp/cut.xml" && expect_message "cgcycles: $tmp/cut.xml"
"$cgmerge" "$recdemo" | sed '12s/name=/nome=/' >"$tmp/bad.xml"
expect 1 "$cgcost" "$tmp/bad.xml" && expect_message "cgcost: $tmp/bad.xml:12: <object> lacks the name attribute"
expect 1 "$cgtree" <"$tmp/text" && expect_message "cgtree: <stdin>:1: unknown input format"

# no partial output: the target is untouched on failure, whole on success
echo previous >"$tmp/out.xml"
expect 1 "$cgmerge" -o "$tmp/out.xml" "$tmp/truncated"
[ "$(cat "$tmp/out.xml")" = previous ] || fail "-o replaced the target although reading failed"
[ "$(ls -A "$tmp" | grep -c '^\.out\.xml')" -eq 0 ] || fail "a temporary file was left behind"
expect 1 "$cgmerge" -o "$tmp/new.xml" "$tmp/garbled"
[ ! -e "$tmp/new.xml" ] || fail "-o created a file although reading failed"
expect 0 "$cgmerge" -o "$tmp/out.xml" "$recdemo"
validate "$tmp/out.xml"

# measured totals that overflow, found while the graph is being written:
# the document stops unterminated (exit 1), and -o leaves nothing
big=10000000000000000000
cat >"$tmp/overflow.xml" <<EOT
<?xml version="1.0" encoding="UTF-8"?>
<cgtools version="2">
 <events><event name="Ir" unit="Ir" kind="integer"/></events>
 <objects><object id="0" name=""/></objects>
 <files/>
 <functions><function-rows>
main	0			1	1
a	0			1
b	0			1
h	0			1
</function-rows></functions>
 <arcs inclusive="yes"><arc-rows>
0	1	1	5
0	2	1	5
1	3	1	$big
2	3	1	$big
</arc-rows></arcs>
</cgtools>
EOT
expect 1 "$cgcost" "$tmp/overflow.xml" && expect_message "cgcost: a total exceeds the range of 64-bit counters"
grep -q '<arc-rows>' "$tmp/out" || fail "cgcost wrote no graph before the overflow (the test no longer covers the overlap)"
if grep -q '</cgtools>' "$tmp/out"; then fail "an overflow ended the document as if whole"; fi
expect 1 "$cgcost" -o "$tmp/overflow-costs.xml" "$tmp/overflow.xml"
[ ! -e "$tmp/overflow-costs.xml" ] || fail "-o created a file although the costs overflowed"
finish
