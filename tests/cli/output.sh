#!/bin/sh
# Write errors: a full disk and a closed pipe are errors (exit 1), not
# silent truncation or death by signal.
. "${top_srcdir:-.}/tests/cli/common.sh"
cc1="$data/callgrind/gcc-cc1-pngtest/callgrind.out.cc1"

# a full disk, simulated by a file-size limit (writes past it fail with
# EFBIG once SIGXFSZ is ignored), and the real /dev/full where there is one
echo previous >"$tmp/out.xml"
expect 1 sh -c 'ulimit -f 16; trap "" XFSZ; "$0" -o "$1" "$2"' "$cgmerge" "$tmp/out.xml" "$cc1" \
  && expect_message "cgmerge: $tmp/out.xml: write error"
[ "$(cat "$tmp/out.xml")" = previous ] || fail "a failed write replaced the target"
[ "$(ls -A "$tmp" | grep -c '^\.out\.xml')" -eq 0 ] || fail "a failed write left a temporary file"
expect 1 sh -c 'ulimit -f 16; trap "" XFSZ; "$0" --format=tsv "$1" >"$2"' "$cgcost" "$cc1" "$tmp/o.tsv" \
  && expect_message "write error"
if [ -c /dev/full ]; then
  expect 1 sh -c '"$0" "$1" >/dev/full' "$cgmerge" "$cc1" && expect_message "write error"
  expect 1 sh -c '"$0" --format=xml "$1" >/dev/full' "$cgtree" "$cc1" && expect_message "write error"
fi
# -o through a symbolic link replaces the file it names and keeps the link;
# -o to what is not a regular file (a FIFO here; /dev/null alike) writes
# to it and leaves it what it was
"$cgmerge" "$cc1" >"$tmp/direct.xml" || fail "cgmerge $cc1"
echo previous >"$tmp/real.xml"
ln -s real.xml "$tmp/link.xml"
expect 0 "$cgmerge" -o "$tmp/link.xml" "$cc1"
[ -L "$tmp/link.xml" ] || fail "-o replaced a symbolic link instead of the file it names"
cmp -s "$tmp/real.xml" "$tmp/direct.xml" || fail "-o through a symbolic link did not write the file it names"
if mkfifo "$tmp/fifo" 2>/dev/null; then
  cat "$tmp/fifo" >"$tmp/from-fifo" &
  reader=$!
  expect 0 "$cgmerge" -o "$tmp/fifo" "$cc1"
  if [ -p "$tmp/fifo" ]; then
    wait $reader
    cmp -s "$tmp/from-fifo" "$tmp/direct.xml" || fail "-o to a FIFO did not write through it"
  else
    fail "-o replaced a FIFO by a regular file"
    kill $reader
  fi
fi
# a reader that goes away after one line: the tool ends by SIGPIPE, as cat
# does (status 141 in the shell), and without a message (the user closed
# the pipe on purpose, as in "| head")
# closed_pipe COMMAND... — COMMAND's output piped into head -n 1; it must
# write more than a pipe holds (64 KiB), or no write ever fails
closed_pipe () {
  status=$({ "$@" 2>"$tmp/pipe.err"; echo $? >"$tmp/status"; } | head -n 1 >/dev/null; cat "$tmp/status")
  [ "$status" = 141 ] || fail "$*: writing to a closed pipe: exit status $status, expected 141 (SIGPIPE)"
  [ ! -s "$tmp/pipe.err" ] || fail "$*: a closed pipe printed: $(cat "$tmp/pipe.err")"
}
"$cgmerge" "$cc1" >"$tmp/cc1.xml" || fail "cgmerge $cc1"
closed_pipe "$cgcost" --format=tsv "$cc1"
closed_pipe "$cgcost" --format=text "$tmp/cc1.xml"
closed_pipe "$cgcost" --format=gprof --method=gprof "$tmp/cc1.xml"
closed_pipe "$cgtree" --threshold=0 --color=never "$tmp/cc1.xml"
closed_pipe "$cgtree" --format=html "$tmp/cc1.xml"
closed_pipe "$cgtree" --format=xml "$tmp/cc1.xml"
closed_pipe "$cgmerge" "$cc1"
finish
