#!/bin/sh
# What perf's other commands print, given to cgmerge in place of a
# perf.data or perf script's text: perf report --stdio (with its header,
# and with -q, which leaves the header out: the table alone, or -g
# folded's "24.25% a;b" lines), perf report --header-only, perf annotate
# --stdio and perf stat.  Each is exit 1 with a message that names what
# it is and what to give instead, where all but perf report's full output
# said "unknown input format".  Made at test time from a recording of a
# shell pipeline (perf record -e cpu-clock -F 999 -g); skipped (77) where
# perf is missing or cannot record.
. "${top_srcdir:-.}/tests/cli/common.sh"

command -v perf >/dev/null 2>&1 || skip "perf is not installed (Debian: linux-perf)"
perf record -q -e cpu-clock -F 999 -g -o "$tmp/perf.data" -- sh -c 'seq 1 300000 | sort -r | cksum' \
  >/dev/null 2>"$tmp/record.err" && perf script -i "$tmp/perf.data" >"$tmp/script.txt" 2>/dev/null \
  && [ -s "$tmp/script.txt" ] || skip "perf record cannot record here: $(head -c 300 "$tmp/record.err")"

report="perf report's output, which cgtools does not read: give it the perf.data itself"
# refused NAME MESSAGE COMMAND... — COMMAND's output, given to cgmerge, is
# exit 1 with MESSAGE at line 1 (where perf prints nothing of the
# recording, which is perf's, the case is noted and left out)
refused () {
  name=$1
  message=$2
  shift 2
  "$@" >"$tmp/$name.txt" 2>"$tmp/$name.err" && [ -s "$tmp/$name.txt" ] \
    || { echo "note: $* printed nothing here: $(head -c 300 "$tmp/$name.err")"; return; }
  expect 1 "$cgmerge" "$tmp/$name.txt" && expect_message "cgmerge: $tmp/$name.txt:1: $message"
}
refused report "$report" perf report -i "$tmp/perf.data" --stdio
refused quiet "$report" perf report -i "$tmp/perf.data" --stdio -q
refused quiet-flat "$report" perf report -i "$tmp/perf.data" --stdio -q --no-children --sort=sym -g none
refused quiet-folded "$report" perf report -i "$tmp/perf.data" --stdio -q -g folded
refused header "the description of a perf.data that perf report --header-only prints, which holds no samples" \
  perf report -i "$tmp/perf.data" --header-only
refused annotate "perf annotate's output (its samples by instruction), which cgtools does not read" \
  perf annotate -i "$tmp/perf.data" --stdio
refused stat "perf stat's counts, which hold no samples or call chains" perf stat -o /dev/stdout -- true
# and the text perf script prints of the same recording is read
expect 0 "$cgmerge" --format=text "$tmp/script.txt" || true
finish
