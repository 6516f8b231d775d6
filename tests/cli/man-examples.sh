#!/bin/sh
# The EXAMPLES of every man page run, in order, in a directory holding the
# example profile, and succeed.
. "${top_srcdir:-.}/tests/cli/common.sh"
command -v bash >/dev/null || skip "bash is needed for pipefail"
bin=$(cd "$top_builddir/src/tools" && pwd)
cp "$data/callgrind/recdemo/callgrind.out.recdemo" "$tmp/"
cp "$data/gmon/exprparse/exprparse" "$data/gmon/exprparse/gmon.out" "$tmp/"
cp "$data/folded/recdemo.folded" "$tmp/"
cp "$data/amon/mutual/amon.out.mutual" "$tmp/"
cp "$data/perf/layouts.perf" "$tmp/"
for page in "$top_srcdir"/man/*.1 "$top_srcdir"/man/*.5; do
  # "$ command" lines between .EX and .EE, with roff escapes undone
  sed -n '/^\.EX$/,/^\.EE$/s/^\$ //p' "$page" | sed 's/\\e/\\/g; s/\\-/-/g' >"$tmp/examples"
  [ -s "$tmp/examples" ] || fail "$(basename "$page") has no examples"
  while IFS= read -r example; do
    # an example of another program (dot, callgrind_annotate) needs it
    command -v "${example%% *}" >/dev/null 2>&1 || [ -x "$bin/${example%% *}" ] \
      || { echo "$(basename "$page"): skipped, ${example%% *} is not installed: $example"; continue; }
    (cd "$tmp" && PATH="$bin:$PATH" bash -o pipefail -c "$example" >"$tmp/example.out" 2>"$tmp/example.err") \
      || fail "$(basename "$page"): '$example' failed: $(head -c 300 "$tmp/example.err")"
    # an example that does not write a file must print something
    case $example in
      *'>'* | *' -o '*) ;;
      *) [ -s "$tmp/example.out" ] || fail "$(basename "$page"): '$example' printed nothing" ;;
    esac
  done <"$tmp/examples"
done
validate "$tmp/recdemo.xml" "$tmp/twice.xml" "$tmp/all.xml" "$tmp/collapsed.xml"
validate "$tmp/folded.xml" "$tmp/folded-twice.xml"
validate "$tmp/amon-twice.xml" "$tmp/mutual.xml" "$tmp/perf.xml"
"$validator" "$top_srcdir/formats/cgtree.rng" "$tmp/recdemo.tree.xml" || fail "cgtree(1): not valid cgtree XML"
# every page formats without a warning from groff (a misspelt escape prints
# as nothing, or as the escape's own letters)
if command -v groff >/dev/null; then
  for page in "$top_srcdir"/man/*.[1-8]; do
    groff -man -ww -z "$page" >"$tmp/groff.err" 2>&1
    [ -s "$tmp/groff.err" ] && fail "$(basename "$page"): groff warns: $(head -3 "$tmp/groff.err")"
  done
fi
finish
