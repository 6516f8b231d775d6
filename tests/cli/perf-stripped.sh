#!/bin/sh
# perf on a stripped program (what Debian installs): perf prints each of
# its functions' addresses as "[unknown]", and the perf reader named
# them all "[PROG]", one function that called itself, where callgrind
# names each by its start ("0x00000000002b3400").  Each is now the
# function the object's unwind table (.eh_frame_hdr, which strip keeps)
# says holds it, named as callgrind names it.
# Oracle: the same program unstripped.  Every function the reader names
# so starts where a function symbol of the unstripped copy does, and
# each one's self samples are the samples whose own address lies in that
# symbol's extent in perf script's raw addresses; the spin functions,
# callers of nothing, are found.  A PIE and a -no-pie build (whose
# addresses perf prints as file offsets, 0x11af for 0x4011af).  perf's
# build-id cache lives in a temporary HOME, so that it has no copy of
# the unstripped program to name the stripped one's functions with.
. "${top_srcdir:-.}/tests/cli/common.sh"
command -v perf >/dev/null 2>&1 || skip "no perf"
command -v strip >/dev/null 2>&1 && command -v nm >/dev/null 2>&1 && command -v readelf >/dev/null 2>&1 \
  || skip "no strip, nm or readelf"
HOME="$tmp/home"
export HOME
mkdir "$HOME"
perf record -q -e cpu-clock -o "$tmp/probe.data" true >"$tmp/err" 2>&1 && perf script -i "$tmp/probe.data" >/dev/null 2>&1 \
  || skip "perf cannot record here: $(head -c 200 "$tmp/err")"

cat >"$tmp/spin.c" <<'SRC'
#include <stdio.h>
static volatile unsigned long sink;
__attribute__ ((noinline)) static void spin_a (unsigned n) { for (unsigned i = 0; i < n; i++) sink += i * 3; }
__attribute__ ((noinline)) static void spin_b (unsigned n) { for (unsigned i = 0; i < n; i++) sink ^= i * 7; }
__attribute__ ((noinline)) static void work (unsigned n) { spin_a (n); spin_b (n / 2); sink++; }
int main (void) { for (int k = 0; k < 60; k++) work (4000000); printf ("%lu\n", sink); return 0; }
SRC

for pie in pie no-pie; do
  ${CC:-cc} -O1 -fno-omit-frame-pointer -fno-inline -"$pie" -o "$tmp/$pie" "$tmp/spin.c" 2>"$tmp/cc.err" \
    || { echo "cannot build with -$pie: $(head -c 200 "$tmp/cc.err")"; continue; }
  cp "$tmp/$pie" "$tmp/$pie.stripped"
  strip "$tmp/$pie.stripped" || fail "strip"
  nm "$tmp/$pie.stripped" 2>/dev/null | grep -q spin && fail "strip left the symbols"
  perf record -q --no-buildid-cache -g -e cpu-clock -o "$tmp/$pie.data" "$tmp/$pie.stripped" >/dev/null 2>"$tmp/err" \
    || fail "perf record: $(cat "$tmp/err")"
  expect 0 "$cgcost" --format=tsv "$tmp/$pie.data"
  grep -q '^\[[a-z-]*\.stripped\]	' "$tmp/out" && fail "$pie: the stripped program's functions lumped: $(head -5 "$tmp/out")"
  # the unstripped copy's function symbols: start, end, name (decimal)
  # and the PLT's sections, which hold no symbol: a sample in a stub
  # (0x401020 in the -no-pie build, 1 run in some 20) is the function
  # that the section's unwind entry says holds it
  { nm -t d -S --defined-only "$tmp/$pie" | awk '$3 ~ /^[tTwW]$/ && NF == 4 { print $1 + 0, $1 + $2, $4 }'
    readelf -SW "$tmp/$pie" | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 ~ /^\.plt/ { print $1, $3, $5 }' \
      | while read -r section start size; do echo $((0x$start)) $((0x$start + 0x$size)) "$section"; done
  } | sort -n >"$tmp/symbols"
  [ -s "$tmp/symbols" ] || fail "$pie: nm lists no functions"
  # the executable segment: perf prints offset + (address - vaddr)
  set -- $(readelf -lW "$tmp/$pie" | awk '$1 == "LOAD" && / R E / { print $2, $3; exit }')
  delta=$(($2 - $1))
  # the samples' own addresses in the program (perf script's first frame)
  perf script -i "$tmp/$pie.data" -F ip,dso 2>/dev/null | awk -v prog="($tmp/$pie.stripped)" '
      BEGIN { first = 1 }
      NF == 0 { first = 1; next }
      first { first = 0; if ($2 == prog) print $1 }' >"$tmp/leaves.hex"
  [ -s "$tmp/leaves.hex" ] || fail "$pie: no samples in the program"
  while read -r ip; do echo $((0x$ip + delta)); done <"$tmp/leaves.hex" >"$tmp/leaves"
  # the oracle's samples per function, and cgcost's, each as a share of
  # the samples in the program's code
  awk 'NR == FNR { s[NR] = $1; e[NR] = $2; n[NR] = $3; k = NR; next }
       { for (i = 1; i <= k; i++) if ($1 >= s[i] && $1 < e[i]) { c[i]++; break } }
       END { for (i in c) printf "0x%016x\t%s\t%d\n", s[i], n[i], c[i] }' "$tmp/symbols" "$tmp/leaves" \
    | sort >"$tmp/want"
  awk -F '\t' 'NR > 1 && length ($1) == 18 && $1 ~ /^0x[0-9a-f]+$/ && $3 > 0 { print $1 "\t" $3 }' "$tmp/out" | sort >"$tmp/got"
  join -t '	' -a 1 -a 2 -e none -o 0,1.2,1.3,2.2 "$tmp/want" "$tmp/got" >"$tmp/both"
  echo "$pie: $(tr '\n' ' ' <"$tmp/both")"
  awk -F '\t' '$3 == "none" { exit 1 }' "$tmp/both" || fail "$pie: a function named where no symbol starts: $(cat "$tmp/both")"
  awk -F '\t' '$4 == "none" { exit 1 }' "$tmp/both" || fail "$pie: a function with samples not named: $(cat "$tmp/both")"
  # one period per sample: the shares agree exactly
  awk -F '\t' '{ want += $3; got += $4; w[NR] = $3; g[NR] = $4 }
       END { for (i = 1; i <= NR; i++) if (w[i] * got != g[i] * want) exit 1 }' "$tmp/both" \
    || fail "$pie: self samples differ from the raw addresses': $(cat "$tmp/both")"
  for f in spin_a spin_b; do
    grep -q "	$f	" "$tmp/both" || fail "$pie: $f not found: $(cat "$tmp/both")"
  done
  # the reports for people label each address with its object, as
  # cgtree does: "0x0000000000001139 [no-pie.stripped]" (an address
  # alone said nothing of where the code was: ten of liblzma's read so)
  for view in "$cgcost --format=text" "$cgmerge --format=text"; do
    $view "$tmp/$pie.data" >"$tmp/view.txt" 2>/dev/null || fail "$pie: $view"
    cut -f 1 "$tmp/got" | while read -r a; do
      grep -q " $a \[$pie.stripped\]\( <cycle [0-9]*>\)\?$" "$tmp/view.txt" || echo "$a"
    done >"$tmp/unlabelled"
    [ -s "$tmp/unlabelled" ] && fail "$pie: $view: addresses without their object: $(tr '\n' ' ' <"$tmp/unlabelled")"
  done
done
finish
