#!/bin/sh
# A perf profile compared with a base of another source (gprof's
# gmon.out): perf roots each stack at its process, and what that root
# calls (main) are the base's roots, so main's line was "new", as if the
# base had no main (lead's note: "a diff against a gmon.out does not pair
# main"), with the whole program's change on the process's line, "new"
# too.  Now a call from a process's root, against a base with none, is
# compared with the callee's total in the base, as a root's line is.
# Oracle: the base's own total for main (cgcost --format=tsv) and the
# line's incl.  The program is built twice at test time (-pg and with
# frame pointers); skipped (77) where gcc's -pg or perf cannot run.
. "${top_srcdir:-.}/tests/cli/common.sh"

cc=${CC:-cc}
cat >"$tmp/prog.c" <<'EOC'
#include <stdio.h>
volatile unsigned long sink;
__attribute__ ((noinline)) void leaf (long n) { for (long i = 0; i < n; i++) sink += (unsigned long) i; }
__attribute__ ((noinline)) void work (long n) { leaf (n); leaf (n / 2); }
int main (void) { for (int i = 0; i < 200; i++) work (1000000); printf ("%lu\n", sink); return 0; }
EOC
(cd "$tmp" && $cc -O2 -g -pg -o prog-pg prog.c && ./prog-pg && $cc -O2 -g -fno-omit-frame-pointer -o prog prog.c) \
  >"$tmp/cc.log" 2>&1 || skip "cannot build or run the test program: $(head -c 300 "$tmp/cc.log")"
command -v perf >/dev/null 2>&1 || skip "perf is not installed (Debian: linux-perf)"
perf record -q -e cpu-clock -g -o "$tmp/probe.data" true >"$tmp/err" 2>&1 \
  && perf script -i "$tmp/probe.data" >/dev/null 2>&1 || skip "perf record cannot record here: $(head -c 300 "$tmp/err")"
perf record -q -e cpu-clock -g -o "$tmp/p.data" "$tmp/prog" >/dev/null 2>"$tmp/err" \
  || fail "perf record -g: $(head -c 300 "$tmp/err")"
expect 0 "$cgmerge" --executable="$tmp/prog-pg" "$tmp/gmon.out" -o "$tmp/base.xml" || fail "cgmerge gmon.out"
expect 0 "$cgcost" --format=tsv "$tmp/base.xml" || fail "cgcost base"
base_main=$(awk -F '\t' '$1 == "main" { print $4 }' "$tmp/out")
perf script -i "$tmp/p.data" >"$tmp/p.txt" 2>/dev/null || fail "perf script"
for input in "$tmp/p.data" "$tmp/p.txt"; do
  expect 0 "$cgtree" --base="$tmp/base.xml" --threshold=0 --width=0 "$input" || fail "cgtree --base $input"
  # "~ 65.95    0.00   61.50  -148.85    0.00  |-main": incl ms, change
  awk -v base="$base_main" -v what="$input" '
    $NF == "|-main" || $NF == "`-main" {
      n = split ($0, f, /[ ~]+/); seen = 1
      incl = f[n - 3]; change = f[n - 2]
      if (change == "new") { print what ": main is new: " $0; exit 1 }
      want = incl - 1000 * base
      if (change - want > 0.011 || want - change > 0.011) { print what ": main changes by " change " ms, " incl " less the base total of main, " base " s, is " want; exit 1 }
    }
    END { if (!seen) { print what ": no line of main"; exit 1 } }' "$tmp/out" >"$tmp/check.log" \
    || fail "$(cat "$tmp/check.log")"
done
finish
