#!/bin/sh
# The extension points' tables and what people read of them agree: the
# input formats (cgmerge --help) and cgmerge(1)'s DESCRIPTION entries, the
# cost methods (cgcost --help) and cgcost(1)'s Methods, each tool's output
# formats (its --help) and its man page.
. "${top_srcdir:-.}/tests/cli/common.sh"

# the rows of a table printed by --help: the lines after HEADING, up to a
# blank line, their first column (names may hold one blank: "cgtools XML");
# a row's description folded onto more lines (--help fits 80 columns)
# goes on under its column, not under the names
help_rows () {
  "$1" --help | awk -v h="$2" 'index($0, h) == 1 { on = 1; next } on && /^$/ { exit }
    on && /^   / { next } on { sub(/^  /, ""); split($0, f, /  +/); print f[1] }' | sort
}

# the .TP entries of a man page's section (.SH) or subsection (.SS),
# their tag without markup
man_entries () {
  awk -v s="$2" '/^\.S[HS]/ { on = (substr($0, 5) == s); next }
    on && /^\.TP/ { getline; sub(/^\.B /, ""); gsub(/\\/, ""); print }' "$1" | sort
}

# the text of the option paragraph of a man page that starts with $2
man_option () {
  awk -v o="$2" 'p && /^\.(TP|SH)/ { exit } p { print } /^\.TP/ { getline; if (index($0, o)) p = 1 }' "$1"
}

help_rows "$cgmerge" "Input formats" >"$tmp/inputs"
man_entries "$top_srcdir/man/cgmerge.1" DESCRIPTION >"$tmp/man"
[ "$(wc -l <"$tmp/inputs")" -ge 5 ] || fail "cgmerge --help lists $(wc -l <"$tmp/inputs") input formats"
diff "$tmp/inputs" "$tmp/man" >"$tmp/diff" \
  || fail "input formats: the table (<) and cgmerge(1) (>) disagree: $(cat "$tmp/diff")"

# cost methods: auto and the table's rows, as cgcost(1) lists them
{ echo auto; help_rows "$cgcost" "Cost methods"; } | sort >"$tmp/table"
man_entries "$top_srcdir/man/cgcost.1" Methods >"$tmp/man"
[ "$(wc -l <"$tmp/table")" -ge 5 ] || fail "cgcost --help lists $(wc -l <"$tmp/table") methods"
diff "$tmp/table" "$tmp/man" >"$tmp/diff" || fail "methods: the table (<) and cgcost(1) (>) disagree: $(cat "$tmp/diff")"
help_rows "$cgtree" "Cost methods" >"$tmp/tree"
help_rows "$cgcost" "Cost methods" >"$tmp/cost"
cmp -s "$tmp/tree" "$tmp/cost" || fail "cgtree and cgcost list different methods"
expect 2 "$cgcost" --method=nonesuch "$data/folded/recdemo.folded"
while read -r m; do
  grep -q "$m" "$tmp/err" || fail "the unknown-method message does not name $m: $(cat "$tmp/err")"
done <"$tmp/table"

# output formats: cgcost's and cgtree's have a subsection each (cgcost's
# as entries of "Output formats", cgtree's as .SS headings), cgmerge's and
# cgcycles' are named in their --format paragraph
help_rows "$cgcost" "Output formats" >"$tmp/table"
man_entries "$top_srcdir/man/cgcost.1" "Output formats" >"$tmp/man"
diff "$tmp/table" "$tmp/man" >"$tmp/diff" \
  || fail "cgcost's output formats: the table (<) and cgcost(1) (>) disagree: $(cat "$tmp/diff")"
help_rows "$cgtree" "Output formats" | while read -r f; do
  grep -qix "\.SS $f" "$top_srcdir/man/cgtree.1" || echo "$f" >>"$tmp/missing"
done
for tool in cgmerge cgcycles; do
  eval "exe=\$$tool"
  man_option "$top_srcdir/man/$tool.1" 'format' >"$tmp/para"
  help_rows "$exe" "Output formats" | while read -r f; do
    grep -Eq "^\.BR? $f( |\$)" "$tmp/para" || echo "$tool: $f" >>"$tmp/missing"
  done
done
[ -s "$tmp/missing" ] && fail "output formats missing from the man pages: $(cat "$tmp/missing")"
for tool in cgmerge cgcycles cgcost cgtree; do
  eval "exe=\$$tool"
  [ "$(help_rows "$exe" "Output formats" | wc -l)" -ge 2 ] || fail "$tool --help lists no output formats"
done

# the message for an unknown format names every row
printf 'no profile here\n' >"$tmp/text"
expect 1 "$cgmerge" "$tmp/text"
while read -r name; do
  case $name in gmon.out|amon.out) word=$name ;; *) word=${name%% *} ;; esac
  grep -q "$word" "$tmp/err" || fail "the unknown-format message does not name $name: $(cat "$tmp/err")"
done <"$tmp/inputs"

finish
