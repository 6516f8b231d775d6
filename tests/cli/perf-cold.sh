#!/bin/sh
# The part of a function that gcc splits off as cold (check.cold: the
# blocks that lead to a call of a cold function, a throw, an abort) runs
# in the function's own activation, reached by a jump, not a call: its
# frames are the function's.  perf names them apart ("check.cold+0x8"),
# and cgtools read them as a function check.cold called by check's
# caller, so check's total lacked what its cold part did: a program
# whose check calls a cold report for 78 % of its run showed check at
# 21.79 % and a root's child check.cold at 78.05 %.  gprof's symbols and
# libamon count a cold part as its function's.  Oracle: perf report
# --children, whose check and check.cold together are check's share
# (the two are never on one stack); the program's structure (check calls
# report: the arc check > report carries report's total, but for a
# sample in report's first instruction, before its frame is set up).
# Names as perf prints them too, without perf: gcc 8's
# ".cold.0" and a C++ linker name's ".cold".
. "${top_srcdir:-.}/tests/cli/common.sh"

frame () { printf '\t%16s %s (%s)\n' "$1" "$2" "$3"; }
{
  printf 'prog 1/1     250000 cpu-clock: \n'
  frame 1062 'report+0x12' /x/prog
  frame 108b 'check.cold.0+0x8' /x/prog
  frame 10ba 'main+0x2a' /x/prog
  printf '\nprog 1/1     250000 cpu-clock: \n'
  frame 1065 '_ZL6reportm+0x15' /x/prog
  frame 108b '_ZL5checkl.cold+0x8' /x/prog
  frame 10ba 'main+0x2a' /x/prog
  printf '\nprog 1/1     250000 cpu-clock: \n'
  frame 1200 '_ZL5checkl+0x10' /x/prog
  frame 10ba 'main+0x2a' /x/prog
  printf '\n'
} >"$tmp/text.perf"
expect 0 "$cgcost" --format=tsv --arcs --split=none "$tmp/text.perf" || fail "cgcost text.perf"
printf 'caller\tcallee\tcalls\tinclusive\nmain\t_ZL5checkl\t0\t500000\n_ZL5checkl\t_ZL6reportm\t0\t250000\ncheck\treport\t0\t250000\nmain\tcheck\t0\t250000\n' >"$tmp/want"
cmp -s "$tmp/want" "$tmp/out" || fail "text.perf's arcs: $(cat "$tmp/out")"

command -v perf >/dev/null 2>&1 || skip "perf is not installed (Debian: linux-perf)"
cc=${CC:-cc}
cat >"$tmp/cold.c" <<'EOC'
#include <stdio.h>
volatile unsigned long sink, flag;
__attribute__ ((noinline)) void tick (void) { sink++; }
/* cold: gcc moves the call to it out of check, into check.cold; the
 * calls to tick make both set up their frames before their loops */
__attribute__ ((cold, noinline)) void report (unsigned long v)
{
  tick ();
  for (long i = 0; i < 3000000; i++)
    sink += (unsigned long) i ^ v;
  tick ();
}
__attribute__ ((noinline)) unsigned long check (long n)
{
  unsigned long s = 0;
  tick ();
  for (long i = 0; i < n; i++)
    s += (unsigned long) i * 3;
  if (flag == 42)
    report (s);
  return s;
}
int main (int argc, char **argv)
{
  (void) argv;
  flag = 40 + (unsigned long) argc + 1;
  unsigned long s = 0;
  for (int i = 0; i < 300; i++)
    s += check (1000000);
  printf ("%lu\n", s);
  return 0;
}
EOC
$cc -O2 -g -fno-omit-frame-pointer -o "$tmp/cold" "$tmp/cold.c" >"$tmp/cc.log" 2>&1 \
  || skip "cannot build the test program: $(head -c 300 "$tmp/cc.log")"
nm "$tmp/cold" | grep -q ' check\.cold$' || skip "the compiler split no check.cold off check"
perf record -q -e cpu-clock -g -o "$tmp/probe.data" true >"$tmp/err" 2>&1 \
  && perf script -i "$tmp/probe.data" >/dev/null 2>&1 || skip "perf record cannot record here: $(head -c 300 "$tmp/err")"
perf record -q -e cpu-clock -g -o "$tmp/fp.data" "$tmp/cold" >"$tmp/err" 2>&1 \
  || fail "perf record -g: $(head -c 300 "$tmp/err")"
perf report -i "$tmp/fp.data" --children --stdio -g none --sort sym 2>/dev/null >"$tmp/report" || fail "perf report"
pct () { awk -v f="$1" '$3 == "[.]" && $4 == f { sub (/%/, "", $1); print $1; exit }' "$tmp/report"; }
hot=$(pct check) cold=$(pct check.cold)
[ -n "$cold" ] || skip "perf recorded no frame of check.cold (its report: $(head -c 300 "$tmp/report"))"
perf script -i "$tmp/fp.data" >"$tmp/fp.txt" 2>/dev/null || fail "perf script"
for input in "$tmp/fp.data" "$tmp/fp.txt"; do
  expect 0 "$cgcost" --format=tsv "$input" || fail "cgcost $input"
  mv "$tmp/out" "$tmp/functions"
  expect 0 "$cgcost" --format=tsv --arcs "$input" || fail "cgcost --arcs $input"
  awk -F '\t' -v hot="$hot" -v cold="$cold" -v what="$input" '
    NR == FNR { if (FNR == 2) all = $4; total[$1] = $4; next }
    { arc[$1 " > " $2] = $4 }
    END {
      bad = 0
      if ("check.cold" in total) { print what ": a function check.cold"; bad = 1 }
      ours = 100 * total["check"] / all
      if (ours - hot - cold > 0.1 || hot + cold - ours > 0.1) { print what ": check " ours "%, perf report --children check " hot "% and check.cold " cold "%"; bad = 1 }
      # a sample in report before it set its frame up names check'"'"'s caller
      if (arc["check > report"] == "" || arc["check > report"] < 0.99 * total["report"]) { print what ": check > report " arc["check > report"] ", report " total["report"]; bad = 1 }
      exit bad
    }' "$tmp/functions" "$tmp/out" >"$tmp/check.log" || fail "$(cat "$tmp/check.log")"
done
finish
