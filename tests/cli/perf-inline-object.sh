#!/bin/sh
# perf script prints no object for an inlined frame, and at a caller's
# address whose whole inline chain it printed ("98ac9
# __GI___libc_malloc+0x199 (inlined)" under _int_malloc, with no frame
# of malloc itself) no frame of that address names one either.  The
# frame's "+0x199" is its address less the start of the ELF symbol it
# lies in (malloc, at 0x98930 in libc.so.6's .dynsym), so the object is
# the one of the input's whose symbol table has a function starting
# there, where exactly one has.  Oracle: a program built here, the
# start of its function host by nm, and stacks written with it: the
# inline-only frame at host+0x10 is the program's; one whose start no
# object has, or past the end of the function there, stays in none.  Skipped (77) without cc or nm.
. "${top_srcdir:-.}/tests/cli/common.sh"
command -v cc >/dev/null 2>&1 && command -v nm >/dev/null 2>&1 || skip "cc or nm missing"
cat >"$tmp/prog.c" <<'C'
int host (int x) { return x * 3 + 1; }
int other (int x) { return x - 2; }
int main (int argc, char **argv) { (void) argv; return host (argc) + other (argc); }
C
cc -O0 -o "$tmp/prog" "$tmp/prog.c" || skip "cc failed"
start=$(nm "$tmp/prog" | awk '$3 == "host" { print $1 }')
other=$(nm "$tmp/prog" | awk '$3 == "other" { print $1 }')
[ -n "$start" ] && [ -n "$other" ] || skip "nm names no host"
at=$(printf '%x' $((0x$start + 0x10)))
nowhere=$(printf '%x' $((0x$start + 1 + 0x10)))
{
  # helper inlined into host, whose frame perf left out
  printf 'prog 10/10     250000 cpu-clock: \n'
  printf '\t%16s other+0x4 (%s)\n' "$(printf '%x' $((0x$other + 4)))" "$tmp/prog"
  printf '\t%16s helper+0x10 (inlined)\n' "$at"
  printf '\t%16s main+0x8 (%s)\n\n' 1000 "$tmp/prog"
  # a function named helper too, in another object
  printf 'prog 10/10     250000 cpu-clock: \n'
  printf '\t%16s helper+0x4 (/usr/lib/libother.so)\n' 5004
  printf '\t%16s main+0x8 (%s)\n\n' 1000 "$tmp/prog"
  # host starts there, but is far shorter than 0x4000 bytes
  printf 'prog 10/10     250000 cpu-clock: \n'
  printf '\t%16s far+0x4000 (inlined)\n' "$(printf '%x' $((0x$start + 0x4000)))"
  printf '\t%16s main+0x8 (%s)\n\n' 1000 "$tmp/prog"
  # no object has a function starting one byte after host
  printf 'prog 10/10     250000 cpu-clock: \n'
  printf '\t%16s lost+0x10 (inlined)\n' "$nowhere"
  printf '\t%16s main+0x8 (%s)\n\n' 1000 "$tmp/prog"
} >"$tmp/stacks.perf"
expect 0 "$cgcost" --format=tsv "$tmp/stacks.perf" || fail "cgcost"
[ "$(total_of "$tmp/out" "helper [$tmp/prog]")" = 250000 ] \
  || fail "the inline-only frame at host+0x10 is not the program's: $(grep helper "$tmp/out")"
[ "$(total_of "$tmp/out" "helper [/usr/lib/libother.so]")" = 250000 ] \
  || fail "the other object's helper: $(grep helper "$tmp/out")"
[ "$(total_of "$tmp/out" lost)" = 250000 ] || fail "lost: $(grep lost "$tmp/out")"
expect 0 "$cgmerge" --format=text "$tmp/stacks.perf" || fail "cgmerge"
"$cgmerge" "$tmp/stacks.perf" >"$tmp/stacks.xml" 2>/dev/null
grep -q "^far	$(grep -o '<object id="[0-9]*" name=""' "$tmp/stacks.xml" | sed 's/.*id="\([0-9]*\)".*/\1/')	" "$tmp/stacks.xml" \
  || fail "far, past the end of host, was put in an object: $(grep '^far' "$tmp/stacks.xml")"
# an object the input names that is a FIFO is not opened to wait for a
# writer (nor a device read): the frame keeps no object
if command -v mkfifo >/dev/null 2>&1 && command -v timeout >/dev/null 2>&1 && mkfifo "$tmp/fifo"; then
  printf 'prog 10/10     250000 cpu-clock: \n\t%16s a+0x4 (%s)\n\t%16s helper+0x10 (inlined)\n\n' \
    1004 "$tmp/fifo" 1010 >"$tmp/fifo.perf"
  expect 0 timeout 20 "$cgcost" --format=tsv "$tmp/fifo.perf" && [ "$(total_of "$tmp/out" helper)" = 250000 ] \
    || fail "an object that is a FIFO: $(cat "$tmp/out")"
fi
finish
