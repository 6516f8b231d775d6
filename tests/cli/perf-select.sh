#!/bin/sh
# perf script -F field selections (tid alone, pid alone, no comm, no
# time, cpu, misc, tod, with and without period, event, dso, symoff,
# srcline, --inline) read the same: a program of two threads with known
# calls (main and a thread each call top -> mid -> leaf and other) is
# recorded here with perf record -g -e cpu-clock, and each layout's totals
# of main, top, leaf and other, as shares of all samples, are perf report
# --children's on the same perf.data (to its two decimals); with the tid
# printed, --split=tid's roots are perf report --sort=pid's threads.  A
# layout without ip, whose samples have no frame to charge, is an error
# that says to add ip.  Skipped (77) where perf is missing or cannot
# record.
. "${top_srcdir:-.}/tests/cli/common.sh"

command -v perf >/dev/null 2>&1 || skip "perf is not installed (Debian: linux-perf)"
cat >"$tmp/two.c" <<'C'
#include <pthread.h>
#include <stdlib.h>
static volatile unsigned long sink;
__attribute__ ((noinline)) void leaf (long n) { for (long i = 0; i < n; i++) sink += i * 7; }
__attribute__ ((noinline)) void mid (long n) { leaf (n); sink++; }
__attribute__ ((noinline)) void other (long n) { for (long i = 0; i < n; i++) sink ^= i; }
__attribute__ ((noinline)) void top (long n, long m) { mid (n); other (m); sink++; }
static void *run (void *arg) { (void) arg; for (int k = 0; k < 100; k++) top (400000, 1200000); return NULL; }
int
main (void)
{
  pthread_t t;
  pthread_create (&t, NULL, run, NULL);
  for (int k = 0; k < 100; k++)
    top (2000000, 400000);
  pthread_join (t, NULL);
  return 0;
}
C
${CC:-cc} -O1 -g -fno-omit-frame-pointer -pthread -o "$tmp/two" "$tmp/two.c" || fail "cannot build two.c"
perf record -q -g -e cpu-clock --sample-cpu -k mono -o "$tmp/two.data" "$tmp/two" >"$tmp/err" 2>&1 \
  && perf script -i "$tmp/two.data" >/dev/null 2>&1 \
  || skip "perf record -g cannot record here: $(head -c 300 "$tmp/err")"
perf report -i "$tmp/two.data" --children --stdio -g none --percent-limit 0 2>/dev/null \
  | awk '/^ +[0-9.]+%/ && $5 == "[.]" && ($6 == "main" || $6 == "top" || $6 == "leaf" || $6 == "other") {
           sub (/%/, "", $1); print $6, $1 }' >"$tmp/oracle"
[ "$(wc -l <"$tmp/oracle")" = 4 ] || fail "test set-up: perf report's children: $(cat "$tmp/oracle")"
# perf report's pid key is the thread ("TID:COMM")
perf report -i "$tmp/two.data" --no-children --sort=pid --stdio -g none 2>/dev/null \
  | awk '/^ +[0-9.]+%/ { sub (/%/, "", $1); split ($2, t, ":"); print t[1], $1 }' >"$tmp/threads"
[ "$(wc -l <"$tmp/threads")" -ge 2 ] || fail "test set-up: perf report's threads: $(cat "$tmp/threads")"

# against NAME PERCENTS TSV — each function's total in TSV, as a share of
# the sum of its self costs, is the oracle's within 0.01
against () {
  awk -F '\t' -v what="$1" 'NR == FNR { split ($0, a, " "); want[a[1]] = a[2]; next }
    FNR == 1 { next }
    { n = $1; sub (/ \[.*\]$/, "", n); total[n] += $4; all += $3 }
    END { for (f in want) { p = 100 * total[f] / all; d = p - want[f]
            if (d > 0.0101 || d < -0.0101) { printf "%s: %s %.3f%%, perf report %s%%\n", what, f, p, want[f]; bad = 1 } }
          exit bad }' "$2" "$3" >>"$tmp/wrong"
}

for fields in comm,pid,tid,time,period,event,ip,sym,dso tid,ip,sym pid,ip,sym pid,tid,ip,sym \
  tid,time,period,event,ip,sym,dso comm,tid,ip,sym,dso comm,ip,sym time,ip,sym period,ip,sym event,ip,sym \
  cpu,ip,sym tid,cpu,time,ip,sym comm,tid,misc,ip,sym comm,tid,tod,ip,sym tid,period,ip,sym,dso \
  comm,tid,ip,sym,symoff comm,tid,ip,sym,srcline ip,sym,dso \
  comm,pid,tid,cpu,misc,tod,time,period,event,ip,sym,symoff,dso,srcline; do
  for inline in "" --inline; do
    perf script -i "$tmp/two.data" $inline -F $fields >"$tmp/s.txt" 2>"$tmp/err" \
      || { fail "perf script -F $fields $inline: $(head -c 200 "$tmp/err")"; continue; }
    expect 0 "$cgcost" --format=tsv "$tmp/s.txt" || { fail "-F $fields $inline is refused"; continue; }
    against "-F $fields $inline" "$tmp/oracle" "$tmp/out"
  done
  case ,$fields, in
  *,tid,*)
    expect 0 "$cgcost" --split=tid --format=tsv "$tmp/s.txt" || continue
    # a root is "comm-pid/TID" ('?' for a field not printed)
    awk -F '\t' 'FNR > 1 { all += $3 } FNR > 1 && $1 ~ /\/[0-9]+( \[process\])?$/ {
        t = $1; sub (/ \[process\]$/, "", t); sub (/.*\//, "", t); print t, $4 }
      END { print "all", all }' "$tmp/out" >"$tmp/roots"
    awk -v what="-F $fields --split=tid" 'NR == FNR { want[$1] = $2; n++; next }
      $1 == "all" { all = $2; next } { got[$1] = $2 }
      END { for (t in want) { p = 100 * got[t] / all; d = p - want[t]
              if (d > 0.0101 || d < -0.0101) { printf "%s: thread %s %.3f%%, perf report %s%%\n", what, t, p, want[t]; bad = 1 } }
            exit bad }' "$tmp/threads" "$tmp/roots" >>"$tmp/wrong"
    ;;
  esac
done
[ ! -s "$tmp/wrong" ] || fail "totals unlike perf report's: $(head -5 "$tmp/wrong")"

# perf prints -F pid or tid alone as one number: --split=pid without the
# pid printed joins each command's processes, and says so
perf script -i "$tmp/two.data" -F comm,tid,ip,sym >"$tmp/s.txt" 2>/dev/null
expect 0 "$cgcost" --split=pid --format=tsv "$tmp/s.txt" && expect_message "--split=pid: the samples print no pid"
[ "$(grep -c 'no pid' "$tmp/err")" = 1 ] || fail "--split=pid's warning is not given once: $(head -c 300 "$tmp/err")"
perf script -i "$tmp/two.data" -F comm,pid,tid,ip,sym >"$tmp/s.txt" 2>/dev/null
expect 0 "$cgcost" --split=pid --format=tsv "$tmp/s.txt" && ! grep -q 'no pid' "$tmp/err" \
  || fail "--split=pid warns with the pid printed: $(head -c 300 "$tmp/err")"

# without ip, perf prints the headers alone (sym, dso and symoff need
# ip): an error that says to add it, not "unknown input format"
for fields in tid,sym pid comm,tid tid,sym,dso comm,tid,time; do
  perf script -i "$tmp/two.data" -F $fields >"$tmp/s.txt" 2>/dev/null
  expect 1 "$cgcost" "$tmp/s.txt" && expect_message "without frames (its -F left out ip"
done
finish
