# common.sh — sourced by every end-to-end test: paths, a scratch
# directory, and small assertion helpers.  Tests count failures and exit
# 1 at the end (77 to skip), as automake's harness expects.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
cgmerge="$top_builddir/src/tools/cgmerge"
cgcycles="$top_builddir/src/tools/cgcycles"
cgcost="$top_builddir/src/tools/cgcost"
cgtree="$top_builddir/src/tools/cgtree"
schema="$top_srcdir/formats/cgtools.rng"
validator="$top_builddir/tests/cg-validate"
data="$top_srcdir/data"
LC_ALL=C
export LC_ALL
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgtools-test.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
failures=0

# make check-valgrind: every tool runs under memcheck through a wrapper
# (CG_VALGRIND holds the valgrind command line)
if [ -n "${CG_VALGRIND:-}" ]; then
  mkdir "$tmp/bin"
  for tool in cgmerge cgcycles cgcost cgtree; do
    eval "real=\$$tool"
    printf '#!/bin/sh\nexec %s %s "$@"\n' "$CG_VALGRIND" "$real" >"$tmp/bin/$tool"
    chmod +x "$tmp/bin/$tool"
    eval "$tool=\$tmp/bin/\$tool"
  done
fi

fail () {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

skip () {
  echo "SKIP: $*"
  exit 77
}

finish () {
  if [ "$failures" -gt 0 ]; then
    echo "$failures check(s) failed"
    exit 1
  fi
  exit 0
}

# expect STATUS COMMAND... — runs COMMAND (stdout in $tmp/out, stderr in
# $tmp/err) and checks its exit status.
expect () {
  want=$1
  shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  got=$?
  if [ "$got" -ne "$want" ]; then
    fail "$* exited $got, expected $want: $(head -c 400 "$tmp/err")"
    return 1
  fi
  return 0
}

# expect_message FIXED-STRING — the last command's stderr contains it.
expect_message () {
  grep -F -q -- "$1" "$tmp/err" || fail "stderr lacks '$1': $(head -c 400 "$tmp/err")"
}

validate () {
  "$validator" "$schema" "$@" || fail "not valid cgtools XML: $*"
}

# total_of TSV FUNCTION — the total column of FUNCTION's row.
total_of () {
  awk -F '\t' -v f="$2" '$1 == f { print $4 }' "$1"
}

# annotate_compare TSV ANNOTATED — callgrind_annotate --inclusive=yes
# output against cgcost's tsv totals: every plain function name (no
# "'N"), except names several files or objects share (callgrind_annotate
# keys by file:function), must show our total.  Prints a summary line.
annotate_compare () {
  awk -F '\t' '
    NR == FNR { if (FNR > 1) ours[$1] = $4; next }
    match ($0, /^ *[0-9,]+ \( *[0-9.]+%\)  /) {
      value = substr ($0, 1, RLENGTH); gsub (/ *\(.*$|[ ,]/, "", value)
      rest = substr ($0, RLENGTH + 1)
      if (rest !~ /\]$/) next
      object_start = 0
      for (i = length (rest); i > 0; i--) if (substr (rest, i, 2) == " [") { object_start = i; break }
      key = substr (rest, 1, object_start - 1)
      fn = substr (key, index (key, ":") + 1)
      if (fn ~ /'"'"'/ || fn == "PROGRAM TOTALS") next
      rows++
      seen[fn]++
      annotated[fn] = value
    }
    END {
      for (fn in annotated) {
        if (seen[fn] > 1 || !(fn in ours)) { skipped++; continue }
        compared++
        if (ours[fn] != annotated[fn]) { wrong++; if (wrong <= 5) print "  " fn ": ours " ours[fn] ", callgrind_annotate " annotated[fn] }
      }
      printf "%d rows, %d compared, %d left out, %d different\n", rows, compared, skipped, wrong
      exit (wrong > 0 || compared < rows * 0.8)
    }' "$1" "$2"
}

# variant_flags VARIANT — the compiler flags of the builds the gmon tests
# make of each program: nopie, pie, pie-g (with debugging information),
# clang-g (the same, built by clang), m32 (where multilib is installed)
variant_flags () {
  case $1 in
    nopie) echo "-no-pie" ;;
    pie) echo "-pie -fPIE" ;;
    pie-g|clang-g) echo "-pie -fPIE -g" ;;
    m32) echo "-m32" ;;
  esac
}
