#!/bin/sh
# Oracle: GNU gprof.  data/programs/gmonreal*.c is shaped like the real
# programs (sqlite3, zlib, bzip2, dash, a C++ XML parser) whose gmon.out
# files were compared with gprof: seven cycles, one called only from
# inside another, a cycle through a function pointer, static functions of
# one name in three files, .cold pieces and .constprop/.isra clones, code
# in several sections, identical code folded to one address, many ties.
# It is built with gcc -pg -O2 as a non-PIE, a PIE and (where multilib
# works) a 32-bit program and run twice; `cgcost --method=gprof
# --format=gprof` must print exactly what `gprof -b` prints, for gprof's
# options (-p -q -z -P -Q -e -E -f -F -k -n -N -c -w, specs and FROM/TO
# arcs), for the two runs summed, for gprof -s's gmon.sum (without a
# warning), and with -c on
# two files (gprof scans the code once, after the last file).
# data/programs/gmonreal-cxx.cc does the same for C++ names, which gprof
# prints demangled.
. "${top_srcdir:-.}/tests/cli/common.sh"
GPROF=$(command -v gprof) || skip "no gprof"
cc=${CC:-cc}
cxx=${CXX:-g++}
programs="$data/programs"

# compare LABEL EXE "GPROF-OPTIONS" "CGCOST-OPTIONS" XML FILES... — gprof
# -b on FILES against cgcost on XML (the same files through cgmerge)
compare () {
  label=$1 exe=$2 gopts=$3 copts=$4 xml=$5
  shift 5
  # shellcheck disable=SC2086
  "$GPROF" -b $gopts "$exe" "$@" >"$tmp/want" 2>"$tmp/want.err" || fail "$label: gprof -b $gopts failed"
  # shellcheck disable=SC2086
  "$cgcost" --method=gprof --format=gprof $copts "$xml" >"$tmp/got" 2>"$tmp/got.err" \
    || fail "$label: cgcost $copts: $(head -c 300 "$tmp/got.err")"
  cmp -s "$tmp/want" "$tmp/got" \
    || fail "$label: cgcost --format=gprof $copts differs from gprof -b $gopts: $(diff "$tmp/want" "$tmp/got" | head -6)"
}

# options EXE XML FILE F1 F2 F3 — gprof's options with F1 a cycle member,
# F2 a function many others call, F3 a function with callees
options () {
  exe=$1 xml=$2 file=$3 f1=$4 f2=$5 f3=$6
  while IFS='|' read -r g c; do
    compare "$(basename "$exe") $g" "$exe" "$g" "$c" "$xml" "$file"
  done <<EOF
|
-p|-p
-q|-q
-z|-z
-p -z|-p -z
-zp|-zp
-zq$f3|-zq$f3
-w100 -q|-w100 -q
-P|-P
-Q|-Q
-e $f1|--hide-entry=$f1
-e main -e $f2 -e $f3|--hide-entry=main --hide-entry=$f2 --hide-entry=$f3
-E $f1|-E $f1
-E $f2|-E $f2
-E main|-E main
-f $f1|--show-entry=$f1
-f $f3|--show-entry=$f3
-F $f1|-F $f1
-F $f3|-F $f3
-k $f1/$f2|-k $f1/$f2
-k /$f2|-k /$f2
-p$f2|-p$f2
-P$f2|-P$f2
-p$f1 -p$f2 -q|-p$f1 -p$f2 -q
-q$f1|-q$f1
-Q$f1|-Q$f1
-q$f3/$f1|-q$f3/$f1
-Q$f3/$f1|-Q$f3/$f1
-Q/$f2|-Q/$f2
-n $f3|-n $f3
-N $f1|-N $f1
-n main -N $f2|-n main -N $f2
-F $f3 -k $f3/$f2 -z|-F $f3 -k $f3/$f2 -z
-w 40 -z|-w 40 -z
EOF
}

# runs EXE DIR ROUNDS1 ROUNDS2 — two runs (DIR/gmon1.out, DIR/gmon2.out)
# and their gmon.sum
runs () {
  mkdir -p "$2"
  (cd "$2" && "$1" "$3" >/dev/null && mv gmon.out gmon1.out && "$1" "$4" >/dev/null \
    && mv gmon.out gmon2.out && "$GPROF" -s "$1" gmon1.out gmon2.out)
}

# whole EXE DIR LABEL EXTRA-CGCOST-OPTIONS — the files summed, gmon.sum,
# and -c on two files
whole () {
  exe=$1 run=$2 label=$3
  "$cgmerge" --executable="$exe" "$run/gmon1.out" "$run/gmon2.out" >"$tmp/two.xml" || fail "$label: cgmerge two files"
  validate "$tmp/two.xml"
  compare "$label two files" "$exe" "" "$4" "$tmp/two.xml" "$run/gmon1.out" "$run/gmon2.out"
  compare "$label two files -q -z" "$exe" "-q -z" "-q -z $4" "$tmp/two.xml" "$run/gmon1.out" "$run/gmon2.out"
  "$GPROF" -b "$exe" "$run/gmon.sum" >"$tmp/want"
  "$cgcost" --executable="$exe" --symbols=gprof --format=gprof $4 "$run/gmon.sum" >"$tmp/got" 2>"$tmp/got.err" \
    || fail "$label: cgcost gmon.sum"
  cmp -s "$tmp/want" "$tmp/got" || fail "$label: gmon.sum differs: $(diff "$tmp/want" "$tmp/got" | head -6)"
  # gprof -s writes arcs as the functions' first bytes, not the hooks':
  # no warning that the profile is of another build (nor, with gprof's
  # choice of symbols asked for, of the clones it leaves out)
  [ -s "$tmp/got.err" ] && fail "$3: cgcost gmon.sum warns: $(head -c 300 "$tmp/got.err")"
  # -c: the code is scanned after the last file, so static arcs follow
  # the second file's arcs
  "$cgmerge" -c --executable="$exe" "$run/gmon1.out" "$run/gmon2.out" >"$tmp/c.xml" || fail "$label: cgmerge -c"
  validate "$tmp/c.xml"
  compare "$label -c two files" "$exe" "-c" "$4" "$tmp/c.xml" "$run/gmon1.out" "$run/gmon2.out"
  "$GPROF" -b -c -q "$exe" "$run/gmon1.out" "$run/gmon2.out" >"$tmp/want"
  "$cgcost" -c --executable="$exe" --format=gprof -q $4 "$run/gmon1.out" "$run/gmon2.out" >"$tmp/got"
  cmp -s "$tmp/want" "$tmp/got" || fail "$label: cgcost -c -q on two files differs: $(diff "$tmp/want" "$tmp/got" | head -6)"
}

built=0
# pie-g: with debugging information gprof's index names the file of each
# static function, "fmt_num (gmonreal-walk.c)" (cgtools reads it with libdw);
# clang-g: clang's code and DWARF, which has no .debug_aranges
variants="nopie pie m32"
[ "${CG_DWARF:-yes}" = yes ] && variants="nopie pie pie-g m32"
[ "${CG_DWARF:-yes}" = yes ] && command -v clang >/dev/null 2>&1 && variants="$variants clang-g"
for variant in $variants; do
  flags=$(variant_flags $variant)
  compiler=$cc
  [ $variant = clang-g ] && compiler=clang
  exe="$tmp/gmonreal-$variant"
  # -O2 makes the clones and pieces; no sibling calls keeps the recursion
  $compiler -pg -O2 -fno-optimize-sibling-calls $flags -o "$exe" "$programs/gmonreal-main.c" \
    "$programs/gmonreal-parse.c" "$programs/gmonreal-walk.c" 2>/dev/null || continue
  built=$((built + 1))
  run="$tmp/run-$variant"
  runs "$exe" "$run" 1000 300 || { fail "$variant: gmonreal failed"; continue; }
  "$cgmerge" --executable="$exe" "$run/gmon1.out" >"$tmp/one.xml" || fail "$variant: cgmerge"
  validate "$tmp/one.xml"
  if [ $variant = pie-g ] || [ $variant = clang-g ]; then
    "$GPROF" -b -q "$exe" "$run/gmon1.out" | grep -q ' (gmonreal-[a-z]*\.c)' \
      || fail "$variant: gprof's index names no file of a static function"
  fi
  options "$exe" "$tmp/one.xml" "$run/gmon1.out" expr gr_spin gr_walk
  # -c with arc specs: gprof adds the static arcs after the specs deleted
  # arcs, so a deleted arc whose call is in the code comes back as 0/0
  # (cgcost -c scans the executable the document names)
  compare "$variant -c -q FROM/TO" "$exe" "-c -qfactor/fmt_num" "-c -qfactor/fmt_num" "$tmp/one.xml" "$run/gmon1.out"
  compare "$variant -c -k" "$exe" "-c -k /gr_spin -k main/gr_walk" "-c -k /gr_spin -k main/gr_walk" "$tmp/one.xml" \
    "$run/gmon1.out"
  "$cgmerge" -c --executable="$exe" "$run/gmon1.out" >"$tmp/c1.xml"
  compare "$variant cgmerge -c, cgcost -c -Q FROM/TO" "$exe" "-c -Qexpr/term" "-c -Qexpr/term" "$tmp/c1.xml" "$run/gmon1.out"
  whole "$exe" "$run" "$variant" ""
  # cgcycles numbers the cycles as gprof does: the members of <cycle N>
  "$GPROF" -b -q "$exe" "$run/gmon1.out" \
    | sed -n 's/^  *[0-9.]*  *[0-9.]*  *[0-9+]*  *\([^ ]*\) <cycle \([0-9]*\)> \[.*/\2 \1/p' | sort -u >"$tmp/want"
  "$cgcycles" --format=text "$tmp/one.xml" \
    | awk '/^<cycle/ { split($0, a, "[ >]"); c = a[2] } /^    / { print c, $2 }' | sort -u >"$tmp/got"
  [ "$(wc -l <"$tmp/want")" -ge 14 ] || fail "$variant: gprof sees fewer cycle members than gmonreal has"
  cmp -s "$tmp/want" "$tmp/got" || fail "$variant: cycles differ from gprof's: $(diff "$tmp/want" "$tmp/got" | head -4)"
done
[ "$built" -gt 0 ] || skip "cannot build programs with gcc -pg"

# a 32-bit program's gmon.out with a 64-bit executable, and the other way
# round: the records misread, and the message says why
if [ -s "$tmp/run-m32/gmon1.out" ] && [ -s "$tmp/run-nopie/gmon1.out" ]; then
  expect 1 "$cgmerge" --executable="$tmp/gmonreal-nopie" "$tmp/run-m32/gmon1.out" \
    && expect_message "written by a 32-bit program, but $tmp/gmonreal-nopie is a 64-bit executable"
  expect 1 "$cgmerge" --executable="$tmp/gmonreal-m32" "$tmp/run-nopie/gmon1.out" \
    && expect_message "written by a 64-bit program, but $tmp/gmonreal-m32 is a 32-bit executable"
fi
# the same program built without -pg: its addresses may well fit, but
# nothing in it counted the calls
if [ -s "$tmp/run-nopie/gmon1.out" ] \
   && $cc -O2 -fno-optimize-sibling-calls $(variant_flags nopie) -o "$tmp/gmonreal-plain" "$programs/gmonreal-main.c" \
        "$programs/gmonreal-parse.c" "$programs/gmonreal-walk.c" 2>/dev/null; then
  expect 1 "$cgmerge" --executable="$tmp/gmonreal-plain" "$tmp/run-nopie/gmon1.out" \
    && expect_message "calls no profiling hook (mcount): it was not built with -pg"
fi

# ---- the debugging information in a separate file, found as gdb and
# gprof find it (.gnu_debuglink): the index still names static functions'
# files ----
link="$tmp/debuglink"
if [ -x "$tmp/gmonreal-pie-g" ] && command -v objcopy >/dev/null 2>&1; then
  mkdir -p "$link"
  cp "$tmp/gmonreal-pie-g" "$link/prog"
  (cd "$link" && objcopy --only-keep-debug prog prog.debug && objcopy --strip-debug prog \
     && objcopy --add-gnu-debuglink=prog.debug prog) || fail "debuglink: objcopy"
  "$GPROF" -b -q "$link/prog" "$tmp/run-pie-g/gmon1.out" | grep -q ' (gmonreal-[a-z]*\.c)' \
    || fail "debuglink: gprof names no file of a static function"
  "$cgmerge" --executable="$link/prog" "$tmp/run-pie-g/gmon1.out" >"$tmp/link.xml" || fail "debuglink: cgmerge"
  compare "debuglink -q" "$link/prog" "-q" "-q" "$tmp/link.xml" "$tmp/run-pie-g/gmon1.out"
  # moved into .debug/, where gdb and bfd look too
  mkdir -p "$link/.debug" && mv "$link/prog.debug" "$link/.debug/"
  "$cgmerge" --executable="$link/prog" "$tmp/run-pie-g/gmon1.out" >"$tmp/link.xml" || fail "debuglink .debug/: cgmerge"
  compare "debuglink .debug/ -q" "$link/prog" "-q" "-q" "$tmp/link.xml" "$tmp/run-pie-g/gmon1.out"
fi

# ---- no arcs: every call into profiled code comes from code without -pg;
# gprof then scans for no static calls (-c) and prints no call graph ----
mkdir -p "$tmp/noarcs"
printf 'double heavy (int);\nint printf (const char *, ...);\nint main (void) { printf ("%%g\\n", heavy (30000000)); return 0; }\n' \
  >"$tmp/noarcs/main.c"
printf 'volatile double s;\ndouble heavy (int n) { for (int i = 0; i < n; i++) s += i * 0.5; return s; }\n' >"$tmp/noarcs/heavy.c"
if $cc -O0 -c -o "$tmp/noarcs/heavy.o" "$tmp/noarcs/heavy.c" 2>/dev/null \
   && $cc -pg -O0 -no-pie -o "$tmp/noarcs/prog" "$tmp/noarcs/main.c" "$tmp/noarcs/heavy.o" 2>/dev/null \
   && (cd "$tmp/noarcs" && ./prog >/dev/null); then
  "$cgmerge" -c --executable="$tmp/noarcs/prog" "$tmp/noarcs/gmon.out" >"$tmp/noarcs.xml" || fail "no arcs: cgmerge -c"
  compare "no arcs -c" "$tmp/noarcs/prog" "-c" "" "$tmp/noarcs.xml" "$tmp/noarcs/gmon.out"
  grep -q "Call graph" "$tmp/got" && fail "no arcs: cgcost printed a call graph"
fi

# ---- clang's thunks and global initialisers: DWARF line 0, for which
# gprof's index names no file ----
if [ "${CG_DWARF:-yes}" = yes ] && command -v clang++ >/dev/null 2>&1 \
   && clang++ -O0 -g -pg -o "$tmp/thunks" "$programs/gmonreal-thunks.cc" 2>/dev/null \
   && (cd "$tmp" && ./thunks >/dev/null; [ -s gmon.out ] && mv gmon.out thunks.gmon); then
  "$GPROF" -b -z "$tmp/thunks" "$tmp/thunks.gmon" >"$tmp/thunks.gprof"
  grep -q '__cxx_global_var_init$' "$tmp/thunks.gprof" && grep -q 'A::~A() (gmonreal-thunks.cc)' "$tmp/thunks.gprof" \
    || fail "thunks: gprof's index does not look as expected"
  "$cgmerge" --executable="$tmp/thunks" "$tmp/thunks.gmon" >"$tmp/thunks.xml" || fail "thunks: cgmerge"
  compare "clang++ -g thunks -z" "$tmp/thunks" "-z" "-z" "$tmp/thunks.xml" "$tmp/thunks.gmon"
fi

# ---- C++ -O2 -g: gcc ends main's sequence (.text.startup) with a row at
# its end address, which libdw sorts after the sequence's end; crtstuff's
# frame_dummy, register_tm_clones, deregister_tm_clones and
# __do_global_dtors_aux lie between it and the unit's next sequence, in
# no sequence binutils sees: gprof's index names no file for them ----
if [ "${CG_DWARF:-yes}" = yes ] && $cxx -O2 -g -pg -o "$tmp/strings" "$programs/gmonreal-strings.cc" 2>/dev/null \
   && (cd "$tmp" && ./strings 100000 >/dev/null && mv gmon.out strings.gmon); then
  "$cgmerge" --executable="$tmp/strings" "$tmp/strings.gmon" >"$tmp/strings.xml" || fail "strings: cgmerge"
  for o in "" -z; do
    compare "C++ -O2 -g strings $o" "$tmp/strings" "$o" "$o" "$tmp/strings.xml" "$tmp/strings.gmon"
  done
  grep -q ' frame_dummy$\| frame_dummy  ' "$tmp/want" && grep -q 'stl_algo.h)' "$tmp/want" \
    || fail "strings: gprof's index does not look as expected"
fi

# ---- the rows of a DWARF 5 line table before its first DW_LNS_set_file:
# gcc makes the header whose static function begins the unit file 1, and
# gprof (binutils 2.40) names those rows after file 0, the .c file; the
# same program as DWARF 4, at -O2, with LTO, 32-bit and by clang ----
if [ "${CG_DWARF:-yes}" = yes ]; then
  while IFS='|' read -r compiler flags; do
    what="gmonreal-dwarf5 $compiler $flags"
    exe="$tmp/dwarf5"
    rm -f "$tmp/gmon.out"
    # shellcheck disable=SC2086
    $compiler -pg $flags -o "$exe" "$programs/gmonreal-dwarf5.c" 2>/dev/null || continue
    (cd "$tmp" && "$exe" 20000 </dev/null >/dev/null) || { fail "$what: the program failed"; continue; }
    "$cgmerge" --executable="$exe" "$tmp/gmon.out" >"$tmp/dwarf5.xml" || { fail "$what: cgmerge"; continue; }
    for o in "" -q -z; do
      compare "$what $o" "$exe" "$o" "$o" "$tmp/dwarf5.xml" "$tmp/gmon.out"
    done
    # the case itself, and a header function reached by a set_file
    if [ "$compiler $flags" = "$cc -gdwarf-5" ]; then
      grep -q 'd5_mix (gmonreal-dwarf5\.c)' "$tmp/want" && grep -q 'd5_tail (gmonreal-dwarf5\.h)' "$tmp/want" \
        || fail "$what: gprof's index does not look as expected"
    fi
  done <<EOF2
$cc|-gdwarf-5
$cc|-gdwarf-4
$cc|-O2 -gdwarf-5
$cc|-O2 -flto -gdwarf-5
$cc|-m32 -gdwarf-5
clang|-gdwarf-5
clang|-O2 -gdwarf-5
EOF2
fi

# ---- a row at a line sequence's end address: gcc leaves one after a
# cold section's last call to a noreturn function (gawk's regerror.cold,
# a .loc after "call abort"), and libdw sorts it after the sequence's end.
# It belongs to the cold sequence, not to the next one, whose rows before
# its first set_file gprof names after file 0: the same program as above
# at -O2 with such a .loc after d5_walk.cold's last instruction, and main
# in .text, so that the sequence after the cold one is the unit's .text,
# which begins with the header's d5_mix ----
if [ "${CG_DWARF:-yes}" = yes ] && $cc -pg -O2 -gdwarf-5 -S -o "$tmp/trail.s" "$programs/gmonreal-dwarf5.c" 2>/dev/null; then
  c_file=$(awk '$1 == ".file" && $2 ~ /^[1-9]/ && $3 ~ /gmonreal-dwarf5\.c"$/ { print $2; exit }' "$tmp/trail.s")
  awk -v f="$c_file" '
    /\.section\t\.text\.startup/ { print "\t.text"; next }
    { print }
    /^d5_walk\.cold:$/ { cold = 1 }
    cold && /^\tjmp\t/ { print "\t.loc " f " 19 24 is_stmt 0 view .LVUtrail"; cold = 0 }' "$tmp/trail.s" >"$tmp/trail-e.s"
  if [ -n "$c_file" ] && grep -q LVUtrail "$tmp/trail-e.s" && $cc -pg -gdwarf-5 -o "$tmp/trail" "$tmp/trail-e.s" 2>/dev/null \
     && (cd "$tmp" && rm -f gmon.out && ./trail 20000 >/dev/null); then
    "$cgmerge" --executable="$tmp/trail" "$tmp/gmon.out" >"$tmp/trail.xml" || fail "trailing row: cgmerge"
    compare "trailing row" "$tmp/trail" "" "" "$tmp/trail.xml" "$tmp/gmon.out"
    grep -q 'd5_mix (gmonreal-dwarf5\.c)' "$tmp/want" || echo "note: gprof names d5_mix's file otherwise here"
  fi
fi

# ---- code past its unit's range: gcc's assembly edited so that .Letext0,
# where the unit's range in .text ends, comes before its last function,
# sh_last.  binutils adds a unit's line sequences to its ranges when it
# reads the unit's line table, at the first lookup inside the unit's
# ranges, and gprof looks its symbols up in .symtab order: sh_last gets
# its file when a symbol of the unit precedes it in .symtab, and none
# when it comes first (a .type directive at the top of the assembly) ----
# shortunit FLAGS ORDER — builds $tmp/shortunit, ORDER "first" or "last"
shortunit () {
  # shellcheck disable=SC2086
  $cc -pg -S $1 -o "$tmp/shortunit.s" "$programs/gmonreal-shortunit.c" 2>/dev/null || return 1
  awk -v order="$2" '
    NR == 1 { print; if (order == "first") print "\t.type\tsh_last, @function"; next }
    /^\.Letext0:$/ { next }
    /^\t\.type\tsh_last, @function$/ { print ".Letext0:" }
    { print }' "$tmp/shortunit.s" >"$tmp/shortunit-edited.s"
  [ "$(grep -c '^\.Letext0:$' "$tmp/shortunit-edited.s")" = 1 ] || return 1
  # shellcheck disable=SC2086
  $cc -pg $1 -o "$tmp/shortunit" "$tmp/shortunit-edited.s" 2>/dev/null
}
if [ "${CG_DWARF:-yes}" = yes ]; then
  while IFS='|' read -r flags order; do
    what="gmonreal-shortunit $flags, sh_last $order in .symtab"
    rm -f "$tmp/gmon.out"
    shortunit "$flags" "$order" || continue
    (cd "$tmp" && ./shortunit 20000 </dev/null >/dev/null) || { fail "$what: the program failed"; continue; }
    "$cgmerge" --executable="$tmp/shortunit" "$tmp/gmon.out" >"$tmp/shortunit.xml" || { fail "$what: cgmerge"; continue; }
    for o in "" -q -z; do
      compare "$what $o" "$tmp/shortunit" "$o" "$o" "$tmp/shortunit.xml" "$tmp/gmon.out"
    done
    # the case itself: sh_last outside the unit's range, named or not
    grep -q 'sh_mix (gmonreal-shortunit\.c)' "$tmp/want" || fail "$what: gprof's index names no file"
    if [ "$order" = last ]; then
      grep -q 'sh_last (gmonreal-shortunit\.c)' "$tmp/want" || fail "$what: gprof names no file for sh_last"
    else
      grep -q 'sh_last (' "$tmp/want" && fail "$what: gprof names a file for sh_last"
    fi
  done <<EOF2
-g|last
-gdwarf-4|last
-g|first
-g -m32|last
EOF2
fi

# ---- C++: names printed demangled ----
if [ "${CG_DEMANGLE:-yes}" != yes ]; then
  echo "cgtools was built without libiberty: C++ names are not demangled, not compared"
  finish
fi
for variant in nopie m32; do
  case $variant in
    nopie) flags="-no-pie" ;;
    m32) flags="-m32" ;;
  esac
  exe="$tmp/gmonreal-cxx-$variant"
  $cxx -pg -O2 -fno-optimize-sibling-calls $flags -o "$exe" "$programs/gmonreal-cxx.cc" 2>/dev/null || continue
  run="$tmp/cxx-$variant"
  runs "$exe" "$run" 1000 300 || { fail "C++ $variant: gmonreal-cxx failed"; continue; }
  "$cgmerge" --executable="$exe" "$run/gmon1.out" >"$tmp/one.xml" || fail "C++ $variant: cgmerge"
  validate "$tmp/one.xml"
  # specs name functions by their linker names, as in gprof
  options "$exe" "$tmp/one.xml" "$run/gmon1.out" _ZN12_GLOBAL__N_16Parser4itemEv _ZN4work5weighEi main
  compare "C++ $variant --no-demangle" "$exe" "--no-demangle" "--no-demangle" "$tmp/one.xml" "$run/gmon1.out"
  compare "C++ $variant --no-demangle -z" "$exe" "--no-demangle -z" "--no-demangle -z" "$tmp/one.xml" "$run/gmon1.out"
  # the last of the two wins
  compare "C++ $variant --no-demangle --demangle" "$exe" "--no-demangle --demangle" "--no-demangle --demangle" \
    "$tmp/one.xml" "$run/gmon1.out"
  compare "C++ $variant --demangle --no-demangle" "$exe" "--demangle --no-demangle" "--demangle --no-demangle" \
    "$tmp/one.xml" "$run/gmon1.out"
  whole "$exe" "$run" "C++ $variant" ""
done
finish
