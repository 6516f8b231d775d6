#!/bin/sh
# perf record --call-graph dwarf: the start-up code cgtree folds, where the
# unwinder ends a few stacks early.  perf's DWARF unwinding of a stack now
# and then stops in an [unknown] frame at ffffffffffffffff right above
# main (or above __libc_start_call_main); perf script prints glibc's
# __libc_start_main_impl as an inlined frame.  Oracles: the stacks'
# structure (main is on every stack, so its total is 100 %, under the
# command's root line, where the start-up code folded away called it), and
# perf report --children's percentage for Py_BytesMain in a python3
# profile recorded here (skipped, 77, where perf cannot record).
. "${top_srcdir:-.}/tests/cli/common.sh"

# four stacks through the start-up code, one cut short above main, as
# perf script -F comm,pid,tid,period,event,ip,sym,dso prints them
start='	           27249 __libc_start_call_main (/usr/lib/x86_64-linux-gnu/libc.so.6)
	           27304 __libc_start_main_impl (inlined)
	          227bd0 _start (/usr/bin/prog)
'
{
  for leaf in work work other work; do
    printf 'prog 10/10     250000 cpu-clock: \n'
    printf '\t            1200 %s (/usr/bin/prog)\n\t            1300 main (/usr/bin/prog)\n%s\n' "$leaf" "$start"
  done
  printf 'prog 10/10     250000 cpu-clock: \n\t            1200 work (/usr/bin/prog)\n'
  printf '\t            1300 main (/usr/bin/prog)\n\tffffffffffffffff [unknown] ([unknown])\n\n'
} >"$tmp/dwarf.perf"

# the tree's root lines: their function and incl%
roots () { awk '$1 ~ /^[0-9.]+$/ && $5 != "" && $5 !~ /^[|`]/ { print $5, $1 }' "$tmp/out"; }
# the lines right under a root: their function and total% (its "in all"
# where the line shows one, else its incl%; the function column starts
# where its heading does)
children () {
  awk 'col == 0 && / function$/ { col = index($0, "function"); next }
       col && $1 ~ /^[0-9.]+$/ && substr($0, col) ~ /^[|`]-/ {
         split(substr($0, col + 2), w, " "); t = $1
         if (match($0, /\(([0-9.]+)% in all\)/)) t = substr($0, RSTART + 1, RLENGTH - 10)
         print w[1], t }' "$tmp/out"
}
expect 0 "$cgtree" "$tmp/dwarf.perf" || fail "cgtree"
roots >"$tmp/roots"
grep -qx 'prog 100.00' "$tmp/roots" || fail "prog is not a root at 100%: $(cat "$tmp/out")"
children >"$tmp/children"
grep -qx 'main 100.00' "$tmp/children" || fail "main is not under prog at 100%: $(cat "$tmp/out")"
grep -q '^main ' "$tmp/roots" && fail "main is a root beside prog: $(cat "$tmp/roots")"
# glibc's __libc_start_main_impl is start-up code, folded as the rest
grep -q '^__libc_start_main_impl ' "$tmp/roots" && fail "__libc_start_main_impl is a root: $(cat "$tmp/roots")"
sed 1,2d "$tmp/out" | grep -q '__libc_start_call_main' && fail "start-up code shown: $(cat "$tmp/out")"
grep -q '^Start-up code (.*__libc_start_main_impl' "$tmp/out" || fail "the folded start-up code: $(head -2 "$tmp/out")"
# the cut stack stays visible where it was: under [unknown], a link to main
grep -q '`-\[unknown\] > main -> \[' "$tmp/out" || fail "the cut stack's main: $(cat "$tmp/out")"
expect 0 "$cgtree" --startup "$tmp/dwarf.perf" || fail "cgtree --startup"
grep -q '__libc_start_main_impl' "$tmp/out" || fail "--startup hides __libc_start_main_impl"

# a real python3 profile recorded with DWARF call chains
command -v perf >/dev/null 2>&1 || skip "perf is not installed (Debian: linux-perf)"
# Debian's own python3, not a wrapper script (pyenv's shims) that runs it
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3) || skip "no python3"
perf record -q --call-graph dwarf -e cpu-clock -o "$tmp/probe.data" true >"$tmp/err" 2>&1 \
  && perf script -i "$tmp/probe.data" >/dev/null 2>&1 || skip "perf record cannot record here: $(head -c 300 "$tmp/err")"
perf record -q --call-graph dwarf -e cpu-clock -o "$tmp/py.data" "$py" -c '
import json
d = [{"k": i, "v": str(i) * 5} for i in range(40000)]
s = json.dumps(d)
for _ in range(3): json.loads(s)
' >"$tmp/err" 2>&1 || fail "perf record python3: $(cat "$tmp/err")"
perf report -i "$tmp/py.data" --children --stdio -g none --sort sym 2>/dev/null >"$tmp/report" || fail "perf report"
# perf report may list a symbol twice (a stack or two whose unwinding
# went astray): ours lies between the largest of its lines and their sum
theirs=$(awk '$3 == "[.]" && $4 == "Py_BytesMain" && NF == 4 { sub(/%/, "", $1); n++; s += $1; if ($1 > m) m = $1 }
              END { if (n) printf "%.2f %.2f %d", m, s, n }' "$tmp/report")
[ -n "$theirs" ] || skip "python3 has no symbol Py_BytesMain here"
expect 0 "$cgtree" "$tmp/py.data" || fail "cgtree py.data"
children >"$tmp/children"
ours=$(awk '$1 == "Py_BytesMain" { print $2; exit }' "$tmp/children")
set -- $theirs
[ -n "$ours" ] && awk -v o="$ours" -v m="$1" -v s="$2" -v n="$3" 'BEGIN { exit !(o >= m - 0.005 && o <= s + 0.005 * n) }' \
  || fail "Py_BytesMain: under python3's root at ${ours:-nothing}%, perf report --children $1% (of $3 lines, $2% in all): $(head -30 "$tmp/out")"
echo "Py_BytesMain under python3's root at $ours%, perf report --children $1% (of $3 lines, $2% in all)"

finish
