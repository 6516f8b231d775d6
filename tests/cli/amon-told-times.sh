#!/bin/sh
# libamon's default clock with routines that tell their returns (gcc's
# -minstrument-return=call, amon.pc's flags): the commonest told return,
# which `__return__` makes in registers without calling the monitor's C
# code (amon-mcount-x86_64.S, TOLD: an interval shorter than a
# microsecond), charges the interval that ends there to the returning
# routine's context and starts the next one.  main works some 50 ns
# between its calls of leaf(), which works as much, and of idle(), which
# works nothing, 200,000 times each.  The oracle is the same program
# built without the flag, whose returns the trampoline catches
# (amon_pg_exit_exact, C code): main's self time must be within a third
# of that build's, leaf's above half of it, and idle's under a quarter of
# leaf's.  (leaf reads higher in the told build, some 30 ns a call, as it
# did before its return was made in registers: 0.0157 s against 0.0094 s.)
# A told return that charged the routine's interval to its caller, or
# left the interval's start where it was, gives leaf nothing or main as
# much again.  A run under load may be off: up to three runs.
. "${top_srcdir:-.}/tests/cli/common.sh"
case $(uname -m) in x86_64) ;; *) skip "the -pg mode is for x86-64" ;; esac
amon_setup
case $cflags in *-minstrument-return=call*) ;; *) skip "the compiler has no -minstrument-return=call" ;; esac

cat >"$tmp/told.c" <<'CEOF'
volatile unsigned long sink;
__attribute__ ((noinline)) void
leaf (void)
{
  for (int i = 0; i < 150; i++)
    sink += (unsigned long) i;
}
__attribute__ ((noinline)) void
idle (void)
{
  __asm__ volatile ("");
}
int
main (void)
{
  for (int i = 0; i < 200000; i++)
    {
      leaf ();
      for (int k = 0; k < 150; k++)
        sink += (unsigned long) k;
      idle ();
    }
  return 0;
}
CEOF
# shellcheck disable=SC2086 # the flags are words
$CC -O2 $cflags -o "$tmp/told" "$tmp/told.c" -L"$libdir" -lamon -Wl,-z,now -Wl,-rpath,"$libdir" >"$tmp/build.log" 2>&1 \
  || { cat "$tmp/build.log"; fail "building the program ($cflags)"; finish; }
$CC -O2 -pg -mfentry -o "$tmp/swapped" "$tmp/told.c" -L"$libdir" -lamon -Wl,-z,now -Wl,-rpath,"$libdir" \
  >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "building the program (-pg -mfentry)"; finish; }
ok=0
for try in 1 2 3; do
  for b in told swapped; do
    rm -f "$tmp/amon.out"
    (cd "$tmp" && AMON_OUT="$tmp/amon.out" "./$b") || fail "$b failed"
    "$cgcost" --format=tsv "$tmp/amon.out" >"$tmp/$b.flat" 2>&1 || fail "cannot read $b's amon.out: $(head -c 300 "$tmp/$b.flat")"
  done
  if awk -F '\t' 'FILENAME ~ /swapped/ { s[$1] = $3 } FILENAME ~ /told/ { t[$1] = $3 } END {
      printf "self times: leaf %.6f s, main %.6f s, idle %.6f s (returns caught by the trampoline: %.6f, %.6f, %.6f s)\n",
        t["leaf"], t["main"], t["idle"], s["leaf"], s["main"], s["idle"]
      exit !(s["leaf"] > 0 && s["main"] > 0 && t["leaf"] > 0.5 * s["leaf"] \
        && t["main"] > 0.75 * s["main"] && t["main"] < 1.33 * s["main"] && t["idle"] < 0.25 * t["leaf"]) }' \
      "$tmp/told.flat" "$tmp/swapped.flat"; then
    ok=1
    break
  fi
  echo "run $try was off"
done
[ "$ok" = 1 ] || fail "main's self time is not within a third of the trampoline's build's, leaf's not above half of it, or idle took a quarter of leaf's, in three runs"
finish
