#!/bin/sh
# The extension points' tables and what people read of them agree: every
# input format of the table (as cgmerge --help lists it) has its entry in
# cgmerge(1)'s DESCRIPTION, and that list has no entry the table lacks.
. "${top_srcdir:-.}/tests/cli/common.sh"

# the rows of a table printed by --help: the lines after HEADING, up to a
# blank line, their first column (names may hold one blank: "cgtools XML")
help_rows () {
  "$1" --help | awk -v h="$2" 'index($0, h) == 1 { on = 1; next } on && /^$/ { exit }
    on { sub(/^  /, ""); split($0, f, /  +/); print f[1] }' | sort
}

# the .TP entries of a man page's section, their tag without markup
man_entries () {
  awk -v s="$2" '/^\.SH/ { on = ($0 == ".SH " s); next }
    on && /^\.TP/ { getline; sub(/^\.B /, ""); gsub(/\\/, ""); print }' "$1" | sort
}

help_rows "$cgmerge" "Input formats" >"$tmp/table"
man_entries "$top_srcdir/man/cgmerge.1" DESCRIPTION >"$tmp/man"
[ "$(wc -l <"$tmp/table")" -ge 5 ] || fail "cgmerge --help lists $(wc -l <"$tmp/table") input formats"
diff "$tmp/table" "$tmp/man" >"$tmp/diff" \
  || fail "input formats: the table (<) and cgmerge(1) (>) disagree: $(cat "$tmp/diff")"

# the message for an unknown format names every row
printf 'no profile here\n' >"$tmp/text"
expect 1 "$cgmerge" "$tmp/text"
while read -r name; do
  case $name in gmon.out|amon.out) word=$name ;; *) word=${name%% *} ;; esac
  grep -q "$word" "$tmp/err" || fail "the unknown-format message does not name $name: $(cat "$tmp/err")"
done <"$tmp/table"

finish
