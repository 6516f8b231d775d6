#!/bin/sh
# Two static functions of one name in two files of a program are two
# functions in libamon's profile, as in gprof's (which lists each apart):
# the reader merged every routine of one name in one object, so that
# fa's 1000 calls of its helper and fb's 10 of its own became 1010 calls
# of one helper, and a.c's walk calling b.c's walk through fb read as a
# recursion.  Each is in the object PATH@FILE, its source file's name
# from the program's symbol table (PATH@0xADDRESS where the program is
# gone), as the gmon.out reader names them.  Oracle: the program's
# structure, and gprof's call graph of the same program built with -pg
# when gprof is installed (noipa: gprof takes a clone such as
# walk.constprop.0 for the symbol before it).
. "${top_srcdir:-.}/tests/cli/common.sh"
lib="$top_builddir/src/amon/libamon.la"
[ -f "$lib" ] || skip "libamon was not built"
LIBTOOL=${LIBTOOL:-"$top_builddir/libtool"}
CC=${CC:-cc}
cat >"$tmp/a.c" <<'SRC'
__attribute__ ((noipa)) static int helper (int x) { return x * 3 + 1; }
int fb (int);
__attribute__ ((noipa)) static int walk (int x) { return x > 0 ? fb (x - 1) + 1 : 0; }
int fa (int x)
{
  int s = 0;
  for (int i = 0; i < 1000; i++)
    s += helper (x + i);
  return s + walk (3);
}
SRC
cat >"$tmp/b.c" <<'SRC'
__attribute__ ((noipa)) static int helper (int x) { return x ^ 7; }
__attribute__ ((noipa)) static int walk (int x) { return x + helper (x); }
int fb (int x)
{
  int s = 0;
  for (int i = 0; i < 10; i++)
    s += helper (x + i);
  return s + walk (x);
}
SRC
cat >"$tmp/m.c" <<'SRC'
#include <stdio.h>
int fa (int);
int main (void) { printf ("%d\n", fa (1)); return 0; }
SRC

# arcs FILE — "caller callee calls" of a profile, the object of a name
# that cgtools puts apart cut to what tells it apart (helper@a.c)
arcs () {
  "$cgcost" --format=tsv --arcs "$@" | awk -F '\t' 'NR > 1 { print $1 "\t" $2 "\t" $3 }' \
    | sed 's/ \[[^]]*@\([^]@]*\)\]/@\1/g' | sort
}

check () {
  what=$1
  shift
  $LIBTOOL --mode=link --tag=CC $CC -O2 "$@" -o "$tmp/prog" "$tmp/a.c" "$tmp/b.c" "$tmp/m.c" "$lib" \
    >"$tmp/link.log" 2>&1 || { fail "$what: cannot build: $(cat "$tmp/link.log")"; return; }
  rm -f "$tmp/amon.out"
  (cd "$tmp" && ./prog >/dev/null) || { fail "$what: the program failed"; return; }
  arcs "$tmp/amon.out" >"$tmp/got" || { fail "$what: cgcost"; return; }
  # each helper apart with its own calls, named after its file
  n=$(awk -F '\t' '$2 ~ /^helper@/' "$tmp/got" | wc -l)
  [ "$n" = 3 ] || fail "$what: $n arcs into helper, want 3 (fa 1000, fb 30 in all)"
  awk -F '\t' '$1 == "fa" && $2 == "helper@a.c" && $3 == 1000 { ok = 1 } END { exit !ok }' "$tmp/got" \
    || fail "$what: a.c's helper does not have fa's 1000 calls: $(cat "$tmp/got")"
  awk -F '\t' '$1 == "walk@b.c" && $2 == "helper@b.c" && $3 == 1 { ok = 1 } END { exit !ok }' "$tmp/got" \
    || fail "$what: b.c's walk does not call b.c's helper once: $(cat "$tmp/got")"
  helpers=$("$cgcost" --format=tsv "$tmp/amon.out" | awk -F '\t' '$1 ~ /^helper/ { print $2 }' | sort -n | tr '\n' ' ')
  [ "$helpers" = "11 1000 " ] || fail "$what: the helpers were called $helpers times, not 11 and 1000"
  # without the program, told apart by their symbols' addresses, as nm
  # shows them (the -pg mode's hooks know an address inside each, which
  # was shown)
  want=$($LIBTOOL --mode=execute nm "$tmp/prog" | awk '$2 ~ /^[tT]$/ && $3 == "helper" { sub(/^0+/, "", $1); print $1 }' | sort | tr '\n' ' ')
  exe=$("$cgcost" --format=tsv "$tmp/amon.out" | sed -n 's/^helper \[\(.*\)@a\.c\]\t.*/\1/p')
  [ -f "$exe" ] || fail "$what: no program named in a.c's helper's object: '$exe'"
  mv "$exe" "$tmp/moved"
  apart=$("$cgcost" --format=tsv "$tmp/amon.out" | awk -F '\t' '$1 ~ /^helper/ { print $1 }' | sed -n 's/.*@0x\([0-9a-f]*\)\]$/\1/p' | sort | tr '\n' ' ')
  mv "$tmp/moved" "$exe"
  [ -n "$want" ] && [ "$apart" = "$want" ] || fail "$what: the helpers are told apart by '$apart', not by their symbols' addresses '$want'"
  awk -F '\t' '$1 ~ /^walk/ && $2 ~ /^walk/' "$tmp/got" | grep -q . && fail "$what: the walks read as a recursion"
  "$cgcycles" --format=text "$tmp/amon.out" >"$tmp/cycles" 2>&1 || fail "$what: cgcycles"
  grep -q "walk" "$tmp/cycles" && fail "$what: a cycle of walk: $(cat "$tmp/cycles")"
  echo "$what: $(tr '\n\t' '; ' <"$tmp/got")"
}

check "-finstrument-functions" -finstrument-functions
case $(uname -m) in x86_64) check "-pg" -pg; check "-pg -mfentry" -pg -mfentry ;; esac

# gprof lists the same arcs (its own names for the two of each)
if command -v gprof >/dev/null 2>&1 && $CC -O2 -pg -o "$tmp/gprog" "$tmp/a.c" "$tmp/b.c" "$tmp/m.c" 2>/dev/null; then
  (cd "$tmp" && rm -f gmon.out && ./gprog >/dev/null) || fail "the gprof build failed"
  "$cgmerge" --executable="$tmp/gprog" "$tmp/gmon.out" >"$tmp/g.xml" || fail "cgmerge gmon.out"
  arcs "$tmp/g.xml" >"$tmp/gprof.arcs"
  diff "$tmp/gprof.arcs" "$tmp/got" >"$tmp/diff" \
    || fail "the arcs differ from gprof's: $(cat "$tmp/diff")"
fi
finish
