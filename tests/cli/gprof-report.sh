#!/bin/sh
# Oracle: GNU gprof.  The text gprof prints (with -b and without, -q, -w)
# read back by cgmerge: `cgcost --format=gprof` prints the same report
# again, and the graph is the one cgmerge reads from the gmon.out itself
# (every arc's calls exactly; self seconds within the report's printed
# precision).  Reports are made at test time from the bundled exprparse
# profile and from programs built with -pg here (C and C++).
. "${top_srcdir:-.}/tests/cli/common.sh"
GPROF=$(command -v gprof) || skip "no gprof"
cc=${CC:-cc}
cxx=${CXX:-g++}
ex="$data/gmon/exprparse"

# arcs XML — "caller<TAB>callee<TAB>calls" sorted, from cgcost's tsv;
# names without the " [object]" that tells static functions of one name
# apart (a gmon.out's addresses, a report's files or indexes)
arcs () {
  "$cgcost" --method=gprof --format=tsv --arcs "$1" \
    | awk -F '\t' 'NR > 1 && $3 > 0 { sub(/ \[.*\]$/, "", $1); sub(/ \[.*\]$/, "", $2); print $1 "\t" $2 "\t" $3 }' \
    | sort
}

# selfs XML — "function<TAB>self seconds" of functions with time or
# calls, by name and time
selfs () {
  "$cgcost" --method=gprof --format=tsv "$1" \
    | awk -F '\t' 'NR > 1 && ($2 > 0 || $3 > 0) { sub(/ \[.*\]$/, "", $1); print $1 "\t" $3 }' | sort -t "$(printf '\t')" -k1,1 -k2,2g
}

# same_graph LABEL REPORT-XML GMON-XML — equal arcs and calls; self
# seconds within 0.005 (the report prints hundredths) plus the split
# bins' share
same_graph () {
  arcs "$2" >"$tmp/arcs.report"
  arcs "$3" >"$tmp/arcs.gmon"
  [ -s "$tmp/arcs.gmon" ] || fail "$1: the gmon.out has no arcs"
  cmp -s "$tmp/arcs.report" "$tmp/arcs.gmon" \
    || fail "$1: arcs differ from the gmon.out's: $(diff "$tmp/arcs.gmon" "$tmp/arcs.report" | head -4)"
  selfs "$2" >"$tmp/selfs.report"
  selfs "$3" >"$tmp/selfs.gmon"
  paste "$tmp/selfs.gmon" "$tmp/selfs.report" \
    | awk -F '\t' -v label="$1" '
        $1 != $3 { print label ": " $1 " against " $3; bad = 1; next }
        { d = $2 - $4; if (d < 0) d = -d; if (d > 0.0051) { print label ": " $1 " self " $2 " vs " $4; bad = 1 } }
        END { exit bad }' >"$tmp/why" || fail "$(head -3 "$tmp/why")"
}

# again LABEL REPORT "CGCOST-OPTIONS" — cgcost prints REPORT (gprof -b's)
# again from what cgmerge read of it
again () {
  "$cgmerge" "$2" >"$tmp/again.xml" 2>"$tmp/again.err" || { fail "$1: cgmerge: $(head -c 300 "$tmp/again.err")"; return; }
  validate "$tmp/again.xml"
  # shellcheck disable=SC2086
  "$cgcost" --format=gprof $3 "$tmp/again.xml" >"$tmp/again.txt" || fail "$1: cgcost $3"
  cmp -s "$2" "$tmp/again.txt" || fail "$1: printed again differently: $(diff "$2" "$tmp/again.txt" | head -6)"
}

# ---- the bundled profile: each report printed again exactly ----
"$cgmerge" --executable="$ex/exprparse" "$ex/gmon.out" >"$tmp/gmon.xml" || fail "exprparse: cgmerge gmon.out"
again "exprparse gprof -b (saved)" "$ex/gprof-b.txt" ""
"$GPROF" "$ex/exprparse" "$ex/gmon.out" >"$tmp/full.txt" 2>/dev/null || fail "gprof"
"$GPROF" -b "$ex/exprparse" "$ex/gmon.out" >"$tmp/brief.txt" 2>/dev/null || fail "gprof -b"
again "exprparse gprof -b" "$tmp/brief.txt" ""
# a 32-bit program's report: bins of 4 bytes (width 2), where half a
# tick nearest the middle of what "0.00" allows prints as 0.01; main,
# in the call graph only, had no time and must not enter the flat profile
sed 's/covers 2 byte(s)/covers 4 byte(s)/' "$ex/gprof-b.txt" >"$tmp/bins4.txt"
again "exprparse gprof -b, 4-byte bins" "$tmp/bins4.txt" ""
# static functions of one name: gprof's index sorts by name alone,
# stably, so equal names stay in the executable's symbol order, which the
# report's index shows (read column by column); printed again, they keep
# it.  Two of exprparse's functions renamed "dup": skip_space [10] is
# named first in the call graph, call_builtin [13] first in the index
index_cells () {
  awk '/Index by function name/ { on = 1; next }
    on && NF {
      rows++; line = $0; col = 0
      while (match (line, /[[(][0-9]+[])] [^[(]*/)) {
        col++; c = substr (line, RSTART, RLENGTH); sub (/ +$/, "", c); cell[rows, col] = c
        if (col > cols) cols = col; line = substr (line, RSTART + RLENGTH)
      }
    }
    END { for (c = 1; c <= cols; c++) for (r = 1; r <= rows; r++) if ((r, c) in cell) print cell[r, c] }' "$1"
}
sed 's/\bcall_builtin\b/dup/g; s/\bskip_space\b/dup/g' "$ex/gprof-b.txt" >"$tmp/dup.txt"
"$cgmerge" "$tmp/dup.txt" >"$tmp/dup.xml" || fail "two functions named dup: cgmerge"
"$cgcost" --format=gprof "$tmp/dup.xml" >"$tmp/dup-again.txt" || fail "two functions named dup: cgcost"
[ "$(index_cells "$tmp/dup.txt" | grep ' dup$' | tr '\n' ' ')" = "[13] dup [10] dup " ] \
  || fail "two functions named dup: the report's index is not as expected"
[ "$(index_cells "$tmp/dup-again.txt" | grep ' dup$' | tr '\n' ' ')" = "[13] dup [10] dup " ] \
  || fail "two functions named dup: printed again in another order: $(index_cells "$tmp/dup-again.txt" | grep ' dup$' | tr '\n' ' ')"

# without -b: the explanations are skipped, the tables are the same
"$cgmerge" "$tmp/full.txt" >"$tmp/full.xml" || fail "exprparse: cgmerge of gprof's full report"
"$cgcost" --format=gprof "$tmp/full.xml" | cmp -s "$tmp/brief.txt" - || fail "exprparse: the full report read differs"
same_graph "exprparse full report" "$tmp/full.xml" "$tmp/gmon.xml"
for o in -q -w120 "-q -w50" -z; do
  "$GPROF" -b $o "$ex/exprparse" "$ex/gmon.out" >"$tmp/o.txt" 2>/dev/null
  again "exprparse gprof -b $o" "$tmp/o.txt" "$o"
done
# the call graph alone: no rate printed, hundredths kept
"$GPROF" -q "$ex/exprparse" "$ex/gmon.out" >"$tmp/q.txt" 2>/dev/null
"$cgmerge" "$tmp/q.txt" >"$tmp/q.xml" || fail "exprparse -q: cgmerge"
"$cgcost" --format=gprof -q "$tmp/q.xml" | cmp -s "$ex/gprof-b-q.txt" - || fail "exprparse -q: printed again differently"
arcs "$tmp/q.xml" | cmp -s - "$tmp/arcs.gmon" || fail "exprparse -q: arcs differ"
# the flat profile alone: self times kept, calls not (a warning says so)
"$GPROF" -b -p "$ex/exprparse" "$ex/gmon.out" >"$tmp/p.txt" 2>/dev/null
expect 0 "$cgmerge" "$tmp/p.txt" && expect_message "every total is the function's self time (the calls and total ms/call columns are not kept)"
# (rows of equal time in another order: gprof puts more calls first)
"$cgcost" --format=gprof -p "$tmp/out" | awk 'NR > 5 && $3 != "0.00" { print $1, $3, $NF }' | sort >"$tmp/p.got"
awk 'NR > 5 && $3 != "0.00" { print $1, $3, $NF }' "$tmp/p.txt" | sort | cmp -s - "$tmp/p.got" || fail "exprparse -p: seconds printed again differently"

# cut after its third row, the flat profile's percentages are of more
# samples than its rows hold: a warning says rows with time are missing
# (the whole one, and one of some functions only, -p NAME, whose
# percentages are of its rows, say nothing of it)
expect 0 "$cgmerge" "$tmp/p.txt" && grep -q 'rows with time are missing' "$tmp/err" \
  && fail "exprparse -p: rows said missing: $(cat "$tmp/err")"
head -n 8 "$tmp/p.txt" >"$tmp/p-cut.txt"
expect 0 "$cgmerge" "$tmp/p-cut.txt" \
  && expect_message "p-cut.txt:8: the flat profile's percentages are of 144 samples, but its rows hold 95.4: rows with time are missing"
"$GPROF" -b -pfactor -pterm "$ex/exprparse" "$ex/gmon.out" >"$tmp/p-some.txt" 2>/dev/null
expect 0 "$cgmerge" "$tmp/p-some.txt" && grep -q 'rows with time are missing' "$tmp/err" \
  && fail "exprparse -p NAME: rows said missing: $(cat "$tmp/err")"

# gprof -T, 4.2 BSD's layout (what BSD gprof prints): the call graph
# first, under three heading lines, with blank lines around the dashes;
# the flat profile after it, without the sample's size, its names ending
# in "[index]" and its percentages in one decimal; the index's names cut
# to 19 columns (-z: "__do_global_dtors_a").  The same arcs and self
# times as the gmon.out's, and totals within the report's hundredths
"$cgcost" --method=gprof --format=tsv "$tmp/gmon.xml" >"$tmp/gmon.tsv" || fail "cgcost gmon.xml"
for o in "-T" "-b -T" "-b -T -z" "-b -T -q" "-b -T -p"; do
  # shellcheck disable=SC2086
  "$GPROF" $o "$ex/exprparse" "$ex/gmon.out" >"$tmp/t.txt" 2>/dev/null
  "$cgmerge" "$tmp/t.txt" >"$tmp/t.xml" 2>"$tmp/err" || { fail "gprof $o: cgmerge: $(head -c 300 "$tmp/err")"; continue; }
  case $o in *-p) continue ;; esac
  same_graph "gprof $o" "$tmp/t.xml" "$tmp/gmon.xml"
  "$cgcost" --method=gprof --format=tsv "$tmp/t.xml" >"$tmp/t.tsv" || fail "gprof $o: cgcost"
  awk -F '\t' 'NR == FNR { t[$1] = $4; next } FNR > 1 && ($1 in t) { n++; d = $4 - t[$1]; if (d < 0) d = -d
      if (d > 0.0051) { print $1 ": " $4 " against the gmon.out'"'"'s " t[$1]; bad = 1 } }
    END { exit bad || n < 10 }' "$tmp/gmon.tsv" "$tmp/t.tsv" >"$tmp/why" || fail "gprof $o totals: $(head -3 "$tmp/why")"
done
"$GPROF" -b -T -z "$ex/exprparse" "$ex/gmon.out" | grep -q '\] __do_global_dtors_a ' \
  || fail "test set-up: gprof -T -z cuts no name in its index"

# a call graph printed for some functions only (gprof -q NAME): the
# functions it names as "NAME (N)", whose entries it left out (eval_all,
# which calls next_token), are said to be missing, and a whole call graph
# says nothing of the kind
"$GPROF" -b -qnext_token "$ex/exprparse" "$ex/gmon.out" >"$tmp/q1.txt" 2>/dev/null
grep -q 'eval_all (1)$' "$tmp/q1.txt" || fail "test set-up: gprof -q next_token names no 'eval_all (1)'"
expect 0 "$cgcost" --format=tsv "$tmp/q1.txt" \
  && expect_message "a call graph of some functions only (gprof -q NAME, --graph=NAME, -f, -e...)" \
  && expect_message "(the first: eval_all)"
expect 0 "$cgcost" --format=tsv "$tmp/brief.txt" && grep -q 'some functions only' "$tmp/err" \
  && fail "a whole call graph taken for part of one: $(cat "$tmp/err")"

# several reports of one program sum: the graph of both gmon.out files
"$GPROF" -b "$ex/exprparse" "$ex/gmon.part2.out" >"$tmp/part2.txt" 2>/dev/null
"$cgmerge" "$tmp/brief.txt" "$tmp/part2.txt" >"$tmp/sum.xml" || fail "cgmerge of two reports"
"$cgmerge" --executable="$ex/exprparse" "$ex/gmon.out" "$ex/gmon.part2.out" >"$tmp/sum-gmon.xml"
arcs "$tmp/sum.xml" | cmp -s - "$(arcs "$tmp/sum-gmon.xml" >"$tmp/a2"; echo "$tmp/a2")" \
  || fail "two reports: arcs differ from the two gmon.out files'"
"$cgcost" --format=tsv "$tmp/sum.xml" | awk -F '\t' '$1 == "scan_number" { print $2 }' >"$tmp/got"
"$cgcost" --format=tsv "$tmp/sum-gmon.xml" | awk -F '\t' '$1 == "scan_number" { print $2 }' >"$tmp/want"
[ "$(cat "$tmp/want")" -gt 54293415 ] && cmp -s "$tmp/want" "$tmp/got" || fail "two reports: scan_number's calls are not the sum"
same_graph "two reports" "$tmp/sum.xml" "$tmp/sum-gmon.xml"

# the views and the other methods work on it
expect 0 "$cgcost" --method=decompose --format=tsv "$tmp/full.xml" || true
expect 0 "$cgtree" "$tmp/full.xml" || true
grep -q eval_all "$tmp/out" || fail "cgtree of a report shows no eval_all"
expect 0 "$cgcycles" --format=text "$tmp/full.xml" && grep -q factor "$tmp/out" || fail "cgcycles: no factor in the cycle"

# ---- programs built here: C with seven cycles, and C++ ----
programs="$data/programs"
built=0
if $cc -pg -O2 -fno-optimize-sibling-calls -no-pie -o "$tmp/gr" "$programs/gmonreal-main.c" \
     "$programs/gmonreal-parse.c" "$programs/gmonreal-walk.c" 2>/dev/null \
   && (cd "$tmp" && ./gr 600 >/dev/null && mv gmon.out gr.gmon); then
  built=1
  "$cgmerge" --executable="$tmp/gr" "$tmp/gr.gmon" >"$tmp/gr.xml" || fail "gmonreal: cgmerge"
  for o in -b ""; do
    "$GPROF" $o "$tmp/gr" "$tmp/gr.gmon" >"$tmp/gr.txt" 2>/dev/null
    "$cgmerge" "$tmp/gr.txt" >"$tmp/gr-report.xml" || { fail "gmonreal gprof $o: cgmerge"; continue; }
    same_graph "gmonreal gprof $o" "$tmp/gr-report.xml" "$tmp/gr.xml"
    # the flat profile's percentages, seconds and calls as printed
    "$GPROF" -b -p "$tmp/gr" "$tmp/gr.gmon" | awk 'NR > 5 { print $1, $3, $4, $NF }' | sort >"$tmp/want"
    "$cgcost" --format=gprof -p "$tmp/gr-report.xml" | awk 'NR > 5 { print $1, $3, $4, $NF }' | sort >"$tmp/got"
    cmp -s "$tmp/want" "$tmp/got" || fail "gmonreal gprof $o: flat profile differs: $(diff "$tmp/want" "$tmp/got" | head -4)"
    # the cycles' members as gprof printed them
    "$cgcycles" --format=text "$tmp/gr-report.xml" | awk '/^    / { print $2 }' | sort >"$tmp/got"
    "$cgcycles" --format=text "$tmp/gr.xml" | awk '/^    / { print $2 }' | sort >"$tmp/want"
    [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got" || fail "gmonreal gprof $o: cycle members differ"
  done
fi
# a static program's report with -z: its index numbers mcount and
# __mcount_internal in parentheses, functions printed nowhere else
src="$ex/source"
$cc -O2 -o "$tmp/gen" "$src/gen_expr.c" 2>/dev/null && "$tmp/gen" 300 7 >"$tmp/expr.in" || : >"$tmp/expr.in"
if [ -s "$tmp/expr.in" ] && $cc -pg -O2 -static -o "$tmp/grs" "$src/exprparse.c" 2>/dev/null \
   && (cd "$tmp" && ./grs expr.in 2 >/dev/null && mv gmon.out grs.gmon); then
  "$GPROF" -b -z "$tmp/grs" "$tmp/grs.gmon" >"$tmp/grs.txt" 2>/dev/null
  grep -q '([0-9]*) mcount' "$tmp/grs.txt" || echo "note: gprof -z's index names no mcount this time"
  # read back, it holds the gmon.out's arcs (printed again byte for byte
  # it need not be: a profile made at test time may put a time at a
  # rounding boundary, or two functions at one printed total, which a
  # report does not order)
  "$cgmerge" "$tmp/grs.txt" >"$tmp/grs-report.xml" 2>"$tmp/grs.err" || fail "static exprparse gprof -b -z: cgmerge: $(head -c 300 "$tmp/grs.err")"
  validate "$tmp/grs-report.xml"
  "$cgmerge" --executable="$tmp/grs" "$tmp/grs.gmon" >"$tmp/grs.xml" || fail "static exprparse: cgmerge gmon.out"
  arcs "$tmp/grs-report.xml" >"$tmp/arcs.report"
  arcs "$tmp/grs.xml" >"$tmp/arcs.gmon"
  [ -s "$tmp/arcs.gmon" ] && cmp -s "$tmp/arcs.report" "$tmp/arcs.gmon" \
    || fail "static exprparse gprof -b -z: arcs differ from the gmon.out's: $(diff "$tmp/arcs.gmon" "$tmp/arcs.report" | head -4)"
fi
# a line-by-line report (gprof -l of a program with debugging
# information): its rows are source lines, refused with a clear message
if [ -s "$tmp/expr.in" ] && $cc -pg -g -O2 -o "$tmp/grl" "$src/exprparse.c" 2>/dev/null \
   && (cd "$tmp" && ./grl expr.in 2 >/dev/null && mv gmon.out grl.gmon); then
  for o in "" -q -p; do
    # shellcheck disable=SC2086
    "$GPROF" -b -l $o "$tmp/grl" "$tmp/grl.gmon" >"$tmp/grl.txt" 2>/dev/null
    grep -q '(exprparse.c:[0-9]* @ [0-9a-f]*)' "$tmp/grl.txt" || { echo "note: gprof -l $o printed no source lines"; continue; }
    n=$(grep -n -m1 ' @ [0-9a-f]*)' "$tmp/grl.txt" | cut -d: -f1)
    expect 1 "$cgmerge" "$tmp/grl.txt" && expect_message "grl.txt:$n: a line-by-line report (gprof -l)"
  done
  # gprof -A's annotated source and -i's summary of the gmon.out's
  # records: no profiles, refused with what they are
  "$GPROF" -b -A "$tmp/grl" "$tmp/grl.gmon" >"$tmp/gra.txt" 2>/dev/null
  if grep -q '^\*\*\* File .*exprparse\.c:$' "$tmp/gra.txt"; then
    expect 1 "$cgmerge" "$tmp/gra.txt" && expect_message "gra.txt:1: the annotated source gprof -A prints"
  else
    echo "note: gprof -A printed no annotated source"
  fi
  "$GPROF" -i "$tmp/grl" "$tmp/grl.gmon" >"$tmp/gri.txt" 2>/dev/null
  if grep -q "^File .* (version [0-9]*) contains:$" "$tmp/gri.txt"; then
    expect 1 "$cgcost" "$tmp/gri.txt" && expect_message "gri.txt:1: the summary of a gmon.out's records gprof -i prints"
  else
    echo "note: gprof -i printed no summary: $(head -c 200 "$tmp/gri.txt")"
  fi
fi
if $cxx -pg -O2 -o "$tmp/cx" "$programs/gmonreal-cxx.cc" 2>/dev/null && (cd "$tmp" && ./cx >/dev/null && mv gmon.out cx.gmon); then
  built=1
  "$cgmerge" --executable="$tmp/cx" "$tmp/cx.gmon" >"$tmp/cx.xml" || fail "C++: cgmerge"
  # names demangled in the report: compared with gprof --no-demangle's
  "$GPROF" -b --no-demangle "$tmp/cx" "$tmp/cx.gmon" >"$tmp/cx.txt" 2>/dev/null
  "$cgmerge" "$tmp/cx.txt" >"$tmp/cx-report.xml" || fail "C++ --no-demangle: cgmerge"
  same_graph "C++ gprof -b --no-demangle" "$tmp/cx-report.xml" "$tmp/cx.xml"
  # gprof numbers the functions it does not print too: the entries keep
  # their numbers (the gaps before the _Z names are filled)
  "$cgcost" --format=gprof --no-demangle -q "$tmp/cx-report.xml" >"$tmp/cx-again.txt"
  grep '^\[' "$tmp/cx.txt" | awk '{ print $1, $NF }' >"$tmp/want"
  grep '^\[' "$tmp/cx-again.txt" | awk '{ print $1, $NF }' >"$tmp/got"
  awk '{ print $1 }' "$tmp/want" | tr -d '[]' | sort -n | awk 'NR != $1 { gap = 1 } END { exit !gap }' \
    || echo "note: gprof's C++ report has no gap in its numbers this time"
  cmp -s "$tmp/want" "$tmp/got" || fail "C++: entries numbered differently: $(diff "$tmp/want" "$tmp/got" | head -4)"
  "$GPROF" -b "$tmp/cx" "$tmp/cx.gmon" >"$tmp/cxd.txt" 2>/dev/null
  "$cgmerge" "$tmp/cxd.txt" >"$tmp/cxd.xml" || fail "C++ demangled: cgmerge"
  grep -q 'work::weigh(int)' "$tmp/cxd.xml" || fail "C++ demangled: no work::weigh(int)"
  [ "$(arcs "$tmp/cxd.xml" | wc -l)" -eq "$(arcs "$tmp/cx.xml" | wc -l)" ] || fail "C++ demangled: another number of arcs"
fi
# static initializers, gprof-numbered but never printed: one with no
# calls, one calling functions of no time (whose entries name it by its
# number, after every printed one); the gap between is filled with
# placeholders numbered as gprof numbered the functions they stand for
# (a report of ninja 1.11 took 151 numbers too many from its last
# printed entry on)
if $cxx -pg -O2 -o "$tmp/gi" "$programs/gmonreal-init-a.cc" "$programs/gmonreal-init-b.cc" 2>/dev/null \
   && (cd "$tmp" && ./gi 30000 >/dev/null && mv gmon.out gi.gmon); then
  built=1
  "$GPROF" -b -q --no-demangle "$tmp/gi" "$tmp/gi.gmon" >"$tmp/gi.txt" 2>/dev/null
  grep -q '_GLOBAL__sub_I_zz_table \[[0-9]*\]$' "$tmp/gi.txt" && ! grep -q '^\[[0-9]*\].*_GLOBAL__sub_I_zz_table' "$tmp/gi.txt" \
    || echo "note: gprof printed the static initializer's entry this time"
  "$cgcost" --format=gprof --no-demangle -q "$tmp/gi.txt" >"$tmp/gi-again.txt" || fail "static initializers: cgcost"
  grep -o '[^ ]* \[[0-9]*\]$' "$tmp/gi.txt" | sort -u >"$tmp/want"
  grep -o '[^ ]* \[[0-9]*\]$' "$tmp/gi-again.txt" | sort -u >"$tmp/got"
  cmp -s "$tmp/want" "$tmp/got" || fail "static initializers: numbered differently: $(diff "$tmp/want" "$tmp/got" | head -6)"
  # printed demangled, as gprof prints by default: a name with a
  # parameter list was a _Z name, which gprof numbers after main and the
  # other C names of equal total (main and work(unsigned int), both
  # 100 %, were numbered [2] and [1]); the call graph's entries keep their
  # numbers (the index, sorted by the linker's names, is not compared)
  "$GPROF" -b -q "$tmp/gi" "$tmp/gi.gmon" >"$tmp/gid.txt" 2>/dev/null
  "$cgcost" --format=gprof -q "$tmp/gid.txt" >"$tmp/gid-again.txt" || fail "static initializers, demangled: cgcost"
  # (numbers and names: a time on a rounding boundary may print otherwise)
  entries () { awk '/^\[/ { out = $1; for (i = 2; i <= NF && $i ~ /^[0-9.+]+$/; i++) ; for (; i <= NF; i++) out = out " " $i; print out }' "$1"; }
  entries "$tmp/gid.txt" >"$tmp/want"
  entries "$tmp/gid-again.txt" >"$tmp/got"
  grep -q '^\[1\] main \[1\]$' "$tmp/want" || echo "note: gprof did not number main first this time"
  cmp -s "$tmp/want" "$tmp/got" || fail "static initializers, demangled: entries differ: $(diff "$tmp/want" "$tmp/got" | head -6)"
fi
# a real program we did not write: zlib's enough.c (zlib1g-dev's
# examples), which counts Huffman codes by deep recursion
enough_c=/usr/share/doc/zlib1g-dev/examples/enough.c
if [ -r "$enough_c" ] && $cc -O2 -pg -o "$tmp/enough" "$enough_c" 2>/dev/null \
   && (cd "$tmp" && ./enough 250 9 14 >/dev/null && mv gmon.out enough.gmon); then
  built=1
  "$cgmerge" --executable="$tmp/enough" "$tmp/enough.gmon" >"$tmp/enough.xml" || fail "enough: cgmerge"
  "$GPROF" "$tmp/enough" "$tmp/enough.gmon" >"$tmp/enough.txt" 2>/dev/null
  "$cgmerge" "$tmp/enough.txt" >"$tmp/enough-report.xml" || fail "enough: cgmerge of gprof's report"
  same_graph "zlib's enough.c" "$tmp/enough-report.xml" "$tmp/enough.xml"
  grep -q '^examine	examine	[1-9]' "$tmp/arcs.report" || fail "enough: examine's recursive calls were not read"
fi
[ "$built" -gt 0 ] || echo "note: no -pg program could be built here; the bundled profile was checked"

# ---- bad input: file and line named, exit 1 ----
cut_at () { head -n "$1" "$ex/gprof-b.txt" >"$tmp/bad.txt"; }
cut_at 3
expect 1 "$cgmerge" "$tmp/bad.txt" && expect_message "bad.txt:3: the report ends inside the flat profile's heading"
head -c 1500 "$ex/gprof-b.txt" >"$tmp/bad.txt"
expect 1 "$cgmerge" "$tmp/bad.txt" && expect_message "the report ends inside a line"
cut_at 29
expect 1 "$cgmerge" "$tmp/bad.txt" && expect_message "bad.txt:29: the report ends inside a call-graph entry"
sed 's/225000\/225000      expr/225001\/225000      expr/' "$ex/gprof-b.txt" >"$tmp/bad.txt"
expect 1 "$cgmerge" "$tmp/bad.txt" && expect_message "bad.txt:76: eval_all -> expr: 225000 calls here, 225001 on line 28"
sed '28s/.*/   garbage here/' "$ex/gprof-b.txt" >"$tmp/bad.txt"
expect 1 "$cgmerge" "$tmp/bad.txt" && expect_message "bad.txt:28: expected a call count"
sed 's/\[9\]$/[99999999999]/' "$ex/gprof-b.txt" >"$tmp/bad.txt"
expect 1 "$cgmerge" "$tmp/bad.txt" && expect_message "out of range"
sed 's/^  \[11\] _init /  [11] _inot /' "$ex/gprof-b.txt" >"$tmp/bad.txt"
expect 1 "$cgmerge" "$tmp/bad.txt" && expect_message "[11] in the index is not the call graph's _init"
# seconds beyond what 64-bit samples hold (found by fuzzing)
expect 1 "$cgmerge" "$top_srcdir/fuzz/regressions/gprof-report/odd-rows" \
  && expect_message "odd-rows:7: y's seconds make more than 2^53 samples in all"
# a report cut after an entry's dashes, or right after the call graph's
# heading, parses but lacks the rest of the graph (lua 5.4's report cut
# so lost a quarter of its arcs): every such cut of the reports gprof
# printed here is refused, naming a function called whose entry is
# missing; a cut after the last entry loses nothing (the index alone);
# --lenient reads what is there, with the warning
cut_entries () {
  last=$(grep -n -e '^-----------------------------------------------$' "$2" | tail -n 1 | cut -d: -f1)
  for at in $(grep -n -e '^-----------------------------------------------$' -e '^index % time' "$2" | cut -d: -f1); do
    head -n "$at" "$2" >"$tmp/cut.txt"
    if [ "$at" = "$last" ]; then
      expect 0 "$cgmerge" "$tmp/cut.txt" || fail "$1: cut after the last entry (line $at) refused"
      continue
    fi
    cuts=$((cuts + 1))
    cp "$tmp/cut.txt" "$tmp/cut-short.txt"
    expect 1 "$cgmerge" "$tmp/cut.txt" || { fail "$1: cut after line $at read"; continue; }
    grep -Eq '^cgmerge: .*/cut.txt:[0-9]+: (.* is called here, but the call graph has no entry for it .*|the call graph has no entry, but the flat profile counts calls): the report is cut short$' "$tmp/err" \
      || fail "$1: cut after line $at: $(cat "$tmp/err")"
  done
  expect 0 "$cgmerge" --lenient "$tmp/cut-short.txt" && expect_message "the report is cut short; read as it is"
}
cuts=0
cut_entries "exprparse gprof -b" "$tmp/brief.txt"
if [ "$built" = 1 ]; then
  "$GPROF" -b "$tmp/gr" "$tmp/gr.gmon" >"$tmp/grb.txt" 2>/dev/null
  cut_entries "gmonreal gprof -b" "$tmp/grb.txt"
  "$GPROF" "$tmp/gr" "$tmp/gr.gmon" >"$tmp/grb.txt" 2>/dev/null
  cut_entries "gmonreal gprof" "$tmp/grb.txt"
fi
[ "$cuts" -ge 20 ] || fail "test set-up: only $cuts cuts of the reports' call graphs"

# a report of no time (a run shorter than a sample: "no time
# accumulated", "no time propagated") numbers its functions by calls and
# names alone, so a printed function whose only calls are its own
# ("0+1": a qsort comparator, called from the C library, calling itself)
# sorts with the unprinted '_' names before it, and the gap before it is
# theirs: fmt 9.1's tests printed [821] to [1936] unprinted before
# "_init [1937]", which the placeholders took before [11]
cat >"$tmp/idle.c" <<'EOF2'
#include <stdio.h>
#include <stdlib.h>
int _aa_unused_one (int x) { return x * 3; }
int _aa_unused_two (int x) { return x * 5; }
__attribute__((noinline)) int _mm_called (int x) { return x + 1; }
static int depth;
__attribute__((noinline)) int _zz_compare (const void *a, const void *b)
{
  if (depth++ == 0)
    _zz_compare (a, b);
  return *(const int *) a - *(const int *) b;
}
int main (void)
{
  int v[2] = { 2, 1 };
  qsort (v, 2, sizeof v[0], _zz_compare);
  printf ("%d %d %d\n", v[0], v[1], _mm_called (v[0]));
  return 0;
}
EOF2
if $cc -O1 -pg -o "$tmp/idle" "$tmp/idle.c" 2>/dev/null && (cd "$tmp" && ./idle >/dev/null && mv gmon.out idle.gmon); then
  for demangle in --no-demangle ""; do
    "$GPROF" -b $demangle "$tmp/idle" "$tmp/idle.gmon" >"$tmp/idle.txt" 2>/dev/null
    if ! grep -q "no time accumulated" "$tmp/idle.txt"; then
      echo "note: the short run had a sample: its report of no time is not checked"
      break
    fi
    grep -q '^\[[0-9]*\] .* 0+1  *_zz_compare \[[0-9]*\]$' "$tmp/idle.txt" || fail "test set-up: no '0+1' entry: $(grep _zz_compare "$tmp/idle.txt" | head -3)"
    "$cgcost" --format=gprof $demangle "$tmp/idle.txt" >"$tmp/idle.again" || fail "idle $demangle: cgcost"
    cmp -s "$tmp/idle.txt" "$tmp/idle.again" \
      || fail "idle $demangle: printed again otherwise: $(diff "$tmp/idle.txt" "$tmp/idle.again" | head -6)"
  done
else
  echo "note: cannot build and run a -pg program: the report of no time is not checked"
fi

# a text that only begins like a report is no report
printf 'Flat profile:\n\nsomething else 12\n' >"$tmp/bad.txt"
expect 1 "$cgmerge" "$tmp/bad.txt" && expect_message "bad.txt:1: unknown input format"
finish
