#!/bin/sh
# perf 6.1's DWARF call chains (perf record --call-graph dwarf) print a
# frame twice at times, once alone and once with the chain of what was
# inlined at its address: a recursive depth_of whose first level gcc
# inlined into main (-O3) and whose deeper levels run in its clone reads
#     14ca _ZL8depth_ofPK4Node.isra.0+0xfa (/tmp/tree)
#     14ca depth_of+0xfa (inlined)
#     125a main+0x1ea (/tmp/tree)
#     125a depth_of+0x1ea (inlined)
#     125a main+0x1ea (/tmp/tree)
# and cgtools read main as called by depth_of and by build: a cycle of
# main, depth_of, its clone and build (tinyxml2 9.0's tree showed "main
# <cycle 2>"), and
# a leaf "IsNameStartChar (inlined), IsNameChar (inlined), ParseName,
# ParseName" as ParseName calling itself.  Two frames at one address are
# two activations only where a function recursed from one call site, and
# then both carry the address's one inline chain: a frame alone next to
# one of its symbol with a chain is the same frame, left out.  Oracle:
# the program's structure (main is called by no function of the program
# and is in no cycle; build and depth_of recurse); without perf, the two
# shapes as perf printed them, and a frame alone twice, a recursion from
# one site.
. "${top_srcdir:-.}/tests/cli/common.sh"

frame () { printf '\t%16s %s (%s)\n' "$1" "$2" "$3"; }
{
  printf 'tree 1/1     250000 cpu-clock: \n'
  frame 14ca '_ZL8depth_ofPK4Node.isra.0+0xfa' /x/tree
  frame 14ca 'depth_of+0xfa' inlined
  frame 125a 'main+0x1ea' /x/tree
  frame 125a 'depth_of+0x1ea' inlined
  frame 125a 'main+0x1ea' /x/tree
  frame 1300 '_start+0x20' /x/tree
  printf '\ntree 1/1     250000 cpu-clock: \n'
  frame 5c9e '_ZN8tinyxml27XMLUtil15IsNameStartCharEh+0x6e' inlined
  frame 5c9e '_ZN8tinyxml27XMLUtil10IsNameCharEh+0x6e' inlined
  frame 5c9e '_ZN8tinyxml27StrPair9ParseNameEPc+0x6e' /x/tree
  frame 5c9e '_ZN8tinyxml27StrPair9ParseNameEPc+0x6e' /x/tree
  frame 9b92 'main+0x22' /x/tree
  frame 1300 '_start+0x20' /x/tree
  printf '\ntree 1/1     250000 cpu-clock: \n'
  frame 13d0 'work+0x10' /x/tree
  frame 13f0 'work+0x30' /x/tree
  frame 13f0 'work+0x30' /x/tree
  frame 9b92 'main+0x22' /x/tree
  printf '\n'
} >"$tmp/twice.perf"
expect 0 "$cgcost" --format=tsv --arcs --split=none "$tmp/twice.perf" || fail "cgcost twice.perf"
awk -F '\t' '
  $2 == "main" && $1 != "_start" { print "main called by " $1; bad = 1 }
  $1 == $2 && $1 ~ /ParseName/ { print "ParseName calling itself"; bad = 1 }
  { arc[$1 " > " $2] = $4 }
  END {
    if (arc["main > _ZN8tinyxml27StrPair9ParseNameEPc"] != 250000) { print "main > ParseName " arc["main > _ZN8tinyxml27StrPair9ParseNameEPc"]; bad = 1 }
    # a frame alone twice at one address is a recursion from one site
    if (!("work > work" in arc)) { print "no work > work"; bad = 1 }
    exit bad
  }' "$tmp/out" >"$tmp/check.log" || fail "twice.perf: $(cat "$tmp/check.log")"

command -v perf >/dev/null 2>&1 || skip "perf is not installed (Debian: linux-perf)"
cxx=${CXX:-c++}
cat >"$tmp/tree.cpp" <<'EOC'
#include <cstdio>
#include <cstdlib>
struct Node
{
  Node *first, *next;
  unsigned v;
  const Node *First () const { return first; }
  const Node *Next () const { return next; }
};
static Node *build (int d, unsigned &seed)
{
  Node *n = new Node{ nullptr, nullptr, 0 };
  seed = seed * 1103515245u + 12345u;
  n->v = seed;
  if (d > 0)
    for (int i = 0; i < 4; i++)
      {
        Node *k = build (d - 1, seed);
        k->next = n->first;
        n->first = k;
      }
  return n;
}
static int depth_of (const Node *n)
{
  int best = 0;
  for (const Node *c = n->First (); c; c = c->Next ())
    {
      int d = depth_of (c) + 1;
      if (d > best)
        best = d;
    }
  return best;
}
int main (int argc, char **argv)
{
  unsigned seed = 1;
  Node *root = build (9, seed);
  long s = 0;
  int rounds = argc > 1 ? atoi (argv[1]) : 300;
  for (int r = 0; r < rounds; r++)
    s += depth_of (root);
  printf ("%ld\n", s);
  return 0;
}
EOC
$cxx -O3 -g -fno-omit-frame-pointer -o "$tmp/tree" "$tmp/tree.cpp" >"$tmp/cc.log" 2>&1 \
  || skip "cannot build the test program: $(head -c 300 "$tmp/cc.log")"
perf record -q -e cpu-clock --call-graph dwarf -o "$tmp/probe.data" true >"$tmp/err" 2>&1 \
  && perf script -i "$tmp/probe.data" >/dev/null 2>&1 || skip "perf record cannot record here: $(head -c 300 "$tmp/err")"
perf record -q -e cpu-clock --call-graph dwarf -o "$tmp/dw.data" "$tmp/tree" >/dev/null 2>"$tmp/err" \
  || fail "perf record --call-graph dwarf: $(head -c 300 "$tmp/err")"
# the shape: main alone, then inlined frames and main again, at one address
perf script -i "$tmp/dw.data" >"$tmp/dw.txt" 2>/dev/null || fail "perf script"
awk '$2 ~ /^main\+/ { if (prev == $1 && seen) { found = 1 } } { if ($2 ~ /^main\+/) { seen = 1; prev = $1 } else if ($NF != "(inlined)") seen = 0 }
     END { exit !found }' "$tmp/dw.txt" \
  || echo "note: perf printed no frame of main twice at one address this time"
# main calling main is perf's own reading where a sample's chain holds
# main at two addresses, neither inlined (its unwinding went astray above
# main: seen in 1 of some 10 runs on a loaded machine), or twice in a row
# at one, with no inlined frame between: "1243 main+0x1d3" twice at the
# top of a chain (2 of 25 runs beside two busy loops, 1 sample in 470;
# 0x1243 follows no call, and perf 6.1 prints the frames of one symbol
# at the first one's address, as its recursive build's read), which is
# the shape of a recursion from one call site (the reader's rule), not
# the defect
main_twice=$(awk 'NF == 0 { n = 0; split("", at); last = ""; next }
  $2 ~ /^main\+/ && $NF != "(inlined)" { if (!($1 in at)) { at[$1] = 1; n++ } if (n > 1 || last == $0) { print 1; exit } }
  { last = $0 }' "$tmp/dw.txt")
main_twice=${main_twice:-0}
[ "$main_twice" = 1 ] && echo "note: perf printed main at two addresses in one chain: main may call main"
for input in "$tmp/dw.data" "$tmp/dw.txt"; do
  expect 0 "$cgcycles" --format=text "$input" || fail "cgcycles $input"
  grep -E '^ +[0-9.]+ +main$' "$tmp/out" && fail "$input: main in a cycle: $(cat "$tmp/out")"
  expect 0 "$cgcost" --format=tsv --arcs "$input" || fail "cgcost --arcs $input"
  # main's callers are libc's, or where perf's unwinding stopped at main
  # or went astray, the command's root or [unknown]: never a function of
  # the program (the defect read depth_of and build as calling it)
  awk -F '\t' -v self="$main_twice" '$2 == "main" && ($1 ~ /depth_of|build/ || ($1 == "main" && !self)) { print; bad = 1 }
    END { exit bad }' "$tmp/out" >"$tmp/bad" \
    || fail "$input: main called by a function of the program: $(cat "$tmp/bad")"
done
finish
