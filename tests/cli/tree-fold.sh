#!/bin/sh
# cgtree --width=N folds the explanations above the table at blanks; a
# two-space gap between sentences ("(of a root: its total).  self: ...")
# that fell at the fold left a blank at the end of the line (at 80
# columns, every tree's "incl: ... its total). " line), or began the
# next line with one.  At every width from 30 to 120, on a bundled
# callgrind profile and on a gmon.out of a program built with -pg here,
# no line above the table ends in a blank or begins with a single one,
# and the words are those of the unfolded text (--width=0), in order.
. "${top_srcdir:-.}/tests/cli/common.sh"
cc=${CC:-cc}

# check PROFILE [OPTION...]: the header at each width against the unfolded one
check () {
  profile=$1
  shift
  expect 0 "$cgtree" --width=100000 "$@" "$profile" || return
  sed '/^  incl%/,$d' "$tmp/out" | tr -s ' \n' '\n\n' >"$tmp/words0"
  w=30
  while [ "$w" -le 120 ]; do
    expect 0 "$cgtree" --width="$w" "$@" "$profile" || return
    sed '/^  incl%/,$d' "$tmp/out" >"$tmp/head"
    grep -n -e ' $' -e '^ [^ ]' "$tmp/head" >"$tmp/bad" \
      && fail "$profile at $w columns, lines with a blank at an end: $(head -3 "$tmp/bad")"
    tr -s ' \n' '\n\n' <"$tmp/head" | cmp -s - "$tmp/words0" \
      || fail "$profile at $w columns: not the words of the unfolded header"
    w=$((w + 1))
  done
}

check "$data/callgrind/recdemo/callgrind.out.recdemo"

cat >"$tmp/p.c" <<'CEOF'
volatile unsigned long sink;
__attribute__ ((noinline)) void leaf (unsigned long i) { for (int k = 0; k < 200; k++) sink += i * k; }
__attribute__ ((noinline)) void walk (int d) { if (d > 0) walk (d - 1); else leaf ((unsigned long) d); }
int main (void) { for (int i = 0; i < 200000; i++) walk (i % 8); return 0; }
CEOF
(cd "$tmp" && "$cc" -O1 -pg -o p p.c) 2>"$tmp/cc.err" || skip "cannot build with -pg: $(head -3 "$tmp/cc.err")"
(cd "$tmp" && ./p) || fail "the program failed"
[ -s "$tmp/gmon.out" ] || skip "no gmon.out written"
check "$tmp/gmon.out" --executable="$tmp/p"
finish
