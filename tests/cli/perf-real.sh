#!/bin/sh
# perf record -g of a program whose structure gives the truth
# (data/perf/perfrec.c), made at test time.  Oracles: a brute-force Min_E
# over the same perf script text (each sample's period charged once to
# every distinct function on its stack), and the program's structure
# (burn's time 2/3 through ping, pong's total 13/15 of ping's) within
# sampling error.  Skipped (77) where perf is missing or cannot record.
. "${top_srcdir:-.}/tests/cli/common.sh"

command -v perf >/dev/null 2>&1 || skip "perf is not installed (Debian: linux-perf)"
perf record -q -g -e cpu-clock -o "$tmp/probe.data" true >"$tmp/err" 2>&1 \
  && perf script -i "$tmp/probe.data" >/dev/null 2>&1 || skip "perf record cannot record here: $(head -c 300 "$tmp/err")"
# -O0: every function keeps its frame pointer, so the call chains are whole
${CC:-cc} -O0 -fno-omit-frame-pointer -o "$tmp/perfrec" "$data/perf/perfrec.c" || fail "cannot build perfrec"
perf record -q -g -e cpu-clock -o "$tmp/perf.data" "$tmp/perfrec" >"$tmp/err" 2>&1 || fail "perf record: $(cat "$tmp/err")"
perf script -i "$tmp/perf.data" -F comm,pid,tid,period,event,ip,sym,dso >"$tmp/script.txt" 2>/dev/null \
  || fail "perf script failed"

# brute force: NAME<TAB>TOTAL, the root frame being the command name
awk '
  function flush () { for (f in seen) total[f] += period; delete seen; inside = 0 }
  /^[^\t]/ && NF { if (inside) flush(); period = $(NF - 1); comm = $1
                   for (i = 2; i < NF && $i !~ /^-?[0-9]+\/-?[0-9]+$/; i++) comm = comm "_" $i
                   seen[comm] = 1; inside = 1; next }
  /^\t/ { s = $0; sub(/^\t *[0-9a-f]+ /, "", s); sub(/ \([^()]*\)$/, "", s); sub(/\+0x[0-9a-f]+$/, "", s)
          if (s != "[unknown]") seen[s] = 1; next }
  /^$/ { if (inside) flush() }
  END { if (inside) flush(); for (f in total) printf "%s\t%s\n", f, total[f] }' "$tmp/script.txt" | sort >"$tmp/brute"

"$cgcost" --format=tsv "$tmp/script.txt" >"$tmp/tsv" || fail "cgcost on perf script text"
awk -F '\t' 'NR == FNR { want[$1] = $2; next }
  FNR > 1 && ($1 in want) { compared++; if ($4 != want[$1]) { wrong++; print "  " $1 ": ours " $4 ", brute force " want[$1] } }
  END { printf "%d compared, %d different\n", compared, wrong; exit (wrong > 0 || compared < 5) }' \
  "$tmp/brute" "$tmp/tsv" >"$tmp/cmp" || fail "exact totals against the brute force: $(cat "$tmp/cmp")"
echo "exact totals against the brute force: $(tail -n 1 "$tmp/cmp")"
for f in perfrec main ping pong burn; do
  [ -n "$(total_of "$tmp/tsv" "$f")" ] && [ "$(total_of "$tmp/tsv" "$f")" = "$(awk -F '\t' -v f="$f" '$1 == f { print $2 }' "$tmp/brute")" ] \
    || fail "$f: ours $(total_of "$tmp/tsv" "$f"), brute force $(awk -F '\t' -v f="$f" '$1 == f { print $2 }' "$tmp/brute")"
done

# the program's structure, within four standard deviations of sampling
"$cgcost" --format=tsv --arcs "$tmp/script.txt" >"$tmp/arcs" || fail "cgcost --arcs"
arc () { awk -F '\t' -v a="$1" -v b="$2" '$1 == a && $2 == b { print $4 }' "$tmp/arcs"; }
period=$(awk '/^[^\t]/ && NF { print $(NF - 1); exit }' "$tmp/script.txt")
share_ok () { # SHARE_NUM SHARE_DEN P — |num/den - p| within 4 sigma, n = den / period
  awk -v a="$1" -v b="$2" -v p="$3" -v t="$period" 'BEGIN { n = b / t; s = sqrt (p * (1 - p) / n)
    d = a / b - p; if (d < 0) d = -d; printf "%.4f (expected %.4f +- %.4f, %d samples)", a / b, p, 4 * s, n; exit (n < 200 || d > 4 * s) }'
}
via_ping=$(arc ping burn)
via_pong=$(arc pong burn)
msg=$(share_ok "$via_ping" "$((via_ping + via_pong))" 0.6666667) || fail "burn's share through ping: $msg"
echo "burn's share through ping: $msg"
msg=$(share_ok "$(total_of "$tmp/tsv" pong)" "$(total_of "$tmp/tsv" ping)" 0.8666667) || fail "pong's total over ping's: $msg"
echo "pong's total over ping's: $msg"
# main does nothing but call ping (a sample in its loop is rare)
awk -v a="$(total_of "$tmp/tsv" ping)" -v b="$(total_of "$tmp/tsv" main)" 'BEGIN { exit (a < 0.99 * b) }' \
  || fail "ping's total is not main's: $(total_of "$tmp/tsv" ping) of $(total_of "$tmp/tsv" main)"

# perf report --children charges each sample once to every symbol on its
# stack too: its percentages (of the event's whole period, to 0.01) are a
# second oracle for the program's functions
perf report -i "$tmp/perf.data" --children --stdio -g none --sort sym 2>/dev/null >"$tmp/report" \
  || fail "perf report failed"
all=$(awk -F '\t' 'NR > 1 { s += $3 } END { printf "%.0f", s }' "$tmp/tsv")
for f in main ping pong burn; do
  theirs=$(awk -v f="$f" '$3 == "[.]" && $4 == f { sub(/%/, "", $1); print $1 }' "$tmp/report")
  awk -v a="$(total_of "$tmp/tsv" "$f")" -v t="$all" -v b="$theirs" 'BEGIN { d = 100 * a / t - b; exit (b == "" || d > 0.0051 || d < -0.0051) }' \
    || fail "$f: ours $(total_of "$tmp/tsv" "$f") of $all, perf report --children ${theirs:-nothing}%"
  printf '%s %s%% ' "$f" "$theirs" >>"$tmp/agreed"
done
echo "perf report --children agrees: $(cat "$tmp/agreed")"

# perf.data read directly (through perf script), from a file and from a
# pipe, gives the same; so does perf script's default layout
"$cgcost" --format=tsv "$tmp/perf.data" >"$tmp/direct" || fail "cgcost perf.data: $(cat "$tmp/direct")"
cmp -s "$tmp/tsv" "$tmp/direct" || fail "perf.data read directly: $(diff "$tmp/tsv" "$tmp/direct" | head -5)"
"$cgmerge" <"$tmp/perf.data" | "$cgcost" --format=tsv >"$tmp/piped" || fail "perf.data through a pipe"
cmp -s "$tmp/tsv" "$tmp/piped" || fail "perf.data through a pipe: $(diff "$tmp/tsv" "$tmp/piped" | head -5)"
perf script -i "$tmp/perf.data" 2>/dev/null | "$cgcost" --format=tsv >"$tmp/default" || fail "default layout in a pipe"
cmp -s "$tmp/tsv" "$tmp/default" || fail "perf script's default layout: $(diff "$tmp/tsv" "$tmp/default" | head -5)"

# what -F +insn, +insnlen and +srccode add after a sample (" insn: 48 8b
# 07" with no blank line before the next header, "|304  source" after
# the blank line; on -G's one line, after the DSO) changes nothing: the
# same as the default layout and -G's alone
perf script -i "$tmp/perf.data" -G 2>/dev/null | "$cgcost" --format=tsv >"$tmp/leaves" || fail "perf script -G"
for extra in "-F +insn" "-F +insnlen" "-F +srccode" "-F +insn,+srccode" "-G -F +insn" "-G -F +insnlen"; do
  want="$tmp/default"
  case $extra in -G*) want="$tmp/leaves" ;; esac
  # shellcheck disable=SC2086
  perf script -i "$tmp/perf.data" $extra >"$tmp/extra.txt" 2>/dev/null || { echo "note: perf script $extra is not supported here"; continue; }
  "$cgcost" --format=tsv "$tmp/extra.txt" >"$tmp/extra.tsv" 2>"$tmp/err" || fail "perf script $extra: $(head -c 300 "$tmp/err")"
  cmp -s "$want" "$tmp/extra.tsv" || fail "perf script $extra: $(diff "$want" "$tmp/extra.tsv" | head -5)"
done
# source lines need debugging information: a build with -g
if ${CC:-cc} -O0 -g -fno-omit-frame-pointer -o "$tmp/perfrec-g" "$data/perf/perfrec.c" \
   && perf record -q -g -e cpu-clock -o "$tmp/g.data" "$tmp/perfrec-g" >/dev/null 2>&1; then
  perf script -i "$tmp/g.data" 2>/dev/null | "$cgcost" --format=tsv >"$tmp/g.tsv" || fail "perf script of the -g build"
  perf script -i "$tmp/g.data" -F +srccode >"$tmp/extra.txt" 2>/dev/null
  grep -q '^|[0-9]' "$tmp/extra.txt" || echo "note: perf script -F +srccode printed no source line"
  "$cgcost" --format=tsv "$tmp/extra.txt" >"$tmp/extra.tsv" 2>"$tmp/err" || fail "perf script -F +srccode: $(head -c 300 "$tmp/err")"
  cmp -s "$tmp/g.tsv" "$tmp/extra.tsv" || fail "perf script -F +srccode: $(diff "$tmp/g.tsv" "$tmp/extra.tsv" | head -5)"
fi

# dropping kernel frames moves their cost to the user frame below them:
# the program's totals stay
"$cgcost" --format=tsv --kernel=drop "$tmp/perf.data" >"$tmp/drop" || fail "--kernel=drop"
for f in main ping pong; do
  [ "$(total_of "$tmp/drop" "$f")" = "$(total_of "$tmp/tsv" "$f")" ] || fail "--kernel=drop changed $f's total"
done
# cgtree shows the exact totals
expect 0 "$cgtree" "$tmp/perf.data" && grep -q '^Method: exact' "$tmp/out" || fail "cgtree perf.data: $(head -3 "$tmp/out")"

# C++ overloads, one calling the other: perf script demangles without
# parameter lists, so both read as "norm", one recursive function; read
# directly, perf.data keeps the linker's names (two functions, as
# perf report --no-demangle lists them) and the views demangle them whole
if ${CXX:-c++} -O0 -fno-omit-frame-pointer -x c++ -o "$tmp/overloads" - <<'CXX' 2>/dev/null; then
#include <string>
static volatile unsigned sink;
__attribute__ ((noinline)) unsigned norm (const char *s, unsigned n)
{ unsigned h = 0; for (unsigned r = 0; r < 3000; r++) for (unsigned i = 0; i < n; i++) h = h * 31 + s[i]; return h; }
__attribute__ ((noinline)) unsigned norm (const std::string &s)
{ unsigned h = 0; for (unsigned r = 0; r < 100; r++) h += (unsigned) s.size (); return h + norm (s.data (), (unsigned) s.size ()); }
int main () { std::string s (1000, 'x'); for (int i = 0; i < 100; i++) sink += norm (s); return 0; }
CXX
  perf record -q -g -e cpu-clock -o "$tmp/overloads.data" "$tmp/overloads" >"$tmp/err" 2>&1 || fail "perf record overloads: $(cat "$tmp/err")"
  "$cgcost" --format=tsv "$tmp/overloads.data" >"$tmp/ov.tsv" || fail "cgcost overloads.data"
  all=$(awk -F '\t' 'NR > 1 { s += $3 } END { printf "%.0f", s }' "$tmp/ov.tsv")
  for f in _Z4normPKcj _Z4normRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE; do
    theirs=$(perf report --no-demangle -i "$tmp/overloads.data" --children --stdio -g none --sort sym 2>/dev/null \
      | awk -v f="$f" '$3 == "[.]" && $4 == f { sub(/%/, "", $1); print $1 }')
    awk -v a="$(total_of "$tmp/ov.tsv" "$f")" -v t="$all" -v b="$theirs" \
      'BEGIN { d = 100 * a / t - b; exit (a == "" || b == "" || d > 0.0051 || d < -0.0051) }' \
      || fail "overload $f: ours $(total_of "$tmp/ov.tsv" "$f") of $all, perf report --children ${theirs:-nothing}%"
  done
  expect 0 "$cgtree" --width=0 "$tmp/overloads.data" && grep -q 'norm(char const\*, unsigned int)' "$tmp/out" \
    || fail "cgtree does not show norm(char const*, unsigned int): $(grep norm "$tmp/out" | head -3)"
fi

# a perf.data perf cannot read: perf's message, exit 1
head -c 2000 "$tmp/perf.data" >"$tmp/cut.data"
expect 1 "$cgmerge" "$tmp/cut.data" && expect_message "cut.data: perf script failed"

finish
