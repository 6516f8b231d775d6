#!/bin/sh
# Folded stacks end to end.  Oracle for the exact method: a brute force
# over the lines themselves (each sample charged once to every distinct
# function on its stack; an arc gets the samples of the stacks whose
# outermost callee was called through it), on random profiles with self
# and mutual recursion made here.  Also: round trip, bad input with line
# numbers, auto's choice, and a million-frame stack through the pipeline.
. "${top_srcdir:-.}/tests/cli/common.sh"

# random_folded SEED — 1 to 40 stacks over 7 functions, a frame repeating
# one already on the stack with probability 0.35
random_folded () {
  awk -v seed="$1" 'BEGIN {
    srand(seed); n = 1 + int(rand() * 40)
    for (i = 0; i < n; i++) {
      d = 1 + int(rand() * 10); s = ""
      for (j = 0; j < d; j++) {
        f = (j > 0 && rand() < 0.35) ? st[int(rand() * j)] : "fn" int(rand() * 7)
        st[j] = f; s = s (j ? ";" : "") f
      }
      print s, 1 + int(rand() * 1000)
    }
  }'
}

# brute_totals FILE — "function<TAB>total" per function
brute_totals () {
  awk '{ n = split($1, st, ";"); delete seen
         for (i = 1; i <= n; i++) if (!(st[i] in seen)) { seen[st[i]] = 1; total[st[i]] += $2 } }
       END { for (f in total) printf "%s\t%s\n", f, total[f] }' "$1" | sort
}

# brute_arcs FILE — "caller<TAB>callee<TAB>cost" for every arc that carries something
brute_arcs () {
  awk '{ n = split($1, st, ";"); delete seen
         for (i = 1; i <= n; i++) if (!(st[i] in seen)) { seen[st[i]] = 1; if (i > 1) arc[st[i - 1] "\t" st[i]] += $2 } }
       END { for (a in arc) printf "%s\t%s\n", a, arc[a] }' "$1" | sort
}

seed=1
while [ $seed -le 40 ]; do
  random_folded $seed >"$tmp/r.folded"
  "$cgmerge" "$tmp/r.folded" | "$cgcost" --method=exact --format=tsv >"$tmp/r.tsv" || fail "seed $seed: the pipeline failed"
  awk -F '\t' 'NR > 1 { printf "%s\t%s\n", $1, $4 }' "$tmp/r.tsv" | sort >"$tmp/got"
  brute_totals "$tmp/r.folded" >"$tmp/want"
  cmp -s "$tmp/got" "$tmp/want" || fail "seed $seed: exact totals differ from the brute force: $(diff "$tmp/want" "$tmp/got" | head -4)"
  "$cgcost" --method=exact --format=tsv --arcs "$tmp/r.folded" >"$tmp/r.arcs" || fail "seed $seed: --arcs failed"
  awk -F '\t' 'NR > 1 && $4 != 0 { printf "%s\t%s\t%s\n", $1, $2, $4 }' "$tmp/r.arcs" | sort >"$tmp/got"
  brute_arcs "$tmp/r.folded" >"$tmp/want"
  cmp -s "$tmp/got" "$tmp/want" || fail "seed $seed: arc costs differ from the brute force: $(diff "$tmp/want" "$tmp/got" | head -4)"
  # folded stacks record no calls: the calls column is 0
  awk -F '\t' 'NR > 1 && $2 != 0 { exit 1 }' "$tmp/r.tsv" || fail "seed $seed: calls are not 0"
  seed=$((seed + 1))
done

# frame type annotations (async-profiler's converters: _[0] interpreted,
# _[1] C1, _[j] JIT-compiled, _[i] inlined; stackcollapse-perf's _[j],
# _[k]): one function however its frames ran, so its recursion through
# differently compiled frames is seen.  The same random stacks with an
# annotation on each frame give the unannotated brute force's totals.
seed=1
while [ $seed -le 20 ]; do
  random_folded $seed >"$tmp/r.folded"
  awk -v seed="$seed" 'BEGIN { srand(seed); split("_[0] _[1] _[j] _[i]", ann, " ") }
    { n = split($1, st, ";"); s = ""
      for (i = 1; i <= n; i++) s = s (i > 1 ? ";" : "") st[i] (rand() < 0.8 ? ann[1 + int(rand() * 4)] : "")
      print s, $2 }' "$tmp/r.folded" >"$tmp/a.folded"
  "$cgcost" --method=exact --format=tsv "$tmp/a.folded" >"$tmp/a.tsv" || fail "seed $seed: annotated stacks failed"
  awk -F '\t' 'NR > 1 { printf "%s\t%s\n", $1, $4 }' "$tmp/a.tsv" | sort >"$tmp/got"
  brute_totals "$tmp/r.folded" >"$tmp/want"
  cmp -s "$tmp/got" "$tmp/want" || fail "seed $seed: annotated frames are not one function each: $(diff "$tmp/want" "$tmp/got" | head -4)"
  seed=$((seed + 1))
done
# a kernel frame is the kernel's function; a waker's (_[w]) stays apart
printf 'java;Main.run_[j];write_[k] 3\njava;Main.run_[i];Main.run_[0] 5\nsleep;--;wake_[w] 2\n' >"$tmp/k.folded"
expect 0 "$cgcost" --format=tsv "$tmp/k.folded" \
  && { [ "$(total_of "$tmp/out" Main.run)" = 8 ] && [ "$(total_of "$tmp/out" write)" = 3 ] \
       && [ "$(total_of "$tmp/out" "wake_[w]")" = 2 ] || fail "annotations: $(cat "$tmp/out")"; }
# --kernel shapes them as perf's: drop charges the caller (or [kernel]
# where every frame was the kernel's), annotate keeps the _[k]
self_of () { awk -F '\t' -v f="$2" '$1 == f { print $3 }' "$1"; }
printf 'sh;read_[k];vfs_read_[k] 4\n' >>"$tmp/k.folded"
expect 0 "$cgcost" --kernel=drop --format=tsv "$tmp/k.folded" \
  && { [ "$(total_of "$tmp/out" Main.run)" = 8 ] && [ "$(self_of "$tmp/out" Main.run)" = 8 ] \
       && [ "$(self_of "$tmp/out" sh)" = 4 ] && ! grep -q '^write' "$tmp/out" || fail "--kernel=drop: $(cat "$tmp/out")"; }
printf 'read_[k];vfs_read_[k] 6\n' >"$tmp/kk.folded"
expect 0 "$cgcost" --input-format=folded --kernel=drop --format=tsv "$tmp/kk.folded" \
  && [ "$(self_of "$tmp/out" "[kernel]")" = 6 ] || fail "--kernel=drop, kernel frames only: $(cat "$tmp/out")"
expect 0 "$cgcost" --kernel=annotate --format=tsv "$tmp/k.folded" \
  && { [ "$(total_of "$tmp/out" "write_[k]")" = 3 ] && [ "$(total_of "$tmp/out" "read_[k]")" = 4 ] \
       || fail "--kernel=annotate: $(cat "$tmp/out")"; }
expect 2 "$cgcost" --split=pid "$tmp/k.folded"
expect 0 "$cgmerge" "$tmp/k.folded" && grep -q '<object id="[0-9]*" name="\[kernel.kallsyms\]"/>' "$tmp/out" \
  || fail "a _[k] frame is not in the kernel's object: $(grep -c object "$tmp/out")"

# auto picks exact for stacks, the text form says so and marks nothing
profile="$data/folded/recdemo.folded"
expect 0 "$cgcost" --format=text "$profile" && grep -q '^Method: exact (Min_E' "$tmp/out" || fail "auto did not pick exact"
grep -q '~' "$tmp/out" && fail "exact totals marked estimated"
expect 0 "$cgmerge" "$profile" && cp "$tmp/out" "$tmp/m.xml"
expect 0 "$cgcycles" "$tmp/m.xml" && cp "$tmp/out" "$tmp/c.xml"
expect 0 "$cgcost" "$tmp/c.xml" && cp "$tmp/out" "$tmp/x.xml"
validate "$tmp/m.xml" "$tmp/c.xml" "$tmp/x.xml"
grep -q '<costs method="exact">' "$tmp/x.xml" || fail "no exact costs in the XML"
grep -q '<tree>' "$tmp/x.xml" || fail "the call tree did not travel"
# (_start, start-up code, folded: main, which carries every sample, is
# the root)
expect 0 "$cgtree" "$tmp/x.xml" && grep -q '^ *100.00 .*  main\( >\|$\)' "$tmp/out" || fail "cgtree on folded input"
grep -q '^Start-up code (_start, __libc_start_main)' "$tmp/out" || fail "cgtree on folded input: no start-up note"
# decompose on the same stacks: estimates, marked
expect 0 "$cgcost" --method=decompose --format=text "$profile" && grep -q '^Method: decompose' "$tmp/out" \
  && grep -q '~' "$tmp/out" || fail "decompose text: no method line or no marks"
expect 0 "$cgcost" --method=decompose "$profile" && cp "$tmp/out" "$tmp/d.xml" && validate "$tmp/d.xml"

# round trip: folded → cgtools → folded, identical after sorting
sort "$profile" >"$tmp/want"
"$cgcost" --format=folded "$profile" | sort >"$tmp/got"
cmp -s "$tmp/got" "$tmp/want" || fail "folded round trip differs"
"$cgcost" --format=folded "$tmp/x.xml" | sort >"$tmp/got"
cmp -s "$tmp/got" "$tmp/want" || fail "folded round trip through the pipeline differs"
printf 'a;b 2.5\na 0.125\nc;d e 4\n' >"$tmp/dec.folded"
"$cgmerge" "$tmp/dec.folded" | "$cgcost" --format=folded | sort >"$tmp/got"
sort "$tmp/dec.folded" | cmp -s - "$tmp/got" || fail "decimal folded round trip differs"
# no stacks, no folded output
expect 1 "$cgcost" --format=folded "$data/callgrind/recdemo/callgrind.out.recdemo" \
  && expect_message "needs whole stacks"

# bad input: the line number, or skipped with a count under --lenient
printf 'main;a 1\nmain;b 2\nmain;;c 3\nmain;d\n' >"$tmp/bad.folded"
expect 1 "$cgmerge" "$tmp/bad.folded" && expect_message "cgmerge: $tmp/bad.folded:3: not a folded stack"
expect 0 "$cgmerge" --lenient "$tmp/bad.folded" \
  && expect_message "warning: $tmp/bad.folded: skipped 2 lines that are not folded stacks (the first, line 3"
expect 1 "$cgcost" --format=tsv <"$tmp/bad.folded" && expect_message "cgcost: <stdin>:3: not a folded stack"

# a million-frame stack (mutual recursion a;b;a;b...) through the four
# filters, and a 200,000-function chain through the decomposition, which
# gprof2dot's recursion stops a few hundred deep
awk 'BEGIN { printf "a"; for (i = 1; i < 1000000; i++) printf "%s", i % 2 ? ";b" : ";a"; print " 3"; print "a 2" }' \
  >"$tmp/deep.folded"
"$cgmerge" "$tmp/deep.folded" | "$cgcycles" | "$cgcost" | "$cgtree" >"$tmp/deep.txt" \
  || fail "the deep stack broke the pipeline"
# a's total is everything (5); the call a → b carried the 3 samples of the deep stack
grep -q '^ *100.00  *40.00  .* a <cycle 1>$' "$tmp/deep.txt" && grep -q '^ *60.00  *60.00 .*`-b <cycle 1>$' "$tmp/deep.txt" \
  || fail "deep stack: $(cat "$tmp/deep.txt")"
awk 'BEGIN { printf "f0"; for (i = 1; i < 200000; i++) printf ";f%d", i; print " 7" }' >"$tmp/chain.folded"
"$cgcost" --method=decompose --format=tsv "$tmp/chain.folded" >"$tmp/chain.tsv" || fail "decompose on a deep chain"
[ "$(total_of "$tmp/chain.tsv" f0)" = 7 ] && [ "$(total_of "$tmp/chain.tsv" f199999)" = 7 ] \
  || fail "deep chain totals"

# a NUL byte beyond the detector's first 4 KiB is named by the reader,
# where the frame's name was cut at it ('main;' and 2 samples to an
# empty-named function, 'b' lost)
awk 'BEGIN { for (i = 0; i < 1000; i++) print "main;a" i " 1" }' >"$tmp/nul.folded"
printf 'main;\000b 2\n' >>"$tmp/nul.folded"
expect 1 "$cgmerge" "$tmp/nul.folded" && expect_message "$tmp/nul.folded:1001: not a folded stack" \
  && expect_message "a NUL byte in the line"
expect 0 "$cgcost" --lenient --format=tsv "$tmp/nul.folded" && expect_message "warning:"
[ "$(total_of "$tmp/out" main)" = 1000 ] || fail "--lenient: the NUL line counted, main's total $(total_of "$tmp/out" main)"

# gprof's method shares time out by call counts, which sampled stacks do
# not have: the totals it gives (each its self cost: main's 0 here, of
# 5 samples all under main) come with a warning that says so
printf 'main;work 3\nmain;other 2\n' >"$tmp/nocalls.folded"
expect 0 "$cgcost" --method=gprof --format=tsv "$tmp/nocalls.folded" \
  && expect_message "warning: the profile has calls but no call counts" && expect_message "--method=exact"
[ "$(total_of "$tmp/out" main)" = 0 ] || fail "gprof's method on folded stacks: main's total $(total_of "$tmp/out" main)"
expect 0 "$cgcost" --format=tsv "$tmp/nocalls.folded"
[ "$(total_of "$tmp/out" main)" = 5 ] && [ ! -s "$tmp/err" ] || fail "exact: main's total $(total_of "$tmp/out" main), $(cat "$tmp/err")"
# so does gprof's report of it, which says the whole (5 samples) in
# samples, not in the seconds gprof says of its histograms
expect 0 "$cgcost" --format=gprof "$tmp/nocalls.folded" && expect_message "warning: the profile has calls but no call counts"
# (no histogram: no bytes a sample covers, nor a sample's share, where it
# said 'each sample hit covers 0 byte(s) for 20.00% of 5.00 samples')
grep -qx 'granularity: counts per function, no histogram, 5.00 samples in all' "$tmp/out" \
  || fail "gprof's report of folded stacks: $(grep granularity "$tmp/out")"
# and its flat profile says that each count is a sample, where it said
# "Each sample counts as 1 samples." (gprof's line for a histogram)
sed -n 3p "$tmp/out" | grep -qx 'Counts are samples, not seconds\.' \
  || fail "gprof's report of folded stacks, the counts' line: $(sed -n 3p "$tmp/out")"

# FlameGraph's difffolded.pl writes each stack with the base's count and
# the new profile's: flamegraph.pl draws the second, so the file reads as
# the new profile (the same as that profile's own folded stacks), with a
# warning that names the first such line; a frame never ends in " 10"
printf 'main;parse;lex 10 12
main;parse 5 3
main;eval 0 7
' >"$tmp/diff.folded"
printf 'main;parse;lex 12
main;parse 3
main;eval 7
' >"$tmp/after.folded"
expect 0 "$cgcost" --format=tsv "$tmp/after.folded" && cp "$tmp/out" "$tmp/after.tsv"
expect 0 "$cgcost" --format=tsv "$tmp/diff.folded" \
  && expect_message "diff.folded:1: 3 lines with two counts after the stack, as FlameGraph's difffolded.pl writes them"
cmp -s "$tmp/out" "$tmp/after.tsv" || fail "difffolded.pl's lines: not the new profile: $(diff "$tmp/after.tsv" "$tmp/out" | head -4)"
# cgcost --base --format=folded writes such lines, and reads them back so
expect 0 "$cgcost" --base="$tmp/diff.folded" --format=folded "$tmp/after.folded" \
  && "$cgcost" --format=tsv "$tmp/out" >"$tmp/back.tsv" 2>/dev/null && cmp -s "$tmp/back.tsv" "$tmp/after.tsv" \
  || fail "cgcost --base --format=folded read back: $(diff "$tmp/after.tsv" "$tmp/back.tsv" | head -4)"
# but where frame names end in a blank and digits, the number before the
# count is the leaf's name's: a file whose inner frames are so named is
# no differential one
printf 'job 1;job 2 5\njob 1;job 3 4\n' >"$tmp/numbered.folded"
expect 0 "$cgcost" --format=tsv "$tmp/numbered.folded" \
  && { [ "$(total_of "$tmp/out" "job 2")" = 5 ] && [ "$(total_of "$tmp/out" "job 1")" = 9 ] && [ ! -s "$tmp/err" ] \
         || fail "frames named 'job 2': $(cat "$tmp/out" "$tmp/err")"; }
finish
