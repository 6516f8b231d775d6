#!/bin/sh
# Progress: a line on a terminal when reading, computing or writing takes
# more than a second; nothing with --quiet, nothing when stderr is not a
# terminal.
. "${top_srcdir:-.}/tests/cli/common.sh"
command -v script >/dev/null || skip "script (bsdutils) is not installed"
command -v mkfifo >/dev/null || skip "mkfifo is not installed"
cc1="$data/callgrind/gcc-cc1-pngtest/callgrind.out.cc1"

# slow_read OPTIONS — cgmerge reads cc1 through a FIFO that pauses 1.3 s
# after the first 1.5 MB; its terminal output goes to $tmp/tty
slow_read () {
  rm -f "$tmp/fifo"
  mkfifo "$tmp/fifo" || return 1
  { head -c 1500000 "$cc1"; sleep 1.3; tail -c +1500001 "$cc1"; } >"$tmp/fifo" &
  script -qc "'$cgmerge' $1 '$tmp/fifo' >'$tmp/merged.xml'" /dev/null >"$tmp/tty" 2>&1
  wait
}

slow_read ""
grep -q "cgmerge: reading $tmp/fifo: [0-9]* MB, [0-9]* MB/s" "$tmp/tty" || fail "no progress line on a terminal: $(od -c "$tmp/tty" | head -3)"
validate "$tmp/merged.xml"
slow_read "--quiet"
grep -q "reading" "$tmp/tty" && fail "--quiet still shows progress"
# writing: the output a FIFO whose reader comes 1.6 s late (the page of
# cc1 is larger than the pipe holds): the line goes on while writing, and
# is erased at the end
rm -f "$tmp/fifo"; mkfifo "$tmp/fifo"
{ sleep 1.6; cat "$tmp/fifo" >"$tmp/page.html"; } &
script -qc "'$cgtree' --format=html -o '$tmp/fifo' '$cc1'" /dev/null >"$tmp/tty" 2>&1
wait
grep -q "cgtree: writing $tmp/fifo: [0-9]* s" "$tmp/tty" || fail "no progress line while writing: $(od -c "$tmp/tty" | head -3)"
[ "$(tail -c 4 "$tmp/tty" | od -An -c | tr -d ' ')" = '\r033[K' ] || fail "the line is not erased at the end: $(tail -c 20 "$tmp/tty" | od -c)"
grep -q '</html>' "$tmp/page.html" || fail "the page through the FIFO is not whole"
# not a terminal: nothing
rm -f "$tmp/fifo"; mkfifo "$tmp/fifo"
{ head -c 1500000 "$cc1"; sleep 1.3; tail -c +1500001 "$cc1"; } >"$tmp/fifo" &
"$cgmerge" "$tmp/fifo" >/dev/null 2>"$tmp/err"
wait
[ ! -s "$tmp/err" ] || fail "progress without a terminal: $(cat "$tmp/err")"
finish
