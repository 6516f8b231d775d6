#!/bin/sh
# Command-line conventions: --help, --version, exit status 2 for bad
# usage and 1 for bad data, messages that start with the program's name.
. "${top_srcdir:-.}/tests/cli/common.sh"
recdemo="$data/callgrind/recdemo/callgrind.out.recdemo"

for tool in "$cgmerge" "$cgcycles" "$cgcost" "$cgtree"; do
  name=$(basename "$tool")
  expect 0 "$tool" --help && grep -q "^Usage:" "$tmp/out" || fail "$name --help"
  expect 0 "$tool" --version && grep -q "^$name (cgtools [0-9]" "$tmp/out" || fail "$name --version: $(cat "$tmp/out")"
  expect 2 "$tool" --no-such-option && expect_message "$name: Unknown option"
  expect 2 "$tool" --format=bogus "$recdemo" && expect_message "$name: --format=bogus: expected one of"
  expect 1 "$tool" /nonexistent/profile && expect_message "$name: /nonexistent/profile: cannot open"
done

expect 2 "$cgcost" --method=bogus "$recdemo" && expect_message "--method=bogus"
expect 2 "$cgcost" --event=Nope "$recdemo" && expect_message "no such event (it has Ir)"
expect 2 "$cgcost" --arcs --format=text "$recdemo" && expect_message "--arcs applies to --format=tsv only"
expect 2 "$cgtree" --threshold=200 "$recdemo" && expect_message "--threshold=200"
expect 2 "$cgtree" --max-depth=-1 "$recdemo" && expect_message "--max-depth=-1"
# a method the data do not allow is bad data, not bad usage
expect 1 "$cgcost" --method=exact "$recdemo" && expect_message "no call tree"
# a short option's value may be attached (-t0, -oFILE), or follow a
# cluster of flags (-qo FILE), as getopt allows
expect 0 "$cgtree" -t 0 -d 3 -s name "$recdemo" && cp "$tmp/out" "$tmp/separate"
expect 0 "$cgtree" -t0 -d3 -sname "$recdemo" && cmp -s "$tmp/out" "$tmp/separate" || fail "cgtree -t0 -d3 -sname"
expect 0 "$cgtree" -qt0 -d3 -qo "$tmp/clustered" -sname "$recdemo" && cmp -s "$tmp/clustered" "$tmp/separate" \
  || fail "cgtree -qt0 -qo FILE"
expect 0 "$cgcost" -ftsv "-o$tmp/attached" "$recdemo" && expect 0 "$cgcost" -f tsv "$recdemo" \
  && cmp -s "$tmp/out" "$tmp/attached" || fail "cgcost -ftsv -oFILE"
expect 2 "$cgtree" -t "$recdemo" && expect_message "Cannot parse double value"
# cgcost's -q is gprof's call graph; --quiet has no short form there
expect 0 "$cgcost" --help && ! grep -q -- "-q, --quiet" "$tmp/out" && grep -q -- "-q, --graph" "$tmp/out" \
  || fail "cgcost --help: $(grep -- '-q' "$tmp/out")"
# after --, nothing is an option
expect 1 "$cgtree" -- -t0 && expect_message "-t0: cannot open"
# '-' and no argument both read standard input
expect 0 "$cgmerge" - <"$recdemo" && cp "$tmp/out" "$tmp/dash.xml"
expect 0 "$cgmerge" <"$recdemo" && cmp -s "$tmp/out" "$tmp/dash.xml" || fail "stdin read differs between '-' and none"
finish
