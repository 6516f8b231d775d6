#!/bin/sh
# cgtree marks a master line with its function's total where that
# exceeds what the call on the line carried, "(9.61% in all)", as a cost
# where the percentages print alike; where the cost too printed as the
# incl column does, the mark said nothing the line did not: mawk 1.3.4
# under gcc -pg, execute calling cellcpy 62,323,169 of its 62,323,170
# times, read "cellcpy (50.00 ms in all)" beside an incl of 50.00 ms.
# The mark stays where the cost shows the difference.  Oracles: the
# costs written in a callgrind profile, and gprof -q's call counts for a
# program built with -pg at test time (a() calls leaf() 9,999,999 times,
# b() once).
. "${top_srcdir:-.}/tests/cli/common.sh"
cc=${CC:-cc}

# leaf: 1,000,000,000 Ir in all, 999,999,000 through main's call, 1,000
# through other's, of 10,000,001,010
cat >"$tmp/cg.out" <<'EOF'
events: Ir
fn=main
1 9000000000
cfn=leaf
calls=999999 1
1 999999000
cfn=other
calls=1 1
1 1010
fn=other
1 10
cfn=leaf
calls=1 1
1 1000
fn=leaf
1 1000000000
EOF
# whole numbers: the cost tells the two apart
expect 0 "$cgtree" --width=0 "$tmp/cg.out"
grep -qE '^ +10\.00 +10\.00 +999,999,000 +1,000,000,000 +999,999 +[|`]-leaf \(1,000,000,000 Ir in all\)$' "$tmp/out" \
  || fail "whole numbers: $(grep -e 'leaf' "$tmp/out")"
# at 80 columns, in billions, it does not: 1.00 both
expect 0 "$cgtree" --width=80 "$tmp/cg.out"
grep -qE '^ +10\.00 +10\.00 +1\.00 +1\.00 +999,999 +[|`]-leaf$' "$tmp/out" \
  || fail "in billions: $(grep -e 'leaf' "$tmp/out")"
# the HTML page's total in all is cgcost's total of the function (the
# tsv, a fixed contract): the page's data hold line and total pairs
"$cgcost" --format=tsv "$tmp/cg.out" >"$tmp/tsv"
total=$(awk -F '\t' '$1 == "leaf" { print $4 }' "$tmp/tsv")
expect 0 "$cgtree" --format=html "$tmp/cg.out"
in_all=$(grep -o '"inAll":\[[0-9,]*\]' "$tmp/out" | head -1 | sed 's/.*\[//; s/\]//' | awk -F , '{ for (i = 2; i <= NF; i += 2) print $i }')
[ "$total" = 1000000000 ] && [ "$in_all" = "$total" ] || fail "the page's total in all: '$in_all', cgcost's '$total'"

GPROF=$(command -v gprof) || skip "no gprof"
cat >"$tmp/p.c" <<'CEOF'
volatile unsigned long sink;
__attribute__ ((noinline)) void leaf (unsigned long i) { for (int k = 0; k < 20; k++) sink += i * k; }
__attribute__ ((noinline)) void a (void) { for (unsigned long i = 0; i < 9999999; i++) leaf (i); }
__attribute__ ((noinline)) void b (void) { leaf (1); }
int main (void) { a (); b (); return 0; }
CEOF
(cd "$tmp" && "$cc" -O1 -pg -o p p.c) 2>"$tmp/cc.err" || skip "cannot build with -pg: $(head -3 "$tmp/cc.err")"
(cd "$tmp" && ./p) || fail "the program failed"
[ -s "$tmp/gmon.out" ] || skip "no gmon.out written"
"$GPROF" -b -q "$tmp/p" "$tmp/gmon.out" >"$tmp/gprof" 2>&1 || fail "gprof: $(head -3 "$tmp/gprof")"
grep -q '9999999/10000000 *leaf' "$tmp/gprof" || fail "gprof's arc a -> leaf: $(grep leaf "$tmp/gprof")"
expect 0 "$cgtree" --width=0 --executable="$tmp/p" "$tmp/gmon.out"
# leaf's line under a, its call carrying all but a ten-millionth of its
# total: a total shown differs from the incl column (in all but a
# ten-thousandth of runs the two print alike, and none is shown)
line=$(grep -E ' 9,999,999 +[|`]-leaf' "$tmp/out")
[ -n "$line" ] || fail "no line of leaf under a: $(grep leaf "$tmp/out")"
echo "$line" | awk '{ incl = $3; if (match ($0, /\(~?[0-9.,]+ [^ ]+ in all\)$/)) { t = substr ($0, RSTART + 1, RLENGTH - 2);
                      sub (/^~/, "", t); sub (/ [^ ]+ in all$/, "", t); if (t == incl) exit 1 } }' \
  || fail "leaf's total printed as its incl: $line"
finish
