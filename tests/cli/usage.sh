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
# the options of a difference say nothing without one: bad usage, not ignored
for tool in "$cgcost" "$cgtree"; do
  expect 2 "$tool" --normalize "$recdemo" && expect_message "--normalize applies with --base only"
  expect 2 "$tool" --exact-names "$recdemo" && expect_message "--exact-names applies with --base only"
  expect 0 "$tool" --normalize --exact-names --base="$recdemo" -f text "$recdemo" || fail "$(basename "$tool") --normalize --base"
done
expect 2 "$cgtree" --threshold=200 "$recdemo" && expect_message "--threshold=200"
expect 2 "$cgtree" --max-depth=-1 "$recdemo" && expect_message "--max-depth=-1"
# an option of some input formats only, where no input is in one of
# them, would do nothing: bad usage that names the input, not ignored
expect 2 "$cgmerge" --executable=/bin/true "$recdemo" \
  && expect_message "--executable applies to gmon.out, amon.out and gperftools inputs, and no input is one ($recdemo: callgrind)"
expect 2 "$cgcost" -c "$recdemo" && expect_message "--static-calls applies to gmon.out inputs"
expect 2 "$cgtree" --split=pid "$data/folded/recdemo.folded" \
  && expect_message "--split applies to perf inputs (perf.data, perf script), and no input is one"
expect 2 "$cgtree" --kernel=drop "$recdemo" \
  && expect_message "--kernel applies to perf inputs (perf.data, perf script) and folded stacks, and no input is one"
# where the inputs or the base has one, it applies (and these two are
# not in one unit)
for option in --split=pid --kernel=drop; do
  expect 1 "$cgcost" "$option" -f text --base="$data/perf/layouts.perf" "$data/folded/recdemo.folded" \
    && expect_message "profiles in different units cannot be compared"
done
# --split and --kernel shape perf samples as they are read: cgtools XML
# made from perf samples holds them shaped already (its sources say perf,
# and the option was ignored), and beside perf inputs it is named
expect 0 "$cgmerge" -o "$tmp/perf.xml" "$data/perf/layouts.perf" || fail "cgmerge layouts.perf"
expect 2 "$cgcost" --split=pid "$tmp/perf.xml" \
  && expect_message "--split applies to perf inputs (perf.data, perf script), and no input is one ($tmp/perf.xml: cgtools XML, whose perf samples were read before"
expect 2 "$cgcost" --kernel=drop "$tmp/perf.xml" \
  && expect_message "--kernel applies to perf inputs (perf.data, perf script) and folded stacks, and no input is one ($tmp/perf.xml: cgtools XML, whose samples were read before"
for option in --split=pid --kernel=drop; do
  expect 0 "$cgmerge" "$option" "$data/perf/layouts.perf" "$tmp/perf.xml" \
    && expect_message "warning: ${option%=*} applies to perf inputs (perf.data, perf script)"
  expect_message ": $tmp/perf.xml (cgtools XML) is read without it"
done
expect 0 "$cgmerge" --executable="$data/gmon/exprparse/exprparse" -o "$tmp/both.xml" "$data/gmon/exprparse/gmon.out" "$recdemo" \
  && expect_message "warning: --executable applies to gmon.out, amon.out and gperftools inputs: $recdemo (callgrind) is read without it" \
  || fail "--executable with a gmon.out and a callgrind file"
# so does --executable: cgtools XML made from an amon.out or a gmon.out
# holds its names already, but for the gmon.out's --static-calls scan
expect 0 "$cgmerge" -o "$tmp/amon.xml" "$data/amon/mutual/amon.out.mutual" || fail "cgmerge amon.out.mutual"
expect 2 "$cgcost" --executable=/bin/true "$tmp/amon.xml" \
  && expect_message "--executable applies to gmon.out, amon.out and gperftools inputs, and no input is one ($tmp/amon.xml: cgtools XML, whose addresses were symbolised when it was made"
"$cgmerge" --executable="$data/gmon/exprparse/exprparse" -o "$tmp/gmon.xml" "$data/gmon/exprparse/gmon.out" \
  || fail "cgmerge gmon.out"
expect 2 "$cgcost" --executable="$data/gmon/exprparse/exprparse" "$tmp/gmon.xml" \
  && expect_message "no input is one ($tmp/gmon.xml: cgtools XML, whose addresses"
expect 0 "$cgcost" -c --executable="$data/gmon/exprparse/exprparse" "$tmp/gmon.xml" && [ ! -s "$tmp/err" ] \
  || fail "--static-calls --executable with cgtools XML of a gmon.out: $(cat "$tmp/err")"
# a method the data do not allow is bad data, not bad usage
expect 1 "$cgcost" --method=exact "$recdemo" && expect_message "no call tree"
# a short option's value may be attached (-t0, -oFILE), or follow a
# cluster of flags (-qo FILE), as getopt allows
expect 0 "$cgtree" -t 0 -d 3 -s name "$recdemo" && cp "$tmp/out" "$tmp/separate"
expect 0 "$cgtree" -t0 -d3 -sname "$recdemo" && cmp -s "$tmp/out" "$tmp/separate" || fail "cgtree -t0 -d3 -sname"
expect 0 "$cgtree" -it0 -d3 -io "$tmp/clustered" -sname "$recdemo" && expect 0 "$cgtree" -i -t 0 -d 3 -s name "$recdemo" \
  && cmp -s "$tmp/clustered" "$tmp/out" || fail "cgtree -it0 -io FILE"
expect 0 "$cgcost" -ftsv "-o$tmp/attached" "$recdemo" && expect 0 "$cgcost" -f tsv "$recdemo" \
  && cmp -s "$tmp/out" "$tmp/attached" || fail "cgcost -ftsv -oFILE"
expect 2 "$cgtree" -t "$recdemo" && expect_message "Cannot parse double value"
# cgcost's -q is gprof's call graph; --quiet has no short form there
expect 0 "$cgcost" --help && ! grep -q -- "-q, --quiet" "$tmp/out" && grep -q -- "-q, --graph" "$tmp/out" \
  || fail "cgcost --help: $(grep -- '-q' "$tmp/out")"
# a short option means one thing in all four tools: each letter that
# --help lists goes with one long name (gprof's letters included)
for tool in "$cgmerge" "$cgcycles" "$cgcost" "$cgtree"; do
  "$tool" --help | sed -n 's/^  -\(.\), --\([a-z-]*\).*/\1 \2/p' | sed "s|\$| $(basename "$tool")|"
done | sort -u >"$tmp/letters"
[ "$(wc -l <"$tmp/letters")" -gt 20 ] || fail "short options not found in --help: $(cat "$tmp/letters")"
awk '{ n[$1 " " $2]++; if (!($1 in long)) long[$1] = $2; else if (long[$1] != $2) print $1 ": --" long[$1] " and --" $2 " (" $3 ")" }' \
  "$tmp/letters" >"$tmp/clash"
[ ! -s "$tmp/clash" ] || fail "a short option means two things: $(cat "$tmp/clash")"
# those the four share, everywhere
for pair in "o output" "f format" "b brief" "c static-calls" "V version" "h help"; do
  [ "$(grep -c "^$pair " "$tmp/letters")" = 4 ] || fail "-${pair% *} is not --${pair#* } in all four tools"
done
# -e is --event wherever it exists, -q gprof's call graph in cgcost only
for pair in "e event" "q graph"; do
  ! grep "^${pair% *} " "$tmp/letters" | grep -v -q "^$pair " || fail "-${pair% *} is not always --${pair#* }"
done
# --help fits 80 columns
for tool in "$cgmerge" "$cgcycles" "$cgcost" "$cgtree"; do
  expect 0 "$tool" --help && expect 0 "$tool" -h
  LC_ALL=C.UTF-8 "$tool" --help | LC_ALL=C.UTF-8 awk -v t="$(basename "$tool")" \
    'length > 80 { print t ": " length " columns: " $0; bad = 1 } END { exit bad }' || fail "--help wider than 80 columns"
done
# a gmon.out without its executable: how to name it (no a.out here)
abs_cgcost=$(cd "$(dirname "$cgcost")" && pwd)/cgcost
abs_gmon=$(cd "$data/gmon/exprparse" && pwd)/gmon.out
(cd "$tmp" && "$abs_cgcost" "$abs_gmon" >/dev/null 2>"$tmp/err"; echo $? >"$tmp/status")
[ "$(cat "$tmp/status")" = 1 ] || fail "gmon.out without a.out: exit status $(cat "$tmp/status")"
expect_message "give it with --executable=PROGRAM"
# no file and a terminal on standard input: say how to give input, at once
if command -v script >/dev/null; then
  for tool in "$cgmerge" "$cgtree"; do
    timeout 10 script -qec "'$tool'" /dev/null >"$tmp/tty" 2>&1
    status=$?
    [ "$status" = 2 ] || fail "$(basename "$tool") with a terminal for input: status $status"
    grep -q "no input: give a profile FILE" "$tmp/tty" || fail "$(basename "$tool") on a terminal: $(cat "$tmp/tty")"
  done
fi
# after --, nothing is an option
expect 1 "$cgtree" -- -t0 && expect_message "-t0: cannot open"
# '-' and no argument both read standard input
expect 0 "$cgmerge" - <"$recdemo" && cp "$tmp/out" "$tmp/dash.xml"
expect 0 "$cgmerge" <"$recdemo" && cmp -s "$tmp/out" "$tmp/dash.xml" || fail "stdin read differs between '-' and none"
finish
