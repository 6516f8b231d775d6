#!/bin/sh
# cgcost --format=text sizes its calls columns to their longest entry:
# an arc of millions of calls over its callee's millions
# ("1,500,000/3,000,000", 19 characters) ran past the call graph's 17
# columns and pushed that line's name 2 columns right of the others (mawk
# under gcc -pg: "14,801,619/14,801,619 compare [3]" 4 columns off), and
# billions of calls past the flat profile's 12.  Oracles: GNU gprof's
# call counts for a program built with -pg at test time (main calls a()
# and b(), each calls leaf() 1,500,000 times), and the loop counts.
. "${top_srcdir:-.}/tests/cli/common.sh"
cc=${CC:-cc}

# aligned FILE: the call graph's names all start in the column of its
# "name" title (lines with a name: entries, callers, callees)
aligned () {
  awk '/^index / { col = index ($0, "name"); next }
       col && /^---/ { next }
       col && (match ($0, /[^ ]+ \[[0-9]+\]( \(recursive\))?$/) || match ($0, /<spontaneous>$/)) {
         if (RSTART != col) { print "column " RSTART " not " col ": " $0; bad = 1 }
       }
       END { exit bad }' "$1"
}

# ---- billions of calls in a callgrind profile: the flat profile ----
cat >"$tmp/billions.out" <<'EOF'
events: Ir
fn=main
1 10
cfn=leaf
calls=2000000000 1
1 4000000000
fn=leaf
1 4000000000
EOF
expect 0 "$cgcost" --format=text "$tmp/billions.out"
title=$(grep '^  %self' "$tmp/out" | awk '{ print index ($0, "function") }')
leaf=$(grep ' leaf$' "$tmp/out" | awk '{ print index ($0, "leaf") }')
[ "$title" = "$leaf" ] && grep -qE ' 2,000,000,000  leaf$' "$tmp/out" \
  || fail "flat profile: leaf at column $leaf, title at $title: $(grep -e '^  %self' -e ' leaf$' "$tmp/out")"
aligned "$tmp/out" >"$tmp/bad" || fail "call graph of billions: $(cat "$tmp/bad")"
grep -qE ' 2,000,000,000/2,000,000,000  leaf \[' "$tmp/out" || fail "the arc's calls: $(grep 'leaf \[' "$tmp/out")"

# ---- a -pg program: millions of calls on both sides of an arc ----
GPROF=$(command -v gprof) || skip "no gprof"
cat >"$tmp/wide.c" <<'CEOF'
volatile unsigned long sink;
__attribute__ ((noinline)) void leaf (unsigned long i) { sink += i * 7; }
__attribute__ ((noinline)) void a (void) { for (unsigned long i = 0; i < 1500000; i++) leaf (i); }
__attribute__ ((noinline)) void b (void) { for (unsigned long i = 0; i < 1500000; i++) leaf (i >> 1); }
int main (void) { a (); b (); return 0; }
CEOF
(cd "$tmp" && "$cc" -O1 -pg -o wide wide.c) 2>"$tmp/cc.err" || skip "cannot build with -pg: $(head -3 "$tmp/cc.err")"
(cd "$tmp" && ./wide) || fail "the program failed"
[ -s "$tmp/gmon.out" ] || skip "no gmon.out written"
"$GPROF" -b -q "$tmp/wide" "$tmp/gmon.out" >"$tmp/gprof" 2>&1 || fail "gprof: $(head -3 "$tmp/gprof")"
[ "$(grep -c '1500000/3000000 *leaf' "$tmp/gprof")" = 2 ] || fail "gprof's arcs into leaf: $(grep leaf "$tmp/gprof")"
expect 0 "$cgcost" --format=text --executable="$tmp/wide" "$tmp/gmon.out"
[ "$(grep -cE '^ +[0-9.]+ +1,500,000/3,000,000  leaf \[' "$tmp/out")" = 2 ] \
  || fail "the arcs into leaf: $(grep 'leaf \[' "$tmp/out")"
aligned "$tmp/out" >"$tmp/bad" || fail "call graph: $(cat "$tmp/bad")"
finish
