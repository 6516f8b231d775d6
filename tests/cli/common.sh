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

# notes FILE: FILE, a view for people, with each note on one line (the
# views wrap notes at 80 columns, the lines after the first indented by
# six spaces), so that a test can grep a note's words across the wraps
notes () {
  awk '/^Note/ { if (n != "") print n; n = $0; next }
       n != "" && /^      [^ ]/ { sub(/^ +/, ""); n = n " " $0; next }
       { if (n != "") print n; n = ""; print }
       END { if (n != "") print n }' "$1"
}

# A name in a report for people as the tsv and XML give it: the reports
# label a bare address with its object ("0x0000000000004290 [gzip]"),
# which the names for programs leave out.  A filter.
unlabel () { sed 's/\(0x[0-9a-fA-F]\{1,\}\) \[[^]/]*\]/\1/g'; }

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

# self_and_calls CALLGRIND — per plain function (no "'N") of a callgrind
# file as cgcost writes it (one position, the first event's cost after
# it): its self cost plus the costs of its calls (calls=N with N > 0; a
# calls=0 line is self cost to callgrind_annotate), as NAME<TAB>SUM (%.0f:
# exact to 2^53, where mawk's %d stops at 2^31).
self_and_calls () {
  awk '
    /^c?fn=\(/ {
      key = substr ($0, 1, index ($0, "=") - 1)
      id = substr ($0, index ($0, "(") + 1); id = substr (id, 1, index (id, ")") - 1)
      rest = substr ($0, index ($0, ")") + 1)
      if (rest != "") names[id] = substr (rest, 2)
      if (key == "fn") current = names[id]
      next
    }
    /^calls=/ { split ($0, word, /[= ]/); count = word[2] + 0; in_call = 1; next }
    /^[0-9+*-]/ { if (!in_call || count > 0) sum[current] += $2; in_call = 0; next }
    END { for (name in sum) if (index (name, "'"'"'") == 0) printf "%s\t%.0f\n", name, sum[name] }' "$1"
}

# annotate_compare TSV ANNOTATED [no-objects] — callgrind_annotate
# --inclusive=yes output against cgcost's tsv totals: every plain
# function name (no "'N"), except names several files or objects share
# (callgrind_annotate keys by file:function), must show our total.
# no-objects: the profile names no objects (folded stacks), so its rows
# have no " [object]".  Prints a summary line.
annotate_compare () {
  awk -F '\t' -v objects="$([ "${3:-}" = no-objects ] && echo 0 || echo 1)" '
    NR == FNR { if (FNR > 1) ours[$1] = $4; next }
    match ($0, /^ *[0-9,]+ \( *[0-9.]+%\)  /) {
      value = substr ($0, 1, RLENGTH); gsub (/ *\(.*$|[ ,]/, "", value)
      rest = substr ($0, RLENGTH + 1)
      # rows end in " [object]"; others are parts of a function in an
      # inlined file, unless the profile names no objects (folded stacks)
      if (objects && rest !~ /\]$/) next
      object_start = 0
      if (objects)
        for (i = length (rest); i > 0; i--) if (substr (rest, i, 2) == " [") { object_start = i; break }
      key = object_start ? substr (rest, 1, object_start - 1) : rest
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

# short_objects TSV — cgcost's tsv with objects by file name, as the
# views print them ("name [libc.so.6]" for "name [/usr/lib/.../libc.so.6]").
short_objects () {
  awk -F '\t' -v OFS='\t' '
    function short (s,   n, parts) {
      if (!match (s, / \[[^]]*\]$/)) return s
      n = split (substr (s, RSTART + 2, RLENGTH - 3), parts, "/")
      return substr (s, 1, RSTART - 1) " [" parts[n] "]"
    }
    NR > 1 { $1 = short($1); if (NF >= 4 && $2 !~ /^[0-9]+$/) $2 = short($2) }
    { print }' "$1"
}

# parse_tree TEXT [UNIT] — one tab-separated row per line of a text
# tree: depth, kind (master or link), link number (0 none), function,
# incl, self, incl%, self%, and the percentage of the function's total
# where the line shows it ("(9.61% in all)"; a total shown as a cost,
# "(1,171,702 Ir in all)", prints as its percentage alike, incl%).
# Columns are found from the header line's titles, whose cost columns
# carry the event's unit (default Ir).
parse_tree () {
  awk -v unit="${2:-Ir}" '
    function trim (s) { gsub (/^ +| +$/, "", s); gsub (/,/, "", s); return s }
    /^  incl%/ {
      n = split ("incl%,self%,incl " unit ",self " unit ",calls", words, ",")
      prev = 0
      for (k = 1; k <= n; k++) {
        i = index (substr ($0, prev + 1), words[k])
        if (i == 0) { end[k] = prev; continue }   # no calls column
        end[k] = prev + i + length (words[k]) - 1
        prev = end[k]
      }
      start = index ($0, "function")
      next
    }
    start == 0 { next }
    {
      for (k = 1; k <= 4; k++) v[k] = trim(substr ($0, (k == 1 ? 1 : end[k - 1] + 1), end[k] - (k == 1 ? 0 : end[k - 1])))
      rest = substr ($0, start)
      depth = 0
      if (match (rest, /^([|] |  )*(\(\+[0-9]+\) )?[|`]-/)) {
        art = substr (rest, 1, RLENGTH); rest = substr (rest, RLENGTH + 1)
        depth = int ((length (art) - 2) / 2) + 1
        if (match (art, /\(\+[0-9]+\)/)) depth += substr (art, RSTART + 2, RLENGTH - 3) - 1
      }
      kind = "master"; number = 0; all = ""
      sub (/ \(recursion: its cost is in the lines above\)$/, "", rest)
      if (match (rest, / \(~?[0-9.]+% in all\)$/)) {
        all = substr (rest, RSTART + 2, RLENGTH - 11); sub (/^~/, "", all); rest = substr (rest, 1, RSTART - 1)
      } else if (match (rest, / \(~?[0-9,.]+ [^ ]+ in all\)$/)) {
        all = trim(substr ($0, 2, 6)); rest = substr (rest, 1, RSTART - 1)
      }
      if (match (rest, / -> \[[0-9]+\]$/)) {
        kind = "link"; number = substr (rest, RSTART + 5, RLENGTH - 6); rest = substr (rest, 1, RSTART - 1)
      } else if (match (rest, / \[[0-9]+\]$/)) {
        number = substr (rest, RSTART + 2, RLENGTH - 3); rest = substr (rest, 1, RSTART - 1)
      }
      sub (/ <cycle [0-9]+>$/, "", rest)
      # an address shows without its leading zeros and with its object:
      # back to the linker'"'"'s name, as callgrind pads it, for the tsv
      if (match (rest, /^0x[0-9a-f]+ \[[^]]*\]$/)) {
        rest = substr (rest, 3, index (rest, " ") - 3)
        while (length (rest) < 16) rest = "0" rest
        rest = "0x" rest
      }
      printf "%d\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", depth, kind, number, rest, v[3], v[4], v[1], v[2], all
    }' "$1"
}

# inline_builds CALLS — data/programs/diff-inline.c built with -pg at -O0
# and -O2 ($tmp/inl.O0, $tmp/inl.O2), each run with CALLS, its gmon.out
# kept ($tmp/gmon.O0, $tmp/gmon.O2) and read with its executable
# ($tmp/O0.xml, $tmp/O2.xml); skips without a compiler that takes -pg
inline_builds () {
  cc=${CC:-gcc}
  command -v "$cc" >/dev/null 2>&1 || skip "no C compiler"
  for o in O0 O2; do
    "$cc" -pg -$o -o "$tmp/inl.$o" "$top_srcdir/data/programs/diff-inline.c" 2>/dev/null || skip "cannot build with -pg"
    (cd "$tmp" && "./inl.$o" "$1" >/dev/null && mv gmon.out "gmon.$o") || fail "inl.$o did not write gmon.out"
    expect 0 "$cgmerge" --executable="$tmp/inl.$o" "$tmp/gmon.$o" && mv "$tmp/out" "$tmp/$o.xml"
  done
}

# amon_setup — for the tests that build programs with libamon: skips
# unless the shared library and amon.pc were built and pkg-config runs;
# sets libdir, CC, pcdir, cflags (amon.pc's Cflags) and portable (its
# portable_cflags variable, empty when it has none).
amon_setup () {
  libdir=$(cd "$top_builddir/src/amon/.libs" 2>/dev/null && pwd) || skip "libamon was not built"
  [ -f "$libdir/libamon.so" ] || skip "libamon was not built shared"
  command -v pkg-config >/dev/null 2>&1 || skip "no pkg-config"
  CC=${CC:-cc}
  pcdir="$top_builddir/src/amon"
  cflags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags amon) || skip "no amon.pc"
  portable=$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=portable_cflags amon) || portable=""
}

# amon_build_with_lib COMPILER NAME FLAGS LIBSRC PROGSRC — $tmp/libNAME.so
# from LIBSRC and the program $tmp/NAME from PROGSRC linked with it, both
# compiled with FLAGS and linked with libamon ($libdir); a failure to build
# fails the test and returns 1.
amon_build_with_lib () {
  # shellcheck disable=SC2086 # the compiler and the flags are words
  $1 -O2 $3 -fPIC -shared -o "$tmp/lib$2.so" "$4" -L"$libdir" -lamon -Wl,-rpath,"$libdir" \
    >"$tmp/build.log" 2>&1 \
    && $1 -O2 $3 -o "$tmp/$2" "$5" -L"$tmp" -l"$2" -Wl,-rpath,"$tmp" \
      -L"$libdir" -lamon -Wl,-rpath,"$libdir" >"$tmp/build.log" 2>&1 \
    || { fail "building $2 ($1 $3): $(head -c 300 "$tmp/build.log")"; return 1; }
}

# amon_arcs_both NAME PRINTED WANT [RENAME] — runs $tmp/NAME, built with
# libamon, with each clock that reads the stack differently (cpu: every
# call and return; sample: the -pg mode's walks at calls and samples): it
# must exit 0 printing PRINTED, and its arcs, "caller>callee:calls"
# sorted and joined by spaces, must be WANT.  RENAME is the body of an
# awk function n(s) that names a function s for the comparison (default:
# return s).
amon_arcs_both () {
  name=$1 printed=$2 want=$3 rename=${4:-return s}
  for clock in cpu sample; do
    rm -f "$tmp/amon.out"
    (cd "$tmp" && AMON_CLOCK=$clock "./$name" >"$tmp/out") || { fail "$name, AMON_CLOCK=$clock, exited $?"; continue; }
    [ "$(cat "$tmp/out")" = "$printed" ] || fail "$name, AMON_CLOCK=$clock: printed '$(cat "$tmp/out")', not '$printed'"
    "$cgcost" --format=tsv --arcs "$tmp/amon.out" >"$tmp/tsv" 2>&1 \
      || { fail "$name, AMON_CLOCK=$clock: cannot read its amon.out: $(head -c 300 "$tmp/tsv")"; continue; }
    arcs=$(awk -F '\t' "function n(s) { $rename } NR > 1 { print n(\$1) \">\" n(\$2) \":\" \$3 }" "$tmp/tsv" \
      | sort | tr '\n' ' ')
    [ "$arcs" = "$want" ] || fail "$name, AMON_CLOCK=$clock: arcs '$arcs', not '$want'"
  done
}

# amon_arcs_counted WHAT CALLEES — the arcs into the routines whose
# names match the awk regular expression CALLEES in $tmp/amon.out,
# "caller<TAB>callee<TAB>calls" sorted, must be $tmp/truth's (the
# program's own counts, sorted); says so, or fails naming WHAT.
amon_arcs_counted () {
  "$cgmerge" "$tmp/amon.out" | "$cgcost" --format=tsv --arcs \
    | awk -F '\t' -v callees="$2" 'NR > 1 && $2 ~ callees { print $1 "\t" $2 "\t" $3 }' | sort >"$tmp/arcs" \
    || { fail "$1: cannot read the profile"; return 1; }
  if cmp -s "$tmp/arcs" "$tmp/truth"; then
    echo "$1: $(wc -l <"$tmp/truth") arcs, $(awk '{ s += $3 } END { print s }' "$tmp/truth") calls, as counted"
  else
    fail "$1: arcs differ from the program's counts (profile <, program >): $(diff "$tmp/arcs" "$tmp/truth" | head -n 8)"
  fi
}

# noreturn_check PROFILE WHAT [PREFIX] — for the perf-noreturn tests:
# PROFILE's functions and arcs (cgcost's tsv) as the tests' program
# main > victim > fail > die makes them (fail ends with its call of die,
# which does not return, and victim follows it in memory), its functions
# named PREFIX (nr:: in C++) before their names; its functions' tsv left
# in $tmp/functions.  WHAT names the profile in failures.
noreturn_check () {
  expect 0 "$cgcost" --format=tsv "$1" || fail "cgcost $1"
  mv "$tmp/out" "$tmp/functions"
  expect 0 "$cgcost" --format=tsv --arcs "$1" || fail "cgcost --arcs $1"
  awk -F '\t' -v what="$2" -v p="${3:-}" '
    NR == FNR { total[$1] = $4; next }
    { arc[$1 " > " $2] = $4 }
    END {
      bad = 0
      v = p "victim"; f = p "fail"; d = p "die"
      for (a in arc) if (a == v " > " d || a == v " > " v || a ~ /^\[nr\]/ || a ~ / > \[nr\]$/) { print what ": arc " a " " arc[a]; bad = 1 }
      if (arc["main > " v] == "" || arc["main > " v] != total[v]) { print what ": main > " v " " arc["main > " v] ", " v " " total[v]; bad = 1 }
      if (arc[v " > " f] == "" || arc[v " > " f] != total[f]) { print what ": " v " > " f " " arc[v " > " f] ", " f " " total[f]; bad = 1 }
      if (arc[f " > " d] == "" || arc[f " > " d] != total[d]) { print what ": " f " > " d " " arc[f " > " d] ", " d " " total[d]; bad = 1 }
      # victim holds every sample of main (main has no work of its own)
      if (total[v] < 0.97 * total["main"]) { print what ": " v " " total[v] " of main " total["main"]; bad = 1 }
      exit bad
    }' "$tmp/functions" "$tmp/out" >"$tmp/check.log" || fail "$(cat "$tmp/check.log")"
}
