#!/bin/sh
# perf script -F choices that add lines or leave parts of a frame out, on a
# profile recorded here with perf record -I --call-graph dwarf (interrupt
# and user registers, inlined frames) of a program with an inlined
# function built with -O2 -g.  Oracles: the same perf.data printed with
# -F comm,pid,tid,period,event,ip,sym,dso (registers are no frames:
# +iregs,+uregs give the same totals, with a call chain and on -G's one
# line), and a brute-force Min_E over the text -F ip,dso prints (each
# sample counted once for every distinct address on its stack; inlined
# frames, which are their address again, not apart).  Skipped (77)
# where perf is missing or cannot record so.
. "${top_srcdir:-.}/tests/cli/common.sh"

command -v perf >/dev/null 2>&1 || skip "perf is not installed (Debian: linux-perf)"
cat >"$tmp/inl.c" <<'C'
#include <stdlib.h>
static volatile unsigned long sink;
static inline __attribute__ ((always_inline)) unsigned long
mix (unsigned long h, long i)
{
  for (int k = 0; k < 8; k++)
    h = h * 31 + (unsigned long) (i ^ k);
  return h;
}
__attribute__ ((noinline)) void
work (long n)
{
  unsigned long h = 0;
  for (long i = 0; i < n; i++)
    h = mix (h, i);
  sink += h;
}
int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 20000000;
  work (n);
  work (n / 2);
  return 0;
}
C
${CC:-cc} -O2 -g -o "$tmp/inl" "$tmp/inl.c" || fail "cannot build inl.c"
perf record -q -I --call-graph dwarf -e cpu-clock -o "$tmp/inl.data" "$tmp/inl" >"$tmp/err" 2>&1 \
  && perf script -i "$tmp/inl.data" >/dev/null 2>&1 \
  || skip "perf record -I --call-graph dwarf cannot record here: $(head -c 300 "$tmp/err")"

# script OUT -F ... — perf script's text of inl.data in $tmp/OUT.txt, its
# tsv in $tmp/OUT.tsv
script () {
  out=$1
  shift
  perf script -i "$tmp/inl.data" "$@" >"$tmp/$out.txt" 2>/dev/null || { fail "perf script $*"; return 1; }
  "$cgcost" --format=tsv "$tmp/$out.txt" >"$tmp/$out.tsv" 2>"$tmp/err" \
    || { fail "cgcost on perf script $*: $(head -c 300 "$tmp/err")"; return 1; }
}
base=comm,pid,tid,period,event,ip,sym,dso
script plain -F $base
grep -q '(inlined)' "$tmp/plain.txt" || echo "note: perf script printed no inlined frame"

# the registers' line after the call chain (" ABI:2    AX:0x..."), where
# the blank line would be, and after the DSO of a one-line sample
if script regs -F $base,iregs,uregs; then
  grep -q '^ ABI:[0-9]' "$tmp/regs.txt" || fail "test set-up: no registers' line: $(sed -n 2,4p "$tmp/regs.txt")"
  cmp -s "$tmp/plain.tsv" "$tmp/regs.tsv" || fail "-F +iregs,+uregs: $(diff "$tmp/plain.tsv" "$tmp/regs.tsv" | head -5)"
fi
script leaves -G -F $base
if script leafregs -G -F $base,iregs; then
  grep -q ') ABI:[0-9]' "$tmp/leafregs.txt" || fail "test set-up: no registers after the DSO: $(sed -n 1p "$tmp/leafregs.txt")"
  cmp -s "$tmp/leaves.tsv" "$tmp/leafregs.tsv" || fail "-G -F +iregs: $(diff "$tmp/leaves.tsv" "$tmp/leafregs.tsv" | head -5)"
fi

# no symbol: frames are named by address ("ADDR (DSO)", "ADDR (inlined)")
script addr -F ip,dso
awk '
  function flush (  k) { for (k in seen) total[k]++; delete seen }
  /^$/ { flush(); next }
  /^\t/ { addr = $1; dso = substr ($0, index ($0, "(") + 1); sub (/\)$/, "", dso)
          if (dso == "inlined") next
          if (dso == "[unknown]") dso = ""
          seen["0x" addr SUBSEP dso] = 1 }
  END { flush()
        for (k in total) { split (k, p, SUBSEP); n[p[1]]++ }
        for (k in total) { split (k, p, SUBSEP); if (n[p[1]] == 1) printf "%s\t%d\n", p[1], total[k] } }' \
  "$tmp/addr.txt" | sort >"$tmp/brute"
awk -F '\t' 'NR == FNR { want[$1] = $2; next }
  FNR > 1 && $1 !~ /^0x[0-9a-f]+( \[.*\])?$/ { print "  not an address: " $1; wrong++ }
  FNR > 1 && ($1 in want) { compared++; if ($4 != want[$1]) { wrong++; print "  " $1 ": ours " $4 ", brute force " want[$1] } }
  END { printf "%d compared, %d different\n", compared, wrong; exit (wrong > 0 || compared < 5) }' \
  "$tmp/brute" "$tmp/addr.tsv" >"$tmp/cmp" || fail "-F ip,dso against the brute force: $(head -5 "$tmp/cmp")"
echo "-F ip,dso against the brute force: $(tail -n 1 "$tmp/cmp")"
# source lines under the frames of a layout without header fields
# change nothing
script addrlines -F ip,dso,srcline
cmp -s "$tmp/addr.tsv" "$tmp/addrlines.tsv" || fail "-F ip,dso,srcline: $(diff "$tmp/addr.tsv" "$tmp/addrlines.tsv" | head -5)"
script syms -F ip,sym
script symlines -F ip,sym,srcline
cmp -s "$tmp/syms.tsv" "$tmp/symlines.tsv" || fail "-F ip,sym,srcline: $(diff "$tmp/syms.tsv" "$tmp/symlines.tsv" | head -5)"
script ip -F ip
script iplines -F ip,srcline
cmp -s "$tmp/ip.tsv" "$tmp/iplines.tsv" || fail "-F ip,srcline: $(diff "$tmp/ip.tsv" "$tmp/iplines.tsv" | head -5)"
awk -F '\t' 'FNR > 1 && $1 !~ /^0x[0-9a-f]+$/ { print; bad = 1 } END { exit bad }' "$tmp/ip.tsv" >"$tmp/cmp" \
  || fail "-F ip: functions not named by address: $(head -3 "$tmp/cmp")"

finish
