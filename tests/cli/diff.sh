#!/bin/sh
# cgcost --base: what changed between two profiles, checked against an
# independent join of the two profiles' totals (Min_E by awk over folded
# stacks; each profile's own cgcost tsv), on synthetic pairs with known
# changes and on a test-time pair of callgrind runs whose argument changes
# one function's work.
. "${top_srcdir:-.}/tests/cli/common.sh"

# minE FOLDED — per function, Min_E's total over the stacks (each sample
# charged once to every distinct function on its stack), by a key without
# clone suffixes, as NAME<TAB>TOTAL
minE () {
  awk '{ n = $NF; split ($1, fr, ";"); delete seen
         for (i in fr) { f = fr[i]; sub (/\.(constprop|isra|part)\.[0-9]+$/, "", f)
                         if (!(f in seen)) { seen[f] = 1; total[f] += n } } }
       END { for (f in total) printf "%s\t%d\n", f, total[f] }' "$1" | sort
}

# join_change BASE NEW — NAME<TAB>BASE<TAB>NEW<TAB>CHANGE from two
# NAME<TAB>TOTAL lists (0 where a name is missing)
join_change () {
  awk -F '\t' 'NR == FNR { b[$1] = $2; all[$1] = 1; next } { n[$1] = $2; all[$1] = 1 }
    END { for (f in all) printf "%s\t%d\t%d\t%d\n", f, b[f] + 0, n[f] + 0, n[f] - b[f] }' "$1" "$2" | sort
}

# ours TSV — the same columns from cgcost --base's tsv, names without
# clone suffixes
ours () {
  awk -F '\t' 'NR > 1 { f = $1; sub (/\.(constprop|isra|part)\.[0-9]+$/, "", f); printf "%s\t%s\t%s\t%s\n", f, $2, $3, $4 }' "$1" | sort
}

# arcs TSV — CALLER<TAB>CALLEE<TAB>CALLS<TAB>INCLUSIVE from a profile's own
# cgcost --arcs --format=tsv, names without clone suffixes
arcs () {
  awk -F '\t' 'NR > 1 { c = $1; e = $2; sub (/\.(constprop|isra|part)\.[0-9]+$/, "", c)
    sub (/\.(constprop|isra|part)\.[0-9]+$/, "", e); printf "%s\t%s\t%s\t%s\n", c, e, $3, $4 }' "$1"
}

# join_arcs BASE NEW — CALLER CALLEE BASE_CALLS NEW_CALLS BASE NEW CHANGE
# PRESENCE from two such lists
join_arcs () {
  awk -F '\t' 'NR == FNR { k = $1 "\t" $2; bc[k] = $3; b[k] = $4; inb[k] = 1; all[k] = 1; next }
    { k = $1 "\t" $2; nc[k] = $3; n[k] = $4; inn[k] = 1; all[k] = 1 }
    END { for (k in all) printf "%s\t%d\t%d\t%d\t%d\t%d\t%s\n", k, bc[k] + 0, nc[k] + 0, b[k] + 0, n[k] + 0,
            n[k] - b[k], (k in inb) ? ((k in inn) ? "both" : "removed") : "added" }' "$1" "$2" | sort
}

# ours_arcs TSV — the same columns from cgcost --base --arcs's tsv
ours_arcs () {
  awk -F '\t' 'NR > 1 { c = $1; e = $2; sub (/\.(constprop|isra|part)\.[0-9]+$/, "", c)
    sub (/\.(constprop|isra|part)\.[0-9]+$/, "", e)
    printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c, e, $3, $4, $5, $6, $7, $8 }' "$1" | sort
}

# check_arcs BASE NEW — cgcost --base --arcs against the join of the two
# profiles' own arc tsv
check_arcs () {
  "$cgcost" --arcs --format=tsv "$1" >"$tmp/arcs.b" && "$cgcost" --arcs --format=tsv "$2" >"$tmp/arcs.n" \
    && "$cgcost" --base="$1" --arcs --format=tsv "$2" >"$tmp/arcs.diff" 2>"$tmp/err" \
    || { fail "arcs of $2 against $1: $(cat "$tmp/err")"; return; }
  arcs "$tmp/arcs.b" >"$tmp/arcs.b1"
  arcs "$tmp/arcs.n" >"$tmp/arcs.n1"
  join_arcs "$tmp/arcs.b1" "$tmp/arcs.n1" >"$tmp/want"
  ours_arcs "$tmp/arcs.diff" >"$tmp/got"
  cmp -s "$tmp/want" "$tmp/got" || fail "arc diff of $2 against a join of the arc tsv: $(diff "$tmp/want" "$tmp/got" | head -5)"
}

# 1. a known change: term slower, leaf twice as slow under a clone renamed
# between builds, one function gone, one added
cat >"$tmp/a.folded" <<'EOF'
main;parse;expr;term 100
main;parse;expr 50
main;work.constprop.0;leaf 200
main;work.constprop.0;work.constprop.0;leaf 20
main;gone 30
EOF
cat >"$tmp/b.folded" <<'EOF'
main;parse;expr;term 130
main;parse;expr 50
main;work.constprop.1;leaf 400
main;work.constprop.1;work.constprop.1;leaf 40
main;added 10
EOF
expect 0 "$cgcost" --base="$tmp/a.folded" --format=tsv "$tmp/b.folded"
cp "$tmp/out" "$tmp/diff.tsv"
head -1 "$tmp/diff.tsv" | grep -q "^function	base_total	new_total	total_change	base_self	new_self	self_change	presence	exactness$" \
  || fail "the diff tsv's header: $(head -1 "$tmp/diff.tsv")"
minE "$tmp/a.folded" >"$tmp/a.min"
minE "$tmp/b.folded" >"$tmp/b.min"
join_change "$tmp/a.min" "$tmp/b.min" >"$tmp/want"
ours "$tmp/diff.tsv" >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || fail "diff tsv against Min_E by awk: $(diff "$tmp/want" "$tmp/got" | head -5)"
# the renamed clone is one function, recursion counted once
awk -F '\t' '$1 == "work.constprop.1" { print $2, $3, $8 }' "$tmp/diff.tsv" | grep -qx '220 440 both' \
  || fail "the clone renamed between builds is not matched: $(grep work "$tmp/diff.tsv")"
grep -q "^gone	30	0	-30	30	0	-30	removed	exact$" "$tmp/diff.tsv" || fail "a removed function: $(grep gone "$tmp/diff.tsv")"
grep -q "^added	0	10	10	0	10	10	added	exact$" "$tmp/diff.tsv" || fail "an added function: $(grep added "$tmp/diff.tsv")"
# sorted by absolute change of total
awk -F '\t' 'NR > 1 { c = $4 < 0 ? -$4 : $4; if (NR > 2 && c > last) bad = 1; last = c } END { exit bad }' "$tmp/diff.tsv" \
  || fail "rows are not by absolute change"
# without folding, the clones are two functions
expect 0 "$cgcost" --base="$tmp/a.folded" --format=tsv --exact-names "$tmp/b.folded"
grep -q "^work.constprop.0	220	0	-220	.*removed" "$tmp/out" || fail "--exact-names matched the clones: $(grep work "$tmp/out")"

# 1b. per arc: the header, known rows, the order, and the join
expect 0 "$cgcost" --base="$tmp/a.folded" --arcs --format=tsv "$tmp/b.folded"
cp "$tmp/out" "$tmp/arcdiff.tsv"
head -1 "$tmp/arcdiff.tsv" | grep -qx "caller	callee	base_calls	new_calls	base_inclusive	new_inclusive	inclusive_change	presence	exactness" \
  || fail "the arc diff tsv's header: $(head -1 "$tmp/arcdiff.tsv")"
grep -qx "main	work.constprop.1	0	0	220	440	220	both	exact" "$tmp/arcdiff.tsv" \
  || fail "the arc to the renamed clone: $(grep work "$tmp/arcdiff.tsv")"
grep -qx "main	gone	0	0	30	0	-30	removed	exact" "$tmp/arcdiff.tsv" || fail "a removed arc: $(grep gone "$tmp/arcdiff.tsv")"
grep -qx "main	added	0	0	0	10	10	added	exact" "$tmp/arcdiff.tsv" || fail "an added arc: $(grep added "$tmp/arcdiff.tsv")"
awk -F '\t' 'NR > 1 { c = $7 < 0 ? -$7 : $7; if (NR > 2 && c > last) bad = 1; last = c } END { exit bad }' "$tmp/arcdiff.tsv" \
  || fail "arc rows are not by absolute change"
check_arcs "$tmp/a.folded" "$tmp/b.folded"
expect 0 "$cgcost" --base="$tmp/a.folded" --arcs --format=text "$tmp/b.folded"
grep -q "^ *+220 *220 *440 .* main -> work.constprop.1$" "$tmp/out" || fail "arc text: $(cat "$tmp/out")"
grep -q "^ *-30 *30 *- .*-main -> gone$" "$tmp/out" || fail "arc text, a removed arc: $(grep gone "$tmp/out")"
expect 2 "$cgcost" --base="$tmp/a.folded" --arcs --format=folded "$tmp/b.folded" && expect_message "--base applies to"

# 1c. two builds named apart (prog-O1, prog-O2 in other directories): the
# main object's file name differs, so functions match by name alone where
# exactly one function of each profile has it; a name both libraries
# define (helper) stays apart by its object
printf '%s\n' "# callgrind format" "version: 1" "events: Ir" "ob=/build/a/prog-O1" "fn=main" "1 10" \
  "cfn=work" "calls=2 1" "1 100" "cob=/lib/libx.so" "cfn=helper" "calls=1 1" "1 5" "fn=work" "1 100" \
  "ob=/lib/libx.so" "fn=helper" "1 5" "ob=/lib/liby.so" "fn=helper" "1 7" >"$tmp/o1.cg"
printf '%s\n' "# callgrind format" "version: 1" "events: Ir" "ob=/build/b/prog-O2" "fn=main" "1 12" \
  "cfn=work.part.0" "calls=2 1" "1 60" "cob=/lib/libx.so" "cfn=helper" "calls=1 1" "1 5" "fn=work.part.0" "1 60" \
  "ob=/lib/libx.so" "fn=helper" "1 5" "ob=/lib/liby.so" "fn=helper" "1 9" >"$tmp/o2.cg"
expect 0 "$cgcost" --base="$tmp/o1.cg" --format=tsv "$tmp/o2.cg"
grep -q "^main	115	77	-38	10	12	2	both	exact$" "$tmp/out" || fail "builds named apart: main: $(cat "$tmp/out")"
grep -q "^work.part.0	100	60	-40	100	60	-40	both	exact$" "$tmp/out" || fail "builds named apart: work: $(cat "$tmp/out")"
grep -q "^helper \[/lib/liby.so\]	7	9	2	7	9	2	both	exact$" "$tmp/out" \
  || fail "builds named apart: helper of liby: $(grep helper "$tmp/out")"
[ "$(grep -c "both" "$tmp/out")" = 4 ] || fail "builds named apart: not every function matched: $(cat "$tmp/out")"
# ... and where each build has a function and its clone (Lua's luaV_concat
# and luaV_concat.part.0 under gcc -O2), each matches its namesake
printf '%s\n' "# callgrind format" "version: 1" "events: Ir" "ob=/build/a/lua-a" "fn=main" "1 10" \
  "cfn=concat" "calls=1 1" "1 3" "cfn=concat.part.0" "calls=4 1" "1 40" "fn=concat" "1 3" "fn=concat.part.0" "1 40" \
  >"$tmp/p1.cg"
printf '%s\n' "# callgrind format" "version: 1" "events: Ir" "ob=/build/b/lua-b" "fn=main" "1 10" \
  "cfn=concat" "calls=1 1" "1 3" "cfn=concat.part.0" "calls=4 1" "1 70" "fn=concat" "1 3" "fn=concat.part.0" "1 70" \
  >"$tmp/p2.cg"
expect 0 "$cgcost" --base="$tmp/p1.cg" --format=tsv "$tmp/p2.cg"
grep -q "^concat.part.0	40	70	30	40	70	30	both	exact$" "$tmp/out" \
  || fail "builds named apart, a function and its clone: $(grep concat "$tmp/out")"
[ "$(grep -c "	both	" "$tmp/out")" = 3 ] || fail "builds named apart, a function and its clone: $(cat "$tmp/out")"

# ... and perf's roots, the processes named after their commands (two
# builds run as prog-old and prog-new), are one function: the total of
# everything, changed by what the program's functions changed
perf_sample () { # COMM N: N samples of main -> work in /build/COMM
  i=0
  while [ $i -lt "$2" ]; do
    i=$((i + 1))
    printf '%s   100/100   [000]  1000.%06d:          1 cpu-clock:u: \n\t            1234 work+0x4 (/build/%s)\n\t            1100 main+0x20 (/build/%s)\n\n' \
      "$1" $i "$1" "$1"
  done
}
perf_sample prog-old 3 >"$tmp/old.perf"
perf_sample prog-new 5 >"$tmp/new.perf"
expect 0 "$cgcost" --base="$tmp/old.perf" --format=tsv "$tmp/new.perf"
grep -q "^prog-new	3	5	2	0	0	0	both	exact$" "$tmp/out" || fail "perf's process roots are not matched: $(cat "$tmp/out")"
[ "$(grep -c "	both	" "$tmp/out")" = 3 ] || fail "perf's process roots: $(cat "$tmp/out")"

# 2. random pairs: B is A with one function's samples scaled and a
# function renamed by a clone suffix; every row against awk's Min_E
i=0
while [ $i -lt 20 ]; do
  i=$((i + 1))
  awk -v seed=$i 'BEGIN { srand (seed)
    for (s = 0; s < 60; s++) { d = 1 + int (rand () * 7); line = "main"
      for (k = 0; k < d; k++) line = line ";f" int (rand () * 6)
      print line, 1 + int (rand () * 50) } }' >"$tmp/r.a"
  awk -v seed=$i 'BEGIN { srand (seed * 7 + 1); slow = "f" int (rand () * 6) }
    { n = $NF; k = split ($1, fr, ";"); if (fr[k] == slow) n *= 3
      s = fr[1]; for (j = 2; j <= k; j++) s = s ";" (fr[j] == "f5" ? "f5.isra.0" : fr[j])
      print s, n }' "$tmp/r.a" >"$tmp/r.b"
  "$cgcost" --base="$tmp/r.a" --format=tsv "$tmp/r.b" >"$tmp/r.tsv" 2>"$tmp/err" || { fail "random pair $i: $(cat "$tmp/err")"; continue; }
  minE "$tmp/r.a" >"$tmp/a.min"
  minE "$tmp/r.b" >"$tmp/b.min"
  join_change "$tmp/a.min" "$tmp/b.min" >"$tmp/want"
  ours "$tmp/r.tsv" >"$tmp/got"
  cmp -s "$tmp/want" "$tmp/got" || { fail "random pair $i: $(diff "$tmp/want" "$tmp/got" | head -3)"; break; }
  check_arcs "$tmp/r.a" "$tmp/r.b"
done

# 3. --normalize scales the base to the new total
expect 0 "$cgcost" --base="$tmp/a.folded" --format=tsv --normalize "$tmp/b.folded"
awk -F '\t' '$1 == "main" { exit !($2 == $3) }' "$tmp/out" || fail "--normalize: main's totals differ: $(grep '^main' "$tmp/out")"
awk -F '\t' '$1 == "term" { want = 100 * 630 / 400; exit !(($2 - want) ^ 2 < 1e-12) }' "$tmp/out" \
  || fail "--normalize: term's base total: $(grep '^term' "$tmp/out")"

# 4. text and folded: the header says exact; the two-column stacks sum to
# each profile's total
expect 0 "$cgcost" --base="$tmp/a.folded" --format=text "$tmp/b.folded"
grep -q "every total is exact, and so is every difference" "$tmp/out" || fail "text: exactness not said: $(head -3 "$tmp/out")"
grep -q "change +230 " "$tmp/out" || fail "text: the total's change: $(grep Total "$tmp/out")"
expect 0 "$cgcost" --base="$tmp/a.folded" --format=folded "$tmp/b.folded"
awk '{ b += $(NF - 1); n += $NF } END { exit !(b == 400 && n == 630) }' "$tmp/out" \
  || fail "folded two-column sums: $(cat "$tmp/out")"
grep -qx "main;work.constprop.1;leaf 200 400" "$tmp/out" || fail "folded: the renamed clone's stack: $(cat "$tmp/out")"

# 4b. cgtree --base: each line's change is the change of the same call's
# cost (here every function has one caller, so its total's change)
expect 0 "$cgtree" --base="$tmp/a.folded" -t0 --color=never "$tmp/b.folded"
cp "$tmp/out" "$tmp/tree.txt"
grep -q "change: the line's incl less" "$tmp/tree.txt" || fail "cgtree --base: no explanation of the change column"
for f in term leaf expr main; do
  want=$(awk -F '\t' -v f=$f '$1 == f { print ($4 > 0 ? "+" : "") $4 }' "$tmp/diff.tsv")
  got=$(awk -v f="$f" '$NF ~ ("(^|[-`|])" f "$") { print $4; exit }' "$tmp/tree.txt")
  [ "$got" = "$want" ] || fail "cgtree --base: $f's change $got, the tsv's $want"
done
grep -q " new  .*added$" "$tmp/tree.txt" || fail "cgtree --base: a call the base lacks: $(grep added "$tmp/tree.txt")"
expect 2 "$cgtree" --base="$tmp/a.folded" --inverted "$tmp/b.folded"
# --hide and --ignore with --base: the lines' changes are those of the
# profiles shown, the base filtered alike; filtering after the
# comparison gave b -3 and c -7 (the ids of another profile) here, and a
# perf profile's tree crashed
printf 'main;a;b 10\nmain;c 5\n' >"$tmp/h1.folded"
printf 'main;a;b 12\nmain;c 3\n' >"$tmp/h2.folded"
expect 0 "$cgtree" --base="$tmp/h1.folded" --hide='^a$' -t0 --color=never "$tmp/h2.folded"
changes=$(awk '$NF ~ /(^|[-`|])(main|b|c)$/ { n = split($NF, w, "-"); c = $4; sub (/\?$/, "", c); printf "%s %s;", w[n], c }' "$tmp/out")
[ "$changes" = "main +0;b +2;c -2;" ] || fail "cgtree --base --hide: changes $changes, not main +0, b +2, c -2: $(cat "$tmp/out")"
expect 0 "$cgtree" --base="$tmp/h1.folded" --ignore='^c$' -t0 --color=never "$tmp/h2.folded"
changes=$(awk '$NF ~ /(^|[-`|])(main|a|b|c)$/ { n = split($NF, w, "-"); printf "%s %s;", w[n], $4 }' "$tmp/out")
[ "$changes" = "main +2;a +2;b +2;" ] || fail "cgtree --base --ignore: changes $changes, not main, a and b +2: $(cat "$tmp/out")"
expect 2 "$cgtree" --base="$tmp/h1.folded" --hide=nothing-there -t0 "$tmp/h2.folded"
# dot: slower red, faster blue (the same pair the other way round)
expect 0 "$cgtree" --base="$tmp/a.folded" -f dot -t0 "$tmp/b.folded"
grep -q 'label="term\\n.*\\n+30", fillcolor="#ff' "$tmp/out" || fail "dot --base: term: $(grep term "$tmp/out")"
expect 0 "$cgtree" --base="$tmp/b.folded" -f dot -t0 "$tmp/a.folded"
grep -q 'label="term\\n.*\\n-30", fillcolor="#[0-9a-f]\{4\}ff"' "$tmp/out" || fail "dot --base, faster: term: $(grep term "$tmp/out")"
if command -v dot >/dev/null; then
  dot -Tsvg "$tmp/out" >/dev/null 2>"$tmp/err" || fail "dot rejects the --base graph: $(cat "$tmp/err")"
fi
# arrows: a call whose cost did not change is grey, not white on white,
# and a change reads as a node's does (+4999995, not +5e+06)
printf 'main;a;b 10\nmain;c 5\n' >"$tmp/x.folded"
printf 'main;a;b 10\nmain;c 5000000\n' >"$tmp/y.folded"
expect 0 "$cgtree" --base="$tmp/x.folded" -f dot -t0 --edge-threshold=0 "$tmp/y.folded"
grep -- '->' "$tmp/out" | grep 'label="[^"]*\\n0"' | grep -q 'color="#a0a0a0"' \
  || fail "dot --base: an unchanged call's arrow: $(grep -- '->' "$tmp/out")"
grep -- '->' "$tmp/out" | grep -q 'label="[^"]*\\n+4999995"' || fail "dot --base: an arrow's change: $(grep -- '->' "$tmp/out")"
grep -- '->' "$tmp/out" | grep -q 'e+0' && fail "dot --base: a change in exponent form: $(grep -- '->' "$tmp/out")"

# 5. bad usage and bad input
expect 2 "$cgcost" --base="$tmp/a.folded" --format=xml "$tmp/b.folded" && expect_message "--base applies to"
expect 1 "$cgcost" --base="$tmp/nonesuch" --format=tsv "$tmp/b.folded" && expect_message "$tmp/nonesuch"
expect 1 "$cgcost" --base="$data/callgrind/recdemo/callgrind.out.recdemo" --format=tsv "$tmp/b.folded" \
  && expect_message "the base has no event samples"
# different units: seconds (amon.out) against samples (folded), either way
# round; a base that is a directory, one in no format, a missing new input
amon="$data/amon/mutual/amon.out.mutual"
expect 1 "$cgcost" --base="$amon" --format=tsv "$tmp/b.folded" \
  && expect_message "$amon: the base has no event samples (in samples) to compare with (it has cpu-time in seconds: profiles in different units cannot be compared)"
expect 1 "$cgcost" --base="$tmp/a.folded" --arcs --format=tsv "$amon" \
  && expect_message "the base has no event cpu-time (in seconds) to compare with (it has samples in samples: profiles in different units"
expect 1 "$cgtree" --base="$amon" "$tmp/b.folded" && expect_message "different units cannot be compared"
# two clocks in seconds under other names (gmon.out's time, amon.out's
# cpu-time) are compared, and the views say which two: each total is the
# one each profile's own tsv gives by the method both allow (decompose)
gmon="$data/gmon/exprparse"
for pair in "gmon amon" "amon gmon"; do
  set -- $pair
  if [ "$1" = gmon ]; then b="$gmon/gmon.out" n="$amon"; else b="$amon" n="$gmon/gmon.out"; fi
  expect 0 "$cgcost" --executable="$gmon/exprparse" --base="$b" --format=tsv "$n"
  cp "$tmp/out" "$tmp/clocks.tsv"
  for side in b n; do
    eval f=\$$side
    "$cgcost" --executable="$gmon/exprparse" --method=decompose --format=tsv "$f" \
      | awk -F '\t' 'NR > 1 { print $1 "\t" $4 }' | sort >"$tmp/own.$side"
  done
  awk -F '\t' 'NR > 1 { print $1 "\t" $2 "\t" $3 }' "$tmp/clocks.tsv" | sort >"$tmp/got"
  join -t "$(printf '\t')" -a 1 -a 2 -e 0 -o 0,1.2,2.2 "$tmp/own.b" "$tmp/own.n" >"$tmp/want"
  cmp -s "$tmp/want" "$tmp/got" || fail "$1 against $2: $(diff "$tmp/want" "$tmp/got" | head -5)"
  [ "$(wc -l <"$tmp/got")" -gt 5 ] || fail "$1 against $2: too few rows: $(cat "$tmp/got")"
  said="Compared: the base's $( [ "$1" = gmon ] && echo time || echo cpu-time) against the new profile's $( [ "$1" = gmon ] && echo cpu-time || echo time), both in seconds."
  expect 0 "$cgcost" --executable="$gmon/exprparse" --base="$b" --format=text "$n"
  grep -qxF "$said" "$tmp/out" || fail "$1 against $2: the text does not say which events: $(head -4 "$tmp/out")"
  # cgtree shows amon.out's 0.109 s in ms (its header's '108.81 ms in
  # all'), and the note says the unit the numbers are in
  [ "$2" = amon ] && said="${said%, both in seconds.}, both in ms."
  expect 0 "$cgtree" --executable="$gmon/exprparse" --base="$b" "$n"
  grep -qxF "$said" "$tmp/out" || fail "$1 against $2: cgtree does not say which events: $(head -9 "$tmp/out")"
done
expect 1 "$cgcost" --base="$tmp" --format=tsv "$tmp/b.folded" && expect_message "$tmp: is a directory"
printf 'garbage\001\002' >"$tmp/garbage"
expect 1 "$cgcost" --base="$tmp/garbage" --format=tsv "$tmp/b.folded" && expect_message "$tmp/garbage:1: unknown input format"
expect 1 "$cgcost" --base="$tmp/a.folded" --format=tsv "$tmp/nonesuch" && expect_message "$tmp/nonesuch: cannot open"

# 6. a test-time pair: recdemo with fib(18) and fib(20); fib's change is
# what callgrind measures of fib itself in each run (--toggle-collect), the
# other recursive functions do not change, and every row equals a join of
# the two profiles' own tsv
if [ -n "${VALGRIND:-}" ] && [ -x "$VALGRIND" ] && command -v "${CC:-cc}" >/dev/null; then
  "${CC:-cc}" -g -O2 -I"$data/callgrind/recdemo" -o "$tmp/recdemo" "$data/callgrind/recdemo/recdemo.c" \
    || fail "cannot build recdemo"
  for n in 18 20; do
    "$VALGRIND" -q --tool=callgrind --callgrind-out-file="$tmp/cg.$n" "$tmp/recdemo" $n >/dev/null 2>&1 \
      || fail "valgrind recdemo $n"
    "$VALGRIND" -q --tool=callgrind --collect-atstart=no --toggle-collect=fib \
      --callgrind-out-file="$tmp/fib.$n" "$tmp/recdemo" $n >/dev/null 2>&1 || fail "valgrind --toggle-collect"
    sed -n 's/^totals: //p; s/^summary: //p' "$tmp/fib.$n" | head -1 >"$tmp/truth.$n"
    "$cgcost" --format=tsv "$tmp/cg.$n" | awk -F '\t' 'NR > 1 { printf "%s\t%s\n", $1, $4 }' | sort >"$tmp/t.$n"
  done
  expect 0 "$cgcost" --base="$tmp/cg.18" --format=tsv "$tmp/cg.20"
  cp "$tmp/out" "$tmp/cg.diff"
  join_change "$tmp/t.18" "$tmp/t.20" >"$tmp/want"
  awk -F '\t' 'NR > 1 { printf "%s\t%s\t%s\t%s\n", $1, $2, $3, $4 }' "$tmp/cg.diff" | sort >"$tmp/got"
  cmp -s "$tmp/want" "$tmp/got" || fail "callgrind pair against a join of the two tsv: $(diff "$tmp/want" "$tmp/got" | head -3)"
  want=$(($(cat "$tmp/truth.20") - $(cat "$tmp/truth.18")))
  got=$(awk -F '\t' '$1 == "fib" { print $4 }' "$tmp/cg.diff")
  [ "$got" = "$want" ] || fail "fib's change: $got, callgrind's own measurement: $want"
  for f in is_even is_odd expr term factor qsort_rec; do
    awk -F '\t' -v f=$f '$1 == f { exit !($4 == 0 && $9 == "exact") }' "$tmp/cg.diff" \
      || fail "$f changed: $(grep "^$f	" "$tmp/cg.diff")"
  done
  # per arc, calls included, against the join of the two arc tsv; the
  # calls of fib to itself grow with n (by how much depends on how the
  # compiler turned fib's second call into a loop)
  check_arcs "$tmp/cg.18" "$tmp/cg.20"
  awk -F '\t' '$1 == "fib" && $2 == "fib" { exit !($3 > 0 && $4 > 2 * $3 && $8 == "both") }' "$tmp/arcs.diff" \
    || fail "fib -> fib: $(grep "^fib	fib" "$tmp/arcs.diff")"
  # the largest change is main's or fib's, never an unrelated function
  first=$(awk -F '\t' 'NR == 2 { print $1 }' "$tmp/cg.diff")
  case $first in main|fib|"(below main)"*|__libc_start*|_start*|0x*) ;; *) fail "first row: $first" ;; esac
else
  echo "valgrind or a compiler missing: the callgrind pair is skipped"
fi

finish
