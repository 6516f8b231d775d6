#!/bin/sh
# Progress: a line on a terminal when reading takes more than a second;
# nothing with --quiet, nothing when stderr is not a terminal.
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
# not a terminal: nothing
rm -f "$tmp/fifo"; mkfifo "$tmp/fifo"
{ head -c 1500000 "$cc1"; sleep 1.3; tail -c +1500001 "$cc1"; } >"$tmp/fifo" &
"$cgmerge" "$tmp/fifo" >/dev/null 2>"$tmp/err"
wait
[ ! -s "$tmp/err" ] || fail "progress without a terminal: $(cat "$tmp/err")"
finish
