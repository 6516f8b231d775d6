#!/bin/sh
# Two static functions of one name in two source files (as ld.so's two
# check_match), in callgrind profiles summed: one run calls the helper of
# a.c only, one that of b.c only, a third both.  callgrind keys a
# function by object, file and name, and cgtools names such functions
# apart ("helper [prog@a.c]") where one file holds both; a file that
# holds one of them names it plainly.  Summed in the order "one helper's
# run, then both", where the run of both wrote the other helper first, the
# one helper came out as two functions, "[prog@a.c]" and
# "[prog@/path/a.c]", each with one run's cost, as the dumps of callgrind
# --dump-every-bb or callgrind_control --dump did with ld.so's
# check_match, in whatever order the shell listed them.  Oracle:
# callgrind_annotate's file:function rows of the files summed; and the
# sum does not depend on the order.  Skipped (77) without valgrind.
. "${top_srcdir:-.}/tests/cli/common.sh"
[ -n "${VALGRIND:-}" ] && [ -x "$VALGRIND" ] || skip "valgrind is not installed"
for f in a b; do
  op='+='
  [ "$f" = b ] && op='^='
  cat >"$tmp/$f.c" <<C
static volatile unsigned long sink;
static __attribute__ ((noipa)) void helper (long n) { for (long i = 0; i < n; i++) sink $op i; }
__attribute__ ((noipa)) void from_$f (long n) { helper (n); }
C
done
cat >"$tmp/main.c" <<'C'
#include <stdlib.h>
void from_a (long);
void from_b (long);
int
main (int argc, char **argv)
{
  int which = argc > 1 ? atoi (argv[1]) : 1;
  if (which & 2)
    from_b (3000);
  if (which & 1)
    from_a (1000);
  return 0;
}
C
${CC:-cc} -O1 -g -o "$tmp/twice" "$tmp/main.c" "$tmp/a.c" "$tmp/b.c" || skip "cannot compile the test program"
for run in 1 2 3; do
  (cd "$tmp" && "$VALGRIND" --tool=callgrind --callgrind-out-file="$tmp/run$run.out" ./twice $run >/dev/null 2>&1) \
    || fail "valgrind ./twice $run"
done

# helpers TSV — "file<TAB>calls<TAB>self" of the helpers, by file
helpers () {
  awk -F '\t' '$1 ~ /^helper( |$)/ { f = $1; sub (/.*@/, "", f); sub (/.*\//, "", f); sub (/\]$/, "", f)
      if (f == $1) f = "?"; print f "\t" $2 "\t" $3 }' "$1" | sort
}

# the oracle: callgrind_annotate's self cost of a.c:helper and
# b.c:helper in each file, summed, and the calls of from_a and from_b
annotate=${CALLGRIND_ANNOTATE:-}
[ -n "$annotate" ] && [ -x "$annotate" ] || annotate=
# (whichever helper callgrind wrote first in the run of both, summed
# after the run of the other one alone, was split)
for one in 1 2; do
  expect 0 "$cgcost" --format=tsv "$tmp/run$one.out" "$tmp/run3.out" && cp "$tmp/out" "$tmp/forward.tsv"
  expect 0 "$cgcost" --format=tsv "$tmp/run3.out" "$tmp/run$one.out" && cp "$tmp/out" "$tmp/backward.tsv"
  cmp -s "$tmp/forward.tsv" "$tmp/backward.tsv" \
    || fail "run$one and run3: the sum depends on the order: $(diff "$tmp/backward.tsv" "$tmp/forward.tsv" | head -6)"
  [ "$(grep -c '^helper' "$tmp/forward.tsv")" = 2 ] \
    || fail "run$one and run3: not two helpers: $(grep '^helper' "$tmp/forward.tsv" | tr '\n' '|')"
  [ -n "$annotate" ] || continue
  for run in $one 3; do
    "$annotate" --inclusive=no --threshold=100 --auto=no "$tmp/run$run.out" 2>/dev/null \
      || fail "callgrind_annotate run$run.out"
  done | awk -v one="$one" '$NF ~ /^\[/ && $(NF - 1) ~ /\/[ab]\.c:helper$/ {
      f = $(NF - 1); sub (/:helper$/, "", f); sub (/.*\//, "", f); v = $1; gsub (/,/, "", v); self[f] += v }
    END { print "a.c\t" (one == 1 ? 2 : 1) "\t" self["a.c"]; print "b.c\t" (one == 2 ? 2 : 1) "\t" self["b.c"] }' >"$tmp/want"
  helpers "$tmp/forward.tsv" >"$tmp/got"
  cmp -s "$tmp/want" "$tmp/got" \
    || fail "run$one and run3: the helpers against callgrind_annotate's: $(tr '\n' '|' <"$tmp/got"), expected $(tr '\n' '|' <"$tmp/want")"
done
finish
