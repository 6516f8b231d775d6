#!/bin/sh
# libamon's default clock with routines that tell their returns (gcc's
# -minstrument-return=call, amon.pc's flags): the commonest told return,
# which `__return__` makes in registers without calling the monitor's C
# code (amon-mcount-x86_64.S, TOLD: an interval shorter than a
# microsecond), charges the interval that ends there to the returning
# routine's context and starts the next one.  main does the same work
# between its calls of leaf() as leaf does, a chain of 300 dependent
# additions in assembly (the same instructions in both, whatever the
# compiler), and idle() does nothing, 200,000 times each.  The oracle is
# that construction, in the same run: leaf's self time must be within a
# factor 1.5 of main's, and idle's under a quarter of leaf's (perf on the
# program built without instrumentation gives leaf 50.3 % and main
# 48.6 %; the told build 0.0130 s and 0.0147 s).  A told return that
# charged the routine's interval to its caller gives leaf nothing; one
# that left the interval's start where it was gives main leaf's time
# again (a ratio of 0.5).  Times of two runs are not compared: on a
# shared machine one run's loop took twice another's.  A run under load
# may be off: up to three runs.
. "${top_srcdir:-.}/tests/cli/common.sh"
case $(uname -m) in x86_64) ;; *) skip "the -pg mode is for x86-64" ;; esac
amon_setup
case $cflags in *-minstrument-return=call*) ;; *) skip "the compiler has no -minstrument-return=call" ;; esac

cat >"$tmp/told.c" <<'CEOF'
#define WORK(x) __asm__ volatile (".rept 300\n\taddq $1, %0\n\t.endr" : "+r" (x))
volatile unsigned long sink;
__attribute__ ((noinline)) void
leaf (void)
{
  unsigned long x = 0;
  WORK (x);
  sink = x;
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
      unsigned long x = 0;
      WORK (x);
      sink = x;
      idle ();
    }
  return 0;
}
CEOF
# shellcheck disable=SC2086 # the flags are words
$CC -O2 $cflags -o "$tmp/told" "$tmp/told.c" -L"$libdir" -lamon -Wl,-z,now -Wl,-rpath,"$libdir" >"$tmp/build.log" 2>&1 \
  || { cat "$tmp/build.log"; fail "building the program ($cflags)"; finish; }
ok=0
for try in 1 2 3; do
  rm -f "$tmp/amon.out"
  (cd "$tmp" && AMON_OUT="$tmp/amon.out" ./told) || fail "the program failed"
  "$cgcost" --format=tsv "$tmp/amon.out" >"$tmp/told.flat" 2>&1 || fail "cannot read amon.out: $(head -c 300 "$tmp/told.flat")"
  if awk -F '\t' '{ t[$1] = $3 } END {
      printf "self times: leaf %.6f s, main %.6f s, idle %.6f s\n", t["leaf"], t["main"], t["idle"]
      exit !(t["leaf"] > 0 && t["main"] > 0 && t["leaf"] < 1.5 * t["main"] && t["main"] < 1.5 * t["leaf"] \
        && t["idle"] < 0.25 * t["leaf"]) }' "$tmp/told.flat"; then
    ok=1
    break
  fi
  echo "run $try was off"
done
[ "$ok" = 1 ] || fail "leaf's self time is not within a factor 1.5 of main's, or idle took a quarter of leaf's, in three runs"
finish
