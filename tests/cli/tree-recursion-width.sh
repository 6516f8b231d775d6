#!/bin/sh
# cgtree's text at a width keeps the mark of a link where a recursion
# closes whole: its explanation, "(recursion: its cost is in the lines
# above)", was cut as a name is, and read "(re…ve)" or "(recu…bove)" at
# 80 columns on Lua 5.4's profile under libamon (luaD_callnoyield's link
# under lua_callk).  Where the line does not fit, the mark is now
# "(recursion)", whole, and the names are cut instead; without a width,
# or where the line fits, the explanation is whole as before.
. "${top_srcdir:-.}/tests/cli/common.sh"

# check WHAT FILE WIDTH — every line within WIDTH columns, no cut inside a
# mark of recursion, and at least one "-> [N] (recursion)" line
check () {
  # the cut mark one column (awk may count bytes)
  sed 's/…/./g' "$2" | awk -v w="$3" 'length ($0) > w { print "line of " length ($0) " columns: " $0; bad = 1 }
    END { exit bad }' >"$tmp/bad" || fail "$1: $(cat "$tmp/bad")"
  if grep -E '\((r|re|rec|recu|recur|recurs|recursi|recursio)(…|\.\.\.)' "$2" >"$tmp/bad"; then
    fail "$1: a mark of recursion cut: $(cat "$tmp/bad")"
  fi
  grep -qE -- '-> \[[0-9]+\] \(recursion\)$' "$2" || fail "$1: no '-> [N] (recursion)' line: $(cat "$2")"
}

# ---- folded stacks: execute > call > execute, names too long for 80 ----
cat >"$tmp/rec.folded" <<'FEOF'
main;interpreter_execute_bytecode;interpreter_call_function;interpreter_execute_bytecode;leaf 40
main;interpreter_execute_bytecode;interpreter_call_function;interpreter_execute_bytecode;interpreter_call_function;interpreter_execute_bytecode 30
main;interpreter_execute_bytecode;leaf 20
main;setup 10
FEOF
LC_ALL=C.UTF-8 expect 0 "$cgtree" --threshold=0 --width=80 "$tmp/rec.folded" && check "folded, 80 columns" "$tmp/out" 80
# the link's line: its names cut, its marks whole
grep -qE '`-interp.*ecode( <cycle 1>)? -> \[1\] \(recursion\)$' "$tmp/out" \
  || fail "folded, 80 columns: the link's line: $(grep -- '->' "$tmp/out")"
# a pipe, and a width the whole line fits in: the explanation whole
expect 0 "$cgtree" --threshold=0 "$tmp/rec.folded"
grep -qF -- '`-interpreter_execute_bytecode <cycle 1> -> [1] (recursion: its cost is in the lines above)' "$tmp/out" \
  || fail "folded, no width: $(grep -- '->' "$tmp/out")"
expect 0 "$cgtree" --threshold=0 --width=160 "$tmp/rec.folded"
grep -qF -- '(recursion: its cost is in the lines above)' "$tmp/out" || fail "folded, 160 columns: $(grep -- '->' "$tmp/out")"

# ---- a program profiled by libamon, of an interpreter's shape ----
libdir=$(cd "$top_builddir/src/amon/.libs" 2>/dev/null && pwd) || skip "libamon was not built"
[ -f "$libdir/libamon.so" ] || skip "libamon was not built shared"
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || skip "no C compiler"
cat >"$tmp/interp.c" <<'CEOF'
#include <stdio.h>
volatile unsigned long sink;
long interpreter_call_function (int depth);
__attribute__ ((noinline)) long interpreter_execute_bytecode (int depth)
{
  long s = 0;
  for (int i = 0; i < 2000; i++)
    s += (long) (sink += (unsigned long) i);
  if (depth > 0)
    s += interpreter_call_function (depth - 1);
  sink++; /* no tail call */
  return s;
}
__attribute__ ((noinline)) long interpreter_call_function (int depth)
{
  long s = interpreter_execute_bytecode (depth);
  sink++;
  return s;
}
int main (void)
{
  long s = 0;
  for (int i = 0; i < 3000; i++)
    s += interpreter_execute_bytecode (4);
  printf ("%ld\n", s != 0);
  return 0;
}
CEOF
$CC -O2 -finstrument-functions -o "$tmp/interp" "$tmp/interp.c" -L"$libdir" -lamon -Wl,-rpath,"$libdir" \
  >"$tmp/build.log" 2>&1 || skip "cannot build with -finstrument-functions and libamon: $(head -c 200 "$tmp/build.log")"
(cd "$tmp" && ./interp >/dev/null) || fail "the program failed"
LC_ALL=C.UTF-8 expect 0 "$cgtree" --threshold=0 --width=80 "$tmp/amon.out" && check "amon.out, 80 columns" "$tmp/out" 80

finish
