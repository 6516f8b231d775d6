#!/bin/sh
# Detection does not guess: a text that is no profile (a Java hprof file,
# settings, YAML, an SVG, prose, headers without a profile, a profile's
# first lines followed by prose) is "unknown input format" with exit 1,
# with or without --lenient, from every stage; every bundled profile and
# fuzz seed is read, as the format its directory names.  Folded stacks
# are taken only when a stack of two frames shows the format
# (formats/folded.md, "Detection").
. "${top_srcdir:-.}/tests/cli/common.sh"
corpus="$top_srcdir/fuzz/regressions/detect"

# the samples of text in no format: none-*
for f in "$corpus"/none-*; do
  for lenient in "" --lenient; do
    expect 1 "$cgmerge" $lenient "$f" && expect_message "$f:1: unknown input format"
    expect 1 "$cgtree" $lenient "$f" && expect_message "unknown input format"
  done
done
expect 1 sh -c "'$cgcost' --lenient <'$corpus/none-java-hprof.txt'" && expect_message "<stdin>:1: unknown input format"

# folded stacks: one two-frame stack shows the format, and then stacks
# of one frame are read too; the count of every line is kept
printf 'main 5\nmain;parse 7\nidle 2\n' >"$tmp/mixed.folded"
expect 0 "$cgcost" --format=tsv "$tmp/mixed.folded" || fail "one-frame stacks beside a two-frame one are refused"
[ "$(total_of "$tmp/out" main)" = 12 ] || fail "main's total is $(total_of "$tmp/out" main), expected 12"
[ "$(total_of "$tmp/out" idle)" = 2 ] || fail "idle's total is $(total_of "$tmp/out" idle), expected 2"
# comments, blank lines and CRLF do not hide the format
printf '# folded by hand\r\n\r\nmain;a 1\r\nmain;b 2\r\n' >"$tmp/crlf.folded"
expect 0 "$cgmerge" "$tmp/crlf.folded" || fail "folded stacks with CRLF and a comment are refused"
# one line longer than the window (a million-frame stack is one line)
awk 'BEGIN { s = "main"; for (i = 0; i < 2000; i++) s = s ";f" i; print s " 3" }' >"$tmp/long.folded"
expect 0 "$cgmerge" "$tmp/long.folded" || fail "a stack longer than the detection window is refused"
# a malformed line after the window is the reader's: an error with its line
{ i=0; while [ $i -lt 400 ]; do echo "main;f$i 1"; i=$((i + 1)); done; echo "not a stack"; } >"$tmp/late.folded"
expect 1 "$cgmerge" "$tmp/late.folded" && expect_message "$tmp/late.folded:401: not a folded stack"
expect 0 "$cgmerge" --lenient "$tmp/late.folded" || fail "--lenient does not skip a bad line past the window"

# --input-format names what detection cannot tell: one-frame stacks are
# read as folded stacks when named so (main 5 + idle 2, by hand)
printf 'main 5\nidle 2\n' >"$tmp/flat.folded"
expect 1 "$cgmerge" "$tmp/flat.folded" && expect_message "unknown input format"
for name in folded-stacks folded Folded_Stacks; do
  expect 0 "$cgcost" --input-format=$name --format=tsv "$tmp/flat.folded" || fail "--input-format=$name"
  [ "$(total_of "$tmp/out" main)" = 5 ] && [ "$(total_of "$tmp/out" idle)" = 2 ] \
    || fail "--input-format=$name: main $(total_of "$tmp/out" main), idle $(total_of "$tmp/out" idle)"
done
expect 2 "$cgmerge" --input-format=nonesuch "$tmp/flat.folded" && expect_message "folded stacks"
# named perf script, they parse as sample headers (command, tid) with no
# frame at all, which detection never takes: an error at the first line,
# with and without --lenient, not a profile of two commands
for lenient in "" --lenient; do
  expect 1 "$cgmerge" $lenient --input-format=perf-script "$tmp/flat.folded" \
    && expect_message "cgmerge: $tmp/flat.folded:1: not a sample of perf script" && expect_message "no sample in the input has a frame"
done
# lines that read both as folded stacks ('a;: 1234 f' and a count) and as
# perf script samples without call chains (an event 'a;', an address and
# a symbol) fill the window; a stack past it is no perf script sample:
# perf script, tried first, refuses it, and the message says the window
# read as folded stacks too and how to name them (fuzz/fuzz-detect.c)
awk 'BEGIN { for (i = 0; i < 400; i++) print "a;: 1234 f 1"; print "main;x 2" }' >"$tmp/both.txt"
expect 1 "$cgmerge" "$tmp/both.txt" \
  && expect_message "$tmp/both.txt:401: " \
  && expect_message "but its first 4 KiB read as folded stacks too: if it is that, give --input-format=folded-stacks"
expect 0 "$cgcost" --input-format=folded-stacks --format=tsv "$tmp/both.txt" || fail "both.txt as folded stacks"
[ "$(total_of "$tmp/out" main)" = 2 ] && [ "$(total_of "$tmp/out" a)" = 400 ] \
  || fail "both.txt as folded stacks: main $(total_of "$tmp/out" main), a $(total_of "$tmp/out" a)"

# callgrind: headers beyond the window (a long cmd: line) still read
{ echo "version: 1"; printf 'cmd: ./a'; i=0; while [ $i -lt 600 ]; do printf ' arg%d' $i; i=$((i + 1)); done
  printf '\nevents: Ir\nfn=main\n1 5\ntotals: 5\n'; } >"$tmp/long-cmd.cg"
expect 0 "$cgmerge" "$tmp/long-cmd.cg" || fail "a callgrind file with a long cmd: line is refused"

# every bundled profile and every seed is read, as its directory's format
for f in "$data"/callgrind/*/callgrind.out.* "$top_srcdir"/fuzz/seeds/callgrind/*; do
  expect 0 "$cgmerge" "$f" && grep -q '<source format="callgrind"' "$tmp/out" || fail "$f is not read as callgrind"
done
for f in "$data"/folded/*.folded "$top_srcdir"/fuzz/seeds/folded/*; do
  expect 0 "$cgmerge" "$f" && grep -q '<source format="folded"' "$tmp/out" || fail "$f is not read as folded stacks"
done
for f in "$data"/amon/*/amon.out.* "$top_srcdir"/fuzz/seeds/amon/*; do
  expect 0 "$cgmerge" "$f" || fail "$f is not read as an amon.out"
done
for f in "$top_srcdir"/fuzz/seeds/v8/*; do
  expect 0 "$cgmerge" "$f" && grep -q '<source format="v8"' "$tmp/out" || fail "$f is not read as a V8 CPU profile"
done
for f in "$top_srcdir"/fuzz/seeds/xml/*; do
  expect 0 "$cgmerge" "$f" || fail "$f is not read as cgtools XML"
done
# pstats: marshal's dict whose first key is a tuple of three, its first
# member a string (formats/pstats.md, "Detection"), flagged or not; the
# dict's text (Python's repr) and JSON, which start with "{" too, are not
printf '{)\003z\004a.pyi\001\000\000\000z\001f)\005i\001\000\000\000i\001\000\000\000i\002\000\000\000i\002\000\000\000{00' \
  >"$tmp/one.prof"
printf '\373\251\003\372\004a.py\351\001\000\000\000\372\001f\051\005r\003\000\000\000r\003\000\000\000i\002\000\000\000i\002\000\000\000\17300' \
  >"$tmp/flagged.prof"
for f in one flagged; do
  expect 0 "$cgcost" --format=tsv "$tmp/$f.prof" && grep -q '^f	0	2000000000	2000000000$' "$tmp/out" \
    || fail "a hand-made pstats file ($f) is not read as one: $(cat "$tmp/out")"
done
printf '{("a.py", 1, "f"): (1, 1, 2, 3, {})}\n' >"$tmp/repr.txt"
expect 1 "$cgmerge" "$tmp/repr.txt" && expect_message "unknown input format"
printf '{)\003\n' >"$tmp/short.json"
expect 1 "$cgmerge" "$tmp/short.json" && expect_message "unknown input format"
expect 0 "$cgmerge" --executable "$data/gmon/exprparse/exprparse" "$data/gmon/exprparse/gmon.out" \
  && grep -q '<source format="gmon"' "$tmp/out" || fail "exprparse's gmon.out is not read as a gmon.out"
finish
