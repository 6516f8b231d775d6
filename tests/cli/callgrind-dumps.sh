#!/bin/sh
# callgrind's dumps in the middle of a call (--dump-every-bb, as
# callgrind_control --dump does them): data/programs/dumpcall.c's caller
# runs spin across the dumps, so that the last part has the call still
# running ("calls=0") with no self cost on the call's line, and callgrind
# writes the call's source position and the next self cost line relative
# to the last self cost line before them (its dump.c: the positions of a
# call leave the base alone).  Oracles: one run without dumps, whose
# totals the parts sum to exactly, and callgrind_annotate --inclusive=yes
# on each part.
. "${top_srcdir:-.}/tests/cli/common.sh"
[ -n "${VALGRIND:-}" ] && [ -x "$VALGRIND" ] || skip "valgrind is not installed"
${CC:-cc} -O0 -g -o "$tmp/dumpcall" "$data/programs/dumpcall.c" || skip "cannot compile the test program"
(cd "$tmp" && "$VALGRIND" --tool=callgrind --dump-every-bb=1000000 --callgrind-out-file="$tmp/parts.out" \
   ./dumpcall >/dev/null 2>&1) || fail "valgrind --dump-every-bb"
(cd "$tmp" && "$VALGRIND" --tool=callgrind --callgrind-out-file="$tmp/one.out" ./dumpcall >/dev/null 2>&1) \
  || fail "valgrind"
ls "$tmp"/parts.out.* >/dev/null 2>&1 || fail "test set-up: --dump-every-bb wrote no intermediate dumps"
# the last part: the running call's cost line goes below its base
awk '/^fn=.* caller$/ { on = 1; next } on && /^calls=0 / { getline; print; exit }' "$tmp/parts.out" \
  | grep -q '^-' || fail "test set-up: no running call in caller written relative to a line after it"

annotate=${CALLGRIND_ANNOTATE:-}
for part in "$tmp"/parts.out*; do
  expect 0 "$cgcost" --format=tsv "$part" || continue
  if [ -n "$annotate" ] && [ -x "$annotate" ]; then
    "$annotate" --inclusive=yes --threshold=100 --auto=no "$part" >"$tmp/annotated" 2>/dev/null \
      || fail "callgrind_annotate $(basename "$part")"
    # (a small part has few rows: only differences count here)
    annotate_compare "$tmp/out" "$tmp/annotated" >"$tmp/why"
    grep -q ', 0 different$' "$tmp/why" || fail "$(basename "$part"): $(cat "$tmp/why")"
    # callgrind_annotate's own output is no profile: refused, and named
    expect 1 "$cgmerge" "$tmp/annotated" \
      && expect_message "annotated:1: callgrind_annotate's or cg_annotate's output, which cgtools does not read"
  fi
done
expect 0 "$cgcost" --format=tsv "$tmp"/parts.out*
mv "$tmp/out" "$tmp/parts.tsv"
expect 0 "$cgcost" --format=tsv "$tmp/one.out"
for f in main caller spin; do
  want=$(total_of "$tmp/out" "$f")
  got=$(total_of "$tmp/parts.tsv" "$f")
  [ -n "$want" ] && [ "$got" = "$want" ] || fail "$f: the parts sum to '$got', one run says '$want'"
done
[ "$(total_of "$tmp/out" spin)" -gt 20000000 ] || fail "test set-up: spin ran $(total_of "$tmp/out" spin) instructions"
finish
