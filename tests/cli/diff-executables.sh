#!/bin/sh
# --base-executable: the gmon.out of one build against another's, each
# read with its own executable, where --base read the base with
# --executable's symbols (the new build's) and said nothing: -O0 against
# -O2 of diff-inline.c gave __do_global_dtors_aux -1.01 s and main a base
# of 0.00.  Oracle: the same diff of the two files cgmerge'd each with
# its executable, and cgcost's tsv of the base alone.
. "${top_srcdir:-.}/tests/cli/common.sh"
inline_builds 200000
"$cgcost" --format=tsv "$tmp/O0.xml" >"$tmp/O0.tsv"

# each view of the diff is the one of the two files symbolised apart
for tool in "$cgcost --format=text" "$cgcost --format=tsv" "$cgtree --threshold=0" "$cgtree --format=dot"; do
  expect 0 $tool --base="$tmp/O0.xml" "$tmp/O2.xml" && sed 1d "$tmp/out" >"$tmp/want"
  expect 0 $tool --executable="$tmp/inl.O2" --base="$tmp/gmon.O0" --base-executable="$tmp/inl.O0" "$tmp/gmon.O2" \
    && sed 1d "$tmp/out" | cmp -s - "$tmp/want" \
    || fail "$tool --base-executable: $(sed 1d "$tmp/out" | diff "$tmp/want" - | head -5)"
done
# the base's work: its total at -O0, cgcost's own of that file
expect 0 "$cgcost" --format=tsv --executable="$tmp/inl.O2" --base="$tmp/gmon.O0" --base-executable="$tmp/inl.O0" "$tmp/gmon.O2" \
  && [ "$(awk -F '\t' '$1 == "work" { print $2 }' "$tmp/out")" = "$(total_of "$tmp/O0.tsv" work)" ] \
  || fail "work's base total: $(grep work "$tmp/out") against $(grep work "$tmp/O0.tsv")"
# an option that would do nothing: without --base, or a base of no executable
expect 2 "$cgtree" --base-executable="$tmp/inl.O0" "$tmp/O2.xml" && expect_message '--base-executable applies with --base only'
expect 2 "$cgcost" --format=text --base-executable="$tmp/inl.O0" --base="$tmp/O0.xml" "$tmp/O2.xml" \
  && expect_message '--base-executable applies to a base that is a gmon.out, amon.out or gperftools file'
finish
